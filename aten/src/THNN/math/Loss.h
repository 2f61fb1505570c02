#pragma once
// Scalar math of the losses, written once for the CPU and CUDA kernels.
#include <cmath>
#include <cstdint>

#include <TH/Half.h>
#include <TH/Macros.h>

namespace th::math {

/// One sample of nll_loss: (loss, weight) = (-w * x[t], w) with w the class weight (1 without weights),
/// (0, 0) for an ignored target. `bad` is set for a target outside [0, C).
template <typename T>
TH_HOST_DEVICE void nll_loss_sample(const T* row, int64_t t, const T* weight, int64_t C, int64_t ignore_index,
                                    T& loss, T& w, bool& bad) {
  if (t == ignore_index) {
    loss = T(0);
    w = T(0);
    return;
  }
  if (t < 0 || t >= C) {
    bad = true;
    loss = T(0);
    w = T(0);
    return;
  }
  w = weight ? weight[t] : T(1);
  loss = T(-(opmath_t<T>(w) * opmath_t<T>(row[t])));
}

/// The elementwise losses of torch.nn.functional (p: huber's delta, smooth_l1's beta).
enum class PointwiseLoss { L1, Mse, Huber, SmoothL1, Bce, BceWithLogits, KlDiv, KlDivLogTarget };

/// loss(x, t) of one element, PyTorch's formulas (bce's logs clamped at -100; kl_div's 0 * log 0 = 0).
struct PointwiseLossForward {
  PointwiseLoss op;
  double p;
  template <typename A>
  TH_HOST_DEVICE A operator()(A x, A t) const {
    switch (op) {
      case PointwiseLoss::L1: return std::abs(x - t);
      case PointwiseLoss::Mse: return (x - t) * (x - t);
      case PointwiseLoss::Huber: {
        const A d = std::abs(x - t), delta = A(p);
        return d < delta ? A(0.5) * d * d : delta * (d - A(0.5) * delta);
      }
      case PointwiseLoss::SmoothL1: {
        const A d = std::abs(x - t), beta = A(p);
        return beta == A(0) ? d : (d < beta ? A(0.5) * d * d / beta : d - A(0.5) * beta);
      }
      case PointwiseLoss::Bce: {
        const A lx = std::log(x) < A(-100) ? A(-100) : std::log(x);
        const A l1x = std::log1p(-x) < A(-100) ? A(-100) : std::log1p(-x);
        return (t - A(1)) * l1x - t * lx;
      }
      case PointwiseLoss::BceWithLogits:  // (1 - t) x - log_sigmoid(x), rounded in upstream's order
        return (A(1) - t) * x - ((x < A(0) ? x : A(0)) - std::log1p(std::exp(-std::abs(x))));
      case PointwiseLoss::KlDiv: return (t == A(0) ? A(0) : t * std::log(t)) - t * x;
      case PointwiseLoss::KlDivLogTarget: return std::exp(t) * (t - x);
    }
    return x;
  }
};

/// The gradient of one element's loss times g: with respect to the input x, or (wrt_target) to the target t.
struct PointwiseLossBackward {
  PointwiseLoss op;
  double p;
  bool wrt_target;
  template <typename A>
  TH_HOST_DEVICE A operator()(A g, A x, A t) const {
    const A d = x - t, sign = d > A(0) ? A(1) : (d < A(0) ? A(-1) : A(0));
    A dx = 0;
    switch (op) {
      case PointwiseLoss::L1: dx = sign; break;
      case PointwiseLoss::Mse: dx = A(2) * d; break;
      case PointwiseLoss::Huber: dx = d <= -A(p) ? -A(p) : (d >= A(p) ? A(p) : d); break;
      case PointwiseLoss::SmoothL1: dx = std::abs(d) < A(p) ? d / A(p) : sign; break;
      case PointwiseLoss::Bce: {
        if (wrt_target) return g * (std::log1p(-x) - std::log(x));  // unclamped, as upstream
        const A denom = (A(1) - x) * x;
        return g * d / (denom > A(1e-12) ? denom : A(1e-12));
      }
      case PointwiseLoss::BceWithLogits: return g * (wrt_target ? -x : A(1) / (A(1) + std::exp(-x)) - t);
      case PointwiseLoss::KlDiv:
        return g * (wrt_target ? std::log(t) + t / t - x : -t);  // xlogy's: NaN at t = 0
      case PointwiseLoss::KlDivLogTarget: return g * std::exp(t) * (wrt_target ? t - x + A(1) : A(-1));
    }
    return g * (wrt_target ? -dx : dx);  // the difference losses: d/dt = -d/dx
  }
};

}  // namespace th::math
