// where (one ternary kernel per device) and clamp (maximum / minimum with Python-number bounds).
#include "Select.h"
#include "../Functions.h"

#include <cmath>
#include <limits>

namespace th {

TH_DEFINE_STUB(where_fn, where_stub);

namespace {
/// Checks that the Python number a wrapped-number tensor holds (a Bool, Long, UInt64, Double or
/// ComplexDouble one: wrap_number's) converts into `t` as fill_ converts it (Scalar::to, checked; no tensor
/// made). A number tensor of another dtype (scalar_tensor's: masked_fill's value) was converted checked when
/// it was made.
void check_number_fits(const Tensor& wrapped, ScalarType t) {
  if (wrapped.dtype() == t) return;
  const void* p = wrapped.data_ptr();
  Scalar value;
  switch (wrapped.dtype()) {
    case ScalarType::Bool: value = Scalar(*static_cast<const bool*>(p)); break;
    case ScalarType::Long: value = Scalar(*static_cast<const int64_t*>(p)); break;
    case ScalarType::UInt64: value = Scalar(*static_cast<const uint64_t*>(p)); break;
    case ScalarType::Double: value = Scalar(*static_cast<const double*>(p)); break;
    case ScalarType::ComplexDouble: value = Scalar(*static_cast<const complex<double>*>(p)); break;
    default: return;
  }
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(t, "where", [&] { (void)value.to<scalar_t>(); });
}
}  // namespace

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  TH_CHECK(condition.dtype() == ScalarType::Bool || condition.dtype() == ScalarType::Byte,
           "where expected condition to be a boolean tensor, but got a tensor with dtype ",
           scalar_type_name(condition.dtype()));
  ScalarType t = result_type({self, other});
  // a Python number becomes a tensor of the result dtype, checked as fill_ converts (upstream's Scalar
  // overloads: where(m, uint8, 300) raises, -1 is 255), except into the 16- and 8-bit floats, which
  // upstream converts unchecked (where(m, half, 1e300) is inf)
  if (element_size(t) > 2 || !is_floating_point(t))
    for (const Tensor* x : {&self, &other})
      if (x->impl()->wrapped_number) check_number_fits(*x, t);
  // upstream converts self and other into the result dtype itself (dense copies: their layouts decide) and
  // reads the condition as it is
  const auto cast = [&](const Tensor& x) {
    return x.dtype() == t || x.dim() == 0 ? x : to(x, x.device(), t, false, false);
  };
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(Tensor())
                            .add_input(condition)
                            .add_input(cast(self))
                            .add_input(cast(other))
                            .common_dtype(t)
                            .layout_as_given(true)
                            .build();
  where_stub[iter.device().type](iter);
  return iter.output();
}

namespace {
/// max(self, min) then min(., max), both in the dtype that promotes self with both bounds (weak
/// numbers), into which each bound converts checked (uint8 clamp(1, 300) raises, as in PyTorch).
Tensor clamp_value(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  TH_CHECK(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  std::vector<Tensor> operands{self};
  for (const auto& bound : {min, max})
    if (bound) operands.push_back(wrap_number(*bound));
  const ScalarType t = result_type(operands);
  TH_CHECK_T(NotImplementedError, !is_complex(t), "clamp is not supported for complex types");
  // both bounds and one of them NaN: upstream fills the result with NaN before it reads (or checks) the
  // other, so clip(int_tensor, min=nan, max=1e300) is float32 NaN, not the overflow of 1e300
  const auto nan = [](const std::optional<Scalar>& b) {
    return b->is_floating_point() && std::isnan(b->to<double>());
  };
  if (min && max && (nan(min) || nan(max)))
    return full_like(self, Scalar(std::numeric_limits<double>::quiet_NaN()), t, self.device());
  // upstream's CPU kernel reads the bounds at the dtype (checked), its CUDA kernel at opmath (float for
  // float16/bfloat16: clamp(max=1e5) of a CUDA half tensor is no change, a CPU one raises)
  const ScalarType read =
      self.device().type != DeviceType::CPU && is_reduced_floating_point(t) ? ScalarType::Float : t;
  Tensor r = self;
  if (min) r = maximum(r, scalar_tensor(*min, read));
  if (max) r = minimum(r, scalar_tensor(*max, read));
  return r;
}
}  // namespace

Tensor clamp(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  Tensor r = clamp_value(self, min, max);
  return r.is_same(self) ? clone(self) : r;
}

Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  Tensor r = clamp_value(self, min, max);
  TH_CHECK(can_cast(r.dtype(), self.dtype()), "result type ", scalar_type_cpp_name(r.dtype()),
           " can't be cast to the desired output type ", scalar_type_cpp_name(self.dtype()));
  copy_(self, r);
  return self;
}

/// clamp into `out`, which must have the result's dtype (PyTorch's clamp.out); resized if its shape differs.
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max) {
  Tensor r = clamp_value(self, min, max);
  TH_CHECK(out.dtype() == r.dtype(), "Found dtype ", scalar_type_cpp_name(out.dtype()), " but expected ",
           scalar_type_cpp_name(r.dtype()));
  if (out.sizes() != r.sizes()) resize_(out, r.sizes());
  copy_(out, r);
  return out;
}

}  // namespace th
