#pragma once
// RAII: makes `device` current for the scope and restores the previous one.
#include <TH/Device.h>

#include "Exception.h"

namespace thc {

class DeviceGuard {
 public:
  explicit DeviceGuard(th::Device device) {
    THC_CHECK(cudaGetDevice(&previous_));
    int want = device.index < 0 ? previous_ : device.index;
    if (want != previous_) THC_CHECK(cudaSetDevice(want));
  }
  ~DeviceGuard() { cudaSetDevice(previous_); }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace thc
