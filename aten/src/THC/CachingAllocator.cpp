// The CUDA caching allocator: freed blocks are kept per (device, size) and reused, so
// steady-state training does no cudaMalloc/cudaFree. Registered into TH at load time.
#include <mutex>
#include <unordered_map>
#include <vector>

#include <TH/Allocator.h>
#include <TH/CUDAHooks.h>

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
    void* p = nullptr;
    auto& pool = free_[key(dev, size)];
    if (!pool.empty()) {
      p = pool.back();
      pool.pop_back();
    } else if (cudaMalloc(&p, size) != cudaSuccess) {
      (void)cudaGetLastError();
      release_cached();  // give the cache back and try once more
      if (cudaMalloc(&p, size) != cudaSuccess) {
        (void)cudaGetLastError();
        throw th::Error(th::detail::str("CUDA out of memory. Tried to allocate ", nbytes, " bytes."));
      }
    }
    live_[p] = {size, dev};
    allocated_[dev] += static_cast<int64_t>(size);
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
    allocated_[it->second.device] -= static_cast<int64_t>(it->second.size);
    live_.erase(it);
  }

  void empty_cache() {
    std::lock_guard<std::mutex> lock(mutex_);
    release_cached();
  }

  int64_t memory_allocated(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    return allocated_[device];
  }

 private:
  static uint64_t key(int device, size_t size) { return (uint64_t(device) << 48) | size; }
  static void noop(void*) {}
  static void release(void* p);

  void release_cached() {
    for (auto& [k, blocks] : free_) {
      for (void* p : blocks) cudaFree(p);
      blocks.clear();
    }
  }

  std::mutex mutex_;
  std::unordered_map<uint64_t, std::vector<void*>> free_;
  std::unordered_map<void*, Block> live_;
  std::unordered_map<int, int64_t> allocated_;
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
  int64_t memory_allocated(int device) const override { return allocator().memory_allocated(device); }
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
