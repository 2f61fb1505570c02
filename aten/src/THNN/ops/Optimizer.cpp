// Entry points of the optimizer family: _fused_adam_, _fused_sgd_ and _fused_<name>_ for RMSprop, Adagrad,
// Adadelta, Adamax, NAdam and RAdam update every parameter of a group in
// one call (one kernel pass per parameter on each device, no per-op Python), as PyTorch's fused optimizers;
// torch.optim takes this path under no_grad when every tensor of the group is contiguous, floating and on one
// device, and its Python update otherwise (the same formula, tests/optim checks both step for step).
#include <cmath>

#include <TH/Functions.h>

#include "../Functions.h"
#include "Optimizer.h"

namespace th {

TH_DEFINE_STUB(adam_fn, adam_stub);
TH_DEFINE_STUB(sgd_fn, sgd_stub);
TH_DEFINE_STUB(fused_step_fn, fused_step_stub);

namespace {

/// Every list has params.size() tensors (or is empty where `optional`), each contiguous, floating, of the
/// parameter's dtype, device and size.
void check_lists(const char* op, const std::vector<Tensor>& params,
                 std::initializer_list<std::pair<const std::vector<Tensor>*, bool>> lists) {
  for (const auto& [list, optional] : lists) {
    TH_CHECK(list->size() == params.size() || (optional && list->empty()), op,
             ": every tensor list must have one tensor per parameter");
    for (size_t i = 0; i < list->size(); ++i) {
      const Tensor& t = (*list)[i];
      const Tensor& p = params[i];
      TH_CHECK(
          is_floating_point(p.dtype()) && t.dtype() == p.dtype() && t.device() == p.device() &&
              t.numel() == p.numel() && t.is_contiguous() && p.is_contiguous() &&
              p.device() == params[0].device() && p.dtype() == params[0].dtype(),
          op,
          ": expects contiguous floating tensors of one dtype and device, each the size of its parameter");
    }
  }
}

void bump(const std::vector<Tensor>& list) {
  for (const Tensor& t : list) t.bump_version();
}

}  // namespace

std::vector<Tensor> _fused_adam_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                 const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                                 const std::vector<Tensor>& max_exp_avg_sqs, double lr, double beta1,
                                 double beta2, double weight_decay, double eps, double step, bool amsgrad,
                                 bool maximize, bool decoupled_weight_decay) {
  check_lists("_fused_adam_", params,
              {{&grads, false}, {&exp_avgs, false}, {&exp_avg_sqs, false}, {&max_exp_avg_sqs, !amsgrad}});
  if (params.empty()) return params;
  const math::AdamStep s{lr,
                         beta1,
                         beta2,
                         weight_decay,
                         eps,
                         1 - std::pow(beta1, step),
                         std::sqrt(1 - std::pow(beta2, step)),
                         amsgrad,
                         maximize,
                         decoupled_weight_decay};
  adam_stub[params[0].device().type](params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, s);
  for (const auto* list : {&params, &exp_avgs, &exp_avg_sqs, &max_exp_avg_sqs}) bump(*list);
  return params;
}

std::vector<Tensor> _fused_sgd_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                const std::vector<Tensor>& momentum_buffers, double lr, double momentum,
                                double dampening, double weight_decay, bool nesterov, bool maximize) {
  check_lists("_fused_sgd_", params, {{&grads, false}, {&momentum_buffers, momentum == 0}});
  TH_CHECK(momentum == 0 || !momentum_buffers.empty(), "_fused_sgd_: momentum needs a buffer per parameter");
  if (params.empty()) return params;
  sgd_stub[params[0].device().type](params, grads, momentum_buffers,
                                    math::SgdStep{lr, momentum, dampening, weight_decay, nesterov, maximize});
  bump(params);
  bump(momentum_buffers);
  return params;
}

namespace {

/// Checks the lists and runs one fused step of `kind`; the tensors it wrote get a new version.
std::vector<Tensor> fused_step(const char* op, math::FusedOptimizer kind, const std::vector<Tensor>& params,
                               const std::vector<Tensor>& grads, const std::vector<Tensor>& s1,
                               bool s1_optional, const std::vector<Tensor>& s2, bool s2_optional,
                               const std::vector<Tensor>& s3, bool s3_optional, const math::FusedStep& step) {
  check_lists(op, params, {{&grads, false}, {&s1, s1_optional}, {&s2, s2_optional}, {&s3, s3_optional}});
  if (params.empty()) return params;
  fused_step_stub[params[0].device().type](kind, params, grads, s1, s2, s3, step);
  for (const auto* list : {&params, &s1, &s2, &s3}) bump(*list);
  return params;
}

const std::vector<Tensor> kNone;

}  // namespace

std::vector<Tensor> _fused_rmsprop_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                    const std::vector<Tensor>& square_avgs,
                                    const std::vector<Tensor>& grad_avgs,
                                    const std::vector<Tensor>& momentum_buffers, double lr, double alpha,
                                    double eps, double weight_decay, double momentum, bool centered,
                                    bool maximize) {
  math::FusedStep s{lr, weight_decay, eps};
  s.a = alpha, s.b = momentum, s.flag = centered, s.maximize = maximize;
  return fused_step("_fused_rmsprop_", math::FusedOptimizer::RMSprop, params, grads, square_avgs, false,
                    grad_avgs, !centered, momentum_buffers, momentum == 0, s);
}

std::vector<Tensor> _fused_adagrad_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                    const std::vector<Tensor>& state_sums, double lr, double weight_decay,
                                    double lr_decay, double eps, double step, bool maximize) {
  math::FusedStep s{lr, weight_decay, eps};
  s.a = lr / (1 + (step - 1) * lr_decay), s.maximize = maximize;
  return fused_step("_fused_adagrad_", math::FusedOptimizer::Adagrad, params, grads, state_sums, false, kNone,
                    true, kNone, true, s);
}

std::vector<Tensor> _fused_adadelta_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                     const std::vector<Tensor>& square_avgs,
                                     const std::vector<Tensor>& acc_deltas, double lr, double rho, double eps,
                                     double weight_decay, bool maximize) {
  math::FusedStep s{lr, weight_decay, eps};
  s.a = rho, s.maximize = maximize;
  return fused_step("_fused_adadelta_", math::FusedOptimizer::Adadelta, params, grads, square_avgs, false,
                    acc_deltas, false, kNone, true, s);
}

std::vector<Tensor> _fused_adamax_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                   const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_infs,
                                   double lr, double beta1, double beta2, double eps, double weight_decay,
                                   double step, bool maximize) {
  math::FusedStep s{lr, weight_decay, eps};
  s.a = beta1, s.b = beta2, s.c = lr / (1 - std::pow(beta1, step)), s.maximize = maximize;
  return fused_step("_fused_adamax_", math::FusedOptimizer::Adamax, params, grads, exp_avgs, false, exp_infs,
                    false, kNone, true, s);
}

std::vector<Tensor> _fused_nadam_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                  const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                                  double lr, double beta1, double beta2, double eps, double weight_decay,
                                  double mu, double mu_next, double mu_product, double step,
                                  bool decoupled_weight_decay, bool maximize) {
  math::FusedStep s{lr, weight_decay, eps};
  s.a = beta1, s.b = beta2, s.c = 1 - std::pow(beta2, step);
  s.d = -lr * (1.0 - mu) / (1.0 - mu_product);
  s.e = -lr * mu_next / (1.0 - mu_product * mu_next);
  s.decoupled = decoupled_weight_decay, s.maximize = maximize;
  return fused_step("_fused_nadam_", math::FusedOptimizer::NAdam, params, grads, exp_avgs, false, exp_avg_sqs,
                    false, kNone, true, s);
}

std::vector<Tensor> _fused_radam_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                  const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                                  double lr, double beta1, double beta2, double eps, double weight_decay,
                                  double step, bool decoupled_weight_decay, bool maximize) {
  math::FusedStep s{lr, weight_decay, eps};
  const double bc1 = 1 - std::pow(beta1, step), bc2 = 1 - std::pow(beta2, step);
  const double rho_inf = 2 / (1 - beta2) - 1, rho_t = rho_inf - 2 * step * std::pow(beta2, step) / bc2;
  s.a = beta1, s.b = beta2, s.c = bc1, s.d = std::sqrt(bc2);
  s.flag = rho_t > 5.0;
  s.e =
      s.flag ? std::sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) : 0.0;
  s.decoupled = decoupled_weight_decay, s.maximize = maximize;
  return fused_step("_fused_radam_", math::FusedOptimizer::RAdam, params, grads, exp_avgs, false, exp_avg_sqs,
                    false, kNone, true, s);
}

}  // namespace th
