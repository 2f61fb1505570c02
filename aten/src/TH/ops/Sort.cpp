// sort / argsort / topk: a stable sort of each line along `dim` on the host (NaN sorts as the
// largest value, as in PyTorch); CUDA tensors make the round trip through host memory.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <vector>

#include "../Functions.h"

namespace th {

namespace {

template <typename T>
bool less_nan_last(T a, T b) {
  if constexpr (is_floating_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

}  // namespace

std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                bool descending) {
  (void)stable;  // always stable
  const int64_t nd = self.dim();
  const int64_t d = wrap_dim(dim, std::max<int64_t>(nd, 1));
  // [outer, n, inner] over a contiguous host copy
  Tensor in = contiguous(to(self, Device(), std::nullopt, false, false));
  Tensor values = empty_tensor(self.sizes(), self.dtype(), Device());
  Tensor indices = empty_tensor(self.sizes(), ScalarType::Long, Device());
  int64_t outer = 1, inner = 1, n = nd ? self.size(d) : 1;
  for (int64_t k = 0; k < d && k < nd; ++k) outer *= self.size(k);
  for (int64_t k = d + 1; k < nd; ++k) inner *= self.size(k);
  TH_DISPATCH_ALL_TYPES(self.dtype(), "sort", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(in.data_ptr());
    auto* val = reinterpret_cast<scalar_t*>(values.data_ptr());
    auto* idx = reinterpret_cast<int64_t*>(indices.data_ptr());
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const scalar_t* line = src + o * n * inner + i;
        std::iota(order.begin(), order.end(), int64_t(0));
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          const scalar_t x = line[a * inner], y = line[b * inner];
          return descending ? less_nan_last(y, x) : less_nan_last(x, y);
        });
        for (int64_t k = 0; k < n; ++k) {
          val[(o * n + k) * inner + i] = line[order[size_t(k)] * inner];
          idx[(o * n + k) * inner + i] = order[size_t(k)];
        }
      }
    }
  });
  if (!self.device().is_cpu()) {
    values = to(values, self.device(), std::nullopt, false, false);
    indices = to(indices, self.device(), std::nullopt, false, false);
  }
  return {values, indices};
}

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return sort(self, std::nullopt, dim, descending);
}

Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(sort(self, std::nullopt, dim, descending));
}

std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  (void)sorted;  // always sorted
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  const int64_t n = self.dim() ? self.size(d) : 1;
  TH_CHECK_T(IndexError, k >= 0 && k <= n, "selected index k out of range");
  auto [values, indices] = sort(self, std::nullopt, d, largest);
  if (self.dim() == 0) return {values, indices};
  return {contiguous(narrow(values, d, 0, k)), contiguous(narrow(indices, d, 0, k))};
}

}  // namespace th
