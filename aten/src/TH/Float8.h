#pragma once
// The 8-bit floating types of PyTorch (c10/util/Float8_*.h): float8_e4m3fn (4 exponent bits, 3 mantissa
// bits, no infinities, one NaN per sign, largest 448) and float8_e5m2 (binary16's exponent, 2 mantissa
// bits, IEEE infinities and NaNs). Storage types, as upstream has them: tensors of them are made, copied,
// indexed and converted to and from every other dtype; arithmetic converts to float32 first. Conversions
// round to nearest-even; a float32 past float8_e4m3fn's range saturates to +-448 (as upstream's `to`),
// past float8_e5m2's it becomes an infinity.
#include <cstdint>
#include <limits>
#include <type_traits>

#include "Half.h"

namespace th {
namespace detail {

/// float8_e4m3fn -> float32, exact.
TH_HOST_DEVICE inline float fp8e4m3fn_to_fp32(uint8_t v) {
  const uint32_t sign = uint32_t(v & 0x80) << 24, exp = (v >> 3) & 0xf, man = v & 0x7;
  float magnitude;
  if ((v & 0x7f) == 0x7f)
    magnitude = bits_float(0x7fc00000u);  // the NaN
  else if (exp == 0)
    magnitude = float(man) * bits_float(uint32_t(127 - 9) << 23);  // man * 2^-9
  else
    magnitude = bits_float(((exp + 127 - 7) << 23) | (man << 20));
  return bits_float(float_bits(magnitude) | sign);
}

/// float32 -> float8_e4m3fn: nearest-even, saturating at +-448; NaN stays NaN.
TH_HOST_DEVICE inline uint8_t fp32_to_fp8e4m3fn(float f) {
  const uint32_t all = float_bits(f), sign = (all >> 24) & 0x80;
  uint32_t u = all & 0x7fffffffu;
  if (u > 0x7f800000u) return uint8_t(sign | 0x7f);
  if (u >= 0x43e00000u) return uint8_t(sign | 0x7e);  // >= 448 (and inf): the largest
  if (u < (uint32_t(121) << 23)) {                    // below 2^-6: subnormal or zero; a float add rounds it
    constexpr uint32_t denorm = uint32_t(141) << 23;
    return uint8_t(sign | (float_bits(bits_float(u) + bits_float(denorm)) - denorm));
  }
  u += (uint32_t(7 - 127) << 23) + 0x7ffff + ((u >> 20) & 1);
  return uint8_t(sign | (u >> 20));
}

/// float8_e5m2 -> float32, exact (the upper byte of a binary16).
TH_HOST_DEVICE inline float fp8e5m2_to_fp32(uint8_t v) { return fp16_to_fp32(uint16_t(v) << 8); }

/// float32 -> float8_e5m2: nearest-even, overflow to infinity; NaN stays NaN.
TH_HOST_DEVICE inline uint8_t fp32_to_fp8e5m2(float f) {
  const uint32_t all = float_bits(f), sign = (all >> 24) & 0x80;
  uint32_t u = all & 0x7fffffffu;
  if (u >= (uint32_t(143) << 23)) return uint8_t(sign | (u > 0x7f800000u ? 0x7f : 0x7c));  // >= 65536
  if (u < (uint32_t(113) << 23)) {  // below 2^-14: subnormal or zero
    constexpr uint32_t denorm = uint32_t(134) << 23;
    return uint8_t(sign | (float_bits(bits_float(u) + bits_float(denorm)) - denorm));
  }
  u += (uint32_t(15 - 127) << 23) + 0xfffff + ((u >> 21) & 1);
  return uint8_t(sign | (u >> 21));
}

}  // namespace detail

/// Defines an 8-bit float type: implicit conversion from and to float.
#define TH_DEFINE_FLOAT8_TYPE(Name, to_bits, to_float)                    \
  struct alignas(1) Name {                                                \
    uint8_t x;                                                            \
    Name() = default;                                                     \
    constexpr TH_HOST_DEVICE Name(uint8_t bits, from_bits_t) : x(bits) {} \
    TH_HOST_DEVICE Name(float v) : x(detail::to_bits(v)) {}               \
    TH_HOST_DEVICE operator float() const { return detail::to_float(x); } \
  };                                                                      \
  static_assert(sizeof(Name) == 1 && std::is_trivially_copyable_v<Name>, #Name " is one byte");

/// torch.float8_e4m3fn.
TH_DEFINE_FLOAT8_TYPE(Float8_e4m3fn, fp32_to_fp8e4m3fn, fp8e4m3fn_to_fp32)
/// torch.float8_e5m2.
TH_DEFINE_FLOAT8_TYPE(Float8_e5m2, fp32_to_fp8e5m2, fp8e5m2_to_fp32)
#undef TH_DEFINE_FLOAT8_TYPE

template <>
struct opmath_type<Float8_e4m3fn> {
  using type = float;
};
template <>
struct opmath_type<Float8_e5m2> {
  using type = float;
};

/// Whether T is one of the 8-bit floats.
template <typename T>
inline constexpr bool is_float8_v = std::is_same_v<T, Float8_e4m3fn> || std::is_same_v<T, Float8_e5m2>;

}  // namespace th

namespace std {
// the limits torch.finfo reports (float8_e4m3fn has no infinity: its NaN stands in)
//                    name           bits     inf    digits min_exp max_exp min  max   lowest eps   denorm inf
//                    nan
TH_SMALL_FLOAT_LIMITS(Float8_e4m3fn, uint8_t, false, 4, -5, 9, 0x08, 0x7e, 0xfe, 0x20, 0x01, 0x7f, 0x7f)
TH_SMALL_FLOAT_LIMITS(Float8_e5m2, uint8_t, true, 3, -13, 16, 0x04, 0x7b, 0xfb, 0x34, 0x01, 0x7c, 0x7f)
}  // namespace std
