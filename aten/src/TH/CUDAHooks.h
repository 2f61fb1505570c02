#pragma once
// What TH and torch._C need from the CUDA backend, without linking it: THC installs
// its implementation when libTHC loads; without it every answer is "no CUDA".
#include <cstdint>
#include <string>
#include <utility>

#include "Allocator.h"

namespace th {

/// What torch.cuda.get_device_properties reports about one GPU.
struct CUDADeviceProperties {
  std::string name;
  int major = 0, minor = 0;  // compute capability
  int64_t total_memory = 0;  // bytes
  int multi_processor_count = 0;
  int64_t l2_cache_size = 0;  // bytes
};

/// The caching allocator's figures for one device (torch.cuda.memory_stats): bytes in live blocks
/// (allocated), bytes taken from the driver and not given back (reserved: live + cached), their peaks
/// since the last reset, and counts of allocations, frees, retries after freeing the cache, and OOMs.
struct CUDAMemoryStats {
  int64_t allocated = 0, allocated_peak = 0, reserved = 0, reserved_peak = 0;
  int64_t allocations = 0, frees = 0, alloc_retries = 0, ooms = 0;
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
  /// The allocator's figures for `device` (all zero without CUDA).
  virtual CUDAMemoryStats memory_stats(int /*device*/) const { return {}; }
  /// Sets the peaks of `device` to the current figures.
  virtual void reset_peak_memory_stats(int /*device*/) const {}
  /// The GPU's name, capability and size (raises without CUDA).
  virtual CUDADeviceProperties device_properties(int device) const;
  /// The device that "cuda" without an index means (raises without CUDA).
  virtual int current_device() const;
  /// torch.backends.cuda.cufft_plan_cache: {plans held, most kept} on `device` ({0, 0} in a build
  /// without cuFFT); setting the most kept drops the least recently used; clearing destroys them all.
  virtual std::pair<int64_t, int64_t> fft_plan_cache(int device) const;
  virtual void set_fft_plan_cache_max_size(int device, int64_t max_size) const;
  virtual void clear_fft_plan_cache(int device) const;
  /// Whether the vendor library `name` ("cublas", "cufft") is in this build and loads (no GPU needed).
  virtual bool library_available(const std::string& /*name*/) const { return false; }
  /// Makes `device` this thread's current GPU (torch.cuda.set_device).
  virtual void set_device(int device) const;

  // Streams (torch.cuda.Stream): a stream is its cudaStream_t as an integer, 0 being the default stream.
  /// This thread's current stream on `device`, and making `stream` (of `device`) current there.
  virtual int64_t current_stream(int device) const;
  virtual void set_current_stream(int device, int64_t stream) const;
  /// A stream of `priority` from `device`'s pool (lower runs first, clamped to the device's range).
  virtual int64_t new_stream(int device, int priority) const;
  /// Whether all work queued on `stream` has finished; waiting until it has.
  virtual bool stream_query(int device, int64_t stream) const;
  virtual void stream_synchronize(int device, int64_t stream) const;
  /// The stream's priority (lower runs first), and the device's {least, greatest} priorities.
  virtual int stream_priority(int device, int64_t stream) const;
  virtual std::pair<int, int> stream_priority_range(int device) const;
  /// Tensor.record_stream: the block at `base` is also used on `stream`.
  virtual void record_stream(void* base, int64_t stream) const;

  // Events (torch.cuda.Event): an event is its cudaEvent_t as an integer.
  virtual int64_t event_create(int device, bool enable_timing, bool blocking, bool interprocess) const;
  virtual void event_destroy(int device, int64_t event) const;
  virtual void event_record(int device, int64_t event, int64_t stream) const;
  virtual bool event_query(int device, int64_t event) const;
  virtual void event_synchronize(int device, int64_t event) const;
  /// Milliseconds from `start` to `end`, both recorded and timing-enabled.
  virtual double event_elapsed_time(int device, int64_t start, int64_t end) const;
  /// Work queued on `stream` after this waits until `event` has completed (no host wait).
  virtual void stream_wait_event(int device, int64_t stream, int64_t event) const;

  // Pinned host memory (Tensor.pin_memory): its allocator (null without CUDA) and whether a pointer is in it.
  virtual Allocator* host_allocator() const { return nullptr; }
  virtual bool is_pinned(const void* /*ptr*/) const { return false; }
};

const CUDAHooks& cuda_hooks();
void set_cuda_hooks(const CUDAHooks* hooks);

}  // namespace th
