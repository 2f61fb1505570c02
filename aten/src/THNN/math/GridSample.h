#pragma once
// Scalar math of grid_sample, written once for the CPU and CUDA kernels: a grid coordinate in [-1, 1] becomes
// an input coordinate (align_corners: -1 and 1 are the centres of the corner pixels; else their outer edges),
// the padding mode keeps it inside (border: clipped; reflection: mirrored) or lets the zeros outside count,
// and the bilinear taps or the nearest pixel read the input. The backward needs each coordinate's derivative
// with respect to the grid value (`scale`), which the same functions give.
#include <cmath>
#include <cstdint>

#include <TH/Macros.h>

namespace th::math {

enum class GridMode { Bilinear = 0, Nearest = 1 };
enum class GridPadding { Zeros = 0, Border = 1, Reflection = 2 };

/// The input coordinate of grid value g along a dim of `size` pixels; `scale` gets d coordinate / d g.
template <typename A>
TH_HOST_DEVICE A grid_coordinate(A g, int64_t size, GridPadding padding, bool align_corners, A& scale) {
  A x;
  if (align_corners) {
    scale = A(size - 1) / A(2);
    x = (g + A(1)) * scale;
  } else {
    scale = A(size) / A(2);
    x = ((g + A(1)) * A(size) - A(1)) / A(2);
  }
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

/// input[c][y][x] of a [H, W] plane, 0 outside it.
template <typename T, typename A>
TH_HOST_DEVICE A grid_pixel(const T* plane, int64_t H, int64_t W, int64_t y, int64_t x) {
  return (y >= 0 && y < H && x >= 0 && x < W) ? A(plane[y * W + x]) : A(0);
}

/// Where the output point with grid value (gx, gy) reads a [H, W] plane: the top-left tap (x0, y0) and the
/// fractions (tx, ty) of bilinear sampling, or the nearest pixel (x0, y0) (ties to even, as nearbyint); (sx,
/// sy): d coordinate / d grid value.
template <typename A>
struct GridTaps {
  int64_t x0, y0;
  A tx, ty, sx, sy;

  TH_HOST_DEVICE GridTaps(A gx, A gy, int64_t H, int64_t W, GridMode mode, GridPadding padding,
                          bool align_corners) {
    const A ix = grid_coordinate(gx, W, padding, align_corners, sx);
    const A iy = grid_coordinate(gy, H, padding, align_corners, sy);
    if (mode == GridMode::Nearest) {
      x0 = int64_t(std::nearbyint(ix)), y0 = int64_t(std::nearbyint(iy));
      tx = ty = A(0);
    } else {
      const A fx = std::floor(ix), fy = std::floor(iy);
      x0 = int64_t(fx), y0 = int64_t(fy);
      tx = ix - fx, ty = iy - fy;
    }
  }

  /// The sampled value of a plane.
  template <typename T>
  TH_HOST_DEVICE A sample(const T* plane, int64_t H, int64_t W, GridMode mode) const {
    if (mode == GridMode::Nearest) return grid_pixel<T, A>(plane, H, W, y0, x0);
    return grid_pixel<T, A>(plane, H, W, y0, x0) * (A(1) - tx) * (A(1) - ty) +
           grid_pixel<T, A>(plane, H, W, y0, x0 + 1) * tx * (A(1) - ty) +
           grid_pixel<T, A>(plane, H, W, y0 + 1, x0) * (A(1) - tx) * ty +
           grid_pixel<T, A>(plane, H, W, y0 + 1, x0 + 1) * tx * ty;
  }

  /// plane += g spread over the taps (pixels outside the plane get nothing).
  template <typename T>
  TH_HOST_DEVICE void scatter(T* plane, int64_t H, int64_t W, GridMode mode, A g) const {
    const auto add = [&](int64_t y, int64_t x, A v) {
      if (y >= 0 && y < H && x >= 0 && x < W) plane[y * W + x] = T(A(plane[y * W + x]) + v);
    };
    if (mode == GridMode::Nearest) return add(y0, x0, g);
    add(y0, x0, g * (A(1) - tx) * (A(1) - ty));
    add(y0, x0 + 1, g * tx * (A(1) - ty));
    add(y0 + 1, x0, g * (A(1) - tx) * ty);
    add(y0 + 1, x0 + 1, g * tx * ty);
  }

  /// d sample / d (x, y) coordinate of a plane, times g, added to (gx, gy) (bilinear only).
  template <typename T>
  TH_HOST_DEVICE void coordinate_grad(const T* plane, int64_t H, int64_t W, A g, A& gx, A& gy) const {
    const A nw = grid_pixel<T, A>(plane, H, W, y0, x0), ne = grid_pixel<T, A>(plane, H, W, y0, x0 + 1);
    const A sw = grid_pixel<T, A>(plane, H, W, y0 + 1, x0),
            se = grid_pixel<T, A>(plane, H, W, y0 + 1, x0 + 1);
    gx += g * ((ne - nw) * (A(1) - ty) + (se - sw) * ty);
    gy += g * ((sw - nw) * (A(1) - tx) + (se - ne) * tx);
  }
};

}  // namespace th::math
