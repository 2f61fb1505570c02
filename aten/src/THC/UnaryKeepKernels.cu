// The unary ops that keep the input dtype on CUDA (math/Unary.h's TH_UNARY_KEEP_OPS: neg, abs,
// sign, the roundings...), for every dtype.
#include "FunctorKernel.cuh"

namespace thc {

TH_UNARY_KEEP_OPS(THC_UNARY_INSTANTIATE)

}  // namespace thc
