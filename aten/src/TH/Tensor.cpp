#include "Tensor.h"

#include "CUDAHooks.h"
#include "Overlap.h"
#include "Scalar.h"

#include <algorithm>
#include <numeric>

#include "Macros.h"

namespace th {

int64_t Tensor::size(int64_t d) const {
  TH_CHECK_T(IndexError, dim() > 0, "Dimension specified as ", d, " but tensor has no dimensions");
  return impl_->sizes[wrap_dim(d, dim())];
}

int64_t Tensor::stride(int64_t d) const {
  TH_CHECK_T(IndexError, dim() > 0, "Dimension specified as ", d, " but tensor has no dimensions");
  return impl_->strides[wrap_dim(d, dim())];
}

int64_t Tensor::numel() const { return prod(impl_->sizes); }

char* Tensor::data_ptr() const {
  return static_cast<char*>(impl_->storage->data()) +
         impl_->storage_offset * static_cast<int64_t>(element_size());
}

bool Tensor::is_contiguous() const {
  int64_t expected = 1;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    if (impl_->sizes[d] == 1) continue;
    if (impl_->strides[d] != expected) return numel() == 0;
    expected *= impl_->sizes[d];
  }
  return true;
}

namespace {

/// The number of dims a channels-last format needs (-1: any).
int64_t channels_last_rank(MemoryFormat f) {
  return f == MemoryFormat::ChannelsLast ? 4 : f == MemoryFormat::ChannelsLast3d ? 5 : -1;
}

/// The dims of an `ndim`-dim tensor from innermost to outermost in `format`'s memory order.
IntList inner_to_outer(MemoryFormat format, int64_t ndim) {
  IntList order;
  const bool channels_last = channels_last_rank(format) > 0;
  if (channels_last) order.push_back(1);
  for (int64_t d = ndim - 1; d >= (channels_last ? 2 : 0); --d) order.push_back(d);
  if (channels_last) order.push_back(0);
  return order;
}

}  // namespace

bool Tensor::is_contiguous(MemoryFormat format) const {
  if (format == MemoryFormat::Contiguous || format == MemoryFormat::Preserve) return is_contiguous();
  if (dim() != channels_last_rank(format)) return false;
  int64_t expected = 1;
  for (int64_t d : inner_to_outer(format, dim())) {
    if (impl_->sizes[d] == 1) continue;
    if (impl_->strides[d] != expected) return false;
    expected *= impl_->sizes[d];
  }
  return true;
}

IntList format_strides(const IntList& sizes, MemoryFormat format) {
  const int64_t rank = channels_last_rank(format);
  TH_CHECK(rank < 0 || int64_t(sizes.size()) == rank, "required rank ", rank, " tensor to use ",
           memory_format_name(format), " format");
  IntList strides(sizes.size());
  int64_t s = 1;
  for (int64_t d : inner_to_outer(format, int64_t(sizes.size()))) {
    strides[size_t(d)] = s;
    s *= std::max<int64_t>(sizes[size_t(d)], 1);
  }
  return strides;
}

IntList contiguous_strides(const IntList& sizes) {
  IntList strides(sizes.size());
  int64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = s;
    s *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

int64_t prod(const IntList& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  int64_t lo = ndim > 0 ? -ndim : -1, hi = ndim > 0 ? ndim - 1 : 0;
  TH_CHECK_T(IndexError, dim >= lo && dim <= hi, "Dimension out of range (expected to be in range of [", lo,
             ", ", hi, "], but got ", dim, ")");
  return dim < 0 ? dim + std::max<int64_t>(ndim, 1) : dim;
}

namespace {
/// Whether prod(sizes) * scale overflows int64 (shapes PyTorch refuses: never a wrapped size); an
/// empty shape never does ([2**62, 0] is fine, as in PyTorch).
bool size_overflows(const IntList& sizes, int64_t scale) {
  if (std::find(sizes.begin(), sizes.end(), 0) != sizes.end()) return false;
  int64_t n = scale;
  for (int64_t s : sizes)
    if (__builtin_mul_overflow(n, s, &n)) return true;
  return false;
}
}  // namespace

void check_in_storage(const IntList& sizes, const IntList& strides, int64_t offset, size_t itemsize,
                      size_t nbytes) {
  TH_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  TH_CHECK(offset >= 0, "Tensor: invalid storage offset ", offset);
  for (int64_t s : sizes)
    TH_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", shape_str(sizes));
  TH_CHECK(sizes.size() <= TH_MAX_DIMS, "tensors have at most ", TH_MAX_DIMS, " dimensions");
  TH_CHECK(!size_overflows(sizes, int64_t(itemsize)),
           "Storage size calculation overflowed with sizes=", shape_str(sizes));
  if (prod(sizes) == 0) return;  // touches no element: any offset fits (as in PyTorch)
  int64_t lo = offset, hi = offset, span = 0, needed = 0;  // lowest and highest element reached
  bool overflow = false;
  for (size_t d = 0; d < sizes.size(); ++d) {
    overflow |= __builtin_mul_overflow(sizes[d] - 1, strides[d], &span);
    overflow |= __builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi);
  }
  overflow |=
      __builtin_add_overflow(hi, 1, &needed) || __builtin_mul_overflow(needed, int64_t(itemsize), &needed);
  TH_CHECK(!overflow, "Storage size calculation overflowed with sizes=", shape_str(sizes),
           " and strides=", shape_str(strides));
  TH_CHECK(lo >= 0 && needed <= int64_t(nbytes), "setStorage: sizes ", shape_str(sizes), ", strides ",
           shape_str(strides), ", storage offset ", offset, ", and itemsize ", itemsize,
           " requiring a storage size of ", needed, " are out of bounds for storage of size ", nbytes);
}

Tensor make_view(const Tensor& base, IntList sizes, IntList strides, int64_t offset, ScalarType dtype) {
  if (dtype == ScalarType::Undefined) dtype = base.dtype();
  TH_CHECK(!size_overflows(sizes, 1),
           "numel: integer multiplication overflow");  // PyTorch's message for views
  check_in_storage(sizes, strides, offset, th::element_size(dtype), base.storage()->nbytes());
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = base.storage();
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->storage_offset = offset;
  impl->dtype = dtype;
  impl->conj = base.is_conj() && dtype == base.dtype();  // a view of a conjugate view is one too
  return Tensor(std::move(impl));
}

Tensor physical(const Tensor& t) {
  if (!t.is_conj()) return t;
  Tensor v = make_view(t, t.sizes(), t.strides(), t.storage_offset());
  v.impl()->conj = false;
  return v;
}

Tensor wrap_number(const Scalar& value) {
  Tensor t = empty_tensor({}, value.type(), Device());
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(value.type(), "wrap_number", [&] {  // uint64: an int past int64
    *reinterpret_cast<scalar_t*>(t.data_ptr()) = value.to<scalar_t>();
  });
  t.impl()->wrapped_number = true;
  return t;
}

Tensor scalar_tensor(const Scalar& value, ScalarType dtype) {
  Tensor t = empty_tensor({}, dtype, Device());
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(
      dtype, "scalar_tensor", [&] { *reinterpret_cast<scalar_t*>(t.data_ptr()) = value.to<scalar_t>(); });
  t.impl()->wrapped_number = true;
  return t;
}

namespace {
/// PyTorch's checks on the sizes of a new tensor.
void check_new_sizes(const IntList& sizes, ScalarType dtype) {
  for (int64_t s : sizes) {
    TH_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", shape_str(sizes));
  }
  TH_CHECK(sizes.size() <= TH_MAX_DIMS, "tensors have at most ", TH_MAX_DIMS, " dimensions");
  TH_CHECK(!size_overflows(sizes, int64_t(element_size(dtype))),
           "Storage size calculation overflowed with sizes=", shape_str(sizes));
}

Tensor tensor_on(Storage storage, const IntList& sizes, ScalarType dtype) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->sizes = sizes;
  impl->strides = contiguous_strides(sizes);
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}
}  // namespace

Tensor empty_tensor(const IntList& sizes, ScalarType dtype, Device device) {
  check_new_sizes(sizes, dtype);
  device = with_index(device);
  return tensor_on(std::make_shared<StorageImpl>(prod(sizes) * element_size(dtype), device), sizes, dtype);
}

Device with_index(Device device) {
  if (device.is_cpu()) device.index = -1;
  if (device.is_cuda() && device.index < 0) {
    const CUDAHooks& hooks = cuda_hooks();
    device.index = hooks.device_count() > 0 ? hooks.current_device() : 0;
  }
  return device;
}

Tensor empty_pinned(const IntList& sizes, ScalarType dtype) {
  Allocator* pinned = cuda_hooks().host_allocator();
  TH_CHECK(pinned, "Cannot access accelerator device when none is available.");
  check_new_sizes(sizes, dtype);
  return tensor_on(std::make_shared<StorageImpl>(prod(sizes) * element_size(dtype), Device(), *pinned), sizes,
                   dtype);
}

bool is_pinned(const Tensor& t) { return t.device().is_cpu() && cuda_hooks().is_pinned(t.data_ptr()); }

bool non_overlapping_and_dense(const Tensor& t) {
  std::vector<size_t> perm;
  for (size_t d = 0; d < size_t(t.dim()); ++d)
    if (t.sizes()[d] >= 2) perm.push_back(d);
  std::sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return t.strides()[a] < t.strides()[b]; });
  int64_t expected = 1;
  for (size_t d : perm) {
    if (t.strides()[d] != expected) return false;
    expected *= t.sizes()[d];
  }
  return true;
}

namespace {

/// Dense strides for `t`'s sizes that order the dims as `t`'s strides do; dims with stride 0
/// keep their place (PyTorch's infer_dense_strides, the order TensorIterator picks).
IntList infer_dense_strides(const Tensor& t) {
  const size_t nd = size_t(t.dim());
  std::vector<size_t> perm(nd);  // innermost first
  for (size_t i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  auto should_swap = [&](size_t d0, size_t d1) {
    const int64_t s0 = t.strides()[d0], s1 = t.strides()[d1];
    if (s0 == 0 || s1 == 0) return 0;
    if (s0 != s1) return s0 < s1 ? -1 : 1;
    return t.sizes()[d0] > t.sizes()[d1] ? 1 : 0;
  };
  for (size_t i = 1; i < nd; ++i) {  // stable insertion sort
    size_t d1 = i;
    for (size_t j = 1; j <= i; ++j) {
      const size_t d0 = i - j;
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  IntList strides(nd);
  int64_t s = 1;
  for (size_t d : perm) {
    strides[d] = s;
    s *= std::max<int64_t>(t.sizes()[d], 1);
  }
  return strides;
}

}  // namespace

Tensor empty_like_tensor(const Tensor& like, const IntList& sizes, ScalarType dtype, Device device,
                         MemoryFormat format) {
  Tensor dense = empty_tensor(sizes, dtype, device);
  if (format == MemoryFormat::Contiguous) return dense;
  if (format != MemoryFormat::Preserve) return make_view(dense, sizes, format_strides(sizes, format), 0);
  if (like.sizes() != sizes || like.is_contiguous() || like.dim() < 2) return dense;
  // PyTorch's preserve_format: a dense source's very strides, else dense ones in its dim order
  return make_view(dense, sizes, non_overlapping_and_dense(like) ? like.strides() : infer_dense_strides(like),
                   0);
}

namespace {
// [first, last) byte range touched by `t` inside its storage.
std::pair<int64_t, int64_t> byte_range(const Tensor& t) {
  int64_t lo = t.storage_offset(), hi = t.storage_offset();
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] == 0) return {0, 0};
    int64_t span = (t.sizes()[d] - 1) * t.strides()[d];
    (span < 0 ? lo : hi) += span;
  }
  int64_t es = static_cast<int64_t>(t.element_size());
  return {lo * es, (hi + 1) * es};
}
}  // namespace

bool may_overlap(const Tensor& a, const Tensor& b) {
  if (a.storage() != b.storage() || a.numel() == 0 || b.numel() == 0) return false;
  auto [alo, ahi] = byte_range(a);
  auto [blo, bhi] = byte_range(b);
  return alo < bhi && blo < ahi;
}

std::string shape_str(const IntList& sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

}  // namespace th
