// fill_: writes one value into every element (any layout, any device).
#include "Fill.h"
#include "../Functions.h"

namespace th {

TH_DEFINE_STUB(fill_fn, fill_stub);

Tensor& fill_(Tensor& self, const Scalar& value) {
  TensorIterator iter = TensorIteratorConfig().add_output(self).build();
  fill_stub[iter.device().type](iter, value);
  return self;
}

}  // namespace th
