// CUDA kernel of the random ops: the same Philox values as the CPU kernel (math/Philox.h), one
// thread per element.
#include <TH/ops/Random.h>

#include "DeviceGuard.h"
#include "Exception.h"
#include "Stream.h"

namespace thc {
namespace {

template <typename T>
__global__ void random_fill(T* p, int64_t n, uint64_t seed, uint64_t offset, th::math::RandomKind kind,
                            double a, double b) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x) {
    const double v = th::math::random_value(seed, offset + uint64_t(i), kind, a, b);
    if constexpr (th::is_floating_v<T>) {
      T x = static_cast<T>(v);
      if (kind == th::math::RandomKind::Uniform && x >= static_cast<T>(b) && b > a) x = static_cast<T>(a);
      p[i] = x;
    } else {
      p[i] = static_cast<T>(static_cast<int64_t>(v));
    }
  }
}

void random_kernel(const th::Tensor& out, uint64_t seed, uint64_t offset, th::math::RandomKind kind, double a,
                   double b) {
  DeviceGuard guard(out.device());
  const int64_t n = out.numel();
  TH_DISPATCH_ALL_TYPES(out.dtype(), "random_cuda", [&] {
    const int64_t blocks = std::min<int64_t>((n + 255) / 256, 65535);
    random_fill<scalar_t><<<static_cast<unsigned>(blocks), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<scalar_t*>(out.data_ptr()), n, seed, offset, kind, a, b);
  });
  THC_CHECK(cudaGetLastError());
}

template <typename T>
__global__ void parameterized_fill(const T* param, T* p, int64_t n, uint64_t seed, uint64_t offset,
                                   th::math::ParameterizedKind kind) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x)
    p[i] = static_cast<T>(static_cast<float>(
        th::math::random_parameterized(kind, double(param[i]), seed, offset + uint64_t(i))));
}

void parameterized_random_kernel(const th::Tensor& param, const th::Tensor& out, uint64_t seed,
                                 uint64_t offset, th::math::ParameterizedKind kind) {
  DeviceGuard guard(out.device());
  const int64_t n = out.numel();
  TH_DISPATCH_FLOATING_TYPES(out.dtype(), "parameterized_random_cuda", [&] {
    const int64_t blocks = std::min<int64_t>((n + 255) / 256, 65535);
    parameterized_fill<scalar_t><<<static_cast<unsigned>(blocks), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(param.data_ptr()), reinterpret_cast<scalar_t*>(out.data_ptr()), n,
        seed, offset, kind);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::random_stub, CUDA, random_kernel);
TH_REGISTER_KERNEL(th::parameterized_random_stub, CUDA, parameterized_random_kernel);

}  // namespace thc
