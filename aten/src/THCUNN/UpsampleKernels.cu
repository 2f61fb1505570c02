// CUDA kernels of the upsample family (math/Upsample.h): the forward a thread per output element (its taps,
// or an antialiased window, computed in place), the backward a thread per line (its outputs in turn: no
// atomics, deterministic).
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/math/Upsample.h>
#include <THNN/ops/Upsample.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

template <typename T>
__global__ void resample_outputs(const T* x, T* out, th::math::Resample1d r, int64_t inner, int64_t total) {
  using A =
      std::conditional_t<th::is_floating_v<T>, th::opmath_t<T>, double>;  // (uint8: rounded at each pass)
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(blockDim.x) * gridDim.x) {
    const int64_t b = i % inner, o = (i / inner) % r.out, a = i / (inner * r.out);
    const T* line = x + a * r.in * inner + b;
    if (r.mode == th::math::ResampleMode::Nearest || r.mode == th::math::ResampleMode::NearestExact) {
      out[i] = line[r.taps(o).idx[0] * inner];
    } else if constexpr (!std::is_same_v<T, bool>) {
      A acc = 0;
      bool first = true;  // the first product as is (-0.0 stays), as the CPU's loop
      r.for_each_tap(o, [&](int64_t k, double w) {
        const A p = A(w) * A(line[k * inner]);
        acc = first ? p : acc + p;
        first = false;
      });
      out[i] = th::math::resample_store<T>(acc);
    }
  }
}

template <typename T>
__global__ void resample_backward_lines(const T* g, T* gi, th::math::Resample1d r, int64_t inner,
                                        int64_t lines) {
  for (int64_t line = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; line < lines;
       line += int64_t(blockDim.x) * gridDim.x) {
    const int64_t a = line / inner, b = line % inner;
    th::math::resample_backward_line<T, th::opmath_t<T>>(r, g + a * r.out * inner + b,
                                                         gi + a * r.in * inner + b, inner);
  }
}

void resample_kernel(const th::Tensor& x, const th::Tensor& out, const th::math::Resample1d& r, int64_t outer,
                     int64_t inner) {
  thc::DeviceGuard guard(x.device());
  const int64_t total = out.numel();
  TH_DISPATCH_ALL_TYPES(x.dtype(), "upsample_cuda", [&] {
    resample_outputs<scalar_t><<<thc::grid_for(total, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(x.data_ptr()), reinterpret_cast<scalar_t*>(out.data_ptr()), r,
        inner, total);
  });
  THC_CHECK(cudaGetLastError());
}

void resample_backward_kernel(const th::Tensor& grad_out, const th::Tensor& grad_in,
                              const th::math::Resample1d& r, int64_t outer, int64_t inner) {
  thc::DeviceGuard guard(grad_in.device());
  const int64_t lines = outer * inner;
  TH_DISPATCH_FLOATING_TYPES(grad_in.dtype(), "upsample_backward_cuda", [&] {
    resample_backward_lines<scalar_t><<<thc::grid_for(lines, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(grad_out.data_ptr()),
        reinterpret_cast<scalar_t*>(grad_in.data_ptr()), r, inner, lines);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::resample_stub, CUDA, resample_kernel);
TH_REGISTER_KERNEL(th::resample_backward_stub, CUDA, resample_backward_kernel);

}  // namespace thcunn
