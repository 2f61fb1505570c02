#pragma once
// The softmax family's kernels (math/Softmax.h): ops/Softmax.cpp, cpu/SoftmaxKernels.cpp,
// THCUNN/SoftmaxKernels.cu.
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

namespace th {

/// softmax (log_softmax with `log`) of the contiguous [outer, n, inner] `in` along its middle dim into
/// `out` (same shape, contiguous, same dtype).
using softmax_fn = void(const Tensor& in, const Tensor& out, int64_t outer, int64_t n, int64_t inner,
                        bool log);
/// The input gradient `grad_in` from the output `out` and its gradient `grad`, all contiguous
/// [outer, n, inner] of one dtype.
using softmax_backward_fn = void(const Tensor& grad, const Tensor& out, const Tensor& grad_in, int64_t outer,
                                 int64_t n, int64_t inner, bool log);

TH_DECLARE_STUB(softmax_fn, softmax_stub);
TH_DECLARE_STUB(softmax_backward_fn, softmax_backward_stub);

}  // namespace th
