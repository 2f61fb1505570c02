// The sum and prod reductions on CUDA: Reduce.cuh's kernels for every dtype.
#include "Reduce.cuh"

namespace thc::reduce {

template void reduce_op<th::math::ReduceOp::Sum>(th::TensorIterator&);
template void reduce_op<th::math::ReduceOp::Prod>(th::TensorIterator&);

}  // namespace thc::reduce
