#pragma once
// The scan of one line (cumsum / cumprod), written once for the CPU and CUDA kernels: the line
// `line` of a contiguous [outer, n, inner] tensor, accumulated in the math/ accumulate type.
#include <cstdint>

#include "../Macros.h"
#include "Binary.h"
#include "Reduce.h"  // acc_t

namespace th::math {

/// The scan's identity (1 for cumprod, 0 for cumsum) and its step, in the accumulate type A.
template <typename A>
TH_HOST_DEVICE A scan_identity(bool prod) {
  return prod ? A(1) : A(0);
}
template <typename A>
TH_HOST_DEVICE A scan_step(A a, A b, bool prod) {
  return prod ? A(a * b) : A(a + b);
}

template <typename T>
TH_HOST_DEVICE void scan_line(const T* src, T* dst, int64_t line, int64_t n, int64_t inner, bool prod) {
  using acc = acc_t<T>;
  const int64_t o = line / inner, i = line % inner;
  acc a = scan_identity<acc>(prod);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t at = (o * n + k) * inner + i;
    a = scan_step(a, acc(src[at]), prod);
    dst[at] = T(a);
  }
}

}  // namespace th::math
