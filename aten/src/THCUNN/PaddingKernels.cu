// CUDA kernels of the padding family (math/Padding.h): the forward a thread per output element, the backward
// a thread per line along the dim (its outputs in turn: no two threads add to one element, no atomics).
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/math/Padding.h>
#include <THNN/ops/Padding.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

template <typename T>
__global__ void pad_outputs(const T* x, T* out, th::math::PadGeometry g, T fill, int64_t total) {
  const int64_t L = g.out_numel(), I = g.in_numel();
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(blockDim.x) * gridDim.x) {
    const int64_t s = g.source(i % L);
    out[i] = s < 0 ? fill : x[(i / L) * I + s];
  }
}

template <typename T>
__global__ void pad_backward_lines(const T* out, T* in, int64_t lines, int64_t inner, int64_t L, int64_t n,
                                   int64_t left, th::math::PadMode mode) {
  for (int64_t line = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; line < lines;
       line += int64_t(blockDim.x) * gridDim.x) {
    const int64_t a = line / inner, b = line % inner;
    th::math::pad_backward_line<T, th::opmath_t<T>>(out + a * L * inner + b, in + a * n * inner + b, L, n,
                                                    inner, left, mode);
  }
}

void pad_kernel(const th::Tensor& x, const th::Tensor& out, const th::math::PadGeometry& g,
                const th::Scalar& value) {
  thc::DeviceGuard guard(x.device());
  const int64_t total = out.numel();
  TH_DISPATCH_ALL_TYPES(x.dtype(), "pad_cuda", [&] {
    pad_outputs<scalar_t><<<thc::grid_for(total, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(x.data_ptr()), reinterpret_cast<scalar_t*>(out.data_ptr()), g,
        value.to<scalar_t>(), total);
  });
  THC_CHECK(cudaGetLastError());
}

void pad_backward_kernel(const th::Tensor& out, const th::Tensor& in, int64_t dim, int64_t left,
                         th::math::PadMode mode) {
  thc::DeviceGuard guard(in.device());
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < dim; ++k) outer *= in.size(k);
  for (int64_t k = dim + 1; k < in.dim(); ++k) inner *= in.size(k);
  const int64_t lines = outer * inner;
  TH_DISPATCH_FLOATING_TYPES(in.dtype(), "pad_backward_cuda", [&] {
    pad_backward_lines<scalar_t><<<thc::grid_for(lines, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(out.data_ptr()), reinterpret_cast<scalar_t*>(in.data_ptr()), lines,
        inner, out.size(dim), in.size(dim), left, mode);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::pad_stub, CUDA, pad_kernel);
TH_REGISTER_KERNEL(th::pad_backward_stub, CUDA, pad_backward_kernel);

}  // namespace thcunn
