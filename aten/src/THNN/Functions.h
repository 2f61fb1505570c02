#pragma once
// THNN's op entry points: neural-network functions as forward/backward pairs.
#include <TH/Scalar.h>
#include <TH/Tensor.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace th {

/// max(x, 0) elementwise.
Tensor relu(const Tensor& self);
/// relu_ in place.
Tensor& relu_(Tensor& self);
/// Gradient of threshold/relu: grad_output where self > threshold, else 0.
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold);
/// Gradient of tanh from its output: grad_output * (1 - output^2), one fused kernel.
Tensor tanh_backward(const Tensor& grad_output, const Tensor& output);
/// Gradient of sigmoid from its output: grad_output * output * (1 - output), one fused kernel.
Tensor sigmoid_backward(const Tensor& grad_output, const Tensor& output);
/// softmax along dim (half_to_float: a float32 result from float16/bfloat16 input), one fused kernel.
Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float);
/// log_softmax along dim (x - max - log(sum(exp(x - max)))), one fused kernel.
Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float);
/// Gradient of softmax from its output: output * (grad_output - sum(grad_output * output)), in input_dtype.
Tensor _softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim,
                              ScalarType input_dtype);
/// Gradient of log_softmax from its output: grad_output - exp(output) * sum(grad_output), in input_dtype.
Tensor _log_softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim,
                                  ScalarType input_dtype);
/// nll_loss of [C] or [N, C] log-probabilities at int64 (or uint8) targets: (output, total_weight), with
/// reduction 0 none, 1 mean (divided by the summed class weights), 2 sum; ignore_index targets count 0.
std::tuple<Tensor, Tensor> _nll_loss_forward(const Tensor& self, const Tensor& target,
                                             const std::optional<Tensor>& weight, int64_t reduction,
                                             int64_t ignore_index);
/// Gradient of _nll_loss_forward's output with respect to self.
Tensor _nll_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                          const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                          const Tensor& total_weight);
/// One RMSprop / Adagrad / Adadelta / Adamax / NAdam / RAdam step of a parameter group, in place, in one call
/// per group (torch.optim's fused path); the same operations as the Python update of torch/optim/<name>.py.
std::vector<Tensor> _fused_rmsprop_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                    const std::vector<Tensor>& square_avgs,
                                    const std::vector<Tensor>& grad_avgs,
                                    const std::vector<Tensor>& momentum_buffers, double lr, double alpha,
                                    double eps, double weight_decay, double momentum, bool centered,
                                    bool maximize);
std::vector<Tensor> _fused_adagrad_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                    const std::vector<Tensor>& state_sums, double lr, double weight_decay,
                                    double lr_decay, double eps, double step, bool maximize);
std::vector<Tensor> _fused_adadelta_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                     const std::vector<Tensor>& square_avgs,
                                     const std::vector<Tensor>& acc_deltas, double lr, double rho, double eps,
                                     double weight_decay, bool maximize);
std::vector<Tensor> _fused_adamax_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                   const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_infs,
                                   double lr, double beta1, double beta2, double eps, double weight_decay,
                                   double step, bool maximize);
std::vector<Tensor> _fused_nadam_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                  const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                                  double lr, double beta1, double beta2, double eps, double weight_decay,
                                  double mu, double mu_next, double mu_product, double step,
                                  bool decoupled_weight_decay, bool maximize);
std::vector<Tensor> _fused_radam_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                  const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                                  double lr, double beta1, double beta2, double eps, double weight_decay,
                                  double step, bool decoupled_weight_decay, bool maximize);
/// Batch norm of [N, C, *] per channel: with use_input_stats the batch's mean and (biased) var, else the
/// given mean / var: (output, save_mean, save_var), the statistics used (float32 for 16-bit input).
std::tuple<Tensor, Tensor, Tensor> _batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                               const std::optional<Tensor>& bias,
                                               const std::optional<Tensor>& mean,
                                               const std::optional<Tensor>& var, bool use_input_stats,
                                               double eps);
/// Gradients of _batch_norm: (grad_input, grad_weight, grad_bias).
std::tuple<Tensor, Tensor, Tensor> _batch_norm_backward(const Tensor& grad_out, const Tensor& input,
                                                        const std::optional<Tensor>& weight,
                                                        const Tensor& save_mean, const Tensor& save_var,
                                                        bool use_input_stats, double eps);
/// Layer norm over the trailing normalized_shape dims: (output, mean, rstd), mean and rstd shaped like
/// input with the normalized dims 1 (float32 for 16-bit input).
std::tuple<Tensor, Tensor, Tensor> _layer_norm(const Tensor& input, const IntList& normalized_shape,
                                               const std::optional<Tensor>& weight,
                                               const std::optional<Tensor>& bias, double eps);
/// Gradients of _layer_norm: (grad_input, grad_weight, grad_bias); a gradient of an undefined weight or
/// bias is an empty tensor.
std::tuple<Tensor, Tensor, Tensor> _layer_norm_backward(const Tensor& grad_out, const Tensor& input,
                                                        const IntList& normalized_shape, const Tensor& mean,
                                                        const Tensor& rstd,
                                                        const std::optional<Tensor>& weight,
                                                        const std::optional<Tensor>& bias);
/// The rows of `weight` ([W, D]) at `indices` (int64 or int32, any shape): indices.shape + [D]. padding_idx
/// and scale_grad_by_freq shape only the gradient (embedding_dense_backward).
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                 bool sparse);
/// The weight gradient of embedding: each index's gradient rows summed into its row ([num_weights, D]); the
/// row padding_idx gets none, and scale_grad_by_freq divides a row by its index's count. Deterministic on the
/// CPU.
Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                int64_t padding_idx, bool scale_grad_by_freq);
/// embedding_bag's kernel: (output [B, D], offset2bag [N], bag_size [B], max_indices [B, D] or empty) for
/// mode 0 sum (per_sample_weights allowed), 1 mean, 2 max over the bags of indices cut at offsets.
std::tuple<Tensor, Tensor, Tensor, Tensor> _embedding_bag(const Tensor& weight, const Tensor& indices,
                                                          const Tensor& offsets, int64_t mode,
                                                          const std::optional<Tensor>& per_sample_weights,
                                                          bool include_last_offset, int64_t padding_idx,
                                                          bool scale_grad_by_freq);
/// The gradients of _embedding_bag for the weight and the per-sample weights (each only if asked for).
std::tuple<Tensor, Tensor> _embedding_bag_backward(const Tensor& grad, const Tensor& weight,
                                                   const Tensor& indices, const Tensor& offset2bag,
                                                   const Tensor& bag_size, const Tensor& max_indices,
                                                   int64_t mode,
                                                   const std::optional<Tensor>& per_sample_weights,
                                                   int64_t padding_idx, bool scale_grad_by_freq,
                                                   bool weight_grad, bool psw_grad);
/// grid_sample of a 4-D input at the grid's points ([N, Ho, Wo, 2] in [-1, 1]): interpolation_mode 0
/// bilinear, 1 nearest, 2 bicubic; padding_mode 0 zeros, 1 border, 2 reflection; align_corners as PyTorch's.
Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners);
/// The gradients of grid_sampler_2d for the input and the grid (each only if asked for, else an empty
/// tensor).
std::tuple<Tensor, Tensor> grid_sampler_2d_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& grid, int64_t interpolation_mode,
                                                    int64_t padding_mode, bool align_corners, bool input_grad,
                                                    bool grid_grad);
/// grid_sample of a 5-D input at the grid's points ([N, Do, Ho, Wo, 3]: x, y, z): trilinear (mode 0) or
/// nearest (1); padding and align_corners as grid_sampler_2d.
Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners);
/// The gradients of grid_sampler_3d for the input and the grid (each only if asked for).
std::tuple<Tensor, Tensor> grid_sampler_3d_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& grid, int64_t interpolation_mode,
                                                    int64_t padding_mode, bool align_corners, bool input_grad,
                                                    bool grid_grad);
/// Padding of the last pad.size() / 2 (1-3) dims of `self`: pad = (left, right) of the last dim, then of the
/// one before...; mode constant (with `value`; negative amounts crop), reflect, replicate or circular.
Tensor _pad_nd(const Tensor& self, const IntList& pad, const std::string& mode, double value);
/// The input gradient of _pad_nd (every output element's gradient added to the input element it read).
Tensor _pad_nd_backward(const Tensor& grad_output, const IntList& input_size, const IntList& pad,
                        const std::string& mode);
/// `self` resampled along `dim` to output_size elements: mode nearest, nearest-exact, linear or cubic, with
/// PyTorch's source coordinates (align_corners; scale: the user's scale factor, or 0 for size ratio);
/// antialias: linear, cubic or lanczos over the window the filter covers (PyTorch's _upsample_*2d_aa).
Tensor _resample_1d(const Tensor& self, int64_t dim, int64_t output_size, const std::string& mode,
                    bool align_corners, double scale, bool antialias = false);
/// The input gradient of _resample_1d (input_size elements along `dim`).
Tensor _resample_1d_backward(const Tensor& grad_output, int64_t dim, int64_t input_size,
                             const std::string& mode, bool align_corners, double scale,
                             bool antialias = false);
/// x where x > threshold, else value; its gradient is threshold_backward.
Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value);
/// a * sigmoid(b) of the halves a, b of `self` along dim, one kernel; glu_backward gives both halves'
/// gradients.
Tensor glu(const Tensor& self, int64_t dim);
Tensor glu_backward(const Tensor& grad_output, const Tensor& self, int64_t dim);
/// x where x > 0, else weight * x (weight broadcast to x, as F.prelu shapes it); the backward gives the
/// input's gradient and the weight's per element (autograd sums it to the weight's shape).
Tensor _prelu_kernel(const Tensor& self, const Tensor& weight);
std::tuple<Tensor, Tensor> _prelu_kernel_backward(const Tensor& grad_output, const Tensor& self,
                                                  const Tensor& weight);
/// Adaptive average (or, is_max, max with flat indices) pooling of the last `dims` dims to output_size, over
/// PyTorch's bins (uneven and overlapping ones included), one kernel.
std::tuple<Tensor, Tensor> _adaptive_pool_nd(const Tensor& self, int64_t dims, const IntList& output_size,
                                             bool is_max);
/// The input gradient of _adaptive_pool_nd (the max's by its indices).
Tensor _adaptive_pool_nd_backward(const Tensor& grad_output, const Tensor& self, int64_t dims,
                                  const IntList& output_size, bool is_max, const Tensor& indices);
/// Fractional max pooling of the last `dims` (2 or 3) dims of [N, C, *S] or [C, *S] to output_size by windows
/// of kernel_size at pseudo-random starts: (output, indices: flat positions in each input plane).
/// random_samples [N, C, dims] (or [1, C, dims] unbatched) in [0, 1): a sample per plane and dim, the last
/// dim's first (PyTorch's order).
std::tuple<Tensor, Tensor> _fractional_max_pool_nd(const Tensor& self, int64_t dims,
                                                   const IntList& kernel_size, const IntList& output_size,
                                                   const Tensor& random_samples);
/// The input gradient of _fractional_max_pool_nd: grad_output added at the indices.
Tensor _fractional_max_pool_nd_backward(const Tensor& grad_output, const Tensor& self, int64_t dims,
                                        const IntList& output_size, const Tensor& indices);
/// Dropout of `input` in one pass: (output, bool mask); element i kept with probability 1 - p by the Philox
/// draw of the default generator (the same mask on every device), kept ones scaled by 1 / (1 - p). With
/// train false: a copy of the input and an all-true mask.
std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train);
/// The input gradient of native_dropout: grad_output * mask * scale.
Tensor native_dropout_backward(const Tensor& grad_output, const Tensor& mask, double scale);
/// The elementwise losses (kind: math::PointwiseLoss: l1, mse, huber, smooth_l1, binary_cross_entropy, its
/// with_logits form, kl_div, kl_div with log_target; p: huber's delta or smooth_l1's beta) of input and
/// target (broadcast), in one kernel, then reduced (0 none, 1 mean, 2 sum).
Tensor _pointwise_loss(const Tensor& input, const Tensor& target, int64_t kind, double p, int64_t reduction);
/// The gradients of _pointwise_loss wrt input and target (each only if asked for, else an empty tensor), of
/// the broadcast shape.
std::tuple<Tensor, Tensor> _pointwise_loss_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& target, int64_t kind, double p,
                                                    int64_t reduction, bool input_grad, bool target_grad);
/// scaled_dot_product_attention without dropout, fused: (output [..., L, Ev], logsumexp [..., L] of each
/// query row's scores, in float for 16-bit input) for query [..., L, E], key [..., S, E], value [..., S, Ev]
/// of equal batch dims, an additive float mask broadcastable to [..., L, S], causal masking (top-left) and
/// the scale.
std::tuple<Tensor, Tensor> _fused_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                            const std::optional<Tensor>& attn_mask, bool is_causal,
                                            double scale);
/// The gradients of _fused_attention for query, key, value and (mask_grad) the mask, of the expanded mask's
/// shape (else an empty tensor), from the output and logsumexp it kept.
std::tuple<Tensor, Tensor, Tensor, Tensor> _fused_attention_backward(
    const Tensor& grad_output, const Tensor& query, const Tensor& key, const Tensor& value,
    const std::optional<Tensor>& attn_mask, const Tensor& output, const Tensor& logsumexp, bool is_causal,
    double scale, bool mask_grad);
/// The CTC loss of each sample of log_probs [T, N, C] (neg_log_likelihood [N]) and the alpha recursion it
/// kept
/// ([N, T, 2 S + 1]) for targets [N, S] (padded) or 1-D (concatenated), of target_lengths over input_lengths
/// steps.
std::tuple<Tensor, Tensor> _ctc_loss(const Tensor& log_probs, const Tensor& targets,
                                     const IntList& input_lengths, const IntList& target_lengths,
                                     int64_t blank, bool zero_infinity);
/// The gradient of sum(grad * neg_log_likelihood) with respect to log_probs (PyTorch's formula; zero for an
/// infinite loss with zero_infinity).
Tensor _ctc_loss_backward(const Tensor& grad, const Tensor& log_probs, const Tensor& targets,
                          const IntList& input_lengths, const IntList& target_lengths,
                          const Tensor& neg_log_likelihood, const Tensor& log_alpha, int64_t blank,
                          bool zero_infinity);
/// conv1d/2d/3d of batched input [N, C, *S] with weight [O, C / groups, *K] (+ bias [O]); stride, padding,
/// dilation: one value or one per spatial dim. Columns of the input times the weight (im2col + gemm), a chunk
/// of the batch at a time.
Tensor _convolution_nd(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                       const IntList& stride, const IntList& padding, const IntList& dilation,
                       int64_t groups);
/// Gradients of _convolution_nd: (grad_input, grad_weight, grad_bias), each computed only where asked for
/// (input_grad, weight_grad, bias_grad), else an empty tensor.
std::tuple<Tensor, Tensor, Tensor> _convolution_nd_backward(const Tensor& grad_output, const Tensor& input,
                                                            const Tensor& weight, const IntList& stride,
                                                            const IntList& padding, const IntList& dilation,
                                                            int64_t groups, bool input_grad, bool weight_grad,
                                                            bool bias_grad);
/// conv_transpose1d/2d/3d of batched input [N, C_in, *S] with weight [C_in, C_out / groups, *K] (+ bias
/// [C_out]): the transpose of the convolution with these options (col2im of weight^T @ input, a chunk of the
/// batch at a time); output_padding adds to one side of each output dim.
Tensor _convolution_transpose_nd(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                                 const IntList& stride, const IntList& padding, const IntList& output_padding,
                                 const IntList& dilation, int64_t groups);
/// Gradients of _convolution_transpose_nd, each computed only where asked for, else an empty tensor.
std::tuple<Tensor, Tensor, Tensor> _convolution_transpose_nd_backward(
    const Tensor& grad_output, const Tensor& input, const Tensor& weight, const IntList& stride,
    const IntList& padding, const IntList& output_padding, const IntList& dilation, int64_t groups,
    bool input_grad, bool weight_grad, bool bias_grad);
/// unfold: the sliding 2-D blocks of `self` ([N, C, H, W] or [C, H, W]) as columns [N, C * kH * kW, L].
Tensor im2col(const Tensor& self, const IntList& kernel_size, const IntList& dilation, const IntList& padding,
              const IntList& stride);
/// fold: columns [N, C * kH * kW, L] summed back into [N, C, *output_size] (overlaps add up).
Tensor col2im(const Tensor& self, const IntList& output_size, const IntList& kernel_size,
              const IntList& dilation, const IntList& padding, const IntList& stride);
// The activations of torch.nn.functional (torch._C._nn), each with its fused backward from (grad, self).
Tensor gelu(const Tensor& self, const std::string& approximate);
Tensor gelu_backward(const Tensor& grad_output, const Tensor& self, const std::string& approximate);
Tensor silu(const Tensor& self);
Tensor silu_backward(const Tensor& grad_output, const Tensor& self);
Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale);
Tensor elu_backward(const Tensor& grad_output, const Tensor& self, const Scalar& alpha, const Scalar& scale,
                    const Scalar& input_scale);
Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope);
Tensor leaky_relu_backward(const Tensor& grad_output, const Tensor& self, const Scalar& negative_slope);
Tensor hardtanh(const Tensor& self, const Scalar& min_val, const Scalar& max_val);
Tensor hardtanh_backward(const Tensor& grad_output, const Tensor& self, const Scalar& min_val,
                         const Scalar& max_val);
Tensor hardswish(const Tensor& self);
Tensor hardswish_backward(const Tensor& grad_output, const Tensor& self);
Tensor hardsigmoid(const Tensor& self);
Tensor hardsigmoid_backward(const Tensor& grad_output, const Tensor& self);
Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold);
Tensor softplus_backward(const Tensor& grad_output, const Tensor& self, const Scalar& beta,
                         const Scalar& threshold);
Tensor mish(const Tensor& self);
Tensor mish_backward(const Tensor& grad_output, const Tensor& self);
Tensor log_sigmoid(const Tensor& self);
Tensor log_sigmoid_backward(const Tensor& grad_output, const Tensor& self);
/// Max pooling over the last `dims` (1-3) dims of [N, C, *S] or [C, *S]: (output, indices: flat positions
/// in each input plane). stride empty: the kernel size.
std::tuple<Tensor, Tensor> _max_pool_nd(const Tensor& self, int64_t dims, const IntList& kernel_size,
                                        const IntList& stride, const IntList& padding,
                                        const IntList& dilation, bool ceil_mode);
Tensor _max_pool_nd_backward(const Tensor& grad_output, const Tensor& self, int64_t dims,
                             const IntList& kernel_size, const IntList& stride, const IntList& padding,
                             const IntList& dilation, bool ceil_mode, const Tensor& indices);
/// Average pooling over the last `dims` (1-3) dims of [N, C, *S] or [C, *S].
Tensor _avg_pool_nd(const Tensor& self, int64_t dims, const IntList& kernel_size, const IntList& stride,
                    const IntList& padding, bool ceil_mode, bool count_include_pad,
                    std::optional<int64_t> divisor_override);
Tensor _avg_pool_nd_backward(const Tensor& grad_output, const Tensor& self, int64_t dims,
                             const IntList& kernel_size, const IntList& stride, const IntList& padding,
                             bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override);
/// One Adam (AdamW with decoupled_weight_decay) step of a parameter group, in place: params, exp_avgs,
/// exp_avg_sqs and (amsgrad) max_exp_avg_sqs are updated; `step` is the step count after this step.
std::vector<Tensor> _fused_adam_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                 const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                                 const std::vector<Tensor>& max_exp_avg_sqs, double lr, double beta1,
                                 double beta2, double weight_decay, double eps, double step, bool amsgrad,
                                 bool maximize, bool decoupled_weight_decay);
/// One SGD step of a parameter group, in place (params and, with momentum, the existing momentum buffers).
std::vector<Tensor> _fused_sgd_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                                const std::vector<Tensor>& momentum_buffers, double lr, double momentum,
                                double dampening, double weight_decay, bool nesterov, bool maximize);

}  // namespace th
