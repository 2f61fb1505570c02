// add / sub / mul: broadcasting, type promotion, in-place and out= forms.
#include "../Functions.h"
#include "../Kernels.h"

namespace th {

TH_DEFINE_STUB(binary_fn, add_stub);
TH_DEFINE_STUB(binary_fn, mul_stub);

namespace {

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
  ScalarType t = promote_types(a.dtype(), b.dtype());
  TH_CHECK(is_floating_point(t) || !alpha.is_floating_point(),
           "For integral input tensors, argument alpha must not be a floating point number.");
  TH_CHECK(t == ScalarType::Bool || !alpha.is_bool(), "Boolean alpha only supported for Boolean results.");
}

Scalar negate(const Scalar& s) {
  if (s.is_floating_point()) return Scalar(-s.to<double>());
  TH_CHECK(!s.is_bool(),
           "Subtraction, the `-` operator, with two bool tensors is not supported. "
           "Use the `^` or `logical_xor()` operator instead.");
  return Scalar(-s.to<int64_t>());
}

void check_sub(const Tensor& a, const Tensor& b) {
  TH_CHECK(a.dtype() != ScalarType::Bool || b.dtype() != ScalarType::Bool,
           "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
           "or `logical_xor()` operator instead.");
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

}  // namespace th
