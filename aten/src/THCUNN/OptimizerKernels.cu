// CUDA kernels of the optimizer family: a thread per element of each parameter (math/Optimizer.h), one
// launch per parameter.
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
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
      adam_elements<scalar_t><<<thc::grid_for(n, 256), 256>>>(
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
      sgd_elements<scalar_t><<<thc::grid_for(n, 256), 256>>>(
          ptr<scalar_t>(params[i]), ptr<scalar_t>(grads[i]),
          momentum_buffers.empty() ? nullptr : ptr<scalar_t>(momentum_buffers[i]), n, s);
    }
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::adam_stub, CUDA, adam_kernel);
TH_REGISTER_KERNEL(th::sgd_stub, CUDA, sgd_kernel);

}  // namespace thcunn
