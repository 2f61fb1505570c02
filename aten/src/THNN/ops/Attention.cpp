// Entry points of the attention family: _fused_attention (scaled_dot_product_attention without dropout: the
// output and each query row's log-sum-exp, with no [L, S] matrix kept) and its backward, which recomputes the
// probabilities from the log-sum-exp. torch.nn.functional.scaled_dot_product_attention calls them (its math
// composite remains for dropout and for batch dims that broadcast).
#include <TH/Functions.h>

#include "../Functions.h"
#include "Attention.h"

namespace th {

TH_DEFINE_STUB(attention_fn, attention_stub);
TH_DEFINE_STUB(attention_backward_fn, attention_backward_stub);

namespace {

/// The dtype the kernels accumulate in: double for double, float otherwise.
ScalarType math_dtype(ScalarType t) {
  return t == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
}

struct Batch {
  IntList lead;  // the batch dims of the query
  int64_t BH = 1;
  math::AttentionShape a{};
};

/// PyTorch's checks, and the shapes: q [..., L, E], k [..., S, E], v [..., S, Ev] with equal batch dims.
Batch batch_of(const Tensor& q, const Tensor& k, const Tensor& v, bool causal, double scale) {
  TH_CHECK(q.dim() >= 2 && k.dim() == q.dim() && v.dim() == q.dim(),
           "_fused_attention: expected query, key and ", "value of one rank >= 2, but got ", q.dim(), "-D, ",
           k.dim(), "-D and ", v.dim(), "-D");
  TH_CHECK(q.dtype() == k.dtype() && q.dtype() == v.dtype(),
           "Expected query, key, and value to have the same ",
           "dtype, but got query.dtype: ", scalar_type_name(q.dtype()),
           " key.dtype: ", scalar_type_name(k.dtype()), " and value.dtype: ", scalar_type_name(v.dtype()),
           " instead.");
  TH_CHECK(q.device() == k.device() && q.device() == v.device(),
           "Expected query, key, and value to have the same ",
           "device type, but got query.device: ", q.device().str(), " key.device: ", k.device().str(),
           " and value.device: ", v.device().str(), " instead.");
  TH_CHECK(is_floating_point(q.dtype()), "\"_fused_attention\" not implemented for '",
           scalar_type_name(q.dtype()), "'");
  Batch b;
  const int64_t n = q.dim();
  for (int64_t d = 0; d < n - 2; ++d) {
    TH_CHECK(k.size(d) == q.size(d) && v.size(d) == q.size(d), "_fused_attention: the batch dims of query ",
             shape_str(q.sizes()), ", key ", shape_str(k.sizes()), " and value ", shape_str(v.sizes()),
             " must be equal");
    b.lead.push_back(q.size(d));
    b.BH *= q.size(d);
  }
  TH_CHECK(k.size(n - 1) == q.size(n - 1) && v.size(n - 2) == k.size(n - 2), "_fused_attention: query ",
           shape_str(q.sizes()), ", key ", shape_str(k.sizes()), " and value ", shape_str(v.sizes()),
           " do not fit (..., L, E), (..., S, E), (..., S, Ev)");
  b.a = {q.size(n - 2), k.size(n - 2), q.size(n - 1), v.size(n - 1), causal, scale};
  return b;
}

IntList with(const IntList& lead, std::initializer_list<int64_t> tail) {
  IntList s = lead;
  s.insert(s.end(), tail);
  return s;
}

/// The additive mask in the query's dtype, seen as [BH, L, S] through strides set in `a` (a broadcast
/// batch-head, query or key dim has stride 0, so a mask of [L, S] or [BH, L, S] is not copied); one whose
/// batch dims cannot be flattened that way (e.g. [B, 1, L, S] against B * H batch-heads) is expanded into a
/// copy. Undefined: none.
Tensor mask_of(const std::optional<Tensor>& mask, const Tensor& q, const Batch& b, math::AttentionShape& a) {
  if (!mask || !mask->defined()) return Tensor();
  TH_CHECK(mask->device() == q.device(), "Expected attn_mask to be on ", q.device().str());
  const Tensor m = expand(to_dtype(*mask, q.dtype()), with(b.lead, {a.L, a.S}));
  const int64_t n = m.dim();
  // the batch dims flatten to one stride if every one is 0, or each steps over the next one's extent
  bool flat = true, all_zero = true;
  for (int64_t d = 0; d + 2 < n; ++d) all_zero = all_zero && (m.size(d) == 1 || m.stride(d) == 0);
  for (int64_t d = 0; d + 3 < n; ++d)
    flat = flat && (m.size(d + 1) == 1 || m.size(d) == 1 || m.stride(d) == m.stride(d + 1) * m.size(d + 1));
  int64_t inner_batch_stride = 0;
  for (int64_t d = n - 3; d >= 0; --d)
    if (m.size(d) != 1) {
      inner_batch_stride = m.stride(d);
      break;
    }
  if (all_zero || (flat && n > 2)) {
    a.mask_b = all_zero ? 0 : inner_batch_stride;
    a.mask_i = m.stride(n - 2);
    a.mask_j = m.stride(n - 1);
    return m;
  }
  a.mask_b = a.L * a.S, a.mask_i = a.S, a.mask_j = 1;
  return contiguous(reshape(m, {b.BH, a.L, a.S}));
}

}  // namespace

std::tuple<Tensor, Tensor> _fused_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                            const std::optional<Tensor>& attn_mask, bool is_causal,
                                            double scale) {
  const Batch b = batch_of(query, key, value, is_causal, scale);
  math::AttentionShape a = b.a;
  const ScalarType acc_t = math_dtype(query.dtype());
  Tensor acc = empty_tensor({b.BH, a.L, a.Ev}, acc_t, query.device());
  Tensor lse = empty_tensor({b.BH, a.L}, acc_t, query.device());
  const Tensor mask = mask_of(attn_mask, query, b, a);  // sets a's mask strides
  if (acc.numel() > 0 || (lse.numel() > 0 && a.S > 0)) {
    attention_stub[query.device().type](contiguous(reshape(query, {b.BH, a.L, a.E})),
                                        contiguous(reshape(key, {b.BH, a.S, a.E})),
                                        contiguous(reshape(value, {b.BH, a.S, a.Ev})), mask, acc, lse, a);
  }
  return {reshape(to_dtype(acc, query.dtype()), with(b.lead, {a.L, a.Ev})),
          reshape(lse, with(b.lead, {a.L}))};
}

std::tuple<Tensor, Tensor, Tensor, Tensor> _fused_attention_backward(
    const Tensor& grad_output, const Tensor& query, const Tensor& key, const Tensor& value,
    const std::optional<Tensor>& attn_mask, const Tensor& output, const Tensor& logsumexp, bool is_causal,
    double scale, bool mask_grad) {
  const Batch b = batch_of(query, key, value, is_causal, scale);
  math::AttentionShape a = b.a;
  const ScalarType acc_t = math_dtype(query.dtype());
  const Device dev = query.device();
  const Tensor mask = mask_of(attn_mask, query, b, a);
  Tensor D = empty_tensor({b.BH, a.L}, acc_t, dev), dq = empty_tensor({b.BH, a.L, a.E}, acc_t, dev),
         dk = empty_tensor({b.BH, a.S, a.E}, acc_t, dev), dv = empty_tensor({b.BH, a.S, a.Ev}, acc_t, dev);
  Tensor dmask = mask_grad && mask.defined() ? empty_tensor({b.BH, a.L, a.S}, query.dtype(), dev) : Tensor();
  if (b.BH * (a.L + a.S) > 0) {
    attention_backward_stub[dev.type](
        contiguous(reshape(query, {b.BH, a.L, a.E})), contiguous(reshape(key, {b.BH, a.S, a.E})),
        contiguous(reshape(value, {b.BH, a.S, a.Ev})), mask, contiguous(reshape(output, {b.BH, a.L, a.Ev})),
        contiguous(reshape(to_dtype(grad_output, query.dtype()), {b.BH, a.L, a.Ev})),
        contiguous(reshape(to_dtype(logsumexp, acc_t), {b.BH, a.L})), D, dq, dk, dv, dmask, a);
  }
  const auto back = [&](const Tensor& t, const Tensor& like) {
    return reshape(to_dtype(t, like.dtype()), like.sizes());
  };
  return {back(dq, query), back(dk, key), back(dv, value),
          dmask.defined() ? reshape(dmask, with(b.lead, {a.L, a.S})) : empty_tensor({0}, query.dtype(), dev)};
}

}  // namespace th
