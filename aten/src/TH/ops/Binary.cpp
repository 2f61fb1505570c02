// Entry points of the binary pointwise family: add / sub / mul (add_stub, mul_stub, with alpha) and
// the ops of math/Binary.h (binary_stub: arithmetic, bitwise, comparisons), with PyTorch's dtype
// rules and checks. Functional, in-place (name_) and out= (name_out) forms share one implementation.
#include <cmath>
#include <optional>
#include <string>

#include "../Functions.h"
#include "../math/Unary.h"
#include "Binary.h"
#include "Pointwise.h"

namespace th {

TH_DEFINE_STUB(binary_fn, add_stub);
TH_DEFINE_STUB(binary_fn, mul_stub);
TH_DEFINE_STUB(binary_op_fn, binary_stub);

namespace {

using math::BinaryOp;
using pointwise::floating_compute;
using pointwise::run_into;

Tensor& binary_into(DispatchStub<binary_fn>& stub, Tensor& out, const Tensor& a, const Tensor& b,
                    const Scalar& alpha) {
  TensorIterator iter = TensorIteratorConfig().add_output(out).add_input(a).add_input(b).build();
  stub[iter.device().type](iter, alpha);
  iter.cast_outputs();
  if (!out.defined()) out = iter.output();
  return out;
}

Tensor binary(DispatchStub<binary_fn>& stub, const Tensor& a, const Tensor& b, const Scalar& alpha) {
  Tensor out;
  return binary_into(stub, out, a, b, alpha);
}

void check_alpha(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  const ScalarType t = result_type({a, b});  // the common dtype (upstream's iter.dtype())
  TH_CHECK(is_complex(t) || !alpha.is_complex(),
           "For non-complex input tensors, argument alpha must not be a complex number.");
  TH_CHECK(is_floating_point(t) || is_complex(t) || !alpha.is_floating_point(),
           "For integral input tensors, argument alpha must not be a floating point number.");
  TH_CHECK(t == ScalarType::Bool || !alpha.is_bool(), "Boolean alpha only supported for Boolean results.");
}

Scalar negate(const Scalar& s) {
  if (s.is_floating_point()) return Scalar(-s.to<double>());
  if (s.is_complex()) return Scalar(-s.to_complex());
  TH_CHECK(!s.is_bool(),
           "Subtraction, the `-` operator, with two bool tensors is not supported. "
           "Use the `^` or `logical_xor()` operator instead.");
  // an int is negated in 64 bits, wrapping as c10's -v.i (-(2**63) is itself; 2**63, a uint64, is -2**63)
  const uint64_t bits = s.is_uint64() ? s.to<uint64_t>() : static_cast<uint64_t>(s.to<int64_t>());
  return Scalar(static_cast<int64_t>(uint64_t(0) - bits));
}

void check_sub(const Tensor& a, const Tensor& b) {
  TH_CHECK(a.dtype() != ScalarType::Bool || b.dtype() != ScalarType::Bool,
           "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
           "or `logical_xor()` operator instead.");
  // one bool operand (a Python bool too) is refused as well, as upstream's sub_check
  TH_CHECK(
      a.dtype() != ScalarType::Bool && b.dtype() != ScalarType::Bool,
      "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a "
      "mask, use the `~` or `logical_not()` operator instead.");
}

/// The value of a Python int or float operand (a wrapped number) as a double; none for any other.
std::optional<double> number_value(const Tensor& t) {
  if (!t.impl()->wrapped_number) return {};
  if (t.dtype() == ScalarType::Double) return *reinterpret_cast<const double*>(t.data_ptr());
  if (t.dtype() == ScalarType::Long) return double(*reinterpret_cast<const int64_t*>(t.data_ptr()));
  return {};
}

/// Upstream's powers by a Python number 0.5, -0.5 and -1 of a float32/float64/bfloat16/complex tensor are
/// sqrt, rsqrt and reciprocal (its pow_tensor_scalar_kernel; CUDA's for float16 too, CPU's float16 keeps
/// pow): they differ from pow at -0 (sqrt(-0) is -0, rsqrt(-0) -inf) and -inf (nan), and are exact on complex
/// numbers ((-4+0j) ** 0.5 is 2j, not pow's -8.7e-8+2j). The exponent must be the wrapped number; an
/// integer or bool base converts to the result dtype first, as upstream's iterator does (out of place only:
/// its in-place and out= checks stay pow's).
std::optional<math::UnaryOp> pow_as_unary(const Tensor& self, const Tensor& exponent, ScalarType common,
                                          bool out_of_place) {
  if (self.impl()->wrapped_number) return {};
  if (self.dtype() != common &&
      !(out_of_place && !is_floating_point(self.dtype()) && !is_complex(self.dtype())))
    return {};
  const bool routed = common == ScalarType::Float || common == ScalarType::Double ||
                      common == ScalarType::BFloat16 || is_complex(common) ||
                      (common == ScalarType::Half && self.device().type != DeviceType::CPU);
  if (!routed) return {};
  const auto e = number_value(exponent);
  if (!e) return {};
  if (*e == 0.5) return math::UnaryOp::Sqrt;
  if (*e == -0.5) return math::UnaryOp::Rsqrt;
  if (*e == -1.0) return math::UnaryOp::Reciprocal;
  return {};
}

/// Whether a Python-number exponent read at float32 becomes another kind of exponent for pow: an integer
/// from a fraction (1e-300 is 0), or an integer of the other parity (2**31 - 1 is 2**31).
bool float32_changes_exponent(const Tensor& exponent) {
  const auto number = number_value(exponent);
  if (!number) return false;
  const double e = *number;
  const double f = static_cast<float>(e);
  const auto integer = [](double v) { return std::isfinite(v) && std::trunc(v) == v; };
  if (integer(e) != integer(f)) return true;
  return integer(e) && (std::fmod(e, 2.0) != 0) != (std::fmod(f, 2.0) != 0);
}

Tensor unary(const Tensor& self, math::UnaryOp op) {
  switch (op) {
    case math::UnaryOp::Sqrt: return sqrt(self);
    case math::UnaryOp::Rsqrt: return rsqrt(self);
    default: return reciprocal(self);
  }
}

Tensor& unary_out(Tensor& out, const Tensor& self, math::UnaryOp op) {
  switch (op) {
    case math::UnaryOp::Sqrt: return sqrt_out(out, self);
    case math::UnaryOp::Rsqrt: return rsqrt_out(out, self);
    default: return reciprocal_out(out, self);
  }
}

Tensor& binary_op_into(Tensor& out, const Tensor& self, const Tensor& other, BinaryOp op, const char* name) {
  ScalarType common = result_type({self, other});
  std::optional<ScalarType> compute, result;
  switch (op) {
    case BinaryOp::DivTrue:
    case BinaryOp::Atan2: compute = floating_compute({self, other}); break;
    case BinaryOp::DivTrunc:
    case BinaryOp::DivFloor:
    case BinaryOp::Remainder:
    case BinaryOp::Fmod:
      // a zero divisor raises in the kernel (math::int_divide), after the cast to the common dtype
      TH_CHECK(common != ScalarType::Bool, "\"", name, "\" not implemented for 'Bool'");
      break;
    case BinaryOp::Pow:
      // upstream's tensor-exponent kernels (pow.Tensor_Tensor, pow.Scalar) have no bool; a bool tensor to a
      // Python number's power is computed
      TH_CHECK_T(NotImplementedError,
                 common != ScalarType::Bool || (other.impl()->wrapped_number && !self.impl()->wrapped_number),
                 "\"pow\" not implemented for 'Bool'");
      TH_CHECK(!is_integral(common, true) || !other.impl()->wrapped_number ||
                   other.dtype() != ScalarType::Long ||
                   *reinterpret_cast<const int64_t*>(other.data_ptr()) >= 0,
               "Integers to negative integer powers are not allowed.");
      // a Python number exponent must fit an integer or 16-bit float dtype (upstream reads it there,
      // checked: float16 ** 1e6 and int8 ** 1000 raise); float32 at float32 (but see below), double as a
      // double
      if (other.impl()->wrapped_number &&
          (other.dtype() == ScalarType::Double || other.dtype() == ScalarType::Long) &&
          (is_integral(common, false) || is_reduced_floating_point(common))) {
        const Scalar e = other.dtype() == ScalarType::Double
                             ? Scalar(*reinterpret_cast<const double*>(other.data_ptr()))
                             : Scalar(*reinterpret_cast<const int64_t*>(other.data_ptr()));
        TH_DISPATCH_ALL_TYPES(common, "pow", [&] { (void)e.to<scalar_t>(); });
      }
      if (const auto root = pow_as_unary(self, other, common, !out.defined())) {
        if (!out.defined()) return out = unary(to(self, self.device(), common, false, false), *root);
        return unary_out(out, self, *root);
      }
      // a Python number to a tensor's power is row-major (upstream's pow.Scalar sets its output without
      // strides)
      if (!out.defined() && self.impl()->wrapped_number && !other.impl()->wrapped_number &&
          !other.is_contiguous())
        out = empty_tensor(other.sizes(), common, other.device());
      // a float32 power by a Python number that float32 would make another kind of exponent is computed in
      // double and rounded, as upstream's scalar loop does (std::pow(float, double)): (-3.5) ** 1e-300 is
      // NaN and (-2) ** (2**31 - 1) is -inf, not 1 and inf (upstream's vectorized loop reads it at float32)
      if (common == ScalarType::Float && !self.impl()->wrapped_number && float32_changes_exponent(other)) {
        Tensor r = to(pow(to(self, self.device(), ScalarType::Double, false, false), other), self.device(),
                      ScalarType::Float, false, false);
        if (!out.defined()) return out = r;
        if (out.dtype() == ScalarType::Float && out.sizes() == r.sizes()) return copy_(out, r);
      }
      break;
    case BinaryOp::LeftShift:
    case BinaryOp::RightShift:  // upstream's kernels take no bool
      TH_CHECK_T(
          NotImplementedError, is_integral(common, false), "\"",
          op == BinaryOp::LeftShift ? "lshift" : "rshift",
          (self.impl()->wrapped_number ? other : self).device().type == DeviceType::CPU ? "_cpu" : "_cuda",
          "\" not implemented for '", scalar_type_cpp_name(common), "'");
      break;
    case BinaryOp::BitwiseAnd:
    case BinaryOp::BitwiseOr:
    case BinaryOp::BitwiseXor:
      TH_CHECK(is_integral(common, true), "\"", name, "_cpu\" not implemented for '",
               scalar_type_cpp_name(common), "'");
      break;
    case BinaryOp::Eq:
    case BinaryOp::Ne:
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
    case BinaryOp::LogicalAnd:
    case BinaryOp::LogicalOr:
    case BinaryOp::LogicalXor: result = ScalarType::Bool; break;
    default: break;
  }
  return run_into(out, {self, other}, compute, result,
                  [&](TensorIterator& it) { binary_stub[it.device().type](it, op); });
}

BinaryOp div_op(const std::optional<std::string>& mode) {
  if (!mode) return BinaryOp::DivTrue;
  if (*mode == "trunc") return BinaryOp::DivTrunc;
  if (*mode == "floor") return BinaryOp::DivFloor;
  throw Error("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" + *mode + "'");
}

}  // namespace

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_alpha(self, other, alpha);
  return binary(add_stub, self, other, alpha);
}

Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_alpha(self, other, alpha);
  return binary_into(add_stub, self, self, other, alpha);
}

Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_alpha(self, other, alpha);
  return binary_into(add_stub, out, self, other, alpha);
}

Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other);
  check_alpha(self, other, alpha);
  return binary(add_stub, self, other, negate(alpha));
}

Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other);
  check_alpha(self, other, alpha);
  return binary_into(add_stub, self, self, other, negate(alpha));
}

Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other);
  check_alpha(self, other, alpha);
  return binary_into(add_stub, out, self, other, negate(alpha));
}

// A 16-bit float times a CPU scalar computes in float32 and rounds once, as in PyTorch: the
// kernels read the scalar at opmath (cpu_kernel_with_scalars, gpu_kernel_with_scalars).
Tensor mul(const Tensor& self, const Tensor& other) { return binary(mul_stub, self, other, Scalar()); }

Tensor& mul_(Tensor& self, const Tensor& other) { return binary_into(mul_stub, self, self, other, Scalar()); }

Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return binary_into(mul_stub, out, self, other, Scalar());
}

#define TH_BINARY_ENTRY(name, op)                                            \
  Tensor name(const Tensor& self, const Tensor& other) {                     \
    Tensor out;                                                              \
    return binary_op_into(out, self, other, op, #name);                      \
  }                                                                          \
  Tensor& name##_(Tensor& self, const Tensor& other) {                       \
    return binary_op_into(self, self, other, op, #name);                     \
  }                                                                          \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) { \
    return binary_op_into(out, self, other, op, #name);                      \
  }
TH_BINARY_ENTRY(floor_divide, BinaryOp::DivFloor)
TH_BINARY_ENTRY(remainder, BinaryOp::Remainder)
TH_BINARY_ENTRY(fmod, BinaryOp::Fmod)
TH_BINARY_ENTRY(pow, BinaryOp::Pow)
TH_BINARY_ENTRY(atan2, BinaryOp::Atan2)
TH_BINARY_ENTRY(maximum, BinaryOp::Maximum)
TH_BINARY_ENTRY(minimum, BinaryOp::Minimum)
TH_BINARY_ENTRY(bitwise_and, BinaryOp::BitwiseAnd)
TH_BINARY_ENTRY(bitwise_or, BinaryOp::BitwiseOr)
TH_BINARY_ENTRY(bitwise_xor, BinaryOp::BitwiseXor)
TH_BINARY_ENTRY(bitwise_left_shift, BinaryOp::LeftShift)
TH_BINARY_ENTRY(bitwise_right_shift, BinaryOp::RightShift)
TH_BINARY_ENTRY(eq, BinaryOp::Eq)
TH_BINARY_ENTRY(ne, BinaryOp::Ne)
TH_BINARY_ENTRY(lt, BinaryOp::Lt)
TH_BINARY_ENTRY(le, BinaryOp::Le)
TH_BINARY_ENTRY(gt, BinaryOp::Gt)
TH_BINARY_ENTRY(ge, BinaryOp::Ge)
TH_BINARY_ENTRY(logical_and, BinaryOp::LogicalAnd)
TH_BINARY_ENTRY(logical_or, BinaryOp::LogicalOr)
TH_BINARY_ENTRY(logical_xor, BinaryOp::LogicalXor)

Tensor div(const Tensor& self, const Tensor& other, const std::optional<std::string>& rounding_mode) {
  Tensor out;
  return binary_op_into(out, self, other, div_op(rounding_mode), "div");
}
Tensor& div_(Tensor& self, const Tensor& other, const std::optional<std::string>& rounding_mode) {
  return binary_op_into(self, self, other, div_op(rounding_mode), "div");
}
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other,
                const std::optional<std::string>& rounding_mode) {
  return binary_op_into(out, self, other, div_op(rounding_mode), "div");
}

/// Rounded half to even at `decimals` places, computed as PyTorch does: round(x * 10^d) / 10^d, or
/// round(x / 10^-d) * 10^-d for negative d, in the input's floating type.
Tensor round(const Tensor& self, int64_t decimals) {
  // upstream's decimals kernel is float-only (round_vml_cpu for decimals = 0), even where plain round is not
  TH_CHECK_T(NotImplementedError, is_floating_point(self.dtype()), "\"round",
             self.device().type == DeviceType::CUDA ? "_cuda" : (decimals == 0 ? "_vml_cpu" : "_cpu"),
             "\" not implemented for '", scalar_type_cpp_name(self.dtype()), "'");
  if (decimals == 0) return round(self);
  if (is_reduced_floating_point(self.dtype())) {  // scaled in float32, rounded to 16 bits once (as PyTorch)
    const Tensor wide = to(self, ScalarType::Float, false, false);  // preserve_format: self's dense layout
    return to(round(wide, decimals), self.dtype(), false, false);
  }
  const Tensor ten_pow = wrap_number(Scalar(std::pow(10.0, double(decimals < 0 ? -decimals : decimals))));
  return decimals > 0 ? div(round(mul(self, ten_pow)), ten_pow, std::nullopt)
                      : mul(round(div(self, ten_pow, std::nullopt)), ten_pow);
}

}  // namespace th
