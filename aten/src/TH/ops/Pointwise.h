#pragma once
// What the unary and binary families' entry points share (ops/Unary.cpp, ops/Binary.cpp): building
// the iterator into `out` and running a kernel on it; the floating computation of integer inputs.
#include <functional>
#include <optional>
#include <vector>

#include "../Functions.h"
#include "../TensorIterator.h"

namespace th::pointwise {

/// Runs `op` into `out` (allocated if undefined); `compute` overrides the computation dtype.
inline Tensor& run_into(Tensor& out, const std::vector<Tensor>& inputs, std::optional<ScalarType> compute,
                        std::optional<ScalarType> result,
                        const std::function<void(TensorIterator&)>& kernel) {
  TensorIteratorConfig cfg;
  cfg.add_output(out);
  for (const Tensor& t : inputs) cfg.add_input(t);
  if (compute) cfg.common_dtype(*compute);
  if (result) cfg.output_dtype(*result);
  TensorIterator iter = cfg.build();
  kernel(iter);
  iter.cast_outputs();
  if (!out.defined()) out = iter.output();
  return out;
}

/// Integer inputs of floating ops compute in the default dtype (torch.exp(int_tensor) is float32).
inline std::optional<ScalarType> floating_compute(const std::vector<Tensor>& inputs) {
  ScalarType t = result_type(inputs);
  if (is_integral(t, /*include_bool=*/true)) return get_default_dtype();
  return std::nullopt;
}

}  // namespace th::pointwise
