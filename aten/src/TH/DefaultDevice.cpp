#include "DefaultDevice.h"

#include <mutex>

namespace th {
namespace {
std::mutex mutex;
std::optional<Device> setting;
}  // namespace

std::optional<Device> default_device_setting() {
  std::lock_guard<std::mutex> lock(mutex);
  return setting;
}

Device default_device() { return default_device_setting().value_or(Device()); }

void set_default_device(std::optional<Device> device) {
  std::lock_guard<std::mutex> lock(mutex);
  setting = device;
}

}  // namespace th
