// Entry points of the special-function family (math/Special.h): integer inputs compute in the default
// dtype (PyTorch's rule for floating ops), the binary ones promote their two operands; functional,
// in-place (name_) and out= (name_out) forms share one implementation.
#include "Special.h"
#include "../Functions.h"
#include "Pointwise.h"

namespace th {

TH_DEFINE_STUB(special_unary_fn, special_unary_stub);
TH_DEFINE_STUB(special_binary_fn, special_binary_stub);

namespace {

using math::SpecialOp;
using pointwise::floating_compute;
using pointwise::run_into;

Tensor& special_unary_into(Tensor& out, const Tensor& self, SpecialOp op) {
  return run_into(out, {self}, floating_compute({self}), std::nullopt,
                  [&](TensorIterator& it) { special_unary_stub[it.device().type](it, op); });
}

Tensor& special_binary_into(Tensor& out, const Tensor& self, const Tensor& other, SpecialOp op) {
  return run_into(out, {self, other}, floating_compute({self, other}), std::nullopt,
                  [&](TensorIterator& it) { special_binary_stub[it.device().type](it, op); });
}

}  // namespace

#define TH_SPECIAL_UNARY_ENTRY(name, Functor, expr)                                            \
  Tensor name(const Tensor& self) {                                                            \
    Tensor out;                                                                                \
    return special_unary_into(out, self, SpecialOp::Functor);                                  \
  }                                                                                            \
  Tensor& name##_(Tensor& self) { return special_unary_into(self, self, SpecialOp::Functor); } \
  Tensor& name##_out(Tensor& out, const Tensor& self) {                                        \
    return special_unary_into(out, self, SpecialOp::Functor);                                  \
  }
#define TH_SPECIAL_BINARY_ENTRY(name, Functor, expr)                         \
  Tensor name(const Tensor& self, const Tensor& other) {                     \
    Tensor out;                                                              \
    return special_binary_into(out, self, other, SpecialOp::Functor);        \
  }                                                                          \
  Tensor& name##_(Tensor& self, const Tensor& other) {                       \
    return special_binary_into(self, self, other, SpecialOp::Functor);       \
  }                                                                          \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) { \
    return special_binary_into(out, self, other, SpecialOp::Functor);        \
  }
TH_SPECIAL_UNARY_OPS(TH_SPECIAL_UNARY_ENTRY)
TH_SPECIAL_BINARY_OPS(TH_SPECIAL_BINARY_ENTRY)

}  // namespace th
