// copy_ (with broadcasting, dtype conversion and device transfer), to, contiguous, clone. to and
// clone keep a dense source's layout (PyTorch's preserve_format).
#include "Copy.h"

#include <atomic>

#include "../Functions.h"
#include "../Warning.h"

namespace th {

TH_DEFINE_STUB(copy_fn, copy_stub);

Tensor conj_physical(const Tensor& self);  // ops/ComplexParts.cpp

Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) {
  if (self.is_same(src)) return self;
  if (self.is_conj() || src.is_conj()) {  // conjugate bits: copy the memory, conjugated where the bits differ
    Tensor target = physical(self);
    Tensor source = physical(src);
    if (self.is_conj() != src.is_conj() && is_complex(src.dtype())) source = conj_physical(source);
    copy_(target, source, non_blocking);
    return self;
  }
  if (self.numel() == 0) {  // nothing to write, but src must still broadcast to self (upstream's check)
    (void)broadcast_shapes(self.sizes(), src.sizes());
    return self;
  }
  static std::atomic<bool> warned{false};  // once per process, as upstream's TORCH_WARN_ONCE
  if (is_complex(src.dtype()) && !is_complex(self.dtype()) && self.dtype() != ScalarType::Bool &&
      !warned.exchange(true))  // to bool nothing is discarded: nonzero is nonzero
    TH_WARN("Casting complex values to real discards the imaginary part");
  Tensor source = src;
  if (src.device() != self.device()) {
    // Move the data as-is between devices (contiguous on both sides), then convert and lay it out
    // on self's device; straight into self when it has src's sizes and dtype and is contiguous.
    Tensor dense = contiguous(src);
    const bool direct = self.is_contiguous() && self.dtype() == src.dtype() && self.sizes() == src.sizes();
    Tensor moved = direct ? self : empty_tensor(dense.sizes(), dense.dtype(), self.device());
    Device cuda = self.device().is_cuda() ? self.device() : src.device();
    // non_blocking only where nothing on the host reads the result before the stream is done:
    // a copy into self, or into a GPU temporary that the conversion below reads on the same stream
    const bool async = non_blocking && (direct || self.device().is_cuda());
    get_allocator(cuda.type).copy(moved.data_ptr(), self.device(), dense.data_ptr(), src.device(),
                                  dense.numel() * dense.element_size(), async);
    if (direct) return self;
    source = moved;
  }
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(self)
                            .add_input(source)
                            .promote_inputs(false)
                            .resize_outputs(false)
                            .common_dtype(self.dtype())
                            .build();
  copy_stub[iter.device().type](iter);
  return self;
}

namespace {
/// `self` copied into the new tensor `out`, which starts at version 0 like any new tensor.
Tensor copy_new(Tensor out, const Tensor& self, bool non_blocking = false) {
  copy_(out, self, non_blocking);
  out.storage()->reset_version();
  return out;
}
}  // namespace

Tensor to_dtype(const Tensor& self, ScalarType dtype) {
  if (self.dtype() == dtype) return self;
  return copy_new(empty_tensor(self.sizes(), dtype, self.device()), self);
}

namespace {
/// Whether `self` is already laid out as `format` asks (upstream's suggest_memory_format() == format:
/// a tensor that is both row-major and channels-last, like [N, 1, 1, 1], counts as row-major).
bool laid_out_as(const Tensor& self, MemoryFormat format) {
  if (format == MemoryFormat::Preserve) return true;
  if (!self.is_contiguous(format)) return false;
  return format == MemoryFormat::Contiguous || !self.is_contiguous();
}
}  // namespace

Tensor to(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return to(self, self.device(), dtype, non_blocking, copy, memory_format);
}

Tensor to(const Tensor& self, std::optional<Device> device_arg, std::optional<ScalarType> dtype,
          bool non_blocking, bool copy, std::optional<MemoryFormat> memory_format) {
  const Device device = device_arg ? with_index(*device_arg) : self.device();
  const ScalarType dt = dtype.value_or(self.dtype());
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Preserve);
  if (!copy && device == self.device() && dt == self.dtype() && laid_out_as(self, format)) return self;
  // GPU to CPU without blocking: into pinned memory, where the copy really is asynchronous (upstream's)
  if (non_blocking && self.device().is_cuda() && device.is_cpu() && dt == self.dtype() &&
      self.is_contiguous() && laid_out_as(self, format))
    return copy_new(empty_pinned(self.sizes(), dt), self, true);
  return copy_new(empty_like_tensor(self, self.sizes(), dt, device, format), self, non_blocking);
}

Tensor to(const Tensor& self, const Tensor& other, bool non_blocking, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return to(self, other.device(), other.dtype(), non_blocking, copy, memory_format);
}

Tensor pin_memory(const Tensor& self) {
  TH_CHECK(self.device().is_cpu(), "cannot pin '", self.device().str(),
           "' memory: only dense CPU tensors can be pinned");
  if (is_pinned(self)) return self;
  Tensor out = empty_pinned(self.sizes(), self.dtype());
  return copy_new(out, self);
}

Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  if (self.is_contiguous(memory_format)) return self;
  TH_CHECK(memory_format != MemoryFormat::Preserve,
           "preserve memory format is unsupported by the contiguous operator");
  return clone(self, memory_format);
}

Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Preserve);
  return copy_new(empty_like_tensor(self, self.sizes(), self.dtype(), self.device(), format), self);
}

}  // namespace th
