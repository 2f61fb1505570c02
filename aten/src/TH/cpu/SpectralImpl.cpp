// The FFT kernels of one CPU capability through ducc0 (see SpectralImpl.h): compiled into libTH at the
// baseline, and into libTH_fft_avx2.so with -mavx2 -mfma, DUCC0_NAMESPACE=ducc0_avx2 and TH_FFT_MODULE.
// The tensors are handed over as strided views (ducc0's cfmav/vfmav), so no input is copied.
#include "SpectralImpl.h"

#include <complex>

#include <ducc0/fft/fft.h>

namespace {

namespace dn = DUCC0_NAMESPACE;
using shape_t = dn::fmav_info::shape_t;
using stride_t = dn::fmav_info::stride_t;

template <typename T>
dn::cfmav<T> in_view(const th::cpu::FFTArray& a) {
  return dn::cfmav<T>(static_cast<const T*>(a.data), shape_t(a.shape, a.shape + a.ndim),
                      stride_t(a.strides, a.strides + a.ndim));
}
template <typename T>
dn::vfmav<T> out_view(const th::cpu::FFTArray& a) {
  return dn::vfmav<T>(static_cast<T*>(a.data), shape_t(a.shape, a.shape + a.ndim),
                      stride_t(a.strides, a.strides + a.ndim));
}
shape_t axes_of(const int64_t* axes, int n) { return shape_t(axes, axes + n); }

template <typename R>
void c2c_t(const th::cpu::FFTArray& in, const th::cpu::FFTArray& out, const int64_t* axes, int naxes,
           bool forward, double scale, int threads) {
  dn::c2c(in_view<std::complex<R>>(in), out_view<std::complex<R>>(out), axes_of(axes, naxes), forward,
          R(scale), size_t(threads));
}
template <typename R>
void r2c_t(const th::cpu::FFTArray& in, const th::cpu::FFTArray& out, const int64_t* axes, int naxes,
           double scale, int threads) {
  dn::r2c(in_view<R>(in), out_view<std::complex<R>>(out), axes_of(axes, naxes), true, R(scale),
          size_t(threads));
}
template <typename R>
void c2r_t(const th::cpu::FFTArray& in, const th::cpu::FFTArray& out, const int64_t* axes, int naxes,
           double scale, int threads) {
  dn::c2r(in_view<std::complex<R>>(in), out_view<R>(out), axes_of(axes, naxes), false, R(scale),
          size_t(threads));
}

void c2c(bool dbl, const th::cpu::FFTArray& in, const th::cpu::FFTArray& out, const int64_t* axes, int naxes,
         bool forward, double scale, int threads) {
  dbl ? c2c_t<double>(in, out, axes, naxes, forward, scale, threads)
      : c2c_t<float>(in, out, axes, naxes, forward, scale, threads);
}
void r2c(bool dbl, const th::cpu::FFTArray& in, const th::cpu::FFTArray& out, const int64_t* axes, int naxes,
         double scale, int threads) {
  dbl ? r2c_t<double>(in, out, axes, naxes, scale, threads)
      : r2c_t<float>(in, out, axes, naxes, scale, threads);
}
void c2r(bool dbl, const th::cpu::FFTArray& in, const th::cpu::FFTArray& out, const int64_t* axes, int naxes,
         double scale, int threads) {
  dbl ? c2r_t<double>(in, out, axes, naxes, scale, threads)
      : c2r_t<float>(in, out, axes, naxes, scale, threads);
}

#ifdef TH_FFT_MODULE
const th::cpu::FFTKernels kernels{&c2c, &r2c, &c2r, "AVX2"};
#else
const th::cpu::FFTKernels kernels{&c2c, &r2c, &c2r, "DEFAULT"};
#endif

}  // namespace

#ifdef TH_FFT_MODULE
extern "C" __attribute__((visibility("default"))) const th::cpu::FFTKernels* th_fft_kernels() {
  return &kernels;
}
#else
const th::cpu::FFTKernels* th::cpu::fft_kernels_baseline() { return &kernels; }
#endif
