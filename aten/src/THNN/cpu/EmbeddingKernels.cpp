// CPU kernel of the embedding family: the backward groups the positions of each index (a counting sort,
// positions in ascending order), then each weight row sums its gradient rows in that order, rows in
// parallel: no two threads write one row, and the sum's order never depends on the thread count.
#include <vector>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/Embedding.h"

namespace th {
namespace {

void embedding_backward_kernel(const Tensor& grad, const Tensor& indices, const Tensor& grad_weight,
                               int64_t padding_idx, bool scale_grad_by_freq) {
  const int64_t N = indices.numel(), W = grad_weight.size(0), D = grad_weight.size(1);
  const auto* idx = reinterpret_cast<const int64_t*>(indices.data_ptr());
  std::vector<int64_t> start(size_t(W) + 1, 0), order(static_cast<size_t>(N));
  for (int64_t n = 0; n < N; ++n) {
    TH_CHECK_T(IndexError, idx[n] >= 0 && idx[n] < W, "index out of range in self");
    ++start[size_t(idx[n]) + 1];
  }
  for (int64_t w = 0; w < W; ++w) start[size_t(w) + 1] += start[size_t(w)];
  std::vector<int64_t> fill(start.begin(), start.end() - 1);
  for (int64_t n = 0; n < N; ++n) order[size_t(fill[size_t(idx[n])]++)] = n;
  TH_DISPATCH_FLOATING_TYPES(grad.dtype(), "embedding_backward_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* g = reinterpret_cast<const scalar_t*>(grad.data_ptr());
    auto* out = reinterpret_cast<scalar_t*>(grad_weight.data_ptr());
    parallel_for(
        W, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(D * (N / std::max<int64_t>(W, 1) + 1), 1)),
        [&](int64_t begin, int64_t end) {
          std::vector<A> row(static_cast<size_t>(D));
          for (int64_t w = begin; w < end; ++w) {
            const int64_t lo = start[size_t(w)], hi = start[size_t(w) + 1];
            if (lo == hi || w == padding_idx) continue;
            std::fill(row.begin(), row.end(), A(0));
            for (int64_t k = lo; k < hi; ++k) {
              const scalar_t* src = g + order[size_t(k)] * D;
              for (int64_t d = 0; d < D; ++d) row[size_t(d)] += A(src[d]);
            }
            const A scale = scale_grad_by_freq ? A(1) / A(hi - lo) : A(1);
            for (int64_t d = 0; d < D; ++d) out[w * D + d] = scalar_t(row[size_t(d)] * scale);
          }
        });
  });
}

void embedding_bag_kernel(const Tensor& weight, const Tensor& indices, const Tensor& starts,
                          const Tensor& psw, const Tensor& out, const Tensor& bag_size,
                          const Tensor& offset2bag, const Tensor& max_indices, math::BagMode mode,
                          int64_t padding_idx) {
  const int64_t B = out.size(0), D = out.size(1);
  const auto* idx = reinterpret_cast<const int64_t*>(indices.data_ptr());
  const auto* st = reinterpret_cast<const int64_t*>(starts.data_ptr());
  auto* size = reinterpret_cast<int64_t*>(bag_size.data_ptr());
  auto* mi = max_indices.defined() ? reinterpret_cast<int64_t*>(max_indices.data_ptr()) : nullptr;
  auto* bag_of = reinterpret_cast<int64_t*>(offset2bag.data_ptr());
  const int64_t N = indices.numel();
  for (int64_t i = 0; i < N; ++i) bag_of[i] = -1;  // before the first bag and after the last: in none
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = st[b]; i < st[b + 1]; ++i) bag_of[i] = b;
  TH_DISPATCH_FLOATING_TYPES(weight.dtype(), "embedding_bag_cpu", [&] {
    const auto* w = reinterpret_cast<const scalar_t*>(weight.data_ptr());
    const auto* p = psw.defined() ? reinterpret_cast<const scalar_t*>(psw.data_ptr()) : nullptr;
    auto* o = reinterpret_cast<scalar_t*>(out.data_ptr());
    parallel_for(B, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(D * 8, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t b = begin; b < end; ++b) {
                     size[b] = 0;
                     for (int64_t d = 0; d < D; ++d)
                       size[b] = math::bag_column(w, idx, p, st[b], st[b + 1], D, d, mode, padding_idx,
                                                  o[b * D + d], mi ? mi + b * D + d : nullptr);
                   }
                 });
  });
}

}  // namespace

TH_REGISTER_KERNEL(embedding_backward_stub, CPU, embedding_backward_kernel);
TH_REGISTER_KERNEL(embedding_bag_stub, CPU, embedding_bag_kernel);

}  // namespace th
