// Float classification and closeness (isnan, isinf, isfinite, nan_to_num, isclose, allclose,
// equal), logical_not, bitwise_not and lerp: composites of the pointwise ops (so every device has
// them).
#include <cmath>
#include <limits>

#include "../Functions.h"

namespace th {

namespace {
Tensor number(double v) { return wrap_number(Scalar(v)); }
Tensor all_false(const Tensor& self) { return zeros_like(self, ScalarType::Bool, std::nullopt); }
const Scalar one(int64_t(1));

/// The value of a 0-dim bool tensor (on any device).
bool is_true(const Tensor& t) {
  Tensor host = to(t, Device(), ScalarType::Bool, false, false);
  return *reinterpret_cast<const bool*>(host.data_ptr());
}
}  // namespace

// entry points declared by the generated bindings from their schemas
bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan);
bool equal(const Tensor& self, const Tensor& other);

Tensor view_as_real(const Tensor& self);  // ops/ComplexParts.cpp

Tensor isnan(const Tensor& self) {
  if (is_complex(self.dtype())) return any(isnan(view_as_real(self)), -1, false);  // either part
  return is_floating_point(self.dtype()) ? ne(self, self) : all_false(self);
}

Tensor isinf(const Tensor& self) {
  if (is_complex(self.dtype())) return any(isinf(view_as_real(self)), -1, false);
  if (!is_floating_point(self.dtype())) return all_false(self);
  return eq(abs(self), number(std::numeric_limits<double>::infinity()));
}

Tensor logical_not(const Tensor& self) { return eq(self, wrap_number(Scalar(int64_t(0)))); }

Tensor isfinite(const Tensor& self) {
  if (!is_floating_point(self.dtype()) && !is_complex(self.dtype()))
    return ones_like(self, ScalarType::Bool, std::nullopt);
  return logical_not(logical_or(isnan(self), isinf(self)));
}

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  if (!is_floating_point(self.dtype())) return clone(self);
  double big = 0;
  TH_DISPATCH_FLOATING_TYPES(self.dtype(), "nan_to_num",
                             [&] { big = static_cast<double>(std::numeric_limits<scalar_t>::max()); });
  const double inf = std::numeric_limits<double>::infinity();
  Tensor r = where(isnan(self), number(nan.value_or(0.0)), self);
  r = where(eq(r, number(inf)), number(posinf.value_or(big)), r);
  r = where(eq(r, number(-inf)), number(neginf.value_or(-big)), r);
  return to_dtype(r, self.dtype());
}

Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  TH_CHECK(self.dtype() == other.dtype(), scalar_type_cpp_name(self.dtype()), " did not match ",
           scalar_type_cpp_name(other.dtype()));
  TH_CHECK(rtol >= 0, "rtol must be greater than or equal to zero, but got ", rtol);
  TH_CHECK(atol >= 0, "atol must be greater than or equal to zero, but got ", atol);
  Tensor close = eq(self, other);
  // complex values compare whole (|self - other| the modulus), never through a real cast
  const bool inexact = is_floating_point(self.dtype()) || is_complex(self.dtype());
  if (equal_nan && inexact) close = logical_or(close, logical_and(isnan(self), isnan(other)));
  if (self.dtype() == ScalarType::Bool) return close;
  // |self - other| <= atol + rtol * |other|, for finite differences only (inf - x never is close)
  Tensor a = inexact ? self : to_dtype(self, get_default_dtype());
  Tensor b = inexact ? other : to_dtype(other, get_default_dtype());
  Tensor err = abs(sub(a, b, one));
  Tensor allowed = add(number(atol), mul(number(rtol), abs(b)), one);
  return logical_or(close, logical_and(isfinite(err), le(err, allowed)));
}

bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  return is_true(all(isclose(self, other, rtol, atol, equal_nan)));
}

bool equal(const Tensor& self, const Tensor& other) {
  TH_CHECK(self.device() == other.device(),
           "Expected all tensors to be on the same device, but found at least two "
           "devices, ",
           self.device().str(), " and ", other.device().str(), "!");
  return self.sizes() == other.sizes() && is_true(all(eq(self, other)));
}

Tensor bitwise_not(const Tensor& self) {
  if (self.dtype() == ScalarType::Bool) return logical_not(self);
  TH_CHECK_T(NotImplementedError, !is_floating_point(self.dtype()) && !is_complex(self.dtype()),
             "\"bitwise_not_cpu\" not implemented for '", scalar_type_cpp_name(self.dtype()), "'");
  return bitwise_xor(self, wrap_number(Scalar(int64_t(-1))));
}

namespace {
/// PyTorch's lerp formula: small weights step from self, large ones back from end (so that a weight
/// of 1 gives end exactly); 16-bit floats compute in float32 and round once, as its kernels do.
/// `small` says which side each weight is on (a host bool for a number weight, else a tensor); `rest` is
/// 1 - weight (a number weight's computed on the host: two wrapped numbers made it a float32 or complex64
/// tensor, so float64 and complex128 results were off by float32's rounding).
template <typename Small>
Tensor lerp_formula(const Tensor& self, const Tensor& end, const Tensor& weight, const Tensor& rest,
                    Small small) {
  const ScalarType t = self.dtype();
  if (is_reduced_floating_point(t)) {
    auto up = [](const Tensor& x) {
      return is_reduced_floating_point(x.dtype()) ? to_dtype(x, ScalarType::Float) : x;
    };
    return to_dtype(lerp_formula(up(self), up(end), up(weight), up(rest), small), t);
  }
  const Tensor diff = sub(end, self, one);
  auto from_self = [&] { return add(self, mul(weight, diff), one); };
  auto from_end = [&] { return sub(end, mul(diff, rest), one); };
  if constexpr (std::is_same_v<Small, bool>) {
    return small ? from_self() : from_end();
  } else {
    return where(small, from_self(), from_end());
  }
}

/// upstream's checks: end (and a tensor weight) of self's dtype, then its kernel's float/complex dispatch.
void check_lerp(const Tensor& self, const Tensor& end, const Tensor* weight) {
  TH_CHECK(self.dtype() == end.dtype(), "expected dtype ", scalar_type_meta_name(self.dtype()),
           " for `end` but got dtype ", scalar_type_meta_name(end.dtype()));
  if (weight)
    TH_CHECK(self.dtype() == weight->dtype(), "expected dtype ", scalar_type_meta_name(self.dtype()),
             " for `weight` but got dtype ", scalar_type_meta_name(weight->dtype()));
  TH_CHECK_T(NotImplementedError, is_floating_point(self.dtype()) || is_complex(self.dtype()), "\"",
             weight ? "lerp_kernel_tensor" : "lerp_kernel_scalar", "\" not implemented for '",
             scalar_type_cpp_name(self.dtype()), "'");
}
}  // namespace

Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  check_lerp(self, end, &weight);
  return lerp_formula(self, end, weight, sub(wrap_number(one), weight, one), lt(abs(weight), number(0.5)));
}

Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  check_lerp(self, end, nullptr);
  const double size = weight.is_complex() ? std::hypot(weight.to_complex().re, weight.to_complex().im)
                                          : std::abs(weight.to<double>());  // |w| of a complex weight too
  // 1 - weight at the precision the kernel computes in (float for float32, complex64 and 16-bit self), as
  // upstream's opmath
  const ScalarType t = self.dtype();
  const bool single = t == ScalarType::Float || t == ScalarType::ComplexFloat || is_reduced_floating_point(t);
  auto one_minus = [&](double w) { return single ? double(1.0f - float(w)) : 1.0 - w; };
  const Scalar rest =
      weight.is_complex()
          ? Scalar(complex<double>(one_minus(weight.to_complex().re),
                                   single ? -double(float(weight.to_complex().im)) : -weight.to_complex().im))
      : weight.is_floating_point() ? Scalar(one_minus(weight.to<double>()))
                                   : Scalar(int64_t(1) - weight.to<int64_t>());
  return lerp_formula(self, end, wrap_number(weight), wrap_number(rest), size < 0.5);
}

Tensor& lerp_(Tensor& self, const Tensor& end, const Scalar& weight) {
  return copy_(self, lerp(self, end, weight));
}

}  // namespace th
