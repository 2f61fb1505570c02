// The stream pool and the per-thread current streams (Stream.h).
#include "Stream.h"

#include <array>
#include <atomic>
#include <mutex>

#include <TH/Exception.h>

#include "DeviceGuard.h"

namespace thc {
namespace {

constexpr int kMaxDevices = 64;
constexpr int kPoolSize = 32;  // streams per priority per device, as upstream's pool

struct DevicePool {
  std::once_flag once;
  std::array<cudaStream_t, kPoolSize> low{}, high{};
  std::atomic<uint32_t> next_low{0}, next_high{0};
};

DevicePool& pool(int device) {
  static auto* pools = new std::array<DevicePool, kMaxDevices>();  // never destroyed: streams outlive exit
  return (*pools)[device];
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
  DevicePool& p = pool(checked_device(device));
  std::call_once(p.once, [&] {
    DeviceGuard guard(th::Device(th::DeviceType::CUDA, device));
    int least = 0, greatest = 0;
    THC_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    for (int i = 0; i < kPoolSize; ++i) {
      THC_CHECK(cudaStreamCreateWithPriority(&p.low[i], cudaStreamNonBlocking, least));
      THC_CHECK(cudaStreamCreateWithPriority(&p.high[i], cudaStreamNonBlocking, greatest));
    }
  });
  if (priority < 0) return p.high[p.next_high++ % kPoolSize];
  return p.low[p.next_low++ % kPoolSize];
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

}  // namespace thc
