// CUDA kernel of the dropout family: a thread per element, the same Philox draw, mask and value as the CPU
// kernel (math/Dropout.h), so a seed gives the same mask on both devices.
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/math/Dropout.h>
#include <THNN/ops/Dropout.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

template <typename T>
__global__ void dropout_elements(const T* x, T* out, bool* mask, int64_t n, double p, double scale,
                                 uint64_t seed, uint64_t offset) {
  using A = th::opmath_t<T>;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x) {
    const bool keep = th::math::dropout_keep(seed, offset, i, p);
    mask[i] = keep;
    out[i] = T(th::math::dropout_value(A(x[i]), keep, A(scale)));
  }
}

void dropout_kernel(const th::Tensor& x, const th::Tensor& out, const th::Tensor& mask, double p,
                    double scale, uint64_t seed, uint64_t offset) {
  thc::DeviceGuard guard(x.device());
  const int64_t n = x.numel();
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "native_dropout_cuda", [&] {
    dropout_elements<scalar_t><<<thc::grid_for(n, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(x.data_ptr()), reinterpret_cast<scalar_t*>(out.data_ptr()),
        reinterpret_cast<bool*>(mask.data_ptr()), n, p, scale, seed, offset);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::dropout_stub, CUDA, dropout_kernel);

}  // namespace thcunn
