#pragma once
// Reading one element from memory, for the CPU and CUDA kernels alike (PyTorch's c10::load).
#include "Macros.h"

namespace th {

/// The element at `p`. A bool is read as its byte != 0: a tensor viewed as bool (uint8 bytes
/// reinterpreted, `view(torch.bool)`) may hold bytes other than 0 and 1, and reading one as a C++
/// bool is undefined (255 compared unequal to true, converted to 255). Every kernel that reads a
/// bool goes through here, so a bool is always true or false once read.
template <typename T>
TH_HOST_DEVICE inline T load(const T* p) {
  return *p;
}
template <>
TH_HOST_DEVICE inline bool load<bool>(const bool* p) {
  return *reinterpret_cast<const unsigned char*>(p) != 0;
}

}  // namespace th
