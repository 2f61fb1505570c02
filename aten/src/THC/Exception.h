#pragma once
// CUDA runtime errors become th::Error with the runtime's message.
#include <cuda_runtime_api.h>

#include <TH/Exception.h>

#define THC_CHECK(expr)                                                                                 \
  do {                                                                                                  \
    cudaError_t _err = (expr);                                                                          \
    if (_err != cudaSuccess) {                                                                          \
      (void)cudaGetLastError(); /* clear the sticky-free error state */                                 \
      throw ::th::Error(::th::detail::str("CUDA error: ", cudaGetErrorString(_err), " (", #expr, ")")); \
    }                                                                                                   \
  } while (0)
