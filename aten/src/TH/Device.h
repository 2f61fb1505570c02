#pragma once
// Where a tensor's memory lives.
#include <cstdint>
#include <string>

namespace th {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr int kNumDeviceTypes = 2;

/// A device type plus an index (-1: the current device of that type).
struct Device {
  DeviceType type = DeviceType::CPU;
  int index = -1;

  Device() = default;
  Device(DeviceType t, int i = -1) : type(t), index(i) {}
  /// Parses "cpu", "cuda", "cuda:1" (raises ValueError otherwise).
  explicit Device(const std::string& spec);

  bool is_cpu() const { return type == DeviceType::CPU; }
  bool is_cuda() const { return type == DeviceType::CUDA; }
  bool operator==(const Device& o) const { return type == o.type && index == o.index; }
  bool operator!=(const Device& o) const { return !(*this == o); }
  /// "cpu", "cuda:0", as torch.device prints.
  std::string str() const;
};

const char* device_type_name(DeviceType t);

}  // namespace th
