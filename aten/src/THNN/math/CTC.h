#pragma once
// Scalar math of the CTC loss (Graves et al. 2006), written once for the CPU and CUDA kernels: one sample's
// forward (alpha) and backward (beta) recursions over the target with blanks between its labels (2L + 1
// states), in log space. Log-probabilities lp[t * stride_t + c * stride_c], alpha / beta [T, 2L + 1]
// row-major.
#include <cmath>
#include <cstdint>

#include <TH/Macros.h>

namespace th::math {

template <typename A>
TH_HOST_DEVICE A log_add(A a, A b) {
  const A m = a > b ? a : b;
  if (m == -INFINITY) return -INFINITY;
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

/// The label of extended state s (the blank on even states).
TH_HOST_DEVICE inline int64_t ctc_label(const int64_t* target, int64_t s, int64_t blank) {
  return s % 2 == 0 ? blank : target[s / 2];
}

/// alpha over the first `input_length` steps; returns the negative log-likelihood of the target.
template <typename T, typename A>
TH_HOST_DEVICE A ctc_alpha(const T* lp, int64_t stride_t, int64_t stride_c, int64_t input_length,
                           const int64_t* target, int64_t L, int64_t blank, A* alpha) {
  const int64_t S = 2 * L + 1;
  for (int64_t s = 0; s < S; ++s) alpha[s] = -INFINITY;
  if (input_length == 0) return L == 0 ? A(0) : A(INFINITY);
  alpha[0] = A(lp[blank * stride_c]);
  if (L > 0) alpha[1] = A(lp[target[0] * stride_c]);
  for (int64_t t = 1; t < input_length; ++t) {
    for (int64_t s = 0; s < S; ++s) {
      const int64_t l = ctc_label(target, s, blank);
      A a = alpha[(t - 1) * S + s];
      if (s > 0) a = log_add(a, alpha[(t - 1) * S + s - 1]);
      if (s > 1 && l != blank && l != target[s / 2 - 1]) a = log_add(a, alpha[(t - 1) * S + s - 2]);
      alpha[t * S + s] = a == -INFINITY ? a : a + A(lp[t * stride_t + l * stride_c]);
    }
  }
  const A* last = alpha + (input_length - 1) * S;
  return -(L > 0 ? log_add(last[S - 1], last[S - 2]) : last[S - 1]);
}

/// The gradient of the loss with respect to lp, times gr, written into grad (zero past input_length), from
/// alpha and beta (scratch, [T, 2L + 1]) as PyTorch's: exp(lp) - exp(log(sum of alpha beta over the states of
/// label c)
/// + nll - lp).
template <typename T, typename A>
TH_HOST_DEVICE void ctc_grad(const T* lp, int64_t stride_t, int64_t stride_c, int64_t input_length,
                             int64_t max_t, int64_t C, const int64_t* target, int64_t L, int64_t blank,
                             const A* alpha, A nll, A gr, A* beta, T* grad, int64_t grad_stride_t,
                             int64_t grad_stride_c, bool zero_infinity) {
  const int64_t S = 2 * L + 1;
  for (int64_t t = 0; t < max_t; ++t)
    for (int64_t c = 0; c < C; ++c) grad[t * grad_stride_t + c * grad_stride_c] = T(0);
  if (input_length == 0 || (zero_infinity && nll == A(INFINITY))) return;
  for (int64_t s = 0; s < S; ++s) beta[(input_length - 1) * S + s] = -INFINITY;
  const int64_t tl = input_length - 1;
  beta[tl * S + S - 1] = A(lp[tl * stride_t + blank * stride_c]);
  if (L > 0) beta[tl * S + S - 2] = A(lp[tl * stride_t + target[L - 1] * stride_c]);
  for (int64_t t = tl - 1; t >= 0; --t) {
    for (int64_t s = 0; s < S; ++s) {
      const int64_t l = ctc_label(target, s, blank);
      A b = beta[(t + 1) * S + s];
      if (s < S - 1) b = log_add(b, beta[(t + 1) * S + s + 1]);
      if (s < S - 2 && l != blank && l != target[s / 2 + 1]) b = log_add(b, beta[(t + 1) * S + s + 2]);
      beta[t * S + s] = b == -INFINITY ? b : b + A(lp[t * stride_t + l * stride_c]);
    }
  }
  for (int64_t t = 0; t < input_length; ++t) {
    // the log of the summed alpha beta of each label's states, gathered into grad first (as log values)
    for (int64_t c = 0; c < C; ++c) grad[t * grad_stride_t + c * grad_stride_c] = T(-INFINITY);
    for (int64_t s = 0; s < S; ++s) {
      const int64_t l = ctc_label(target, s, blank);
      T& g = grad[t * grad_stride_t + l * grad_stride_c];
      g = T(log_add(A(g), alpha[t * S + s] + beta[t * S + s]));
    }
    for (int64_t c = 0; c < C; ++c) {
      T& g = grad[t * grad_stride_t + c * grad_stride_c];
      const A l = A(lp[t * stride_t + c * stride_c]);
      g = T((std::exp(l) - std::exp(A(g) + nll - l)) * gr);
    }
  }
}

}  // namespace th::math
