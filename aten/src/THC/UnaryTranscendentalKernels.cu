// Part of the unary family on CUDA (UnaryKernels.cu): the functions that compute in floating point
// (math/Unary.h's TH_UNARY_FLOAT_OPS: exp and log, the trigonometric and hyperbolic functions,
// sqrt, erf, sigmoid...), for the float types.
#include "FunctorKernel.cuh"

namespace thc {

TH_UNARY_FLOAT_OPS(THC_UNARY_INSTANTIATE)

}  // namespace thc
