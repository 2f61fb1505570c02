#pragma once
// The fill family's kernels (values from nothing but arguments): fill_ (ops/Fill.cpp) and
// arange/linspace (ops/Factories.cpp); cpu/FillKernels.cpp, THC/FillKernels.cu.
#include "../Dispatch.h"
#include "../Scalar.h"
#include "../TensorIterator.h"
#include "../math/Fill.h"

namespace th {

/// Every element of the iterator's output = value.
using fill_fn = void(TensorIterator&, const Scalar& value);
/// arange into a contiguous 1-D out (out[i] = start + i * step), or linspace(start, end, out.numel())
/// when `linspace` (step unused; see math::range_value).
using range_fn = void(const Tensor& out, double start, double step, double end, bool linspace);

TH_DECLARE_STUB(fill_fn, fill_stub);
TH_DECLARE_STUB(range_fn, range_stub);

}  // namespace th
