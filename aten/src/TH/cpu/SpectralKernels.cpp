// CPU kernels of the spectral family through ducc0's FFT (cmake/TorchFFT.cmake): the tensors are
// handed over as strided views (ducc0's cfmav/vfmav take element strides), so no input is copied.
// Large transforms use as many of ducc0's threads as torch.get_num_threads().
#include "../Parallel.h"
#include "../ScalarType.h"
#include "../ops/Spectral.h"

#ifdef TORCH_HAVE_DUCC0
#include <ducc0/fft/fft.h>
#endif

namespace th {
namespace {

#ifdef TORCH_HAVE_DUCC0
using ducc0::cfmav;
using ducc0::vfmav;
using shape_t = ducc0::fmav_info::shape_t;
using stride_t = ducc0::fmav_info::stride_t;

ducc0::fmav_info layout(const Tensor& t) {
  shape_t shape(t.sizes().begin(), t.sizes().end());
  stride_t stride(t.strides().begin(), t.strides().end());
  return {shape, stride};
}
template <typename T>
cfmav<T> in_view(const Tensor& t) {
  const ducc0::fmav_info info = layout(t);
  return cfmav<T>(reinterpret_cast<const T*>(t.data_ptr()), info.shape(), info.stride());
}
template <typename T>
vfmav<T> out_view(const Tensor& t) {
  const ducc0::fmav_info info = layout(t);
  return vfmav<T>(reinterpret_cast<T*>(t.data_ptr()), info.shape(), info.stride());
}
shape_t axes(const IntList& dims) { return shape_t(dims.begin(), dims.end()); }
/// ducc0's threads for a transform of n points in all: one below a size where threads pay off.
size_t threads_for(int64_t n) { return n >= (int64_t(1) << 16) ? size_t(std::max(1, get_num_threads())) : 1; }

void c2c_kernel(const Tensor& in, const Tensor& out, const IntList& dims, bool forward, double scale) {
  TH_DISPATCH_COMPLEX_TYPES(in.dtype(), "fft_c2c_cpu", [&] {
    using R = real_t<scalar_t>;
    ducc0::c2c(in_view<std::complex<R>>(in), out_view<std::complex<R>>(out), axes(dims), forward, R(scale),
               threads_for(in.numel()));
  });
}

void r2c_kernel(const Tensor& in, const Tensor& out, const IntList& dims, double scale) {
  TH_DISPATCH_COMPLEX_TYPES(out.dtype(), "fft_r2c_cpu", [&] {  // in is out's real type
    using R = real_t<scalar_t>;
    ducc0::r2c(in_view<R>(in), out_view<std::complex<R>>(out), axes(dims), true, R(scale),
               threads_for(in.numel()));
  });
}

void c2r_kernel(const Tensor& in, const Tensor& out, const IntList& dims, double scale) {
  TH_DISPATCH_COMPLEX_TYPES(in.dtype(), "fft_c2r_cpu", [&] {
    using R = real_t<scalar_t>;
    ducc0::c2r(in_view<std::complex<R>>(in), out_view<R>(out), axes(dims), false, R(scale),
               threads_for(out.numel()));
  });
}
#else
[[noreturn]] void missing() {
  throw Error(
      "torch.fft is not available: this build has no ducc0 (its sources could not be downloaded when CMake "
      "configured; reconfigure with network access: `invoke configure --fresh develop`)");
}
void c2c_kernel(const Tensor&, const Tensor&, const IntList&, bool, double) { missing(); }
void r2c_kernel(const Tensor&, const Tensor&, const IntList&, double) { missing(); }
void c2r_kernel(const Tensor&, const Tensor&, const IntList&, double) { missing(); }
#endif

}  // namespace

TH_REGISTER_KERNEL(fft_c2c_stub, CPU, c2c_kernel);
TH_REGISTER_KERNEL(fft_r2c_stub, CPU, r2c_kernel);
TH_REGISTER_KERNEL(fft_c2r_stub, CPU, c2r_kernel);

}  // namespace th
