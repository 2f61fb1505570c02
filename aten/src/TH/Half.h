#pragma once
// The 16-bit floating types, float16 (IEEE binary16) and bfloat16 (the upper half of a float32).
// They are storage types: arithmetic converts to float32 (their `opmath_t`), computes there and
// rounds back to nearest-even when stored, on the CPU and in CUDA kernels alike.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "Macros.h"

namespace th {

namespace detail {

TH_HOST_DEVICE inline uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
TH_HOST_DEVICE inline float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/// All ones where `c` holds, else zero: the conversions below select with masks instead of branches,
/// so that loops over 16-bit values vectorize (a branch per element also mispredicts on mixed data).
TH_HOST_DEVICE inline uint32_t mask_if(bool c) { return 0u - uint32_t(c); }

/// binary16 -> float32, exact (subnormals renormalized through one float subtraction).
TH_HOST_DEVICE inline float fp16_to_fp32(uint16_t h) {
  constexpr uint32_t shifted_exp = 0x7c00u << 13;
  const uint32_t body = uint32_t(h & 0x7fff) << 13, exp = shifted_exp & body;
  const uint32_t normal = body + (uint32_t(127 - 15) << 23);
  const uint32_t inf_nan = normal + (uint32_t(128 - 16) << 23);
  const uint32_t subnormal = float_bits(bits_float(normal + (1u << 23)) - bits_float(113u << 23));
  const uint32_t special = mask_if(exp == shifted_exp), tiny = mask_if(exp == 0);
  const uint32_t o = (special & inf_nan) | (tiny & subnormal) | (~(special | tiny) & normal);
  return bits_float(o | (uint32_t(h & 0x8000) << 16));
}

/// float32 -> binary16, rounding to nearest-even; overflow gives inf, NaN stays a (quiet) NaN.
TH_HOST_DEVICE inline uint16_t fp32_to_fp16(float f) {
  constexpr uint32_t magic = uint32_t((127 - 15) + (23 - 10) + 1) << 23;
  const uint32_t all = float_bits(f), sign = all & 0x80000000u, u = all ^ sign;
  const uint32_t inf_nan = 0x7c00u | (mask_if(u > 0x7f800000u) & 0x0200u);  // >= 65536: inf, or NaN
  // the result is subnormal or zero: let a float add round it
  const uint32_t subnormal = float_bits(bits_float(u) + bits_float(magic)) - magic;
  const uint32_t normal = (u + (uint32_t(15 - 127) << 23) + 0xfff + ((u >> 13) & 1)) >> 13;
  const uint32_t big = mask_if(u >= (uint32_t(127 + 16) << 23)), tiny = mask_if(u < (113u << 23));
  const uint32_t o = (big & inf_nan) | (tiny & subnormal) | (~(big | tiny) & normal);
  return static_cast<uint16_t>(o | (sign >> 16));
}

/// float32 -> bfloat16, rounding to nearest-even; NaN stays a quiet NaN of the same sign.
TH_HOST_DEVICE inline uint16_t fp32_to_bf16(float f) {
  const uint32_t u = float_bits(f), nan = mask_if((u & 0x7fffffffu) > 0x7f800000u);
  const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1)) >> 16;
  return static_cast<uint16_t>((nan & ((u >> 16) | 0x0040u)) | (~nan & rounded));
}

TH_HOST_DEVICE inline float bf16_to_fp32(uint16_t b) { return bits_float(uint32_t(b) << 16); }

}  // namespace detail

/// Tag for constructing a 16-bit float from its bit pattern.
struct from_bits_t {};
inline constexpr from_bits_t from_bits{};

/// Defines a 16-bit float type: implicit conversion from and to float, compound assignment in float.
#define TH_DEFINE_FLOAT16_TYPE(Name, to_bits, to_float)                                 \
  struct alignas(2) Name {                                                              \
    uint16_t x;                                                                         \
    Name() = default;                                                                   \
    constexpr TH_HOST_DEVICE Name(uint16_t bits, from_bits_t) : x(bits) {}              \
    TH_HOST_DEVICE Name(float v) : x(detail::to_bits(v)) {}                             \
    TH_HOST_DEVICE operator float() const { return detail::to_float(x); }               \
    TH_HOST_DEVICE Name& operator+=(float v) { return *this = Name(float(*this) + v); } \
    TH_HOST_DEVICE Name& operator-=(float v) { return *this = Name(float(*this) - v); } \
    TH_HOST_DEVICE Name& operator*=(float v) { return *this = Name(float(*this) * v); } \
    TH_HOST_DEVICE Name& operator/=(float v) { return *this = Name(float(*this) / v); } \
  };                                                                                    \
  static_assert(sizeof(Name) == 2 && std::is_trivially_copyable_v<Name>, #Name " is two bytes");

/// IEEE binary16 (torch.float16 / torch.half): 5 exponent bits, 10 mantissa bits.
TH_DEFINE_FLOAT16_TYPE(Half, fp32_to_fp16, fp16_to_fp32)
/// bfloat16 (torch.bfloat16): float32's 8 exponent bits, 7 mantissa bits.
TH_DEFINE_FLOAT16_TYPE(BFloat16, fp32_to_bf16, bf16_to_fp32)
#undef TH_DEFINE_FLOAT16_TYPE

/// The type arithmetic on T happens in (PyTorch's at::opmath_type): float for the 16-bit floats.
template <typename T>
struct opmath_type {
  using type = T;
};
template <>
struct opmath_type<Half> {
  using type = float;
};
template <>
struct opmath_type<BFloat16> {
  using type = float;
};
template <typename T>
using opmath_t = typename opmath_type<T>::type;

/// std::is_floating_point, true for the 16-bit floats too.
template <typename T>
inline constexpr bool is_floating_v =
    std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

/// The type a kernel computing in `Op` stores to a T output: T itself when Op is T's opmath type.
template <typename Op, typename T>
using storage_t = std::conditional_t<std::is_same_v<Op, opmath_t<T>>, T, Op>;

/// The representable T next to `from` in the direction of `to` (std::nextafter for every floating type).
template <typename T>
TH_HOST_DEVICE T next_toward(T from, T to) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::nextafter(from, to);
  } else {
    const float f = from, t = to;
    if (f != f || t != t) return T(f + t);
    if (f == t) return to;
    if (f == 0) return T(uint16_t(t > 0 ? 0x0001 : 0x8001), from_bits);
    const bool away = (t > f) == (f > 0);  // away from zero: the magnitude bits grow by one
    return T(uint16_t(away ? from.x + 1 : from.x - 1), from_bits);
  }
}

}  // namespace th

/// std::numeric_limits of a small float type Name stored as `Bits` (uint16_t, uint8_t): the values
/// torch.finfo reports, given as bit patterns (Half.h and Float8.h; a type without infinities gives its NaN
/// for one).
#define TH_SMALL_FLOAT_LIMITS(Name, Bits, inf, digits_, min_exp_, max_exp_, min_, max_, lowest_, eps_,   \
                              denorm_, inf_, nan_)                                                       \
  template <>                                                                                            \
  class numeric_limits<th::Name> {                                                                       \
    using T = th::Name;                                                                                  \
                                                                                                         \
   public:                                                                                               \
    static constexpr bool is_specialized = true, is_signed = true, is_integer = false, is_exact = false, \
                          has_infinity = inf, has_quiet_NaN = true, is_iec559 = false;                   \
    static constexpr int digits = digits_, min_exponent = min_exp_, max_exponent = max_exp_;             \
    static constexpr TH_HOST_DEVICE T min() { return T(Bits(min_), th::from_bits); }                     \
    static constexpr TH_HOST_DEVICE T max() { return T(Bits(max_), th::from_bits); }                     \
    static constexpr TH_HOST_DEVICE T lowest() { return T(Bits(lowest_), th::from_bits); }               \
    static constexpr TH_HOST_DEVICE T epsilon() { return T(Bits(eps_), th::from_bits); }                 \
    static constexpr TH_HOST_DEVICE T denorm_min() { return T(Bits(denorm_), th::from_bits); }           \
    static constexpr TH_HOST_DEVICE T infinity() { return T(Bits(inf_), th::from_bits); }                \
    static constexpr TH_HOST_DEVICE T quiet_NaN() { return T(Bits(nan_), th::from_bits); }               \
  };

namespace std {
//                    name      bits      inf   digits min_exp max_exp min    max     lowest  eps     denorm
//                    inf     nan
TH_SMALL_FLOAT_LIMITS(Half, uint16_t, true, 11, -13, 16, 0x0400, 0x7bff, 0xfbff, 0x1400, 0x0001, 0x7c00,
                      0x7e00)
TH_SMALL_FLOAT_LIMITS(BFloat16, uint16_t, true, 8, -125, 128, 0x0080, 0x7f7f, 0xff7f, 0x3c00, 0x0001, 0x7f80,
                      0x7fc0)
}  // namespace std
