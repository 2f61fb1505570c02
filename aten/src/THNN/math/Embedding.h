#pragma once
// Scalar math of embedding_bag, written once for the CPU and CUDA kernels: bag b sums, averages or maxes the
// weight rows at indices[start_b, end_b), the rows at padding_idx left out.
#include <cstdint>

#include <TH/Half.h>
#include <TH/Macros.h>

namespace th::math {

enum class BagMode { Sum = 0, Mean = 1, Max = 2 };

/// Column d of bag b: out[b, d], and for Max the weight row it came from (max_index[b, d], -1 for an empty
/// bag). psw: the per-sample weights (Sum only) or nullptr. Returns the bag's size (its rows that are not
/// padding).
template <typename T>
TH_HOST_DEVICE int64_t bag_column(const T* weight, const int64_t* indices, const T* psw, int64_t start,
                                  int64_t end, int64_t D, int64_t d, BagMode mode, int64_t padding_idx,
                                  T& out, int64_t* max_index) {
  using A = opmath_t<T>;
  A acc = 0;
  int64_t count = 0, best = -1;
  for (int64_t i = start; i < end; ++i) {
    const int64_t row = indices[i];
    if (row == padding_idx) continue;
    const A v = A(weight[row * D + d]) * (psw ? A(psw[i]) : A(1));
    if (mode == BagMode::Max) {
      if (best < 0 || v > acc || v != v) acc = v, best = row;
    } else {
      acc += v;
    }
    ++count;
  }
  if (mode == BagMode::Mean && count > 0) acc /= A(count);
  out = T(acc);
  if (max_index) *max_index = best;
  return count;
}

}  // namespace th::math
