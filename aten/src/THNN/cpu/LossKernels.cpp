// CPU kernels of the loss family: nll_loss per sample (math/Loss.h) and its backward, samples in parallel.
#include <atomic>

#include <TH/Exception.h>
#include <TH/Parallel.h>
#include <TH/ScalarType.h>
#include <TH/cpu/Loops.h>

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

}  // namespace

TH_REGISTER_KERNEL(pointwise_loss_stub, CPU, pointwise_loss_kernel);
TH_REGISTER_KERNEL(pointwise_loss_backward_stub, CPU, pointwise_loss_backward_kernel);
TH_REGISTER_KERNEL(nll_loss_stub, CPU, nll_loss_kernel);
TH_REGISTER_KERNEL(nll_loss_backward_stub, CPU, nll_loss_backward_kernel);

}  // namespace th
