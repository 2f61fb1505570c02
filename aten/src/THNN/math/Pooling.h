#pragma once
// Scalar math of max and average pooling over one window, written once for the CPU and CUDA kernels. The
// window geometry is convolution's (math/Convolution.h: every pooling seen as 3-D, C = the planes); output
// position o of a plane [D, H, W] covers o * stride - pad + k * dil for each kernel offset k.
#include <cstdint>

#include <TH/Half.h>
#include <TH/Macros.h>

#include "Convolution.h"

namespace th::math {

/// The window of output position `o` along dim d: [start, end) in input coordinates, unclipped.
TH_HOST_DEVICE inline void window_along(const ConvGeometry& g, int d, int64_t o, int64_t& start,
                                        int64_t& end) {
  start = o * g.stride[d] - g.pad[d];
  end = start + (g.k[d] - 1) * g.dil[d] + 1;
}

/// Max pooling's choice, element by element in window order: the first maximum; a NaN wins (the last NaN's
/// position, as in PyTorch). max_pool_better: whether v replaces the max so far m.
template <typename A>
TH_HOST_DEVICE bool max_pool_better(A v, A m) {
  return (v > m) | (v != v);
}

template <typename A>
TH_HOST_DEVICE void max_pool_take(A v, int64_t pos, A& m, int64_t& at) {
  const bool take = (at < 0) | max_pool_better(v, m);
  m = take ? v : m;
  at = take ? pos : at;
}

/// max over the window of output position (od, oh, ow) of the plane; `index` gets the flat input position of
/// the max (max_pool_take's choice).

template <typename T>
TH_HOST_DEVICE void max_pool_window(const T* plane, const ConvGeometry& g, int64_t od, int64_t oh, int64_t ow,
                                    T& best, int64_t& index) {
  using A = opmath_t<T>;
  A m = -INFINITY;
  int64_t at = -1;
  for (int64_t kd = 0; kd < g.k[0]; ++kd) {
    const int64_t d = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
    if (d < 0 || d >= g.in[0]) continue;
    for (int64_t kh = 0; kh < g.k[1]; ++kh) {
      const int64_t h = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
      if (h < 0 || h >= g.in[1]) continue;
      const T* line = plane + (d * g.in[1] + h) * g.in[2];
      for (int64_t kw = 0; kw < g.k[2]; ++kw) {
        const int64_t w = ow * g.stride[2] - g.pad[2] + kw * g.dil[2];
        if (w < 0 || w >= g.in[2]) continue;
        max_pool_take(A(line[w]), (d * g.in[1] + h) * g.in[2] + w, m, at);
      }
    }
  }
  best = T(m);
  index = at;
}

/// The same for the flat output position `o`.
template <typename T>
TH_HOST_DEVICE void max_pool_window(const T* plane, const ConvGeometry& g, int64_t o, T& best,
                                    int64_t& index) {
  max_pool_window(plane, g, o / (g.out[2] * g.out[1]), (o / g.out[2]) % g.out[1], o % g.out[2], best, index);
}

/// The divisor of average pooling at output `o`: divisor_override unless 0 (none; a negative one too, as
/// PyTorch), else the window's size clipped to the padded input (count_include_pad) or to the input itself.
TH_HOST_DEVICE inline int64_t avg_pool_divisor(const ConvGeometry& g, int64_t o, bool count_include_pad,
                                               int64_t divisor_override) {
  if (divisor_override != 0) return divisor_override;
  const int64_t pos[3] = {o / (g.out[2] * g.out[1]), (o / g.out[2]) % g.out[1], o % g.out[2]};
  int64_t padded = 1, inside = 1;
  for (int d = 0; d < 3; ++d) {
    int64_t start, end;
    window_along(g, d, pos[d], start, end);
    const int64_t pend = end < g.in[d] + g.pad[d] ? end : g.in[d] + g.pad[d];
    padded *= pend - start;
    inside *= (end < g.in[d] ? end : g.in[d]) - (start > 0 ? start : 0);
  }
  return count_include_pad ? padded : inside;
}

/// Calls f(flat input position) for each input element in the window of output `o` (padding skipped).
template <typename F>
TH_HOST_DEVICE void for_each_in_window(const ConvGeometry& g, int64_t o, F&& f) {
  const int64_t ow = o % g.out[2], oh = (o / g.out[2]) % g.out[1], od = o / (g.out[2] * g.out[1]);
  for (int64_t kd = 0; kd < g.k[0]; ++kd) {
    const int64_t d = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
    if (d < 0 || d >= g.in[0]) continue;
    for (int64_t kh = 0; kh < g.k[1]; ++kh) {
      const int64_t h = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
      if (h < 0 || h >= g.in[1]) continue;
      for (int64_t kw = 0; kw < g.k[2]; ++kw) {
        const int64_t w = ow * g.stride[2] - g.pad[2] + kw * g.dil[2];
        if (w >= 0 && w < g.in[2]) f((d * g.in[1] + h) * g.in[2] + w);
      }
    }
  }
}

/// Adaptive pooling: output cell o along dim d covers the input bin [floor(o in / out), ceil((o + 1) in /
/// out)) (PyTorch's bins; neighbouring bins may overlap or differ in size).
struct AdaptiveGeometry {
  int64_t in[3], out[3];

  TH_HOST_DEVICE int64_t in_numel() const { return in[0] * in[1] * in[2]; }
  TH_HOST_DEVICE int64_t out_numel() const { return out[0] * out[1] * out[2]; }
  TH_HOST_DEVICE void bin(int d, int64_t o, int64_t& start, int64_t& end) const {
    start = o * in[d] / out[d];
    end = ((o + 1) * in[d] + out[d] - 1) / out[d];
  }

  /// f(flat input position) over the bin of output cell `o` (flat), in row-major order.
  template <typename F>
  TH_HOST_DEVICE void for_each_in_bin(int64_t o, F&& f) const {
    int64_t s0, e0, s1, e1, s2, e2;
    bin(0, o / (out[2] * out[1]), s0, e0);
    bin(1, (o / out[2]) % out[1], s1, e1);
    bin(2, o % out[2], s2, e2);
    for (int64_t d = s0; d < e0; ++d)
      for (int64_t h = s1; h < e1; ++h)
        for (int64_t w = s2; w < e2; ++w) f((d * in[1] + h) * in[2] + w);
  }

  /// The number of input elements in the bin of output cell `o`.
  TH_HOST_DEVICE int64_t bin_size(int64_t o) const {
    int64_t s0, e0, s1, e1, s2, e2;
    bin(0, o / (out[2] * out[1]), s0, e0);
    bin(1, (o / out[2]) % out[1], s1, e1);
    bin(2, o % out[2], s2, e2);
    return (e0 - s0) * (e1 - s1) * (e2 - s2);
  }
};

/// Output cell `o` of adaptive pooling of one plane: the mean of its bin, or (index != nullptr) its max and
/// the max's flat position (max_pool_take's choice).
template <typename T>
TH_HOST_DEVICE void adaptive_pool_cell(const T* plane, const AdaptiveGeometry& g, int64_t o, T& value,
                                       int64_t* index) {
  using A = opmath_t<T>;
  if (index) {
    A m = 0;
    int64_t at = -1;
    g.for_each_in_bin(o, [&](int64_t pos) { max_pool_take(A(plane[pos]), pos, m, at); });
    value = T(m);
    *index = at;
  } else {
    A sum = 0;
    g.for_each_in_bin(o, [&](int64_t pos) { sum += A(plane[pos]); });
    value = T(sum / A(g.bin_size(o)));
  }
}

/// One plane of adaptive average pooling's backward: gx (zero on entry) += each output's gradient go[o] / its
/// bin size over its bin, the outputs in turn (no two threads share a plane: deterministic, no atomics).
template <typename T>
TH_HOST_DEVICE void adaptive_avg_backward_plane(const T* go, T* gx, const AdaptiveGeometry& g) {
  using A = opmath_t<T>;
  for (int64_t o = 0; o < g.out_numel(); ++o) {
    const A share = A(go[o]) / A(g.bin_size(o));
    g.for_each_in_bin(o, [&](int64_t pos) { gx[pos] = T(A(gx[pos]) + share); });
  }
}

/// Fractional max pooling (Graham, "Fractional Max-Pooling"): along a dim of `in` inputs pooled to `out`
/// outputs by windows of `k`, the first input of output i's window for the plane's sample u in [0, 1):
/// int((i + u) * alpha) - int(u * alpha), alpha = (in - k) / (out - 1), in the sample's precision A (float
/// for 16-bit and float input, as PyTorch); the last window ends at the input's end.
template <typename A>
TH_HOST_DEVICE int64_t fractional_start(A u, int64_t i, int64_t in, int64_t out, int64_t k) {
  if (i == out - 1) return in - k;
  const A alpha = A(in - k) / A(out - 1);
  return int64_t((A(i) + u) * alpha) - int64_t(u * alpha);
}

/// Output cell `o` of fractional max pooling of one plane (g: in, out and k per dim, 3-D as every pooling
/// here) with the plane's samples u[0..3) (one per dim, the leading padded dims' unused): the window's max
/// and its flat position (max_pool_take's choice).
template <typename T, typename A>
TH_HOST_DEVICE void fractional_max_cell(const T* plane, const ConvGeometry& g, const A* u, int64_t o,
                                        T& value, int64_t& index) {
  const int64_t pos[3] = {o / (g.out[2] * g.out[1]), (o / g.out[2]) % g.out[1], o % g.out[2]};
  int64_t start[3];
  for (int d = 0; d < 3; ++d) start[d] = fractional_start(u[d], pos[d], g.in[d], g.out[d], g.k[d]);
  opmath_t<T> m = 0;
  int64_t at = -1;
  for (int64_t d = start[0]; d < start[0] + g.k[0]; ++d)
    for (int64_t h = start[1]; h < start[1] + g.k[1]; ++h)
      for (int64_t w = start[2]; w < start[2] + g.k[2]; ++w) {
        const int64_t p = (d * g.in[1] + h) * g.in[2] + w;
        max_pool_take(opmath_t<T>(plane[p]), p, m, at);
      }
  value = T(m);
  index = at;
}

}  // namespace th::math
