// var / std: composites of mean and sum.
#include <cmath>

#include "../Functions.h"
#include "../Warning.h"

namespace th {

Tensor complex_abs(const Tensor& self);  // ops/ComplexParts.cpp

namespace {
/// The number of elements each output of a reduction over `dim` averages.
int64_t reduced_count(const Tensor& self, const std::optional<IntList>& dim) {
  if (!dim || dim->empty()) return self.numel();
  int64_t n = 1;
  for (int64_t k : *dim) {
    const int64_t d = wrap_dim(k, self.dim());  // a 0-dim tensor takes dim 0 (or -1): one element
    n *= self.dim() ? self.size(d) : 1;
  }
  return n;
}

/// var in the dtype it is computed in (wider for float16/bfloat16 input: its callers round once).
Tensor var_computed(const char* name, const Tensor& self, const std::optional<IntList>& dim,
                    const std::optional<Scalar>& correction, bool keepdim) {
  TH_CHECK(is_floating_point(self.dtype()) || is_complex(self.dtype()),
           "std and var only support floating point and complex dtypes");
  // float16/bfloat16 compute in float32 on CUDA and in float64 on the CPU (upstream's CPU kernel accumulates
  // in double: a bfloat16 column near its largest value has a std in range, whose square float32 cannot hold)
  const ScalarType wide = self.device().type == DeviceType::CPU ? ScalarType::Double : ScalarType::Float;
  const Tensor x = is_reduced_floating_point(self.dtype()) ? to_dtype(self, wide) : self;
  const double c = correction ? correction->to<double>() : 1.0;
  const int64_t n = reduced_count(x, dim);
  if (double(n) - c <= 0)
    TH_WARN(name,
            "(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor ",
            "(input numel divided by output numel).");
  Tensor centered = sub(x, mean(x, dim, true, std::nullopt), Scalar(int64_t(1)));
  if (is_complex(centered.dtype())) centered = complex_abs(centered);  // |x - mean|^2: a real variance
  Tensor sq = sum(mul(centered, centered), dim, keepdim, std::nullopt);
  // PyTorch: dividing by max(0, N - correction) (inf or nan when that is 0)
  return div(sq, wrap_number(Scalar(std::max(0.0, double(n) - c))), std::nullopt);
}
}  // namespace

Tensor var(const Tensor& self, const std::optional<IntList>& dim, const std::optional<Scalar>& correction,
           bool keepdim) {
  return to_dtype(var_computed("var", self, dim, correction, keepdim), to_real_type(self.dtype()));
}

Tensor std(const Tensor& self, const std::optional<IntList>& dim, const std::optional<Scalar>& correction,
           bool keepdim) {
  return to_dtype(sqrt(var_computed("std", self, dim, correction, keepdim)), to_real_type(self.dtype()));
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
// (the square root is taken before the 16-bit floats round: a variance past float16's range has a std in it)
Tensor std(const Tensor& self, bool unbiased) {
  return std(self, std::nullopt, Scalar(int64_t(unbiased ? 1 : 0)), false);
}
Tensor std(const Tensor& self, const std::optional<IntList>& dim, bool unbiased, bool keepdim) {
  return std(self, dim, Scalar(int64_t(unbiased ? 1 : 0)), keepdim);
}

}  // namespace th
