#pragma once
// The scan of one line (cumsum / cumprod), written once for the CPU and CUDA kernels: the line
// `line` of a contiguous [outer, n, inner] tensor, accumulated in the math/ accumulate type.
#include <cstdint>

#include "../Macros.h"
#include "Binary.h"

namespace th::math {

template <typename T>
TH_HOST_DEVICE void scan_line(const T* src, T* dst, int64_t line, int64_t n, int64_t inner, bool prod) {
  using acc = acc_t<T>;
  const int64_t o = line / inner, i = line % inner;
  acc a = prod ? acc(1) : acc(0);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t at = (o * n + k) * inner + i;
    a = prod ? acc(a * acc(src[at])) : acc(a + acc(src[at]));
    dst[at] = T(a);
  }
}

}  // namespace th::math
