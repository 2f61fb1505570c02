#pragma once
// The optimizer family's kernels (fused Adam/AdamW, SGD, RMSprop, Adagrad, Adadelta, Adamax, NAdam and RAdam
// steps, math/Optimizer.h): ops/Optimizer.cpp,
// cpu/OptimizerKernels.cpp, THCUNN/OptimizerKernels.cu. Every tensor of one call is contiguous, of one dtype
// and device, and the same size as its parameter.
#include <vector>

#include <TH/Dispatch.h>
#include <TH/Tensor.h>

#include "../math/Optimizer.h"

namespace th {

/// One Adam step over every parameter of the lists (max_exp_avg_sqs empty without amsgrad).
using adam_fn = void(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                     const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                     const std::vector<Tensor>& max_exp_avg_sqs, const math::AdamStep& step);
/// One SGD step over every parameter of the lists (momentum_buffers empty without momentum).
using sgd_fn = void(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                    const std::vector<Tensor>& momentum_buffers, const math::SgdStep& step);

/// One step of `kind` over every parameter of the lists (a state list is empty where the options leave it
/// out).
using fused_step_fn = void(math::FusedOptimizer kind, const std::vector<Tensor>& params,
                           const std::vector<Tensor>& grads, const std::vector<Tensor>& s1,
                           const std::vector<Tensor>& s2, const std::vector<Tensor>& s3,
                           const math::FusedStep& step);

TH_DECLARE_STUB(adam_fn, adam_stub);
TH_DECLARE_STUB(fused_step_fn, fused_step_stub);
TH_DECLARE_STUB(sgd_fn, sgd_stub);

}  // namespace th
