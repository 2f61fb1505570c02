// CUDA kernels of the optimizer family: a thread per element of each parameter (math/Optimizer.h), one
// launch per parameter.
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/ops/Optimizer.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

template <typename T>
__global__ void adam_elements(T* p, const T* g, T* m, T* v, T* vmax, int64_t n, th::math::AdamStep s) {
  for (int64_t k = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; k < n;
       k += int64_t(blockDim.x) * gridDim.x)
    th::math::adam_element(p[k], g[k], m[k], v[k], vmax ? vmax + k : nullptr, s);
}

template <typename T>
__global__ void sgd_elements(T* p, const T* g, T* b, int64_t n, th::math::SgdStep s) {
  for (int64_t k = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; k < n;
       k += int64_t(blockDim.x) * gridDim.x)
    th::math::sgd_element(p[k], g[k], b ? b + k : nullptr, s);
}

template <typename T>
T* ptr(const th::Tensor& t) {
  return reinterpret_cast<T*>(t.data_ptr());
}

void adam_kernel(const std::vector<th::Tensor>& params, const std::vector<th::Tensor>& grads,
                 const std::vector<th::Tensor>& exp_avgs, const std::vector<th::Tensor>& exp_avg_sqs,
                 const std::vector<th::Tensor>& max_exp_avg_sqs, const th::math::AdamStep& s) {
  thc::DeviceGuard guard(params[0].device());
  TH_DISPATCH_FLOATING_TYPES(params[0].dtype(), "fused_adam_cuda", [&] {
    for (size_t i = 0; i < params.size(); ++i) {
      const int64_t n = params[i].numel();
      if (n == 0) continue;
      adam_elements<scalar_t><<<thc::grid_for(n, 256), 256, 0, thc::current_stream()>>>(
          ptr<scalar_t>(params[i]), ptr<scalar_t>(grads[i]), ptr<scalar_t>(exp_avgs[i]),
          ptr<scalar_t>(exp_avg_sqs[i]), s.amsgrad ? ptr<scalar_t>(max_exp_avg_sqs[i]) : nullptr, n, s);
    }
  });
  THC_CHECK(cudaGetLastError());
}

void sgd_kernel(const std::vector<th::Tensor>& params, const std::vector<th::Tensor>& grads,
                const std::vector<th::Tensor>& momentum_buffers, const th::math::SgdStep& s) {
  thc::DeviceGuard guard(params[0].device());
  TH_DISPATCH_FLOATING_TYPES(params[0].dtype(), "fused_sgd_cuda", [&] {
    for (size_t i = 0; i < params.size(); ++i) {
      const int64_t n = params[i].numel();
      if (n == 0) continue;
      sgd_elements<scalar_t><<<thc::grid_for(n, 256), 256, 0, thc::current_stream()>>>(
          ptr<scalar_t>(params[i]), ptr<scalar_t>(grads[i]),
          momentum_buffers.empty() ? nullptr : ptr<scalar_t>(momentum_buffers[i]), n, s);
    }
  });
  THC_CHECK(cudaGetLastError());
}

template <th::math::FusedOptimizer K, typename T>
__global__ void fused_elements(T* p, const T* g, T* s1, T* s2, T* s3, int64_t n, th::math::FusedStep s) {
  for (int64_t k = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; k < n;
       k += int64_t(blockDim.x) * gridDim.x)
    th::math::fused_element<K>(p[k], g[k], s1 ? s1 + k : nullptr, s2 ? s2 + k : nullptr,
                               s3 ? s3 + k : nullptr, s);
}

void fused_step_kernel(th::math::FusedOptimizer kind, const std::vector<th::Tensor>& params,
                       const std::vector<th::Tensor>& grads, const std::vector<th::Tensor>& s1,
                       const std::vector<th::Tensor>& s2, const std::vector<th::Tensor>& s3,
                       const th::math::FusedStep& s) {
  thc::DeviceGuard guard(params[0].device());
  TH_DISPATCH_FLOATING_TYPES(params[0].dtype(), "fused_step_cuda", [&] {
    th::math::with_fused_optimizer(kind, [&](auto k) {
      for (size_t i = 0; i < params.size(); ++i) {
        const int64_t n = params[i].numel();
        if (n == 0) continue;
        const auto state = [&](const std::vector<th::Tensor>& list) {
          return list.empty() ? nullptr : ptr<scalar_t>(list[i]);
        };
        fused_elements<decltype(k)::value, scalar_t>
            <<<thc::grid_for(n, 256), 256, 0, thc::current_stream()>>>(
                ptr<scalar_t>(params[i]), ptr<scalar_t>(grads[i]), state(s1), state(s2), state(s3), n, s);
      }
    });
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::adam_stub, CUDA, adam_kernel);
TH_REGISTER_KERNEL(th::fused_step_stub, CUDA, fused_step_kernel);
TH_REGISTER_KERNEL(th::sgd_stub, CUDA, sgd_kernel);

}  // namespace thcunn
