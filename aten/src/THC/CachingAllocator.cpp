// The CUDA caching allocator (CachingAllocator.h). Each block belongs to the stream current when it was
// allocated; freed, it goes back to that stream's pool, where the stream's own order makes reuse safe.
// A block also used on other streams (record_stream) waits, on free, for an event recorded on each of
// them before it rejoins the pool, as PyTorch's allocator does.
#include "CachingAllocator.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <TH/OutOfMemoryError.h>

#include "DeviceGuard.h"
#include "HostAllocator.h"
#include "Marker.h"
#include "Stream.h"

namespace thc {
namespace {

constexpr size_t kRound = 512;  // every block is a multiple of this many bytes

struct Block {
  size_t size = 0;
  int device = 0;
  cudaStream_t stream = nullptr;   // the stream it was allocated on (its pool)
  std::vector<cudaStream_t> uses;  // other streams that used it (record_stream)
};

/// A freed block waiting for the events recorded on the other streams that used it.
struct Pending {
  void* ptr;
  Block block;
  std::vector<cudaEvent_t> events;
};

/// Work queued on `stream` (of device `device`) from now on waits for the work queued so far on
/// `other` (of device `other_device`): an event recorded on one, waited for by the other.
void order_after(int device, cudaStream_t stream, int other_device, cudaStream_t other) {
  cudaEvent_t e = nullptr;
  {
    DeviceGuard guard(th::Device(th::DeviceType::CUDA, other_device));
    e = record_marker(other);
    TH_CHECK(e, "CUDA error: could not record an event to order a copy between cuda:", other_device,
             " and cuda:", device);
  }
  DeviceGuard guard(th::Device(th::DeviceType::CUDA, device));
  const cudaError_t r = cudaStreamWaitEvent(stream, e, 0);
  cudaEventDestroy(e);  // released once the wait has passed
  THC_CHECK(r);
}

/// Bytes as PyTorch's messages print them ("2.00 GiB", "512.00 KiB").
std::string format_bytes(int64_t n) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(n);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u ? "%.2f %s" : "%.0f %s", v, units[u]);
  return buf;
}

class CachingAllocator final : public th::Allocator {
 public:
  th::DataPtr allocate(size_t nbytes, th::Device device) override {
    if (nbytes == 0) return th::DataPtr(nullptr, &noop);
    if (th::cuda_hooks().device_count() == 0) throw th::Error("No CUDA GPUs are available");
    DeviceGuard guard(device);
    int dev = 0;
    THC_CHECK(cudaGetDevice(&dev));
    const cudaStream_t stream = current_stream(dev);
    size_t size = (nbytes + kRound - 1) / kRound * kRound;
    std::lock_guard<std::mutex> lock(mutex_);
    process_events(false);
    th::CUDAMemoryStats& st = stats_[dev];
    void* p = nullptr;
    auto& pool = free_[{dev, stream, size}];
    if (!pool.empty()) {
      p = pool.back();
      pool.pop_back();
    } else {
      if (cudaMalloc(&p, size) != cudaSuccess) {
        (void)cudaGetLastError();
        ++st.alloc_retries;
        release_cached();  // give the cache back and try once more
        if (cudaMalloc(&p, size) != cudaSuccess) {
          (void)cudaGetLastError();
          ++st.ooms;
          throw th::OutOfMemoryError(oom_message(dev, size));
        }
      }
      st.reserved += int64_t(size);
      st.reserved_peak = std::max(st.reserved_peak, st.reserved);
    }
    live_[p] = Block{size, dev, stream, {}};
    st.allocated += int64_t(size);
    st.allocated_peak = std::max(st.allocated_peak, st.allocated);
    ++st.allocations;
    return th::DataPtr(p, &release);
  }

  /// Host<->device or device<->device, on the current stream of the CUDA side (the destination's
  /// when both are GPUs); waits for it unless `non_blocking`.
  void copy(void* dst, th::Device dst_device, const void* src, th::Device src_device, size_t nbytes,
            bool non_blocking) override {
    if (!nbytes) return;
    const bool peer = dst_device.is_cuda() && src_device.is_cuda() && dst_device.index != src_device.index;
    const th::Device cuda = dst_device.is_cuda() ? dst_device : src_device;
    const cudaStream_t src_stream = peer ? current_stream(src_device.index) : nullptr;
    // between GPUs: the destination's stream waits for the source's work so far (no host wait)
    if (peer) order_after(cuda.index, current_stream(cuda.index), src_device.index, src_stream);
    DeviceGuard guard(cuda);
    int dev = 0;
    THC_CHECK(cudaGetDevice(&dev));
    const cudaStream_t stream = current_stream(dev);
    THC_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDefault, stream));
    // and the source's stream waits for the copy before it may reuse the source's memory
    if (peer) order_after(src_device.index, src_stream, dev, stream);
    if (!non_blocking) {
      THC_CHECK(cudaStreamSynchronize(stream));
    } else if (!peer) {  // keep a pinned host block until the copy is done
      record_host_use(src_device.is_cuda() ? dst : src, stream);
    }
  }

  void free_block(void* p) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(p);
    if (it == live_.end()) return;
    Block block = std::move(it->second);
    live_.erase(it);
    th::CUDAMemoryStats& st = stats_[block.device];
    st.allocated -= static_cast<int64_t>(block.size);
    ++st.frees;
    if (block.uses.empty()) {
      free_[{block.device, block.stream, block.size}].push_back(p);
      return;
    }
    Pending pending{p, block, {}};
    DeviceGuard guard(th::Device(th::DeviceType::CUDA, block.device));
    for (cudaStream_t s : block.uses) {
      cudaEvent_t e = record_marker(s);
      if (!e) {  // cannot order it after that stream (a sticky device error): do not reuse the block
        for (cudaEvent_t done : pending.events) cudaEventDestroy(done);
        return;
      }
      pending.events.push_back(e);
    }
    pending_.push_back(std::move(pending));
  }

  void record_stream(void* base, cudaStream_t stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(base);
    if (it == live_.end()) return;  // empty, or memory from elsewhere (DLPack): nothing to hold back
    Block& b = it->second;
    if (stream == b.stream) return;
    TH_CHECK(stream_device(stream) == b.device,
             "record_stream: the stream is not on the tensor's device cuda:", b.device);
    if (std::find(b.uses.begin(), b.uses.end(), stream) == b.uses.end()) b.uses.push_back(stream);
  }

  void empty_cache() {
    std::lock_guard<std::mutex> lock(mutex_);
    release_cached();
  }

  th::CUDAMemoryStats stats(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_[device];
  }

  void reset_peaks(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    th::CUDAMemoryStats& st = stats_[device];
    st.allocated_peak = st.allocated;
    st.reserved_peak = st.reserved;
  }

 private:
  using PoolKey = std::tuple<int, cudaStream_t, size_t>;  // device, stream, size
  static void noop(void*) {}
  static void release(void* p);

  /// Moves pending blocks whose events have all completed (or all of them, waiting, when `wait`)
  /// back to their pools.
  void process_events(bool wait) {
    auto done = [&](Pending& p) {
      for (cudaEvent_t e : p.events) {
        const cudaError_t r = wait ? cudaEventSynchronize(e) : cudaEventQuery(e);
        if (r == cudaErrorNotReady) return false;
        if (r != cudaSuccess) (void)cudaGetLastError();
      }
      for (cudaEvent_t e : p.events) cudaEventDestroy(e);
      free_[{p.block.device, p.block.stream, p.block.size}].push_back(p.ptr);
      return true;
    };
    pending_.erase(std::remove_if(pending_.begin(), pending_.end(), done), pending_.end());
  }

  void release_cached() {
    process_events(true);
    for (auto& [k, blocks] : free_) {
      const int dev = std::get<0>(k);
      for (void* p : blocks) {
        cudaFree(p);
        stats_[dev].reserved -= int64_t(std::get<2>(k));
      }
      blocks.clear();
    }
  }

  /// PyTorch's message: what was asked for, the GPU's capacity and free memory, what this process holds.
  std::string oom_message(int dev, size_t size) {
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) (void)cudaGetLastError();
    const th::CUDAMemoryStats& st = stats_[dev];
    return th::detail::str("CUDA out of memory. Tried to allocate ", format_bytes(int64_t(size)), ". GPU ",
                           dev, " has a total capacity of ", format_bytes(int64_t(total)), " of which ",
                           format_bytes(int64_t(free_bytes)), " is free. Of the allocated memory ",
                           format_bytes(st.allocated), " is allocated by PyTorch, and ",
                           format_bytes(st.reserved - st.allocated),
                           " is reserved by PyTorch but unallocated.");
  }

  std::mutex mutex_;
  std::map<PoolKey, std::vector<void*>> free_;
  std::unordered_map<void*, Block> live_;
  std::vector<Pending> pending_;
  std::unordered_map<int, th::CUDAMemoryStats> stats_;
};

// Never destroyed: tensors may outlive static destruction at interpreter exit.
CachingAllocator& allocator() {
  static auto* a = new CachingAllocator();
  return *a;
}

void CachingAllocator::release(void* p) { allocator().free_block(p); }

struct Register {
  Register() { th::set_allocator(th::DeviceType::CUDA, &allocator()); }
} register_allocator;

}  // namespace

th::Allocator& cuda_allocator() { return allocator(); }
void record_stream(void* base, cudaStream_t stream) { allocator().record_stream(base, stream); }
void empty_cache() { allocator().empty_cache(); }
th::CUDAMemoryStats memory_stats(int device) { return allocator().stats(device); }
void reset_peak_memory_stats(int device) { allocator().reset_peaks(device); }

}  // namespace thc
