#pragma once
// The activation family's kernels (math/Activation.h): ops/Activation.cpp, cpu/ActivationKernels.cpp,
// THCUNN/ActivationKernels.cu.
#include <TH/Dispatch.h>
#include <TH/Scalar.h>
#include <TH/TensorIterator.h>

#include "../math/Activation.h"

namespace th {

using relu_fn = void(TensorIterator&);
/// y = x where x > threshold, else value, over an iterator (x; any numeric dtype).
using threshold_fn = void(TensorIterator&, const Scalar& threshold, const Scalar& value);
using threshold_backward_fn = void(TensorIterator&, const Scalar& threshold);
using output_backward_fn = void(TensorIterator&, math::OutputBackward op);

/// y = op(x) over an iterator (x, computed in its floating dtype).
using activation_fn = void(TensorIterator&, math::ActivationOp op, math::ActivationParams params);
/// grad_input = grad * op'(x) over an iterator (grad, x).
using activation_backward_fn = void(TensorIterator&, math::ActivationOp op, math::ActivationParams params);

/// out = f(u, v) (Glu, Prelu, PreluGradWeight) or f(grad, u, v) (the other gradients) over an iterator of two
/// or three inputs, in its floating dtype.
using activation2_fn = void(TensorIterator&, math::Activation2Op op);

TH_DECLARE_STUB(relu_fn, relu_stub);
TH_DECLARE_STUB(activation2_fn, activation2_stub);
TH_DECLARE_STUB(activation_fn, activation_stub);
TH_DECLARE_STUB(activation_backward_fn, activation_backward_stub);
TH_DECLARE_STUB(threshold_fn, threshold_stub);
TH_DECLARE_STUB(threshold_backward_fn, threshold_backward_stub);
TH_DECLARE_STUB(output_backward_fn, output_backward_stub);

}  // namespace th
