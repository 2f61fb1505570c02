#pragma once
// Scalar math of convolution as matrix products (im2col / col2im), written once for the CPU and CUDA
// kernels. Every convolution is seen as 3-D ([C, D, H, W] per sample; conv1d and conv2d have size-1 leading
// spatial dims with kernel 1, stride 1, padding 0 and dilation 1): the columns matrix has a row per
// (c, kd, kh, kw) and a column per output position (od, oh, ow).
#include <cstdint>

#include <TH/Macros.h>

namespace th::math {

struct ConvGeometry {
  int64_t C;          // input channels (of one group)
  int64_t in[3];      // input spatial sizes (D, H, W)
  int64_t k[3];       // kernel sizes
  int64_t out[3];     // output spatial sizes
  int64_t stride[3];  // strides
  int64_t pad[3];     // zero padding at both ends
  int64_t dil[3];     // dilations

  TH_HOST_DEVICE int64_t kernel_numel() const { return k[0] * k[1] * k[2]; }
  TH_HOST_DEVICE int64_t out_numel() const { return out[0] * out[1] * out[2]; }
  TH_HOST_DEVICE int64_t in_numel() const { return in[0] * in[1] * in[2]; }
  TH_HOST_DEVICE int64_t rows() const { return C * kernel_numel(); }

  /// The outputs [lo, hi) along the last dim whose input column (ow * stride + w0, w0 = kw * dil - pad) lies
  /// inside [0, in[2]): the rest of a row reads the zero padding.
  TH_HOST_DEVICE void inside_range(int64_t w0, int64_t& lo, int64_t& hi) const {
    lo = w0 >= 0 ? 0 : (-w0 + stride[2] - 1) / stride[2];
    hi = in[2] - w0 <= 0 ? 0 : (in[2] - w0 + stride[2] - 1) / stride[2];
    hi = hi < out[2] ? hi : out[2];
    lo = lo < hi ? lo : hi;
  }

  /// Element (row, col) of the columns matrix of one sample `x` ([C, D, H, W] contiguous): the input
  /// element that kernel offset `row` sees at output position `col`, or 0 in the padding.
  template <typename T>
  TH_HOST_DEVICE T column(const T* x, int64_t row, int64_t col) const {
    const int64_t kw = row % k[2], kh = (row / k[2]) % k[1], kd = (row / (k[2] * k[1])) % k[0];
    const int64_t c = row / kernel_numel();
    const int64_t ow = col % out[2], oh = (col / out[2]) % out[1], od = col / (out[2] * out[1]);
    const int64_t d = od * stride[0] - pad[0] + kd * dil[0];
    const int64_t h = oh * stride[1] - pad[1] + kh * dil[1];
    const int64_t w = ow * stride[2] - pad[2] + kw * dil[2];
    if (d < 0 || d >= in[0] || h < 0 || h >= in[1] || w < 0 || w >= in[2]) return T(0);
    return x[((c * in[0] + d) * in[1] + h) * in[2] + w];
  }

  /// Row `row` of the columns matrix of one sample `x`, written to out[0, out_numel()): the same values as
  /// column(), a row at a time with the index arithmetic hoisted out of the loops (the CPU's way).
  template <typename T>
  TH_HOST_DEVICE void column_row(const T* x, int64_t row, T* out_row) const {
    const int64_t kw = row % k[2], kh = (row / k[2]) % k[1], kd = (row / (k[2] * k[1])) % k[0];
    const T* plane = x + (row / kernel_numel()) * in_numel();
    // the outputs [lo, hi) of every line read inside the input line (they depend on kw only): zeros around
    // them, a plain (or strided) copy between; lines whose input row lies in the padding are zeros
    const int64_t w0 = kw * dil[2] - pad[2];  // the input column of output 0
    int64_t lo, hi;
    inside_range(w0, lo, hi);
    for (int64_t od = 0; od < out[0]; ++od) {
      const int64_t d = od * stride[0] - pad[0] + kd * dil[0];
      for (int64_t oh = 0; oh < out[1]; ++oh) {
        const int64_t h = oh * stride[1] - pad[1] + kh * dil[1];
        T* o = out_row + (od * out[1] + oh) * out[2];
        if (d < 0 || d >= in[0] || h < 0 || h >= in[1]) {
          for (int64_t ow = 0; ow < out[2]; ++ow) o[ow] = T(0);
          continue;
        }
        const T* line = plane + (d * in[1] + h) * in[2];
        for (int64_t ow = 0; ow < lo; ++ow) o[ow] = T(0);
        if (stride[2] == 1) {
          const T* src = line + w0;
          for (int64_t ow = lo; ow < hi; ++ow) o[ow] = src[ow];
        } else {
          for (int64_t ow = lo; ow < hi; ++ow) o[ow] = line[ow * stride[2] + w0];
        }
        for (int64_t ow = hi; ow < out[2]; ++ow) o[ow] = T(0);
      }
    }
  }

  /// x_plane (the input channel that row `row` reads, [D, H, W]) += row `row` of the columns matrix at the
  /// positions it was read from: the transpose of column_row (rows of one channel go one after another).
  template <typename T, typename A>
  TH_HOST_DEVICE void add_column_row(const T* col_row, int64_t row, T* x_plane) const {
    const int64_t kw = row % k[2], kh = (row / k[2]) % k[1], kd = (row / (k[2] * k[1])) % k[0];
    const int64_t w0 = kw * dil[2] - pad[2];  // the input column of output 0
    int64_t lo, hi;                           // the outputs that read inside an input line (kw's alone)
    inside_range(w0, lo, hi);
    for (int64_t od = 0; od < out[0]; ++od) {
      const int64_t d = od * stride[0] - pad[0] + kd * dil[0];
      if (d < 0 || d >= in[0]) continue;
      for (int64_t oh = 0; oh < out[1]; ++oh) {
        const int64_t h = oh * stride[1] - pad[1] + kh * dil[1];
        if (h < 0 || h >= in[1]) continue;
        const T* c = col_row + (od * out[1] + oh) * out[2];
        T* line = x_plane + (d * in[1] + h) * in[2];
        if (stride[2] == 1) {
          T* dst = line + w0;
          for (int64_t ow = lo; ow < hi; ++ow) dst[ow] = T(A(dst[ow]) + A(c[ow]));
        } else {
          for (int64_t ow = lo; ow < hi; ++ow)
            line[ow * stride[2] + w0] = T(A(line[ow * stride[2] + w0]) + A(c[ow]));
        }
      }
    }
  }

  /// The sum, over every column element that reads input element `i` ([C, D, H, W] flat), of `cols`
  /// (one sample's [rows, out_numel] block, its rows `row_stride` apart): the gradient of im2col, without
  /// atomics.
  template <typename T, typename A>
  TH_HOST_DEVICE A input_gradient(const T* cols, int64_t row_stride, int64_t i) const {
    const int64_t w = i % in[2], h = (i / in[2]) % in[1], d = (i / (in[2] * in[1])) % in[0];
    const int64_t c = i / in_numel();
    A sum = 0;
    for (int64_t kd = 0; kd < k[0]; ++kd) {
      const int64_t td = d + pad[0] - kd * dil[0];
      if (td < 0 || td % stride[0] != 0 || td / stride[0] >= out[0]) continue;
      for (int64_t kh = 0; kh < k[1]; ++kh) {
        const int64_t th_ = h + pad[1] - kh * dil[1];
        if (th_ < 0 || th_ % stride[1] != 0 || th_ / stride[1] >= out[1]) continue;
        for (int64_t kw = 0; kw < k[2]; ++kw) {
          const int64_t tw = w + pad[2] - kw * dil[2];
          if (tw < 0 || tw % stride[2] != 0 || tw / stride[2] >= out[2]) continue;
          const int64_t row = ((c * k[0] + kd) * k[1] + kh) * k[2] + kw;
          const int64_t col = ((td / stride[0]) * out[1] + th_ / stride[1]) * out[2] + tw / stride[2];
          sum += A(cols[row * row_stride + col]);
        }
      }
    }
    return sum;
  }
};

}  // namespace th::math
