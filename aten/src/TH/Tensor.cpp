#include "Tensor.h"

#include "Scalar.h"

#include <algorithm>

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

Tensor make_view(const Tensor& base, IntList sizes, IntList strides, int64_t offset) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = base.storage();
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->storage_offset = offset;
  impl->dtype = base.dtype();
  return Tensor(std::move(impl));
}

Tensor wrap_number(const Scalar& value) {
  Tensor t = empty_tensor({}, value.type(), Device());
  TH_DISPATCH_ALL_TYPES(value.type(), "wrap_number",
                        [&] { *reinterpret_cast<scalar_t*>(t.data_ptr()) = value.to<scalar_t>(); });
  t.impl()->wrapped_number = true;
  return t;
}

Tensor empty_tensor(const IntList& sizes, ScalarType dtype, Device device) {
  for (int64_t s : sizes) {
    TH_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", shape_str(sizes));
  }
  TH_CHECK(sizes.size() <= TH_MAX_DIMS, "tensors have at most ", TH_MAX_DIMS, " dimensions");
  if (device.is_cuda() && device.index < 0) device.index = 0;
  if (device.is_cpu()) device.index = -1;
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::make_shared<StorageImpl>(prod(sizes) * element_size(dtype), device);
  impl->sizes = sizes;
  impl->strides = contiguous_strides(sizes);
  impl->dtype = dtype;
  return Tensor(std::move(impl));
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
