// sort / argsort / topk: the sorted dim moved last and made contiguous, then one stable sort kernel
// per device over its lines (sort_stub); NaN sorts as the largest value, as in PyTorch.
#include "Sort.h"

#include <algorithm>
#include <tuple>

#include "../Functions.h"

namespace th {

TH_DEFINE_STUB(sort_fn, sort_stub);

namespace {
/// PyTorch's error for input of a `kind` ("complex", "bool") that `op` ("Sort", "topk") refuses.
void check_not(bool refused, const Tensor& self, const char* op, const char* kind) {
  TH_CHECK(!refused, op, " does not support ", kind, " dtypes on ", self.device().is_cpu() ? "CPU" : "CUDA");
}
}  // namespace

std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                bool descending) {
  (void)stable;  // always stable
  check_not(is_complex(self.dtype()), self, "Sort", "complex");
  const int64_t nd = self.dim();
  const int64_t d = wrap_dim(dim, std::max<int64_t>(nd, 1)), last = std::max<int64_t>(nd - 1, 0);
  // the lines along d, contiguous: [segments, n] (transpose is its own inverse)
  Tensor in = contiguous(nd ? transpose(self, d, last) : self);
  Tensor values = empty_tensor(in.sizes(), self.dtype(), self.device());
  Tensor indices = empty_tensor(in.sizes(), ScalarType::Long, self.device());
  const int64_t n = nd ? self.size(d) : 1;
  if (in.numel() > 0) sort_stub[self.device().type](in, values, indices, in.numel() / n, n, descending);
  if (d == last && self.is_contiguous()) return {values, indices};  // already laid out as self
  if (d != last) {
    values = transpose(values, d, last);
    indices = transpose(indices, d, last);
  }
  // the results are laid out as self is (upstream's: empty_like(self) for a dense self, else dense strides in
  // its dim order)
  auto laid_out = [&](const Tensor& t) {
    Tensor out = empty_like_tensor(self, self.sizes(), t.dtype(), t.device(), MemoryFormat::Preserve);
    if (out.strides() == t.strides()) return t;
    copy_(out, t);
    out.storage()->reset_version();
    return out;
  };
  return {laid_out(values), laid_out(indices)};
}

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return sort(self, std::nullopt, dim, descending);
}

Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(sort(self, std::nullopt, dim, descending));
}

Tensor argsort(const Tensor& self, bool stable, int64_t dim, bool descending) {
  return std::get<1>(sort(self, stable, dim, descending));
}

std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  (void)sorted;                                                       // always sorted
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));  // before the dtype, as upstream
  check_not(is_complex(self.dtype()), self, "topk", "complex");
  check_not(self.dtype() == ScalarType::Bool, self, "topk", "bool");
  const int64_t n = self.dim() ? self.size(d) : 1;
  TH_CHECK(k >= 0 && k <= n, "selected index k out of range");
  auto [values, indices] = sort(self, std::nullopt, d, largest);
  if (self.dim() == 0) return {values, indices};
  return {contiguous(narrow(values, d, 0, k)), contiguous(narrow(indices, d, 0, k))};
}

}  // namespace th
