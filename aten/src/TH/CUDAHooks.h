#pragma once
// What TH and torch._C need from the CUDA backend, without linking it: THC installs
// its implementation when libTHC loads; without it every answer is "no CUDA".
#include <cstdint>
#include <string>

namespace th {

/// What torch.cuda.get_device_properties reports about one GPU.
struct CUDADeviceProperties {
  std::string name;
  int major = 0, minor = 0;  // compute capability
  int64_t total_memory = 0;  // bytes
  int multi_processor_count = 0;
  int64_t l2_cache_size = 0;  // bytes
};

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
  /// The GPU's name, capability and size (raises without CUDA).
  virtual CUDADeviceProperties device_properties(int device) const;
  /// The device that "cuda" without an index means (raises without CUDA).
  virtual int current_device() const;
};

const CUDAHooks& cuda_hooks();
void set_cuda_hooks(const CUDAHooks* hooks);

}  // namespace th
