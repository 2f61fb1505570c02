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
/// arange into a contiguous 1-D out: out[i] = start + i * step, computed in math::arange_acc_t of out's
/// dtype (start and step converted to it as Scalar::to converts).
using arange_fn = void(const Tensor& out, const Scalar& start, const Scalar& step);
/// linspace(start, end, out.numel()) into a contiguous 1-D out (math::linspace_value).
using linspace_fn = void(const Tensor& out, double start, double end);

TH_DECLARE_STUB(fill_fn, fill_stub);
TH_DECLARE_STUB(arange_fn, arange_stub);
TH_DECLARE_STUB(linspace_fn, linspace_stub);

}  // namespace th
