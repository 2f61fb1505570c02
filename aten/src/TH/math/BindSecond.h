#pragma once
// How the CPU and CUDA loops that run a binary op against a CPU scalar (cpu/Loops.h, THC/Loops.cuh)
// apply its functor: with the second operand fixed (BindSecond), or to two tensors (on_tensors).
#include <cmath>
#include <type_traits>

#include "../Half.h"
#include "../Macros.h"

namespace th::math {

struct DivTrunc;  // math/Binary.h

/// f(a, b) with b fixed: a binary functor as a unary one, for kernels that read their second
/// operand once (a CPU scalar, see scalar_at_opmath in TensorIterator.h).
template <typename F, typename T>
struct BindSecond {
  F f;
  T b;
  TH_HOST_DEVICE auto operator()(T a) const { return f(a, b); }
};

/// Upstream's div_trunc of two 16-bit float tensors rounds the quotient to the storage type S before it
/// truncates (`std::trunc(a / b)` on its scalar_t, CPU and CUDA): 1 / bfloat16(0.1) is 9.99 in float32 but
/// 10 in bfloat16, so the quotient is 10. A divisor read once at opmath keeps DivTrunc (a CPU scalar; on
/// the CPU, one element broadcast too: cpu_kernel_with_scalars).
template <typename S>
struct DivTruncAt {
  template <typename T>
  TH_HOST_DEVICE T operator()(T a, T b) const {
    return std::trunc(static_cast<T>(static_cast<S>(a / b)));
  }
};

/// The functor the *_kernel_with_scalars loops apply to two tensor operands stored as S: f itself,
/// except DivTrunc of the 16-bit floats (DivTruncAt).
template <typename S, typename F>
TH_HOST_DEVICE auto on_tensors(const F& f) {
  if constexpr (std::is_same_v<F, DivTrunc> && is_floating_v<S> && !std::is_same_v<S, opmath_t<S>>) {
    return DivTruncAt<S>{};
  } else {
    return f;
  }
}

}  // namespace th::math
