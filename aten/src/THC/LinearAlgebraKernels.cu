// CUDA kernels of the linear-algebra family (TH/ops/LinearAlgebra.h). The toolkit here has neither cuSOLVER
// nor cuBLAS, so for now each kernel copies its operands to host memory (same sizes and strides), runs the
// CPU's LAPACK kernel on them and copies what it wrote back: correct on every device, and the one place to
// put cuSOLVER's batched routines (getrf/potrf/geqrf/syevd/gesvdj from the nvidia-cusolver wheel) later.
#include <TH/Functions.h>
#include <TH/ops/LinearAlgebra.h>

namespace thc {
namespace {

using th::Tensor;

/// A host tensor with t's sizes and strides (over a buffer spanning them), holding t's values.
Tensor on_host(const Tensor& t) {
  int64_t extent = t.numel() > 0 ? 1 : 0;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.size(d) > 0) extent += (t.size(d) - 1) * t.stride(d);
  Tensor buffer = th::empty_tensor({extent}, t.dtype(), th::Device());
  Tensor h = th::as_strided(buffer, t.sizes(), t.strides(), int64_t(0));
  if (t.numel() > 0) th::copy_(h, t);
  return h;
}

/// Copies the host result `h` back into the device tensor `t`.
void to_device(const Tensor& t, const Tensor& h) {
  Tensor out = t;
  if (t.numel() > 0) th::copy_(out, h);
}

constexpr th::DeviceType kCPU = th::DeviceType::CPU;

void lu_factor_kernel(const Tensor& a, const Tensor& pivots, const Tensor& info) {
  const Tensor ha = on_host(a), hp = on_host(pivots), hi = on_host(info);
  th::lu_factor_stub[kCPU](ha, hp, hi);
  to_device(a, ha), to_device(pivots, hp), to_device(info, hi);
}

void lu_solve_kernel(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool trans) {
  const Tensor hb = on_host(b);
  th::lu_solve_stub[kCPU](on_host(lu), on_host(pivots), hb, trans);
  to_device(b, hb);
}

void ldl_factor_kernel(const Tensor& a, const Tensor& pivots, const Tensor& info, bool hermitian) {
  const Tensor ha = on_host(a), hp = on_host(pivots), hi = on_host(info);
  th::ldl_factor_stub[kCPU](ha, hp, hi, hermitian);
  to_device(a, ha), to_device(pivots, hp), to_device(info, hi);
}

void ldl_solve_kernel(const Tensor& ld, const Tensor& pivots, const Tensor& b, bool hermitian) {
  const Tensor hb = on_host(b);
  th::ldl_solve_stub[kCPU](on_host(ld), on_host(pivots), hb, hermitian);
  to_device(b, hb);
}

void cholesky_kernel(const Tensor& a, bool upper, const Tensor& info) {
  const Tensor ha = on_host(a), hi = on_host(info);
  th::cholesky_stub[kCPU](ha, upper, hi);
  to_device(a, ha), to_device(info, hi);
}

void triangular_solve_kernel(const Tensor& a, const Tensor& b, bool upper, bool left, bool trans, bool unit) {
  const Tensor hb = on_host(b);
  th::triangular_solve_stub[kCPU](on_host(a), hb, upper, left, trans, unit);
  to_device(b, hb);
}

void geqrf_kernel(const Tensor& a, const Tensor& tau) {
  const Tensor ha = on_host(a), ht = on_host(tau);
  th::geqrf_stub[kCPU](ha, ht);
  to_device(a, ha), to_device(tau, ht);
}

void householder_product_kernel(const Tensor& a, const Tensor& tau) {
  const Tensor ha = on_host(a);
  th::householder_product_stub[kCPU](ha, on_host(tau));
  to_device(a, ha);
}

void eigh_kernel(const Tensor& a, const Tensor& w, bool upper, bool compute_v, const Tensor& info) {
  const Tensor ha = on_host(a), hw = on_host(w), hi = on_host(info);
  th::eigh_stub[kCPU](ha, hw, upper, compute_v, hi);
  to_device(a, ha), to_device(w, hw), to_device(info, hi);
}

void eig_kernel(const Tensor& a, const Tensor& wr, const Tensor& wi, const Tensor& vr, bool compute_v,
                const Tensor& info) {
  const Tensor ha = on_host(a), hr = on_host(wr), him = on_host(wi), hv = on_host(vr), hi = on_host(info);
  th::eig_stub[kCPU](ha, hr, him, hv, compute_v, hi);
  to_device(wr, hr), to_device(wi, him), to_device(vr, hv), to_device(info, hi);
}

void svd_kernel(const Tensor& a, const Tensor& u, const Tensor& s, const Tensor& vt, bool full,
                bool compute_uv, const Tensor& info) {
  const Tensor ha = on_host(a), hu = on_host(u), hs = on_host(s), hv = on_host(vt), hi = on_host(info);
  th::svd_stub[kCPU](ha, hu, hs, hv, full, compute_uv, hi);
  to_device(u, hu), to_device(s, hs), to_device(vt, hv), to_device(info, hi);
}

}  // namespace

TH_REGISTER_KERNEL(th::lu_factor_stub, CUDA, lu_factor_kernel);
TH_REGISTER_KERNEL(th::ldl_factor_stub, CUDA, ldl_factor_kernel);
TH_REGISTER_KERNEL(th::ldl_solve_stub, CUDA, ldl_solve_kernel);
TH_REGISTER_KERNEL(th::lu_solve_stub, CUDA, lu_solve_kernel);
TH_REGISTER_KERNEL(th::cholesky_stub, CUDA, cholesky_kernel);
TH_REGISTER_KERNEL(th::triangular_solve_stub, CUDA, triangular_solve_kernel);
TH_REGISTER_KERNEL(th::geqrf_stub, CUDA, geqrf_kernel);
TH_REGISTER_KERNEL(th::householder_product_stub, CUDA, householder_product_kernel);
TH_REGISTER_KERNEL(th::eigh_stub, CUDA, eigh_kernel);
TH_REGISTER_KERNEL(th::eig_stub, CUDA, eig_kernel);
TH_REGISTER_KERNEL(th::svd_stub, CUDA, svd_kernel);

}  // namespace thc
