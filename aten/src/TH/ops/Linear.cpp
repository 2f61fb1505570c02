// Matrix products: mm, bmm, mv, dot, outer, addmm and matmul (PyTorch's dimension rules and
// batch broadcasting). Everything reduces to one batched gemm kernel per device (gemm_stub).
#include <algorithm>

#include "../Functions.h"
#include "../TensorIterator.h"
#include "Linear.h"

namespace th {

TH_DEFINE_STUB(gemm_fn, gemm_stub);

Tensor view_as_real(const Tensor& self);  // ops/ComplexParts.cpp
Tensor complex_from_parts(const Tensor& real, const Tensor& imag);

namespace {

const char* lower_name(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::Half: return "c10::Half";
    case ScalarType::BFloat16: return "c10::BFloat16";
    case ScalarType::Long: return "long int";
    case ScalarType::Int: return "int";
    case ScalarType::Short: return "short int";
    case ScalarType::Char: return "signed char";
    case ScalarType::Byte: return "unsigned char";
    case ScalarType::Bool: return "bool";
    case ScalarType::ComplexFloat: return "c10::complex<float>";
    case ScalarType::ComplexDouble: return "c10::complex<double>";
    default: return scalar_type_name(t);
  }
}

void check_same(const char* a_name, const Tensor& a, const char* b_name, const Tensor& b) {
  TH_CHECK(a.dtype() == b.dtype(), "expected ", a_name, " and ", b_name,
           " to have the same dtype, but got: ", lower_name(a.dtype()), " != ", lower_name(b.dtype()));
  TH_CHECK(a.device() == b.device(),
           "Expected all tensors to be on the same device, but found at least two devices, ",
           a.device().str(), " and ", b.device().str(), "!");
}

enum class Product { Mm, Bmm, Mv, Dot };

/// Upstream has no bool product kernel, but a product that reads no element (an empty result or an empty
/// contraction) returns before it dispatches: zeros (False) of the result. The message names the kernel
/// upstream dispatches to on a's device (its CPU bmm takes addmm's gemm from 400 multiply-adds a product).
void check_not_bool(Product p, const Tensor& a, int64_t result_numel, int64_t k, int64_t work = 0) {
  if (a.dtype() != ScalarType::Bool || result_numel == 0 || k == 0) return;
  const bool cpu = a.device().type == DeviceType::CPU;
  const char* kernel = "dot";
  switch (p) {
    case Product::Mm: kernel = cpu ? "addmm_impl_cpu_" : "addmm_cuda"; break;
    case Product::Bmm: kernel = !cpu ? "bmm_cuda" : work < 400 ? "bmm" : "addmm_impl_cpu_"; break;
    case Product::Mv: kernel = cpu ? "addmv_impl_cpu" : "addmv_impl_cuda"; break;
    case Product::Dot: break;
  }
  throw NotImplementedError(detail::str("\"", kernel, "\" not implemented for 'Bool'"));
}

/// The complex gemm_into: (ar + i ai)(br + i bi) = (ar br - ai bi) + i (ar bi + ai br), four products of
/// the real gemm (as many multiply-adds as one complex product), then alpha and beta applied pointwise.
void complex_gemm_into(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha,
                       const Scalar& beta) {
  const auto part = [](const Tensor& t, int64_t k) { return contiguous(select(view_as_real(t), -1, k)); };
  const Tensor ar = part(a, 0), ai = part(a, 1), br = part(b, 0), bi = part(b, 1);
  Tensor re = empty_tensor(out.sizes(), to_real_type(out.dtype()), out.device());
  Tensor im = empty_tensor(out.sizes(), to_real_type(out.dtype()), out.device());
  const Scalar one(int64_t(1)), zero(int64_t(0)), minus_one(int64_t(-1));
  auto* gemm = gemm_stub[a.device().type];
  gemm(ar, br, re, one, zero);
  gemm(ai, bi, re, minus_one, one);
  gemm(ar, bi, im, one, zero);
  gemm(ai, br, im, one, one);
  Tensor product = complex_from_parts(re, im);
  const complex<double> al = alpha.to_complex(), be = beta.to_complex();
  if (!(al == complex<double>(1.0))) product = mul(product, wrap_number(alpha));
  if (be == complex<double>(0.0)) {  // out's old values are not read (NaN there does not leak)
    copy_(const_cast<Tensor&>(out), product);
  } else {
    Tensor scaled = mul(out, wrap_number(beta));
    copy_(const_cast<Tensor&>(out), add(scaled, product, one));
  }
}

/// out (contiguous [B, M, N], resized) = alpha * a @ b (+ beta * out), a [B, M, K], b [B, K, N].
void gemm_into(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha, const Scalar& beta) {
  if (out.numel() == 0) return;
  if (is_complex(a.dtype()) && a.size(2) != 0) return complex_gemm_into(out, a, b, alpha, beta);
  if (a.size(2) == 0) {  // empty contraction: the sum of nothing
    if (beta.to_complex() == complex<double>(0.0))
      fill_(const_cast<Tensor&>(out), Scalar(int64_t(0)));
    else
      mul_(const_cast<Tensor&>(out), wrap_number(beta));
    return;
  }
  gemm_stub[a.device().type](a, b, out, alpha, beta);
}

/// A fresh result, or `out` checked and resized (then the result is computed in a temporary
/// when `out` is not contiguous or overlaps an input, and copied in).
template <typename F>
Tensor& into_out(Tensor& out, const IntList& sizes, ScalarType dtype, Device device,
                 std::initializer_list<const Tensor*> inputs, F compute) {
  if (!out.defined()) {
    out = empty_tensor(sizes, dtype, device);
    compute(out);
    return out;
  }
  TH_CHECK(out.dtype() == dtype, "Expected out tensor to have dtype ", lower_name(dtype), ", but got ",
           lower_name(out.dtype()), " instead");
  TH_CHECK(out.device() == device, "Expected out tensor to be on ", device.str(), ", but got ",
           out.device().str());
  if (out.sizes() != sizes) resize_(out, sizes);
  bool overlap = false;
  for (const Tensor* t : inputs) overlap = overlap || may_overlap(out, *t);
  if (out.is_contiguous() && !overlap) {
    compute(out);
  } else {
    Tensor tmp = empty_tensor(sizes, dtype, device);
    compute(tmp);
    copy_(out, tmp);
  }
  out.bump_version();
  return out;
}

Tensor as_batch(const Tensor& m) { return unsqueeze(m, 0); }

}  // namespace

Tensor& mm_out(Tensor& out, const Tensor& self, const Tensor& mat2) {
  TH_CHECK(self.dim() == 2, "self must be a matrix");
  TH_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  TH_CHECK(self.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", self.size(0), "x",
           self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  check_same("m1", self, "m2", mat2);
  check_not_bool(Product::Mm, self, self.size(0) * mat2.size(1), self.size(1));
  return into_out(
      out, {self.size(0), mat2.size(1)}, self.dtype(), self.device(), {&self, &mat2}, [&](const Tensor& r) {
        gemm_into(as_batch(r), as_batch(self), as_batch(mat2), Scalar(int64_t(1)), Scalar(int64_t(0)));
      });
}

Tensor mm(const Tensor& self, const Tensor& mat2) {
  Tensor out;
  return mm_out(out, self, mat2);
}

Tensor& bmm_out(Tensor& out, const Tensor& self, const Tensor& mat2) {
  TH_CHECK(self.dim() == 3, "batch1 must be a 3D tensor");
  TH_CHECK(mat2.dim() == 3, "batch2 must be a 3D tensor");
  TH_CHECK(mat2.size(0) == self.size(0) && mat2.size(1) == self.size(2),
           "Expected size for first two dimensions of batch2 tensor to be: [", self.size(0), ", ",
           self.size(2), "] but got: [", mat2.size(0), ", ", mat2.size(1), "].");
  check_same("m1", self, "m2", mat2);
  check_not_bool(Product::Bmm, self, self.size(0) * self.size(1) * mat2.size(2), self.size(2),
                 self.size(1) * self.size(2) * mat2.size(2));
  return into_out(out, {self.size(0), self.size(1), mat2.size(2)}, self.dtype(), self.device(),
                  {&self, &mat2},
                  [&](const Tensor& r) { gemm_into(r, self, mat2, Scalar(int64_t(1)), Scalar(int64_t(0))); });
}

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  Tensor out;
  return bmm_out(out, self, mat2);
}

Tensor mv(const Tensor& self, const Tensor& vec) {
  TH_CHECK(self.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got 1, ", self.dim(), ", ",
           vec.dim());
  TH_CHECK(self.size(1) == vec.size(0), "size mismatch, got input (", self.size(0), "), mat (", self.size(0),
           "x", self.size(1), "), vec (", vec.size(0), ")");
  check_same("m1", self, "m2", vec);
  check_not_bool(Product::Mv, self, self.size(0), self.size(1));
  Tensor out = empty_tensor({self.size(0)}, self.dtype(), self.device());
  gemm_into(unsqueeze(unsqueeze(out, 1), 0), as_batch(self), unsqueeze(unsqueeze(vec, 1), 0),
            Scalar(int64_t(1)), Scalar(int64_t(0)));
  return out;
}

Tensor dot(const Tensor& self, const Tensor& tensor) {
  TH_CHECK(self.dim() == 1 && tensor.dim() == 1, "1D tensors expected, but got ", self.dim(), "D and ",
           tensor.dim(), "D tensors");
  TH_CHECK(self.dtype() == tensor.dtype(), "dot : expected both vectors to have same dtype, but found ",
           scalar_type_name(self.dtype()), " and ", scalar_type_name(tensor.dtype()));
  TH_CHECK(self.numel() == tensor.numel(), "inconsistent tensor size, expected tensor [", self.numel(),
           "] and src [", tensor.numel(), "] to have the same number of elements, but got ", self.numel(),
           " and ", tensor.numel(), " elements respectively");
  check_same("m1", self, "m2", tensor);
  check_not_bool(Product::Dot, self, 1, 1);  // upstream's dot refuses bool even when empty
  Tensor out = empty_tensor({}, self.dtype(), self.device());
  gemm_into(view(out, {1, 1, 1}), view(self, {1, 1, self.numel()}), view(tensor, {1, tensor.numel(), 1}),
            Scalar(int64_t(1)), Scalar(int64_t(0)));
  return out;
}

Tensor outer(const Tensor& self, const Tensor& vec2) {
  TH_CHECK(self.dim() == 1, "outer: Expected 1-D argument self, but got ", self.dim(), "-D");
  TH_CHECK(vec2.dim() == 1, "outer: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  return mul(unsqueeze(self, 1), vec2);
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  TH_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  TH_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  TH_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", mat1.size(0), "x",
           mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  check_same("m1", mat1, "m2", mat2);
  check_not_bool(Product::Mm, mat1, mat1.size(0) * mat2.size(1), mat1.size(1));
  TH_CHECK(self.dtype() == mat1.dtype(), "self and mat2 must have the same dtype, but got ",
           scalar_type_name(self.dtype()), " and ", scalar_type_name(mat1.dtype()));
  // out = beta * broadcast(self) + alpha * mat1 @ mat2
  Tensor out = contiguous(expand(self, {mat1.size(0), mat2.size(1)}));
  if (out.is_same(self) || may_overlap(out, self)) out = clone(out);
  gemm_into(as_batch(out), as_batch(mat1), as_batch(mat2), alpha, beta);
  return out;
}

Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
               const Scalar& alpha) {
  TH_CHECK(mat1.dim() == 2 && mat2.dim() == 2 && self.dim() == 2, "addmm_: expected matrices, got ",
           self.dim(), "-D self, ", mat1.dim(), "-D mat1 and ", mat2.dim(), "-D mat2");
  TH_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", mat1.size(0), "x",
           mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  TH_CHECK(self.size(0) == mat1.size(0) && self.size(1) == mat2.size(1), "addmm_: self of size ",
           shape_str(self.sizes()), " cannot hold the product of ", mat1.size(0), "x", mat1.size(1), " and ",
           mat2.size(0), "x", mat2.size(1));
  check_same("m1", mat1, "m2", mat2);
  check_same("self", self, "m1", mat1);
  check_not_bool(Product::Mm, mat1, mat1.size(0) * mat2.size(1), mat1.size(1));
  if (self.is_contiguous() && !may_overlap(self, mat1) && !may_overlap(self, mat2)) {
    gemm_into(as_batch(self), as_batch(mat1), as_batch(mat2), alpha, beta);
  } else {
    Tensor tmp = contiguous(self);
    if (tmp.is_same(self) || may_overlap(tmp, mat1) || may_overlap(tmp, mat2)) tmp = clone(tmp);
    gemm_into(as_batch(tmp), as_batch(mat1), as_batch(mat2), alpha, beta);
    copy_(self, tmp);
  }
  self.bump_version();
  return self;
}

namespace {

/// matmul's shapes: the result of broadcasting the batch dims of both, then a batched gemm.
Tensor& matmul_impl(Tensor& out, const Tensor& a, const Tensor& b) {
  const int64_t da = a.dim(), db = b.dim();
  TH_CHECK(da >= 1 && db >= 1, "both arguments to matmul need to be at least 1D, but they are ", da, "D and ",
           db, "D");
  if (da == 1 && db == 1) {
    Tensor r = dot(a, b);
    if (!out.defined()) return out = r;
    return into_out(out, {}, r.dtype(), r.device(), {},
                    [&](const Tensor& o) { copy_(const_cast<Tensor&>(o), r); });
  }
  if (da == 2 && db == 2) return mm_out(out, a, b);
  // general case: [batch..., n, m] @ [batch..., m, p] with 1-D operands promoted and squeezed after
  Tensor A = da == 1 ? unsqueeze(a, 0) : a;
  Tensor B = db == 1 ? unsqueeze(b, 1) : b;
  const int64_t n = A.size(A.dim() - 2), m = A.size(A.dim() - 1);
  const int64_t m2 = B.size(B.dim() - 2), p = B.size(B.dim() - 1);
  TH_CHECK(m == m2, "Expected size for first two dimensions of batch2 tensor to be: [", m, "] but got: [", m2,
           "].");
  IntList ba(A.sizes().begin(), A.sizes().end() - 2), bb(B.sizes().begin(), B.sizes().end() - 2);
  const size_t nd = std::max(ba.size(), bb.size());
  IntList batch(nd);
  for (size_t i = 0; i < nd; ++i) {
    int64_t x = i < nd - ba.size() ? 1 : ba[i - (nd - ba.size())];
    int64_t y = i < nd - bb.size() ? 1 : bb[i - (nd - bb.size())];
    TH_CHECK(x == y || x == 1 || y == 1, "The size of tensor a (", x, ") must match the size of tensor b (",
             y, ") at non-singleton dimension ", i);
    batch[i] = x == 1 ? y : x;
  }
  const int64_t nb = prod(batch);
  IntList ea = batch, eb = batch;
  ea.insert(ea.end(), {n, m});
  eb.insert(eb.end(), {m, p});
  Tensor A3 = reshape(expand(A, ea), {nb, n, m});
  Tensor B3 = reshape(expand(B, eb), {nb, m, p});
  IntList sizes = batch;
  if (da > 1) sizes.push_back(n);
  if (db > 1) sizes.push_back(p);
  check_same("m1", A3, "m2", B3);
  // upstream folds a matrix or vector right operand into mm or mv
  check_not_bool(db == 1 ? Product::Mv : db == 2 ? Product::Mm : Product::Bmm, A3, nb * n * p, m, n * m * p);
  return into_out(out, sizes, a.dtype(), a.device(), {&a, &b}, [&](const Tensor& r) {
    gemm_into(view(r, {nb, n, p}), A3, B3, Scalar(int64_t(1)), Scalar(int64_t(0)));
  });
}

}  // namespace

Tensor matmul(const Tensor& self, const Tensor& other) {
  Tensor out;
  return matmul_impl(out, self, other);
}

Tensor& matmul_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return matmul_impl(out, self, other);
}

}  // namespace th
