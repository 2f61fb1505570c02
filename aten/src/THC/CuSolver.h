#pragma once
// cuSOLVER's dense routines, from the nvidia-cusolver wheel (cmake/TorchCUDALibs.cmake), opened on their
// first use (LazyLibrary.h): the factorizations of LinearAlgebraKernels.cu. Looked up by their exported
// names like cuBLAS's (Cublas.h); only in a build that has it (THC_HAVE_CUSOLVER).
#ifdef THC_HAVE_CUSOLVER
#include <cusolverDn.h>

#include "LazyLibrary.h"

namespace thc {

/// The library, opened on the first call of available() or symbol().
LazyLibrary& cusolver();

/// Raises "cuSOLVER error: CUSOLVER_STATUS_... when calling `call`" for a failed call.
void cusolver_check(cusolverStatus_t status, const char* call);

/// The current thread's handle for the current device (created on its first use there), bound to the
/// current stream: its routines queue behind the work already on it, as every THC kernel's.
cusolverDnHandle_t cusolver_handle_on_stream();

}  // namespace thc
#endif
