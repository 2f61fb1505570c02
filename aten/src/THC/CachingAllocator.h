#pragma once
// The CUDA caching allocator (CachingAllocator.cpp): freed blocks are kept per (device, stream, size)
// and reused by later allocations on the same stream, so that steady-state training does no
// cudaMalloc/cudaFree and a block is never handed to a stream that could still be using it elsewhere.
#include <cuda_runtime_api.h>

#include <TH/Allocator.h>
#include <TH/CUDAHooks.h>

namespace thc {

/// The allocator registered for th::DeviceType::CUDA.
th::Allocator& cuda_allocator();
/// Marks the block starting at `base` as used by `stream` too (Tensor.record_stream): when it is freed,
/// it is reused only after the work queued on `stream` by then has finished.
void record_stream(void* base, cudaStream_t stream);
/// Returns cached blocks to the driver (after the streams that used them are done with them).
void empty_cache();
/// The allocator's figures for `device`, and resetting their peaks.
th::CUDAMemoryStats memory_stats(int device);
void reset_peak_memory_stats(int device);

}  // namespace thc
