// CPU kernels of the upsample family (math/Upsample.h): the taps of every output index computed once, then
// the lines resampled (along the last dim one at a time; along an outer dim a row of `inner` lines at a time,
// so the inner loop is contiguous), in parallel; the backward adds in the order of o on both layouts.
#include <algorithm>
#include <vector>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/Upsample.h"

namespace th {
namespace {

std::vector<math::ResampleTaps> all_taps(const math::Resample1d& r) {
  std::vector<math::ResampleTaps> taps(static_cast<size_t>(r.out));
  for (int64_t o = 0; o < r.out; ++o) taps[size_t(o)] = r.taps(o);
  return taps;
}

void resample_kernel(const Tensor& x, const Tensor& out, const math::Resample1d& r, int64_t outer,
                     int64_t inner) {
  const std::vector<math::ResampleTaps> taps = all_taps(r);
  TH_DISPATCH_ALL_TYPES(x.dtype(), "upsample_cpu", [&] {
    using A =
        std::conditional_t<is_floating_v<scalar_t>, opmath_t<scalar_t>, double>;  // (integers: nearest only)
    const auto* src = reinterpret_cast<const scalar_t*>(x.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    parallel_for(outer, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(r.out * inner, 1)),
                 [&](int64_t begin, int64_t end) {
                   std::vector<A> acc(static_cast<size_t>(inner));
                   if (inner == 1) {  // lines along the last dim: each output from its taps directly
                     for (int64_t a = begin; a < end; ++a) {
                       const scalar_t* in = src + a * r.in;
                       scalar_t* line = dst + a * r.out;
                       for (int64_t o = 0; o < r.out; ++o) {
                         const math::ResampleTaps& t = taps[size_t(o)];
                         A v = A(0);
                         for (int j = 0; j < t.n; ++j) v += A(t.w[j]) * A(in[t.idx[j]]);
                         line[o] = t.n == 1 ? in[t.idx[0]] : scalar_t(v);
                       }
                     }
                     return;
                   }
                   for (int64_t a = begin; a < end; ++a) {
                     const scalar_t* in = src + a * r.in * inner;
                     for (int64_t o = 0; o < r.out; ++o) {
                       const math::ResampleTaps& t = taps[size_t(o)];
                       scalar_t* row = dst + (a * r.out + o) * inner;
                       if (t.n == 1) {
                         std::copy_n(in + t.idx[0] * inner, inner, row);
                         continue;
                       }
                       if constexpr (is_floating_v<scalar_t>) {
                         std::fill(acc.begin(), acc.end(), A(0));
                         for (int j = 0; j < t.n; ++j) {
                           const scalar_t* s = in + t.idx[j] * inner;
                           const A w = A(t.w[j]);
                           for (int64_t b = 0; b < inner; ++b) acc[size_t(b)] += w * A(s[b]);
                         }
                         for (int64_t b = 0; b < inner; ++b) row[b] = scalar_t(acc[size_t(b)]);
                       }
                     }
                   }
                 });
  });
}

void resample_backward_kernel(const Tensor& grad_out, const Tensor& grad_in, const math::Resample1d& r,
                              int64_t outer, int64_t inner) {
  const std::vector<math::ResampleTaps> taps = all_taps(r);
  TH_DISPATCH_FLOATING_TYPES(grad_in.dtype(), "upsample_backward_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* g = reinterpret_cast<const scalar_t*>(grad_out.data_ptr());
    auto* gi = reinterpret_cast<scalar_t*>(grad_in.data_ptr());
    parallel_for(outer, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(r.out * inner, 1)),
                 [&](int64_t begin, int64_t end) {
                   std::vector<A> acc(static_cast<size_t>(r.in * inner));
                   for (int64_t a = begin; a < end; ++a) {
                     std::fill(acc.begin(), acc.end(), A(0));
                     for (int64_t o = 0; o < r.out; ++o) {
                       const math::ResampleTaps& t = taps[size_t(o)];
                       const scalar_t* src = g + (a * r.out + o) * inner;
                       for (int j = 0; j < t.n; ++j) {
                         A* row = acc.data() + t.idx[j] * inner;
                         const A w = A(t.w[j]);
                         for (int64_t b = 0; b < inner; ++b) row[b] += w * A(src[b]);
                       }
                     }
                     scalar_t* dst = gi + a * r.in * inner;
                     for (int64_t k = 0; k < r.in * inner; ++k) dst[k] = scalar_t(acc[size_t(k)]);
                   }
                 });
  });
}

}  // namespace

TH_REGISTER_KERNEL(resample_stub, CPU, resample_kernel);
TH_REGISTER_KERNEL(resample_backward_stub, CPU, resample_backward_kernel);

}  // namespace th
