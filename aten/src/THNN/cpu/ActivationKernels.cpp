// CPU kernels of the activation family: math/Activation.h's functors over cpu_kernel; GELU and SiLU of float
// rows with their erf / tanh / exp / sigmoid a block at a time on TH's vectorized kernels (VecKernels.h).
#include <TH/Parallel.h>
#include <TH/cpu/Loops.h>
#include <TH/cpu/VecKernels.h>

#include "../ops/Activation.h"

namespace th {
namespace {

constexpr int64_t kBlock = 256;

/// out[0, n) = op(x[0, n)) (forward, grad == nullptr) or grad * op'(x) (backward), float, a block at a time:
/// the transcendental parts in bulk on `vec`, the rest through math::act's formulas.
void activation_run(math::ActivationOp op, cpu::vec_unary_fn vec, const float* grad, const float* x,
                    float* out, int64_t n) {
  using cpu::VecUnary;
  float t[kBlock], e[kBlock];
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t m = std::min(kBlock, n - b);
    const float* xb = x + b;
    float* ob = out + b;
    switch (op) {
      case math::ActivationOp::GeluErf:
        if (!grad) {  // gelu_erf(x, erf(gelu_erf_arg(x))) in one vectorized pass (the same operations)
          vec(VecUnary::GeluErf, xb, ob, m);
          break;
        }
        for (int64_t i = 0; i < m; ++i) t[i] = math::act::gelu_erf_arg(xb[i]);
        vec(VecUnary::Erf, t, t, m);
        for (int64_t i = 0; i < m; ++i) e[i] = math::act::gelu_exp_arg(xb[i]);
        vec(VecUnary::Exp, e, e, m);
        for (int64_t i = 0; i < m; ++i) ob[i] = math::act::gelu_erf_backward(grad[b + i], xb[i], t[i], e[i]);
        break;
      case math::ActivationOp::GeluTanh:
        for (int64_t i = 0; i < m; ++i) t[i] = math::act::gelu_tanh_arg(xb[i]);
        vec(VecUnary::Tanh, t, t, m);
        if (grad)
          for (int64_t i = 0; i < m; ++i) ob[i] = math::act::gelu_tanh_backward(grad[b + i], xb[i], t[i]);
        else
          for (int64_t i = 0; i < m; ++i) ob[i] = math::act::gelu_tanh(xb[i], t[i]);
        break;
      default:  // Silu
        vec(VecUnary::Sigmoid, xb, t, m);
        if (grad)
          for (int64_t i = 0; i < m; ++i) ob[i] = math::act::silu_backward(grad[b + i], xb[i], t[i]);
        else
          for (int64_t i = 0; i < m; ++i) ob[i] = math::act::silu(xb[i], t[i]);
    }
  }
}

/// GELU / SiLU (forward, or backward with the iterator's inputs (grad, x)) of float32 whose rows are dense:
/// activation_run over each row, rows in parallel. False where it does not apply.
bool vectorized_activation(TensorIterator& iter, math::ActivationOp op, bool backward) {
  const bool vectorizable = op == math::ActivationOp::GeluErf || op == math::ActivationOp::GeluTanh ||
                            op == math::ActivationOp::Silu;
  const cpu::vec_unary_fn vec = cpu::vec_unary();
  if (!vectorizable || !vec || iter.common_dtype() != ScalarType::Float) return false;
  for (int i = 0; i < iter.ntensors(); ++i)
    if (iter.dtype(i) != ScalarType::Float) return false;
  const int x_arg = backward ? 2 : 1;
  auto run = [&](char** data, int64_t n) {
    activation_run(op, vec, backward ? reinterpret_cast<const float*>(data[1]) : nullptr,
                   reinterpret_cast<const float*>(data[x_arg]), reinterpret_cast<float*>(data[0]), n);
  };
  if (iter.is_contiguous()) {
    char* data[3] = {static_cast<char*>(iter.data_ptr(0)), static_cast<char*>(iter.data_ptr(1)),
                     backward ? static_cast<char*>(iter.data_ptr(2)) : nullptr};
    parallel_for(iter.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
      char* at[3];
      for (int i = 0; i < 3; ++i) at[i] = data[i] ? data[i] + begin * int64_t(sizeof(float)) : nullptr;
      run(at, end - begin);
    });
    return true;
  }
  if (iter.ndim() == 0) return false;
  for (int i = 0; i < iter.ntensors(); ++i)
    if (iter.strides(i)[0] != int64_t(sizeof(float))) return false;
  iter.parallel_for_each([&](char** data, const int64_t*, int64_t n) { run(data, n); });
  return true;
}

void relu_kernel(TensorIterator& iter) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "relu_cpu",
                            [&] { cpu::cpu_kernel<scalar_t, 1>(iter, math::Relu<opmath_t<scalar_t>>{}); });
}

void threshold_kernel(TensorIterator& iter, const Scalar& threshold, const Scalar& value) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "threshold_cpu", [&] {
    using op_t = opmath_t<scalar_t>;
    cpu::cpu_kernel<scalar_t, 1>(iter, math::Threshold<op_t>{threshold.to<op_t>(), value.to<op_t>()});
  });
}

void threshold_backward_kernel(TensorIterator& iter, const Scalar& threshold) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "threshold_backward_cpu", [&] {
    using op_t = opmath_t<scalar_t>;
    cpu::cpu_kernel<scalar_t, 2>(iter, math::ThresholdBackward<op_t>{threshold.to<op_t>()});
  });
}

void output_backward_kernel(TensorIterator& iter, math::OutputBackward op) {
  math::with_output_backward(op, [&](auto f) {
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "output_backward_cpu",
                               [&] { cpu::cpu_kernel<scalar_t, 2>(iter, f); });
  });
}

void activation_kernel(TensorIterator& iter, math::ActivationOp op, math::ActivationParams params) {
  if (vectorized_activation(iter, op, false)) return;
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "activation_cpu", [&] {
    cpu::cpu_kernel<scalar_t, 1>(iter, math::ActivationForward{op, params});
  });
}

void activation_backward_kernel(TensorIterator& iter, math::ActivationOp op, math::ActivationParams params) {
  if (vectorized_activation(iter, op, true)) return;
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "activation_backward_cpu", [&] {
    cpu::cpu_kernel<scalar_t, 2>(iter, math::ActivationBackward{op, params});
  });
}

void activation2_kernel(TensorIterator& iter, math::Activation2Op op) {
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "activation2_cpu", [&] {
    if (iter.ntensors() == 3)
      cpu::cpu_kernel<scalar_t, 2>(iter, math::Activation2Forward{op});
    else
      cpu::cpu_kernel<scalar_t, 3>(iter, math::Activation2Backward{op});
  });
}

}  // namespace

TH_REGISTER_KERNEL(activation_stub, CPU, activation_kernel);
TH_REGISTER_KERNEL(activation2_stub, CPU, activation2_kernel);
TH_REGISTER_KERNEL(activation_backward_stub, CPU, activation_backward_kernel);
TH_REGISTER_KERNEL(output_backward_stub, CPU, output_backward_kernel);
TH_REGISTER_KERNEL(relu_stub, CPU, relu_kernel);
TH_REGISTER_KERNEL(threshold_stub, CPU, threshold_kernel);
TH_REGISTER_KERNEL(threshold_backward_stub, CPU, threshold_backward_kernel);

}  // namespace th
