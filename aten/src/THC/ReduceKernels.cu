// The CUDA reductions: the host side shared by the reducer families (how a reduction is spread
// over the GPU), and reduce_stub's dispatch to the families' instantiations (see Reduce.cuh).
#include "Reduce.cuh"

namespace thc::reduce {
namespace {

int sm_count() {
  static int counts[64] = {};
  int dev = 0;
  THC_CHECK(cudaGetDevice(&dev));
  int& c = counts[dev & 63];
  if (c == 0) THC_CHECK(cudaDeviceGetAttribute(&c, cudaDevAttrMultiProcessorCount, dev));
  return c;
}

}  // namespace

int pow2_at_least(int64_t n, int lo) {
  int p = lo;
  while (p < kMaxThreads && p < n) p *= 2;
  return p;
}

Plan plan_for(int64_t n_out, int64_t n_red, bool inner) {
  const int64_t target = int64_t(sm_count()) * 4;  // blocks that keep every SM busy
  Plan p{inner, 0, 1};
  if (inner) {
    p.threads = pow2_at_least(n_red, 32);
    // at least ~4 values per thread, and no more pieces than it takes to fill the GPU
    if (n_out < target)
      p.splits = std::max<int64_t>(1, std::min(ceil_div(target, n_out), n_red / (p.threads * 4)));
  } else {
    p.threads = kMaxThreads;
    const int64_t blocks = ceil_div(n_out, p.threads);
    if (blocks < target)
      p.splits = std::max<int64_t>(1, std::min({ceil_div(target, blocks), n_red / 16, int64_t(65535)}));
  }
  return p;
}

// Compiled in the family files (ReduceSumProdKernels.cu, ...), not here.
extern template void reduce_op<th::math::ReduceOp::Sum>(th::TensorIterator&);
extern template void reduce_op<th::math::ReduceOp::Prod>(th::TensorIterator&);
extern template void reduce_op<th::math::ReduceOp::Max>(th::TensorIterator&);
extern template void reduce_op<th::math::ReduceOp::Min>(th::TensorIterator&);
extern template void reduce_op<th::math::ReduceOp::All>(th::TensorIterator&);
extern template void reduce_op<th::math::ReduceOp::Any>(th::TensorIterator&);

namespace {

void reduce_kernel(th::TensorIterator& iter, th::math::ReduceOp op) {
  th::math::with_reduce_op(op, [&](auto tag) { reduce_op<decltype(tag)::value>(iter); });
}

}  // namespace

TH_REGISTER_KERNEL(th::reduce_stub, CUDA, reduce_kernel);

}  // namespace thc::reduce
