#pragma once
// Scalar math of Winograd's minimal filtering F(2x2, 3x3) (Lavin & Gray, "Fast Algorithms for Convolutional
// Neural Networks", 2015), written once for every device's kernels. A 3x3 convolution of unit stride and
// dilation computes each 2x2 block (tile) of one output plane from the 4x4 input patch it reads:
//
//   Y = A^T [ (G g G^T) * (B^T d B) ] A        (* elementwise over the 16 positions of a 4x4 tile)
//
// so that, per position, the sum over input channels is one matrix product [O, C] x [C, tiles]: 16 products
// of 2.25x fewer multiply-adds in all than im2col's one. Every 2-D transform here is separable: a 1-D
// transform of each column, then of each row. The gradients are the transposed transforms: the weight's
// gradient sums (A dY A^T) * (B^T d B) over tiles and maps it back with G^T.
#include <cstdint>

#include <TH/Macros.h>

namespace th::math::winograd {

constexpr int kOut = 2;         // output block side
constexpr int kPositions = 16;  // transformed tile elements: one matrix product each

/// B^T d: the input transform of one line of 4 input elements.
template <typename T>
TH_HOST_DEVICE inline void input_1d(T d0, T d1, T d2, T d3, T& v0, T& v1, T& v2, T& v3) {
  v0 = d0 - d2;
  v1 = d1 + d2;
  v2 = d2 - d1;
  v3 = d1 - d3;
}

/// A^T m: the output transform of one line of 4 transformed products, 2 outputs.
template <typename T>
TH_HOST_DEVICE inline void output_1d(T m0, T m1, T m2, T m3, T& y0, T& y1) {
  y0 = m0 + m1 + m2;
  y1 = m1 - m2 - m3;
}

/// G g: the weight transform of one line of the 3x3 kernel, 4 values.
template <typename T>
TH_HOST_DEVICE inline void weight_1d(T g0, T g1, T g2, T* u) {
  const T half_sum = T(0.5) * (g0 + g2);
  u[0] = g0;
  u[1] = half_sum + T(0.5) * g1;
  u[2] = half_sum - T(0.5) * g1;
  u[3] = g2;
}

/// A dy: the transpose of output_1d, the gradient of a line of 4 products from the gradient of its 2 outputs.
template <typename T>
TH_HOST_DEVICE inline void output_grad_1d(T dy0, T dy1, T& dm0, T& dm1, T& dm2, T& dm3) {
  dm0 = dy0;
  dm1 = dy0 + dy1;
  dm2 = dy0 - dy1;
  dm3 = -dy1;
}

/// G^T du: the transpose of weight_1d, the gradient of a kernel line of 3 from its transformed line of 4.
template <typename T>
TH_HOST_DEVICE inline void weight_grad_1d(T du0, T du1, T du2, T du3, T* dg) {
  const T half_sum = T(0.5) * (du1 + du2);
  dg[0] = du0 + half_sum;
  dg[1] = T(0.5) * (du1 - du2);
  dg[2] = du3 + half_sum;
}

/// u[p * stride] (p = 4i + j) = (G g G^T)[i][j] for one 3x3 kernel g (row-major, contiguous).
template <typename T, typename S>
TH_HOST_DEVICE inline void weight_tile(const S* g, T* u, int64_t stride) {
  T rows[3][4];  // G applied along each kernel row, then along each column
  for (int r = 0; r < 3; ++r) weight_1d(T(g[3 * r]), T(g[3 * r + 1]), T(g[3 * r + 2]), rows[r]);
  for (int j = 0; j < 4; ++j) {
    T col[4];
    weight_1d(rows[0][j], rows[1][j], rows[2][j], col);
    for (int i = 0; i < 4; ++i) u[(4 * i + j) * stride] = col[i];
  }
}

/// g (3x3, row-major) = G^T du G for one transformed weight gradient du[p * stride] (p = 4i + j).
template <typename T, typename S>
TH_HOST_DEVICE inline void weight_grad_tile(const T* du, int64_t stride, S* g) {
  T cols[4][3];  // G^T applied along each column of du, then along each row
  for (int j = 0; j < 4; ++j) {
    T out[3];
    weight_grad_1d(du[j * stride], du[(4 + j) * stride], du[(8 + j) * stride], du[(12 + j) * stride], out);
    for (int i = 0; i < 3; ++i) cols[j][i] = out[i];
  }
  for (int i = 0; i < 3; ++i) {
    T out[3];
    weight_grad_1d(cols[0][i], cols[1][i], cols[2][i], cols[3][i], out);
    for (int j = 0; j < 3; ++j) g[3 * i + j] = S(out[j]);
  }
}

/// A 3x3 convolution of unit stride and dilation over [N, groups * C, H, W] into [N, groups * O, Ho, Wo],
/// as tiles: output block (ty, tx) covers rows 2ty, 2ty + 1 and columns 2tx, 2tx + 1 and reads the 4x4 input
/// patch at (2ty - pad_h, 2tx - pad_w); input outside [0, H) x [0, W) is zero padding.
struct WinogradGeometry {
  int64_t N, groups;
  int64_t C, O;  // input and output channels of one group
  int64_t H, W, Ho, Wo;
  int64_t pad_h, pad_w;

  TH_HOST_DEVICE int64_t tiles_h() const { return (Ho + kOut - 1) / kOut; }
  TH_HOST_DEVICE int64_t tiles_w() const { return (Wo + kOut - 1) / kOut; }
  /// The width of a padded input line that the tiles of one tile row read: 2 * tiles_w + 2.
  TH_HOST_DEVICE int64_t line_w() const { return kOut * tiles_w() + 2; }
};

}  // namespace th::math::winograd
