#pragma once
// The FFT kernels of one CPU capability (cpu/SpectralImpl.cpp over ducc0): the baseline copy in libTH,
// and an AVX2+FMA copy in the module libTH_fft_avx2.so, which cpu/SpectralKernels.cpp opens where the CPU
// has AVX2 (about 1.35x faster on a 2^20-point transform). Plain C types only across this boundary, and
// the module keeps its template instantiations to itself (hidden visibility, its own ducc0 namespace): the
// linker can never hand an AVX2 copy of a function to the baseline path.
#include <cstdint>

namespace th::cpu {

/// A strided array: element strides, as ducc0 takes them.
struct FFTArray {
  void* data;
  const int64_t* shape;
  const int64_t* strides;
  int ndim;
};

/// The transforms of the spectral family (ops/Spectral.h), on float (double_ false) or double data;
/// `axes` in the order the family gives them (r2c/c2r halve the last).
struct FFTKernels {
  void (*c2c)(bool double_, const FFTArray& in, const FFTArray& out, const int64_t* axes, int naxes,
              bool forward, double scale, int threads);
  void (*r2c)(bool double_, const FFTArray& in, const FFTArray& out, const int64_t* axes, int naxes,
              double scale, int threads);
  void (*c2r)(bool double_, const FFTArray& in, const FFTArray& out, const int64_t* axes, int naxes,
              double scale, int threads);
  const char* capability;  // "DEFAULT" or "AVX2"
};

/// libTH's baseline kernels.
const FFTKernels* fft_kernels_baseline();

}  // namespace th::cpu

/// The module's entry point (libTH_fft_avx2.so): its kernels.
extern "C" const th::cpu::FFTKernels* th_fft_kernels();
