// Part of the unary family on CUDA (UnaryKernels.cu): sign and rounding, which keep the input
// dtype (math/Unary.h's TH_UNARY_KEEP_OPS: neg, abs, sign, floor, ceil, round, trunc), for every dtype.
#include "FunctorKernel.cuh"

namespace thc {

TH_UNARY_KEEP_OPS(THC_UNARY_INSTANTIATE)

}  // namespace thc
