// CUDA kernels of the loss family: nll_loss per sample (math/Loss.h), a thread per sample. A kernel cannot
// raise: an out-of-range target is written to a device flag (the smallest such sample's target wins a
// race, any one is reported) and raised after the kernel, as the CPU kernel does.
#include <TH/Exception.h>
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/math/CTC.h>
#include <THNN/math/Loss.h>
#include <THNN/ops/Loss.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

template <typename T>
__global__ void nll_loss_samples(const T* x, const int64_t* t, const T* w, T* loss, T* w_out, int64_t N,
                                 int64_t C, int64_t ignore_index, unsigned long long* bad) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < N;
       i += int64_t(blockDim.x) * gridDim.x) {
    bool out_of_range = false;
    th::math::nll_loss_sample(x + i * C, t[i], w, C, ignore_index, loss[i], w_out[i], out_of_range);
    if (out_of_range) atomicExch(bad, static_cast<unsigned long long>(t[i]) + 1ull);  // 0: none
  }
}

template <typename T>
__global__ void nll_loss_backward_samples(const T* g, const int64_t* t, const T* w, T* gi, int64_t N,
                                          int64_t C, int64_t ignore_index) {
  using A = th::opmath_t<T>;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < N;
       i += int64_t(blockDim.x) * gridDim.x) {
    const int64_t c = t[i];
    if (c == ignore_index || c < 0 || c >= C) continue;
    gi[i * C + c] = T(-(w ? A(w[c]) : A(1)) * A(g[i]));
  }
}

void nll_loss_kernel(const th::Tensor& input, const th::Tensor& target, const th::Tensor& weight,
                     const th::Tensor& loss, const th::Tensor& weight_out, int64_t ignore_index) {
  thc::DeviceGuard guard(input.device());
  const int64_t N = input.size(0), C = input.size(1);
  th::Tensor flag = th::empty_tensor({1}, th::ScalarType::Long, input.device());
  auto* bad = reinterpret_cast<unsigned long long*>(flag.data_ptr());
  THC_CHECK(cudaMemsetAsync(bad, 0, sizeof(*bad), thc::current_stream()));
  TH_DISPATCH_FLOATING_TYPES(input.dtype(), "nll_loss_forward_out_frame", [&] {
    nll_loss_samples<scalar_t><<<thc::grid_for(N, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(input.data_ptr()),
        reinterpret_cast<const int64_t*>(target.data_ptr()),
        weight.defined() ? reinterpret_cast<const scalar_t*>(weight.data_ptr()) : nullptr,
        reinterpret_cast<scalar_t*>(loss.data_ptr()), reinterpret_cast<scalar_t*>(weight_out.data_ptr()), N,
        C, ignore_index, bad);
  });
  THC_CHECK(cudaGetLastError());
  unsigned long long host = 0;
  THC_CHECK(cudaMemcpyAsync(&host, bad, sizeof(host), cudaMemcpyDeviceToHost, thc::current_stream()));
  THC_CHECK(cudaStreamSynchronize(thc::current_stream()));
  TH_CHECK_T(th::IndexError, host == 0, "Target ", static_cast<int64_t>(host - 1), " is out of bounds.");
}

void nll_loss_backward_kernel(const th::Tensor& grad, const th::Tensor& target, const th::Tensor& weight,
                              const th::Tensor& grad_input, int64_t ignore_index) {
  thc::DeviceGuard guard(grad_input.device());
  const int64_t N = grad_input.size(0), C = grad_input.size(1);
  TH_DISPATCH_FLOATING_TYPES(grad_input.dtype(), "nll_loss_backward_out_frame", [&] {
    nll_loss_backward_samples<scalar_t><<<thc::grid_for(N, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(grad.data_ptr()),
        reinterpret_cast<const int64_t*>(target.data_ptr()),
        weight.defined() ? reinterpret_cast<const scalar_t*>(weight.data_ptr()) : nullptr,
        reinterpret_cast<scalar_t*>(grad_input.data_ptr()), N, C, ignore_index);
  });
  THC_CHECK(cudaGetLastError());
}

void pointwise_loss_kernel(th::TensorIterator& iter, th::math::PointwiseLoss op, double p) {
  thc::DeviceGuard guard(iter.device());
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "pointwise_loss_cuda", [&] {
    thc::gpu_kernel<scalar_t, 2>(iter, th::math::PointwiseLossForward{op, p});
  });
}

void pointwise_loss_backward_kernel(th::TensorIterator& iter, th::math::PointwiseLoss op, double p,
                                    bool wrt_target) {
  thc::DeviceGuard guard(iter.device());
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "pointwise_loss_backward_cuda", [&] {
    thc::gpu_kernel<scalar_t, 3>(iter, th::math::PointwiseLossBackward{op, p, wrt_target});
  });
}

template <typename T, typename A>
__global__ void ctc_alpha_samples(const T* lp, int64_t st, int64_t sn, int64_t sc, const int64_t* tg,
                                  const int64_t* off, const int64_t* il, const int64_t* tl, int64_t blank,
                                  T* nll, A* alpha, int64_t per_sample, int64_t N) {
  for (int64_t n = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; n < N;
       n += int64_t(blockDim.x) * gridDim.x)
    nll[n] = T(th::math::ctc_alpha<T, A>(lp + n * sn, st, sc, il[n], tg + off[n], tl[n], blank,
                                         alpha + n * per_sample));
}

template <typename T, typename A>
__global__ void ctc_grad_samples(const T* lp, int64_t st, int64_t sn, int64_t sc, int64_t T_, int64_t C,
                                 const int64_t* tg, const int64_t* off, const int64_t* il, const int64_t* tl,
                                 int64_t blank, const A* alpha, const T* loss, const T* g, int64_t g_stride,
                                 A* beta, T* out, int64_t gt, int64_t gn, int64_t gc, int64_t per_sample,
                                 bool zero_infinity, int64_t N) {
  for (int64_t n = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; n < N;
       n += int64_t(blockDim.x) * gridDim.x)
    th::math::ctc_grad<T, A>(lp + n * sn, st, sc, il[n], T_, C, tg + off[n], tl[n], blank,
                             alpha + n * per_sample, A(loss[n]), A(g[n * g_stride]), beta + n * per_sample,
                             out + n * gn, gt, gc, zero_infinity);
}

void ctc_loss_kernel(const th::Tensor& log_probs, const th::Tensor& targets, const th::Tensor& offsets,
                     const th::Tensor& input_lengths, const th::Tensor& target_lengths, int64_t blank,
                     const th::Tensor& nll, const th::Tensor& log_alpha) {
  thc::DeviceGuard guard(log_probs.device());
  const int64_t N = log_probs.size(1);
  TH_DISPATCH_FLOATING_TYPES(log_probs.dtype(), "ctc_loss_cuda", [&] {
    using A = th::opmath_t<scalar_t>;
    ctc_alpha_samples<scalar_t, A><<<thc::grid_for(N, 64), 64, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(log_probs.data_ptr()), log_probs.stride(0), log_probs.stride(1),
        log_probs.stride(2), reinterpret_cast<const int64_t*>(targets.data_ptr()),
        reinterpret_cast<const int64_t*>(offsets.data_ptr()),
        reinterpret_cast<const int64_t*>(input_lengths.data_ptr()),
        reinterpret_cast<const int64_t*>(target_lengths.data_ptr()), blank,
        reinterpret_cast<scalar_t*>(nll.data_ptr()), reinterpret_cast<A*>(log_alpha.data_ptr()),
        log_alpha.stride(0), N);
  });
  THC_CHECK(cudaGetLastError());
}

void ctc_loss_backward_kernel(const th::Tensor& grad, const th::Tensor& log_probs, const th::Tensor& targets,
                              const th::Tensor& offsets, const th::Tensor& input_lengths,
                              const th::Tensor& target_lengths, int64_t blank, const th::Tensor& nll,
                              const th::Tensor& log_alpha, const th::Tensor& beta,
                              const th::Tensor& grad_log_probs, bool zero_infinity) {
  thc::DeviceGuard guard(log_probs.device());
  const int64_t N = log_probs.size(1);
  TH_DISPATCH_FLOATING_TYPES(log_probs.dtype(), "ctc_loss_backward_cuda", [&] {
    using A = th::opmath_t<scalar_t>;
    ctc_grad_samples<scalar_t, A><<<thc::grid_for(N, 64), 64, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(log_probs.data_ptr()), log_probs.stride(0), log_probs.stride(1),
        log_probs.stride(2), log_probs.size(0), log_probs.size(2),
        reinterpret_cast<const int64_t*>(targets.data_ptr()),
        reinterpret_cast<const int64_t*>(offsets.data_ptr()),
        reinterpret_cast<const int64_t*>(input_lengths.data_ptr()),
        reinterpret_cast<const int64_t*>(target_lengths.data_ptr()), blank,
        reinterpret_cast<const A*>(log_alpha.data_ptr()), reinterpret_cast<const scalar_t*>(nll.data_ptr()),
        reinterpret_cast<const scalar_t*>(grad.data_ptr()), grad.stride(0),
        reinterpret_cast<A*>(beta.data_ptr()), reinterpret_cast<scalar_t*>(grad_log_probs.data_ptr()),
        grad_log_probs.stride(0), grad_log_probs.stride(1), grad_log_probs.stride(2), log_alpha.stride(0),
        zero_infinity, N);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::ctc_loss_stub, CUDA, ctc_loss_kernel);
TH_REGISTER_KERNEL(th::ctc_loss_backward_stub, CUDA, ctc_loss_backward_kernel);
TH_REGISTER_KERNEL(th::pointwise_loss_stub, CUDA, pointwise_loss_kernel);
TH_REGISTER_KERNEL(th::pointwise_loss_backward_stub, CUDA, pointwise_loss_backward_kernel);
TH_REGISTER_KERNEL(th::nll_loss_stub, CUDA, nll_loss_kernel);
TH_REGISTER_KERNEL(th::nll_loss_backward_stub, CUDA, nll_loss_backward_kernel);

}  // namespace thcunn
