// Entry points of the normalization family: batch_norm forward and backward (_batch_norm: batch or given
// statistics; torch.nn.functional.batch_norm updates the running ones), and layer_norm forward and backward
// (upstream's native_layer_norm and native_layer_norm_backward, here _layer_norm / _layer_norm_backward) over
// the trailing normalized_shape dims; torch.nn.functional.layer_norm calls them. group_norm and instance_norm
// reshape onto the same rows in torch.nn.functional.
#include <cmath>

#include <TH/Functions.h>

#include "../Functions.h"
#include "Normalization.h"

namespace th {

TH_DEFINE_STUB(layer_norm_fn, layer_norm_stub);
TH_DEFINE_STUB(layer_norm_backward_fn, layer_norm_backward_stub);
TH_DEFINE_STUB(batch_norm_fn, batch_norm_stub);
TH_DEFINE_STUB(batch_norm_backward_fn, batch_norm_backward_stub);

namespace {

/// PyTorch's checks; returns (rows N, row length M).
std::pair<int64_t, int64_t> rows_of(const Tensor& input, const IntList& normalized_shape,
                                    const std::optional<Tensor>& weight, const std::optional<Tensor>& bias) {
  const int64_t k = int64_t(normalized_shape.size());
  TH_CHECK(k >= 1,
           "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
           "but got "
           "normalized_shape = ",
           shape_str(normalized_shape));
  for (const auto* p : {&weight, &bias}) {
    const char* what = p == &weight ? "weight" : "bias";
    TH_CHECK(!*p || !(*p)->defined() || (*p)->sizes() == normalized_shape, "Expected ", what,
             " to be of same shape as normalized_shape, but got ", what, " of shape ",
             shape_str((*p)->sizes()), " and normalized_shape = ", shape_str(normalized_shape));
  }
  bool ok = input.dim() >= k;
  for (int64_t d = 0; ok && d < k; ++d) ok = input.size(input.dim() - k + d) == normalized_shape[size_t(d)];
  TH_CHECK(
      ok, "Given normalized_shape=", shape_str(normalized_shape), ", expected input with shape [*",
      [&] {
        std::string s;
        for (int64_t v : normalized_shape) s += ", " + std::to_string(v);
        return s;
      }(),
      "], but got input of size", shape_str(input.sizes()));
  TH_CHECK(is_floating_point(input.dtype()), "\"LayerNormKernelImpl\" not implemented for '",
           scalar_type_cpp_name(input.dtype()), "'");
  int64_t M = 1, N = 1;
  for (int64_t v : normalized_shape) M *= v;
  for (int64_t d = 0; d < input.dim() - k; ++d) N *= input.size(d);
  return {N, M};
}

Tensor param(const std::optional<Tensor>& p, const Tensor& like) {
  return p && p->defined() ? contiguous(to_dtype(*p, like.dtype())) : Tensor();
}

/// The shape of mean and rstd: input's leading dims, then 1 for each normalized dim (as upstream).
IntList stat_shape(const Tensor& input, int64_t k) {
  IntList s(input.sizes().begin(), input.sizes().end());
  for (int64_t d = 0; d < k; ++d) s[s.size() - 1 - size_t(d)] = 1;
  return s;
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _layer_norm(const Tensor& input, const IntList& normalized_shape,
                                               const std::optional<Tensor>& weight,
                                               const std::optional<Tensor>& bias, double eps) {
  const auto [N, M] = rows_of(input, normalized_shape, weight, bias);
  const Tensor x = contiguous(input);
  const ScalarType stat = is_reduced_floating_point(x.dtype()) ? ScalarType::Float : x.dtype();
  Tensor y = empty_tensor(x.sizes(), x.dtype(), x.device());
  Tensor mean = empty_tensor({N}, stat, x.device()), rstd = empty_tensor({N}, stat, x.device());
  if (N > 0 && M > 0) {
    layer_norm_stub[x.device().type](x, param(weight, x), param(bias, x), eps, y, mean, rstd, N, M);
  } else if (N > 0) {  // rows of no elements: their statistics are nan, as upstream's
    mean = full({N}, Scalar(NAN), stat, x.device());
    rstd = full({N}, Scalar(NAN), stat, x.device());
  }
  const IntList s = stat_shape(input, int64_t(normalized_shape.size()));
  return {y, reshape(mean, s), reshape(rstd, s)};
}

std::tuple<Tensor, Tensor, Tensor> _layer_norm_backward(const Tensor& grad_out, const Tensor& input,
                                                        const IntList& normalized_shape, const Tensor& mean,
                                                        const Tensor& rstd,
                                                        const std::optional<Tensor>& weight,
                                                        const std::optional<Tensor>& bias) {
  const auto [N, M] = rows_of(input, normalized_shape, weight, bias);
  TH_CHECK(grad_out.sizes() == input.sizes(),
           "layer_norm_backward: grad_out and input must have the same shape");
  const Tensor x = contiguous(input), dy = contiguous(to_dtype(grad_out, x.dtype()));
  const Tensor w = param(weight, x);
  Tensor dx = empty_tensor(x.sizes(), x.dtype(), x.device());
  Tensor dw =
      w.defined() ? empty_tensor(w.sizes(), x.dtype(), x.device()) : empty_tensor({0}, x.dtype(), x.device());
  Tensor db = bias && bias->defined() ? empty_tensor(bias->sizes(), x.dtype(), x.device())
                                      : empty_tensor({0}, x.dtype(), x.device());
  if (N > 0 && M > 0) {
    layer_norm_backward_stub[x.device().type](dy, x, contiguous(mean), contiguous(rstd), w, dx,
                                              w.defined() ? dw : Tensor(), db.numel() ? db : Tensor(), N, M);
  } else {
    if (dw.numel()) dw = zeros(dw.sizes(), dw.dtype(), dw.device());
    if (db.numel()) db = zeros(db.sizes(), db.dtype(), db.device());
  }
  return {dx, dw, db};
}

namespace {

/// (N, C, L) of a batch-norm input [N, C, *] with PyTorch's checks of the per-channel tensors.
std::tuple<int64_t, int64_t, int64_t> channels_of(const Tensor& input,
                                                  std::initializer_list<const Tensor*> per_channel) {
  TH_CHECK(input.dim() >= 2, "batch_norm: expected 2D or more input (got ", input.dim(), "D input)");
  TH_CHECK(is_floating_point(input.dtype()), "\"batch_norm\" not implemented for '",
           scalar_type_cpp_name(input.dtype()), "'");
  const int64_t N = input.size(0), C = input.size(1);
  for (const Tensor* t : per_channel)
    TH_CHECK(!t->defined() || t->numel() == C, "batch_norm: expected ", C,
             " elements per channel tensor, got ", t->numel());
  return {N, C, N * C == 0 ? 0 : input.numel() / (N * C)};
}

Tensor optional(const std::optional<Tensor>& t) { return t && t->defined() ? *t : Tensor(); }

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                               const std::optional<Tensor>& bias,
                                               const std::optional<Tensor>& mean,
                                               const std::optional<Tensor>& var, bool use_input_stats,
                                               double eps) {
  const Tensor w = optional(weight), b = optional(bias), m = optional(mean), v = optional(var);
  const auto [N, C, L] = channels_of(input, {&w, &b, &m, &v});
  TH_CHECK(use_input_stats || (m.defined() && v.defined()),
           "batch_norm: running_mean and running_var must be "
           "defined when not using the input's statistics");
  const Tensor x = contiguous(input);
  const ScalarType stat = is_reduced_floating_point(x.dtype()) ? ScalarType::Float : x.dtype();
  // with the running statistics, copies of them: an output that aliased running_mean would join the
  // autograd graph as an output of this op (the buffer would then require grad)
  Tensor save_mean = use_input_stats ? empty_tensor({C}, stat, x.device()) : clone(to_dtype(m, stat));
  Tensor save_var = use_input_stats ? empty_tensor({C}, stat, x.device()) : clone(to_dtype(v, stat));
  Tensor y = empty_tensor(x.sizes(), x.dtype(), x.device());
  if (use_input_stats && N * L == 0) {  // no elements: the statistics are nan, as upstream
    save_mean = full({C}, Scalar(NAN), stat, x.device());
    save_var = full({C}, Scalar(NAN), stat, x.device());
  } else if (C > 0) {
    batch_norm_stub[x.device().type](x, w.defined() ? contiguous(to_dtype(w, x.dtype())) : w,
                                     b.defined() ? contiguous(to_dtype(b, x.dtype())) : b, save_mean,
                                     save_var, use_input_stats, eps, y, N, C, L);
  }
  return {y, save_mean, save_var};
}

std::tuple<Tensor, Tensor, Tensor> _batch_norm_backward(const Tensor& grad_out, const Tensor& input,
                                                        const std::optional<Tensor>& weight,
                                                        const Tensor& save_mean, const Tensor& save_var,
                                                        bool use_input_stats, double eps) {
  const Tensor w = optional(weight);
  const auto [N, C, L] = channels_of(input, {&w});
  const Tensor x = contiguous(input), dy = contiguous(to_dtype(grad_out, x.dtype()));
  Tensor dx = empty_tensor(x.sizes(), x.dtype(), x.device());
  Tensor dw = empty_tensor({C}, x.dtype(), x.device()), db = empty_tensor({C}, x.dtype(), x.device());
  if (C > 0 && N * L > 0) {
    batch_norm_backward_stub[x.device().type](dy, x, contiguous(save_mean), contiguous(save_var),
                                              w.defined() ? contiguous(to_dtype(w, x.dtype())) : w,
                                              use_input_stats, eps, dx, dw, db, N, C, L);
  } else {
    dx = zeros(x.sizes(), x.dtype(), x.device());
    dw = zeros({C}, x.dtype(), x.device());
    db = zeros({C}, x.dtype(), x.device());
  }
  return {dx, dw, db};
}

}  // namespace th
