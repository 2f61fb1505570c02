// CPU kernel of the sort family: a stable comparison sort of each line (NaN the largest value),
// lines in parallel.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "../Parallel.h"
#include "../ops/Sort.h"

namespace th {
namespace {

/// a < b with NaN after every number (NaNs equal to each other, so a stable sort keeps their order).
template <typename T>
bool less_nan_last(T a, T b) {
  if constexpr (is_floating_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

void sort_kernel(const Tensor& in, const Tensor& values, const Tensor& indices, int64_t segments, int64_t n,
                 bool descending) {
  TH_DISPATCH_ALL_TYPES(in.dtype(), "sort_cpu", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(in.data_ptr());
    auto* val = reinterpret_cast<scalar_t*>(values.data_ptr());
    auto* idx = reinterpret_cast<int64_t*>(indices.data_ptr());
    parallel_for(segments, std::max<int64_t>(1, kGrainSize / n), [&](int64_t begin, int64_t end) {
      for (int64_t s = begin; s < end; ++s) {
        const scalar_t* line = src + s * n;
        int64_t* order = idx + s * n;
        std::iota(order, order + n, int64_t(0));
        if (descending)
          std::stable_sort(order, order + n,
                           [&](int64_t a, int64_t b) { return less_nan_last(line[b], line[a]); });
        else
          std::stable_sort(order, order + n,
                           [&](int64_t a, int64_t b) { return less_nan_last(line[a], line[b]); });
        for (int64_t k = 0; k < n; ++k) val[s * n + k] = line[order[k]];
      }
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(sort_stub, CPU, sort_kernel);

}  // namespace th
