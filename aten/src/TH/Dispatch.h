#pragma once
// The dispatch table: one DispatchStub per kernel, one slot per device type.
// TH fills the CPU slots; THC/THCUNN fill the CUDA slots when their library loads.
#include "Device.h"
#include "Exception.h"

namespace th {

/// One row of the dispatch table: the kernel of one op for each device type.
template <typename Fn>
struct DispatchStub {
  const char* name;
  Fn* table[kNumDeviceTypes] = {};

  /// The kernel for `t`, or NotImplementedError naming the op and the backend.
  Fn* operator[](DeviceType t) const {
    Fn* fn = table[static_cast<int>(t)];
    if (!fn) {
      throw NotImplementedError(detail::str("Could not run '", name, "' with arguments from the '",
                                            t == DeviceType::CPU ? "CPU" : "CUDA", "' backend."));
    }
    return fn;
  }
};

/// Puts `fn` into `stub`'s slot for `t` (TH_REGISTER_KERNEL calls it at library load time).
template <typename Fn>
bool register_kernel(DispatchStub<Fn>& stub, DeviceType t, Fn* fn) {
  stub.table[static_cast<int>(t)] = fn;
  return true;
}

}  // namespace th

#define TH_DECLARE_STUB(fn_type, stub) extern ::th::DispatchStub<fn_type> stub
#define TH_DEFINE_STUB(fn_type, stub) \
  ::th::DispatchStub<fn_type> stub { #stub }
#define TH_CONCAT_(a, b) a##b
#define TH_CONCAT(a, b) TH_CONCAT_(a, b)
#define TH_REGISTER_KERNEL(stub, device, fn)                            \
  [[maybe_unused]] static const bool TH_CONCAT(registered_, __LINE__) = \
      ::th::register_kernel(stub, ::th::DeviceType::device, &(fn))
