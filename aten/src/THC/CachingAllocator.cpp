// The CUDA caching allocator: freed blocks are kept per (device, size) and reused, so
// steady-state training does no cudaMalloc/cudaFree. Registered into TH at load time.
#include <algorithm>
#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <TH/Allocator.h>
#include <TH/CUDAHooks.h>
#include <TH/OutOfMemoryError.h>

#include "DeviceGuard.h"
#include "LazyLibrary.h"
#include "SpectralPlanCache.h"

namespace thc {
namespace {

constexpr size_t kRound = 512;  // every block is a multiple of this many bytes

struct Block {
  size_t size;
  int device;
};

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
    size_t size = (nbytes + kRound - 1) / kRound * kRound;
    std::lock_guard<std::mutex> lock(mutex_);
    th::CUDAMemoryStats& st = stats_[dev];
    void* p = nullptr;
    auto& pool = free_[key(dev, size)];
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
    live_[p] = {size, dev};
    st.allocated += int64_t(size);
    st.allocated_peak = std::max(st.allocated_peak, st.allocated);
    ++st.allocations;
    return th::DataPtr(p, &release);
  }

  void copy(void* dst, th::Device, const void* src, th::Device, size_t nbytes) override {
    if (nbytes) THC_CHECK(cudaMemcpy(dst, src, nbytes, cudaMemcpyDefault));
  }

  void free_block(void* p) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(p);
    if (it == live_.end()) return;
    free_[key(it->second.device, it->second.size)].push_back(p);
    th::CUDAMemoryStats& st = stats_[it->second.device];
    st.allocated -= static_cast<int64_t>(it->second.size);
    ++st.frees;
    live_.erase(it);
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
  static uint64_t key(int device, size_t size) { return (uint64_t(device) << 48) | size; }
  static void noop(void*) {}
  static void release(void* p);

  void release_cached() {
    for (auto& [k, blocks] : free_) {
      const int dev = int(k >> 48);
      for (void* p : blocks) {
        cudaFree(p);
        stats_[dev].reserved -= int64_t(k & ((uint64_t(1) << 48) - 1));
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
  std::unordered_map<uint64_t, std::vector<void*>> free_;
  std::unordered_map<void*, Block> live_;
  std::unordered_map<int, th::CUDAMemoryStats> stats_;
};

// Never destroyed: tensors may outlive static destruction at interpreter exit.
CachingAllocator& allocator() {
  static auto* a = new CachingAllocator();
  return *a;
}

void CachingAllocator::release(void* p) { allocator().free_block(p); }

struct Hooks final : th::CUDAHooks {
  bool compiled() const override { return true; }
  int device_count() const override {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return n;
  }
  void synchronize(int device) const override {
    DeviceGuard guard(th::Device(th::DeviceType::CUDA, device));
    THC_CHECK(cudaDeviceSynchronize());
  }
  void empty_cache() const override { allocator().empty_cache(); }
  th::CUDAMemoryStats memory_stats(int device) const override { return allocator().stats(device); }
  void reset_peak_memory_stats(int device) const override { allocator().reset_peaks(device); }
  th::CUDADeviceProperties device_properties(int device) const override {
    cudaDeviceProp p{};
    THC_CHECK(cudaGetDeviceProperties(&p, device));
    return {
        p.name, p.major, p.minor, int64_t(p.totalGlobalMem), p.multiProcessorCount, int64_t(p.l2CacheSize)};
  }
  int current_device() const override {
    int d = 0;
    THC_CHECK(cudaGetDevice(&d));
    return d;
  }
  std::pair<int64_t, int64_t> fft_plan_cache(int device) const override {
    const PlanCacheInfo info = plan_cache_info(device);
    return {info.size, info.max_size};
  }
  void set_fft_plan_cache_max_size(int device, int64_t max_size) const override {
    set_plan_cache_max_size(device, max_size);
  }
  void clear_fft_plan_cache(int device) const override { clear_plan_cache(device); }
  bool library_available(const std::string& name) const override {
    TH_CHECK(name == "cublas" || name == "cufft", "unknown CUDA library '", name, "' (cublas, cufft)");
    return name == "cublas" ? cublas_available() : cufft_available();
  }
};

struct Register {
  Register() {
    static Hooks hooks;
    th::set_allocator(th::DeviceType::CUDA, &allocator());
    th::set_cuda_hooks(&hooks);
  }
} register_backend;

}  // namespace
}  // namespace thc
