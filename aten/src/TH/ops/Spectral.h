#pragma once
// The spectral family: discrete Fourier transforms over some dims of a tensor (PyTorch's _fft_c2c,
// _fft_r2c, _fft_c2r, which torch.fft is written over); ops/Spectral.cpp, cpu/SpectralKernels.cpp
// (ducc0), THC/SpectralKernels.cu.
#include "../Dispatch.h"
#include "../Tensor.h"

namespace th {

/// out = scale * DFT of `in` over `dims` (exp(-2 pi i jk/n) forward, exp(+2 pi i jk/n) backward);
/// `in` complex (any strides), `out` complex and contiguous, of in's shape.
using fft_c2c_fn = void(const Tensor& in, const Tensor& out, const IntList& dims, bool forward, double scale);
/// The forward DFT of real `in` over `dims`, onesided: out's last transformed dim is n / 2 + 1 long.
using fft_r2c_fn = void(const Tensor& in, const Tensor& out, const IntList& dims, double scale);
/// The backward DFT over `dims` of the Hermitian signal whose onesided half is `in` (last transformed
/// dim out.size / 2 + 1 long), a real `out`.
using fft_c2r_fn = void(const Tensor& in, const Tensor& out, const IntList& dims, double scale);
TH_DECLARE_STUB(fft_c2c_fn, fft_c2c_stub);
TH_DECLARE_STUB(fft_r2c_fn, fft_r2c_stub);
TH_DECLARE_STUB(fft_c2r_fn, fft_c2r_stub);

}  // namespace th
