// CPU kernels of the upsample family (math/Upsample.h): the taps of every output index computed once (a
// table: plain modes take at most four, antialiased ones a window that grows with the downsampling ratio),
// then the lines resampled (along the last dim one at a time; along an outer dim a row of `inner` lines at a
// time, so the inner loop is contiguous), in parallel; the backward adds in the order of o on both layouts.
#include <algorithm>
#include <vector>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/Upsample.h"

namespace th {
namespace {

/// Every output's taps: output o's are idx/w[begin[o] .. begin[o + 1]).
struct TapTable {
  std::vector<int64_t> begin, idx;
  std::vector<double> w;

  explicit TapTable(const math::Resample1d& r) {
    begin.reserve(size_t(r.out) + 1);
    begin.push_back(0);
    for (int64_t o = 0; o < r.out; ++o) {
      r.for_each_tap(o, [&](int64_t k, double weight) {
        idx.push_back(k);
        w.push_back(weight);
      });
      begin.push_back(int64_t(idx.size()));
    }
  }
};

void resample_kernel(const Tensor& x, const Tensor& out, const math::Resample1d& r, int64_t outer,
                     int64_t inner) {
  const TapTable taps(r);
  const bool nearest = r.mode == math::ResampleMode::Nearest || r.mode == math::ResampleMode::NearestExact;
  TH_DISPATCH_ALL_TYPES(x.dtype(), "upsample_cpu", [&] {
    using A = std::conditional_t<is_floating_v<scalar_t>, opmath_t<scalar_t>,
                                 double>;  // (integers: nearest, or uint8 rounded at each pass)
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
                         const int64_t t0 = taps.begin[size_t(o)], t1 = taps.begin[size_t(o) + 1];
                         if (nearest) {
                           line[o] = in[taps.idx[size_t(t0)]];
                           continue;
                         }
                         A v = A(0);  // the first product as is (-0.0 stays), as upstream's loops
                         for (int64_t j = t0; j < t1; ++j) {
                           const A p = A(taps.w[size_t(j)]) * A(in[taps.idx[size_t(j)]]);
                           v = j == t0 ? p : v + p;
                         }
                         line[o] = math::resample_store<scalar_t>(v);
                       }
                     }
                     return;
                   }
                   for (int64_t a = begin; a < end; ++a) {
                     const scalar_t* in = src + a * r.in * inner;
                     for (int64_t o = 0; o < r.out; ++o) {
                       const int64_t t0 = taps.begin[size_t(o)], t1 = taps.begin[size_t(o) + 1];
                       scalar_t* row = dst + (a * r.out + o) * inner;
                       if (nearest) {
                         std::copy_n(in + taps.idx[size_t(t0)] * inner, inner, row);
                         continue;
                       }
                       if constexpr (!std::is_same_v<scalar_t, bool>) {
                         if (t0 == t1) std::fill(acc.begin(), acc.end(), A(0));
                         for (int64_t j = t0; j < t1; ++j) {
                           const scalar_t* s = in + taps.idx[size_t(j)] * inner;
                           const A w = A(taps.w[size_t(j)]);
                           if (j == t0) {
                             for (int64_t b = 0; b < inner; ++b) acc[size_t(b)] = w * A(s[b]);
                           } else {
                             for (int64_t b = 0; b < inner; ++b) acc[size_t(b)] += w * A(s[b]);
                           }
                         }
                         for (int64_t b = 0; b < inner; ++b)
                           row[b] = math::resample_store<scalar_t>(acc[size_t(b)]);
                       }
                     }
                   }
                 });
  });
}

void resample_backward_kernel(const Tensor& grad_out, const Tensor& grad_in, const math::Resample1d& r,
                              int64_t outer, int64_t inner) {
  const TapTable taps(r);
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
                       const scalar_t* src = g + (a * r.out + o) * inner;
                       for (int64_t j = taps.begin[size_t(o)]; j < taps.begin[size_t(o) + 1]; ++j) {
                         A* row = acc.data() + taps.idx[size_t(j)] * inner;
                         const A w = A(taps.w[size_t(j)]);
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
