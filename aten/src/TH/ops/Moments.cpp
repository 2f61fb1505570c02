// cumsum / cumprod (a scan kernel per device) and var / std (composites of mean and sum).
#include <cmath>

#include "../Functions.h"
#include "../Kernels.h"

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

/// The number of elements each output of a reduction over `dim` averages.
int64_t reduced_count(const Tensor& self, const std::optional<IntList>& dim) {
  if (!dim || dim->empty()) return self.numel();
  int64_t n = 1;
  for (int64_t k : *dim) n *= self.size(wrap_dim(k, self.dim()));
  return n;
}

/// var in the dtype it is computed in: float32 for float16/bfloat16 input (its callers round once).
Tensor var_computed(const Tensor& self, const std::optional<IntList>& dim,
                    const std::optional<Scalar>& correction, bool keepdim) {
  TH_CHECK(is_floating_point(self.dtype()), "std and var only support floating point and complex dtypes");
  const Tensor x = is_reduced_floating_point(self.dtype()) ? to_dtype(self, ScalarType::Float) : self;
  const double c = correction ? correction->to<double>() : 1.0;
  const int64_t n = reduced_count(x, dim);
  Tensor centered = sub(x, mean(x, dim, true, std::nullopt), Scalar(int64_t(1)));
  Tensor sq = sum(mul(centered, centered), dim, keepdim, std::nullopt);
  // PyTorch: dividing by max(0, N - correction) (inf or nan when that is 0)
  return div(sq, wrap_number(Scalar(std::max(0.0, double(n) - c))), std::nullopt);
}
}  // namespace

Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan(self, dim, dtype, false);
}

Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan(self, dim, dtype, true);
}

Tensor var(const Tensor& self, const std::optional<IntList>& dim, const std::optional<Scalar>& correction,
           bool keepdim) {
  return to_dtype(var_computed(self, dim, correction, keepdim), self.dtype());
}

Tensor std(const Tensor& self, const std::optional<IntList>& dim, const std::optional<Scalar>& correction,
           bool keepdim) {
  return to_dtype(sqrt(var_computed(self, dim, correction, keepdim)), self.dtype());
}

}  // namespace th

namespace th {

// the `unbiased=` forms (declared by the generated bindings from their schemas)
Tensor var(const Tensor& self, bool unbiased) {
  return var(self, std::nullopt, Scalar(int64_t(unbiased ? 1 : 0)), false);
}
Tensor var(const Tensor& self, const std::optional<IntList>& dim, bool unbiased, bool keepdim) {
  return var(self, dim, Scalar(int64_t(unbiased ? 1 : 0)), keepdim);
}
Tensor std(const Tensor& self, bool unbiased) { return sqrt(var(self, unbiased)); }
Tensor std(const Tensor& self, const std::optional<IntList>& dim, bool unbiased, bool keepdim) {
  return sqrt(var(self, dim, unbiased, keepdim));
}

}  // namespace th
