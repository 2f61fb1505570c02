#pragma once
// The dtypes each math/ functor has kernels for, decided once for both devices: the CPU and CUDA
// unary and binary kernels run their loop through dispatch_functor, which binds scalar_t to every
// dtype the functor is defined on and raises PyTorch's "not implemented for" error for the rest.
#include "../ScalarType.h"
#include "Binary.h"
#include "Unary.h"

namespace th::math {

/// A type carried as a value (the loop bodies take one and read its ::type).
template <typename T>
struct type_tag {
  using type = T;
};

/// body(type_tag<scalar_t>{}) for `t`, over the dtypes functor F is defined on: the floating types
/// (kUnaryFloating, kFloatingOnly), the integral ones (kIntegralOnly) or all, and the complex types
/// as well where kUnaryComplex / kBinaryComplex say so.
template <typename F, typename Body>
void dispatch_functor(ScalarType t, const char* name, Body&& body) {
  constexpr bool floating = kUnaryFloating<F> || kFloatingOnly<F>;
  constexpr bool with_complex = kUnaryComplex<F> || kBinaryComplex<F>;
  if constexpr (floating && with_complex) {
    TH_DISPATCH_FLOATING_AND_COMPLEX_TYPES(t, name, [&] { body(type_tag<scalar_t>{}); });
  } else if constexpr (floating) {
    TH_DISPATCH_FLOATING_TYPES(t, name, [&] { body(type_tag<scalar_t>{}); });
  } else if constexpr (kIntegralOnly<F>) {
    TH_DISPATCH_INTEGRAL_TYPES(t, name, [&] { body(type_tag<scalar_t>{}); });
  } else if constexpr (with_complex) {
    TH_DISPATCH_ALL_TYPES_AND_COMPLEX(t, name, [&] { body(type_tag<scalar_t>{}); });
  } else {
    TH_DISPATCH_ALL_TYPES(t, name, [&] { body(type_tag<scalar_t>{}); });
  }
}

}  // namespace th::math
