#include "Device.h"

#include <cctype>

#include "Exception.h"

namespace th {

const char* device_type_name(DeviceType t) { return t == DeviceType::CPU ? "cpu" : "cuda"; }

Device::Device(const std::string& spec) {
  auto colon = spec.find(':');
  std::string kind = spec.substr(0, colon);
  if (kind == "cpu") {
    type = DeviceType::CPU;
  } else if (kind == "cuda") {
    type = DeviceType::CUDA;
  } else {
    throw Error(detail::str("Expected one of cpu, cuda device type at start of device string: ", spec));
  }
  if (colon == std::string::npos) return;
  std::string idx = spec.substr(colon + 1);
  bool digits = !idx.empty() && idx.size() < 9;
  for (char c : idx) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  TH_CHECK(digits, "Invalid device string: '", spec, "'");
  index = std::stoi(idx);
  TH_CHECK(type != DeviceType::CPU || index == 0, "CPU device index must be 0, got ", index);
}

std::string Device::str() const {
  std::string s = device_type_name(type);
  if (index >= 0) s += ":" + std::to_string(index);
  return s;
}

}  // namespace th
