#pragma once
// Memory comes from an Allocator registered per device type; THC registers the CUDA one.
#include <cstddef>
#include <memory>

#include "Device.h"

namespace th {

/// Owning pointer to raw memory; the deleter returns it to the allocator it came from.
using DataPtr = std::unique_ptr<void, void (*)(void*)>;

/// Hands out device memory.
struct Allocator {
  virtual ~Allocator() = default;
  /// `nbytes` bytes on `device` (nbytes may be 0).
  virtual DataPtr allocate(size_t nbytes, Device device) = 0;
  /// Copies `nbytes` between two pointers of this device (or host<->device for CUDA); with
  /// `non_blocking`, a CUDA copy is only queued on the current stream (the caller synchronizes).
  virtual void copy(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes,
                    bool non_blocking = false) = 0;
};

/// The allocator for `t`; raises a clear error when that backend is not built or loaded.
Allocator& get_allocator(DeviceType t);
/// Installs the allocator for `t` (THC calls this when libTHC loads).
void set_allocator(DeviceType t, Allocator* allocator);
/// Whether an allocator for `t` is registered (i.e. the backend was built and loaded).
bool has_allocator(DeviceType t);

}  // namespace th
