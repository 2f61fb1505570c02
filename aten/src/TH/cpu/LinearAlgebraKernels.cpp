// CPU kernels of the linear-algebra family: LAPACK (and BLAS's trsm) of the scipy-openblas32 wheel, whose
// symbols carry the prefix scipy_ and take 32-bit integers. One call per matrix of the batch, the matrices
// spread over the intra-op threads (OpenBLAS itself runs single-threaded: cpu/LinearKernels.cpp).
#include <cblas.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "../Complex.h"
#include "../Parallel.h"
#include "../ScalarType.h"
#include "../ops/LinearAlgebra.h"

// LAPACK's Fortran entry points (the hidden lengths of character arguments last, as gfortran passes them)
extern "C" {
#define TH_LAPACK_DECLARE(T, p)                                                                           \
  void scipy_##p##getrf_(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info);         \
  void scipy_##p##getrs_(const char* trans, const int* n, const int* nrhs, const T* a, const int* lda,    \
                         const int* ipiv, T* b, const int* ldb, int* info, size_t);                       \
  void scipy_##p##potrf_(const char* uplo, const int* n, T* a, const int* lda, int* info, size_t);        \
  void scipy_##p##sytrf_(const char* uplo, const int* n, T* a, const int* lda, int* ipiv, T* work,        \
                         const int* lwork, int* info, size_t);                                            \
  void scipy_##p##sytrs_(const char* uplo, const int* n, const int* nrhs, const T* a, const int* lda,     \
                         const int* ipiv, T* b, const int* ldb, int* info, size_t);                       \
  void scipy_##p##geqrf_(const int* m, const int* n, T* a, const int* lda, T* tau, T* work,               \
                         const int* lwork, int* info);                                                    \
  void scipy_##p##orgqr_(const int* m, const int* n, const int* k, T* a, const int* lda, const T* tau,    \
                         T* work, const int* lwork, int* info);                                           \
  void scipy_##p##syevd_(const char* jobz, const char* uplo, const int* n, T* a, const int* lda, T* w,    \
                         T* work, const int* lwork, int* iwork, const int* liwork, int* info, size_t,     \
                         size_t);                                                                         \
  void scipy_##p##geev_(const char* jobvl, const char* jobvr, const int* n, T* a, const int* lda, T* wr,  \
                        T* wi, T* vl, const int* ldvl, T* vr, const int* ldvr, T* work, const int* lwork, \
                        int* info, size_t, size_t);                                                       \
  void scipy_##p##gesdd_(const char* jobz, const int* m, const int* n, T* a, const int* lda, T* s, T* u,  \
                         const int* ldu, T* vt, const int* ldvt, T* work, const int* lwork, int* iwork,   \
                         int* info, size_t);
TH_LAPACK_DECLARE(float, s)
TH_LAPACK_DECLARE(double, d)
#undef TH_LAPACK_DECLARE
// the complex routines (T is th::complex<float/double>, R its real type): those of the real types, and the
// Hermitian ones (heevd, hetrf, hetrs)
#define TH_LAPACK_DECLARE_COMPLEX(T, p)                                                                      \
  void scipy_##p##getrf_(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info);            \
  void scipy_##p##getrs_(const char* trans, const int* n, const int* nrhs, const T* a, const int* lda,       \
                         const int* ipiv, T* b, const int* ldb, int* info, size_t);                          \
  void scipy_##p##potrf_(const char* uplo, const int* n, T* a, const int* lda, int* info, size_t);           \
  void scipy_##p##geqrf_(const int* m, const int* n, T* a, const int* lda, T* tau, T* work,                  \
                         const int* lwork, int* info);                                                       \
  void scipy_##p##ungqr_(const int* m, const int* n, const int* k, T* a, const int* lda, const T* tau,       \
                         T* work, const int* lwork, int* info);                                              \
  void scipy_##p##heevd_(const char* jobz, const char* uplo, const int* n, T* a, const int* lda, R* w,       \
                         T* work, const int* lwork, R* rwork, const int* lrwork, int* iwork,                 \
                         const int* liwork, int* info, size_t, size_t);                                      \
  void scipy_##p##geev_(const char* jobvl, const char* jobvr, const int* n, T* a, const int* lda, T* w,      \
                        T* vl, const int* ldvl, T* vr, const int* ldvr, T* work, const int* lwork, R* rwork, \
                        int* info, size_t, size_t);                                                          \
  void scipy_##p##gesdd_(const char* jobz, const int* m, const int* n, T* a, const int* lda, R* s, T* u,     \
                         const int* ldu, T* vt, const int* ldvt, T* work, const int* lwork, R* rwork,        \
                         int* iwork, int* info, size_t);                                                     \
  void scipy_##p##sytrf_(const char* uplo, const int* n, T* a, const int* lda, int* ipiv, T* work,           \
                         const int* lwork, int* info, size_t);                                               \
  void scipy_##p##sytrs_(const char* uplo, const int* n, const int* nrhs, const T* a, const int* lda,        \
                         const int* ipiv, T* b, const int* ldb, int* info, size_t);                          \
  void scipy_##p##hetrf_(const char* uplo, const int* n, T* a, const int* lda, int* ipiv, T* work,           \
                         const int* lwork, int* info, size_t);                                               \
  void scipy_##p##hetrs_(const char* uplo, const int* n, const int* nrhs, const T* a, const int* lda,        \
                         const int* ipiv, T* b, const int* ldb, int* info, size_t);
#define R float
TH_LAPACK_DECLARE_COMPLEX(th::complex<float>, c)
#undef R
#define R double
TH_LAPACK_DECLARE_COMPLEX(th::complex<double>, z)
#undef R
#undef TH_LAPACK_DECLARE_COMPLEX
}

namespace th {
namespace {

/// LAPACK's routines of element type T, under one name each.
template <typename T>
struct Lapack;

#define TH_LAPACK_BIND(T, p)                            \
  template <>                                           \
  struct Lapack<T> {                                    \
    static constexpr auto getrf = scipy_##p##getrf_;    \
    static constexpr auto getrs = scipy_##p##getrs_;    \
    static constexpr auto potrf = scipy_##p##potrf_;    \
    static constexpr auto sytrf = scipy_##p##sytrf_;    \
    static constexpr auto sytrs = scipy_##p##sytrs_;    \
    static constexpr auto geqrf = scipy_##p##geqrf_;    \
    static constexpr auto orgqr = scipy_##p##orgqr_;    \
    static constexpr auto syevd = scipy_##p##syevd_;    \
    static constexpr auto geev = scipy_##p##geev_;      \
    static constexpr auto gesdd = scipy_##p##gesdd_;    \
    static constexpr auto trsm = scipy_cblas_##p##trsm; \
  };
TH_LAPACK_BIND(float, s)
TH_LAPACK_BIND(double, d)
#undef TH_LAPACK_BIND

/// The complex types' routines: orgqr is ungqr there, and trsm takes its alpha by pointer.
#define TH_LAPACK_BIND_COMPLEX(T, p)                                                               \
  template <>                                                                                      \
  struct Lapack<T> {                                                                               \
    static constexpr auto getrf = scipy_##p##getrf_;                                               \
    static constexpr auto getrs = scipy_##p##getrs_;                                               \
    static constexpr auto potrf = scipy_##p##potrf_;                                               \
    static constexpr auto geqrf = scipy_##p##geqrf_;                                               \
    static constexpr auto orgqr = scipy_##p##ungqr_;                                               \
    static constexpr auto heevd = scipy_##p##heevd_;                                               \
    static constexpr auto sytrf = scipy_##p##sytrf_;                                               \
    static constexpr auto sytrs = scipy_##p##sytrs_;                                               \
    static constexpr auto hetrf = scipy_##p##hetrf_;                                               \
    static constexpr auto hetrs = scipy_##p##hetrs_;                                               \
    static constexpr auto geev = scipy_##p##geev_;                                                 \
    static constexpr auto gesdd = scipy_##p##gesdd_;                                               \
    static void trsm(CBLAS_ORDER order, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,   \
                     CBLAS_DIAG diag, int m, int n, T alpha, const T* a, int lda, T* b, int ldb) { \
      scipy_cblas_##p##trsm(order, side, uplo, trans, diag, m, n, &alpha, a, lda, b, ldb);         \
    }                                                                                              \
  };
TH_LAPACK_BIND_COMPLEX(complex<float>, c)
TH_LAPACK_BIND_COMPLEX(complex<double>, z)
#undef TH_LAPACK_BIND_COMPLEX

/// The transpose that a solve with the adjoint takes: conjugating for the complex types.
template <typename T>
constexpr char adjoint_char() {
  return is_complex_v<T> ? 'C' : 'T';
}

/// `t`'s element pointer of batch b, for a batch of column-major matrices (or of vectors).
template <typename T>
T* batch_ptr(const Tensor& t, int64_t b) {
  return reinterpret_cast<T*>(t.data_ptr()) + b * t.stride(0);
}

int32_t* int_ptr(const Tensor& t, int64_t b) {
  return reinterpret_cast<int32_t*>(t.data_ptr()) + b * t.stride(0);
}

/// The leading dimension of column-major [rows, cols] matrices: at least 1, as LAPACK requires.
int ld(int64_t rows) { return int(std::max<int64_t>(rows, 1)); }

/// f(b) for every batch b, the batches over the intra-op threads (each call single-threaded LAPACK).
template <typename F>
void for_each_batch(int64_t batches, int64_t work_per_batch, const F& f) {
  parallel_for(batches, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(work_per_batch, 1)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t b = begin; b < end; ++b) f(b);
               });
}

/// LAPACK's two calls: call(work, lwork) with lwork = -1 asks for the optimal workspace size (written to
/// work[0]), then runs with a workspace of that size.
template <typename T, typename F>
void with_workspace(const F& call) {
  T size = T(0);
  call(&size, -1);
  int lwork = 1;  // the size comes back as an element (its real part for the complex types)
  if constexpr (is_complex_v<T>)
    lwork = std::max(1, int(size.re));
  else
    lwork = std::max(1, int(size));
  std::vector<T> work(static_cast<size_t>(lwork));
  call(work.data(), lwork);
}

/// The LDL^H routines (trf, trs) of T: hetrf/hetrs for the complex types, sytrf/sytrs (the same thing) for
/// the real ones.
template <typename T>
constexpr auto hermitian_routines() {
  if constexpr (is_complex_v<T>)
    return std::make_pair(Lapack<T>::hetrf, Lapack<T>::hetrs);
  else
    return std::make_pair(Lapack<T>::sytrf, Lapack<T>::sytrs);
}

void lu_factor_kernel(const Tensor& a, const Tensor& pivots, const Tensor& info) {
  const int m = int(a.size(1)), n = int(a.size(2)), lda = ld(m);
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "lu_cpu", [&] {
    for_each_batch(a.size(0), int64_t(m) * n * std::min(m, n), [&](int64_t b) {
      Lapack<scalar_t>::getrf(&m, &n, batch_ptr<scalar_t>(a, b), &lda, int_ptr(pivots, b), int_ptr(info, b));
    });
  });
}

void lu_solve_kernel(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool trans) {
  const int n = int(lu.size(1)), k = int(b.size(2)), lda = ld(n);
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(lu.dtype(), "lu_solve_cpu", [&] {
    const char t = trans ? adjoint_char<scalar_t>() : 'N';  // trans: the adjoint
    for_each_batch(lu.size(0), int64_t(n) * n * k, [&](int64_t i) {
      int info = 0;
      Lapack<scalar_t>::getrs(&t, &n, &k, batch_ptr<scalar_t>(lu, i), &lda, int_ptr(pivots, i),
                              batch_ptr<scalar_t>(b, i), &lda, &info, 1);
    });
  });
}

void ldl_factor_kernel(const Tensor& a, const Tensor& pivots, const Tensor& info, bool hermitian) {
  const int n = int(a.size(1)), lda = ld(n);
  const char uplo = 'L';
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "ldl_factor_cpu", [&] {
    // a real matrix's LDL^T and LDL^H are one (sytrf); a complex one takes hetrf when Hermitian
    const auto trf = hermitian ? hermitian_routines<scalar_t>().first : Lapack<scalar_t>::sytrf;
    for_each_batch(a.size(0), int64_t(n) * n * n, [&](int64_t b) {
      with_workspace<scalar_t>([&](scalar_t* work, int lwork) {
        trf(&uplo, &n, batch_ptr<scalar_t>(a, b), &lda, int_ptr(pivots, b), work, &lwork, int_ptr(info, b),
            1);
      });
    });
  });
}

void ldl_solve_kernel(const Tensor& ld_, const Tensor& pivots, const Tensor& b, bool hermitian) {
  const int n = int(ld_.size(1)), k = int(b.size(2)), lda = ld(n);
  const char uplo = 'L';
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(ld_.dtype(), "ldl_solve_cpu", [&] {
    const auto trs = hermitian ? hermitian_routines<scalar_t>().second : Lapack<scalar_t>::sytrs;
    for_each_batch(ld_.size(0), int64_t(n) * n * k, [&](int64_t i) {
      int info = 0;
      trs(&uplo, &n, &k, batch_ptr<scalar_t>(ld_, i), &lda, int_ptr(pivots, i), batch_ptr<scalar_t>(b, i),
          &lda, &info, 1);
    });
  });
}

void cholesky_kernel(const Tensor& a, bool upper, const Tensor& info) {
  const int n = int(a.size(1)), lda = ld(n);
  const char uplo = upper ? 'U' : 'L';
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "cholesky_cpu", [&] {
    for_each_batch(a.size(0), int64_t(n) * n * n, [&](int64_t b) {
      Lapack<scalar_t>::potrf(&uplo, &n, batch_ptr<scalar_t>(a, b), &lda, int_ptr(info, b), 1);
    });
  });
}

void triangular_solve_kernel(const Tensor& a, const Tensor& b, bool upper, bool left, bool trans, bool unit) {
  const int m = int(b.size(1)), n = int(b.size(2)), k = left ? m : n;
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "triangular_solve_cpu", [&] {
    for_each_batch(a.size(0), int64_t(m) * n * k, [&](int64_t i) {
      Lapack<scalar_t>::trsm(CblasColMajor, left ? CblasLeft : CblasRight, upper ? CblasUpper : CblasLower,
                             trans ? (is_complex_v<scalar_t> ? CblasConjTrans : CblasTrans) : CblasNoTrans,
                             unit ? CblasUnit : CblasNonUnit, m, n, scalar_t(1), batch_ptr<scalar_t>(a, i),
                             ld(k), batch_ptr<scalar_t>(b, i), ld(m));
    });
  });
}

void geqrf_kernel(const Tensor& a, const Tensor& tau) {
  const int m = int(a.size(1)), n = int(a.size(2)), lda = ld(m);
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "geqrf_cpu", [&] {
    for_each_batch(a.size(0), int64_t(m) * n * n, [&](int64_t b) {
      int info = 0;
      with_workspace<scalar_t>([&](scalar_t* work, int lwork) {
        Lapack<scalar_t>::geqrf(&m, &n, batch_ptr<scalar_t>(a, b), &lda, batch_ptr<scalar_t>(tau, b), work,
                                &lwork, &info);
      });
    });
  });
}

void householder_product_kernel(const Tensor& a, const Tensor& tau) {
  const int m = int(a.size(1)), n = int(a.size(2)), k = int(tau.size(1)), lda = ld(m);
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "householder_product_cpu", [&] {
    for_each_batch(a.size(0), int64_t(m) * n * k, [&](int64_t b) {
      int info = 0;
      with_workspace<scalar_t>([&](scalar_t* work, int lwork) {
        Lapack<scalar_t>::orgqr(&m, &n, &k, batch_ptr<scalar_t>(a, b), &lda, batch_ptr<scalar_t>(tau, b),
                                work, &lwork, &info);
      });
    });
  });
}

/// One matrix's syevd (heevd for the complex types, which sizes three workspaces in one query); a template
/// so that each type instantiates only its own branch.
template <typename T>
void eigh_one(char jobz, char uplo, int n, T* a, real_t<T>* w, int* info) {
  const int lda = ld(n);
  if constexpr (is_complex_v<T>) {
    T work_size = T(0);
    real_t<T> rwork_size = 0;
    int iwork_size = 0, query = -1;
    Lapack<T>::heevd(&jobz, &uplo, &n, a, &lda, w, &work_size, &query, &rwork_size, &query, &iwork_size,
                     &query, info, 1, 1);
    const int lwork = std::max(1, int(work_size.re)), lrwork = std::max(1, int(rwork_size)),
              liwork = std::max(1, iwork_size);
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<real_t<T>> rwork(static_cast<size_t>(lrwork));
    std::vector<int> iwork(static_cast<size_t>(liwork));
    Lapack<T>::heevd(&jobz, &uplo, &n, a, &lda, w, work.data(), &lwork, rwork.data(), &lrwork, iwork.data(),
                     &liwork, info, 1, 1);
  } else {
    // syevd also sizes an integer workspace: at most 3 + 5n (LAPACK's documented bound)
    std::vector<int> iwork(static_cast<size_t>(3 + 5 * n));
    const int liwork = int(iwork.size());
    with_workspace<T>([&](T* work, int lwork) {
      Lapack<T>::syevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork.data(), &liwork, info, 1, 1);
    });
  }
}

void eigh_kernel(const Tensor& a, const Tensor& w, bool upper, bool compute_v, const Tensor& info) {
  const int n = int(a.size(1));
  const char jobz = compute_v ? 'V' : 'N', uplo = upper ? 'U' : 'L';
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "linalg_eigh_cpu", [&] {
    for_each_batch(a.size(0), int64_t(n) * n * n, [&](int64_t b) {
      eigh_one(jobz, uplo, n, batch_ptr<scalar_t>(a, b), batch_ptr<real_t<scalar_t>>(w, b), int_ptr(info, b));
    });
  });
}

/// One matrix's geev: the real routine's eigenvalues wr + i wi, or the complex routine's w (in wr, with a
/// real workspace of 2n); vr null unless the eigenvectors are asked for.
template <typename T>
void eig_one(char jobvr, int n, T* a, T* wr, T* wi, T* vr, int* info) {
  const int lda = ld(n), ldvl = 1, ldvr = ld(vr != nullptr ? n : 1);
  const char jobvl = 'N';
  if constexpr (is_complex_v<T>) {
    (void)wi;
    std::vector<real_t<T>> rwork(static_cast<size_t>(std::max(1, 2 * n)));
    with_workspace<T>([&](T* work, int lwork) {
      Lapack<T>::geev(&jobvl, &jobvr, &n, a, &lda, wr, nullptr, &ldvl, vr, &ldvr, work, &lwork, rwork.data(),
                      info, 1, 1);
    });
  } else {
    with_workspace<T>([&](T* work, int lwork) {
      Lapack<T>::geev(&jobvl, &jobvr, &n, a, &lda, wr, wi, nullptr, &ldvl, vr, &ldvr, work, &lwork, info, 1,
                      1);
    });
  }
}

void eig_kernel(const Tensor& a, const Tensor& wr, const Tensor& wi, const Tensor& vr, bool compute_v,
                const Tensor& info) {
  const int n = int(a.size(1));
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "linalg_eig_cpu", [&] {
    for_each_batch(a.size(0), int64_t(n) * n * n, [&](int64_t b) {
      eig_one(compute_v ? 'V' : 'N', n, batch_ptr<scalar_t>(a, b), batch_ptr<scalar_t>(wr, b),
              wi.numel() > 0 ? batch_ptr<scalar_t>(wi, b) : nullptr,
              compute_v ? batch_ptr<scalar_t>(vr, b) : nullptr, int_ptr(info, b));
    });
  });
}

/// One matrix's gesdd; the complex routine also takes a real workspace, of LAPACK's documented size (3.7 and
/// later: 7k without vectors, else max(5k^2 + 5k, 2 max(m, n) k + 2k^2 + k)).
template <typename T>
void svd_one(char jobz, int m, int n, int ldvt, T* a, real_t<T>* s, T* u, T* vt, int* info) {
  const int k = std::min(m, n), lda = ld(m), ldu = ld(m);
  std::vector<int> iwork(static_cast<size_t>(std::max(1, 8 * k)));
  if constexpr (is_complex_v<T>) {
    const int64_t mx = std::max(m, n), kk = k;
    const int64_t lrwork =
        jobz == 'N' ? 7 * kk : std::max<int64_t>(5 * kk * kk + 5 * kk, 2 * mx * kk + 2 * kk * kk + kk);
    std::vector<real_t<T>> rwork(static_cast<size_t>(std::max<int64_t>(1, lrwork)));
    with_workspace<T>([&](T* work, int lwork) {
      Lapack<T>::gesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, rwork.data(),
                       iwork.data(), info, 1);
    });
  } else {
    with_workspace<T>([&](T* work, int lwork) {
      Lapack<T>::gesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork.data(), info, 1);
    });
  }
}

void svd_kernel(const Tensor& a, const Tensor& u, const Tensor& s, const Tensor& vt, bool full,
                bool compute_uv, const Tensor& info) {
  const int m = int(a.size(1)), n = int(a.size(2)), k = std::min(m, n);
  const char jobz = !compute_uv ? 'N' : full ? 'A' : 'S';
  const int ldvt = ld(full ? n : k);
  TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(a.dtype(), "linalg_svd_cpu", [&] {
    for_each_batch(a.size(0), int64_t(m) * n * k, [&](int64_t b) {
      svd_one(jobz, m, n, ldvt, batch_ptr<scalar_t>(a, b), batch_ptr<real_t<scalar_t>>(s, b),
              compute_uv ? batch_ptr<scalar_t>(u, b) : nullptr,
              compute_uv ? batch_ptr<scalar_t>(vt, b) : nullptr, int_ptr(info, b));
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(lu_factor_stub, CPU, lu_factor_kernel);
TH_REGISTER_KERNEL(ldl_factor_stub, CPU, ldl_factor_kernel);
TH_REGISTER_KERNEL(ldl_solve_stub, CPU, ldl_solve_kernel);
TH_REGISTER_KERNEL(lu_solve_stub, CPU, lu_solve_kernel);
TH_REGISTER_KERNEL(cholesky_stub, CPU, cholesky_kernel);
TH_REGISTER_KERNEL(triangular_solve_stub, CPU, triangular_solve_kernel);
TH_REGISTER_KERNEL(geqrf_stub, CPU, geqrf_kernel);
TH_REGISTER_KERNEL(householder_product_stub, CPU, householder_product_kernel);
TH_REGISTER_KERNEL(eigh_stub, CPU, eigh_kernel);
TH_REGISTER_KERNEL(eig_stub, CPU, eig_kernel);
TH_REGISTER_KERNEL(svd_stub, CPU, svd_kernel);

}  // namespace th
