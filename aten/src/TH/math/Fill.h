#pragma once
// Scalar math of the fill family (arange / linspace values), written once for the CPU and CUDA kernels.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "../Half.h"
#include "../Macros.h"

namespace th::math {

/// The type arange computes in (c10's CPU acc_type): int64 for the integral dtypes (exact past 2^53; the
/// cast to T wraps), float for the 16-bit floats, double for float and double.
template <typename T>
using arange_acc_t =
    std::conditional_t<is_floating_v<T>, std::conditional_t<std::is_same_v<T, opmath_t<T>>, double, float>,
                       int64_t>;

/// Element i of arange: start + i * step in arange_acc_t<T>, cast to T (start and step already converted
/// to that type, truncated for the integral dtypes as upstream's Scalar::to).
template <typename T>
TH_HOST_DEVICE T arange_value(int64_t i, arange_acc_t<T> start, arange_acc_t<T> step) {
  if constexpr (std::is_integral_v<arange_acc_t<T>>) {  // two's complement wrap, defined (int64 would
                                                        // overflow)
    return static_cast<T>(static_cast<int64_t>(uint64_t(start) + uint64_t(step) * uint64_t(i)));
  } else {
    return static_cast<T>(start + step * static_cast<arange_acc_t<T>>(i));
  }
}

/// Element i of PyTorch's linspace(start, end, n), bit for bit: start and end are cast to T first, the
/// step (end - start) / (n - 1) is computed in T (double for integers), and element i is counted from the
/// nearer end (so both ends are exact): one fused multiply-add for float and double; for the 16-bit
/// floats every operation rounds to T, as c10::Half's operators do (the step, i, the product, the sum).
template <typename T>
TH_HOST_DEVICE T linspace_value(int64_t i, int64_t n, double start, double end) {
  if constexpr (!std::is_same_v<T, opmath_t<T>>) {
    auto r = [](float v) { return float(T(v)); };  // one rounding to T
    const float s = float(static_cast<T>(start)), e = float(static_cast<T>(end));
    if (n == 1) return T(s);
    const float d = r(r(e - s) / r(float(n - 1)));
    return T(i < n / 2 ? s + r(d * r(float(i))) : e - r(d * r(float(n - 1 - i))));
  } else {  // float, double and the integers
    using step_t = std::conditional_t<is_floating_v<T>, T, double>;
    auto as_t = [](double v) {
      if constexpr (is_floating_v<T>) {
        return step_t(static_cast<T>(v));
      } else {
        return step_t(static_cast<T>(static_cast<int64_t>(v)));  // truncated (the ends are checked to fit)
      }
    };
    const step_t s = as_t(start), e = as_t(end);
    if (n == 1) return static_cast<T>(s);
    const step_t d = (e - s) / step_t(n - 1);
    return static_cast<T>(i < n / 2 ? std::fma(d, step_t(i), s) : std::fma(-d, step_t(n - 1 - i), e));
  }
}

}  // namespace th::math
