// Entry points of the complex-parts family: view_as_real / view_as_complex (metadata over the same
// storage), real / imag (views), conj / conj_physical, abs and angle of complex tensors (the kernel
// of ops/ComplexParts.h), and torch.complex. PyTorch's checks and messages.
#include "ComplexParts.h"
#include "../Functions.h"
#include "Pointwise.h"

namespace th {

TH_DEFINE_STUB(complex_part_fn, complex_part_stub);

// entry points declared by the generated bindings from their schemas
Tensor view_as_real(const Tensor& self);
Tensor view_as_complex(const Tensor& self);
Tensor real(const Tensor& self);
Tensor imag(const Tensor& self);
Tensor conj(const Tensor& self);
Tensor conj_physical(const Tensor& self);
bool is_conj(const Tensor& self);
Tensor neg(const Tensor& self);
Tensor angle(const Tensor& self);
Tensor complex_from_parts(const Tensor& real, const Tensor& imag);  // torch.complex
Tensor complex_abs(const Tensor& self);

namespace {

/// part(self) into a new tensor: the real dtype for Abs and Angle, self's for Conj.
Tensor run_part(const Tensor& self, ComplexPart part) {
  Tensor out;
  const ScalarType result = part == ComplexPart::Conj ? self.dtype() : to_real_type(self.dtype());
  return pointwise::run_into(out, {self}, self.dtype(), result,
                             [&](TensorIterator& it) { complex_part_stub[it.device().type](it, part); });
}

/// A new tensor object over self's memory (real/conj of a real tensor: never self itself, which
/// autograd would record as its own output).
Tensor alias(const Tensor& self) {
  return make_view(self, self.sizes(), self.strides(), self.storage_offset());
}

}  // namespace

namespace {
/// view_as_real of the memory (a conjugate view's too: real/imag read its parts through it).
Tensor memory_as_real(const Tensor& self) {
  IntList sizes = self.sizes(), strides = self.strides();
  for (int64_t& s : strides) s *= 2;
  sizes.push_back(2);
  strides.push_back(1);
  return make_view(self, sizes, strides, self.storage_offset() * 2, to_real_type(self.dtype()));
}
}  // namespace

Tensor view_as_real(const Tensor& self) {
  TH_CHECK(is_complex(self.dtype()), "view_as_real is only supported for complex tensors");
  TH_CHECK(!self.is_conj(),
           "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate tensor so "
           "you can "
           "view it as real, use self.resolve_conj(); however, be warned that the resulting tensor will NOT "
           "alias the "
           "original.");
  return memory_as_real(self);
}

Tensor view_as_complex(const Tensor& self) {
  const ScalarType t = self.dtype();
  TH_CHECK(
      t == ScalarType::Float || t == ScalarType::Double,
      "view_as_complex is only supported for float and double tensors, but got a tensor of scalar type: ",
      scalar_type_cpp_name(t));
  TH_CHECK(self.dim() != 0, "Input tensor must have one or more dimensions");
  TH_CHECK(self.sizes().back() == 2, "Tensor must have a last dimension of size 2");
  TH_CHECK(self.strides().back() == 1, "Tensor must have a last dimension with stride 1");
  IntList sizes = self.sizes(), strides = self.strides();
  sizes.pop_back();
  strides.pop_back();
  for (int64_t& s : strides) {
    TH_CHECK(s % 2 == 0, "Tensor must have a stride divisible by 2 for all but last dimension");
    s /= 2;
  }
  TH_CHECK(self.storage_offset() % 2 == 0, "Tensor must have a storage_offset divisible by 2");
  return make_view(self, sizes, strides, self.storage_offset() / 2, to_complex_type(t));
}

Tensor real(const Tensor& self) {
  return is_complex(self.dtype()) ? select(memory_as_real(self), -1, 0) : alias(self);
}

Tensor imag(const Tensor& self) {
  TH_CHECK(is_complex(self.dtype()), "imag is not implemented for tensors with non-complex dtypes.");
  Tensor part = select(memory_as_real(self), -1, 1);
  // a conjugate view's imaginary parts are the memory's negated: upstream's view with a negative bit, which
  // this library does not have, so here a new tensor
  return self.is_conj() ? neg(part) : part;
}

// PyTorch's lazy conjugate: a view of the same memory with the conjugate bit flipped (TensorImpl::conj), for
// complex inputs; self itself for real ones (as upstream; the binding then records nothing).
Tensor conj(const Tensor& self) {
  if (!is_complex(self.dtype())) return self;
  Tensor view = alias(self);
  view.impl()->conj = !self.is_conj();
  return view;
}

bool is_conj(const Tensor& self) { return self.is_conj(); }

Tensor resolve_conj(const Tensor& self) {
  return self.is_conj() ? run_part(physical(self), ComplexPart::Conj) : self;
}

Tensor conj_physical(const Tensor& self) {
  if (!is_complex(self.dtype())) return clone(self);
  // the conjugate of a conjugate view's values is its memory
  return self.is_conj() ? clone(physical(self)) : run_part(self, ComplexPart::Conj);
}

Tensor complex_abs(const Tensor& self) { return run_part(self, ComplexPart::Abs); }

Tensor angle(const Tensor& self) {
  if (is_complex(self.dtype())) return run_part(self, ComplexPart::Angle);
  // a real number's argument: pi for the negative ones, 0 for the rest, NaN kept
  const Tensor x = is_integral(self.dtype(), true) ? to_dtype(self, get_default_dtype()) : self;
  const Tensor zero = zeros_like(x, std::nullopt, std::nullopt);
  const Tensor angle = where(lt(x, zero), wrap_number(Scalar(3.14159265358979323846)), zero);
  return where(ne(x, x), x, angle);
}

Tensor complex_from_parts(const Tensor& real, const Tensor& imag) {
  const ScalarType a = real.dtype(), b = imag.dtype();
  TH_CHECK(is_floating_point(a) && is_floating_point(b),
           "Expected both inputs to be Half, Float or Double tensors but got ", scalar_type_cpp_name(a),
           " and ", scalar_type_cpp_name(b));
  TH_CHECK(a == b, "Expected object of scalar type ", scalar_type_cpp_name(a), " but got scalar type ",
           scalar_type_cpp_name(b), " for second argument");
  TH_CHECK(real.device() == imag.device(),
           "Expected all tensors to be on the same device, but found at least two devices, ",
           real.device().str(), " and ", imag.device().str(), "!");
  Tensor out = empty_tensor(broadcast_shapes(real.sizes(), imag.sizes()), to_complex_type(a), real.device());
  Tensor parts = view_as_real(out);
  Tensor re = select(parts, -1, 0), im = select(parts, -1, 1);
  copy_(re, real);
  copy_(im, imag);
  return out;
}

}  // namespace th
