// The stream pool and the per-thread current streams (Stream.h).
#include "Stream.h"
#include "Marker.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>

#include <TH/Exception.h>

#include "DeviceGuard.h"

namespace thc {
namespace {

constexpr int kMaxDevices = 64;
constexpr int kPoolSize = 32;      // streams per priority per device, as upstream's pool
constexpr int kMaxPriorities = 8;  // levels 0, -1, ... (an H100 has 6: 0 to -5)

/// One priority level's streams on one device, created on first use and never destroyed.
struct Level {
  std::once_flag once;
  std::array<cudaStream_t, kPoolSize> streams{};
  std::atomic<uint32_t> next{0};
};

Level& level(int device, int index) {
  static auto* levels = new std::array<std::array<Level, kMaxPriorities>, kMaxDevices>();
  return (*levels)[device][index];
}

int checked_device(int device) {
  TH_CHECK(device >= 0 && device < kMaxDevices, "CUDA device index out of range: ", device);
  return device;
}

thread_local std::array<cudaStream_t, kMaxDevices> current{};  // nullptr: the default stream

}  // namespace

cudaStream_t current_stream() {
  int device = 0;
  THC_CHECK(cudaGetDevice(&device));
  return current[checked_device(device)];
}

cudaStream_t current_stream(int device) { return current[checked_device(device)]; }

void set_current_stream(int device, cudaStream_t stream) { current[checked_device(device)] = stream; }

cudaStream_t pool_stream(int device, int priority) {
  checked_device(device);
  DeviceGuard guard(th::Device(th::DeviceType::CUDA, device));
  int least = 0, greatest = 0;
  THC_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  // out of the device's range: the nearest priority it has (upstream's rule)
  const int p = std::max(greatest, std::min(least, priority));
  Level& l = level(device, std::min(least - p, kMaxPriorities - 1));
  std::call_once(l.once, [&] {
    for (cudaStream_t& s : l.streams) THC_CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, p));
  });
  return l.streams[l.next++ % kPoolSize];
}

int stream_device(cudaStream_t stream) {
  int device = 0;
  if (stream == nullptr) {
    THC_CHECK(cudaGetDevice(&device));
    return device;
  }
  THC_CHECK(cudaStreamGetDevice(stream, &device));
  return device;
}

cudaEvent_t record_marker(cudaStream_t stream) {
  cudaEvent_t e = nullptr;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) == cudaSuccess &&
      cudaEventRecord(e, stream) == cudaSuccess)
    return e;
  (void)cudaGetLastError();
  if (e) cudaEventDestroy(e);
  return nullptr;
}

}  // namespace thc
