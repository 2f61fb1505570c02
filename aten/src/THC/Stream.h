#pragma once
// CUDA streams as PyTorch has them: each thread has a current stream per device (the legacy default
// stream until torch.cuda.set_stream / torch.cuda.stream() says otherwise), and every THC/THCUNN
// launch, copy, CUB call, cuBLAS and cuFFT call goes to the current stream of the current device.
// New streams come from a per-device pool (32 per priority level, handed out round robin, never
// destroyed), as torch.cuda.Stream() gets them upstream.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace thc {

/// The current thread's current stream on the current device.
cudaStream_t current_stream();
/// The current thread's current stream on `device`.
cudaStream_t current_stream(int device);
/// Makes `stream` (created on `device`, or the default stream: nullptr) current on `device` for this thread.
void set_current_stream(int device, cudaStream_t stream);
/// A stream of `priority` from `device`'s pool (lower runs first; clamped to the device's range, 0 the
/// lowest).
cudaStream_t pool_stream(int device, int priority);
/// The device a stream was created on (the current device for the default stream).
int stream_device(cudaStream_t stream);

}  // namespace thc
