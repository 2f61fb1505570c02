#pragma once
// One reduction across a block, shared by the reduction family (Reduce.cuh) and the kernels that reduce a
// row per block (THCUNN's softmax).

namespace thc {

/// Tree-reduces one accumulator per thread (blockDim.x a power of two, `shared` holding blockDim.x values)
/// and returns the result to every thread. It may be called again right away: it waits for every thread to
/// have read the previous result before writing `shared`.
template <typename A, typename Combine>
__device__ A block_reduce(A a, A* shared, Combine combine) {
  __syncthreads();
  shared[threadIdx.x] = a;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) shared[threadIdx.x] = combine(shared[threadIdx.x], shared[threadIdx.x + s]);
    __syncthreads();
  }
  return shared[0];
}

}  // namespace thc
