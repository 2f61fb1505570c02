// ConjWrite's write-back (Conj.h).
#include "Conj.h"

#include <TH/Functions.h>
#include <TH/TensorIterator.h>

namespace torch {

void refuse_conj(const std::vector<th::Tensor>& ts, const char* op) {
  for (const th::Tensor& t : ts)
    TH_CHECK(!t.defined() || !t.is_conj(), op,
             ": a tensor with the conjugate bit cannot be written in place here; resolve_conj() it first");
}

void ConjWrite::commit() {
  if (!conj_) return;
  if (copy_.sizes() != target_.sizes()) th::resize_(target_, copy_.sizes());  // an out= the op resized
  th::copy_(target_, copy_);  // target keeps its bit: copy_ writes the conjugates into its memory
}

}  // namespace torch
