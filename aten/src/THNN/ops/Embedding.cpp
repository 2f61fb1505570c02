// Entry points of the embedding family: embedding (rows of the weight at the indices) and its backward
// embedding_dense_backward (PyTorch's names). torch.nn.functional.embedding checks padding_idx and applies
// max_norm, then calls embedding.
#include <TH/Functions.h>

#include <algorithm>

#include "../Functions.h"
#include "Embedding.h"

namespace th {

TH_DEFINE_STUB(embedding_backward_fn, embedding_backward_stub);
TH_DEFINE_STUB(embedding_bag_fn, embedding_bag_stub);

namespace {

void check_indices(const Tensor& indices, const char* fn) {
  TH_CHECK(
      indices.dtype() == ScalarType::Long || indices.dtype() == ScalarType::Int,
      "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but "
      "got ",
      scalar_type_name(indices.dtype()), " instead (while checking arguments for ", fn, ")");
}

}  // namespace

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                 bool sparse) {
  (void)padding_idx, (void)scale_grad_by_freq;  // only the backward uses them
  TH_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  TH_CHECK(!sparse, "embedding: sparse gradients are not supported (there is no sparse layout)");
  check_indices(indices, "embedding");
  IntList shape = indices.sizes();
  shape.push_back(weight.size(1));
  return reshape(index_select(weight, 0, reshape(indices, {-1})), shape);
}

Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                int64_t padding_idx, bool scale_grad_by_freq) {
  check_indices(indices, "embedding_backward");
  TH_CHECK(grad_output.device() == indices.device(),
           "Expected all tensors to be on the same device, but found "
           "at least two devices, ",
           grad_output.device().str(), " and ", indices.device().str(), "!");
  const int64_t N = indices.numel();
  const int64_t D = grad_output.dim() == 0 ? 1 : grad_output.size(grad_output.dim() - 1);
  TH_CHECK(grad_output.numel() == N * D, "embedding_dense_backward: grad_output of size ",
           shape_str(grad_output.sizes()), " does not match ", N, " indices");
  Tensor grad_weight = zeros({num_weights, D}, grad_output.dtype(), grad_output.device());
  if (N == 0 || D == 0) return grad_weight;
  const Tensor idx = contiguous(to_dtype(reshape(indices, {-1}), ScalarType::Long));
  const Tensor g = contiguous(reshape(grad_output, {N, D}));
  embedding_backward_stub[g.device().type](g, idx, grad_weight, padding_idx, scale_grad_by_freq);
  return grad_weight;
}

std::tuple<Tensor, Tensor, Tensor, Tensor> _embedding_bag(const Tensor& weight, const Tensor& indices,
                                                          const Tensor& offsets, int64_t mode,
                                                          const std::optional<Tensor>& per_sample_weights,
                                                          bool include_last_offset, int64_t padding_idx,
                                                          bool scale_grad_by_freq) {
  (void)scale_grad_by_freq;  // the backward's
  TH_CHECK(weight.dim() == 2, "weight has to be a 2D Tensor, but got Tensor of dimension ", weight.dim());
  TH_CHECK(indices.dim() == 1 && offsets.dim() == 1,
           "_embedding_bag: expected 1-D indices and offsets, but got ", indices.dim(), "-D and ",
           offsets.dim(), "-D");
  check_indices(indices, "embedding_bag");
  check_indices(offsets, "embedding_bag");
  TH_CHECK(mode >= 0 && mode <= 2, "mode has to be one of sum, mean or max");
  const bool has_psw = per_sample_weights && per_sample_weights->defined();
  TH_CHECK(!has_psw || (mode == 0 && per_sample_weights->numel() == indices.numel()),
           "embedding_bag: per_sample_weights is only supported for mode='sum', with one weight per index");
  const bool same_device = indices.device() == weight.device() && offsets.device() == weight.device() &&
                           (!has_psw || per_sample_weights->device() == weight.device());
  TH_CHECK(same_device, "Expected all tensors to be on the same device, but found at least two devices, ",
           weight.device().str(), " and ",
           (indices.device() != weight.device() ? indices : offsets).device().str(), "!");
  const int64_t N = indices.numel(), D = weight.size(1);
  const Tensor idx = contiguous(to_dtype(indices, ScalarType::Long));
  if (N > 0) {  // an index outside the weight would read outside it (on every device): checked on the host
    const Tensor host = contiguous(to(idx, Device(DeviceType::CPU), ScalarType::Long, false, false));
    const auto* p = reinterpret_cast<const int64_t*>(host.data_ptr());
    for (int64_t i = 0; i < N; ++i)
      TH_CHECK(p[i] >= 0 && p[i] < weight.size(0), "Index ", i, " of input takes value ", p[i],
               " which is not in the valid range [0, ", weight.size(0), ")");
  }
  Tensor starts = to_dtype(offsets, ScalarType::Long);
  if (!include_last_offset)
    starts = cat({starts, full({1}, Scalar(N), ScalarType::Long, offsets.device())}, 0);
  starts = contiguous(clamp(starts, Scalar(int64_t(0)), Scalar(N)));
  const int64_t B = std::max<int64_t>(starts.numel() - 1, 0);
  Tensor out = empty_tensor({B, D}, weight.dtype(), weight.device());
  Tensor bag_size = zeros({B}, ScalarType::Long, weight.device());
  Tensor offset2bag = empty_tensor({N}, ScalarType::Long, weight.device());
  Tensor max_indices = mode == 2 ? empty_tensor({B, D}, ScalarType::Long, weight.device())
                                 : empty_tensor({0}, ScalarType::Long, weight.device());
  if (B > 0 || N > 0) {
    const Tensor psw = has_psw ? contiguous(to_dtype(*per_sample_weights, weight.dtype())) : Tensor();
    embedding_bag_stub[weight.device().type](contiguous(weight), idx, starts, psw, out, bag_size, offset2bag,
                                             mode == 2 ? max_indices : Tensor(), math::BagMode(mode),
                                             padding_idx);
  }
  return {out, offset2bag, bag_size, max_indices};
}

std::tuple<Tensor, Tensor> _embedding_bag_backward(const Tensor& grad, const Tensor& weight,
                                                   const Tensor& indices, const Tensor& offset2bag,
                                                   const Tensor& bag_size, const Tensor& max_indices,
                                                   int64_t mode,
                                                   const std::optional<Tensor>& per_sample_weights,
                                                   int64_t padding_idx, bool scale_grad_by_freq,
                                                   bool weight_grad, bool psw_grad) {
  const int64_t W = weight.size(0), D = weight.size(1);
  const Tensor idx = contiguous(to_dtype(indices, ScalarType::Long));
  const Tensor g = contiguous(to_dtype(grad, weight.dtype()));
  // each index's gradient row: its bag's (0 for an index outside every bag)
  const Tensor in_bag = ge(offset2bag, wrap_number(Scalar(int64_t(0))));
  const Tensor bag = clamp(offset2bag, Scalar(int64_t(0)), std::nullopt);
  const Tensor rows = g.size(0) > 0 ? mul(index_select(g, 0, bag), reshape(in_bag, {-1, 1}))
                                    : zeros({idx.numel(), D}, weight.dtype(), weight.device());
  const bool has_psw = per_sample_weights && per_sample_weights->defined();
  Tensor grad_weight = empty_tensor({0}, weight.dtype(), weight.device());
  if (weight_grad && mode == 2) {  // max: each column's gradient to the row it came from
    grad_weight = zeros({W, D}, weight.dtype(), weight.device());
    const Tensor valid = ge(max_indices, wrap_number(Scalar(int64_t(0))));
    const Tensor pos =
        where(valid,
              add(mul(max_indices, wrap_number(Scalar(D))),
                  reshape(arange(Scalar(D), ScalarType::Long, weight.device()), {1, D}), Scalar(int64_t(1))),
              zeros({}, ScalarType::Long, weight.device()));
    Tensor flat = reshape(grad_weight, {-1});
    put_(flat, pos, mul(g, valid), true);
  } else if (weight_grad) {  // sum and mean: an embedding backward of the rows, scaled
    Tensor scaled = rows;
    if (mode == 1) {
      const Tensor sizes = clamp(index_select(bag_size, 0, bag), Scalar(int64_t(1)), std::nullopt);
      scaled = div(rows, reshape(to_dtype(sizes, weight.dtype()), {-1, 1}), std::nullopt);
    } else if (has_psw) {
      scaled = mul(rows, reshape(to_dtype(*per_sample_weights, weight.dtype()), {-1, 1}));
    }
    grad_weight = embedding_dense_backward(scaled, idx, W, padding_idx, scale_grad_by_freq);
  }
  Tensor grad_psw = empty_tensor({0}, weight.dtype(), weight.device());
  if (psw_grad && has_psw) {  // d out[bag] / d psw[i] = weight[idx[i]], 0 for padding
    const Tensor not_pad = ne(idx, wrap_number(Scalar(padding_idx)));
    grad_psw = mul(sum(mul(rows, index_select(weight, 0, idx)), IntList{1}, false, std::nullopt), not_pad);
  }
  return {grad_weight, grad_psw};
}

}  // namespace th
