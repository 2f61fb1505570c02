#pragma once
// The linear-algebra family's kernel (one batched gemm): ops/Linear.cpp, cpu/LinearKernels.cpp,
// THC/LinearKernels.cu.
#include "../Dispatch.h"
#include "../Scalar.h"
#include "../Tensor.h"

namespace th {

/// c[i] = alpha * a[i] @ b[i] + beta * c[i] for every batch i: a [B, M, K] and b [B, K, N] with any
/// strides, c a contiguous [B, M, N]; all of one dtype and device. beta == 0 ignores c's contents.
using gemm_fn = void(const Tensor& a, const Tensor& b, const Tensor& c, const Scalar& alpha,
                     const Scalar& beta);
TH_DECLARE_STUB(gemm_fn, gemm_stub);

}  // namespace th
