// The all and any reductions on CUDA: Reduce.cuh's kernels for every dtype.
#include "Reduce.cuh"

namespace thc::reduce {

template void reduce_op<th::math::ReduceOp::All>(th::TensorIterator&);
template void reduce_op<th::math::ReduceOp::Any>(th::TensorIterator&);

}  // namespace thc::reduce
