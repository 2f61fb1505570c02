// CPU kernels of the fill family: fill_ (one value everywhere) and arange/linspace (math/Fill.h).
#include "../ops/Fill.h"
#include "Loops.h"

namespace th {
namespace {

void fill_kernel(TensorIterator& iter, const Scalar& value) {
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(iter.dtype(0), "fill_cpu", [&] {
    const scalar_t v = value.to<scalar_t>();
    cpu::cpu_kernel<scalar_t, 0>(iter, [v]() { return v; });
  });
}

void arange_kernel(const Tensor& out, const Scalar& start, const Scalar& step) {
  TH_DISPATCH_NUMERIC_TYPES(out.dtype(), "arange_cpu", [&] {
    using acc_t = math::arange_acc_t<scalar_t>;
    const acc_t s = start.to<acc_t>(), d = step.to<acc_t>();
    auto* p = reinterpret_cast<scalar_t*>(out.data_ptr());
    const int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) p[i] = math::arange_value<scalar_t>(i, s, d);
  });
}

void linspace_kernel(const Tensor& out, double start, double end) {
  TH_DISPATCH_NUMERIC_TYPES(out.dtype(), "linspace_cpu", [&] {
    auto* p = reinterpret_cast<scalar_t*>(out.data_ptr());
    const int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) p[i] = math::linspace_value<scalar_t>(i, n, start, end);
  });
}

}  // namespace

TH_REGISTER_KERNEL(fill_stub, CPU, fill_kernel);
TH_REGISTER_KERNEL(arange_stub, CPU, arange_kernel);
TH_REGISTER_KERNEL(linspace_stub, CPU, linspace_kernel);

}  // namespace th
