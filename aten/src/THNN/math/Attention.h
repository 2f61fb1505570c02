#pragma once
// Scalar math of fused attention (scaled_dot_product_attention without dropout), written once for the CPU and
// CUDA kernels. For one batch-head: q [L, E], k [S, E], v [S, Ev], an optional additive mask [L, S] and a
// causal flag (query i sees the keys j <= i, PyTorch's top-left alignment). The forward takes a query row at
// a time with an online softmax (a running max, sum and weighted sum of v: no [L, S] matrix) and keeps the
// row's log-sum-exp; the backward recomputes the probabilities from it, a query row at a time for dq (and the
// mask's gradient), a key row at a time for dk and dv. Each output element is written by one thread: no
// atomics, and the sums are deterministic. Accumulators (acc, dq, dk, dv) are in the math type A.
#include <cmath>
#include <cstdint>

#include <TH/Macros.h>

// The dot products' sums may be reassociated, so that the CPU compiler vectorizes them (OpenMP simd); nvcc's
// device code is left as it is.
#define TH_ATTENTION_PRAGMA(x) _Pragma(#x)
#if defined(_OPENMP) && !defined(__CUDACC__)
#define TH_SIMD_SUM(var) TH_ATTENTION_PRAGMA(omp simd reduction(+ : var))
#else
#define TH_SIMD_SUM(var)
#endif

namespace th::math {

struct AttentionShape {
  int64_t L, S, E, Ev;
  bool causal;
  double scale;
  int64_t mask_b = 0, mask_i = 0,
          mask_j = 0;  // the mask's strides over batch-heads, queries and keys (0: broadcast)
};

/// The score of query i and key j: scale * q_i . k_j + mask[i, j] (the batch-head's mask, read through its
/// strides), or -inf where causal masking hides j.
template <typename T, typename A>
TH_HOST_DEVICE A attention_score(const T* q, const T* k, const T* mask, const AttentionShape& a, int64_t i,
                                 int64_t j) {
  if (a.causal && j > i) return -INFINITY;
  A dot = 0;
  TH_SIMD_SUM(dot)
  for (int64_t e = 0; e < a.E; ++e) dot += A(q[i * a.E + e]) * A(k[j * a.E + e]);
  return A(a.scale) * dot + (mask ? A(mask[i * a.mask_i + j * a.mask_j]) : A(0));
}

/// Query row i: acc[i] = softmax(scores of row i) @ v and lse[i] = the scores' log-sum-exp. A row that sees
/// no key (every score -inf) attends to nothing: its output is 0, as upstream's attention (_safe_softmax)
/// gives, and its lse +inf, so that the backward's probabilities exp(score - lse) are 0 there.
template <typename T, typename A>
TH_HOST_DEVICE void attention_forward_row(const T* q, const T* k, const T* v, const T* mask, A* acc, A* lse,
                                          const AttentionShape& a, int64_t i) {
  A* o = acc + i * a.Ev;
  for (int64_t d = 0; d < a.Ev; ++d) o[d] = A(0);
  A m = -INFINITY, l = 0;
  for (int64_t j = 0; j < a.S; ++j) {
    const A s = attention_score<T, A>(q, k, mask, a, i, j);
    if (s == -INFINITY) continue;
    if (s > m) {  // a new max: rescale what was summed so far
      const A c = std::exp(m - s);
      for (int64_t d = 0; d < a.Ev; ++d) o[d] *= c;
      l *= c;
      m = s;
    }
    const A p = std::exp(s - m);
    l += p;
    for (int64_t d = 0; d < a.Ev; ++d) o[d] += p * A(v[j * a.Ev + d]);
  }
  if (l == A(0)) {
    lse[i] = INFINITY;
    return;
  }
  for (int64_t d = 0; d < a.Ev; ++d) o[d] /= l;
  lse[i] = m + std::log(l);
}

/// Query row i of the backward: D[i] = dout_i . out_i, dq[i] = scale * sum_j ds_ij k_j and (dmask) dmask[i,
/// j] = ds_ij, with p_ij = exp(score - lse_i) and ds_ij = p_ij (dout_i . v_j - D[i]).
template <typename T, typename A>
TH_HOST_DEVICE void attention_backward_query_row(const T* q, const T* k, const T* v, const T* mask,
                                                 const T* out, const T* dout, const A* lse, A* D, A* dq,
                                                 T* dmask, const AttentionShape& a, int64_t i) {
  A Di = 0;
  TH_SIMD_SUM(Di)
  for (int64_t d = 0; d < a.Ev; ++d) Di += A(dout[i * a.Ev + d]) * A(out[i * a.Ev + d]);
  D[i] = Di;
  A* g = dq + i * a.E;
  for (int64_t e = 0; e < a.E; ++e) g[e] = A(0);
  for (int64_t j = 0; j < a.S; ++j) {
    const A p = std::exp(attention_score<T, A>(q, k, mask, a, i, j) - lse[i]);
    A dp = 0;
    TH_SIMD_SUM(dp)
    for (int64_t d = 0; d < a.Ev; ++d) dp += A(dout[i * a.Ev + d]) * A(v[j * a.Ev + d]);
    const A ds = p * (dp - Di);
    if (dmask) dmask[i * a.S + j] = T(ds);
    for (int64_t e = 0; e < a.E; ++e) g[e] += A(a.scale) * ds * A(k[j * a.E + e]);
  }
}

/// Key row j of the backward: dv[j] = sum_i p_ij dout_i and dk[j] = scale * sum_i ds_ij q_i (D from the query
/// rows).
template <typename T, typename A>
TH_HOST_DEVICE void attention_backward_key_row(const T* q, const T* k, const T* v, const T* mask,
                                               const T* dout, const A* lse, const A* D, A* dk, A* dv,
                                               const AttentionShape& a, int64_t j) {
  A* gk = dk + j * a.E;
  A* gv = dv + j * a.Ev;
  for (int64_t e = 0; e < a.E; ++e) gk[e] = A(0);
  for (int64_t d = 0; d < a.Ev; ++d) gv[d] = A(0);
  for (int64_t i = 0; i < a.L; ++i) {
    const A p = std::exp(attention_score<T, A>(q, k, mask, a, i, j) - lse[i]);
    A dp = 0;
    TH_SIMD_SUM(dp)
    for (int64_t d = 0; d < a.Ev; ++d) {
      const A go = A(dout[i * a.Ev + d]);
      gv[d] += p * go;
      dp += go * A(v[j * a.Ev + d]);
    }
    const A ds = p * (dp - D[i]);
    for (int64_t e = 0; e < a.E; ++e) gk[e] += A(a.scale) * ds * A(q[i * a.E + e]);
  }
}

}  // namespace th::math
