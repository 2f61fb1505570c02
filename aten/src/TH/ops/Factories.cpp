// Factories: empty / zeros / ones / full and their _like forms, arange, linspace, logspace, eye.
#include <cmath>

#include "../DefaultDevice.h"
#include "../Functions.h"
#include "Fill.h"

namespace th {

Tensor view_as_real(const Tensor& self);  // ops/ComplexParts.cpp

TH_DEFINE_STUB(arange_fn, arange_stub);
TH_DEFINE_STUB(linspace_fn, linspace_stub);

namespace {
/// A new tensor filled with `value`: at version 0, as if it had been created with it.
Tensor filled(Tensor t, const Scalar& value) {
  fill_(t, value);
  t.storage()->reset_version();
  return t;
}

/// Upstream's refusal of a dtype its `op` kernel has no case for ("arange_cpu" not implemented for
/// 'Bool'), raised before any size is computed, so an empty result is refused too.
void refuse_dtype(const char* op, ScalarType t, Device device, bool complex_ok) {
  if (t != ScalarType::Bool && (complex_ok || !is_complex(t)) && !is_barebones(t)) return;
  throw NotImplementedError(detail::str("\"", op, "_", device_type_name(device.type),
                                        "\" not implemented for '", scalar_type_cpp_name(t), "'"));
}
}  // namespace

Tensor empty(const IntList& size, std::optional<ScalarType> dtype, std::optional<Device> device,
             std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Contiguous);
  TH_CHECK(format != MemoryFormat::Preserve, "unsupported memory format Preserve");  // nothing to preserve
  return empty_like_tensor(Tensor(), size, dtype.value_or(get_default_dtype()),
                           device.value_or(default_device()), format);
}

Tensor zeros(const IntList& size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return full(size, Scalar(int64_t(0)), dtype.value_or(get_default_dtype()), device);
}

Tensor ones(const IntList& size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return full(size, Scalar(int64_t(1)), dtype.value_or(get_default_dtype()), device);
}

Tensor full(const IntList& size, const Scalar& fill_value, std::optional<ScalarType> dtype,
            std::optional<Device> device) {
  // like PyTorch: the dtype follows the fill value (bool, int64 for any int, even one past it, the
  // default float or its complex type)
  ScalarType inferred = fill_value.is_floating_point() ? get_default_dtype()
                        : fill_value.is_complex()      ? to_complex_type(get_default_dtype())
                        : fill_value.is_integral()     ? ScalarType::Long
                                                       : fill_value.type();
  Tensor t = empty(size, dtype.value_or(inferred), device);
  return filled(t, fill_value);
}

Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format) {
  return empty_like_tensor(self, self.sizes(), dtype.value_or(self.dtype()), device.value_or(self.device()),
                           memory_format.value_or(MemoryFormat::Preserve));
}

Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format) {
  Tensor t = empty_like(self, dtype, device, memory_format);
  return filled(t, Scalar(int64_t(0)));
}

Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                 std::optional<MemoryFormat> memory_format) {
  Tensor t = empty_like(self, dtype, device, memory_format);
  return filled(t, Scalar(int64_t(1)));
}

Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Device> device, std::optional<MemoryFormat> memory_format) {
  Tensor t = empty_like(self, dtype, device, memory_format);
  return filled(t, fill_value);
}

Tensor arange(const Scalar& end, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return arange(Scalar(int64_t(0)), end, Scalar(int64_t(1)), dtype, device);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<ScalarType> dtype,
              std::optional<Device> device) {
  // upstream's arange_check_bounds and compute_arange_size: the bounds are checked in double; an int64
  // result counts its elements from the truncated ends and step, any other from the doubles.
  const double s = start.to<double>(), e = end.to<double>(), d = step.to<double>();
  TH_CHECK(d != 0, "step must be nonzero");
  TH_CHECK(std::isfinite(s) && std::isfinite(e), "unsupported range: ", s, " -> ", e);
  TH_CHECK((d > 0 && e >= s) || (d < 0 && e <= s), "upper bound and lower bound inconsistent with step sign");
  bool floating = start.is_floating_point() || end.is_floating_point() || step.is_floating_point();
  ScalarType t = dtype.value_or(floating ? get_default_dtype() : ScalarType::Long);
  refuse_dtype("arange", t, device.value_or(default_device()), false);
  double size;
  if (t == ScalarType::Long) {
    const int64_t xs = start.to<int64_t>(), xe = end.to<int64_t>(), xd = step.to<int64_t>();
    TH_CHECK_T(ValueError, xd != 0, "step must be nonzero");  // a fractional step truncated to 0
    const int64_t sign = (xd > 0) - (xd < 0);
    size = std::ceil(double((__int128(xe) - xs + xd - sign) / xd));  // in 128 bits: the ends may be far apart
  } else {
    size = std::ceil((e - s) / d);
  }
  TH_CHECK(size >= 0 && size < 9223372036854775808.0,  // 2^63: the cast below must not overflow
           "invalid size, possible overflow?");
  Tensor out = empty_tensor({static_cast<int64_t>(size)}, t, device.value_or(default_device()));
  if (out.numel() > 0) arange_stub[out.device().type](out, start, step);
  return out;
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<ScalarType> dtype,
                std::optional<Device> device) {
  TH_CHECK(steps >= 0, "number of steps must be non-negative");
  // complex ends make a complex result by default (upstream's), of the default dtype's precision
  const bool complex_ends = start.is_complex() || end.is_complex();
  const ScalarType fallback = complex_ends ? to_complex_type(get_default_dtype()) : get_default_dtype();
  Tensor out = empty_tensor({steps}, dtype.value_or(fallback), device.value_or(default_device()));
  if (steps == 0) return out;
  if (steps == 1) return fill_(out, start);  // upstream's: start alone, any dtype (bool too), end unread
  refuse_dtype("linspace", out.dtype(), out.device(), true);
  if (is_complex(out.dtype())) {  // the real and imaginary parts are two real ramps
    const complex<double> a = start.to_complex(), b = end.to_complex();
    const ScalarType part = to_real_type(out.dtype());
    Tensor parts = view_as_real(out);
    Tensor re = select(parts, 1, 0), im = select(parts, 1, 1);
    copy_(re, linspace(Scalar(a.re), Scalar(b.re), steps, part, out.device()));
    copy_(im, linspace(Scalar(a.im), Scalar(b.im), steps, part, out.device()));
    out.storage()->reset_version();
    return out;
  }
  TH_DISPATCH_NUMERIC_TYPES(out.dtype(), "linspace", [&] {  // the ends must fit the dtype (Scalar::to)
    (void)start.to<scalar_t>();
    (void)end.to<scalar_t>();
  });
  linspace_stub[out.device().type](out, start.to<double>(), end.to<double>());
  return out;
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base,
                std::optional<ScalarType> dtype, std::optional<Device> device) {
  const bool complex_ends = start.is_complex() || end.is_complex();
  ScalarType t = dtype.value_or(complex_ends ? to_complex_type(get_default_dtype()) : get_default_dtype());
  if (steps > 1) refuse_dtype("logspace", t, device.value_or(default_device()), true);
  // upstream's kernel casts the ends to the result's dtype first (truncating them for the integers:
  // logspace(0, 1.2, 2, dtype=int64) is [1, 10]), then steps between them in double
  Scalar lo = start, hi = end;
  if (!complex_ends && !is_complex(t) && t != ScalarType::Bool && !is_barebones(t)) {
    TH_DISPATCH_NUMERIC_TYPES(t, "logspace", [&] {
      lo = Scalar(static_cast<double>(start.to<scalar_t>()));
      hi = Scalar(static_cast<double>(end.to<scalar_t>()));
    });
  }
  Tensor exponents =
      linspace(lo, hi, steps, complex_ends ? ScalarType::ComplexDouble : ScalarType::Double, device);
  Tensor out = pow(wrap_number(Scalar(base)), exponents);
  return to_dtype(out, t);
}

Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return eye(n, n, dtype, device);
}

Tensor eye(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<Device> device) {
  const int64_t cols = m;
  TH_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  TH_CHECK(cols >= 0, "m must be greater or equal to 0, got ", cols);
  Tensor out = zeros({n, cols}, dtype, device);
  Tensor diagonal = as_strided(out, {std::min(n, cols)}, {cols + 1}, 0);
  fill_(diagonal, Scalar(int64_t(1)));
  out.storage()->reset_version();
  return out;
}

}  // namespace th
