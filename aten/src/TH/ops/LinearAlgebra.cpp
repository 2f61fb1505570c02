// Entry points of the linear-algebra family: the factorizations torch.linalg is made of (LU, Cholesky, QR,
// symmetric eigendecomposition, SVD) and the triangular and LU solves, batched over leading dims, with
// PyTorch's names, checks and messages. Each copies its input into column-major batches
// (fortran_batches), runs the device's LAPACK-shaped kernel in place and returns views of the result in
// the input's batch shape (column-major, as PyTorch's are). torch/linalg/__init__.py builds the rest (solve,
// inv, det, lstsq, norms, ...) on these in Python; the gradients are in derivatives.yaml.
#include <string>
#include <tuple>

#include "../Functions.h"
#include "../TensorIterator.h"
#include "LinearAlgebra.h"

namespace th {

TH_DEFINE_STUB(lu_factor_fn, lu_factor_stub);
TH_DEFINE_STUB(ldl_factor_fn, ldl_factor_stub);
TH_DEFINE_STUB(ldl_solve_fn, ldl_solve_stub);
TH_DEFINE_STUB(lu_solve_fn, lu_solve_stub);
TH_DEFINE_STUB(cholesky_fn, cholesky_stub);
TH_DEFINE_STUB(triangular_solve_fn, triangular_solve_stub);
TH_DEFINE_STUB(geqrf_fn, geqrf_stub);
TH_DEFINE_STUB(householder_product_fn, householder_product_stub);
TH_DEFINE_STUB(eigh_fn, eigh_stub);
TH_DEFINE_STUB(eig_fn, eig_stub);
TH_DEFINE_STUB(svd_fn, svd_stub);

Tensor tril(const Tensor& self, int64_t diagonal);
Tensor triu(const Tensor& self, int64_t diagonal);
Tensor isfinite(const Tensor& self);
Tensor conj_physical(const Tensor& self);  // ops/ComplexParts.cpp

namespace {

/// PyTorch's checks of a linalg input: at least 2 dims, float or double, or complex64/complex128 where
/// the kernel has the complex routines (`complex_ok`; elsewhere a NotImplementedError), square if asked.
void check_input(const Tensor& a, const char* fn, bool square = false, bool complex_ok = false) {
  TH_CHECK(a.dim() >= 2, fn, ": The input tensor A must have at least 2 dimensions.");
  const ScalarType t = a.dtype();
  TH_CHECK(t != ScalarType::Half && t != ScalarType::BFloat16, fn,
           ": Low precision dtypes not supported. Got ", scalar_type_cpp_name(t));
  TH_CHECK_T(NotImplementedError, complex_ok || !is_complex(t), fn,
             ": complex input is not supported yet (real float and double are)");
  TH_CHECK(t == ScalarType::Float || t == ScalarType::Double || is_complex(t), fn,
           ": Expected a floating point or complex tensor as input. Got ", scalar_type_cpp_name(t));
  if (square)
    TH_CHECK(a.size(-2) == a.size(-1), fn, ": A must be batches of square matrices, but they are ",
             a.size(-2), " by ", a.size(-1), " matrices");
}

/// The conjugate transpose of a matrix batch (the transpose for real dtypes).
Tensor adjoint_of(const Tensor& t) {
  Tensor tt = transpose(t, -2, -1);
  return is_complex(t.dtype()) ? conj_physical(tt) : tt;
}

/// The leading (batch) dims of a matrix batch, and their product.
IntList batch_dims(const Tensor& a) { return IntList(a.sizes().begin(), a.sizes().end() - 2); }

int64_t batch_count(const IntList& batch) {
  int64_t b = 1;
  for (int64_t s : batch) b *= s;
  return b;
}

/// `batch` followed by `tail`.
IntList with_batch(const IntList& batch, std::initializer_list<int64_t> tail) {
  IntList s = batch;
  s.insert(s.end(), tail);
  return s;
}

/// A fresh column-major [B, rows, cols] tensor (strides [rows * cols, 1, rows]).
Tensor empty_fortran(int64_t B, int64_t rows, int64_t cols, ScalarType dtype, Device device) {
  return transpose(empty_tensor({B, cols, rows}, dtype, device), 1, 2);
}

/// A column-major copy of `a` ([*batch, m, n], broadcast to `batch`) as [B, m, n]: the kernels' input,
/// theirs to overwrite.
Tensor fortran_batches(const Tensor& a, const IntList& batch) {
  const int64_t m = a.size(-2), n = a.size(-1);
  Tensor out = empty_fortran(batch_count(batch), m, n, a.dtype(), a.device());
  Tensor view = reshape(out, with_batch(batch, {m, n}));  // a view: the batch dims stay row-major
  copy_(view, expand(a, with_batch(batch, {m, n})));
  return out;
}

/// [B, ...] results in the batch shape (a view).
Tensor unbatched(const Tensor& t, const IntList& batch) {
  IntList s = batch;
  s.insert(s.end(), t.sizes().begin() + 1, t.sizes().end());
  return reshape(t, s);
}

/// The int32 info of each batch ([B], zeros).
Tensor new_info(int64_t B, Device device) {
  Tensor info = empty_tensor({B}, ScalarType::Int, device);
  if (B > 0) fill_(info, Scalar(int64_t(0)));
  return info;
}

/// The first batch whose info is nonzero (and that info), or {-1, 0}.
std::pair<int64_t, int32_t> first_failure(const Tensor& device_info) {
  const Tensor info = contiguous(to(device_info, Device(), std::nullopt, false, false));
  const auto* p = reinterpret_cast<const int32_t*>(info.data_ptr());
  for (int64_t b = 0; b < info.numel(); ++b)
    if (p[b] != 0) return {b, p[b]};
  return {-1, 0};
}

/// PyTorch's "(Batch element k): " prefix of a batched error.
std::string batch_prefix(int64_t batch_index, int64_t dims) {
  return dims > 2 ? detail::str("(Batch element ", batch_index, "): ") : std::string();
}

/// Broadcasts the batch dims of two matrix batches (PyTorch's rule for the solves).
IntList broadcast_batch(const Tensor& a, const Tensor& b) {
  return broadcast_shapes(batch_dims(a), batch_dims(b));
}

/// A solve's pivots ([*, n] of the factorization) broadcast over the batch, as contiguous int32 [count, n] on
/// `device`, checked on the host first: LAPACK indexes rows by them, so a wrong one would read and write out
/// of bounds. LU's are 1..n; LDL's are 1..n for 1x1 blocks and -p twice in a row for a 2x2 block.
Tensor batched_pivots(const Tensor& pivots, const IntList& batch, int64_t count, int64_t n, Device device,
                      bool ldl) {
  const Tensor host = contiguous(to(pivots, Device(), ScalarType::Int, false, false));
  const auto* p = reinterpret_cast<const int32_t*>(host.data_ptr());
  const char* fn = ldl ? "ldl_solve" : "lu_solve";
  const char* factor = ldl ? "ldl_factor" : "lu_factor";
  for (int64_t b = 0; b < host.numel() / std::max<int64_t>(n, 1); ++b) {
    const int32_t* row = p + b * n;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t v = ldl ? std::abs(int64_t(row[k])) : int64_t(row[k]);
      TH_CHECK(v >= 1, "Pivots given to ", fn, " must all ",
               ldl ? "satisfy |pivot| >= 1" : "be greater or equal to 1",
               ". Did you properly pass the result of ", factor, "?");
      TH_CHECK(v <= n, "Pivots given to ", fn, " must all ",
               ldl ? "satisfy |pivot| <= LD.size(-2)" : "be smaller or equal to LU.size(-2)",
               ". Did you properly pass the result of ", factor, "?");
      if (ldl && row[k] < 0) {  // a 2x2 block: the same negative pivot on its second row too
        TH_CHECK(k + 1 < n && row[k + 1] == row[k],
                 "Pivots given to ldl_solve describe a 2x2 block of D at row ", k,
                 " that the next pivot does not continue. Did you properly pass the result of ldl_factor?");
        ++k;
      }
    }
  }
  return contiguous(
      reshape(expand(to(pivots, device, ScalarType::Int, false, false), with_batch(batch, {n})), {count, n}));
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _linalg_lu_factor_ex(const Tensor& A, bool pivot, bool check_errors) {
  TH_CHECK(A.dim() >= 2,
           "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: ", shape_str(A.sizes()),
           " instead");
  TH_CHECK_T(NotImplementedError, is_floating_point(A.dtype()) || is_complex(A.dtype()),
             "\"lu_cpu\" not implemented for '", scalar_type_cpp_name(A.dtype()), "'");
  check_input(A, "linalg.lu_factor", false, true);
  TH_CHECK(pivot, "linalg.lu_factor: LU without pivoting is not implemented on the ",
           A.device().is_cpu() ? "CPU" : "GPU yet (its kernel factorizes on the host)");
  const IntList batch = batch_dims(A);
  const int64_t B = batch_count(batch), m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  Tensor lu = fortran_batches(A, batch);
  Tensor pivots = empty_tensor({B, k}, ScalarType::Int, A.device());
  Tensor info = new_info(B, A.device());
  if (lu.numel() > 0) lu_factor_stub[A.device().type](lu, pivots, info);
  if (check_errors) {
    const auto [where, code] = first_failure(info);
    TH_CHECK_T(LinAlgError, where < 0, "torch.linalg.lu_factor_ex: ", batch_prefix(where, A.dim()), "U[",
               code, ",", code, "] is zero and using it on lu_solve would result in a division by zero.");
  }
  return {unbatched(lu, batch), unbatched(pivots, batch), unbatched(info, batch)};
}

Tensor _linalg_lu_solve(const Tensor& LU, const Tensor& pivots, const Tensor& B, bool left, bool adjoint) {
  check_input(LU, "linalg.lu_solve", true, true);
  TH_CHECK(B.dim() >= 2, "linalg.lu_solve: Expected B to have at least 2 dimensions, but it has ", B.dim(),
           " dimensions instead");
  TH_CHECK(LU.dtype() == B.dtype(),
           "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type ",
           scalar_type_cpp_name(LU.dtype()), " and B of type ", scalar_type_cpp_name(B.dtype()), " instead");
  TH_CHECK(pivots.dtype() == ScalarType::Int, "linalg.lu_solve: Expected pivots to be integers. Got ",
           scalar_type_cpp_name(pivots.dtype()));
  const int64_t n = LU.size(-1);
  if (left) {
    TH_CHECK(B.size(-2) == n, "linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B (", n,
             "x", n, " and ", B.size(-2), "x", B.size(-1), ")");
  } else {
    TH_CHECK(B.size(-1) == n, "linalg.lu_solve: Incompatible shapes of A and B for the equation XA = B (", n,
             "x", n, " and ", B.size(-2), "x", B.size(-1), ")");
    // X A = B  <=>  A^H X^H = B^H
    return adjoint_of(_linalg_lu_solve(LU, pivots, adjoint_of(B), true, !adjoint));
  }
  TH_CHECK(pivots.dim() == LU.dim() - 1 && pivots.size(-1) == n,
           "linalg.lu_solve: Expected pivots to have shape [*, ", n, "], but got ",
           shape_str(pivots.sizes()));
  const IntList batch = broadcast_batch(LU, B);
  const int64_t count = batch_count(batch);
  Tensor lu = fortran_batches(LU, batch);
  Tensor x = fortran_batches(B, batch);
  const Tensor piv = batched_pivots(pivots, batch, count, n, B.device(), false);
  if (x.numel() > 0 && n > 0) lu_solve_stub[B.device().type](lu, piv, x, adjoint);
  return unbatched(x, batch);
}

std::tuple<Tensor, Tensor, Tensor> _linalg_ldl_factor_ex(const Tensor& A, bool hermitian, bool check_errors) {
  check_input(A, "torch.linalg.ldl_factor_ex", true, true);
  const IntList batch = batch_dims(A);
  const int64_t B = batch_count(batch), n = A.size(-1);
  Tensor ld = fortran_batches(A, batch);
  Tensor pivots = empty_tensor({B, n}, ScalarType::Int, A.device());
  Tensor info = new_info(B, A.device());
  if (ld.numel() > 0) ldl_factor_stub[A.device().type](ld, pivots, info, hermitian);
  if (check_errors) {
    const auto [where, code] = first_failure(info);
    TH_CHECK_T(LinAlgError, where < 0, "torch.linalg.ldl_factor_ex: ", batch_prefix(where, A.dim()),
               "The factorization could not be completed because the block diagonal matrix D is singular (D[",
               code, ",", code, "] is zero).");
  }
  copy_(ld, tril(ld, 0));  // zeros above the diagonal (still the input there), column-major as upstream's
  return {unbatched(ld, batch), unbatched(pivots, batch), unbatched(info, batch)};
}

Tensor _linalg_ldl_solve(const Tensor& LD, const Tensor& pivots, const Tensor& B, bool hermitian) {
  check_input(LD, "torch.linalg.ldl_solve", true, true);
  TH_CHECK(B.dim() >= 2, "torch.linalg.ldl_solve: Expected B to have at least 2 dimensions, but it has ",
           B.dim(), " dimensions instead");
  TH_CHECK(LD.dtype() == B.dtype(),
           "torch.linalg.ldl_solve: Expected LD and B to have the same dtype, but got ",
           scalar_type_cpp_name(LD.dtype()), " and ", scalar_type_cpp_name(B.dtype()), " instead");
  TH_CHECK(!is_floating_point(pivots.dtype()) && pivots.dtype() != ScalarType::Bool,
           "torch.linalg.ldl_solve: Expected pivots to be integers. Got ",
           scalar_type_cpp_name(pivots.dtype()));
  const int64_t n = LD.size(-1);
  TH_CHECK(B.size(-2) == n, "Incompatible matrix sizes for torch.linalg.ldl_solve: each A matrix is ", n,
           " by ", n, " but each b matrix is ", B.size(-2), " by ", B.size(-1));
  TH_CHECK(
      pivots.dim() == LD.dim() - 1 && pivots.size(-1) == n,
      "torch.linalg.ldl_solve: Expected LD.shape[:-1] and pivots.shape to be the same, but got pivots with "
      "shape ",
      shape_str(pivots.sizes()), " instead");
  const IntList batch = broadcast_batch(LD, B);
  const int64_t count = batch_count(batch);
  Tensor ld = fortran_batches(LD, batch);
  Tensor x = fortran_batches(B, batch);
  const Tensor piv = batched_pivots(pivots, batch, count, n, B.device(), true);
  if (x.numel() > 0 && n > 0) ldl_solve_stub[B.device().type](ld, piv, x, hermitian);
  return unbatched(x, batch);
}

std::tuple<Tensor, Tensor> _linalg_cholesky_ex(const Tensor& A, bool upper, bool check_errors) {
  check_input(A, "linalg.cholesky", true, true);
  const IntList batch = batch_dims(A);
  const int64_t B = batch_count(batch);
  Tensor a = fortran_batches(A, batch);
  Tensor info = new_info(B, A.device());
  if (a.numel() > 0) cholesky_stub[A.device().type](a, upper, info);
  if (check_errors) {
    const auto [where, code] = first_failure(info);
    TH_CHECK_T(
        LinAlgError, where < 0, "linalg.cholesky: ", batch_prefix(where, A.dim()),
        "The factorization could not be completed because the input is not positive-definite (the leading "
        "minor of order ",
        code, " is not positive-definite).");
  }
  const Tensor factor = upper ? triu(a, 0) : tril(a, 0);  // the other triangle still holds the input
  return {unbatched(factor, batch), unbatched(info, batch)};
}

Tensor _linalg_solve_triangular(const Tensor& A, const Tensor& B, bool upper, bool left, bool unitriangular) {
  check_input(A, "linalg.solve_triangular", true, true);
  TH_CHECK(B.dim() >= 2, "linalg.solve_triangular: The input tensor B must have at least 2 dimensions.");
  TH_CHECK(A.dtype() == B.dtype(),
           "linalg.solve_triangular: Expected A and B to have the same dtype, but found A "
           "of type ",
           scalar_type_cpp_name(A.dtype()), " and B of type ", scalar_type_cpp_name(B.dtype()), " instead");
  const int64_t n = A.size(-1);
  TH_CHECK(left ? B.size(-2) == n : B.size(-1) == n,
           "linalg.solve_triangular: Incompatible shapes of A and B for "
           "the equation ",
           left ? "AX = B" : "XA = B", " (", n, "x", n, " and ", B.size(-2), "x", B.size(-1), ")");
  const IntList batch = broadcast_batch(A, B);
  Tensor a = fortran_batches(A, batch);
  Tensor x = fortran_batches(B, batch);
  if (x.numel() > 0 && n > 0) triangular_solve_stub[B.device().type](a, x, upper, left, false, unitriangular);
  return unbatched(x, batch);
}

std::tuple<Tensor, Tensor> geqrf(const Tensor& self) {
  TH_CHECK(self.dim() >= 2, "torch.geqrf: input must have at least 2 dimensions.");
  check_input(self, "torch.geqrf", false, true);
  const IntList batch = batch_dims(self);
  const int64_t B = batch_count(batch), k = std::min(self.size(-2), self.size(-1));
  Tensor a = fortran_batches(self, batch);
  Tensor tau = empty_tensor({B, k}, self.dtype(), self.device());
  if (a.numel() > 0) geqrf_stub[self.device().type](a, tau);
  return {unbatched(a, batch), unbatched(tau, batch)};
}

Tensor _linalg_householder_product(const Tensor& input, const Tensor& tau) {
  TH_CHECK(input.dim() >= 2, "torch.linalg.householder_product: input must have at least 2 dimensions.");
  check_input(input, "torch.linalg.householder_product", false, true);
  TH_CHECK(
      input.size(-2) >= input.size(-1),
      "torch.linalg.householder_product: input.shape[-2] must be greater than or equal to input.shape[-1]");
  TH_CHECK(
      input.size(-1) >= tau.size(-1),
      "torch.linalg.householder_product: input.shape[-1] must be greater than or equal to tau.shape[-1]");
  TH_CHECK(
      tau.dim() == input.dim() - 1 &&
          batch_dims(input) == IntList(tau.sizes().begin(), tau.sizes().end() - 1),
      "torch.linalg.householder_product: Expected batch dimensions of tau to be equal to input.shape[:-2], "
      "but got ",
      shape_str(IntList(tau.sizes().begin(), tau.sizes().end() - 1)));
  TH_CHECK(input.dtype() == tau.dtype(), "torch.linalg.householder_product: tau dtype ",
           scalar_type_cpp_name(tau.dtype()), " does not match input dtype ",
           scalar_type_cpp_name(input.dtype()));
  const IntList batch = batch_dims(input);
  const int64_t B = batch_count(batch), k = tau.size(-1);
  Tensor a = fortran_batches(input, batch);
  Tensor t = contiguous(reshape(to(tau, input.device(), std::nullopt, false, false), {B, k}));
  if (a.numel() > 0) householder_product_stub[input.device().type](a, t);
  return unbatched(a, batch);
}

std::tuple<Tensor, Tensor> _linalg_qr(const Tensor& A, const std::string& mode) {
  TH_CHECK(mode == "reduced" || mode == "r" || mode == "complete", "qr received unrecognized mode '", mode,
           "' but expected one of 'reduced' (default), 'r', or 'complete'");
  check_input(A, "linalg.qr", false, true);
  const IntList batch = batch_dims(A);
  const int64_t B = batch_count(batch), m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  const bool complete = mode == "complete" && m > n;
  // geqrf on [A | 0] when Q is m x m and A has fewer columns: the reflectors then fill Q's first n columns
  const int64_t cols = complete ? m : n;
  Tensor a = empty_fortran(B, m, cols, A.dtype(), A.device());
  Tensor view = reshape(a, with_batch(batch, {m, cols}));
  if (complete) fill_(view, Scalar(int64_t(0)));
  Tensor columns = narrow(view, -1, 0, n);
  copy_(columns, expand(A, with_batch(batch, {m, n})));
  Tensor tau = empty_tensor({B, k}, A.dtype(), A.device());
  if (a.numel() > 0) {
    Tensor a_n = narrow(a, 2, 0, n);  // geqrf of A itself (the zero columns stay out of it)
    geqrf_stub[A.device().type](a_n, tau);
  }
  const int64_t r_rows = mode == "complete" ? m : k;
  const Tensor R = triu(narrow(narrow(a, 2, 0, n), 1, 0, r_rows), 0);
  if (mode == "r") return {empty_tensor({0}, A.dtype(), A.device()), unbatched(R, batch)};
  Tensor q =
      narrow(a, 2, 0, mode == "complete" ? m : k);  // [B, m, m] or [B, m, k], reflectors below diagonal
  if (q.numel() > 0) householder_product_stub[A.device().type](q, tau);
  return {unbatched(q, batch), unbatched(R, batch)};
}

std::tuple<Tensor, Tensor> _linalg_eigh(const Tensor& A, const std::string& UPLO, bool compute_v) {
  // upstream's order: the shape, UPLO, then its kernel's dtype dispatch (a NotImplementedError; none if
  // empty)
  TH_CHECK(A.dim() >= 2, "linalg.eigh: The input tensor A must have at least 2 dimensions.");
  TH_CHECK(A.size(-2) == A.size(-1), "linalg.eigh: A must be batches of square matrices, but they are ",
           A.size(-2), " by ", A.size(-1), " matrices");
  TH_CHECK(UPLO == "L" || UPLO == "U" || UPLO == "l" || UPLO == "u",
           "Expected UPLO argument to be 'L' or 'U', but got ", UPLO);
  TH_CHECK_T(NotImplementedError,
             A.numel() == 0 || A.dtype() == ScalarType::Float || A.dtype() == ScalarType::Double ||
                 is_complex(A.dtype()),  // an empty input dispatches nothing (upstream returns it)
             "\"linalg_eigh_", A.device().type == DeviceType::CUDA ? "cuda" : "cpu",
             "\" not implemented for '", scalar_type_cpp_name(A.dtype()), "'");
  const IntList batch = batch_dims(A);
  const int64_t B = batch_count(batch), n = A.size(-1);
  Tensor a = fortran_batches(A, batch);
  Tensor w = empty_tensor({B, n}, to_real_type(A.dtype()), A.device());  // real for a Hermitian A too
  Tensor info = new_info(B, A.device());
  if (a.numel() > 0) eigh_stub[A.device().type](a, w, UPLO == "U" || UPLO == "u", compute_v, info);
  const auto [where, code] = first_failure(info);
  TH_CHECK_T(LinAlgError, where < 0, "linalg.eigh: ", batch_prefix(where, A.dim()),
             "The algorithm failed to converge because the input matrix is ill-conditioned or has too many "
             "repeated eigenvalues (error code: ",
             code, ").");
  return {unbatched(w, batch), compute_v ? unbatched(a, batch) : empty_tensor({0}, A.dtype(), A.device())};
}

std::tuple<Tensor, Tensor, Tensor> _linalg_eig_parts(const Tensor& A, bool compute_v) {
  check_input(A, "linalg.eig", true, true);
  const IntList batch = batch_dims(A);
  const int64_t B = batch_count(batch), n = A.size(-1);
  Tensor a = fortran_batches(A, batch);
  TH_CHECK_T(LinAlgError,
             a.numel() == 0 || *reinterpret_cast<const bool*>(
                                   to(all(isfinite(a)), Device(), std::nullopt, false, false).data_ptr()),
             "linalg.eig: input tensor should not contain infs or NaNs.");
  // a complex A's eigenvalues come complex in wr (wi unused, empty)
  Tensor wr = empty_tensor({B, n}, A.dtype(), A.device());
  const bool complex_input = is_complex(A.dtype());
  Tensor wi =
      complex_input ? empty_tensor({0}, A.dtype(), A.device()) : empty_tensor({B, n}, A.dtype(), A.device());
  Tensor vr =
      compute_v ? empty_fortran(B, n, n, A.dtype(), A.device()) : empty_tensor({0}, A.dtype(), A.device());
  Tensor info = new_info(B, A.device());
  if (a.numel() > 0) eig_stub[A.device().type](a, wr, wi, vr, compute_v, info);
  const auto [where, code] = first_failure(info);
  TH_CHECK_T(LinAlgError, where < 0, "linalg.eig: ", batch_prefix(where, A.dim()),
             "The algorithm failed to converge because the input matrix is ill-conditioned or has too many "
             "repeated eigenvalues (error code: ",
             code, ").");
  return {unbatched(wr, batch), complex_input ? wi : unbatched(wi, batch),
          compute_v ? unbatched(vr, batch) : vr};
}

std::tuple<Tensor, Tensor, Tensor> _linalg_svd(const Tensor& A, bool full_matrices, bool compute_uv) {
  check_input(A, "linalg.svd", false, true);
  const IntList batch = batch_dims(A);
  const int64_t B = batch_count(batch), m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  Tensor a = fortran_batches(A, batch);
  // LAPACK cannot tell non-finite input from a failure to converge (and may not stop on it): refuse it first
  TH_CHECK_T(
      LinAlgError,
      a.numel() == 0 || *reinterpret_cast<const bool*>(
                            to(all(isfinite(a)), Device(), std::nullopt, false, false).data_ptr()),
      "linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.");
  const bool full = full_matrices && compute_uv;
  Tensor u = compute_uv ? empty_fortran(B, m, full ? m : k, A.dtype(), A.device())
                        : empty_tensor({0}, A.dtype(), A.device());
  Tensor vt = compute_uv ? empty_fortran(B, full ? n : k, n, A.dtype(), A.device())
                         : empty_tensor({0}, A.dtype(), A.device());
  Tensor s = empty_tensor({B, k}, to_real_type(A.dtype()), A.device());  // real for a complex A too
  Tensor info = new_info(B, A.device());
  if (a.numel() > 0) {
    svd_stub[A.device().type](a, u, s, vt, full, compute_uv, info);
  } else if (compute_uv) {  // an empty matrix: U and V are identities (of whatever size is not 0)
    copy_(u, expand(eye(u.size(1), u.size(2), A.dtype(), A.device()), u.sizes()));
    copy_(vt, expand(eye(vt.size(1), vt.size(2), A.dtype(), A.device()), vt.sizes()));
  }
  const auto [where, code] = first_failure(info);
  TH_CHECK_T(LinAlgError, where < 0, "linalg.svd: ", batch_prefix(where, A.dim()),
             "The algorithm failed to converge because the input matrix is ill-conditioned or has too many "
             "repeated singular values (error code: ",
             code, ").");
  if (!compute_uv) {
    const Tensor none = empty_tensor({0}, A.dtype(), A.device());
    return {none, unbatched(s, batch), none};
  }
  return {unbatched(u, batch), unbatched(s, batch), unbatched(vt, batch)};
}

}  // namespace th
