// cumsum / cumprod: the input made contiguous in the result dtype, then one scan kernel per device
// along the dim (scan_stub).
#include "Scan.h"
#include "../Functions.h"

namespace th {

TH_DEFINE_STUB(scan_fn, scan_stub);

namespace {
Tensor scan(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, bool prod) {
  const int64_t d = wrap_dim(dim, self.dim());
  ScalarType t = dtype.value_or(is_integral(self.dtype(), true) ? ScalarType::Long : self.dtype());
  Tensor in = contiguous(to_dtype(self, t));
  Tensor out = empty_tensor(self.sizes(), t, self.device());
  if (self.numel() == 0) return out;
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= self.size(k);
  for (int64_t k = d + 1; k < self.dim(); ++k) inner *= self.size(k);
  const int64_t n = self.dim() ? self.size(d) : 1;
  scan_stub[self.device().type](in, out, outer, n, inner, prod);
  return out;
}

}  // namespace

Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan(self, dim, dtype, false);
}

Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan(self, dim, dtype, true);
}

}  // namespace th
