#include "Overlap.h"

#include "Exception.h"

namespace th {

bool has_internal_overlap(const Tensor& t) {
  if (t.numel() == 0) return false;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.strides()[d] == 0 && t.sizes()[d] > 1) return true;
  return false;
}

void assert_no_internal_overlap(const Tensor& t) {
  TH_CHECK(!has_internal_overlap(t),
           "unsupported operation: more than one element of the written-to tensor refers to a single memory "
           "location. Please clone() the tensor before performing the operation.");
}

}  // namespace th
