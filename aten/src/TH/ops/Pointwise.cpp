// Entry points of the unary and binary op families: PyTorch's dtype rules and checks, then the
// kernel from the dispatch table. Functional, in-place (name_) and out= (name_out) forms share
// one implementation each.
#include <cmath>
#include <functional>
#include <optional>
#include <string>

#include "../Functions.h"
#include "../Kernels.h"

namespace th {

TH_DEFINE_STUB(unary_fn, unary_stub);
TH_DEFINE_STUB(binary_op_fn, binary_stub);

namespace {

using math::BinaryOp;
using math::UnaryOp;

/// Runs `op` into `out` (allocated if undefined); `compute` overrides the computation dtype.
Tensor& run_into(Tensor& out, const std::vector<Tensor>& inputs, std::optional<ScalarType> compute,
                 std::optional<ScalarType> result, const std::function<void(TensorIterator&)>& kernel) {
  TensorIteratorConfig cfg;
  cfg.add_output(out);
  for (const Tensor& t : inputs) cfg.add_input(t);
  if (compute) cfg.common_dtype(*compute);
  if (result) cfg.output_dtype(*result);
  TensorIterator iter = cfg.build();
  kernel(iter);
  iter.cast_outputs();
  if (!out.defined()) out = iter.output();
  return out;
}

/// Integer inputs of floating ops compute in the default dtype (torch.exp(int_tensor) is float32).
std::optional<ScalarType> floating_compute(const std::vector<Tensor>& inputs) {
  ScalarType t = result_type(inputs);
  if (is_integral(t, /*include_bool=*/true)) return get_default_dtype();
  return std::nullopt;
}

Tensor& unary_into(Tensor& out, const Tensor& self, UnaryOp op, bool floating, const char* name) {
  if (self.dtype() == ScalarType::Bool) {
    TH_CHECK(op != UnaryOp::Neg,
             "Negation, the `-` operator, on a bool tensor is not supported. If you are "
             "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    TH_CHECK(floating || op == UnaryOp::Abs || op == UnaryOp::Sign, "\"", name,
             "\" not implemented for 'Bool'");
  }
  TH_CHECK(op != UnaryOp::Frac || is_floating_point(self.dtype()), "\"frac_cpu\" not implemented for '",
           scalar_type_cpp_name(self.dtype()), "'");
  auto compute = floating ? floating_compute({self}) : std::nullopt;
  return run_into(out, {self}, compute, std::nullopt,
                  [&](TensorIterator& it) { unary_stub[it.device().type](it, op); });
}

Tensor& binary_into(Tensor& out, const Tensor& self, const Tensor& other, BinaryOp op, const char* name) {
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
      TH_CHECK(!is_integral(common, true) || !other.impl()->wrapped_number ||
                   other.dtype() != ScalarType::Long ||
                   *reinterpret_cast<const int64_t*>(other.data_ptr()) >= 0,
               "Integers to negative integer powers are not allowed.");
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

#define TH_UNARY_ENTRY(name, Functor, expr, floating)                                                 \
  Tensor name(const Tensor& self) {                                                                   \
    Tensor out;                                                                                       \
    return unary_into(out, self, UnaryOp::Functor, floating, #name);                                  \
  }                                                                                                   \
  Tensor& name##_(Tensor& self) { return unary_into(self, self, UnaryOp::Functor, floating, #name); } \
  Tensor& name##_out(Tensor& out, const Tensor& self) {                                               \
    return unary_into(out, self, UnaryOp::Functor, floating, #name);                                  \
  }
#define TH_UNARY_FLOAT_ENTRY(name, Functor, expr) TH_UNARY_ENTRY(name, Functor, expr, true)
#define TH_UNARY_KEEP_ENTRY(name, Functor, expr) TH_UNARY_ENTRY(name, Functor, expr, false)
TH_UNARY_FLOAT_OPS(TH_UNARY_FLOAT_ENTRY)
TH_UNARY_KEEP_OPS(TH_UNARY_KEEP_ENTRY)

#define TH_BINARY_ENTRY(name, op)                                                                          \
  Tensor name(const Tensor& self, const Tensor& other) {                                                   \
    Tensor out;                                                                                            \
    return binary_into(out, self, other, op, #name);                                                       \
  }                                                                                                        \
  Tensor& name##_(Tensor& self, const Tensor& other) { return binary_into(self, self, other, op, #name); } \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                               \
    return binary_into(out, self, other, op, #name);                                                       \
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
  return binary_into(out, self, other, div_op(rounding_mode), "div");
}
Tensor& div_(Tensor& self, const Tensor& other, const std::optional<std::string>& rounding_mode) {
  return binary_into(self, self, other, div_op(rounding_mode), "div");
}
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other,
                const std::optional<std::string>& rounding_mode) {
  return binary_into(out, self, other, div_op(rounding_mode), "div");
}

/// Rounded half to even at `decimals` places, computed as PyTorch does: round(x * 10^d) / 10^d, or
/// round(x / 10^-d) * 10^-d for negative d, in the input's floating type.
Tensor round(const Tensor& self, int64_t decimals) {
  if (decimals == 0) return round(self);
  TH_CHECK_T(NotImplementedError, is_floating_point(self.dtype()), "\"round_cpu\" not implemented for '",
             scalar_type_name(self.dtype()), "'");
  if (is_reduced_floating_point(self.dtype()))  // scaled in float32, rounded to 16 bits once (as PyTorch)
    return to_dtype(round(to_dtype(self, ScalarType::Float), decimals), self.dtype());
  const Tensor ten_pow = wrap_number(Scalar(std::pow(10.0, double(decimals < 0 ? -decimals : decimals))));
  return decimals > 0 ? div(round(mul(self, ten_pow)), ten_pow, std::nullopt)
                      : mul(round(div(self, ten_pow, std::nullopt)), ten_pow);
}

}  // namespace th
