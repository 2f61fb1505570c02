#pragma once
// th::complex<T>: the element type of complex64 (T = float) and complex128 (T = double), for the CPU
// and CUDA kernels alike (PyTorch's c10::complex). Two T's, real then imaginary, aligned to their
// size (as C's and CUDA's complex types, so NumPy and DLPack share the memory). The arithmetic is
// written here once; the transcendental functions call the standard library's complex functions on
// the host and libcu++'s (cuda::std) in device code, which compute the same branch cuts.
#include <cmath>
#include <complex>
#include <type_traits>

#include "Float8.h"
#include "Half.h"
#include "Macros.h"

#ifdef __CUDACC__
#include <cuda/std/complex>
#endif

namespace th {

template <typename T>
struct alignas(2 * sizeof(T)) complex {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "complex<float> or complex<double>");
  T re, im;

  complex() = default;
  constexpr TH_HOST_DEVICE complex(T r, T i = T(0)) : re(r), im(i) {}
  /// From a complex of the other precision.
  template <typename U>
  constexpr TH_HOST_DEVICE explicit complex(const complex<U>& c) : re(T(c.re)), im(T(c.im)) {}
  /// From a real number of any type (an integer, a 16-bit float, bool): imaginary part 0.
  template <typename U, typename = std::enable_if_t<std::is_arithmetic_v<U> || std::is_same_v<U, Half> ||
                                                    std::is_same_v<U, BFloat16>>>
  constexpr TH_HOST_DEVICE explicit complex(U r) : re(T(float_of(r))), im(T(0)) {}

  /// Nonzero when either part is (c10's, NumPy's truth value of a complex number).
  constexpr TH_HOST_DEVICE explicit operator bool() const { return re != T(0) || im != T(0); }

  TH_HOST_DEVICE complex& operator+=(complex o) { return *this = *this + o; }
  TH_HOST_DEVICE complex& operator-=(complex o) { return *this = *this - o; }
  TH_HOST_DEVICE complex& operator*=(complex o) { return *this = *this * o; }
  TH_HOST_DEVICE complex& operator/=(complex o) { return *this = *this / o; }

  friend constexpr TH_HOST_DEVICE complex operator+(complex a) { return a; }
  friend constexpr TH_HOST_DEVICE complex operator-(complex a) { return {-a.re, -a.im}; }
  friend constexpr TH_HOST_DEVICE complex operator+(complex a, complex b) {
    return {a.re + b.re, a.im + b.im};
  }
  friend constexpr TH_HOST_DEVICE complex operator-(complex a, complex b) {
    return {a.re - b.re, a.im - b.im};
  }
  friend constexpr TH_HOST_DEVICE complex operator*(complex a, complex b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  /// Smith's algorithm: scaled by the larger part of b, so |b| near the overflow threshold still divides.
  friend TH_HOST_DEVICE complex operator/(complex a, complex b) {
    const T abs_c = std::abs(b.re), abs_d = std::abs(b.im);
    if (abs_c >= abs_d) {
      if (abs_c == T(0) && abs_d == T(0)) return {a.re / abs_c, a.im / abs_d};  // inf/nan, as C's division
      const T rat = b.im / b.re, scl = T(1) / (b.re + b.im * rat);
      return {(a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl};
    }
    const T rat = b.re / b.im, scl = T(1) / (b.im + b.re * rat);
    return {(a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl};
  }
  friend constexpr TH_HOST_DEVICE bool operator==(complex a, complex b) {
    return a.re == b.re && a.im == b.im;
  }
  friend constexpr TH_HOST_DEVICE bool operator!=(complex a, complex b) { return !(a == b); }

 private:
  template <typename U>
  static constexpr TH_HOST_DEVICE auto float_of(U v) {
    if constexpr (std::is_same_v<U, Half> || std::is_same_v<U, BFloat16>) {
      return float(v);
    } else {
      return v;
    }
  }
};

/// Whether T is a th::complex (is_complex_v); th::is_complex(ScalarType) asks it of a dtype.
template <typename T>
struct is_complex_type : std::false_type {};
template <typename T>
struct is_complex_type<complex<T>> : std::true_type {};
template <typename T>
inline constexpr bool is_complex_v = is_complex_type<T>::value;

/// The real type of T's values: T itself, or the part type of a complex.
template <typename T>
struct real_type {
  using type = T;
};
template <typename T>
struct real_type<complex<T>> {
  using type = T;
};
template <typename T>
using real_t = typename real_type<T>::type;

/// The value of `v` as a D, the conversion copy_ does: a complex to a real type keeps the real part
/// (to bool: whether it is nonzero), a real number becomes a complex with imaginary part 0; a floating
/// value becomes an unsigned integer through int64 (c10's: -3.7 is 2^32 - 3 as a uint32), except a
/// uint64 past int64's range, which it holds (1e19 is 10^19, not 2^63).
template <typename D, typename S>
TH_HOST_DEVICE D convert(S v) {
  if constexpr (is_complex_v<S> && !is_complex_v<D>) {
    if constexpr (std::is_same_v<D, bool>) {
      return bool(v);
    } else {
      return convert<D>(v.re);
    }
  } else if constexpr (std::is_unsigned_v<D> && !std::is_same_v<D, bool> &&
                       (is_floating_v<S> || is_float8_v<S>)) {
    const auto f = static_cast<opmath_t<S>>(v);
    if constexpr (sizeof(D) == 8) {
      if (f >= opmath_t<S>(9223372036854775808.0)) return static_cast<D>(f);
    }
    return static_cast<D>(static_cast<int64_t>(f));
  } else if constexpr (is_float8_v<D> && !std::is_same_v<S, float>) {
    return D(static_cast<float>(static_cast<opmath_t<S>>(v)));
  } else {
    return static_cast<D>(v);
  }
}

namespace detail {
#ifdef __CUDACC__
template <typename T>
TH_HOST_DEVICE ::cuda::std::complex<T> to_std(complex<T> z) {
  return {z.re, z.im};
}
template <typename T>
TH_HOST_DEVICE complex<T> from_std(::cuda::std::complex<T> z) {
  return {z.real(), z.imag()};
}
namespace stdc = ::cuda::std;
#else
template <typename T>
std::complex<T> to_std(complex<T> z) {
  return {z.re, z.im};
}
template <typename T>
complex<T> from_std(std::complex<T> z) {
  return {z.real(), z.imag()};
}
namespace stdc = ::std;
#endif
}  // namespace detail

// The complex functions, found by argument-dependent lookup from the functors of math/ (which call
// exp(x) after `using std::exp`, so one expression serves real and complex x).
#define TH_COMPLEX_STD_FN(fn)                                     \
  template <typename T>                                           \
  TH_HOST_DEVICE complex<T> fn(complex<T> z) {                    \
    return detail::from_std(detail::stdc::fn(detail::to_std(z))); \
  }
TH_COMPLEX_STD_FN(exp)
TH_COMPLEX_STD_FN(log)
TH_COMPLEX_STD_FN(log10)
TH_COMPLEX_STD_FN(sqrt)
TH_COMPLEX_STD_FN(sin)
TH_COMPLEX_STD_FN(cos)
TH_COMPLEX_STD_FN(tan)
TH_COMPLEX_STD_FN(asin)
TH_COMPLEX_STD_FN(acos)
TH_COMPLEX_STD_FN(atan)
TH_COMPLEX_STD_FN(sinh)
TH_COMPLEX_STD_FN(cosh)
TH_COMPLEX_STD_FN(tanh)
TH_COMPLEX_STD_FN(asinh)
TH_COMPLEX_STD_FN(acosh)
TH_COMPLEX_STD_FN(atanh)
#undef TH_COMPLEX_STD_FN

/// exp(z) - 1, accurate near 0: (expm1(x) cos y - 2 sin^2(y / 2)) + i e^x sin y.
template <typename T>
TH_HOST_DEVICE complex<T> expm1(complex<T> z) {
  using std::cos, std::exp, std::expm1, std::sin;
  const T s = sin(z.im / T(2));
  return {expm1(z.re) * cos(z.im) - T(2) * s * s, exp(z.re) * sin(z.im)};
}
/// log(1 + z), accurate near 0: log|1 + z| as log1p(x (2 + x) + y^2) / 2, and arg(1 + z).
template <typename T>
TH_HOST_DEVICE complex<T> log1p(complex<T> z) {
  using std::atan2, std::log1p;
  return {log1p(z.re * (T(2) + z.re) + z.im * z.im) / T(2), atan2(z.im, T(1) + z.re)};
}
/// 2 ** z = exp(z log 2).
template <typename T>
TH_HOST_DEVICE complex<T> exp2(complex<T> z) {
  constexpr T kLn2 = T(0.693147180559945309417232121458176568);
  return exp(complex<T>(z.re * kLn2, z.im * kLn2));
}
/// log2 z = log z / log 2 (the standard library has no complex log2).
template <typename T>
TH_HOST_DEVICE complex<T> log2(complex<T> z) {
  const complex<T> l = log(z);
  constexpr T kLn2 = T(0.693147180559945309417232121458176568);
  return {l.re / kLn2, l.im / kLn2};
}
/// z ** w (the principal value, exp(w log z)); z ** 0 is 1 (0 ** 0 too), 0 ** w is 0 for real w > 0.
template <typename T>
TH_HOST_DEVICE complex<T> pow(complex<T> z, complex<T> w) {
  if (w.re == T(0) && w.im == T(0)) return {T(1), T(0)};
  if (z.re == T(0) && z.im == T(0) && w.im == T(0) && w.re > T(0)) return {T(0), T(0)};
  return detail::from_std(detail::stdc::pow(detail::to_std(z), detail::to_std(w)));
}
/// |z| without overflow in the squares.
template <typename T>
TH_HOST_DEVICE T abs(complex<T> z) {
  using std::hypot;
  return hypot(z.re, z.im);
}
/// The argument of z in (-pi, pi].
template <typename T>
TH_HOST_DEVICE T arg(complex<T> z) {
  using std::atan2;
  return atan2(z.im, z.re);
}
template <typename T>
constexpr TH_HOST_DEVICE complex<T> conj(complex<T> z) {
  return {z.re, -z.im};
}

}  // namespace th
