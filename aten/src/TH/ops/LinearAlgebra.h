#pragma once
// The factorizations of the linear-algebra family (LAPACK's routines, PyTorch's torch.linalg underneath):
// ops/LinearAlgebra.cpp, cpu/LinearAlgebraKernels.cpp, THC/LinearAlgebraKernels.cu. Every kernel works in
// place on a batch of column-major matrices, as LAPACK takes them: a [B, m, n] tensor with strides [m * n, 1,
// m] (fortran_batches() makes one). Integer outputs (pivots, info) are int32, LAPACK's own.
#include "../Complex.h"
#include "../Dispatch.h"
#include "../LinAlgError.h"
#include "../ScalarType.h"
#include "../Tensor.h"

/// The dtypes the factorizations take (LAPACK's and cuSOLVER's: float32/64, complex64/128); the entry
/// points refuse the others with PyTorch's messages before a kernel is reached.
#define TH_DISPATCH_LAPACK_TYPES_AND_COMPLEX(type, name, ...)                                  \
  TH_PRIVATE_DISPATCH(type, name,                                                              \
                      TH_PRIVATE_CASE(Float, float, __VA_ARGS__)                               \
                          TH_PRIVATE_CASE(Double, double, __VA_ARGS__)                         \
                              TH_PRIVATE_CASE(ComplexFloat, ::th::complex<float>, __VA_ARGS__) \
                                  TH_PRIVATE_CASE(ComplexDouble, ::th::complex<double>, __VA_ARGS__))

namespace th {

/// getrf: a = P L U (L unit lower, U upper, packed in a); pivots [B, min(m, n)] (1-based rows), info [B]
/// (> 0: U[info-1, info-1] is exactly zero).
using lu_factor_fn = void(const Tensor& a, const Tensor& pivots, const Tensor& info);
/// getrs: b ([B, n, k]) = op(A)^-1 b for the factors of lu_factor, op transposing when `trans`.
using lu_solve_fn = void(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool trans);
/// potrf: the triangle `upper` of a becomes U (a = U^T U) or L (a = L L^T); the other triangle is left as it
/// was; info [B] > 0: the leading minor of that order is not positive-definite.
using cholesky_fn = void(const Tensor& a, bool upper, const Tensor& info);
/// trsm: b = op(A)^-1 b (left) or b op(A)^-1 (right), A the triangle `upper` of a (unit diagonal if `unit`).
using triangular_solve_fn = void(const Tensor& a, const Tensor& b, bool upper, bool left, bool trans,
                                 bool unit);
/// geqrf: a = Q R, R in a's upper triangle, Q as Householder reflectors below it with tau [B, min(m, n)].
using geqrf_fn = void(const Tensor& a, const Tensor& tau);
/// orgqr: a ([B, m, n], m >= n, reflectors below its diagonal) becomes the first n columns of the product of
/// the tau.size(-1) Householder reflectors.
using householder_product_fn = void(const Tensor& a, const Tensor& tau);
/// syevd (heevd for complex a): w [B, n] the ascending (real) eigenvalues of the symmetric or Hermitian a
/// (its triangle `upper` read), a its eigenvectors (columns) if `compute_v`; info [B] > 0: no convergence.
using eigh_fn = void(const Tensor& a, const Tensor& w, bool upper, bool compute_v, const Tensor& info);
/// geev: the eigenvalues of the general real a, wr + i wi [B, n] (conjugate pairs adjacent, the positive
/// imaginary part first), and if `compute_v` its right eigenvectors in vr ([B, n, n], column-major; a pair's
/// vectors are vr[:, j] +- i vr[:, j + 1], each of norm 1 with its largest component real); a is destroyed;
/// info [B] > 0: the QR algorithm did not converge. A complex a's eigenvalues are complex in wr (wi is empty)
/// and its eigenvectors the columns of vr.
using eig_fn = void(const Tensor& a, const Tensor& wr, const Tensor& wi, const Tensor& vr, bool compute_v,
                    const Tensor& info);
/// gesdd: a = U diag(s) Vt (Vt the adjoint of V; s real for a complex a too); u [B, m, m or k] and vt
/// [B, n or k, n] (k = min(m, n); full or reduced), both column-major, unused unless `compute_uv`; a is
/// destroyed; info [B] > 0: no convergence.
using svd_fn = void(const Tensor& a, const Tensor& u, const Tensor& s, const Tensor& vt, bool full,
                    bool compute_uv, const Tensor& info);

/// a (column-major batches, square) = its Bunch-Kaufman LDL^T factors (sytrf, the lower triangle; LDL^H by
/// hetrf for a complex a with `hermitian`), pivots (1-based int32; negative for the 2x2 blocks of D) and info
/// (> 0 where D is singular).
using ldl_factor_fn = void(const Tensor& a, const Tensor& pivots, const Tensor& info, bool hermitian);
/// b (column-major batches) = A^-1 b from A's LDL^T (LDL^H with `hermitian`) factors and pivots (sytrs,
/// hetrs).
using ldl_solve_fn = void(const Tensor& ld, const Tensor& pivots, const Tensor& b, bool hermitian);
TH_DECLARE_STUB(lu_factor_fn, lu_factor_stub);
TH_DECLARE_STUB(ldl_factor_fn, ldl_factor_stub);
TH_DECLARE_STUB(ldl_solve_fn, ldl_solve_stub);
TH_DECLARE_STUB(lu_solve_fn, lu_solve_stub);
TH_DECLARE_STUB(cholesky_fn, cholesky_stub);
TH_DECLARE_STUB(triangular_solve_fn, triangular_solve_stub);
TH_DECLARE_STUB(geqrf_fn, geqrf_stub);
TH_DECLARE_STUB(householder_product_fn, householder_product_stub);
TH_DECLARE_STUB(eigh_fn, eigh_stub);
TH_DECLARE_STUB(eig_fn, eig_stub);
TH_DECLARE_STUB(svd_fn, svd_stub);

}  // namespace th
