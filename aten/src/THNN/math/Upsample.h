#pragma once
// Scalar math of upsampling (interpolate), written once for the CPU and CUDA kernels. Every mode is
// separable: resampling one dim at a time, each output index o is a weighted sum of input indices (its taps).
// Plain modes take at most four taps, with PyTorch's source coordinates (area_pixel_compute_source_index) and
// cubic coefficients (A = -0.75); antialiased ones (PyTorch's _upsample_*2d_aa: linear, Keys' cubic with
// A = -0.5 and Lanczos-3, Pillow's filters) take the window of inputs the filter, stretched by the scale when
// downsampling, covers around the output's centre, normalized to sum to one. The backward adds each
// output's gradient back to its taps, a line at a time in the order of o (deterministic).
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <TH/Macros.h>

#include "Cubic.h"

namespace th::math {

enum class ResampleMode {
  Nearest,
  NearestExact,
  Linear,
  Cubic,
  LinearAntialias,
  CubicAntialias,
  LanczosAntialias
};

struct ResampleTaps {
  int64_t idx[4];
  double w[4];
  int n;
};

/// The resampling of one dim from `in` to `out` elements. `scale`: the user's scale factor (> 0), or 0 to use
/// in / out.
struct Resample1d {
  int64_t in, out;
  double scale;
  bool align_corners;
  ResampleMode mode;

  TH_HOST_DEVICE bool antialias() const { return mode >= ResampleMode::LinearAntialias; }

  /// input positions per output position (PyTorch's area_pixel_compute_scale)
  TH_HOST_DEVICE double ratio() const {
    if (align_corners && mode != ResampleMode::Nearest && mode != ResampleMode::NearestExact)
      return out > 1 ? double(in - 1) / double(out - 1) : 0.0;
    return scale > 0 ? 1.0 / scale : double(in) / double(out);
  }

  /// An antialiased mode's filter at distance x (in input pixels, unstretched).
  TH_HOST_DEVICE double filter(double x) const {
    x = std::fabs(x);
    switch (mode) {
      case ResampleMode::LinearAntialias: return x < 1.0 ? 1.0 - x : 0.0;
      case ResampleMode::CubicAntialias: {
        const double a = -0.5;
        if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
        return x < 2.0 ? (((x - 5.0) * x + 8.0) * x - 4.0) * a : 0.0;
      }
      default: {  // Lanczos-3: sinc(x) sinc(x / 3)
        if (x == 0.0) return 1.0;
        if (x >= 3.0) return 0.0;
        const double pi = 3.14159265358979323846, px = pi * x;
        return 3.0 * std::sin(px) * std::sin(px / 3.0) / (px * px);
      }
    }
  }

  /// Half the width an antialiased filter covers, in input pixels: stretched by the ratio when downsampling.
  TH_HOST_DEVICE double support() const {
    const double half =
        mode == ResampleMode::LinearAntialias ? 1.0 : (mode == ResampleMode::CubicAntialias ? 2.0 : 3.0);
    const double r = ratio();
    return r >= 1.0 ? half * r : half;
  }

  /// The most taps an antialiased output takes (PyTorch's max_interp_size).
  TH_HOST_DEVICE int64_t max_taps() const { return int64_t(std::ceil(support())) * 2 + 1; }

  /// An antialiased output's window (PyTorch's _compute_indices_min_size_weights_aa): inputs first ..
  /// first + n - 1, tap j weighing filter((first + j - centre + 0.5) / stretch) / total.
  struct Window {
    int64_t first, n;
    double centre, inv_stretch, total;
  };

  TH_HOST_DEVICE Window window(int64_t o) const {
    const double r = ratio(), sup = support();
    Window w{};
    w.centre = r * (double(o) + 0.5);
    w.inv_stretch = r >= 1.0 ? 1.0 / r : 1.0;
    const int64_t lo = int64_t(w.centre - sup + 0.5), hi = int64_t(w.centre + sup + 0.5);
    w.first = lo > 0 ? lo : 0;
    w.n = (hi < in ? hi : in) - w.first;
    const int64_t most = max_taps();
    w.n = w.n < 0 ? 0 : (w.n > most ? most : w.n);
    w.total = 0.0;
    for (int64_t j = 0; j < w.n; ++j) w.total += raw_weight(w, j);
    return w;
  }

  TH_HOST_DEVICE double raw_weight(const Window& w, int64_t j) const {
    return filter((double(w.first + j) - w.centre + 0.5) * w.inv_stretch);
  }

  TH_HOST_DEVICE double weight(const Window& w, int64_t j) const {
    return w.total != 0.0 ? raw_weight(w, j) / w.total : 0.0;
  }

  TH_HOST_DEVICE int64_t clamp_index(int64_t i) const { return i < 0 ? 0 : (i >= in ? in - 1 : i); }

  /// A plain mode's taps (antialiased modes: window()).
  TH_HOST_DEVICE ResampleTaps taps(int64_t o) const {
    ResampleTaps t{};
    const double r = ratio();
    switch (mode) {
      case ResampleMode::Nearest:
      case ResampleMode::NearestExact: {
        // in float, as PyTorch's generic kernel (compute_indices_nearest_or_nearest_exact): floor(scale o) or
        // floor(max(scale (o + 0.5) - 0.5, 0) + 0.5), the user's scale even where the sizes agree
        const float rf = scale > 0 ? float(1.0 / scale) : float(in) / float(out);
        float src = mode == ResampleMode::Nearest ? rf * float(o) : rf * (float(o) + 0.5f) - 0.5f;
        if (mode == ResampleMode::NearestExact) src = (src < 0.0f ? 0.0f : src) + 0.5f;
        t.idx[0] = clamp_index(int64_t(std::floor(src)));
        t.w[0] = 1.0;
        t.n = 1;
        return t;
      }
      case ResampleMode::Linear: {
        // PyTorch copies where the size stays (compute_source_index_and_lambda), whatever the scale: 1 x[o] +
        // 0 x[o]
        if (out == in) {
          t.idx[0] = t.idx[1] = o;
          t.w[0] = 1.0;
          t.w[1] = 0.0;
          t.n = 2;
          return t;
        }
        double src = align_corners ? r * double(o) : r * (double(o) + 0.5) - 0.5;
        if (src < 0) src = 0;
        const int64_t i0 = clamp_index(int64_t(src));
        const double l1 = src - double(i0) > 1 ? 1 : src - double(i0);
        t.idx[0] = i0;
        t.idx[1] = i0 < in - 1 ? i0 + 1 : i0;
        t.w[0] = 1 - l1;
        t.w[1] = l1;
        t.n = 2;
        return t;
      }
      case ResampleMode::Cubic: {
        const double src = align_corners ? r * double(o) : r * (double(o) + 0.5) - 0.5;
        const double fl = std::floor(src);
        double w[4];
        cubic_weights(src - fl, w);
        for (int k = 0; k < 4; ++k) {
          t.idx[k] = clamp_index(int64_t(fl) - 1 + k);
          t.w[k] = w[k];
        }
        t.n = 4;
        return t;
      }
      default: break;
    }
    return t;
  }

  /// f(index, weight) for each tap of output o, in order (every mode).
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
  template <typename F>
  TH_HOST_DEVICE void for_each_tap(int64_t o, F&& f) const {
    if (antialias()) {
      const Window w = window(o);
      for (int64_t j = 0; j < w.n; ++j) f(w.first + j, weight(w, j));
      return;
    }
    const ResampleTaps t = taps(o);
    for (int j = 0; j < t.n; ++j) f(t.idx[j], t.w[j]);
  }
};

/// An output of the forward from its weighted sum v: as is for floats; for an integer type (uint8 images:
/// upstream's separable uint8 kernel) rounded half up and clamped to the type's range, each pass on its own.
template <typename T, typename A>
TH_HOST_DEVICE T resample_store(A v) {
  if constexpr (!std::is_integral_v<T>) {
    return T(v);
  } else {
    const A r = std::floor(v + A(0.5)), lo = A(std::numeric_limits<T>::min()),
            hi = A(std::numeric_limits<T>::max());
    return r <= lo ? std::numeric_limits<T>::min() : (r >= hi ? std::numeric_limits<T>::max() : T(r));
  }
}

/// One line of the backward: in[k * stride] (in of them, zeroed here) = the sum over the outputs o of
/// w * out[o * stride] for each tap (k, w) of o, added in the order of o.
template <typename T, typename A>
TH_HOST_DEVICE void resample_backward_line(const Resample1d& r, const T* out, T* in, int64_t stride) {
  for (int64_t k = 0; k < r.in; ++k) in[k * stride] = T(0);
  for (int64_t o = 0; o < r.out; ++o) {
    const A g = A(out[o * stride]);
    r.for_each_tap(o, [&](int64_t k, double w) { in[k * stride] = T(A(in[k * stride]) + A(w) * g); });
  }
}

}  // namespace th::math
