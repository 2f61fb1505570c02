// Entry points of the dropout family: native_dropout (output and the mask it kept, in one pass) and its
// backward (PyTorch's names). torch.nn.functional.dropout calls them; the feature dropouts, whose masks
// are broadcast over whole channels, stay composites of torch.rand.
#include <TH/Functions.h>
#include <TH/Generator.h>

#include "../Functions.h"
#include "Dropout.h"

namespace th {

TH_DEFINE_STUB(dropout_fn, dropout_stub);

std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train) {
  TH_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  TH_CHECK(is_floating_point(input.dtype()), "result type ", scalar_type_name(input.dtype()),
           " can't be cast to the desired output type Bool");
  if (train.has_value() && !*train) {  // eval: the input (a copy), every element kept
    Tensor mask = empty_tensor(input.sizes(), ScalarType::Bool, input.device());
    if (mask.numel() > 0) fill_(mask, Scalar(true));
    return {clone(input), mask};
  }
  const Tensor x = contiguous(input);
  Tensor out = empty_tensor(input.sizes(), input.dtype(), input.device());
  Tensor mask = empty_tensor(input.sizes(), ScalarType::Bool, input.device());
  if (x.numel() == 0) return {out, mask};
  Generator g = default_generator(input.device());
  const uint64_t offset = g.advance(static_cast<uint64_t>(x.numel()));
  const double scale = p == 1 ? 0.0 : 1.0 / (1.0 - p);
  dropout_stub[input.device().type](x, out, mask, p, scale, g.seed(), offset);
  return {out, mask};
}

Tensor native_dropout_backward(const Tensor& grad_output, const Tensor& mask, double scale) {
  TH_CHECK(mask.dtype() == ScalarType::Bool, "Mask should be Bool Scalar Type",
           scalar_type_name(mask.dtype()));
  return mul(mul(grad_output, mask), wrap_number(Scalar(scale)));
}

}  // namespace th
