#pragma once
// torch.set_default_device: where the factories (empty, zeros, arange, rand, ...) put a tensor made
// without a device. Unset, that is the CPU; the factories of torch/_refs (tensor, as_tensor) ask too.
#include <optional>

#include "Device.h"

namespace th {

/// The device set by torch.set_default_device, if any.
std::optional<Device> default_device_setting();
/// The device a factory uses when given none: the setting, else the CPU.
Device default_device();
/// Sets (or, with nullopt, clears) the default device.
void set_default_device(std::optional<Device> device);

}  // namespace th
