// Views: new sizes/strides/offset over the same storage; no data moves.
#include <algorithm>
#include <optional>
#include <vector>

#include "../Functions.h"
#include "../TensorIterator.h"

namespace th {

Tensor as_strided(const Tensor& self, const IntList& size, const IntList& stride,
                  std::optional<int64_t> storage_offset) {
  TH_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  for (size_t d = 0; d < size.size(); ++d) {
    TH_CHECK(size[d] >= 0, "as_strided: Negative sizes are not allowed, got ", size[d]);
    TH_CHECK(stride[d] >= 0, "as_strided: Negative strides are not supported at the moment, got strides: ",
             shape_str(stride));
  }
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  // checked against the storage first: PyTorch's message for as_strided names the storage, not numel
  check_in_storage(size, stride, offset, self.element_size(), self.storage()->nbytes());
  return make_view(self, size, stride, offset);
}

namespace {

/// `size` with a single -1 resolved against `numel` (PyTorch's infer_size).
IntList infer_size(const IntList& size, int64_t numel) {
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
    TH_CHECK(known != 0 || numel != 0, "cannot reshape tensor of 0 elements into shape ", shape_str(size),
             " because the unspecified dimension size -1 can be any value and is ambiguous");
    TH_CHECK(known != 0 && numel % known == 0, "shape '", shape_str(size), "' is invalid for input of size ",
             numel);
    shape[infer] = numel / known;
  }
  TH_CHECK(prod(shape) == numel, "shape '", shape_str(size), "' is invalid for input of size ", numel);
  return shape;
}

/// Strides that view a tensor of (sizes, strides) as `shape` without copying, if any exist
/// (PyTorch's computeStride: runs of dims that are contiguous with each other may be regrouped).
std::optional<IntList> view_strides(const IntList& sizes, const IntList& strides, const IntList& shape) {
  if (sizes.empty()) return IntList(shape.size(), 1);
  const int64_t numel = prod(sizes);
  if (numel == 0) return sizes == shape ? strides : contiguous_strides(shape);
  IntList out(shape.size());
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base_stride = strides.back(), tensor_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= sizes[d];
    if (d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = strides[d - 1];
        tensor_numel = view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

}  // namespace

Tensor view(const Tensor& self, const IntList& size) {
  IntList shape = infer_size(size, self.numel());
  auto strides = view_strides(self.sizes(), self.strides(), shape);
  TH_CHECK(
      strides,
      "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
      "two contiguous subspaces). Use .reshape(...) instead.");
  return make_view(self, shape, *strides, self.storage_offset());
}

Tensor reshape(const Tensor& self, const IntList& shape) {
  IntList resolved = infer_size(shape, self.numel());
  if (view_strides(self.sizes(), self.strides(), resolved)) return view(self, resolved);
  return view(clone(self, MemoryFormat::Contiguous), resolved);
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  int64_t s = wrap_dim(start_dim, self.dim()), e = wrap_dim(end_dim, self.dim());  // checked for 0-dim too
  if (self.dim() == 0) return reshape(self, {1});
  TH_CHECK(s <= e, "flatten() has invalid args: start_dim cannot come after end_dim");
  IntList shape(self.sizes().begin(), self.sizes().begin() + s);
  int64_t n = 1;
  for (int64_t d = s; d <= e; ++d) n *= self.sizes()[d];
  shape.push_back(n);
  shape.insert(shape.end(), self.sizes().begin() + e + 1, self.sizes().end());
  return reshape(self, shape);
}

Tensor unflatten(const Tensor& self, int64_t dim, const IntList& sizes) {
  if (self.dim() == 0) {
    (void)wrap_dim(dim, 1);  // a dim outside [-1, 0] is the usual IndexError first (upstream's order)
    TH_CHECK(false, "unflatten got an unexpected error:\nDimension specified as ", dim,
             " but tensor has no dimensions");
  }
  int64_t d = wrap_dim(dim, self.dim());
  TH_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  IntList inner = infer_size(sizes, self.sizes()[d]);
  IntList shape(self.sizes().begin(), self.sizes().begin() + d);
  shape.insert(shape.end(), inner.begin(), inner.end());
  shape.insert(shape.end(), self.sizes().begin() + d + 1, self.sizes().end());
  return view(self, shape);
}

Tensor squeeze(const Tensor& self) {
  IntList sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.sizes()[d] != 1) {
      sizes.push_back(self.sizes()[d]);
      strides.push_back(self.strides()[d]);
    }
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor squeeze(const Tensor& self, int64_t dim) {
  int64_t d = wrap_dim(dim, self.dim());
  if (self.dim() == 0 || self.sizes()[d] != 1)
    return make_view(self, self.sizes(), self.strides(), self.storage_offset());
  IntList sizes = self.sizes(), strides = self.strides();
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return make_view(self, sizes, strides, self.storage_offset());
}

/// The dims in `dims` that have size 1 dropped (others kept, as PyTorch does); a view.
Tensor squeeze(const Tensor& self, const IntList& dims) {
  const int64_t n = self.dim();
  std::vector<bool> listed(size_t(n), false);
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, n);
    if (n == 0) continue;
    TH_CHECK(!listed[size_t(w)], "dim ", w, " appears multiple times in the list of dims");
    listed[size_t(w)] = true;
  }
  IntList sizes, strides;
  for (int64_t d = 0; d < n; ++d) {
    if (listed[size_t(d)] && self.sizes()[d] == 1) continue;
    sizes.push_back(self.sizes()[d]);
    strides.push_back(self.strides()[d]);
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor t(const Tensor& self) {
  TH_CHECK(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  return self.dim() < 2 ? make_view(self, self.sizes(), self.strides(), self.storage_offset())
                        : transpose(self, 0, 1);
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  TH_CHECK(self.dim() > 0, "split expects at least a 1-dimensional tensor");
  TH_CHECK(split_size >= 0, "split expects split_size be non-negative, but got split_size=", split_size);
  int64_t d = wrap_dim(dim, self.dim()), n = self.sizes()[d];
  TH_CHECK(split_size > 0 || n == 0,
           "split_size can only be 0 if dimension size is 0, but got dimension size of ", n);
  std::vector<Tensor> out;
  for (int64_t start = 0; start < n || (n == 0 && out.empty()); start += std::max<int64_t>(split_size, 1)) {
    out.push_back(narrow(self, d, start, std::min(split_size, n - start)));
    if (n == 0) break;
  }
  return out;
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  TH_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  TH_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  int64_t d = wrap_dim(dim, self.dim()), n = self.sizes()[d];
  // An empty dim gives `chunks` empty pieces, as upstream (split would give one: any number of
  // empty pieces sums to 0).
  if (n == 0) {
    std::vector<Tensor> out;
    for (int64_t i = 0; i < chunks; ++i) out.push_back(narrow(self, d, 0, 0));
    return out;
  }
  return split(self, (n + chunks - 1) / chunks, dim);
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  TH_CHECK_T(IndexError, self.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  int64_t d = wrap_dim(dim, self.dim());
  std::vector<Tensor> out;
  for (int64_t i = 0; i < self.sizes()[d]; ++i) out.push_back(select(self, d, i));
  return out;
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

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  TH_CHECK_T(IndexError, self.dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(dim, self.dim());
  int64_t n = self.sizes()[d];
  TH_CHECK_T(IndexError, index >= -n && index < n, "index ", index, " is out of bounds for dimension ", d,
             " with size ", n);
  if (index < 0) index += n;
  IntList sizes = self.sizes(), strides = self.strides();
  int64_t offset = self.storage_offset() + index * strides[d];
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return make_view(self, sizes, strides, offset);
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step) {
  TH_CHECK_T(IndexError, self.dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  TH_CHECK_T(ValueError, step > 0, "step must be greater than zero");
  int64_t d = wrap_dim(dim, self.dim());
  int64_t n = self.sizes()[d];
  // Python's clamping: negative counts from the end, out of range saturates
  auto clamp = [n](int64_t v) { return v < 0 ? std::max<int64_t>(v + n, 0) : std::min(v, n); };
  int64_t lo = clamp(start.value_or(0)), hi = std::max(clamp(end.value_or(n)), lo);
  IntList sizes = self.sizes(), strides = self.strides();
  int64_t offset = self.storage_offset() + lo * strides[d];
  sizes[d] = (hi - lo + step - 1) / step;
  strides[d] *= step;
  return make_view(self, sizes, strides, offset);
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  int64_t d = wrap_dim(dim, self.dim() + 1);
  IntList sizes = self.sizes(), strides = self.strides();
  int64_t stride = d < self.dim() ? sizes[d] * strides[d] : 1;
  sizes.insert(sizes.begin() + d, 1);
  strides.insert(strides.begin() + d, stride);
  return make_view(self, sizes, strides, self.storage_offset());
}

/// self's memory read as `dtype` (PyTorch's view.dtype): the same bytes; with a different element
/// size the last dim (which must be dense) is rescaled, and every other stride and the offset too.
Tensor view(const Tensor& self, ScalarType dtype) {
  TH_CHECK(
      !self.is_conj(),
      "torch.Tensor.view is not supported for conjugate view tensors when converting to a different dtype.");
  const int64_t from = int64_t(self.element_size()), to = int64_t(th::element_size(dtype));
  if (from == to) {
    Tensor v = make_view(self, self.sizes(), self.strides(), self.storage_offset());
    v.impl()->dtype = dtype;
    return v;
  }
  const auto why = [&] {
    return detail::str(" to view ", scalar_type_cpp_name(self.dtype()), " as ", scalar_type_cpp_name(dtype),
                       " (different element sizes)");
  };
  TH_CHECK(self.dim() > 0, "self.dim() cannot be 0", why());
  TH_CHECK(self.stride(-1) == 1, "self.stride(-1) must be 1", why(), ", but got ", self.stride(-1));
  IntList sizes = self.sizes(), strides = self.strides();
  int64_t offset = self.storage_offset();
  if (from > to) {  // each element becomes `ratio` smaller ones
    const int64_t ratio = from / to;
    sizes.back() *= ratio;
    for (size_t d = 0; d + 1 < strides.size(); ++d) strides[d] *= ratio;
    offset *= ratio;
  } else {  // every `ratio` elements become one
    const int64_t ratio = to / from;
    TH_CHECK(sizes.back() % ratio == 0, "self.size(-1) must be divisible by ", ratio, why(), ", but got ",
             sizes.back());
    TH_CHECK(offset % ratio == 0, "self.storage_offset() must be divisible by ", ratio, why(), ", but got ",
             offset);
    for (size_t d = 0; d + 1 < strides.size(); ++d)
      TH_CHECK(strides[d] % ratio == 0, "self.stride(", d, ") must be divisible by ", ratio, why(),
               ", but got ", strides[d]);
    sizes.back() /= ratio;
    for (size_t d = 0; d + 1 < strides.size(); ++d) strides[d] /= ratio;
    offset /= ratio;
  }
  return make_view(self, sizes, strides, offset, dtype);
}

/// as_strided in place: self takes the view's sizes, strides and offset (the in-place view ops
/// t_, transpose_, squeeze_, unsqueeze_ are this with the metadata of their view).
Tensor& as_strided_(Tensor& self, const IntList& size, const IntList& stride,
                    std::optional<int64_t> storage_offset) {
  Tensor v = as_strided(self, size, stride, storage_offset);  // its checks
  TensorImpl* impl = self.impl();
  impl->sizes = v.sizes();
  impl->strides = v.strides();
  impl->storage_offset = v.storage_offset();
  return self;
}

/// PyTorch's Tensor.resize_: the out= resize of TensorIterator (contiguous strides; a new storage
/// when the old one is too small), keeping the old bytes when it grows. Growing gives self a new
/// storage: views taken before no longer share it. (torch.Tensor.resize_ refuses tensors that
/// require grad before this runs.)
Tensor& resize_tensor_(Tensor& self, const IntList& size) {
  for (int64_t s : size)
    TH_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", shape_str(size));
  const Tensor old = make_view(self, {int64_t(self.storage()->nbytes() / self.element_size())}, {1}, 0);
  resize_(self, size);
  if (self.storage() != old.storage() && old.numel() > 0) {
    Tensor kept = make_view(self, old.sizes(), {1}, 0);
    copy_(kept, old);
  }
  return self;
}

}  // namespace th
