#pragma once
// The conjugate bit at the bindings (PyTorch's conjugate fallback): a tensor with the bit (x.conj() of a
// complex x, a view of x's memory) is read by every op as its conjugated values. The generated bindings pass
// each Tensor argument through `resolved` (the tensor itself, or its conjugates in a new tensor when it has
// the bit) and each mutable one through `ConjWrite` (the op writes a resolved copy, which goes back
// conjugated); view ops, which only make metadata, and the ops marked `conj: aware` in native_functions.yaml
// (copy_, fill_, clone, conj, ...) take their tensors as they are: TH handles the bit there (make_view keeps
// it, copy_ and fill_ write the physical view). A kernel never sees the bit: TensorIterator refuses it.
#include <optional>
#include <vector>

#include <TH/Tensor.h>

namespace torch {

/// `t`, or `t`'s values in `holder` when t has the conjugate bit (then a reference to holder).
inline const th::Tensor& resolved(const th::Tensor& t, th::Tensor& holder) {
  if (!t.defined() || !t.is_conj()) return t;
  holder = th::resolve_conj(t);
  return holder;
}

/// An optional tensor argument resolved in place.
inline void resolve(std::optional<th::Tensor>& t) {
  if (t && t->defined() && t->is_conj()) t = th::resolve_conj(*t);
}

/// A tensor list: `ts`, or a copy in `holder` with the conjugate views resolved.
inline const std::vector<th::Tensor>& resolved(const std::vector<th::Tensor>& ts,
                                               std::vector<th::Tensor>& holder) {
  bool any = false;
  for (const th::Tensor& t : ts) any = any || (t.defined() && t.is_conj());
  if (!any) return ts;
  holder.reserve(ts.size());
  for (const th::Tensor& t : ts) holder.push_back(t.defined() && t.is_conj() ? th::resolve_conj(t) : t);
  return holder;
}

/// A tensor list that an op writes in place (the fused optimizers' parameters and states): a conjugate view
/// there is refused, as writing a resolved copy would leave the tensor itself as it was.
void refuse_conj(const std::vector<th::Tensor>& ts, const char* op);

/// A mutable tensor argument (in-place self, out=): the op writes `get()`, which is the tensor itself unless
/// it has the conjugate bit; then a resolved copy, written back (conjugated, by copy_) on `commit()`, after
/// the op succeeded. An op that fails leaves the tensor as it was.
class ConjWrite {
 public:
  explicit ConjWrite(th::Tensor& target) : target_(target), conj_(target.defined() && target.is_conj()) {
    if (conj_) copy_ = th::resolve_conj(target);
  }
  th::Tensor& get() { return conj_ ? copy_ : target_; }
  void commit();

 private:
  th::Tensor& target_;
  bool conj_;
  th::Tensor copy_;
};

}  // namespace torch
