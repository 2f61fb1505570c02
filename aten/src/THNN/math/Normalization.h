#pragma once
// Scalar math of layer and batch normalization, written once for the CPU and CUDA kernels: two passes (the
// mean, then the mean square deviation from it), each in 8 independent lanes that the compiler
// vectorizes, in opmath_t (float for 16-bit input). Layer norm normalizes a row of M elements; batch norm a
// channel c of a contiguous [N, C, L] tensor (its N rows of L elements).
#include <cmath>
#include <cstdint>

#include <TH/Half.h>
#include <TH/Macros.h>

namespace th::math {

/// y = (x - mean) * rstd * w + b for the row x (w, b: per element, or null); writes mean and rstd.
/// The sum of x[0, n), in 8 lanes.
template <typename T, typename A>
TH_HOST_DEVICE A lane_sum(const T* x, int64_t n) {
  constexpr int L = 8;
  A lanes[L] = {};
  int64_t k = 0;
  for (; k + L <= n; k += L)
    for (int j = 0; j < L; ++j) lanes[j] += A(x[k + j]);
  A total = 0;
  for (; k < n; ++k) total += A(x[k]);
  for (int j = 0; j < L; ++j) total += lanes[j];
  return total;
}

/// The sum of (x[k] - m)^2 over [0, n), in 8 lanes.
template <typename T, typename A>
TH_HOST_DEVICE A lane_square_deviation(const T* x, int64_t n, A m) {
  constexpr int L = 8;
  A lanes[L] = {};
  int64_t k = 0;
  for (; k + L <= n; k += L)
    for (int j = 0; j < L; ++j) lanes[j] += (A(x[k + j]) - m) * (A(x[k + j]) - m);
  A total = 0;
  for (; k < n; ++k) total += (A(x[k]) - m) * (A(x[k]) - m);
  for (int j = 0; j < L; ++j) total += lanes[j];
  return total;
}

/// y = (x - mean) * rstd * w + b for the row x (w, b: per element, or null); writes mean and rstd.
template <typename T, typename A = opmath_t<T>>
TH_HOST_DEVICE void layer_norm_row(const T* x, T* y, int64_t M, const T* w, const T* b, double eps, A& mean,
                                   A& rstd) {
  const A m = lane_sum<T, A>(x, M) / A(M);
  mean = m;
  rstd = A(1) / std::sqrt(lane_square_deviation<T, A>(x, M, m) / A(M) + A(eps));
  for (int64_t k = 0; k < M; ++k) {
    A v = (A(x[k]) - m) * rstd;
    if (w) v *= A(w[k]);
    if (b) v += A(b[k]);
    y[k] = T(v);
  }
}

/// The mean and (biased) variance of channel c of the contiguous [N, C, L] x.
template <typename T, typename A = opmath_t<T>>
TH_HOST_DEVICE void batch_norm_channel_stats(const T* x, int64_t N, int64_t C, int64_t L, int64_t c, A& mean,
                                             A& var) {
  A total = 0;
  for (int64_t n = 0; n < N; ++n) total += lane_sum<T, A>(x + (n * C + c) * L, L);
  const A m = total / A(N * L);
  A sq = 0;
  for (int64_t n = 0; n < N; ++n) sq += lane_square_deviation<T, A>(x + (n * C + c) * L, L, m);
  mean = m;
  var = sq / A(N * L);
}

/// y = (x - mean) * invstd * w + b over channel c (w, b: per channel, or null).
template <typename T, typename A = opmath_t<T>>
TH_HOST_DEVICE void batch_norm_channel_apply(const T* x, T* y, int64_t N, int64_t C, int64_t L, int64_t c,
                                             A mean, A invstd, const T* w, const T* b) {
  // ((x - mean) * invstd) * w + b, in PyTorch's order: a scale and shift folded together overflow where
  // it does not (a huge weight times a constant channel's large invstd)
  const A wc = w ? A(w[c]) : A(1), bc = b ? A(b[c]) : A(0);
  for (int64_t n = 0; n < N; ++n) {
    const T* xr = x + (n * C + c) * L;
    T* yr = y + (n * C + c) * L;
    for (int64_t l = 0; l < L; ++l) yr[l] = T((A(xr[l]) - mean) * invstd * wc + bc);
  }
}

/// The gradients of channel c: dx (if dx), and dw = sum(dy * xhat), db = sum(dy) (written where non-null).
/// With batch statistics dx = w * invstd * (dy - mean(dy) - xhat * mean(dy * xhat)); with fixed (running)
/// statistics dx = w * invstd * dy.
template <typename T, typename A = opmath_t<T>>
TH_HOST_DEVICE void batch_norm_channel_backward(const T* dy, const T* x, int64_t N, int64_t C, int64_t L,
                                                int64_t c, A mean, A invstd, const T* w, bool batch_stats,
                                                T* dx, T* dw, T* db) {
  A sum_dy = 0, sum_dy_xhat = 0;
  for (int64_t n = 0; n < N; ++n) {
    const T* g = dy + (n * C + c) * L;
    const T* xr = x + (n * C + c) * L;
    for (int64_t l = 0; l < L; ++l) {
      sum_dy += A(g[l]);
      sum_dy_xhat += A(g[l]) * (A(xr[l]) - mean);
    }
  }
  sum_dy_xhat *= invstd;
  if (dw) dw[c] = T(sum_dy_xhat);
  if (db) db[c] = T(sum_dy);
  if (!dx) return;
  const A count = A(N * L), k = invstd * (w ? A(w[c]) : A(1));
  const A mdy = batch_stats ? sum_dy / count : A(0), mdyx = batch_stats ? sum_dy_xhat / count : A(0);
  for (int64_t n = 0; n < N; ++n) {
    const T* g = dy + (n * C + c) * L;
    const T* xr = x + (n * C + c) * L;
    T* out = dx + (n * C + c) * L;
    for (int64_t l = 0; l < L; ++l) out[l] = T(k * (A(g[l]) - mdy - (A(xr[l]) - mean) * invstd * mdyx));
  }
}

/// dx of one row: rstd * (g - mean(g) - xhat * mean(g * xhat)) with g = dy * w and xhat = (x - mean) * rstd.
template <typename T, typename A = opmath_t<T>>
TH_HOST_DEVICE void layer_norm_backward_row(const T* dy, const T* x, int64_t M, const T* w, A mean, A rstd,
                                            T* dx) {
  A sum_g = 0, sum_gx = 0;
  for (int64_t k = 0; k < M; ++k) {
    const A g = A(dy[k]) * (w ? A(w[k]) : A(1));
    sum_g += g;
    sum_gx += g * (A(x[k]) - mean) * rstd;
  }
  const A mg = sum_g / A(M), mgx = sum_gx / A(M);
  for (int64_t k = 0; k < M; ++k) {
    const A g = A(dy[k]) * (w ? A(w[k]) : A(1));
    dx[k] = T(rstd * (g - mg - (A(x[k]) - mean) * rstd * mgx));
  }
}

}  // namespace th::math
