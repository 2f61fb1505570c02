// Entry points of the optimizer family: _fused_adam_ and _fused_sgd_ update every parameter of a group in
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

}  // namespace th
