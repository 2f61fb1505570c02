// CUDA kernels of fill_, arange/linspace, add/sub/mul: the math/ functors over gpu_kernel (copy_ is
// in CopyKernels.cu: its every-dtype-to-every-dtype kernels are the bulk of a compile).
#include <TH/Kernels.h>
#include <TH/math/Binary.h>

#include "Loops.cuh"

namespace thc {
namespace {

void fill_kernel(th::TensorIterator& iter, const th::Scalar& value) {
  TH_DISPATCH_ALL_TYPES(iter.dtype(0), "fill_cuda", [&] {
    const scalar_t v = value.to<scalar_t>();
    gpu_kernel<scalar_t, 0>(iter, [v] __device__() { return v; });
  });
}

void add_kernel(th::TensorIterator& iter, const th::Scalar& alpha) {
  TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "add_cuda", [&] {
    using op_t = th::opmath_t<scalar_t>;
    gpu_kernel<scalar_t, 2>(iter, th::math::Add<op_t>{alpha.to<op_t>()});
  });
}

void mul_kernel(th::TensorIterator& iter, const th::Scalar&) {
  TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "mul_cuda", [&] {
    gpu_kernel_with_scalars<scalar_t>(iter, th::math::Mul<th::opmath_t<scalar_t>>{});
  });
}

template <typename T>
__global__ void range_rows(int64_t n, T* out, double start, double step, double end, bool linspace) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x) {
    out[i] = th::math::range_value<T>(i, n, start, step, end, linspace);
  }
}

void range_kernel(const th::Tensor& out, double start, double step, double end, bool linspace) {
  const int64_t n = out.numel();
  DeviceGuard guard(out.device());
  TH_DISPATCH_NUMERIC_TYPES(out.dtype(), "range_cuda", [&] {
    range_rows<scalar_t><<<grid_for(n, 256), 256>>>(n, reinterpret_cast<scalar_t*>(out.data_ptr()), start,
                                                    step, end, linspace);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::range_stub, CUDA, range_kernel);
TH_REGISTER_KERNEL(th::fill_stub, CUDA, fill_kernel);
TH_REGISTER_KERNEL(th::add_stub, CUDA, add_kernel);
TH_REGISTER_KERNEL(th::mul_stub, CUDA, mul_kernel);

}  // namespace thc
