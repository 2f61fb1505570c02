// CUDA kernels of the linear-algebra family (TH/ops/LinearAlgebra.h). With cuSOLVER (the nvidia-cusolver
// wheel: cmake/TorchCUDALibs.cmake; opened on first use, CuSolver.h) the factorizations run on the device,
// one call per matrix of the batch, on the current stream: getrf/getrs (LU and its solve), potrf
// (Cholesky), geqrf and orgqr/ungqr (QR), syevd/heevd (eigh), gesvdj (SVD by Jacobi rotations: any shape,
// V turned into Vt by one adjoint copy), and cuBLAS's trsm for the triangular solves. Without it (not in
// the build, or its wheel gone since), for empty or int32-overflowing operands, and for what cuSOLVER has no
// routine of (geev's real eigenvector pairs, sytrs/hetrs; upstream runs eig on the host too), a kernel
// copies its operands to host memory (same sizes and strides), runs the CPU's LAPACK kernel on them and
// copies what it wrote back: correct on every device.
#include <TH/Functions.h>
#include <TH/ops/LinearAlgebra.h>

#include <algorithm>
#include <climits>

#include "CuSolver.h"
#include "Cublas.h"
#include "DeviceGuard.h"

namespace th {
Tensor conj(const Tensor& self);  // ops/ComplexParts.cpp (declared by the generated bindings)
}  // namespace th

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

#ifdef THC_HAVE_CUSOLVER
/// Whether cuSOLVER takes the batch of matrices `a` ([B, m, n]): the library loads, every matrix is
/// non-empty (cuSOLVER wants positive leading dimensions; the host path has nothing to compute there) and
/// within its 32-bit sizes.
bool use_cusolver(const Tensor& a) {
  const int64_t elements = a.dim() == 3 ? a.size(1) * a.size(2) : 0;
  return a.numel() > 0 && elements <= INT_MAX / 2 && cusolver().available() && cublas().available();
}

/// The element type cuSOLVER and cuBLAS take for T: their own complex structs (layout-compatible with
/// th::complex) for the complex types.
template <typename T>
struct Raw {
  using type = T;
};
template <>
struct Raw<th::complex<float>> {
  using type = cuComplex;
};
template <>
struct Raw<th::complex<double>> {
  using type = cuDoubleComplex;
};

/// Matrix (or vector) b of the batch t, as the libraries' element type R.
template <typename T, typename R = typename Raw<T>::type>
R* at(const Tensor& t, int64_t b) {
  return reinterpret_cast<R*>(t.data_ptr()) + b * t.stride(0);
}

int* int_at(const Tensor& t, int64_t b) { return reinterpret_cast<int*>(t.data_ptr()) + b * t.stride(0); }

/// A routine of the lazily opened library, under a name common to the four element types.
#define THC_SOLVER_ROUTINE(member, symbol) \
  decltype(&symbol) member = cusolver().function<decltype(symbol)>(#symbol);
#define THC_BLAS_ROUTINE(member, symbol) \
  decltype(&symbol) member = cublas().function<decltype(symbol)>(#symbol);

/// cuSOLVER's routines (and cuBLAS's trsm) of element type T, looked up once on first use; Q is orgqr for
/// the real types and ungqr for the complex ones, E syevd or heevd.
template <typename T>
struct Solver;
#define THC_SOLVER_BIND(T, P, Q, E)                                   \
  template <>                                                         \
  struct Solver<T> {                                                  \
    THC_SOLVER_ROUTINE(getrf_size, cusolverDn##P##getrf_bufferSize)   \
    THC_SOLVER_ROUTINE(getrf, cusolverDn##P##getrf)                   \
    THC_SOLVER_ROUTINE(getrs, cusolverDn##P##getrs)                   \
    THC_SOLVER_ROUTINE(potrf_size, cusolverDn##P##potrf_bufferSize)   \
    THC_SOLVER_ROUTINE(potrf, cusolverDn##P##potrf)                   \
    THC_SOLVER_ROUTINE(geqrf_size, cusolverDn##P##geqrf_bufferSize)   \
    THC_SOLVER_ROUTINE(geqrf, cusolverDn##P##geqrf)                   \
    THC_SOLVER_ROUTINE(orgqr_size, cusolverDn##P##Q##_bufferSize)     \
    THC_SOLVER_ROUTINE(orgqr, cusolverDn##P##Q)                       \
    THC_SOLVER_ROUTINE(syevd_size, cusolverDn##P##E##_bufferSize)     \
    THC_SOLVER_ROUTINE(syevd, cusolverDn##P##E)                       \
    THC_SOLVER_ROUTINE(gesvdj_size, cusolverDn##P##gesvdj_bufferSize) \
    THC_SOLVER_ROUTINE(gesvdj, cusolverDn##P##gesvdj)                 \
    THC_BLAS_ROUTINE(trsm, cublas##P##trsm_v2)                        \
    static const Solver& get() {                                      \
      static const Solver s;                                          \
      return s;                                                       \
    }                                                                 \
  };
THC_SOLVER_BIND(float, S, orgqr, syevd)
THC_SOLVER_BIND(double, D, orgqr, syevd)
THC_SOLVER_BIND(th::complex<float>, C, ungqr, heevd)
THC_SOLVER_BIND(th::complex<double>, Z, ungqr, heevd)
#undef THC_SOLVER_BIND
#undef THC_SOLVER_ROUTINE
#undef THC_BLAS_ROUTINE

/// A workspace of `n` elements of like's dtype on its device, from the caching allocator: freed when the
/// kernel returns, after its routines are queued on the current stream (the allocator reuses it on that
/// stream only after them).
Tensor workspace(const Tensor& like, int64_t n) {
  return th::empty_tensor({std::max<int64_t>(n, 1)}, like.dtype(), like.device());
}

/// The info argument of the routines whose info says nothing for a valid input (getrs, geqrf, orgqr).
Tensor scratch_info(const Tensor& like) { return th::empty_tensor({1}, th::ScalarType::Int, like.device()); }

cublasFillMode_t fill(bool upper) { return upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER; }

/// The transpose of a solve with the adjoint: conjugating for the complex types.
template <typename T>
cublasOperation_t adjoint_op() {
  return th::is_complex_v<T> ? CUBLAS_OP_C : CUBLAS_OP_T;
}

void lu_factor_cusolver(const Tensor& a, const Tensor& pivots, const Tensor& info) {
  const int m = int(a.size(1)), n = int(a.size(2));
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "lu_cuda", [&] {
    const auto& s = Solver<scalar_t>::get();
    cusolverDnHandle_t h = cusolver_handle_on_stream();
    int lwork = 0;
    cusolver_check(s.getrf_size(h, m, n, at<scalar_t>(a, 0), m, &lwork), "cusolverDn<t>getrf_bufferSize");
    const Tensor work = workspace(a, lwork);
    for (int64_t b = 0; b < a.size(0); ++b)
      cusolver_check(
          s.getrf(h, m, n, at<scalar_t>(a, b), m, at<scalar_t>(work, 0), int_at(pivots, b), int_at(info, b)),
          "cusolverDn<t>getrf");
  });
}

void lu_solve_cusolver(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool trans) {
  const int n = int(lu.size(1)), k = int(b.size(2));
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(lu.dtype(), "lu_solve_cuda", [&] {
    const auto& s = Solver<scalar_t>::get();
    cusolverDnHandle_t h = cusolver_handle_on_stream();
    const cublasOperation_t op = trans ? adjoint_op<scalar_t>() : CUBLAS_OP_N;
    const Tensor info = scratch_info(lu);
    for (int64_t i = 0; i < lu.size(0); ++i)
      cusolver_check(s.getrs(h, op, n, k, at<scalar_t>(lu, i), n, int_at(pivots, i), at<scalar_t>(b, i), n,
                             int_at(info, 0)),
                     "cusolverDn<t>getrs");
  });
}

void cholesky_cusolver(const Tensor& a, bool upper, const Tensor& info) {
  const int n = int(a.size(1));
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "cholesky_cuda", [&] {
    const auto& s = Solver<scalar_t>::get();
    cusolverDnHandle_t h = cusolver_handle_on_stream();
    int lwork = 0;
    cusolver_check(s.potrf_size(h, fill(upper), n, at<scalar_t>(a, 0), n, &lwork),
                   "cusolverDn<t>potrf_bufferSize");
    const Tensor work = workspace(a, lwork);
    for (int64_t b = 0; b < a.size(0); ++b)
      cusolver_check(
          s.potrf(h, fill(upper), n, at<scalar_t>(a, b), n, at<scalar_t>(work, 0), lwork, int_at(info, b)),
          "cusolverDn<t>potrf");
  });
}

void triangular_solve_cublas(const Tensor& a, const Tensor& b, bool upper, bool left, bool trans, bool unit) {
  const int m = int(b.size(1)), n = int(b.size(2)), k = left ? m : n;
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "triangular_solve_cuda", [&] {
    const auto& s = Solver<scalar_t>::get();
    cublasHandle_t h = cublas_handle_on_stream();
    const scalar_t one(1);
    const auto* alpha = reinterpret_cast<const typename Raw<scalar_t>::type*>(&one);
    const cublasOperation_t op = trans ? adjoint_op<scalar_t>() : CUBLAS_OP_N;
    for (int64_t i = 0; i < a.size(0); ++i)
      cublas_check(s.trsm(h, left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT, fill(upper), op,
                          unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, m, n, alpha, at<scalar_t>(a, i), k,
                          at<scalar_t>(b, i), m),
                   "cublas<t>trsm");
  });
}

void geqrf_cusolver(const Tensor& a, const Tensor& tau) {
  const int m = int(a.size(1)), n = int(a.size(2));
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "geqrf_cuda", [&] {
    const auto& s = Solver<scalar_t>::get();
    cusolverDnHandle_t h = cusolver_handle_on_stream();
    int lwork = 0;
    cusolver_check(s.geqrf_size(h, m, n, at<scalar_t>(a, 0), m, &lwork), "cusolverDn<t>geqrf_bufferSize");
    const Tensor work = workspace(a, lwork), info = scratch_info(a);
    for (int64_t b = 0; b < a.size(0); ++b)
      cusolver_check(s.geqrf(h, m, n, at<scalar_t>(a, b), m, at<scalar_t>(tau, b), at<scalar_t>(work, 0),
                             lwork, int_at(info, 0)),
                     "cusolverDn<t>geqrf");
  });
}

void householder_product_cusolver(const Tensor& a, const Tensor& tau) {
  const int m = int(a.size(1)), n = int(a.size(2)), k = int(tau.size(1));
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "householder_product_cuda", [&] {
    const auto& s = Solver<scalar_t>::get();
    cusolverDnHandle_t h = cusolver_handle_on_stream();
    int lwork = 0;
    cusolver_check(s.orgqr_size(h, m, n, k, at<scalar_t>(a, 0), m, at<scalar_t>(tau, 0), &lwork),
                   "cusolverDn<t>orgqr_bufferSize");
    const Tensor work = workspace(a, lwork), info = scratch_info(a);
    for (int64_t b = 0; b < a.size(0); ++b)
      cusolver_check(s.orgqr(h, m, n, k, at<scalar_t>(a, b), m, at<scalar_t>(tau, b), at<scalar_t>(work, 0),
                             lwork, int_at(info, 0)),
                     "cusolverDn<t>orgqr");
  });
}

void eigh_cusolver(const Tensor& a, const Tensor& w, bool upper, bool compute_v, const Tensor& info) {
  const int n = int(a.size(1));
  const cusolverEigMode_t jobz = compute_v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "linalg_eigh_cuda", [&] {
    using real = th::real_t<scalar_t>;
    const auto& s = Solver<scalar_t>::get();
    cusolverDnHandle_t h = cusolver_handle_on_stream();
    int lwork = 0;
    cusolver_check(s.syevd_size(h, jobz, fill(upper), n, at<scalar_t>(a, 0), n, at<real>(w, 0), &lwork),
                   "cusolverDn<t>syevd_bufferSize");
    const Tensor work = workspace(a, lwork);
    for (int64_t b = 0; b < a.size(0); ++b)
      cusolver_check(s.syevd(h, jobz, fill(upper), n, at<scalar_t>(a, b), n, at<real>(w, b),
                             at<scalar_t>(work, 0), lwork, int_at(info, b)),
                     "cusolverDn<t>syevd");
  });
}

/// gesvdj's parameters (its tolerance and sweeps at their defaults: machine precision, 100), created and
/// destroyed around one batch.
class GesvdjParams {
 public:
  GesvdjParams() {
    static auto* create =
        cusolver().function<decltype(cusolverDnCreateGesvdjInfo)>("cusolverDnCreateGesvdjInfo");
    cusolver_check(create(&params_), "cusolverDnCreateGesvdjInfo");
  }
  ~GesvdjParams() {
    static auto* destroy =
        cusolver().function<decltype(cusolverDnDestroyGesvdjInfo)>("cusolverDnDestroyGesvdjInfo");
    destroy(params_);
  }
  GesvdjParams(const GesvdjParams&) = delete;
  GesvdjParams& operator=(const GesvdjParams&) = delete;
  gesvdjInfo_t get() const { return params_; }

 private:
  gesvdjInfo_t params_ = nullptr;
};

void svd_cusolver(const Tensor& a, const Tensor& u, const Tensor& s_out, const Tensor& vt, bool full,
                  bool compute_uv, const Tensor& info) {
  const int64_t batches = a.size(0);
  const int m = int(a.size(1)), n = int(a.size(2)), k = std::min(m, n), p = full ? n : k;
  const cusolverEigMode_t jobz = compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int econ = full ? 0 : 1;
  // gesvdj writes V (n x p, column-major), the contract Vt = V^H ([p, n], column-major): one copy at the end
  const Tensor v =
      compute_uv ? th::transpose(th::empty_tensor({batches, p, n}, a.dtype(), a.device()), 1, 2) : Tensor();
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "linalg_svd_cuda", [&] {
    using real = th::real_t<scalar_t>;
    using R = typename Raw<scalar_t>::type;
    const auto& s = Solver<scalar_t>::get();
    cusolverDnHandle_t h = cusolver_handle_on_stream();
    const GesvdjParams params;
    const auto u_at = [&](int64_t b) { return compute_uv ? at<scalar_t>(u, b) : static_cast<R*>(nullptr); };
    const auto v_at = [&](int64_t b) { return compute_uv ? at<scalar_t>(v, b) : static_cast<R*>(nullptr); };
    int lwork = 0;
    cusolver_check(s.gesvdj_size(h, jobz, econ, m, n, at<scalar_t>(a, 0), m, at<real>(s_out, 0), u_at(0), m,
                                 v_at(0), n, &lwork, params.get()),
                   "cusolverDn<t>gesvdj_bufferSize");
    const Tensor work = workspace(a, lwork);
    for (int64_t b = 0; b < batches; ++b)
      cusolver_check(s.gesvdj(h, jobz, econ, m, n, at<scalar_t>(a, b), m, at<real>(s_out, b), u_at(b), m,
                              v_at(b), n, at<scalar_t>(work, 0), lwork, int_at(info, b), params.get()),
                     "cusolverDn<t>gesvdj");
  });
  if (compute_uv) {
    Tensor vt_as_v = th::transpose(vt, 1, 2);  // [B, n, p]: element (r, c) is Vt(c, r)
    th::copy_(vt_as_v, th::is_complex(a.dtype()) ? th::conj(v) : v);
  }
}
#endif

void lu_factor_kernel(const Tensor& a, const Tensor& pivots, const Tensor& info) {
  DeviceGuard guard(a.device());
#ifdef THC_HAVE_CUSOLVER
  if (use_cusolver(a)) return lu_factor_cusolver(a, pivots, info);
#endif
  const Tensor ha = on_host(a), hp = on_host(pivots), hi = on_host(info);
  th::lu_factor_stub[kCPU](ha, hp, hi);
  to_device(a, ha), to_device(pivots, hp), to_device(info, hi);
}

void lu_solve_kernel(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool trans) {
  DeviceGuard guard(lu.device());
#ifdef THC_HAVE_CUSOLVER
  if (use_cusolver(lu) && use_cusolver(b)) return lu_solve_cusolver(lu, pivots, b, trans);
#endif
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
  DeviceGuard guard(a.device());
#ifdef THC_HAVE_CUSOLVER
  if (use_cusolver(a)) return cholesky_cusolver(a, upper, info);
#endif
  const Tensor ha = on_host(a), hi = on_host(info);
  th::cholesky_stub[kCPU](ha, upper, hi);
  to_device(a, ha), to_device(info, hi);
}

void triangular_solve_kernel(const Tensor& a, const Tensor& b, bool upper, bool left, bool trans, bool unit) {
  DeviceGuard guard(a.device());
#ifdef THC_HAVE_CUSOLVER
  if (use_cusolver(a) && use_cusolver(b)) return triangular_solve_cublas(a, b, upper, left, trans, unit);
#endif
  const Tensor hb = on_host(b);
  th::triangular_solve_stub[kCPU](on_host(a), hb, upper, left, trans, unit);
  to_device(b, hb);
}

void geqrf_kernel(const Tensor& a, const Tensor& tau) {
  DeviceGuard guard(a.device());
#ifdef THC_HAVE_CUSOLVER
  if (use_cusolver(a)) return geqrf_cusolver(a, tau);
#endif
  const Tensor ha = on_host(a), ht = on_host(tau);
  th::geqrf_stub[kCPU](ha, ht);
  to_device(a, ha), to_device(tau, ht);
}

void householder_product_kernel(const Tensor& a, const Tensor& tau) {
  DeviceGuard guard(a.device());
#ifdef THC_HAVE_CUSOLVER
  if (use_cusolver(a) && tau.numel() > 0) return householder_product_cusolver(a, tau);
#endif
  const Tensor ha = on_host(a);
  th::householder_product_stub[kCPU](ha, on_host(tau));
  to_device(a, ha);
}

void eigh_kernel(const Tensor& a, const Tensor& w, bool upper, bool compute_v, const Tensor& info) {
  DeviceGuard guard(a.device());
#ifdef THC_HAVE_CUSOLVER
  if (use_cusolver(a)) return eigh_cusolver(a, w, upper, compute_v, info);
#endif
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
  DeviceGuard guard(a.device());
#ifdef THC_HAVE_CUSOLVER
  if (use_cusolver(a)) return svd_cusolver(a, u, s, vt, full, compute_uv, info);
#endif
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
