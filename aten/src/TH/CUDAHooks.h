#pragma once
// What TH and torch._C need from the CUDA backend, without linking it: THC installs
// its implementation when libTHC loads; without it every answer is "no CUDA".
#include <cstdint>

namespace th {

struct CUDAHooks {
  virtual ~CUDAHooks() = default;
  /// Whether the CUDA backend is built and loaded.
  virtual bool compiled() const { return false; }
  /// Number of visible GPUs (0 when there is no GPU or no driver; never raises).
  virtual int device_count() const { return 0; }
  /// Waits for all work on `device` to finish.
  virtual void synchronize(int device) const;
  /// Returns cached, unused blocks to the driver.
  virtual void empty_cache() const {}
  /// Bytes held by live tensors on `device`.
  virtual int64_t memory_allocated(int /*device*/) const { return 0; }
};

const CUDAHooks& cuda_hooks();
void set_cuda_hooks(const CUDAHooks* hooks);

}  // namespace th
