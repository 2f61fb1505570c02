// CPU kernels of the optimizer family: each parameter's elements in parallel (math/Optimizer.h).
#include <algorithm>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/Optimizer.h"

namespace th {
namespace {

template <typename T>
T* ptr(const Tensor& t) {
  return reinterpret_cast<T*>(t.data_ptr());
}

void adam_kernel(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                 const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                 const std::vector<Tensor>& max_exp_avg_sqs, const math::AdamStep& s) {
  TH_DISPATCH_FLOATING_TYPES(params[0].dtype(), "fused_adam_cpu", [&] {
    for (size_t i = 0; i < params.size(); ++i) {
      scalar_t *p = ptr<scalar_t>(params[i]), *g = ptr<scalar_t>(grads[i]), *m = ptr<scalar_t>(exp_avgs[i]),
               *v = ptr<scalar_t>(exp_avg_sqs[i]);
      scalar_t* vmax = s.amsgrad ? ptr<scalar_t>(max_exp_avg_sqs[i]) : nullptr;
      parallel_for(params[i].numel(), kGrainSize / 4, [&](int64_t begin, int64_t end) {
        for (int64_t k = begin; k < end; ++k)
          math::adam_element(p[k], g[k], m[k], v[k], vmax ? vmax + k : nullptr, s);
      });
    }
  });
}

void sgd_kernel(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                const std::vector<Tensor>& momentum_buffers, const math::SgdStep& s) {
  TH_DISPATCH_FLOATING_TYPES(params[0].dtype(), "fused_sgd_cpu", [&] {
    for (size_t i = 0; i < params.size(); ++i) {
      scalar_t *p = ptr<scalar_t>(params[i]), *g = ptr<scalar_t>(grads[i]);
      scalar_t* b = momentum_buffers.empty() ? nullptr : ptr<scalar_t>(momentum_buffers[i]);
      parallel_for(params[i].numel(), kGrainSize / 4, [&](int64_t begin, int64_t end) {
        for (int64_t k = begin; k < end; ++k) math::sgd_element(p[k], g[k], b ? b + k : nullptr, s);
      });
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(adam_stub, CPU, adam_kernel);
TH_REGISTER_KERNEL(sgd_stub, CPU, sgd_kernel);

}  // namespace th
