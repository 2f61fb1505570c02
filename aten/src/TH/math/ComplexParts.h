#pragma once
// Scalar math of the complex-parts family, written once for the CPU and CUDA kernels.
#include "../Complex.h"
#include "../Macros.h"

namespace th::math {

/// |z| (as a real number).
struct ComplexAbs {
  template <typename T>
  TH_HOST_DEVICE T operator()(complex<T> z) const {
    return abs(z);
  }
};
/// The argument of z in (-pi, pi].
struct ComplexAngle {
  template <typename T>
  TH_HOST_DEVICE T operator()(complex<T> z) const {
    return arg(z);
  }
};
/// The complex conjugate.
struct ComplexConj {
  template <typename T>
  TH_HOST_DEVICE complex<T> operator()(complex<T> z) const {
    return conj(z);
  }
};

/// Calls f(Functor{}) for `part` (the one switch both backends share).
template <typename Part, typename F>
void with_complex_part(Part part, F&& f) {
  switch (part) {
    case Part::Abs: return f(ComplexAbs{});
    case Part::Angle: return f(ComplexAngle{});
    case Part::Conj: return f(ComplexConj{});
  }
}

}  // namespace th::math
