// CUDA kernels of the convolution family: im2col a thread per element of the columns matrix, col2im a
// thread per input element gathering its column elements (math/Convolution.h; no atomics).
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/ops/Convolution.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

template <typename T>
__global__ void im2col_elements(const T* x, T* cols, th::math::ConvGeometry g, int64_t B) {
  const int64_t R = g.rows(), L = g.out_numel(), total = B * R * L;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(blockDim.x) * gridDim.x) {  // i = (row * B + b) * L + col
    const int64_t col = i % L, b = (i / L) % B, row = i / (L * B);
    cols[i] = g.column(x + b * g.C * g.in_numel(), row, col);
  }
}

template <typename T>
__global__ void col2im_elements(const T* cols, T* grad_x, th::math::ConvGeometry g, int64_t B) {
  using A = th::opmath_t<T>;
  const int64_t P = g.C * g.in_numel(), L = g.out_numel(), total = B * P;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(blockDim.x) * gridDim.x) {
    const int64_t b = i / P;
    grad_x[i] = T(g.input_gradient<T, A>(cols + b * L, B * L, i % P));
  }
}

void im2col_kernel(const th::Tensor& x, const th::Tensor& cols, const th::math::ConvGeometry& g) {
  thc::DeviceGuard guard(x.device());
  const int64_t B = x.size(0);
  THNN_DISPATCH_IM2COL_TYPES(x.dtype(), "im2col_cuda", [&] {
    im2col_elements<scalar_t>
        <<<thc::grid_for(B * g.rows() * g.out_numel(), 256), 256, 0, thc::current_stream()>>>(
            reinterpret_cast<const scalar_t*>(x.data_ptr()), reinterpret_cast<scalar_t*>(cols.data_ptr()), g,
            B);
  });
  THC_CHECK(cudaGetLastError());
}

void col2im_kernel(const th::Tensor& cols, const th::Tensor& grad_x, const th::math::ConvGeometry& g) {
  thc::DeviceGuard guard(grad_x.device());
  const int64_t B = grad_x.size(0);
  THNN_DISPATCH_IM2COL_TYPES(grad_x.dtype(), "col2im_cuda", [&] {
    col2im_elements<scalar_t><<<thc::grid_for(B * g.C * g.in_numel(), 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(cols.data_ptr()), reinterpret_cast<scalar_t*>(grad_x.data_ptr()), g,
        B);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::im2col_stub, CUDA, im2col_kernel);
TH_REGISTER_KERNEL(th::col2im_stub, CUDA, col2im_kernel);

}  // namespace thcunn
