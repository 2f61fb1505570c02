// var / std: composites of mean and sum.
#include <cmath>

#include "../Functions.h"

namespace th {

Tensor complex_abs(const Tensor& self);  // ops/ComplexParts.cpp

namespace {
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
  TH_CHECK(is_floating_point(self.dtype()) || is_complex(self.dtype()),
           "std and var only support floating point and complex dtypes");
  const Tensor x = is_reduced_floating_point(self.dtype()) ? to_dtype(self, ScalarType::Float) : self;
  const double c = correction ? correction->to<double>() : 1.0;
  const int64_t n = reduced_count(x, dim);
  Tensor centered = sub(x, mean(x, dim, true, std::nullopt), Scalar(int64_t(1)));
  if (is_complex(centered.dtype())) centered = complex_abs(centered);  // |x - mean|^2: a real variance
  Tensor sq = sum(mul(centered, centered), dim, keepdim, std::nullopt);
  // PyTorch: dividing by max(0, N - correction) (inf or nan when that is 0)
  return div(sq, wrap_number(Scalar(std::max(0.0, double(n) - c))), std::nullopt);
}
}  // namespace

Tensor var(const Tensor& self, const std::optional<IntList>& dim, const std::optional<Scalar>& correction,
           bool keepdim) {
  return to_dtype(var_computed(self, dim, correction, keepdim), to_real_type(self.dtype()));
}

Tensor std(const Tensor& self, const std::optional<IntList>& dim, const std::optional<Scalar>& correction,
           bool keepdim) {
  return to_dtype(sqrt(var_computed(self, dim, correction, keepdim)), to_real_type(self.dtype()));
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
