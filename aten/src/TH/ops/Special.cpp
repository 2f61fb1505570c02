// Entry points of the special-function family (math/Special.h): integer inputs compute in the default
// dtype (PyTorch's rule for floating ops), the binary ones promote their two operands; functional,
// in-place (name_) and out= (name_out) forms share one implementation.
#include "Special.h"
#include "../Functions.h"
#include "Pointwise.h"

namespace th {

TH_DEFINE_STUB(special_fn, special_stub);

namespace {

using math::SpecialOp;
using pointwise::floating_compute;
using pointwise::run_into;

/// out = op(inputs): integer inputs compute in the default dtype, two inputs promote together.
Tensor& special_into(Tensor& out, const std::vector<Tensor>& inputs, SpecialOp op) {
  if (op == SpecialOp::Igamma || op == SpecialOp::Igammac) {  // upstream's kernels take floats only
    const ScalarType t = promote_types(inputs[0].dtype(), inputs[1].dtype());
    TH_CHECK_T(NotImplementedError, is_floating_point(t), "\"",
               op == SpecialOp::Igamma ? "igamma" : "igammac",
               inputs[0].device().type == DeviceType::CUDA ? "_cuda" : "_cpu", "\" not implemented for '",
               scalar_type_cpp_name(t), "'");
  }
  return run_into(out, inputs, floating_compute(inputs), std::nullopt,
                  [&](TensorIterator& it) { special_stub[it.device().type](it, op); });
}

}  // namespace

#define TH_SPECIAL_UNARY_ENTRY(name, Functor, expr)                                        \
  Tensor name(const Tensor& self) {                                                        \
    Tensor out;                                                                            \
    return special_into(out, {self}, SpecialOp::Functor);                                  \
  }                                                                                        \
  Tensor& name##_(Tensor& self) { return special_into(self, {self}, SpecialOp::Functor); } \
  Tensor& name##_out(Tensor& out, const Tensor& self) {                                    \
    return special_into(out, {self}, SpecialOp::Functor);                                  \
  }
#define TH_SPECIAL_BINARY_ENTRY(name, Functor, expr)                         \
  Tensor name(const Tensor& self, const Tensor& other) {                     \
    Tensor out;                                                              \
    return special_into(out, {self, other}, SpecialOp::Functor);             \
  }                                                                          \
  Tensor& name##_(Tensor& self, const Tensor& other) {                       \
    return special_into(self, {self, other}, SpecialOp::Functor);            \
  }                                                                          \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) { \
    return special_into(out, {self, other}, SpecialOp::Functor);             \
  }
TH_SPECIAL_UNARY_OPS(TH_SPECIAL_UNARY_ENTRY)
TH_SPECIAL_BINARY_OPS(TH_SPECIAL_BINARY_ENTRY)

}  // namespace th
