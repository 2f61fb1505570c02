// Entry points of the loss family: nll_loss forward and backward (upstream's nll_loss_forward /
// nll_loss_backward, here _nll_loss_forward / _nll_loss_backward) on 1-D [C] or 2-D [N, C] input;
// torch.nn.functional reshapes N-d input to 2-D and builds cross_entropy on log_softmax + this. The
// kernels give each sample's loss and class weight; the reduction sums them (in float32 for 16-bit input).
#include <TH/Functions.h>

#include "../Functions.h"
#include "Loss.h"

namespace th {

TH_DEFINE_STUB(nll_loss_fn, nll_loss_stub);
TH_DEFINE_STUB(nll_loss_backward_fn, nll_loss_backward_stub);
TH_DEFINE_STUB(pointwise_loss_fn, pointwise_loss_stub);
TH_DEFINE_STUB(ctc_loss_fn, ctc_loss_stub);
TH_DEFINE_STUB(ctc_loss_backward_fn, ctc_loss_backward_stub);
TH_DEFINE_STUB(pointwise_loss_backward_fn, pointwise_loss_backward_stub);

namespace {

enum Reduction : int64_t { kNone = 0, kMean = 1, kSum = 2 };

/// The checks of PyTorch's nll_loss; returns the target as contiguous int64 [N] and the weight (or
/// undefined).
std::pair<Tensor, Tensor> checked(const Tensor& self, const Tensor& target,
                                  const std::optional<Tensor>& weight, int64_t reduction) {
  TH_CHECK(self.dim() >= 1 && self.dim() <= 2, "input tensor should be 1D or 2D");
  TH_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  const bool no_batch = self.dim() == 1 && target.dim() == 0;
  TH_CHECK_T(ValueError, no_batch || self.size(0) == target.size(0), "Expected input batch_size (",
             self.size(0), ") to match target batch_size (", target.dim() ? target.size(0) : 1, ").");
  TH_CHECK(target.dtype() == ScalarType::Long || target.dtype() == ScalarType::Byte,
           "expected target dtype to be Long or Byte, but got ", scalar_type_cpp_name(target.dtype()));
  TH_CHECK(is_floating_point(self.dtype()), "\"nll_loss_forward_out_frame\" not implemented for '",
           scalar_type_cpp_name(self.dtype()), "'");
  TH_CHECK(reduction >= kNone && reduction <= kSum, "nll_loss: unknown reduction ", reduction);
  TH_CHECK(target.device() == self.device(),
           "Expected all tensors to be on the same device, but found at least two "
           "devices, ",
           self.device().str(), " and ", target.device().str(), "!");
  const int64_t C = self.size(-1);
  Tensor w;
  if (weight && weight->defined()) {
    TH_CHECK(weight->numel() == C, "weight tensor should be defined either for all ", C,
             " classes or no classes but got weight tensor of shape: [", weight->numel(), "]");
    w = contiguous(to_dtype(*weight, self.dtype()));
  }
  return {contiguous(to_dtype(target.dim() ? target : reshape(target, {1}), ScalarType::Long)), w};
}

Tensor rows(const Tensor& self) {
  return contiguous(self.dim() == 1 ? reshape(self, {1, self.size(0)}) : self);
}

ScalarType accumulate_type(ScalarType t) { return is_reduced_floating_point(t) ? ScalarType::Float : t; }

}  // namespace

std::tuple<Tensor, Tensor> _nll_loss_forward(const Tensor& self, const Tensor& target,
                                             const std::optional<Tensor>& weight, int64_t reduction,
                                             int64_t ignore_index) {
  auto [t, w] = checked(self, target, weight, reduction);
  const Tensor x = rows(self);
  const int64_t N = x.size(0);
  Tensor loss = empty_tensor({N}, x.dtype(), x.device());
  Tensor w_out = empty_tensor({N}, x.dtype(), x.device());
  if (N > 0) nll_loss_stub[x.device().type](x, t, w, loss, w_out, ignore_index);
  const ScalarType acc = accumulate_type(x.dtype());
  if (reduction == kNone)  // total_weight is not computed (0), as upstream
    return {self.dim() == 1 ? reshape(loss, {}) : loss, zeros({}, x.dtype(), x.device())};
  const Tensor total_weight = to_dtype(sum(w_out, acc), x.dtype());
  Tensor total = sum(loss, acc);
  if (reduction == kMean) total = div(total, sum(w_out, acc), std::nullopt);
  return {to_dtype(total, x.dtype()), total_weight};
}

Tensor _nll_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                          const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                          const Tensor& total_weight) {
  auto [t, w] = checked(self, target, weight, reduction);
  const Tensor x = rows(self);
  const int64_t N = x.size(0);
  Tensor g = to_dtype(grad_output, x.dtype());
  if (reduction == kMean) g = div(g, to_dtype(total_weight, x.dtype()), std::nullopt);
  g = contiguous(reduction == kNone ? reshape(g, {N}) : expand(reshape(g, {1}), {N}));
  Tensor grad_input = zeros(x.sizes(), x.dtype(), x.device());
  if (N > 0) nll_loss_backward_stub[x.device().type](g, t, w, grad_input, ignore_index);
  return self.dim() == 1 ? reshape(grad_input, {self.size(0)}) : grad_input;
}

namespace {

math::PointwiseLoss pointwise_loss_kind(int64_t kind) {
  TH_CHECK(kind >= 0 && kind <= int64_t(math::PointwiseLoss::KlDivLogTarget),
           "_pointwise_loss: unknown loss ", kind);
  return static_cast<math::PointwiseLoss>(kind);
}

void check_pointwise(const Tensor& input, const Tensor& target, int64_t reduction) {
  TH_CHECK(reduction >= kNone && reduction <= kSum, reduction, " is not a valid value for reduction");
  TH_CHECK(input.device() == target.device(),
           "Expected all tensors to be on the same device, but found at least ", "two devices, ",
           input.device().str(), " and ", target.device().str(), "!");
}

}  // namespace

Tensor _pointwise_loss(const Tensor& input, const Tensor& target, int64_t kind, double p, int64_t reduction) {
  check_pointwise(input, target, reduction);
  const math::PointwiseLoss op = pointwise_loss_kind(kind);
  TensorIterator iter =
      TensorIteratorConfig().add_output(Tensor()).add_input(input).add_input(target).build();
  const ScalarType common = iter.common_dtype();
  if (!is_floating_point(common)) {  // upstream's refusals (and its composite l1 for integers), per loss
    const char* dev = input.device().type == DeviceType::CUDA ? "_cuda" : "_cpu";
    switch (op) {
      case math::PointwiseLoss::L1: {  // abs(input - target), reduced in its integer type (as upstream)
        const Tensor loss = abs(sub(input, target, Scalar(int64_t(1))));
        return reduction == kNone  ? loss
               : reduction == kSum ? sum(loss, std::nullopt)
                                   : mean(loss, std::nullopt);
      }
      case math::PointwiseLoss::KlDiv:
      case math::PointwiseLoss::KlDivLogTarget:
        TH_CHECK(is_complex(common), "kl_div: Integral inputs not supported.");
        break;
      case math::PointwiseLoss::Bce:
        TH_CHECK_T(NotImplementedError, false, "\"binary_cross_entropy\" not implemented for '",
                   scalar_type_cpp_name(common), "'");
        break;
      default: break;
    }
    const char* name = op == math::PointwiseLoss::Mse             ? "mse"
                       : op == math::PointwiseLoss::Huber         ? "huber"
                       : op == math::PointwiseLoss::SmoothL1      ? "smooth_l1"
                       : op == math::PointwiseLoss::BceWithLogits ? "log_sigmoid"
                                                                  : "pointwise_loss";
    TH_CHECK_T(NotImplementedError, false, "\"", name, dev, "\" not implemented for '",
               scalar_type_cpp_name(common), "'");
  }
  pointwise_loss_stub[iter.device().type](iter, op, p);
  const Tensor loss = iter.output();
  if (reduction == kNone) return loss;
  const ScalarType acc = accumulate_type(loss.dtype());
  Tensor total = sum(loss, acc);
  if (reduction == kMean) total = div(total, wrap_number(Scalar(int64_t(loss.numel()))), std::nullopt);
  return to_dtype(total, loss.dtype());
}

std::tuple<Tensor, Tensor> _pointwise_loss_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& target, int64_t kind, double p,
                                                    int64_t reduction, bool input_grad, bool target_grad) {
  check_pointwise(input, target, reduction);
  const math::PointwiseLoss op = pointwise_loss_kind(kind);
  Tensor g = grad_output;
  if (reduction == kMean) {
    int64_t numel = 1;
    for (int64_t s : broadcast_shapes(input.sizes(), target.sizes())) numel *= s;
    g = div(g, wrap_number(Scalar(numel)), std::nullopt);
  }
  const auto grad_wrt = [&](bool wrt_target) {
    TensorIterator iter =
        TensorIteratorConfig().add_output(Tensor()).add_input(g).add_input(input).add_input(target).build();
    pointwise_loss_backward_stub[iter.device().type](iter, op, p, wrt_target);
    return iter.output();
  };
  const Tensor none = empty_tensor({0}, input.dtype(), input.device());
  return {input_grad ? grad_wrt(false) : none, target_grad ? grad_wrt(true) : none};
}

namespace {

struct CtcTargets {
  Tensor flat, offsets, input_lengths, target_lengths;
  int64_t max_target = 0;
};

/// PyTorch's checks of a CTC call, and its targets as one int64 vector with each sample's offset into it.
CtcTargets ctc_targets(const Tensor& log_probs, const Tensor& targets, const IntList& input_lengths,
                       const IntList& target_lengths, int64_t blank) {
  TH_CHECK(log_probs.dim() == 3, "ctc_loss: expected log_probs of shape (T, N, C), but got ",
           shape_str(log_probs.sizes()));
  TH_CHECK_T(NotImplementedError,
             log_probs.dtype() == ScalarType::Float || log_probs.dtype() == ScalarType::Double,
             "\"ctc_loss_cpu\" not implemented for '", scalar_type_cpp_name(log_probs.dtype()), "'");
  const int64_t T = log_probs.size(0), N = log_probs.size(1), C = log_probs.size(2);
  TH_CHECK(blank >= 0 && blank < C, "blank must be in label range");
  TH_CHECK(int64_t(input_lengths.size()) == N, "input_lengths must be of size batch_size");
  TH_CHECK(int64_t(target_lengths.size()) == N, "target_lengths must be of size batch_size");
  TH_CHECK(targets.dtype() == ScalarType::Long || targets.dtype() == ScalarType::Int,
           "ctc_loss: targets must be int64 or int32, but got ", scalar_type_name(targets.dtype()));
  CtcTargets c;
  IntList offsets(size_t(N), 0);
  int64_t total = 0;
  for (int64_t n = 0; n < N; ++n) {
    const int64_t il = input_lengths[size_t(n)], tl = target_lengths[size_t(n)];
    TH_CHECK(il >= 0 && il <= T, "Expected input_lengths to have value at most ", T, ", but got value ", il,
             " (while checking arguments for ctc_loss_cpu)");
    TH_CHECK(tl >= 0, "Expected tensor to have size at least 0 at dimension 1, but got size ", tl,
             " for argument #2 'targets' (while checking arguments for ctc_loss_cpu)");
    c.max_target = std::max(c.max_target, tl);
    if (targets.dim() == 1) {
      offsets[size_t(n)] = total;
      total += tl;
    } else {
      TH_CHECK(targets.dim() == 2 && targets.size(0) == N && tl <= targets.size(1),
               "Expected tensor to have size ", "at least ", tl, " at dimension 1, but got size ",
               targets.dim() == 2 ? targets.size(1) : 0,
               " for argument #2 'targets' (while checking arguments for ctc_loss_cpu)");
      offsets[size_t(n)] = n * targets.size(1);
    }
  }
  if (targets.dim() == 1)
    TH_CHECK(targets.numel() >= total, "ctc_loss: expected at least ", total, " targets, but got ",
             targets.numel());
  const Device dev = log_probs.device();
  // every label a sample uses must lie in [0, C) (else the kernels would read outside log_probs): checked on
  // a host copy for every device; the padding past a target's length is not read
  const Tensor host =
      contiguous(to(reshape(targets, {-1}), Device(DeviceType::CPU), ScalarType::Long, false, false));
  const auto* labels = reinterpret_cast<const int64_t*>(host.data_ptr());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = offsets[size_t(n)]; i < offsets[size_t(n)] + target_lengths[size_t(n)]; ++i)
      TH_CHECK_T(IndexError, labels[i] >= 0 && labels[i] < C, "ctc_loss: target label ", labels[i],
                 " is out of bounds for ", C, " classes");
  c.flat = to(host, dev, std::nullopt, false, false);
  const auto tensor_of = [&](const IntList& v) {
    Tensor t = empty_tensor({int64_t(v.size())}, ScalarType::Long, Device(DeviceType::CPU));
    std::copy(v.begin(), v.end(), reinterpret_cast<int64_t*>(t.data_ptr()));
    return to(t, dev, std::nullopt, false, false);
  };
  c.offsets = tensor_of(offsets);
  c.input_lengths = tensor_of(input_lengths);
  c.target_lengths = tensor_of(target_lengths);
  return c;
}

ScalarType ctc_math_dtype(ScalarType t) {
  return t == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
}

}  // namespace

std::tuple<Tensor, Tensor> _ctc_loss(const Tensor& log_probs, const Tensor& targets,
                                     const IntList& input_lengths, const IntList& target_lengths,
                                     int64_t blank, bool zero_infinity) {
  (void)zero_infinity;  // the forward's loss is the reduction's to zero; the backward zeroes the gradient
  const CtcTargets c = ctc_targets(log_probs, targets, input_lengths, target_lengths, blank);
  const int64_t T = log_probs.size(0), N = log_probs.size(1);
  Tensor nll = empty_tensor({N}, log_probs.dtype(), log_probs.device());
  Tensor alpha =
      empty_tensor({N, T, 2 * c.max_target + 1}, ctc_math_dtype(log_probs.dtype()), log_probs.device());
  if (N > 0)
    ctc_loss_stub[log_probs.device().type](log_probs, c.flat, c.offsets, c.input_lengths, c.target_lengths,
                                           blank, nll, alpha);
  return {nll, alpha};
}

Tensor _ctc_loss_backward(const Tensor& grad, const Tensor& log_probs, const Tensor& targets,
                          const IntList& input_lengths, const IntList& target_lengths,
                          const Tensor& neg_log_likelihood, const Tensor& log_alpha, int64_t blank,
                          bool zero_infinity) {
  const CtcTargets c = ctc_targets(log_probs, targets, input_lengths, target_lengths, blank);
  Tensor grad_lp = empty_tensor(log_probs.sizes(), log_probs.dtype(), log_probs.device());
  Tensor beta = empty_tensor(log_alpha.sizes(), log_alpha.dtype(), log_alpha.device());
  if (log_probs.size(1) > 0)
    ctc_loss_backward_stub[log_probs.device().type](
        contiguous(expand(to_dtype(grad, log_probs.dtype()), {log_probs.size(1)})), log_probs, c.flat,
        c.offsets, c.input_lengths, c.target_lengths, blank, contiguous(neg_log_likelihood),
        contiguous(log_alpha), beta, grad_lp, zero_infinity);
  return grad_lp;
}

}  // namespace th
