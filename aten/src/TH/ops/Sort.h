#pragma once
// The sort family's kernel (sort / argsort / topk, and the torch/_refs/order.py composites on them):
// ops/Sort.cpp, cpu/SortKernels.cpp, THC/SortKernels.cu.
#include "../Dispatch.h"
#include "../Tensor.h"

namespace th {

/// Stable sort of each of the `segments` lines of the contiguous [segments, n] `in` into `values`
/// (same shape and dtype, contiguous) and `indices` (int64: each value's position in its line),
/// ascending or descending. NaN sorts as the largest value; equal values, -0.0 and +0.0 among them,
/// keep their order.
using sort_fn = void(const Tensor& in, const Tensor& values, const Tensor& indices, int64_t segments,
                     int64_t n, bool descending);
TH_DECLARE_STUB(sort_fn, sort_stub);

}  // namespace th
