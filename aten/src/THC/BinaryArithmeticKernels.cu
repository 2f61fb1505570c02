// Part of the binary family on CUDA (BinaryKernels.cu): the arithmetic and bitwise ops
// (math/Binary.h's TH_BINARY_OPS: div, remainder, fmod, pow, atan2, maximum, minimum,
// bitwise_and/or/xor).
#include "FunctorKernel.cuh"

namespace thc {

TH_BINARY_OPS(THC_BINARY_INSTANTIATE)

}  // namespace thc
