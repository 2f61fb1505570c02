// Entry points of the embedding family: embedding (rows of the weight at the indices) and its backward
// embedding_dense_backward (PyTorch's names). torch.nn.functional.embedding checks padding_idx and applies
// max_norm, then calls embedding.
#include <TH/Functions.h>

#include "../Functions.h"
#include "Embedding.h"

namespace th {

TH_DEFINE_STUB(embedding_backward_fn, embedding_backward_stub);

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

}  // namespace th
