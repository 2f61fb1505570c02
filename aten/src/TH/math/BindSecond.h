#pragma once
// A binary functor with its second operand fixed, for the CPU and CUDA loops (cpu/Loops.h,
// THC/Loops.cuh) that run a binary op against a CPU scalar.
#include "../Macros.h"

namespace th::math {

/// f(a, b) with b fixed: a binary functor as a unary one, for kernels that read their second
/// operand once (a CPU scalar, see scalar_at_opmath in TensorIterator.h).
template <typename F, typename T>
struct BindSecond {
  F f;
  T b;
  TH_HOST_DEVICE auto operator()(T a) const { return f(a, b); }
};

}  // namespace th::math
