#pragma once
// The handle of a CUDA vendor library (cuBLAS, cuSOLVER) for the calling thread and the current device: a
// handle is bound to the device current at its creation and is not to be shared between threads, so each
// (thread, device) makes its own on first use and keeps it for the thread's life (the driver frees it at
// exit).
#include <cuda_runtime_api.h>

#include <unordered_map>

#include "Exception.h"

namespace thc {

/// `create()`'s handle for this thread on the current device, made once there.
template <typename Handle, typename Create>
Handle thread_device_handle(const Create& create) {
  int device = 0;
  THC_CHECK(cudaGetDevice(&device));
  thread_local std::unordered_map<int, Handle> handles;
  auto it = handles.find(device);
  if (it == handles.end()) it = handles.emplace(device, create()).first;
  return it->second;
}

}  // namespace thc
