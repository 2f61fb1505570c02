#pragma once
// A tensor is a view into a Storage: sizes, strides and an offset, all in elements.
// Views share the storage and differ only in this metadata.
#include <cstdint>
#include <memory>
#include <vector>

#include "Macros.h"
#include "MemoryFormat.h"
#include "ScalarType.h"
#include "Storage.h"

namespace th {

using IntList = std::vector<int64_t>;

/// The metadata and storage of one tensor.
struct TensorImpl {
  Storage storage;
  IntList sizes;
  IntList strides;
  int64_t storage_offset = 0;
  ScalarType dtype = ScalarType::Float;
  /// A Python number turned into a 0-dim tensor: a "weak" type in promotion (int_t * 2.5 is float).
  bool wrapped_number = false;
  /// Autograd: whether gradients flow to or through this tensor (set by the Python engine;
  /// the bindings read it to decide, cheaply, whether an op must be recorded).
  bool requires_grad = false;
  /// The conjugate bit (complex dtypes only): the values are the conjugates of the memory's, as in
  /// PyTorch's lazy `conj()`. Views keep it (make_view); ops resolve it at the binding (torch/csrc/Conj.h).
  bool conj = false;
  /// The tensor this one is a view of (always a non-view root), set by torch._C for view ops;
  /// autograd rebases the root's history when a view is modified in place.
  std::shared_ptr<TensorImpl> base;
  /// Autograd bookkeeping owned by the Python layer (grad_fn, grad, hooks); opaque to TH.
  std::shared_ptr<void> autograd_meta;
};

/// A refcounted handle to a TensorImpl; copying a Tensor copies the handle, not the data.
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return impl_ != nullptr; }
  TensorImpl* impl() const { return impl_.get(); }
  const IntList& sizes() const { return impl_->sizes; }
  const IntList& strides() const { return impl_->strides; }
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  int64_t storage_offset() const { return impl_->storage_offset; }
  int64_t dim() const { return static_cast<int64_t>(impl_->sizes.size()); }
  int64_t numel() const;
  ScalarType dtype() const { return impl_->dtype; }
  /// Whether this tensor carries the conjugate bit (TensorImpl::conj).
  bool is_conj() const { return impl_->conj; }
  size_t element_size() const { return th::element_size(impl_->dtype); }
  Device device() const { return impl_->storage->device(); }
  const Storage& storage() const { return impl_->storage; }
  /// Address of element [0, 0, ...] (storage data + offset).
  char* data_ptr() const;
  /// True when the strides are the row-major strides of the sizes (size-1 dims ignored).
  bool is_contiguous() const;
  /// Whether the strides are those `format` gives these sizes (size-1 dims ignored); false for a
  /// channels-last format and the wrong number of dims. Preserve asks for row-major, as in PyTorch.
  bool is_contiguous(MemoryFormat format) const;
  /// Whether both handles view the very same TensorImpl.
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }
  /// Marks an in-place modification (the counter lives in the storage, so views share it).
  void bump_version() const { impl_->storage->bump_version(); }
  /// How many in-place writes the memory under this tensor has seen.
  int64_t version() const { return impl_->storage->version(); }
  /// The shared handle (to keep the impl alive, e.g. as a view's base).
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }

 private:
  std::shared_ptr<TensorImpl> impl_;
};

/// `t` without its conjugate bit: a view of the same memory whose values are the memory's (t itself when
/// it has no bit). Kernels read and write physical tensors only (TensorIterator refuses a conjugate one).
Tensor physical(const Tensor& t);
/// `t`'s values in a tensor without the conjugate bit: t itself, or a new tensor holding the conjugates.
Tensor resolve_conj(const Tensor& t);

/// Row-major (C-contiguous) strides for `sizes`.
IntList contiguous_strides(const IntList& sizes);
/// The strides `format` (Contiguous, ChannelsLast for 4-D, ChannelsLast3d for 5-D) gives `sizes`;
/// PyTorch's error for a channels-last format and the wrong number of dims.
IntList format_strides(const IntList& sizes, MemoryFormat format);
/// Product of `sizes` (1 for a 0-dim tensor).
int64_t prod(const IntList& sizes);
/// Wraps a possibly negative `dim` into [0, ndim) or raises IndexError like PyTorch.
int64_t wrap_dim(int64_t dim, int64_t ndim);
/// Raises PyTorch's error unless a tensor of (sizes, strides, offset), in elements of `itemsize`
/// bytes, lies inside a storage of `nbytes`: the one validation every view constructor and resize
/// goes through (negative sizes or offset, overflowing size arithmetic, elements out of bounds;
/// negative strides are fine as long as every element they reach is inside).
void check_in_storage(const IntList& sizes, const IntList& strides, int64_t offset, size_t itemsize,
                      size_t nbytes);
/// A new view of `base`'s storage with the given metadata (checked by check_in_storage), of
/// `dtype` (default: base's) when the bytes are reinterpreted.
Tensor make_view(const Tensor& base, IntList sizes, IntList strides, int64_t offset,
                 ScalarType dtype = ScalarType::Undefined);
/// A 0-dim CPU tensor holding a Python number, marked as a wrapped number (Long, Double or Bool).
Tensor wrap_number(const class Scalar& value);
/// A Python number as a 0-dim CPU tensor of `dtype` (a wrapped number), converted by the checked
/// Scalar::to: the one way an op writes a number into a tensor of a given dtype (fill_, masked_fill,
/// clamp's bounds, scatter's value), so a number the dtype cannot hold raises PyTorch's overflow
/// error instead of wrapping (uint8 300) or becoming garbage (int64 inf).
Tensor scalar_tensor(const class Scalar& value, ScalarType dtype);
/// A new, uninitialized, contiguous tensor.
Tensor empty_tensor(const IntList& sizes, ScalarType dtype, Device device);
/// A new, uninitialized, contiguous CPU tensor in pinned (page-locked) memory, from the CUDA backend's
/// host allocator; raises without CUDA, as PyTorch does.
Tensor empty_pinned(const IntList& sizes, ScalarType dtype);
/// Whether `t` is a CPU tensor in pinned memory.
bool is_pinned(const Tensor& t);
/// `device` with its index made explicit: the current GPU for "cuda", none for the CPU.
Device with_index(Device device);
/// A new, uninitialized tensor of `sizes` laid out in `format`. Preserve (PyTorch's
/// preserve_format), when `like` has these sizes: `like`'s very strides if it is dense and
/// non-overlapping (x.T stays transposed), else dense strides in the order of its dims; row-major
/// otherwise.
Tensor empty_like_tensor(const Tensor& like, const IntList& sizes, ScalarType dtype, Device device,
                         MemoryFormat format);
/// Whether two tensors may share memory (same storage and overlapping byte ranges).
bool may_overlap(const Tensor& a, const Tensor& b);
/// "[2, 3]" as PyTorch prints shapes in messages.
std::string shape_str(const IntList& sizes);

}  // namespace th
