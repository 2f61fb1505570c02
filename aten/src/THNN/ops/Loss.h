#pragma once
// The loss family's kernels (nll_loss, which cross_entropy builds on, and the elementwise losses):
// ops/Loss.cpp, cpu/LossKernels.cpp, THCUNN/LossKernels.cu.
#include <TH/Dispatch.h>
#include <TH/Tensor.h>
#include <TH/TensorIterator.h>

#include "../math/Loss.h"

namespace th {

/// Per sample i of the contiguous [N, C] `input` and int64 [N] `target`: loss[i] = -w[t] * input[i, t] and
/// weight_out[i] = w[t] (w = `weight`, contiguous [C], or 1 if undefined), both 0 where t == ignore_index.
/// loss and weight_out are contiguous [N] of input's dtype. A target outside [0, C) that is not
/// ignore_index raises "Target t is out of bounds." (on CUDA after the kernel, through a flag).
using nll_loss_fn = void(const Tensor& input, const Tensor& target, const Tensor& weight, const Tensor& loss,
                         const Tensor& weight_out, int64_t ignore_index);
/// grad_input (contiguous [N, C], zero on entry)[i, t] = -w[t] * grad[i] for every sample whose target t is
/// not ignore_index; grad is contiguous [N] of grad_input's dtype.
using nll_loss_backward_fn = void(const Tensor& grad, const Tensor& target, const Tensor& weight,
                                  const Tensor& grad_input, int64_t ignore_index);

/// loss = f(input, target) over an iterator (input, target) in its floating dtype
/// (math::PointwiseLossForward).
using pointwise_loss_fn = void(TensorIterator& iter, math::PointwiseLoss op, double p);
/// grad = g * d loss / d input (or / d target) over an iterator (g, input, target)
/// (math::PointwiseLossBackward).
using pointwise_loss_backward_fn = void(TensorIterator& iter, math::PointwiseLoss op, double p,
                                        bool wrt_target);

/// CTC per sample n (of log_probs [T, N, C], any strides): nll[n] and log_alpha[n] ([T, 2 S + 1] of [N, T, 2
/// S + 1], the math type) for the target at targets[offsets[n] ...] of target_lengths[n] labels over
/// input_lengths[n] steps (int64 tensors on log_probs' device).
using ctc_loss_fn = void(const Tensor& log_probs, const Tensor& targets, const Tensor& offsets,
                         const Tensor& input_lengths, const Tensor& target_lengths, int64_t blank,
                         const Tensor& nll, const Tensor& log_alpha);
/// The gradient of sum(grad[n] * nll[n]) with respect to log_probs into grad_log_probs (like log_probs,
/// contiguous), with beta [N, T, 2 S + 1] scratch.
using ctc_loss_backward_fn = void(const Tensor& grad, const Tensor& log_probs, const Tensor& targets,
                                  const Tensor& offsets, const Tensor& input_lengths,
                                  const Tensor& target_lengths, int64_t blank, const Tensor& nll,
                                  const Tensor& log_alpha, const Tensor& beta, const Tensor& grad_log_probs,
                                  bool zero_infinity);

TH_DECLARE_STUB(nll_loss_fn, nll_loss_stub);
TH_DECLARE_STUB(ctc_loss_fn, ctc_loss_stub);
TH_DECLARE_STUB(ctc_loss_backward_fn, ctc_loss_backward_stub);
TH_DECLARE_STUB(pointwise_loss_fn, pointwise_loss_stub);
TH_DECLARE_STUB(pointwise_loss_backward_fn, pointwise_loss_backward_stub);
TH_DECLARE_STUB(nll_loss_backward_fn, nll_loss_backward_stub);

}  // namespace th
