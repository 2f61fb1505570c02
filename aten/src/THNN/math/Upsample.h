#pragma once
// Scalar math of upsampling (interpolate), written once for the CPU and CUDA kernels. Every mode is
// separable: resampling one dim at a time, each output index o is a weighted sum of at most four input
// indices (its taps), with PyTorch's source coordinates (area_pixel_compute_source_index) and cubic
// coefficients (A = -0.75). The backward adds each output's gradient back to its taps, a line at a time in
// the order of o (deterministic).
#include <cmath>
#include <cstdint>

#include <TH/Macros.h>

#include "Cubic.h"

namespace th::math {

enum class ResampleMode { Nearest, NearestExact, Linear, Cubic };

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

  /// input positions per output position (PyTorch's area_pixel_compute_scale)
  TH_HOST_DEVICE double ratio() const {
    if (align_corners && (mode == ResampleMode::Linear || mode == ResampleMode::Cubic))
      return out > 1 ? double(in - 1) / double(out - 1) : 0.0;
    return scale > 0 ? 1.0 / scale : double(in) / double(out);
  }

  TH_HOST_DEVICE int64_t clamp_index(int64_t i) const { return i < 0 ? 0 : (i >= in ? in - 1 : i); }

  TH_HOST_DEVICE ResampleTaps taps(int64_t o) const {
    ResampleTaps t{};
    const double r = ratio();
    switch (mode) {
      case ResampleMode::Nearest:
      case ResampleMode::NearestExact: {
        // in float, as PyTorch's nearest_idx (its exact shortcuts for same size and doubling first)
        const float rf = scale > 0 ? float(1.0 / scale) : float(in) / float(out);
        int64_t src;
        if (mode == ResampleMode::Nearest && out == in) {
          src = o;
        } else if (mode == ResampleMode::Nearest && out == 2 * in) {
          src = o >> 1;
        } else {
          src = int64_t(std::floor(mode == ResampleMode::Nearest ? float(o) * rf : (float(o) + 0.5f) * rf));
        }
        t.idx[0] = clamp_index(src);
        t.w[0] = 1.0;
        t.n = 1;
        return t;
      }
      case ResampleMode::Linear: {
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
    }
    return t;
  }
};

/// One line of the backward: in[k * stride] (in of them, zeroed here) = the sum over the outputs o of
/// w * out[o * stride] for each tap (k, w) of o, added in the order of o.
template <typename T, typename A>
TH_HOST_DEVICE void resample_backward_line(const Resample1d& r, const T* out, T* in, int64_t stride) {
  for (int64_t k = 0; k < r.in; ++k) in[k * stride] = T(0);
  for (int64_t o = 0; o < r.out; ++o) {
    const ResampleTaps t = r.taps(o);
    const A g = A(out[o * stride]);
    for (int j = 0; j < t.n; ++j) in[t.idx[j] * stride] = T(A(in[t.idx[j] * stride]) + A(t.w[j]) * g);
  }
}

}  // namespace th::math
