// CPU kernels of the padding family (math/Padding.h): the forward an output row at a time (its source row
// found once, the interior copied, the borders mapped element by element), rows in parallel; the backward
// a line at a time along the last dim, or a row of lines at a time along an outer one (the same additions in
// the same order), in parallel.
#include <algorithm>
#include <cstring>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/Padding.h"

namespace th {
namespace {

void pad_kernel(const Tensor& x, const Tensor& out, const math::PadGeometry& g, const Scalar& value) {
  const int64_t planes = out.numel() / g.out_numel(), rows = planes * g.out[0] * g.out[1];
  TH_DISPATCH_ALL_TYPES(x.dtype(), "pad_cpu", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(x.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    const scalar_t fill = value.to<scalar_t>();
    const int64_t W = g.out[2], Wi = g.in[2], lo = std::clamp<int64_t>(g.left[2], 0, W),
                  hi = std::clamp<int64_t>(g.left[2] + Wi, lo, W);  // the outputs that read input lo - left..
    parallel_for(
        rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(W, 1)), [&](int64_t begin, int64_t end) {
          for (int64_t r = begin; r < end; ++r) {
            const int64_t h = r % g.out[1], d = (r / g.out[1]) % g.out[0], plane = r / (g.out[1] * g.out[0]);
            scalar_t* o = dst + r * W;
            const int64_t sd = math::pad_source(d, g.left[0], g.in[0], g.mode),
                          sh = math::pad_source(h, g.left[1], g.in[1], g.mode);
            if (sd < 0 || sh < 0) {
              std::fill_n(o, W, fill);
              continue;
            }
            const scalar_t* line = src + plane * g.in_numel() + (sd * g.in[1] + sh) * Wi;
            for (int64_t w = 0; w < lo; ++w) {
              const int64_t sw = math::pad_source(w, g.left[2], Wi, g.mode);
              o[w] = sw < 0 ? fill : line[sw];
            }
            if (hi > lo) std::memcpy(o + lo, line + (lo - g.left[2]), size_t(hi - lo) * sizeof(scalar_t));
            for (int64_t w = hi; w < W; ++w) {
              const int64_t sw = math::pad_source(w, g.left[2], Wi, g.mode);
              o[w] = sw < 0 ? fill : line[sw];
            }
          }
        });
  });
}

void pad_backward_kernel(const Tensor& out, const Tensor& in, int64_t dim, int64_t left, math::PadMode mode) {
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < dim; ++k) outer *= in.size(k);
  for (int64_t k = dim + 1; k < in.dim(); ++k) inner *= in.size(k);
  const int64_t L = out.size(dim), n = in.size(dim);
  TH_DISPATCH_FLOATING_TYPES(in.dtype(), "pad_backward_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* g = reinterpret_cast<const scalar_t*>(out.data_ptr());
    auto* gi = reinterpret_cast<scalar_t*>(in.data_ptr());
    if (inner == 1) {  // lines along the last dim, one at a time
      parallel_for(outer, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(L, 1)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t a = begin; a < end; ++a)
                       math::pad_backward_line<scalar_t, A>(g + a * L, gi + a * n, L, n, 1, left, mode);
                   });
      return;
    }
    // lines along an outer dim: the same additions in the same order (o ascending), a row of `inner` lines at
    // a time so that the inner loop is contiguous
    parallel_for(outer, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(L * inner, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t a = begin; a < end; ++a) {
                     scalar_t* dst = gi + a * n * inner;
                     std::fill_n(dst, n * inner, scalar_t(0));
                     for (int64_t o = 0; o < L; ++o) {
                       const int64_t k = math::pad_source(o, left, n, mode);
                       if (k < 0) continue;
                       const scalar_t* src = g + (a * L + o) * inner;
                       scalar_t* row = dst + k * inner;
                       for (int64_t b = 0; b < inner; ++b) row[b] = scalar_t(A(row[b]) + A(src[b]));
                     }
                   }
                 });
  });
}

}  // namespace

TH_REGISTER_KERNEL(pad_stub, CPU, pad_kernel);
TH_REGISTER_KERNEL(pad_backward_stub, CPU, pad_backward_kernel);

}  // namespace th
