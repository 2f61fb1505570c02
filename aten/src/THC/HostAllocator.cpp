// The caching pinned host allocator (HostAllocator.h).
#include "HostAllocator.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <TH/CUDAHooks.h>
#include <TH/OutOfMemoryError.h>

#include "Exception.h"
#include "Marker.h"

namespace thc {
namespace {

struct Block {
  size_t size = 0;
  bool live = false;
  std::vector<cudaStream_t> streams;  // that non_blocking copies used it on (while live)
  std::vector<cudaEvent_t> events;    // recorded on them when it was freed
};

size_t round_up(size_t n) {
  size_t size = 512;
  while (size < n) size <<= 1;
  return size;
}

class HostAllocator final : public th::Allocator {
 public:
  th::DataPtr allocate(size_t nbytes, th::Device) override {
    if (nbytes == 0) return th::DataPtr(nullptr, &noop);
    if (th::cuda_hooks().device_count() == 0) throw th::Error("No CUDA GPUs are available");
    const size_t size = round_up(nbytes);
    std::lock_guard<std::mutex> lock(mutex_);
    process_events();
    void* p = nullptr;
    auto& pool = free_[size];
    if (!pool.empty()) {
      p = pool.back();
      pool.pop_back();
    } else {
      if (cudaHostAlloc(&p, size, cudaHostAllocDefault) != cudaSuccess) {
        (void)cudaGetLastError();
        release_cached();
        if (cudaHostAlloc(&p, size, cudaHostAllocDefault) != cudaSuccess) {
          (void)cudaGetLastError();
          throw th::OutOfMemoryError(th::detail::str("CUDA out of memory. Tried to allocate ", size,
                                                     " bytes of pinned host memory."));
        }
      }
      blocks_[reinterpret_cast<uintptr_t>(p)] = Block{size, false, {}};
    }
    blocks_[reinterpret_cast<uintptr_t>(p)].live = true;
    return th::DataPtr(p, &release);
  }

  void copy(void* dst, th::Device, const void* src, th::Device, size_t nbytes, bool) override {
    if (nbytes) std::copy_n(static_cast<const char*>(src), nbytes, static_cast<char*>(dst));
  }

  bool contains(const void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    return find(ptr) != nullptr;
  }

  void record(const void* ptr, cudaStream_t stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    Block* b = find(ptr);
    if (b && std::find(b->streams.begin(), b->streams.end(), stream) == b->streams.end())
      b->streams.push_back(stream);
  }

  void free_block(void* p) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = blocks_.find(reinterpret_cast<uintptr_t>(p));
    if (it == blocks_.end()) return;
    Block& b = it->second;
    b.live = false;
    // one event per stream that used it: reused once the copies queued there so far are done
    for (cudaStream_t s : b.streams) {
      if (cudaEvent_t e = record_marker(s)) {
        b.events.push_back(e);
      } else if (cudaStreamSynchronize(s) != cudaSuccess) {  // cannot mark it: wait for that stream instead
        (void)cudaGetLastError();
      }
    }
    b.streams.clear();
    if (b.events.empty())
      free_[b.size].push_back(p);
    else
      pending_.push_back(p);
  }

  void empty_cache() {
    std::lock_guard<std::mutex> lock(mutex_);
    release_cached();
  }

 private:
  static void noop(void*) {}
  static void release(void* p);

  /// The live block holding `ptr`, or null.
  Block* find(const void* ptr) {
    const auto addr = reinterpret_cast<uintptr_t>(ptr);
    auto it = blocks_.upper_bound(addr);
    if (it == blocks_.begin()) return nullptr;
    --it;
    if (!it->second.live || addr >= it->first + it->second.size) return nullptr;
    return &it->second;
  }

  /// Freed blocks whose copies have all finished rejoin the cache.
  void process_events() {
    auto done = [&](void* p) {
      Block& b = blocks_[reinterpret_cast<uintptr_t>(p)];
      for (cudaEvent_t e : b.events) {
        const cudaError_t r = cudaEventQuery(e);
        if (r == cudaErrorNotReady) return false;
        if (r != cudaSuccess) (void)cudaGetLastError();
      }
      for (cudaEvent_t e : b.events) cudaEventDestroy(e);
      b.events.clear();
      free_[b.size].push_back(p);
      return true;
    };
    pending_.erase(std::remove_if(pending_.begin(), pending_.end(), done), pending_.end());
  }

  void release_cached() {
    for (void* p : pending_) {
      for (cudaEvent_t e : blocks_[reinterpret_cast<uintptr_t>(p)].events) cudaEventSynchronize(e);
    }
    process_events();
    for (auto& [size, ptrs] : free_) {
      for (void* p : ptrs) {
        cudaFreeHost(p);
        blocks_.erase(reinterpret_cast<uintptr_t>(p));
      }
      ptrs.clear();
    }
  }

  std::mutex mutex_;
  std::map<uintptr_t, Block> blocks_;  // every block, by address (live or cached)
  std::unordered_map<size_t, std::vector<void*>> free_;
  std::vector<void*> pending_;
};

HostAllocator& allocator() {
  static auto* a = new HostAllocator();  // never destroyed, as the device allocator
  return *a;
}

void HostAllocator::release(void* p) { allocator().free_block(p); }

}  // namespace

th::Allocator& host_allocator() { return allocator(); }
bool is_pinned(const void* ptr) { return ptr && allocator().contains(ptr); }
void record_host_use(const void* ptr, cudaStream_t stream) { allocator().record(ptr, stream); }
void empty_host_cache() { allocator().empty_cache(); }

}  // namespace thc
