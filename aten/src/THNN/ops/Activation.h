#pragma once
// The activation family's kernels (math/Activation.h): ops/Activation.cpp, cpu/ActivationKernels.cpp,
// THCUNN/ActivationKernels.cu.
#include <TH/Dispatch.h>
#include <TH/Scalar.h>
#include <TH/TensorIterator.h>

#include "../math/Activation.h"

namespace th {

using relu_fn = void(TensorIterator&);
using threshold_backward_fn = void(TensorIterator&, const Scalar& threshold);
using output_backward_fn = void(TensorIterator&, math::OutputBackward op);

TH_DECLARE_STUB(relu_fn, relu_stub);
TH_DECLARE_STUB(threshold_backward_fn, threshold_backward_stub);
TH_DECLARE_STUB(output_backward_fn, output_backward_stub);

}  // namespace th
