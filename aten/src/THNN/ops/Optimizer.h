#pragma once
// The optimizer family's kernels (fused Adam/AdamW and SGD steps, math/Optimizer.h): ops/Optimizer.cpp,
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

TH_DECLARE_STUB(adam_fn, adam_stub);
TH_DECLARE_STUB(sgd_fn, sgd_stub);

}  // namespace th
