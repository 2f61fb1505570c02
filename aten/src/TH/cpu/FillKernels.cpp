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

void range_kernel(const Tensor& out, double start, double step, double end, bool linspace) {
  TH_DISPATCH_NUMERIC_TYPES(out.dtype(), "range_cpu", [&] {
    auto* p = reinterpret_cast<scalar_t*>(out.data_ptr());
    const int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) p[i] = math::range_value<scalar_t>(i, n, start, step, end, linspace);
  });
}

}  // namespace

TH_REGISTER_KERNEL(fill_stub, CPU, fill_kernel);
TH_REGISTER_KERNEL(range_stub, CPU, range_kernel);

}  // namespace th
