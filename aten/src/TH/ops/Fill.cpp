// fill_: writes one value into every element (any layout, any device).
#include "Fill.h"
#include "../Functions.h"

namespace th {

TH_DEFINE_STUB(fill_fn, fill_stub);

Tensor& fill_(Tensor& self, const Scalar& value) {
  if (self.is_conj()) {  // a conjugate view: its memory holds the conjugate of what it reads as
    Tensor target = physical(self);
    const complex<double> z = value.to_complex();
    fill_(target, value.is_complex() ? Scalar(complex<double>(z.re, -z.im)) : value);
    return self;
  }
  const ScalarType t = self.dtype();
  if (self.device().type == DeviceType::CPU && self.numel() == 1 && !value.is_complex() &&
      is_floating_point(t) && element_size(t) <= 2) {
    // upstream fills one CPU element of a 16- or 8-bit float without the range check (its scalar_fill:
    // torch.full((1,), 1e6, dtype=torch.float16) is inf, (2,) raises): the number is rounded as a copy rounds
    return copy_(self, wrap_number(value));
  }
  // upstream's fill_ skips the internal-overlap check: an expanded tensor (stride 0) is filled through
  // the view that keeps one element per memory location, which writes every location it shares
  Tensor target = self;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (self.strides()[d] == 0 && self.sizes()[d] > 1) target = narrow(target, d, 0, 1);
  TensorIterator iter = TensorIteratorConfig().add_output(target).build();
  fill_stub[iter.device().type](iter, value);
  return self;
}

}  // namespace th
