#pragma once
// Branch-free float exp / tanh / sigmoid (Cephes polynomials, <= 2 ulp): plain arithmetic and
// selects that the compiler vectorizes in the CPU loops, where std::exp is a scalar libm call.
// Device code and other dtypes use the standard functions.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "../Macros.h"

namespace th::math {

/// e^x in float: ~1 ulp, denormal results included; 0 below -103.97, inf above ln(FLT_MAX).
/// 2^n is applied in two halves so that no intermediate overflows.
inline float fast_expf(float x) {
  const bool nan = x != x;
  float xc = nan ? 0.0f : (x < -103.972f ? -103.972f : (x > 88.72283f ? 88.72283f : x));
  float fx = xc * 1.44269504088896341f + 0.5f;
  int32_t n = static_cast<int32_t>(fx);
  n -= fx < static_cast<float>(n);  // floor without a libm call
  const float fn = static_cast<float>(n);
  float r = xc - fn * 0.693359375f - fn * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  float y = p * r * r + r + 1.0f;
  const int32_t n1 = n >> 1, n2 = n - n1;
  const int32_t b1 = (n1 + 127) << 23, b2 = (n2 + 127) << 23;
  float s1, s2;
  std::memcpy(&s1, &b1, sizeof(s1));
  std::memcpy(&s2, &b2, sizeof(s2));
  y = y * s1 * s2;
  y = x > 88.72283f ? std::numeric_limits<float>::infinity() : (x < -103.972f ? 0.0f : y);
  return nan ? x : y;
}

/// tanh in float: an odd polynomial near 0 (no cancellation), (1 - e^-2|x|) / (1 + e^-2|x|) beyond.
inline float fast_tanhf(float x) {
  const float a = std::fabs(x);
  const float z = a * a;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = p * z * a + a;
  const float e = fast_expf(-2.0f * a);
  const float big = (1.0f - e) / (1.0f + e);
  return std::copysign(a < 0.625f ? small : big, x);
}

/// 1 / (1 + e^-x) in float.
inline float fast_sigmoidf(float x) { return 1.0f / (1.0f + fast_expf(-x)); }

/// The ops' scalar functions: the fast float versions on the host, the standard ones elsewhere.
template <typename T>
TH_HOST_DEVICE T exp_(T x) {
#if !defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) return fast_expf(x);
#endif
  return std::exp(x);
}

template <typename T>
TH_HOST_DEVICE T tanh_(T x) {
#if !defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) return fast_tanhf(x);
#endif
  return std::tanh(x);
}

template <typename T>
TH_HOST_DEVICE T sigmoid_(T x) {
#if !defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) return fast_sigmoidf(x);
#endif
  return T(1) / (T(1) + std::exp(-x));
}

}  // namespace th::math
