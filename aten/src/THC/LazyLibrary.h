#pragma once
// A CUDA vendor library (cuBLAS, cuFFT, cuSOLVER) opened on its first use rather than at `import torch`:
// loading cuBLAS costs ~70 ms and ~240 MB of relocated memory that CPU-only work never needs, and a library
// missing at run time (its wheel uninstalled after the build) then means THC's own kernels, not an
// import error. dlopen finds it through libTHC's runpath (the wheel's lib folder: cmake/TorchCUDALibs.cmake),
// never LD_LIBRARY_PATH alone.
#include <mutex>
#include <string>

/// "libcublas.so." "13" from a header's version macro: THC_SONAME("libcublas.so.", CUBLAS_VER_MAJOR).
#define THC_SONAME(stem, major) stem THC_STR_(major)
#define THC_STR_(x) THC_STR2_(x)
#define THC_STR2_(x) #x

namespace thc {

class LazyLibrary {
 public:
  /// `soname` as the wheel ships it ("libcublas.so.13"); `wheel` names the package for messages.
  LazyLibrary(const char* soname, const char* wheel) : soname_(soname), wheel_(wheel) {}
  /// Whether the library could be opened (tried once; thread-safe).
  bool available();
  /// The address of `name` in it; raises th::Error naming the library and its wheel when either is missing.
  void* symbol(const char* name);
  /// `symbol` cast to the function type F.
  template <typename F>
  F* function(const char* name) {
    return reinterpret_cast<F*>(symbol(name));
  }

 private:
  const char* soname_;
  const char* wheel_;
  std::once_flag once_;
  void* handle_ = nullptr;
  std::string error_;
};

/// Whether cuBLAS (LinearKernels.cu), cuFFT (SpectralKernels.cu) and cuSOLVER (LinearAlgebraKernels.cu) are
/// in this build and load now.
bool cublas_available();
bool cufft_available();
bool cusolver_available();

}  // namespace thc
