// One capability's vectorized float kernels (see VecKernels.h). CMake compiles this file three
// times: TH_VEC_LEVEL 0 (SSE2, 4 lanes), 1 (-mavx2 -mfma, 8 lanes), 2 (-mavx512f, 16 lanes).
// GCC vector extensions, everything static: no code here is shared with any other object.
#include <cstddef>
#include <cstdint>

#include "VecKernels.h"
#if TH_VEC_LEVEL >= 1
#include <immintrin.h>
#endif

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

/// v in every lane (a broadcast: -0.0 stays -0.0, which 0 + v would make +0.0).
inline vf splat(float v) {
  vf r;
  for (int i = 0; i < W; ++i) r[i] = v;
  return r;
}

inline vf load(const float* p) {
  vf x;
  __builtin_memcpy(&x, p, sizeof x);
  return x;
}

inline void store(float* p, vf x) { __builtin_memcpy(p, &x, sizeof x); }

#if TH_VEC_LEVEL == 2
/// e^x (Cephes expf polynomial): ~1 ulp, denormal results included; 0 below -103.97, inf above
/// ln(FLT_MAX) = 88.7228, NaN stays NaN. AVX-512's vscalefps applies 2^n in one rounding (overflow to inf and
/// underflow to 0 included), and vrndscaleps rounds n: 12 instructions a vector where the portable form
/// below takes 35. x is clamped to [-104, 89] first (vmaxps/vminps keep a NaN, their second operand).
inline vf vexp(vf x) {
  const __m512 xc = _mm512_min_ps(_mm512_set1_ps(89.0f), _mm512_max_ps(_mm512_set1_ps(-104.0f), (__m512)x));
  const __m512 fn = _mm512_roundscale_ps(_mm512_mul_ps(xc, _mm512_set1_ps(1.44269504088896341f)),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(fn, _mm512_set1_ps(0.693359375f), xc);
  r = _mm512_fnmadd_ps(fn, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_fmadd_ps(r, _mm512_set1_ps(1.9875691500e-4f), _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  const __m512 y = _mm512_fmadd_ps(_mm512_mul_ps(p, r), r, _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return (vf)_mm512_scalef_ps(y, fn);
}
#else
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
#endif

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

/// erf (within 3 ulp): x * P(x^2) below |x| = 1; 1 - e^(-x^2) * Q(|x| - 2.5) up to 3.92, with Q a fit of the
/// smooth e^(x^2) erfc(x); 1 beyond, where erf rounds to 1 in float. Fitted by least squares at 4000
/// Chebyshev nodes in float64 and checked against math.erf at 2.2 million points.
inline vf verf(vf x) {
  const vf a = x < 0.0f ? -x : x;
  const vf z = a * a;
  vf p = z * -9.689741091278847e-06f + 1.127473806263879e-04f;
  p = p * z - 8.485438884235919e-04f;
  p = p * z + 5.221138708293438e-03f;
  p = p * z - 2.686547487974167e-02f;
  p = p * z + 1.128378361463547e-01f;
  p = p * z - 3.761263787746429e-01f;
  p = p * z + 1.128379225730896e+00f;
  const vf small = a * p;
  const vf t = a - 2.5f;
  vf q = t * 1.0715117326753898e-07f - 4.1731587430149375e-07f;
  q = q * t + 9.550961976856343e-07f;
  q = q * t - 3.7973682083247695e-06f;
  q = q * t + 1.6153198885149322e-05f;
  q = q * t - 5.9423979109851643e-05f;
  q = q * t + 2.1088746143504977e-04f;
  q = q * t - 7.332383538596332e-04f;
  q = q * t + 2.4670748971402645e-03f;
  q = q * t - 8.001663722097874e-03f;
  q = q * t + 2.493799477815628e-02f;
  q = q * t - 7.434733957052231e-02f;
  q = q * t + 2.1080636978149414e-01f;
  const vf big = 1.0f - vexp(-z) * q;
  vf r = a < 1.0f ? small : (a < 3.92f ? big : splat(1.0f));
  r = x < 0.0f ? -r : r;
  return x != x ? x : r;
}

/// op over n floats, W at a time; the tail too, through a padded vector, so an element's result does not
/// depend on its position (nor, with the gathering caller in UnaryKernels.cpp, on the tensor's layout).
template <typename Op>
inline void map(const float* in, float* out, int64_t n, Op op) {
  int64_t k = 0;
  for (; k + W <= n; k += W) store(out + k, op(load(in + k)));
  if (k == n) return;
  float buf[W] = {};
  for (int64_t i = 0; k + i < n; ++i) buf[i] = in[k + i];
  store(buf, op(load(buf)));
  for (int64_t i = 0; k + i < n; ++i) out[k + i] = buf[i];
}

void unary(th::cpu::VecUnary op, const float* in, float* out, int64_t n) {
  switch (op) {
    case th::cpu::VecUnary::Exp: return map(in, out, n, [](vf x) { return vexp(x); });
    case th::cpu::VecUnary::Tanh: return map(in, out, n, [](vf x) { return vtanh(x); });
    case th::cpu::VecUnary::Sigmoid: return map(in, out, n, [](vf x) { return vsigmoid(x); });
    case th::cpu::VecUnary::Erf: return map(in, out, n, [](vf x) { return verf(x); });
    case th::cpu::VecUnary::GeluErf:
      return map(in, out, n, [](vf x) { return x * 0.5f * (1.0f + verf(x * 0.70710678118654752440f)); });
  }
}

/// Sums in float lanes for blocks of up to 1024 elements, blocks in double: accurate and fast, for a row
/// shorter than a block too (a softmax row of 1000 was summed one scalar at a time). ld(k) is the vector of
/// the W values from element k, at(k) the value k (the float loads, or the 16-bit ones widened).
template <typename Load, typename At>
inline double sum_with(Load ld, At at, int64_t n) {
  double total = 0.0;
  int64_t k = 0;
  constexpr int64_t kBlock = 1024;
  while (k + W <= n) {
    const int64_t end = k + kBlock <= n ? k + kBlock : n;
    vf a0 = splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
    for (; k + 4 * W <= end; k += 4 * W) {
      a0 += ld(k);
      a1 += ld(k + W);
      a2 += ld(k + 2 * W);
      a3 += ld(k + 3 * W);
    }
    for (; k + W <= end; k += W) a0 += ld(k);
    const vf s = (a0 + a1) + (a2 + a3);
    for (int i = 0; i < W; ++i) total += double(s[i]);
  }
  for (; k < n; ++k) total += double(at(k));
  return total;
}

double sum(const float* in, int64_t n) {
  return sum_with([in](int64_t k) { return load(in + k); }, [in](int64_t k) { return in[k]; }, n);
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

/// Complex products, L / 2 complex values a vector of L lanes (V: float or double lanes, M: the integer
/// vector of their width, for the shuffles): re = ar br - ai bi and im = ar bi + ai br in th::complex's
/// order, each product rounded before the sum, so each lane is the scalar product's bits. GCC contracts a * b
/// + c into an FMA in C++ whatever -std says (-ffp-contract=fast is its C++ default), so an empty asm makes
/// the products opaque to it.
template <typename V, typename M>
inline V cmul_lanes(V a, V b) {
  constexpr int L = int(sizeof(V) / sizeof(a[0]));
  M re, im, swap;
  V sign;
  for (int i = 0; i < L; ++i) {
    re[i] = i & ~1;
    im[i] = i | 1;
    swap[i] = i ^ 1;
    sign[i] = (i & 1) ? 1 : -1;
  }
  V t1 = __builtin_shuffle(a, re) * b;                           // ar br, ar bi
  V t2 = __builtin_shuffle(a, im) * __builtin_shuffle(b, swap);  // ai bi, ai br
  __asm__("" : "+v"(t1), "+v"(t2));                              // no FMA: both products rounded
  return t1 + t2 * sign;  // t2 * -1 is exact: ar br - ai bi, ar bi + ai br
}

/// The vector of one complex value (re, im) repeated.
template <typename V, typename S>
inline V splat_complex(const S* p) {
  V r;
  for (int i = 0; i < int(sizeof(V) / sizeof(S)); ++i) r[i] = p[i & 1];
  return r;
}

template <typename V, typename M, typename S>
void cmul_of(const S* a, bool a_one, const S* b, bool b_one, S* out, int64_t n) {
  constexpr int64_t L = int64_t(sizeof(V) / sizeof(S));  // parts a vector: L / 2 complex values
  auto vload = [](const S* p) {
    V x;
    __builtin_memcpy(&x, p, sizeof x);
    return x;
  };
  const V va = splat_complex<V>(a), vb = splat_complex<V>(b);
  const int64_t parts = 2 * n;
  int64_t k = 0;
  for (; k + L <= parts; k += L) {
    const V r = cmul_lanes<V, M>(a_one ? va : vload(a + k), b_one ? vb : vload(b + k));
    __builtin_memcpy(out + k, &r, sizeof r);
  }
  if (k == parts) return;
  S pad_a[L] = {}, pad_b[L] = {};
  const size_t bytes = sizeof(S) * size_t(parts - k);
  if (!a_one) __builtin_memcpy(pad_a, a + k, bytes);
  if (!b_one) __builtin_memcpy(pad_b, b + k, bytes);
  const V r = cmul_lanes<V, M>(a_one ? va : vload(pad_a), b_one ? vb : vload(pad_b));
  __builtin_memcpy(out + k, &r, bytes);
}

typedef double vd __attribute__((vector_size(TH_VEC_W * 4)));
typedef int64_t vl __attribute__((vector_size(TH_VEC_W * 4)));

void cmul(th::cpu::VecComplex type, const void* a, bool a_one, const void* b, bool b_one, void* out,
          int64_t n) {
  if (type == th::cpu::VecComplex::ComplexFloat)
    return cmul_of<vf, vi>(static_cast<const float*>(a), a_one, static_cast<const float*>(b), b_one,
                           static_cast<float*>(out), n);
  cmul_of<vd, vl>(static_cast<const double*>(a), a_one, static_cast<const double*>(b), b_one,
                  static_cast<double*>(out), n);
}

#if TH_VEC_LEVEL >= 1
typedef uint16_t vh __attribute__((vector_size(TH_VEC_W * 2)));
typedef uint32_t vu __attribute__((vector_size(TH_VEC_W * 4)));

/// float16 <-> float: the F16C / AVX-512 instructions (exact, nearest-even, subnormals included).
vf half_to_float(const uint16_t* p) {
#if TH_VEC_LEVEL == 2
  return (vf)_mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
#else
  return (vf)_mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
#endif
}

void float_to_half(uint16_t* p, vf x) {
  constexpr int kNearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
#if TH_VEC_LEVEL == 2
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_cvtps_ph((__m512)x, kNearest));
#else
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_cvtps_ph((__m256)x, kNearest));
#endif
}

/// bfloat16 <-> float: the upper half of the bits, rounded to nearest-even; NaN stays a quiet NaN.
vf bf16_to_float(const uint16_t* p) {
  vh h;
  __builtin_memcpy(&h, p, sizeof h);
  return (vf)(__builtin_convertvector(h, vu) << 16);
}

void float_to_bf16(uint16_t* p, vf x) {
  const vu u = (vu)x;
  const vu nan = (vu)((u & 0x7fffffffu) > 0x7f800000u);
  const vu r = (nan & ((u >> 16) | 0x40u)) | (~nan & ((u + 0x7fffu + ((u >> 16) & 1u)) >> 16));
  const vh h = __builtin_convertvector(r, vh);
  __builtin_memcpy(p, &h, sizeof h);
}

/// out[k] = convert(in[k]), W values at a time (`load` a vector of In, `store` one of Out); the
/// last n % W go through a zero-padded vector.
template <typename In, typename Out>
void convert_chunks(vf (*load_in)(const In*), void (*store_out)(Out*, vf), const In* in, Out* out,
                    int64_t n) {
  int64_t k = 0;
  for (; k + W <= n; k += W) store_out(out + k, load_in(in + k));
  if (k == n) return;
  In pad[W] = {};
  Out res[W];
  __builtin_memcpy(pad, in + k, sizeof(In) * size_t(n - k));
  store_out(res, load_in(pad));
  __builtin_memcpy(out + k, res, sizeof(Out) * size_t(n - k));
}

void convert(th::cpu::VecConvert op, const void* src, void* dst, int64_t n) {
  const auto* h = static_cast<const uint16_t*>(src);
  const auto* f = static_cast<const float*>(src);
  switch (op) {
    case th::cpu::VecConvert::HalfToFloat:
      return convert_chunks(&half_to_float, &store, h, static_cast<float*>(dst), n);
    case th::cpu::VecConvert::BFloat16ToFloat:
      return convert_chunks(&bf16_to_float, &store, h, static_cast<float*>(dst), n);
    case th::cpu::VecConvert::FloatToHalf:
      return convert_chunks(&load, &float_to_half, f, static_cast<uint16_t*>(dst), n);
    case th::cpu::VecConvert::FloatToBFloat16:
      return convert_chunks(&load, &float_to_bf16, f, static_cast<uint16_t*>(dst), n);
  }
}
constexpr th::cpu::vec_convert_fn kConvert = &convert;

/// The vector of W 16-bit values at p as floats, and W floats stored to p rounded: Half or BFloat16.
template <bool Half>
inline vf widen(const uint16_t* p) {
  if constexpr (Half) {
    return half_to_float(p);
  } else {
    return bf16_to_float(p);
  }
}

template <bool Half>
inline void narrow(uint16_t* p, vf x) {
  if constexpr (Half) {
    float_to_half(p, x);
  } else {
    float_to_bf16(p, x);
  }
}

template <bool Half>
inline float widen_one(uint16_t h) {
  if constexpr (Half) {
    return _cvtsh_ss(h);
  } else {
    const uint32_t u = uint32_t(h) << 16;
    float f;
    __builtin_memcpy(&f, &u, sizeof f);
    return f;
  }
}

/// out = op(a, b) over n 16-bit values, W at a time; a (b) is the splat va (vb) when AOne (BOne). The last
/// n % W go through zero-padded vectors (a padded lane's result is never stored).
template <bool Half, bool AOne, bool BOne, typename Op>
void binary16_run(const uint16_t* a, vf va, const uint16_t* b, vf vb, uint16_t* out, int64_t n, Op op) {
  auto step = [&](const uint16_t* pa, const uint16_t* pb) {
    vf x, y;
    if constexpr (AOne) {
      x = va;
    } else {
      x = widen<Half>(pa);
    }
    if constexpr (BOne) {
      y = vb;
    } else {
      y = widen<Half>(pb);
    }
    return op(x, y);
  };
  int64_t k = 0;
  for (; k + W <= n; k += W) narrow<Half>(out + k, step(a + k, b + k));
  if (k == n) return;
  uint16_t pad_a[W] = {}, pad_b[W] = {}, res[W];
  const size_t bytes = sizeof(uint16_t) * size_t(n - k);
  if constexpr (!AOne) __builtin_memcpy(pad_a, a + k, bytes);
  if constexpr (!BOne) __builtin_memcpy(pad_b, b + k, bytes);
  narrow<Half>(res, step(pad_a, pad_b));
  __builtin_memcpy(out + k, res, bytes);
}

template <bool Half, typename Op>
void binary16_op(const uint16_t* a, float av, const uint16_t* b, float bv, uint16_t* out, int64_t n, Op op) {
  const vf va = splat(av), vb = splat(bv);
  if (a && b) return binary16_run<Half, false, false>(a, va, b, vb, out, n, op);
  if (b) return binary16_run<Half, true, false>(a, va, b, vb, out, n, op);
  if (a) return binary16_run<Half, false, true>(a, va, b, vb, out, n, op);
  binary16_run<Half, true, true>(a, va, b, vb, out, n, op);
}

template <bool Half>
void binary16_of(th::cpu::VecBinary op, const uint16_t* a, float av, const uint16_t* b, float bv, float alpha,
                 uint16_t* out, int64_t n) {
  switch (op) {
    case th::cpu::VecBinary::Add:  // alpha is 1 or -1: a + alpha * b is a + b or a - b, bit for bit
      if (alpha == 1.0f) return binary16_op<Half>(a, av, b, bv, out, n, [](vf x, vf y) { return x + y; });
      return binary16_op<Half>(a, av, b, bv, out, n, [](vf x, vf y) { return x - y; });
    case th::cpu::VecBinary::Mul:
      return binary16_op<Half>(a, av, b, bv, out, n, [](vf x, vf y) { return x * y; });
    case th::cpu::VecBinary::Div:
      return binary16_op<Half>(a, av, b, bv, out, n, [](vf x, vf y) { return x / y; });
  }
}

void binary16(th::cpu::VecBinary op, th::cpu::Vec16 type, const void* a, float av, const void* b, float bv,
              float alpha, void* out, int64_t n) {
  const auto* pa = static_cast<const uint16_t*>(a);
  const auto* pb = static_cast<const uint16_t*>(b);
  auto* po = static_cast<uint16_t*>(out);
  if (type == th::cpu::Vec16::Half) return binary16_of<true>(op, pa, av, pb, bv, alpha, po, n);
  binary16_of<false>(op, pa, av, pb, bv, alpha, po, n);
}

/// The sum of each run of 1024 values as sum() of the run widened (same lanes, same order), runs in double.
template <bool Half>
double sum16_of(const uint16_t* in, int64_t n) {
  constexpr int64_t kRun = 1024;
  double total = 0.0;
  for (int64_t b = 0; b < n; b += kRun) {
    const uint16_t* p = in + b;
    total += sum_with([p](int64_t k) { return widen<Half>(p + k); },
                      [p](int64_t k) { return widen_one<Half>(p[k]); }, n - b < kRun ? n - b : kRun);
  }
  return total;
}

double sum16(th::cpu::Vec16 type, const void* in, int64_t n) {
  const auto* p = static_cast<const uint16_t*>(in);
  return type == th::cpu::Vec16::Half ? sum16_of<true>(p, n) : sum16_of<false>(p, n);
}
constexpr th::cpu::vec_binary16_fn kBinary16 = &binary16;
constexpr th::cpu::vec_sum16_fn kSum16 = &sum16;
#else
constexpr th::cpu::vec_convert_fn kConvert = nullptr;  // SSE2 has no conversion instructions
constexpr th::cpu::vec_binary16_fn kBinary16 = nullptr;
constexpr th::cpu::vec_sum16_fn kSum16 = nullptr;
#endif

[[maybe_unused]] const bool registered =
    (th::cpu::register_vec_kernels(TH_VEC_LEVEL, &unary, &reduce, kConvert, kBinary16, kSum16, &cmul), true);

}  // namespace
