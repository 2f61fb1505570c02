#pragma once
// Scalar math of layer normalization over one row of M elements, written once for the CPU and CUDA
// kernels: two passes (the mean, then the mean square deviation from it), each in 8 independent lanes
// that the compiler vectorizes, in opmath_t (float for 16-bit input).
#include <cmath>
#include <cstdint>

#include <TH/Half.h>
#include <TH/Macros.h>

namespace th::math {

/// y = (x - mean) * rstd * w + b for the row x (w, b: per element, or null); writes mean and rstd.
template <typename T, typename A = opmath_t<T>>
TH_HOST_DEVICE void layer_norm_row(const T* x, T* y, int64_t M, const T* w, const T* b, double eps, A& mean,
                                   A& rstd) {
  constexpr int L = 8;
  A lanes[L] = {};
  int64_t k = 0;
  for (; k + L <= M; k += L)
    for (int j = 0; j < L; ++j) lanes[j] += A(x[k + j]);
  A total = 0;
  for (; k < M; ++k) total += A(x[k]);
  for (int j = 0; j < L; ++j) total += lanes[j];
  const A m = total / A(M);
  for (int j = 0; j < L; ++j) lanes[j] = 0;
  for (k = 0; k + L <= M; k += L)
    for (int j = 0; j < L; ++j) lanes[j] += (A(x[k + j]) - m) * (A(x[k + j]) - m);
  A sq = 0;
  for (; k < M; ++k) sq += (A(x[k]) - m) * (A(x[k]) - m);
  for (int j = 0; j < L; ++j) sq += lanes[j];
  mean = m;
  rstd = A(1) / std::sqrt(sq / A(M) + A(eps));
  for (k = 0; k < M; ++k) {
    A v = (A(x[k]) - m) * rstd;
    if (w) v *= A(w[k]);
    if (b) v += A(b[k]);
    y[k] = T(v);
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
