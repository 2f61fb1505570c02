#pragma once
// A refcounted block of memory; tensors are views (sizes, strides, offset) into one.
#include <memory>

#include "Allocator.h"

namespace th {

/// Memory shared by every tensor that views it.
class StorageImpl {
 public:
  /// Allocates `nbytes` on `device`.
  StorageImpl(size_t nbytes, Device device);
  /// Allocates `nbytes` on `device` from `allocator` (pinned host memory: Tensor.pin_memory).
  StorageImpl(size_t nbytes, Device device, Allocator& allocator);
  /// Wraps memory owned elsewhere (e.g. a NumPy array); `owner` keeps it alive.
  StorageImpl(void* data, size_t nbytes, Device device, std::shared_ptr<void> owner);

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  /// The version counter shared by every tensor viewing this memory (autograd checks it).
  int64_t version() const { return version_; }
  void bump_version() { ++version_; }
  /// Factories fill a new tensor through an ordinary op: it still starts at version 0.
  void reset_version() { version_ = 0; }

 private:
  DataPtr owned_;
  std::shared_ptr<void> external_;
  void* data_;
  size_t nbytes_;
  Device device_;
  int64_t version_ = 0;
};

using Storage = std::shared_ptr<StorageImpl>;

}  // namespace th
