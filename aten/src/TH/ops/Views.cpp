// Views: new sizes/strides/offset over the same storage; no data moves.
#include <algorithm>

#include "../Functions.h"

namespace th {

Tensor as_strided(const Tensor& self, const IntList& size, const IntList& stride,
                  std::optional<int64_t> storage_offset) {
  TH_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  int64_t offset = storage_offset.value_or(self.storage_offset());
  int64_t last = offset;
  for (size_t d = 0; d < size.size(); ++d) {
    TH_CHECK(size[d] >= 0, "as_strided: Negative sizes are not allowed, got ", size[d]);
    TH_CHECK(stride[d] >= 0, "as_strided: Negative strides are not supported at the moment, got strides: ",
             shape_str(stride));
    if (size[d] == 0) last = -1;
    if (last >= 0) last += (size[d] - 1) * stride[d];
  }
  int64_t capacity = static_cast<int64_t>(self.storage()->nbytes() / self.element_size());
  TH_CHECK(last < capacity, "setStorage: sizes ", shape_str(size), ", strides ", shape_str(stride),
           ", storage offset ", offset, " requiring a storage size of ", (last + 1) * self.element_size(),
           " are out of bounds for storage of size ", self.storage()->nbytes());
  return make_view(self, size, stride, offset);
}

Tensor view(const Tensor& self, const IntList& size) {
  // resolve a single -1
  IntList shape = size;
  int64_t known = 1, infer = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      TH_CHECK(infer < 0, "only one dimension can be inferred");
      infer = static_cast<int64_t>(d);
    } else {
      TH_CHECK(shape[d] >= 0, "invalid shape dimension ", shape[d]);
      known *= shape[d];
    }
  }
  if (infer >= 0) {
    TH_CHECK(known != 0 && self.numel() % known == 0, "shape '", shape_str(size),
             "' is invalid for input of size ", self.numel());
    shape[infer] = self.numel() / known;
  }
  TH_CHECK(prod(shape) == self.numel(), "shape '", shape_str(size), "' is invalid for input of size ",
           self.numel());
  TH_CHECK(self.is_contiguous(),
           "view size is not compatible with input tensor's size and stride (at least one dimension "
           "spans across two contiguous subspaces). Use .reshape(...) instead.");
  return make_view(self, shape, contiguous_strides(shape), self.storage_offset());
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  int64_t d0 = wrap_dim(dim0, self.dim()), d1 = wrap_dim(dim1, self.dim());
  if (self.dim() == 0) return make_view(self, {}, {}, self.storage_offset());
  IntList sizes = self.sizes(), strides = self.strides();
  std::swap(sizes[d0], sizes[d1]);
  std::swap(strides[d0], strides[d1]);
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor permute(const Tensor& self, const IntList& dims) {
  TH_CHECK(static_cast<int64_t>(dims.size()) == self.dim(),
           "permute(sparse_coo): number of dimensions in the tensor input does not match the length "
           "of the desired ordering of dimensions i.e. input.dim() = ",
           self.dim(), " is not equal to len(dims) = ", dims.size());
  IntList sizes(dims.size()), strides(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = wrap_dim(dims[i], self.dim());
    TH_CHECK(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = self.sizes()[d];
    strides[i] = self.strides()[d];
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor expand(const Tensor& self, const IntList& size) {
  const auto nd = static_cast<int64_t>(size.size());
  TH_CHECK(nd >= self.dim(), "expand(", shape_str(self.sizes()), "): the number of sizes provided (", nd,
           ") must be greater or equal to the number of dimensions in the tensor (", self.dim(), ")");
  IntList sizes(nd), strides(nd);
  for (int64_t i = nd - 1; i >= 0; --i) {
    int64_t j = i - (nd - self.dim());
    int64_t have = j >= 0 ? self.sizes()[j] : 1, stride = j >= 0 ? self.strides()[j] : 0;
    int64_t want = size[i] == -1 ? have : size[i];
    TH_CHECK(j >= 0 || size[i] != -1,
             "The expanded size of the tensor (-1) isn't allowed in a "
             "leading, non-existing dimension ",
             i);
    TH_CHECK(have == want || have == 1, "The expanded size of the tensor (", want,
             ") must match the existing size (", have, ") at non-singleton dimension ", i,
             ".  Target sizes: ", shape_str(size), ".  Tensor sizes: ", shape_str(self.sizes()));
    sizes[i] = want;
    strides[i] = have == want ? stride : 0;
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  TH_CHECK(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(dim, self.dim());
  int64_t n = self.sizes()[d];
  if (start < 0) start += n;
  TH_CHECK_T(IndexError, start >= 0 && start <= n, "start out of range (expected to be in range of [", -n,
             ", ", n, "], but got ", start, ")");
  TH_CHECK(length >= 0 && start + length <= n, "start (", start, ") + length (", length,
           ") exceeds dimension size (", n, ").");
  IntList sizes = self.sizes();
  sizes[d] = length;
  return make_view(self, sizes, self.strides(), self.storage_offset() + start * self.strides()[d]);
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  int64_t d = wrap_dim(dim, self.dim() + 1);
  IntList sizes = self.sizes(), strides = self.strides();
  int64_t stride = d < self.dim() ? sizes[d] * strides[d] : 1;
  sizes.insert(sizes.begin() + d, 1);
  strides.insert(strides.begin() + d, stride);
  return make_view(self, sizes, strides, self.storage_offset());
}

}  // namespace th
