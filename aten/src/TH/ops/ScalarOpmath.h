#pragma once
// float16/bfloat16 mul and div with a scalar operand, as PyTorch computes them: its kernels read a
// CPU scalar (a Python number, a 0-dim CPU tensor) at the op math type, float32, instead of
// rounding it to 16 bits first. So these ops run in float32 and round once.
#include "../Functions.h"
#include "../TensorIterator.h"

namespace th {

/// Whether `self <op> other` is a 16-bit float op with `other` a CPU scalar (PyTorch's
/// iter.is_cpu_scalar(2) case), which must compute in float32.
inline bool scalar_at_opmath(const Tensor& self, const Tensor& other) {
  // cheap tests first: this runs on every mul/div, result_type only for a 16-bit operand
  return other.dim() == 0 && self.dim() > 0 &&
         (is_reduced_floating_point(self.dtype()) || is_reduced_floating_point(other.dtype())) &&
         other.device().is_cpu() && is_reduced_floating_point(result_type({self, other}));
}

/// Runs `op` on self widened to float32 (other as it is), rounds the result to the 16-bit type,
/// and puts it in `out` as an op would (a new tensor if undefined; else cast-checked, resized, copied).
template <typename Op>
Tensor& at_opmath_into(Tensor& out, const Tensor& self, const Tensor& other, Op op) {
  const ScalarType t = result_type({self, other});
  Tensor r = to_dtype(op(to_dtype(self, ScalarType::Float), other), t);
  if (!out.defined()) return out = r;
  TH_CHECK(can_cast(t, out.dtype()), "result type ", scalar_type_cpp_name(t),
           " can't be cast to the desired output type ", scalar_type_cpp_name(out.dtype()));
  if (out.sizes() != r.sizes()) resize_(out, r.sizes());
  return copy_(out, r);
}

}  // namespace th
