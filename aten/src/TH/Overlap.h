#pragma once
// Internal overlap of a tensor that is written to: two of its elements at one memory location (a stride 0
// across more than one element, as expand makes). PyTorch refuses to write into such a tensor except with
// fill_ (TensorIterator outputs, setitem's copy_).
#include "Tensor.h"

namespace th {

/// Whether two of t's elements share a memory location (PyTorch's MemOverlap::Yes); an empty t never does.
bool has_internal_overlap(const Tensor& t);
/// Raises PyTorch's "unsupported operation: more than one element of the written-to tensor refers to a
/// single memory location" when t has internal overlap.
void assert_no_internal_overlap(const Tensor& t);
/// Whether some order of t's dims is row-major, ignoring dims of size < 2 (PyTorch's
/// is_non_overlapping_and_dense: no overlap and no gaps).
bool non_overlapping_and_dense(const Tensor& t);

}  // namespace th
