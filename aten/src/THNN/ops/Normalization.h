#pragma once
// The normalization family's kernels (layer_norm, batch_norm; math/Normalization.h): ops/Normalization.cpp,
// cpu/NormalizationKernels.cpp, THCUNN/NormalizationKernels.cu.
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

namespace th {

/// Layer norm of the N rows of M elements of the contiguous `x` into `y` (same shape and dtype), with
/// per-element `weight` and `bias` (contiguous [M] of x's dtype, or undefined); writes `mean` and `rstd`
/// (contiguous [N], float32 for 16-bit x, else x's dtype).
using layer_norm_fn = void(const Tensor& x, const Tensor& weight, const Tensor& bias, double eps,
                           const Tensor& y, const Tensor& mean, const Tensor& rstd, int64_t N, int64_t M);
/// dx (defined: contiguous like x), and dweight / dbias (each contiguous [M] of x's dtype, or undefined to
/// skip) of layer_norm from dy, x, the saved mean and rstd, and weight.
using layer_norm_backward_fn = void(const Tensor& dy, const Tensor& x, const Tensor& mean, const Tensor& rstd,
                                    const Tensor& weight, const Tensor& dx, const Tensor& dweight,
                                    const Tensor& dbias, int64_t N, int64_t M);

/// Batch norm of the contiguous [N, C, L] x into y: with `batch_stats`, first writes each channel's mean and
/// (biased) var into `mean` / `var` ([C], float32 for 16-bit x); otherwise reads them from there.
using batch_norm_fn = void(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& mean,
                           const Tensor& var, bool batch_stats, double eps, const Tensor& y, int64_t N,
                           int64_t C, int64_t L);
/// dx (like x), dweight and dbias ([C], or undefined to skip) of batch norm from dy and the mean / var it
/// used.
using batch_norm_backward_fn = void(const Tensor& dy, const Tensor& x, const Tensor& mean, const Tensor& var,
                                    const Tensor& weight, bool batch_stats, double eps, const Tensor& dx,
                                    const Tensor& dweight, const Tensor& dbias, int64_t N, int64_t C,
                                    int64_t L);

TH_DECLARE_STUB(layer_norm_fn, layer_norm_stub);
TH_DECLARE_STUB(batch_norm_fn, batch_norm_stub);
TH_DECLARE_STUB(batch_norm_backward_fn, batch_norm_backward_stub);
TH_DECLARE_STUB(layer_norm_backward_fn, layer_norm_backward_stub);

}  // namespace th
