#pragma once
// Pinned (page-locked) host memory, for copies that run at full bus speed and can overlap with
// kernels (Tensor.pin_memory(), non_blocking=True). Blocks come from cudaHostAlloc, rounded up to a
// power of two and cached for reuse, as PyTorch's CachingHostAllocator does; a block that a
// non_blocking copy read or wrote rejoins the cache only once that copy's stream has passed it.
#include <cuda_runtime_api.h>

#include <TH/Allocator.h>

namespace thc {

/// The pinned host allocator (its memory is CPU memory: Device cpu).
th::Allocator& host_allocator();
/// Whether `ptr` points into a block of pinned memory from host_allocator().
bool is_pinned(const void* ptr);
/// Notes that work queued on `stream` uses the pinned block holding `ptr` (nothing if it is not pinned).
void record_host_use(const void* ptr, cudaStream_t stream);
/// Returns cached pinned blocks to the driver.
void empty_host_cache();

}  // namespace thc
