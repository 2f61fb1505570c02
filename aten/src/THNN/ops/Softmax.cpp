// Entry points of the softmax family: _softmax / _log_softmax and their backward (PyTorch's names;
// torch.softmax and Tensor.softmax are composites over them in torch/_refs/reductions.py). The input is
// made contiguous and seen as [outer, n, inner] around the dim.
#include <TH/Functions.h>

#include "../Functions.h"
#include "Softmax.h"

namespace th {

TH_DEFINE_STUB(softmax_fn, softmax_stub);
TH_DEFINE_STUB(softmax_backward_fn, softmax_backward_stub);

namespace {

struct Lines {
  int64_t outer = 1, n = 1, inner = 1;
};

/// self's elements as [outer, n, inner] around dim `d` (a 0-dim tensor is one line of one element).
Lines lines_of(const Tensor& self, int64_t d) {
  Lines l;
  for (int64_t k = 0; k < d; ++k) l.outer *= self.size(k);
  if (self.dim() > 0) l.n = self.size(d);
  for (int64_t k = d + 1; k < self.dim(); ++k) l.inner *= self.size(k);
  return l;
}

Tensor softmax_forward(const Tensor& self, int64_t dim, bool half_to_float, bool log, const char* name) {
  TH_CHECK(is_floating_point(self.dtype()), "\"", name, "\" not implemented for '",
           scalar_type_name(self.dtype()), "'");
  TH_CHECK(!half_to_float || is_reduced_floating_point(self.dtype()),
           "conversion is supported for Half and BFloat16 types only");
  const int64_t d = wrap_dim(dim, self.dim());
  const Tensor in = contiguous(half_to_float ? to_dtype(self, ScalarType::Float) : self);
  Tensor out = empty_tensor(self.sizes(), in.dtype(), self.device());
  if (self.numel() == 0) return out;
  const Lines l = lines_of(in, d);
  softmax_stub[in.device().type](in, out, l.outer, l.n, l.inner, log);
  return out;
}

Tensor softmax_backward(const Tensor& grad_output, const Tensor& output, int64_t dim, ScalarType input_dtype,
                        bool log) {
  TH_CHECK(grad_output.sizes() == output.sizes(), "grad_output and output must have the same shape");
  TH_CHECK(grad_output.device() == output.device(), "grad_output and output must be on the same device");
  const int64_t d = wrap_dim(dim, output.dim());
  const Tensor y = contiguous(output);
  const Tensor g = contiguous(to_dtype(grad_output, y.dtype()));
  Tensor grad_in = empty_tensor(y.sizes(), y.dtype(), y.device());
  if (y.numel() > 0) {
    const Lines l = lines_of(y, d);
    softmax_backward_stub[y.device().type](g, y, grad_in, l.outer, l.n, l.inner, log);
  }
  return input_dtype == grad_in.dtype() ? grad_in : to_dtype(grad_in, input_dtype);
}

}  // namespace

Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_forward(self, dim, half_to_float, false, "softmax");
}

Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_forward(self, dim, half_to_float, true, "log_softmax");
}

Tensor _softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim,
                              ScalarType input_dtype) {
  return softmax_backward(grad_output, output, dim, input_dtype, false);
}

Tensor _log_softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim,
                                  ScalarType input_dtype) {
  return softmax_backward(grad_output, output, dim, input_dtype, true);
}

}  // namespace th
