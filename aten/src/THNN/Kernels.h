#pragma once
// THNN's kernel signatures and dispatch stubs (CPU kernels here, CUDA ones in THCUNN).
#include <TH/Dispatch.h>
#include <TH/Scalar.h>
#include <TH/TensorIterator.h>

namespace th {

using relu_fn = void(TensorIterator&);
using threshold_backward_fn = void(TensorIterator&, const Scalar& threshold);

TH_DECLARE_STUB(relu_fn, relu_stub);
TH_DECLARE_STUB(threshold_backward_fn, threshold_backward_stub);

}  // namespace th
