#pragma once
// Scalar math of grid_sample, written once for the CPU and CUDA kernels: a grid coordinate in [-1, 1] becomes
// an input coordinate (align_corners: -1 and 1 are the centres of the corner pixels; else their outer edges),
// the padding mode keeps it inside (border: clipped; reflection: mirrored) or lets the zeros outside count,
// and the taps of each dim read the input: the nearest pixel, the two linear taps (bilinear and, on 3-D
// input, trilinear), or the four cubic ones (bicubic, each tap brought inside on its own, as PyTorch). The
// backward needs each coordinate's derivative with respect to the grid value (`scale`), which the same
// functions give.
#include <cmath>
#include <cstdint>

#include <TH/Macros.h>

#include "Cubic.h"

namespace th::math {

enum class GridMode { Bilinear = 0, Nearest = 1, Bicubic = 2 };
enum class GridPadding { Zeros = 0, Border = 1, Reflection = 2 };

/// The input coordinate (unnormalized, before padding) of grid value g along a dim of `size` pixels; `scale`
/// gets d coordinate / d g.
template <typename A>
TH_HOST_DEVICE A grid_unnormalize(A g, int64_t size, bool align_corners, A& scale) {
  scale = align_corners ? A(size - 1) / A(2) : A(size) / A(2);
  return align_corners ? (g + A(1)) * scale : ((g + A(1)) * A(size) - A(1)) / A(2);
}

/// The input coordinate of grid value g along a dim of `size` pixels, brought inside by the padding mode
/// (border: clipped; reflection: mirrored, then clipped; zeros: left outside); `scale` gets d coordinate /
/// d g. With unnormalize false, g is already an input coordinate (a bicubic tap) and scale starts at 1.
template <typename A>
TH_HOST_DEVICE A grid_coordinate(A g, int64_t size, GridPadding padding, bool align_corners, A& scale,
                                 bool unnormalize) {
  A x = g;
  scale = A(1);
  if (unnormalize) x = grid_unnormalize(g, size, align_corners, scale);
  if (padding == GridPadding::Border) {
    if (x <= A(0)) x = A(0), scale = A(0);
    if (x >= A(size - 1)) x = A(size - 1), scale = A(0);
  } else if (padding == GridPadding::Reflection) {
    // mirror into [lo, hi] (the corner pixels' centres, or their outer edges), then clip
    const A lo = align_corners ? A(0) : A(-0.5), span = align_corners ? A(size - 1) : A(size);
    if (span <= A(0)) {
      x = A(0), scale = A(0);
    } else {
      A t = x - lo;
      if (t < A(0)) t = -t, scale = -scale;
      const A flips = std::floor(t / span);
      const A extra = t - flips * span;
      if (int64_t(flips) % 2 == 0) {
        x = lo + extra;
      } else {
        x = lo + span - extra;
        scale = -scale;
      }
    }
    if (x <= A(0)) x = A(0), scale = A(0);
    if (x >= A(size - 1)) x = A(size - 1), scale = A(0);
  }
  return x;
}

/// Where grid point (x, y[, z]) reads the input, a dim at a time: each dim's taps (1 for nearest, 2 for
/// linear, 4 for cubic; 1 for the depth of a 2-D input), their pixel (-1: outside, reads 0), weight, and
/// weight's derivative with respect to the coordinate; the sample is the sum over every combination of a tap
/// per dim of pixel * the product of the weights. `scale`: d coordinate / d grid value, per dim.
/// Dims are (D, H, W); the grid gives x (W) first.
template <typename A>
struct GridTaps {
  int n[3];
  int64_t pixel[3][4];
  A w[3][4], dw[3][4], scale[3];

  TH_HOST_DEVICE GridTaps(const A* g, const int64_t size[3], bool volumetric, GridMode mode,
                          GridPadding padding, bool align_corners) {
    for (int d = 0; d < 3; ++d) {
      if (d == 0 && !volumetric) {
        n[0] = 1, pixel[0][0] = 0, w[0][0] = A(1), dw[0][0] = A(0), scale[0] = A(0);
        continue;
      }
      const A v = g[2 - d];             // the grid's last entry is the first dim's
      if (mode == GridMode::Bicubic) {  // every tap brought inside by the padding mode on its own, as PyTorch
        const A x = grid_unnormalize(v, size[d], align_corners, scale[d]);
        const A fl = std::floor(x);
        cubic_weights(x - fl, w[d]);
        cubic_weight_grads(x - fl, dw[d]);
        n[d] = 4;
        for (int k = 0; k < 4; ++k) {
          A unused;
          const A at = grid_coordinate(fl - A(1) + A(k), size[d], padding, align_corners, unused, false);
          pixel[d][k] = inside(at, size[d]) ? int64_t(at) : -1;
        }
        continue;
      }
      const A x = grid_coordinate(v, size[d], padding, align_corners, scale[d], true);
      if (mode == GridMode::Nearest) {
        const A r = std::nearbyint(x);  // ties to even, as PyTorch
        n[d] = 1, pixel[d][0] = inside(r, size[d]) ? int64_t(r) : -1, w[d][0] = A(1), dw[d][0] = A(0);
      } else {
        const A fl = std::floor(x), t = x - fl;
        n[d] = 2;
        pixel[d][0] = inside(fl, size[d]) ? int64_t(fl) : -1;
        pixel[d][1] = inside(fl + A(1), size[d]) ? int64_t(fl) + 1 : -1;
        w[d][0] = A(1) - t, w[d][1] = t, dw[d][0] = A(-1), dw[d][1] = A(1);
      }
    }
  }

  /// Whether pixel coordinate x (a whole number) lies in [0, size).
  TH_HOST_DEVICE static bool inside(A x, int64_t size) { return x >= A(0) && x < A(size); }

  /// f(flat pixel, weight, d weight / d (z, y, x)) for every combination of taps inside the input.
  template <typename F>
  TH_HOST_DEVICE void for_each_tap(const int64_t size[3], F&& f) const {
    for (int a = 0; a < n[0]; ++a) {
      if (pixel[0][a] < 0) continue;
      for (int b = 0; b < n[1]; ++b) {
        if (pixel[1][b] < 0) continue;
        const int64_t row = (pixel[0][a] * size[1] + pixel[1][b]) * size[2];
        const A wab = w[0][a] * w[1][b];
        for (int c = 0; c < n[2]; ++c) {
          if (pixel[2][c] < 0) continue;
          const A grads[3] = {dw[0][a] * w[1][b] * w[2][c], w[0][a] * dw[1][b] * w[2][c], wab * dw[2][c]};
          f(row + pixel[2][c], wab * w[2][c], grads);
        }
      }
    }
  }

  /// The sampled value of a [D, H, W] plane.
  template <typename T>
  TH_HOST_DEVICE A sample(const T* plane, const int64_t size[3]) const {
    A sum = 0;
    for_each_tap(size, [&](int64_t at, A weight, const A*) { sum += A(plane[at]) * weight; });
    return sum;
  }

  /// plane += g spread over the taps (pixels outside the plane get nothing).
  template <typename T>
  TH_HOST_DEVICE void scatter(T* plane, const int64_t size[3], A g) const {
    for_each_tap(size, [&](int64_t at, A weight, const A*) { plane[at] = T(A(plane[at]) + g * weight); });
  }

  /// d sample / d coordinate (z, y, x) of a plane, times g, added to grad[3].
  template <typename T>
  TH_HOST_DEVICE void coordinate_grad(const T* plane, const int64_t size[3], A g, A grad[3]) const {
    for_each_tap(size, [&](int64_t at, A, const A* dweight) {
      const A v = A(plane[at]) * g;
      for (int d = 0; d < 3; ++d) grad[d] += v * dweight[d];
    });
  }
};

}  // namespace th::math
