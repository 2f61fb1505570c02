// One capability's vectorized float kernels (see VecKernels.h). CMake compiles this file three
// times: TH_VEC_LEVEL 0 (SSE2, 4 lanes), 1 (-mavx2 -mfma, 8 lanes), 2 (-mavx512f, 16 lanes).
// GCC vector extensions, everything static: no code here is shared with any other object.
#include <cstdint>

#include "VecKernels.h"

#ifndef TH_VEC_LEVEL
#define TH_VEC_LEVEL 0
#endif
#if TH_VEC_LEVEL == 2
#define TH_VEC_W 16
#elif TH_VEC_LEVEL == 1
#define TH_VEC_W 8
#else
#define TH_VEC_W 4
#endif

namespace {

typedef float vf __attribute__((vector_size(TH_VEC_W * 4)));
typedef int32_t vi __attribute__((vector_size(TH_VEC_W * 4)));
constexpr int W = TH_VEC_W;

inline vf splat(float v) { return vf{} + v; }

inline vf load(const float* p) {
  vf x;
  __builtin_memcpy(&x, p, sizeof x);
  return x;
}

inline void store(float* p, vf x) { __builtin_memcpy(p, &x, sizeof x); }

/// e^x (Cephes expf polynomial): ~1 ulp, denormal results included; 0 below -103.97, inf above
/// ln(FLT_MAX) = 88.7228, NaN stays NaN. 2^n is applied in two halves so no step overflows.
inline vf vexp(vf x) {
  const vf lo = splat(-103.972f), hi = splat(88.72283f);
  vf xc = x < lo ? lo : x;
  xc = xc > hi ? hi : xc;
  xc = x != x ? splat(0.0f) : xc;
  const vf fx = xc * 1.44269504088896341f + 0.5f;
  vi n = __builtin_convertvector(fx, vi);
  n = n + (vi)(fx < __builtin_convertvector(n, vf));  // floor: the compare is -1 where it truncated up
  const vf fn = __builtin_convertvector(n, vf);
  const vf r = xc - fn * 0.693359375f - fn * -2.12194440e-4f;
  vf p = r * 1.9875691500e-4f + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const vi n1 = n >> 1, n2 = n - n1;
  vf y = (p * r * r + r + 1.0f) * (vf)((n1 + 127) << 23) * (vf)((n2 + 127) << 23);
  y = x > hi ? splat(__builtin_inff()) : y;
  y = x < lo ? splat(0.0f) : y;
  return x != x ? x : y;
}

/// tanh: an odd polynomial below 0.625 (no cancellation), (1 - e^-2|x|) / (1 + e^-2|x|) above.
inline vf vtanh(vf x) {
  const vf a = x < 0.0f ? -x : x;
  const vf z = a * a;
  vf p = z * -5.70498872745e-3f + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const vf small = p * z * a + a;
  const vf e = vexp(a * -2.0f);
  const vf big = (1.0f - e) / (1.0f + e);
  vf r = a < 0.625f ? small : big;
  r = x < 0.0f ? -r : r;
  return x != x ? x : r;
}

inline vf vsigmoid(vf x) { return 1.0f / (1.0f + vexp(-x)); }

float scalar_exp(float x) { return __builtin_expf(x); }
float scalar_tanh(float x) { return __builtin_tanhf(x); }
float scalar_sigmoid(float x) { return 1.0f / (1.0f + __builtin_expf(-x)); }

void unary(th::cpu::VecUnary op, const float* in, float* out, int64_t n) {
  int64_t k = 0;
  switch (op) {
    case th::cpu::VecUnary::Exp:
      for (; k + W <= n; k += W) store(out + k, vexp(load(in + k)));
      for (; k < n; ++k) out[k] = scalar_exp(in[k]);
      break;
    case th::cpu::VecUnary::Tanh:
      for (; k + W <= n; k += W) store(out + k, vtanh(load(in + k)));
      for (; k < n; ++k) out[k] = scalar_tanh(in[k]);
      break;
    case th::cpu::VecUnary::Sigmoid:
      for (; k + W <= n; k += W) store(out + k, vsigmoid(load(in + k)));
      for (; k < n; ++k) out[k] = scalar_sigmoid(in[k]);
      break;
  }
}

/// Sums in float lanes for blocks of 1024 elements, blocks in double: accurate and fast.
double sum(const float* in, int64_t n) {
  double total = 0.0;
  int64_t k = 0;
  constexpr int64_t kBlock = 1024;
  for (; k + kBlock <= n; k += kBlock) {
    vf a0 = splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t j = 0; j < kBlock; j += 4 * W) {
      a0 += load(in + k + j);
      a1 += load(in + k + j + W);
      a2 += load(in + k + j + 2 * W);
      a3 += load(in + k + j + 3 * W);
    }
    const vf s = (a0 + a1) + (a2 + a3);
    for (int i = 0; i < W; ++i) total += double(s[i]);
  }
  for (; k < n; ++k) total += double(in[k]);
  return total;
}

/// max (is_max) or min with NaN propagation: lanes track the extremum and whether a NaN was seen.
double extremum(const float* in, int64_t n, bool is_max) {
  if (n == 0) return is_max ? -__builtin_inff() : __builtin_inff();
  vf best = splat(in[0]);
  vi nan = vi{};
  int64_t k = 0;
  for (; k + W <= n; k += W) {
    const vf x = load(in + k);
    nan |= (vi)(x != x);
    best = is_max ? (x > best ? x : best) : (x < best ? x : best);
  }
  float r = best[0];
  bool any_nan = false;
  for (int i = 0; i < W; ++i) {
    any_nan |= nan[i] != 0;
    r = is_max ? (best[i] > r ? best[i] : r) : (best[i] < r ? best[i] : r);
  }
  for (; k < n; ++k) {
    any_nan |= in[k] != in[k];
    r = is_max ? (in[k] > r ? in[k] : r) : (in[k] < r ? in[k] : r);
  }
  return any_nan ? double(__builtin_nanf("")) : double(r);
}

double reduce(th::cpu::VecReduce op, const float* in, int64_t n) {
  switch (op) {
    case th::cpu::VecReduce::Sum: return sum(in, n);
    case th::cpu::VecReduce::Max: return extremum(in, n, true);
    case th::cpu::VecReduce::Min: return extremum(in, n, false);
  }
  return 0.0;
}

[[maybe_unused]] const bool registered = (th::cpu::register_vec_kernels(TH_VEC_LEVEL, &unary, &reduce), true);

}  // namespace
