// CUDA kernels of the spectral family. The toolkit here has no cuFFT, so a transform of CUDA tensors
// runs the CPU kernel (ducc0) on host copies and copies the result back: correct on every GPU, and
// slow (a host round trip); cuFFT from its wheel is the replacement (issue 18).
#include <TH/Functions.h>
#include <TH/ops/Spectral.h>

namespace thc {
namespace {

th::Tensor host(const th::Tensor& t) { return th::to(t, th::Device(), t.dtype(), false, false); }

/// Runs `cpu(in_host, out_host)` and copies out_host into the CUDA `out`.
template <typename F>
void on_host(const th::Tensor& in, const th::Tensor& out, F cpu) {
  th::Tensor hin = host(in), hout = th::empty_tensor(out.sizes(), out.dtype(), th::Device());
  cpu(hin, hout);
  th::Tensor dst = out;
  th::copy_(dst, hout);
}

void c2c_kernel(const th::Tensor& in, const th::Tensor& out, const th::IntList& dims, bool forward,
                double scale) {
  on_host(in, out, [&](const th::Tensor& i, const th::Tensor& o) {
    th::fft_c2c_stub[th::DeviceType::CPU](i, o, dims, forward, scale);
  });
}
void r2c_kernel(const th::Tensor& in, const th::Tensor& out, const th::IntList& dims, double scale) {
  on_host(in, out, [&](const th::Tensor& i, const th::Tensor& o) {
    th::fft_r2c_stub[th::DeviceType::CPU](i, o, dims, scale);
  });
}
void c2r_kernel(const th::Tensor& in, const th::Tensor& out, const th::IntList& dims, double scale) {
  on_host(in, out, [&](const th::Tensor& i, const th::Tensor& o) {
    th::fft_c2r_stub[th::DeviceType::CPU](i, o, dims, scale);
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::fft_c2c_stub, CUDA, c2c_kernel);
TH_REGISTER_KERNEL(th::fft_r2c_stub, CUDA, r2c_kernel);
TH_REGISTER_KERNEL(th::fft_c2r_stub, CUDA, c2r_kernel);

}  // namespace thc
