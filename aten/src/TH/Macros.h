#pragma once
// Portability macros shared by host (g++) and device (nvcc) code.

#if defined(__CUDACC__)
#define TH_HOST_DEVICE __host__ __device__
#else
#define TH_HOST_DEVICE
#endif

// Tensors have at most this many dimensions (the CUDA loops index with fixed arrays).
#define TH_MAX_DIMS 16
