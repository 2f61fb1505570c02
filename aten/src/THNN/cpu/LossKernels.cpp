// CPU kernels of the loss family: nll_loss per sample (math/Loss.h) and its backward, samples in parallel.
#include <atomic>

#include <TH/Exception.h>
#include <TH/Parallel.h>
#include <TH/ScalarType.h>
#include <TH/cpu/Loops.h>

#include "../math/CTC.h"
#include "../math/Loss.h"
#include "../ops/Loss.h"

namespace th {
namespace {

void nll_loss_kernel(const Tensor& input, const Tensor& target, const Tensor& weight, const Tensor& loss,
                     const Tensor& weight_out, int64_t ignore_index) {
  const int64_t N = input.size(0), C = input.size(1);
  const auto* t = reinterpret_cast<const int64_t*>(target.data_ptr());
  std::atomic<bool> bad{false};
  std::atomic<int64_t> bad_target{0};
  TH_DISPATCH_FLOATING_TYPES(input.dtype(), "nll_loss_forward_out_frame", [&] {
    const auto* x = reinterpret_cast<const scalar_t*>(input.data_ptr());
    const auto* w = weight.defined() ? reinterpret_cast<const scalar_t*>(weight.data_ptr()) : nullptr;
    auto* l = reinterpret_cast<scalar_t*>(loss.data_ptr());
    auto* wo = reinterpret_cast<scalar_t*>(weight_out.data_ptr());
    parallel_for(N, kGrainSize / 4, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        bool out_of_range = false;
        math::nll_loss_sample(x + i * C, t[i], w, C, ignore_index, l[i], wo[i], out_of_range);
        if (out_of_range) {
          bad_target.store(t[i]);
          bad.store(true);
        }
      }
    });
  });
  TH_CHECK_T(IndexError, !bad.load(), "Target ", bad_target.load(), " is out of bounds.");
}

void nll_loss_backward_kernel(const Tensor& grad, const Tensor& target, const Tensor& weight,
                              const Tensor& grad_input, int64_t ignore_index) {
  const int64_t N = grad_input.size(0), C = grad_input.size(1);
  const auto* t = reinterpret_cast<const int64_t*>(target.data_ptr());
  TH_DISPATCH_FLOATING_TYPES(grad_input.dtype(), "nll_loss_backward_out_frame", [&] {
    const auto* g = reinterpret_cast<const scalar_t*>(grad.data_ptr());
    const auto* w = weight.defined() ? reinterpret_cast<const scalar_t*>(weight.data_ptr()) : nullptr;
    auto* gi = reinterpret_cast<scalar_t*>(grad_input.data_ptr());
    parallel_for(N, kGrainSize / 4, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const int64_t c = t[i];
        if (c == ignore_index || c < 0 || c >= C) continue;
        using A = opmath_t<scalar_t>;
        gi[i * C + c] = scalar_t(-(w ? A(w[c]) : A(1)) * A(g[i]));
      }
    });
  });
}

void pointwise_loss_kernel(TensorIterator& iter, math::PointwiseLoss op, double p) {
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "pointwise_loss_cpu",
                             [&] { cpu::cpu_kernel<scalar_t, 2>(iter, math::PointwiseLossForward{op, p}); });
}

void pointwise_loss_backward_kernel(TensorIterator& iter, math::PointwiseLoss op, double p, bool wrt_target) {
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "pointwise_loss_backward_cpu", [&] {
    cpu::cpu_kernel<scalar_t, 3>(iter, math::PointwiseLossBackward{op, p, wrt_target});
  });
}

template <typename F>
void for_each_sample(const Tensor& log_probs, const F& f) {
  parallel_for(log_probs.size(1), 1, [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; ++n) f(n);
  });
}

void ctc_loss_kernel(const Tensor& log_probs, const Tensor& targets, const Tensor& offsets,
                     const Tensor& input_lengths, const Tensor& target_lengths, int64_t blank,
                     const Tensor& nll, const Tensor& log_alpha) {
  const auto *tg = reinterpret_cast<const int64_t*>(targets.data_ptr()),
             *off = reinterpret_cast<const int64_t*>(offsets.data_ptr()),
             *il = reinterpret_cast<const int64_t*>(input_lengths.data_ptr()),
             *tl = reinterpret_cast<const int64_t*>(target_lengths.data_ptr());
  const int64_t st = log_probs.stride(0), sn = log_probs.stride(1), sc = log_probs.stride(2);
  const int64_t per_sample = log_alpha.stride(0);
  TH_DISPATCH_FLOATING_TYPES(log_probs.dtype(), "ctc_loss_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* lp = reinterpret_cast<const scalar_t*>(log_probs.data_ptr());
    auto* out = reinterpret_cast<scalar_t*>(nll.data_ptr());
    auto* alpha = reinterpret_cast<A*>(log_alpha.data_ptr());
    for_each_sample(log_probs, [&](int64_t n) {
      out[n] = scalar_t(math::ctc_alpha<scalar_t, A>(lp + n * sn, st, sc, il[n], tg + off[n], tl[n], blank,
                                                     alpha + n * per_sample));
    });
  });
}

void ctc_loss_backward_kernel(const Tensor& grad, const Tensor& log_probs, const Tensor& targets,
                              const Tensor& offsets, const Tensor& input_lengths,
                              const Tensor& target_lengths, int64_t blank, const Tensor& nll,
                              const Tensor& log_alpha, const Tensor& beta, const Tensor& grad_log_probs,
                              bool zero_infinity) {
  const auto *tg = reinterpret_cast<const int64_t*>(targets.data_ptr()),
             *off = reinterpret_cast<const int64_t*>(offsets.data_ptr()),
             *il = reinterpret_cast<const int64_t*>(input_lengths.data_ptr()),
             *tl = reinterpret_cast<const int64_t*>(target_lengths.data_ptr());
  const int64_t st = log_probs.stride(0), sn = log_probs.stride(1), sc = log_probs.stride(2);
  const int64_t gt = grad_log_probs.stride(0), gn = grad_log_probs.stride(1), gc = grad_log_probs.stride(2);
  const int64_t T = log_probs.size(0), C = log_probs.size(2), per_sample = log_alpha.stride(0);
  TH_DISPATCH_FLOATING_TYPES(log_probs.dtype(), "ctc_loss_backward_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* lp = reinterpret_cast<const scalar_t*>(log_probs.data_ptr());
    const auto* g = reinterpret_cast<const scalar_t*>(grad.data_ptr());
    const auto* loss = reinterpret_cast<const scalar_t*>(nll.data_ptr());
    const auto* alpha = reinterpret_cast<const A*>(log_alpha.data_ptr());
    auto* b = reinterpret_cast<A*>(beta.data_ptr());
    auto* out = reinterpret_cast<scalar_t*>(grad_log_probs.data_ptr());
    for_each_sample(log_probs, [&](int64_t n) {
      math::ctc_grad<scalar_t, A>(lp + n * sn, st, sc, il[n], T, C, tg + off[n], tl[n], blank,
                                  alpha + n * per_sample, A(loss[n]), A(g[n * grad.stride(0)]),
                                  b + n * per_sample, out + n * gn, gt, gc, zero_infinity);
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(pointwise_loss_stub, CPU, pointwise_loss_kernel);
TH_REGISTER_KERNEL(pointwise_loss_backward_stub, CPU, pointwise_loss_backward_kernel);
TH_REGISTER_KERNEL(ctc_loss_stub, CPU, ctc_loss_kernel);
TH_REGISTER_KERNEL(ctc_loss_backward_stub, CPU, ctc_loss_backward_kernel);
TH_REGISTER_KERNEL(nll_loss_stub, CPU, nll_loss_kernel);
TH_REGISTER_KERNEL(nll_loss_backward_stub, CPU, nll_loss_backward_kernel);

}  // namespace th
