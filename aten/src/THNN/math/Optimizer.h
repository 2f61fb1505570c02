#pragma once
// Scalar math of the fused optimizer steps (Adam/AdamW, SGD), one parameter element at a time, written once
// for the CPU and CUDA kernels. Each equals the documented per-parameter formula of torch.optim (the
// Python update in torch/optim/<name>.py), computed in opmath_t.
#include <cmath>
#include <type_traits>

#include <TH/Half.h>
#include <TH/Macros.h>

namespace th::math {

/// Adam's options for one step (bias corrections computed on the host from the step count).
struct AdamStep {
  double lr, beta1, beta2, weight_decay, eps;
  double bias_correction1, bias_correction2_sqrt;
  bool amsgrad, maximize, decoupled;  // decoupled: AdamW's weight decay
};

/// The weight decay the Adam family and the fused steps apply first: the parameter shrunk by lr * decay
/// (decoupled, AdamW's) or decay * param added to the gradient (L2).
template <typename A>
TH_HOST_DEVICE void weight_decay(A& p, A& g, double lr, double decay, bool decoupled) {
  if (decay == 0) return;
  if (decoupled) {
    p *= A(1 - lr * decay);
  } else {
    g += A(decay) * p;
  }
}

/// One element of an Adam/AdamW step: param, exp_avg, exp_avg_sq (and max_exp_avg_sq with amsgrad) updated.
template <typename T, typename A = opmath_t<T>>
TH_HOST_DEVICE void adam_element(T& param, T grad, T& exp_avg, T& exp_avg_sq, T* max_exp_avg_sq,
                                 const AdamStep& o) {
  A p = A(param), g = o.maximize ? -A(grad) : A(grad);
  weight_decay(p, g, o.lr, o.weight_decay, o.decoupled);
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

/// The other optimizers of torch.optim with a fused step, their options and the per-step scalars the host
/// computes from the step count (named per optimizer below).
enum class FusedOptimizer { RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam };

struct FusedStep {
  double lr, weight_decay, eps;
  double a = 0, b = 0, c = 0, d = 0, e = 0;
  bool maximize = false, decoupled = false, flag = false;
};

/// One element of a step of optimizer K, the same operations in the same order as its Python update in
/// torch/optim/<name>.py (so the two agree step for step). s1, s2, s3: the optimizer's state elements
/// (nullptr where the options leave that state out). RMSprop:  a alpha, b momentum, flag centered; s1
/// square_avg, s2 grad_avg (centered), s3 momentum_buffer. Adagrad:  a the step's lr (lr / (1 + (step - 1)
/// lr_decay)); s1 state_sum. Adadelta: a rho; s1 square_avg, s2 acc_delta. Adamax:   a beta1, b beta2, c the
/// step's lr (lr / (1 - beta1^step)); s1 exp_avg, s2 exp_inf. NAdam:    a beta1, b beta2, c bias_correction2,
/// d and e the coefficients of grad / denom and exp_avg / denom;
///           s1 exp_avg, s2 exp_avg_sq.
/// RAdam:    a beta1, b beta2, c bias_correction1, d sqrt(bias_correction2), e the rectification (flag: rho_t
/// > 5);
///           s1 exp_avg, s2 exp_avg_sq.
template <FusedOptimizer K, typename T, typename A = opmath_t<T>>
TH_HOST_DEVICE void fused_element(T& param, T grad, T* s1, T* s2, T* s3, const FusedStep& o) {
  A p = A(param), g = o.maximize ? -A(grad) : A(grad);
  weight_decay(p, g, o.lr, o.weight_decay, o.decoupled);
  if constexpr (K == FusedOptimizer::RMSprop) {
    const A sa = A(*s1) * A(o.a) + A(1 - o.a) * (g * g);
    *s1 = T(sa);
    A avg;
    if (s2) {  // centered
      const A ga = A(*s2) + A(1 - o.a) * (g - A(*s2));
      *s2 = T(ga);
      avg = std::sqrt(sa - ga * ga);
    } else {
      avg = std::sqrt(sa);
    }
    avg += A(o.eps);
    if (s3) {  // momentum
      const A buf = A(*s3) * A(o.b) + g / avg;
      *s3 = T(buf);
      p += A(-o.lr) * buf;
    } else {
      p += A(-o.lr) * (g / avg);
    }
  } else if constexpr (K == FusedOptimizer::Adagrad) {
    const A ss = A(*s1) + g * g;
    *s1 = T(ss);
    p += A(-o.a) * (g / (std::sqrt(ss) + A(o.eps)));
  } else if constexpr (K == FusedOptimizer::Adadelta) {
    const A sa = A(*s1) * A(o.a) + A(1 - o.a) * (g * g);
    *s1 = T(sa);
    const A delta = std::sqrt(A(*s2) + A(o.eps)) / std::sqrt(sa + A(o.eps)) * g;
    *s2 = T(A(*s2) * A(o.a) + A(1 - o.a) * (delta * delta));
    p += A(-o.lr) * delta;
  } else if constexpr (K == FusedOptimizer::Adamax) {
    const A ea = A(*s1) + A(1 - o.a) * (g - A(*s1));
    const A decayed = A(*s2) * A(o.b), bound = (g < A(0) ? -g : g) + A(o.eps);
    const A ei = decayed > bound ? decayed : bound;
    *s1 = T(ea);
    *s2 = T(ei);
    p += A(-o.c) * (ea / ei);
  } else if constexpr (K == FusedOptimizer::NAdam) {
    const A ea = A(*s1) + A(1 - o.a) * (g - A(*s1));
    const A v = A(*s2) * A(o.b) + A(1 - o.b) * (g * g);
    *s1 = T(ea);
    *s2 = T(v);
    const A denom = std::sqrt(v / A(o.c)) + A(o.eps);
    p += A(o.d) * (g / denom);
    p += A(o.e) * (ea / denom);
  } else {  // RAdam
    const A ea = A(*s1) + A(1 - o.a) * (g - A(*s1));
    const A v = A(*s2) * A(o.b) + A(1 - o.b) * (g * g);
    *s1 = T(ea);
    *s2 = T(v);
    const A corrected = ea / A(o.c);
    if (o.flag) {
      const A adaptive = A(o.d) / (std::sqrt(v) + A(o.eps));
      p += -(corrected * A(o.lr) * adaptive * A(o.e));
    } else {
      p += -(corrected * A(o.lr));
    }
  }
  param = T(p);
}

template <FusedOptimizer K>
using FusedKind = std::integral_constant<FusedOptimizer, K>;

/// Calls f(FusedKind<K>{}) for `kind` (the one switch the CPU and CUDA kernels share).
template <typename F>
void with_fused_optimizer(FusedOptimizer kind, F&& f) {
  switch (kind) {
    case FusedOptimizer::RMSprop: return f(FusedKind<FusedOptimizer::RMSprop>{});
    case FusedOptimizer::Adagrad: return f(FusedKind<FusedOptimizer::Adagrad>{});
    case FusedOptimizer::Adadelta: return f(FusedKind<FusedOptimizer::Adadelta>{});
    case FusedOptimizer::Adamax: return f(FusedKind<FusedOptimizer::Adamax>{});
    case FusedOptimizer::NAdam: return f(FusedKind<FusedOptimizer::NAdam>{});
    case FusedOptimizer::RAdam: return f(FusedKind<FusedOptimizer::RAdam>{});
  }
}

}  // namespace th::math
