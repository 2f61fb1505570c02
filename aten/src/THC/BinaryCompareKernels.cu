// Part of the binary family on CUDA (BinaryKernels.cu): the comparisons and logical ops
// (math/Binary.h's TH_COMPARE_OPS: eq, ne, lt, le, gt, ge, logical_and/or/xor), each with a bool output.
#include "FunctorKernel.cuh"

namespace thc {

TH_COMPARE_OPS(THC_BINARY_INSTANTIATE)

}  // namespace thc
