// Reductions: sum, prod, mean, amax/amin, all/any over all or some dims (one iterator-based
// kernel per device), and max/min/argmax/argmin with indices (row-wise kernels).
#include <numeric>

#include "../Functions.h"
#include "Reduce.h"

namespace th {

TH_DEFINE_STUB(reduce_fn, reduce_stub);
TH_DEFINE_STUB(argreduce_fn, argreduce_stub);

namespace {

using math::ReduceOp;

/// The reducer's identity as a Scalar of the right kind (the output starts from it).
Scalar identity(ReduceOp op, ScalarType t) {
  if (is_complex(t)) {  // sums start at 0, products at 1 (the only complex reductions)
    TH_CHECK(op == ReduceOp::Sum || op == ReduceOp::Prod, "reduce: not implemented for '",
             scalar_type_name(t), "'");
    return Scalar(op == ReduceOp::Sum ? 0.0 : 1.0);
  }
  Scalar out;
  TH_DISPATCH_ALL_TYPES(t, "reduce", [&] {
    math::with_reducer<scalar_t>(op, [&](auto r) {
      auto v = decltype(r)::identity();
      if constexpr (std::is_same_v<decltype(v), bool>) {
        out = Scalar(v);
      } else if constexpr (is_floating_v<decltype(v)>) {
        out = Scalar(static_cast<double>(v));
      } else {
        out = Scalar(int64_t(v));
      }
    });
  });
  return out;
}

/// `name` is the op as the user called it, for messages (max, amax, ...).
Tensor reduce(const Tensor& self, const IntList& dims, bool keepdim, ScalarType compute, ReduceOp op,
              const char* name) {
  if (op == ReduceOp::Max || op == ReduceOp::Min) {  // no identity: refuse to reduce an empty dim
    TH_CHECK(
        !dims.empty() || self.numel() != 0, name,
        "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with "
        "the 'dim' argument.");
    for (int64_t d : dims)
      TH_CHECK_T(IndexError, self.dim() == 0 || self.size(d) != 0, name, "(): Expected reduction dim ", d,
                 " to have non-zero size.");
  }
  if (is_reduced_floating_point(compute) && (op == ReduceOp::Sum || op == ReduceOp::Prod)) {
    // float16/bfloat16 sums accumulate in float32 and round once (as PyTorch's do)
    return to_dtype(reduce(self, dims, keepdim, ScalarType::Float, op, name), compute);
  }
  // a 16-bit input summed in float32 on the CPU: the kernel widens it as it reads (no float32 copy)
  const bool widen_in_kernel = compute == ScalarType::Float && is_reduced_floating_point(self.dtype()) &&
                               (op == ReduceOp::Sum || op == ReduceOp::Prod) && self.device().is_cpu();
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(Tensor())
                            .add_input(self)
                            .common_dtype(compute)
                            .promote_inputs(!widen_in_kernel)
                            .reduce(dims, keepdim)
                            .build();
  Tensor result = iter.output();
  fill_(result, identity(op, compute));
  reduce_stub[iter.device().type](iter, op);
  return result;
}

/// Integers (and bool) sum and multiply into int64, as in PyTorch.
ScalarType accumulate_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  return dtype.value_or(is_integral(self.dtype(), true) ? ScalarType::Long : self.dtype());
}

IntList dims_of(const std::optional<IntList>& dim) { return dim.value_or(IntList{}); }

/// max/min with indices along `dim` (the rows of self moved to the last dim).
std::tuple<Tensor, Tensor> arg_reduce(const Tensor& self, int64_t dim, bool keepdim, bool is_max,
                                      const char* name) {
  int64_t d = wrap_dim(dim, self.dim());
  if (self.dim() == 0) return {clone(self), zeros({}, ScalarType::Long, self.device())};
  const int64_t n = self.sizes()[d];
  TH_CHECK_T(IndexError, n > 0, name, "(): Expected reduction dim ", d, " to have non-zero size.");
  IntList perm(self.dim());
  std::iota(perm.begin(), perm.end(), 0);
  perm.erase(perm.begin() + d);
  perm.push_back(d);
  Tensor rows = contiguous(permute(self, perm));
  IntList out_shape = self.sizes();
  out_shape.erase(out_shape.begin() + d);
  const int64_t R = prod(out_shape);
  rows = view(rows, {R, n});
  Tensor values = empty_tensor({R}, self.dtype(), self.device());
  Tensor indices = empty_tensor({R}, ScalarType::Long, self.device());
  argreduce_stub[self.device().type](rows, values, indices, is_max);
  values = view(values, out_shape);
  indices = view(indices, out_shape);
  if (keepdim) return {unsqueeze(values, d), unsqueeze(indices, d)};
  return {values, indices};
}

Tensor flat_arg(const Tensor& self, std::optional<int64_t> dim, bool keepdim, bool is_max, const char* name) {
  TH_CHECK(self.dtype() != ScalarType::Bool, name, "(): does not support bool input");  // as upstream's
  if (dim) return std::get<1>(arg_reduce(self, *dim, keepdim, is_max, name));
  TH_CHECK_T(IndexError, self.numel() > 0, name,
             "(): Expected reduction dim to be specified for input.numel() == 0.");
  Tensor flat = view(contiguous(self), {self.numel()});
  Tensor idx = std::get<1>(arg_reduce(flat, 0, false, is_max, name));
  if (!keepdim) return idx;
  return view(idx, IntList(self.dim(), 1));
}

}  // namespace

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  return sum(self, std::nullopt, false, dtype);
}

Tensor sum(const Tensor& self, const std::optional<IntList>& dim, bool keepdim,
           std::optional<ScalarType> dtype) {
  return reduce(self, dims_of(dim), keepdim, accumulate_dtype(self, dtype), ReduceOp::Sum, "sum");
}

Tensor prod(const Tensor& self, std::optional<ScalarType> dtype) {
  return reduce(self, {}, false, accumulate_dtype(self, dtype), ReduceOp::Prod, "prod");
}

Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return reduce(self, {dim}, keepdim, accumulate_dtype(self, dtype), ReduceOp::Prod, "prod");
}

Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) {
  return mean(self, std::nullopt, false, dtype);
}

Tensor mean(const Tensor& self, const std::optional<IntList>& dim, bool keepdim,
            std::optional<ScalarType> dtype) {
  ScalarType t = dtype.value_or(self.dtype());
  TH_CHECK(
      is_floating_point(t) || is_complex(t),
      "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
      "Got: ",
      scalar_type_cpp_name(t));
  // float16/bfloat16: the sum and the division in float32, one rounding at the end
  const ScalarType compute = is_reduced_floating_point(t) ? ScalarType::Float : t;
  Tensor total = reduce(self, dims_of(dim), keepdim, compute, ReduceOp::Sum, "mean");
  int64_t count = total.numel() ? self.numel() / total.numel() : 0;
  Tensor result = div_(total, wrap_number(Scalar(int64_t(count))), std::nullopt);
  return compute == t ? result : to_dtype(result, t);
}

Tensor amax(const Tensor& self, const IntList& dim, bool keepdim) {
  return reduce(self, dim, keepdim, self.dtype(), ReduceOp::Max, "amax");
}

Tensor amin(const Tensor& self, const IntList& dim, bool keepdim) {
  return reduce(self, dim, keepdim, self.dtype(), ReduceOp::Min, "amin");
}

namespace {
/// all/any: a bool result, but a uint8 one for a uint8 input (PyTorch's rule, kept from NumPy-era code).
Tensor logical_reduce(const Tensor& self, const IntList& dims, bool keepdim, ReduceOp op, const char* name) {
  Tensor r = reduce(self, dims, keepdim, ScalarType::Bool, op, name);
  return self.dtype() == ScalarType::Byte ? to_dtype(r, ScalarType::Byte) : r;
}
}  // namespace

Tensor all(const Tensor& self) { return logical_reduce(self, {}, false, ReduceOp::All, "all"); }
Tensor all(const Tensor& self, int64_t dim, bool keepdim) {
  return logical_reduce(self, {dim}, keepdim, ReduceOp::All, "all");
}
Tensor all(const Tensor& self, const std::optional<IntList>& dim, bool keepdim) {
  return logical_reduce(self, dims_of(dim), keepdim, ReduceOp::All, "all");
}
Tensor any(const Tensor& self) { return logical_reduce(self, {}, false, ReduceOp::Any, "any"); }
Tensor any(const Tensor& self, int64_t dim, bool keepdim) {
  return logical_reduce(self, {dim}, keepdim, ReduceOp::Any, "any");
}
Tensor any(const Tensor& self, const std::optional<IntList>& dim, bool keepdim) {
  return logical_reduce(self, dims_of(dim), keepdim, ReduceOp::Any, "any");
}

Tensor isinf(const Tensor& self);  // ops/Compare.cpp (declared by the bindings)
Tensor logsumexp(const Tensor& self, const IntList& dim, bool keepdim);
Tensor real(const Tensor& self);  // ops/ComplexParts.cpp

Tensor logsumexp(const Tensor& self, const IntList& dim, bool keepdim) {
  // log(sum(exp(x - m))) + m with m the max (0 where infinite, so inf and -inf rows stay exact); for complex
  // x the max of the real parts
  const bool cplx = is_complex(self.dtype());
  const Tensor x = is_floating_point(self.dtype()) || cplx ? self : to_dtype(self, get_default_dtype());
  if (x.numel() == 0) return log(sum(exp(x), dim, keepdim, std::nullopt));  // -inf over empty dims
  Tensor m = amax(cplx ? real(x) : x, dim, true);
  m = where(isinf(m), wrap_number(Scalar(0.0)), m);
  Tensor out = log(sum(exp(sub(x, m, Scalar(int64_t(1)))), dim, keepdim, std::nullopt));
  return add(out, keepdim ? m : reshape(m, out.sizes()), Scalar(int64_t(1)));
}

Tensor max(const Tensor& self) { return reduce(self, {}, false, self.dtype(), ReduceOp::Max, "max"); }
Tensor min(const Tensor& self) { return reduce(self, {}, false, self.dtype(), ReduceOp::Min, "min"); }
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  return arg_reduce(self, dim, keepdim, true, "max");
}
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  return arg_reduce(self, dim, keepdim, false, "min");
}
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return flat_arg(self, dim, keepdim, true, "argmax");
}
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return flat_arg(self, dim, keepdim, false, "argmin");
}

}  // namespace th
