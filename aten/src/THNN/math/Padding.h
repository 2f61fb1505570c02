#pragma once
// Scalar math of padding, written once for the CPU and CUDA kernels. The last 1-3 dims of the input are
// padded (seen as [outer, D, H, W], leading padded dims of size 1): each output index of a dim reads one
// input index (pad_source), or the constant. The backward is separable: one dim at a time, each line's output
// gradient added back to the input indices it was read from, in order (pad_backward_line), so the sum is
// deterministic on every device without atomics.
#include <cstdint>

#include <TH/Macros.h>

namespace th::math {

enum class PadMode { Constant, Reflect, Replicate, Circular };

/// The input index that output index `o` of a dim reads (input size n, `left` padded before it; negative
/// pads crop), or -1 where a constant pad has no input.
TH_HOST_DEVICE inline int64_t pad_source(int64_t o, int64_t left, int64_t n, PadMode mode) {
  const int64_t i = o - left;
  switch (mode) {
    case PadMode::Constant: return i >= 0 && i < n ? i : -1;
    case PadMode::Reflect: {
      if (n == 1) return 0;
      const int64_t period = 2 * (n - 1), r = (i < 0 ? -i : i) % period;
      return r >= n ? period - r : r;
    }
    case PadMode::Replicate: return i < 0 ? 0 : (i >= n ? n - 1 : i);
    case PadMode::Circular: return ((i % n) + n) % n;
  }
  return -1;
}

struct PadGeometry {
  int64_t in[3];    // input sizes of the padded dims (D, H, W; 1 for the dims not padded)
  int64_t out[3];   // output sizes
  int64_t left[3];  // padding before each
  PadMode mode;

  TH_HOST_DEVICE int64_t in_numel() const { return in[0] * in[1] * in[2]; }
  TH_HOST_DEVICE int64_t out_numel() const { return out[0] * out[1] * out[2]; }

  /// The offset in one input plane ([D, H, W]) that output element `o` of one plane reads, or -1.
  TH_HOST_DEVICE int64_t source(int64_t o) const {
    const int64_t w = o % out[2], h = (o / out[2]) % out[1], d = o / (out[2] * out[1]);
    const int64_t sd = pad_source(d, left[0], in[0], mode), sh = pad_source(h, left[1], in[1], mode),
                  sw = pad_source(w, left[2], in[2], mode);
    return sd < 0 || sh < 0 || sw < 0 ? -1 : (sd * in[1] + sh) * in[2] + sw;
  }
};

/// One line of the backward along one dim: in[k * stride] (n of them, zeroed here) = the sum of out[o *
/// stride] (L of them) over the o that read k, added in the order of o.
template <typename T, typename A>
TH_HOST_DEVICE void pad_backward_line(const T* out, T* in, int64_t L, int64_t n, int64_t stride, int64_t left,
                                      PadMode mode) {
  for (int64_t k = 0; k < n; ++k) in[k * stride] = T(0);
  for (int64_t o = 0; o < L; ++o) {
    const int64_t k = pad_source(o, left, n, mode);
    if (k >= 0) in[k * stride] = T(A(in[k * stride]) + A(out[o * stride]));
  }
}

}  // namespace th::math
