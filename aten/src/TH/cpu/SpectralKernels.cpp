// CPU kernels of the spectral family through ducc0's FFT (cmake/TorchFFT.cmake): the tensors are handed
// to cpu/SpectralImpl.cpp's kernels as strided views, no input copied, with as many of ducc0's threads as
// torch.get_num_threads() for large transforms. Where the CPU has AVX2 (and TH_CPU_CAPABILITY does not cap
// it), the kernels come from libTH_fft_avx2.so, opened on the first transform; libTH's baseline copy
// otherwise, or if that module cannot be opened.
#include "../Parallel.h"
#include "../ScalarType.h"
#include "../ops/Spectral.h"

#ifdef TORCH_HAVE_DUCC0
#include <dlfcn.h>

#include <cstring>

#include "SpectralImpl.h"
#include "VecKernels.h"
#endif

namespace th {
namespace {

#ifdef TORCH_HAVE_DUCC0
const cpu::FFTKernels& kernels() {
  static const cpu::FFTKernels* k = [] {
    if (std::strcmp(cpu::vec_capability(), "DEFAULT") != 0) {                // AVX2 or better, not capped
      if (void* lib = dlopen("libTH_fft_avx2.so", RTLD_NOW | RTLD_LOCAL)) {  // found beside libTH ($ORIGIN)
        using entry_fn = const cpu::FFTKernels* (*)();
        if (auto entry = reinterpret_cast<entry_fn>(dlsym(lib, "th_fft_kernels"))) return entry();
      }
    }
    return cpu::fft_kernels_baseline();
  }();
  return *k;
}

/// The strided view of `t` that the kernels take (its sizes and strides stay alive with t).
cpu::FFTArray array(const Tensor& t) {
  return {t.data_ptr(), t.sizes().data(), t.strides().data(), int(t.dim())};
}
/// ducc0's threads for a transform of n points in all: one below a size where threads pay off.
int threads_for(int64_t n) { return n >= (int64_t(1) << 16) ? std::max(1, get_num_threads()) : 1; }
bool is_double(ScalarType t) { return t == ScalarType::ComplexDouble || t == ScalarType::Double; }

void c2c_kernel(const Tensor& in, const Tensor& out, const IntList& dims, bool forward, double scale) {
  kernels().c2c(is_double(in.dtype()), array(in), array(out), dims.data(), int(dims.size()), forward, scale,
                threads_for(in.numel()));
}
void r2c_kernel(const Tensor& in, const Tensor& out, const IntList& dims, double scale) {
  kernels().r2c(is_double(in.dtype()), array(in), array(out), dims.data(), int(dims.size()), scale,
                threads_for(in.numel()));
}
void c2r_kernel(const Tensor& in, const Tensor& out, const IntList& dims, double scale) {
  kernels().c2r(is_double(out.dtype()), array(in), array(out), dims.data(), int(dims.size()), scale,
                threads_for(out.numel()));
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
