// where (one ternary kernel per device) and clamp (maximum / minimum with Python-number bounds).
#include "../Functions.h"
#include "../Kernels.h"

namespace th {

TH_DEFINE_STUB(where_fn, where_stub);

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  TH_CHECK(condition.dtype() == ScalarType::Bool || condition.dtype() == ScalarType::Byte,
           "where expected condition to be a boolean tensor, but got a tensor with dtype ",
           scalar_type_name(condition.dtype()));
  ScalarType t = result_type({self, other});
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(Tensor())
                            .add_input(condition)
                            .add_input(self)
                            .add_input(other)
                            .common_dtype(t)
                            .build();
  where_stub[iter.device().type](iter);
  return iter.output();
}

namespace {
Tensor& clamp_into(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                   const std::optional<Scalar>& max, bool inplace) {
  TH_CHECK(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  Tensor r = self;
  if (min) r = maximum(r, wrap_number(*min));
  if (max) r = minimum(r, wrap_number(*max));
  if (!inplace) return out = r.is_same(self) ? clone(self) : r;
  copy_(out, r);
  return out;
}
}  // namespace

Tensor clamp(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  Tensor out;
  return clamp_into(out, self, min, max, false);
}

Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return clamp_into(self, self, min, max, true);
}

}  // namespace th
