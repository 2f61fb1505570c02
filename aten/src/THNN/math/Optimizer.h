#pragma once
// Scalar math of the fused optimizer steps (Adam/AdamW, SGD), one parameter element at a time, written once
// for the CPU and CUDA kernels. Each equals the documented per-parameter formula of torch.optim (the
// Python update in torch/optim/<name>.py), computed in opmath_t.
#include <cmath>

#include <TH/Half.h>
#include <TH/Macros.h>

namespace th::math {

/// Adam's options for one step (bias corrections computed on the host from the step count).
struct AdamStep {
  double lr, beta1, beta2, weight_decay, eps;
  double bias_correction1, bias_correction2_sqrt;
  bool amsgrad, maximize, decoupled;  // decoupled: AdamW's weight decay
};

/// One element of an Adam/AdamW step: param, exp_avg, exp_avg_sq (and max_exp_avg_sq with amsgrad) updated.
template <typename T, typename A = opmath_t<T>>
TH_HOST_DEVICE void adam_element(T& param, T grad, T& exp_avg, T& exp_avg_sq, T* max_exp_avg_sq,
                                 const AdamStep& o) {
  A p = A(param), g = o.maximize ? -A(grad) : A(grad);
  if (o.weight_decay != 0) {
    if (o.decoupled) {
      p *= A(1 - o.lr * o.weight_decay);
    } else {
      g += A(o.weight_decay) * p;
    }
  }
  const A m = A(exp_avg) + A(1 - o.beta1) * (g - A(exp_avg));  // lerp(exp_avg, g, 1 - beta1)
  const A v = A(exp_avg_sq) * A(o.beta2) + A(1 - o.beta2) * (g * g);
  A second = v;
  if (max_exp_avg_sq) {  // amsgrad
    const A prev = A(*max_exp_avg_sq);
    second = prev > v ? prev : v;
    *max_exp_avg_sq = T(second);
  }
  const A denom = std::sqrt(second) / A(o.bias_correction2_sqrt) + A(o.eps);
  exp_avg = T(m);
  exp_avg_sq = T(v);
  param = T(p - A(o.lr / o.bias_correction1) * (m / denom));
}

/// SGD's options for one step (with momentum, every parameter already has its buffer).
struct SgdStep {
  double lr, momentum, dampening, weight_decay;
  bool nesterov, maximize;
};

/// One element of an SGD step: param (and the momentum buffer, if momentum) updated.
template <typename T, typename A = opmath_t<T>>
TH_HOST_DEVICE void sgd_element(T& param, T grad, T* buf, const SgdStep& o) {
  const A p = A(param);
  A g = o.maximize ? -A(grad) : A(grad);
  if (o.weight_decay != 0) g += A(o.weight_decay) * p;
  if (o.momentum != 0) {
    const A b = A(*buf) * A(o.momentum) + A(1 - o.dampening) * g;
    *buf = T(b);
    g = o.nesterov ? g + A(o.momentum) * b : b;
  }
  param = T(p - A(o.lr) * g);
}

}  // namespace th::math
