// CPU kernels of the pooling family: the forward an output element at a time (math/Pooling.h), in parallel;
// the backward a plane at a time (its outputs in turn, so no two threads add to one element).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../math/Pooling.h"
#include "../ops/Pooling.h"

namespace th {
namespace {

int64_t planes_of(const Tensor& t, const math::ConvGeometry& g) { return t.numel() / g.in_numel(); }

/// m, at = v, pos where `take`, with masks instead of a branch (compilers turn the plain select back into a
/// branch, and which element wins a window is unpredictable on real data: a mispredict per element).
template <typename A>
inline void select(bool take, A v, int64_t pos, A& m, int64_t& at) {
  using Bits = std::conditional_t<sizeof(A) == 8, uint64_t, uint32_t>;
  Bits vb, mb;
  std::memcpy(&vb, &v, sizeof v);
  std::memcpy(&mb, &m, sizeof m);
  const Bits mask = Bits(0) - Bits(take);
  mb = (vb & mask) | (mb & ~mask);
  std::memcpy(&m, &mb, sizeof m);
  const int64_t imask = -int64_t(take);
  at = (pos & imask) | (at & ~imask);
}

/// A 2-D pooling (depth 1) without padding whose every window lies inside the input (no ceil_mode overhang).
bool interior_2d(const math::ConvGeometry& g) {
  if (g.k[0] != 1 || g.in[0] != 1 || g.pad[1] != 0 || g.pad[2] != 0) return false;
  for (int d = 1; d < 3; ++d)
    if ((g.out[d] - 1) * g.stride[d] + (g.k[d] - 1) * g.dil[d] >= g.in[d]) return false;
  return true;
}

/// One output row of 2x2 max pooling at stride 2 (the common case) from its two input rows r0 and r1: the
/// window's four elements in registers, the winner's position in the window (0..3) picked by masks.
template <typename T>
void max_pool_2x2_row(const T* r0, const T* r1, int64_t W, int64_t first, int64_t in_w, T* dst,
                      int64_t* idx) {
  using A = opmath_t<T>;
  for (int64_t j = 0; j < W; ++j) {
    const A v[4] = {A(r0[2 * j]), A(r0[2 * j + 1]), A(r1[2 * j]), A(r1[2 * j + 1])};
    A m = v[0];
    int64_t k = 0;
    for (int64_t e = 1; e < 4; ++e) select(math::max_pool_better(v[e], m), v[e], e, m, k);
    dst[j] = T(m);
    idx[j] = first + 2 * j + (k >> 1) * in_w + (k & 1);
  }
}

/// One output row of a 2-D pooling whose windows never leave the input (interior_2d): no bounds checks, and
/// the window loops outside a loop over a block of outputs, so that each step updates kBlock independent
/// maxima (a window at a time, the selects of one window form a chain of dependent instructions that the
/// CPU cannot overlap: 4x slower on 2x2 windows).
template <typename T>
void max_pool_interior_row(const T* plane, const math::ConvGeometry& g, int64_t h0, int64_t W, T* dst,
                           int64_t* idx) {
  using A = opmath_t<T>;
  constexpr int64_t kBlock = 64;
  A m[kBlock];
  int64_t at[kBlock];
  const int64_t in_w = g.in[2], sw = g.stride[2];
  for (int64_t b0 = 0; b0 < W; b0 += kBlock) {
    const int64_t n = std::min(kBlock, W - b0);
    const int64_t first = h0 * in_w + b0 * sw;  // the window's first element, then selects (no branches:
    for (int64_t j = 0; j < n; ++j) {           // which element wins is unpredictable on real data)
      m[j] = A(plane[first + j * sw]);
      at[j] = first + j * sw;
    }
    for (int64_t kh = 0; kh < g.k[1]; ++kh)
      for (int64_t kw = kh == 0 ? 1 : 0; kw < g.k[2]; ++kw) {
        const int64_t base = (h0 + kh * g.dil[1]) * in_w + b0 * sw + kw * g.dil[2];
        for (int64_t j = 0; j < n; ++j) {
          const int64_t pos = base + j * sw;
          const A v = A(plane[pos]);
          select(math::max_pool_better(v, m[j]), v, pos, m[j], at[j]);
        }
      }
    for (int64_t j = 0; j < n; ++j) {
      dst[b0 + j] = T(m[j]);
      idx[b0 + j] = at[j];
    }
  }
}

/// One output row of a 2-D average pooling whose windows never leave the input (interior_2d), a block of
/// outputs per window step as max_pool_interior_row; every window holds k[1] * k[2] elements.
template <typename T>
void avg_pool_interior_row(const T* plane, const math::ConvGeometry& g, int64_t h0, int64_t W, T* dst,
                           opmath_t<T> divisor) {
  using A = opmath_t<T>;
  constexpr int64_t kBlock = 64;
  A sum[kBlock];
  const int64_t in_w = g.in[2], sw = g.stride[2];
  for (int64_t b0 = 0; b0 < W; b0 += kBlock) {
    const int64_t n = std::min(kBlock, W - b0);
    for (int64_t j = 0; j < n; ++j) sum[j] = A(0);
    for (int64_t kh = 0; kh < g.k[1]; ++kh)
      for (int64_t kw = 0; kw < g.k[2]; ++kw) {
        const T* base = plane + (h0 + kh * g.dil[1]) * in_w + b0 * sw + kw * g.dil[2];
        for (int64_t j = 0; j < n; ++j) sum[j] += A(base[j * sw]);
      }
    for (int64_t j = 0; j < n; ++j) dst[b0 + j] = T(sum[j] / divisor);
  }
}

void max_pool_kernel(const Tensor& x, const Tensor& out, const Tensor& indices,
                     const math::ConvGeometry& geometry) {
  const math::ConvGeometry g = geometry;  // a local copy: the int64 index stores cannot alias it (no reloads)
  const int64_t P = planes_of(x, g), L = g.out_numel(), I = g.in_numel();
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "max_pool_cpu", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(x.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    auto* idx = reinterpret_cast<int64_t*>(indices.data_ptr());
    // a row of outputs (plane p, od, oh) at a time: no division per output
    const int64_t rows = P * g.out[0] * g.out[1], W = g.out[2];
    const bool inside = interior_2d(g);
    const bool two_by_two =
        g.k[1] == 2 && g.k[2] == 2 && g.stride[1] == 2 && g.stride[2] == 2 && g.dil[1] == 1 && g.dil[2] == 1;
    parallel_for(
        rows, std::max<int64_t>(1, kGrainSize / (g.kernel_numel() * W)), [&](int64_t begin, int64_t end) {
          for (int64_t r = begin; r < end; ++r) {
            const int64_t p = r / (g.out[0] * g.out[1]), od = (r / g.out[1]) % g.out[0], oh = r % g.out[1];
            const scalar_t* plane = src + p * I;
            if (inside && two_by_two) {
              const int64_t first = 2 * oh * g.in[2];
              max_pool_2x2_row(plane + first, plane + first + g.in[2], W, first, g.in[2], dst + r * W,
                               idx + r * W);
              continue;
            }
            if (inside) {
              max_pool_interior_row(plane, g, oh * g.stride[1], W, dst + r * W, idx + r * W);
              continue;
            }
            for (int64_t ow = 0; ow < W; ++ow)
              math::max_pool_window(plane, g, od, oh, ow, dst[r * W + ow], idx[r * W + ow]);
          }
        });
  });
  (void)L;
}

void fractional_max_pool_kernel(const Tensor& x, const Tensor& samples, const Tensor& out,
                                const Tensor& indices, const math::ConvGeometry& g) {
  const int64_t L = g.out_numel(), I = g.in_numel(), P = planes_of(x, g);
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "fractional_max_pool_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* src = reinterpret_cast<const scalar_t*>(x.data_ptr());
    const auto* u = reinterpret_cast<const A*>(samples.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    auto* idx = reinterpret_cast<int64_t*>(indices.data_ptr());
    parallel_for(P * L, std::max<int64_t>(1, kGrainSize / g.kernel_numel()), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        math::fractional_max_cell(src + (i / L) * I, g, u + (i / L) * 3, i % L, dst[i], idx[i]);
    });
  });
}

void max_pool_backward_kernel(const Tensor& grad_out, const Tensor& indices, const Tensor& grad_x,
                              const math::ConvGeometry& g) {
  const int64_t P = planes_of(grad_x, g), L = g.out_numel(), I = g.in_numel();
  TH_DISPATCH_FLOATING_TYPES(grad_x.dtype(), "max_pool_backward_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* go = reinterpret_cast<const scalar_t*>(grad_out.data_ptr());
    const auto* idx = reinterpret_cast<const int64_t*>(indices.data_ptr());
    auto* gx = reinterpret_cast<scalar_t*>(grad_x.data_ptr());
    parallel_for(P, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(L, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t p = begin; p < end; ++p)
                     for (int64_t o = 0; o < L; ++o) {
                       const int64_t i = idx[p * L + o];
                       if (i >= 0) gx[p * I + i] = scalar_t(A(gx[p * I + i]) + A(go[p * L + o]));
                     }
                 });
  });
}

void avg_pool_kernel(const Tensor& x, const Tensor& out, const math::ConvGeometry& g, bool count_include_pad,
                     int64_t divisor_override) {
  const int64_t P = planes_of(x, g), L = g.out_numel(), I = g.in_numel();
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "avg_pool_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* src = reinterpret_cast<const scalar_t*>(x.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    if (interior_2d(g)) {  // a row of outputs at a time, every window the same size
      const int64_t rows = P * g.out[1], W = g.out[2];
      const A divisor = A(divisor_override != 0 ? divisor_override : g.k[1] * g.k[2]);
      parallel_for(rows, std::max<int64_t>(1, kGrainSize / (g.kernel_numel() * W)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t r = begin; r < end; ++r)
                       avg_pool_interior_row(src + (r / g.out[1]) * I, g, (r % g.out[1]) * g.stride[1], W,
                                             dst + r * W, divisor);
                   });
      return;
    }
    parallel_for(P * L, std::max<int64_t>(1, kGrainSize / g.kernel_numel()), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const scalar_t* plane = src + (i / L) * I;
        A sum = 0;
        math::for_each_in_window(g, i % L, [&](int64_t at) { sum += A(plane[at]); });
        dst[i] = scalar_t(sum / A(math::avg_pool_divisor(g, i % L, count_include_pad, divisor_override)));
      }
    });
  });
}

void avg_pool_backward_kernel(const Tensor& grad_out, const Tensor& grad_x, const math::ConvGeometry& g,
                              bool count_include_pad, int64_t divisor_override) {
  const int64_t P = planes_of(grad_x, g), L = g.out_numel(), I = g.in_numel();
  TH_DISPATCH_FLOATING_TYPES(grad_x.dtype(), "avg_pool_backward_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* go = reinterpret_cast<const scalar_t*>(grad_out.data_ptr());
    auto* gx = reinterpret_cast<scalar_t*>(grad_x.data_ptr());
    parallel_for(
        P, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(L, 1)), [&](int64_t begin, int64_t end) {
          for (int64_t p = begin; p < end; ++p)
            for (int64_t o = 0; o < L; ++o) {
              const A v =
                  A(go[p * L + o]) / A(math::avg_pool_divisor(g, o, count_include_pad, divisor_override));
              scalar_t* plane = gx + p * I;
              math::for_each_in_window(g, o, [&](int64_t at) { plane[at] = scalar_t(A(plane[at]) + v); });
            }
        });
  });
}

void adaptive_pool_kernel(const Tensor& x, const Tensor& out, const Tensor& indices,
                          const math::AdaptiveGeometry& g) {
  const int64_t L = g.out_numel(), I = g.in_numel(), P = x.numel() / I;
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "adaptive_pool_cpu", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(x.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    auto* idx = indices.defined() ? reinterpret_cast<int64_t*>(indices.data_ptr()) : nullptr;
    const int64_t window = std::max<int64_t>(1, I / std::max<int64_t>(L, 1));
    parallel_for(P * L, std::max<int64_t>(1, kGrainSize / window), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        math::adaptive_pool_cell(src + (i / L) * I, g, i % L, dst[i], idx ? idx + i : nullptr);
    });
  });
}

void adaptive_avg_pool_backward_kernel(const Tensor& grad_out, const Tensor& grad_x,
                                       const math::AdaptiveGeometry& g) {
  const int64_t L = g.out_numel(), I = g.in_numel(), P = grad_x.numel() / I;
  TH_DISPATCH_FLOATING_TYPES(grad_x.dtype(), "adaptive_avg_pool_backward_cpu", [&] {
    const auto* go = reinterpret_cast<const scalar_t*>(grad_out.data_ptr());
    auto* gx = reinterpret_cast<scalar_t*>(grad_x.data_ptr());
    parallel_for(P, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(I, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t p = begin; p < end; ++p)
                     math::adaptive_avg_backward_plane(go + p * L, gx + p * I, g);
                 });
  });
}

}  // namespace

TH_REGISTER_KERNEL(adaptive_pool_stub, CPU, adaptive_pool_kernel);
TH_REGISTER_KERNEL(adaptive_avg_pool_backward_stub, CPU, adaptive_avg_pool_backward_kernel);
TH_REGISTER_KERNEL(max_pool_stub, CPU, max_pool_kernel);
TH_REGISTER_KERNEL(fractional_max_pool_stub, CPU, fractional_max_pool_kernel);
TH_REGISTER_KERNEL(max_pool_backward_stub, CPU, max_pool_backward_kernel);
TH_REGISTER_KERNEL(avg_pool_stub, CPU, avg_pool_kernel);
TH_REGISTER_KERNEL(avg_pool_backward_stub, CPU, avg_pool_backward_kernel);

}  // namespace th
