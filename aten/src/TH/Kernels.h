#pragma once
// The kernel signatures of TH's ops and their dispatch stubs (filled per device).
#include "Dispatch.h"
#include "Scalar.h"
#include "TensorIterator.h"
#include "math/Binary.h"
#include "math/Philox.h"
#include "math/Reduce.h"
#include "math/Unary.h"

namespace th {

using fill_fn = void(TensorIterator&, const Scalar& value);
using binary_fn = void(TensorIterator&, const Scalar& alpha);
using copy_fn = void(TensorIterator&);
using reduce_fn = void(TensorIterator&, math::ReduceOp);
/// max/min with indices over the rows of a contiguous [R, n] tensor (n > 0).
using argreduce_fn = void(const Tensor& rows, Tensor& values, Tensor& indices, bool is_max);
using unary_fn = void(TensorIterator&, math::UnaryOp);
/// arange into a contiguous 1-D out (out[i] = start + i * step), or linspace(start, end, out.numel())
/// when `linspace` (step unused; see math::range_value).
using range_fn = void(const Tensor& out, double start, double step, double end, bool linspace);
using binary_op_fn = void(TensorIterator&, math::BinaryOp);
/// c[i] = alpha * a[i] @ b[i] + beta * c[i] for every batch i: a [B, M, K] and b [B, K, N] with any
/// strides, c a contiguous [B, M, N]; all of one dtype and device. beta == 0 ignores c's contents.
using gemm_fn = void(const Tensor& a, const Tensor& b, const Tensor& c, const Scalar& alpha,
                     const Scalar& beta);

TH_DECLARE_STUB(fill_fn, fill_stub);
TH_DECLARE_STUB(binary_fn, add_stub);
TH_DECLARE_STUB(binary_fn, mul_stub);
TH_DECLARE_STUB(copy_fn, copy_stub);
TH_DECLARE_STUB(reduce_fn, reduce_stub);
TH_DECLARE_STUB(argreduce_fn, argreduce_stub);
TH_DECLARE_STUB(unary_fn, unary_stub);
TH_DECLARE_STUB(range_fn, range_stub);
TH_DECLARE_STUB(binary_op_fn, binary_stub);
TH_DECLARE_STUB(gemm_fn, gemm_stub);
/// Fills the contiguous `out` with math::random_value(seed, offset + i, kind, a, b) for element i.
using random_fn = void(const Tensor& out, uint64_t seed, uint64_t offset, math::RandomKind kind, double a,
                       double b);
TH_DECLARE_STUB(random_fn, random_stub);
/// out = cond ? a : b over an iterator whose inputs (cond, a, b) share the computation dtype.
using where_fn = void(TensorIterator&);
TH_DECLARE_STUB(where_fn, where_stub);
/// Inclusive scan (cumsum / cumprod) of the contiguous [outer, n, inner] `in` into `out` (same shape,
/// contiguous, same dtype) along the middle dim.
using scan_fn = void(const Tensor& in, const Tensor& out, int64_t outer, int64_t n, int64_t inner, bool prod);
TH_DECLARE_STUB(scan_fn, scan_stub);

}  // namespace th
