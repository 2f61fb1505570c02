// A user's op with a hand-written CPU kernel, forward and backward (tests/extensions/test_cpp_extension.py):
// swish(x) = x * sigmoid(x), d/dx = s + x * s * (1 - s).
#include <cmath>

#include <torch/extension.h>

namespace {

template <typename T>
void swish_forward(const T* x, T* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] / (T(1) + std::exp(-x[i]));
}

template <typename T>
void swish_backward(const T* g, const T* x, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    T s = T(1) / (T(1) + std::exp(-x[i]));
    out[i] = g[i] * (s + x[i] * s * (T(1) - s));
  }
}

void check(const torch::Tensor& t, const char* what) {
  TH_CHECK_T(th::TypeError, t.dtype() == th::ScalarType::Float || t.dtype() == th::ScalarType::Double,
             "swish: ", what, " must be float32 or float64");
  TH_CHECK_T(th::ValueError, t.device().is_cpu(), "swish: ", what, " must be on the CPU");
}

torch::Tensor forward(const torch::Tensor& input) {
  check(input, "input");
  torch::Tensor x = th::contiguous(input);
  torch::Tensor y = th::empty_like(x, std::nullopt, std::nullopt);
  if (x.dtype() == th::ScalarType::Float)
    swish_forward(reinterpret_cast<const float*>(x.data_ptr()), reinterpret_cast<float*>(y.data_ptr()),
                  x.numel());
  else
    swish_forward(reinterpret_cast<const double*>(x.data_ptr()), reinterpret_cast<double*>(y.data_ptr()),
                  x.numel());
  return y;
}

torch::Tensor backward(const torch::Tensor& grad, const torch::Tensor& input) {
  check(input, "input");
  TH_CHECK_T(th::ValueError, grad.sizes() == input.sizes(), "swish: grad and input differ in shape");
  torch::Tensor x = th::contiguous(input), g = th::contiguous(grad);
  torch::Tensor out = th::empty_like(x, std::nullopt, std::nullopt);
  if (x.dtype() == th::ScalarType::Float)
    swish_backward(reinterpret_cast<const float*>(g.data_ptr()), reinterpret_cast<const float*>(x.data_ptr()),
                   reinterpret_cast<float*>(out.data_ptr()), x.numel());
  else
    swish_backward(reinterpret_cast<const double*>(g.data_ptr()),
                   reinterpret_cast<const double*>(x.data_ptr()), reinterpret_cast<double*>(out.data_ptr()),
                   x.numel());
  return out;
}

}  // namespace

NB_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &forward, "swish(x) = x * sigmoid(x)");
  m.def("backward", &backward, "the gradient of swish at x, times grad");
}
