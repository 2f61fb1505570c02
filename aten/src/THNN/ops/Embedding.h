#pragma once
// The embedding family's kernels: ops/Embedding.cpp, cpu/EmbeddingKernels.cpp, THCUNN/EmbeddingKernels.cu.
// The forward is TH's index_select; the backward sums the gradient rows of each index into its weight row.
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

#include "../math/Embedding.h"

namespace th {

/// grad_weight ([W, D] contiguous, zero on entry) += the rows of grad ([N, D] contiguous) at their indices
/// (`indices`: [N] contiguous int64, each in [0, W)); the row `padding_idx` (if in range) stays zero, and
/// with scale_grad_by_freq each row is divided by how many times its index occurs. Deterministic on the CPU.
using embedding_backward_fn = void(const Tensor& grad, const Tensor& indices, const Tensor& grad_weight,
                                   int64_t padding_idx, bool scale_grad_by_freq);

/// embedding_bag's forward: out [B, D], bag_size [B], offset2bag [N] (each index's bag; -1 before the first)
/// and (Max) max_indices [B, D] for contiguous weight [W, D], int64 indices [N], bag bounds `starts` [B + 1]
/// (int64, non-decreasing, within [0, N]) and per_sample_weights [N] (or undefined).
using embedding_bag_fn = void(const Tensor& weight, const Tensor& indices, const Tensor& starts,
                              const Tensor& psw, const Tensor& out, const Tensor& bag_size,
                              const Tensor& offset2bag, const Tensor& max_indices, math::BagMode mode,
                              int64_t padding_idx);

TH_DECLARE_STUB(embedding_backward_fn, embedding_backward_stub);
TH_DECLARE_STUB(embedding_bag_fn, embedding_bag_stub);

}  // namespace th
