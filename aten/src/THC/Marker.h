#pragma once
// A marker after the work queued on a stream so far: the caching allocators wait on one before they reuse
// a block that another stream used (CachingAllocator.cpp, HostAllocator.cpp). Defined in Stream.cpp.
#include <cuda_runtime_api.h>

namespace thc {

/// A timing-free event recorded on `stream` (on the current device), or nullptr where the runtime refuses
/// one (a sticky device error; the error is cleared).
cudaEvent_t record_marker(cudaStream_t stream);

}  // namespace thc
