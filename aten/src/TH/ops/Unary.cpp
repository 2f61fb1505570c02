// Entry points of the unary pointwise family (math/Unary.h's ops): PyTorch's dtype rules and
// checks, then unary_stub. Functional, in-place (name_) and out= (name_out) forms share one
// implementation.
#include "Unary.h"
#include "../Functions.h"
#include "Pointwise.h"

namespace th {

TH_DEFINE_STUB(unary_fn, unary_stub);

Tensor complex_abs(const Tensor& self);  // ops/ComplexParts.cpp

namespace {

using math::UnaryOp;
using pointwise::floating_compute;
using pointwise::run_into;

Tensor& unary_into(Tensor& out, const Tensor& self, UnaryOp op, bool floating, const char* name) {
  if (is_complex(self.dtype())) {
    TH_CHECK(
        op != UnaryOp::Sign,
        "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.");
    if (op == UnaryOp::Abs) {  // the modulus, a real tensor (complex_part_stub)
      TH_CHECK(!out.is_same(self), "In-place abs is not supported for complex tensors.");
      Tensor r = complex_abs(self);
      if (!out.defined()) return out = r;
      resize_(out, r.sizes());
      return copy_(out, r);
    }
  }
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

}  // namespace th
