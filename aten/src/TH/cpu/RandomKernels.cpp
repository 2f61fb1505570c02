// CPU kernel of the random ops: element i is a pure function of (seed, offset + i), so any
// number of threads produce the same tensor.
#include <cmath>

#include "../Parallel.h"
#include "../ops/Random.h"

namespace th {
namespace {

void random_kernel(const Tensor& out, uint64_t seed, uint64_t offset, math::RandomKind kind, double a,
                   double b) {
  TH_DISPATCH_ALL_TYPES(out.dtype(), "random_cpu", [&] {
    auto* p = reinterpret_cast<scalar_t*>(out.data_ptr());
    parallel_for(out.numel(), 4096, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        double v = math::random_value(seed, offset + uint64_t(i), kind, a, b);
        if constexpr (is_floating_v<scalar_t>) {
          scalar_t x = static_cast<scalar_t>(v);
          // [from, to): rounding to the output type must not reach `to`
          if (kind == math::RandomKind::Uniform && x >= static_cast<scalar_t>(b) && b > a)
            x = next_toward(static_cast<scalar_t>(b), static_cast<scalar_t>(a));
          p[i] = x;
        } else {
          p[i] = static_cast<scalar_t>(static_cast<int64_t>(v));
        }
      }
    });
  });
}

void parameterized_random_kernel(const Tensor& param, const Tensor& out, uint64_t seed, uint64_t offset,
                                 math::ParameterizedKind kind) {
  TH_DISPATCH_FLOATING_TYPES(out.dtype(), "parameterized_random_cpu", [&] {
    const auto* a = reinterpret_cast<const scalar_t*>(param.data_ptr());
    auto* p = reinterpret_cast<scalar_t*>(out.data_ptr());
    parallel_for(out.numel(), 1024, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        p[i] =
            static_cast<scalar_t>(math::random_parameterized(kind, double(a[i]), seed, offset + uint64_t(i)));
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(random_stub, CPU, random_kernel);
TH_REGISTER_KERNEL(parameterized_random_stub, CPU, parameterized_random_kernel);

}  // namespace th
