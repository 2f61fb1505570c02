// THC's answers to TH's CUDAHooks (devices, memory, streams, events, pinned memory), installed when
// libTHC loads; torch._C reaches CUDA only through them.
#include <TH/CUDAHooks.h>

#include "CachingAllocator.h"
#include "DeviceGuard.h"
#include "HostAllocator.h"
#include "LazyLibrary.h"
#include "SpectralPlanCache.h"
#include "Stream.h"

namespace thc {
namespace {

cudaStream_t as_stream(int64_t s) { return reinterpret_cast<cudaStream_t>(static_cast<intptr_t>(s)); }
int64_t from_stream(cudaStream_t s) { return static_cast<int64_t>(reinterpret_cast<intptr_t>(s)); }
cudaEvent_t as_event(int64_t e) { return reinterpret_cast<cudaEvent_t>(static_cast<intptr_t>(e)); }

th::Device cuda(int device) { return th::Device(th::DeviceType::CUDA, device); }

/// A stream or event query's answer: done (true), not yet (false), or an error raised.
bool finished(cudaError_t r) {
  if (r == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  THC_CHECK(r);
  return true;
}

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
    DeviceGuard guard(cuda(device));
    THC_CHECK(cudaDeviceSynchronize());
  }
  void empty_cache() const override {
    thc::empty_cache();
    empty_host_cache();
  }
  th::CUDAMemoryStats memory_stats(int device) const override { return thc::memory_stats(device); }
  void reset_peak_memory_stats(int device) const override { thc::reset_peak_memory_stats(device); }
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
  void set_device(int device) const override { THC_CHECK(cudaSetDevice(device)); }
  std::pair<int64_t, int64_t> fft_plan_cache(int device) const override {
    const PlanCacheInfo info = plan_cache_info(device);
    return {info.size, info.max_size};
  }
  void set_fft_plan_cache_max_size(int device, int64_t max_size) const override {
    set_plan_cache_max_size(device, max_size);
  }
  void clear_fft_plan_cache(int device) const override { clear_plan_cache(device); }
  bool library_available(const std::string& name) const override {
    if (name == "cublas") return cublas_available();
    if (name == "cufft") return cufft_available();
    TH_CHECK(name == "cusolver", "unknown CUDA library '", name, "' (cublas, cufft, cusolver)");
    return cusolver_available();
  }

  int64_t current_stream(int device) const override { return from_stream(thc::current_stream(device)); }
  void set_current_stream(int device, int64_t stream) const override {
    set_current_stream_checked(device, as_stream(stream));
  }
  int64_t new_stream(int device, int priority) const override {
    return from_stream(pool_stream(device, priority));
  }
  bool stream_query(int device, int64_t stream) const override {
    DeviceGuard guard(cuda(device));
    return finished(cudaStreamQuery(as_stream(stream)));
  }
  void stream_synchronize(int device, int64_t stream) const override {
    DeviceGuard guard(cuda(device));
    THC_CHECK(cudaStreamSynchronize(as_stream(stream)));
  }
  int stream_priority(int device, int64_t stream) const override {
    DeviceGuard guard(cuda(device));
    int priority = 0;
    THC_CHECK(cudaStreamGetPriority(as_stream(stream), &priority));
    return priority;
  }
  std::pair<int, int> stream_priority_range(int device) const override {
    DeviceGuard guard(cuda(device));
    int least = 0, greatest = 0;
    THC_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    return {least, greatest};
  }
  void record_stream(void* base, int64_t stream) const override {
    thc::record_stream(base, as_stream(stream));
  }

  int64_t event_create(int device, bool enable_timing, bool blocking, bool interprocess) const override {
    DeviceGuard guard(cuda(device));
    unsigned flags = enable_timing ? cudaEventDefault : cudaEventDisableTiming;
    if (blocking) flags |= cudaEventBlockingSync;
    if (interprocess) flags |= cudaEventInterprocess | cudaEventDisableTiming;
    cudaEvent_t e = nullptr;
    THC_CHECK(cudaEventCreateWithFlags(&e, flags));
    return static_cast<int64_t>(reinterpret_cast<intptr_t>(e));
  }
  void event_destroy(int device, int64_t event) const override {
    DeviceGuard guard(cuda(device));
    if (cudaEventDestroy(as_event(event)) != cudaSuccess)
      (void)cudaGetLastError();  // from __del__: never raise
  }
  void event_record(int device, int64_t event, int64_t stream) const override {
    DeviceGuard guard(cuda(device));
    THC_CHECK(cudaEventRecord(as_event(event), as_stream(stream)));
  }
  bool event_query(int device, int64_t event) const override {
    DeviceGuard guard(cuda(device));
    return finished(cudaEventQuery(as_event(event)));
  }
  void event_synchronize(int device, int64_t event) const override {
    DeviceGuard guard(cuda(device));
    THC_CHECK(cudaEventSynchronize(as_event(event)));
  }
  double event_elapsed_time(int device, int64_t start, int64_t end) const override {
    DeviceGuard guard(cuda(device));
    float ms = 0;
    THC_CHECK(cudaEventElapsedTime(&ms, as_event(start), as_event(end)));
    return ms;
  }
  void stream_wait_event(int device, int64_t stream, int64_t event) const override {
    DeviceGuard guard(cuda(device));
    THC_CHECK(cudaStreamWaitEvent(as_stream(stream), as_event(event), 0));
  }

  th::Allocator* host_allocator() const override { return &thc::host_allocator(); }
  bool is_pinned(const void* ptr) const override { return thc::is_pinned(ptr); }

 private:
  static void set_current_stream_checked(int device, cudaStream_t stream) {
    TH_CHECK(stream == nullptr || stream_device(stream) == device,
             "set_stream: the stream is not on cuda:", device);
    thc::set_current_stream(device, stream);
  }
};

struct Register {
  Register() {
    static Hooks hooks;
    th::set_cuda_hooks(&hooks);
  }
} register_hooks;

}  // namespace
}  // namespace thc
