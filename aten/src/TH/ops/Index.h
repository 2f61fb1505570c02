#pragma once
// The index family's kernels, which every gather/scatter-style op is built from: read or write a
// tensor at logical (row-major) positions given by an int64 tensor, and find the positions of a
// mask's true elements (nonzero, masked_select). ops/Index.cpp, cpu/IndexKernels.cpp,
// THC/IndexKernels.cu.
#include "../Dispatch.h"
#include "../Macros.h"
#include "../Tensor.h"

namespace th {

/// out[i] = self at logical position index[i]; index and out are contiguous, index holds in-range,
/// non-negative positions, out has self's dtype. Any layout of self (strides, zero strides).
using take_fn = void(const Tensor& self, const Tensor& index, const Tensor& out);
/// self at logical position index[i] = source[i] (+= with accumulate); index and source contiguous,
/// source of self's dtype. Later duplicates win without accumulate.
using put_fn = void(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);

/// The coordinates of the true elements of `mask` (bool, contiguous, any nonzero byte true, holding a tensor
/// of `sizes` row-major), in order: a new [count, len(sizes)] int64 tensor on mask's device. On CUDA the
/// count is the one value that comes to the host (the result's size depends on it).
using nonzero_fn = Tensor(const Tensor& mask, const IntList& sizes);

/// out[o, j, i] = self[o, index[j], i] for a contiguous self viewed as [outer, size, inner] (size: the
/// selected dim's), index contiguous int64 in [0, size), out new and contiguous [outer, len(index), inner]:
/// index_select's row copies. CPU only for now; where a device has none, index_select goes through take.
using index_select_fn = void(const Tensor& self, int64_t outer, int64_t size, int64_t inner,
                             const Tensor& index, const Tensor& out);

/// self[o, index[j], i] = (or += with accumulate) source[o, j, i] for a contiguous self viewed as [outer,
/// size, inner] and a contiguous source of its dtype [outer, len(index), inner], index contiguous int64 in
/// [0, size): index_add_'s and a one-index index_put_'s rows, each element's in index order (duplicates
/// accumulate, or the last one wins, deterministically). CPU only for now, as above.
using index_put_rows_fn = void(const Tensor& self, int64_t outer, int64_t size, int64_t inner,
                               const Tensor& index, const Tensor& source, bool accumulate);

TH_DECLARE_STUB(take_fn, take_stub);
TH_DECLARE_STUB(index_put_rows_fn, index_put_rows_stub);
TH_DECLARE_STUB(index_select_fn, index_select_stub);
TH_DECLARE_STUB(put_fn, put_stub);
TH_DECLARE_STUB(nonzero_fn, nonzero_stub);

/// Element offsets of a layout: position -> storage offset (in elements), usable on host and device.
struct LogicalToStorage {
  int ndim = 0;
  int64_t sizes[16];
  int64_t strides[16];
  explicit LogicalToStorage(const Tensor& t) : ndim(int(t.dim())) {
    for (int d = 0; d < ndim; ++d) {
      sizes[d] = t.sizes()[size_t(d)];
      strides[d] = t.strides()[size_t(d)];
    }
  }
  TH_HOST_DEVICE int64_t operator()(int64_t pos) const {
    int64_t off = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      off += (pos % sizes[d]) * strides[d];
      pos /= sizes[d];
    }
    return off;
  }
};

}  // namespace th
