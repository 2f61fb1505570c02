#pragma once
// cuBLAS, from the nvidia-cublas wheel (cmake/TorchCUDALibs.cmake), opened on its first use
// (LazyLibrary.h): the gemms of LinearKernels.cu and the triangular solves of LinearAlgebraKernels.cu.
// Its functions are looked up by their exported names (`cublas().function<decltype(cublasX)>("cublasX")`):
// THC never links it. Only in a build that has it (THC_HAVE_CUBLAS).
#ifdef THC_HAVE_CUBLAS
#include <cublas_v2.h>

#include "LazyLibrary.h"

namespace thc {

/// The library, opened on the first call of available() or symbol().
LazyLibrary& cublas();

/// Raises PyTorch's "CUDA error: CUBLAS_STATUS_..." for a failed `call`.
void cublas_check(cublasStatus_t status, const char* call);

/// The current thread's handle for the current device (each handle is bound to the device current at its
/// creation, and not to be shared between threads), bound to the current stream and a workspace of
/// upstream's size (32 MiB from Hopper on, else 8 MiB) from the caching allocator, one per stream.
cublasHandle_t cublas_handle_on_stream();

}  // namespace thc
#endif
