// The max and min reductions on CUDA: Reduce.cuh's kernels for every dtype (amax, amin), and the
// row-wise max/min with indices (max(dim), argmax), split over blocks like the reductions.
#include "Reduce.cuh"
#include "Stream.h"

namespace thc::reduce {

template void reduce_op<th::math::ReduceOp::Max>(th::TensorIterator&);
template void reduce_op<th::math::ReduceOp::Min>(th::TensorIterator&);

namespace {

/// A candidate of an arg-max/min: a value and its position in the row.
template <typename T>
struct Best {
  T value;
  int64_t index;
};

/// The better of two candidates: the better value (math::better, NaN first), on a tie the
/// earlier position, so that the first occurrence wins as in torch.max.
template <typename T>
__device__ Best<T> pick(Best<T> a, Best<T> b, bool is_max) {
  if (b.index < 0) return a;
  if (a.index < 0) return b;
  if (th::math::better(b.value, a.value, is_max)) return b;
  if (th::math::better(a.value, b.value, is_max)) return a;
  return b.index < a.index ? b : a;
}

/// Block b scans piece b % splits of row b / splits; writes the row's result or its piece's.
template <typename T>
__global__ void argreduce_rows(int64_t n, int64_t splits, const T* in, T* values, int64_t* indices,
                               Best<T>* workspace, bool is_max) {
  __shared__ Best<T> shared[kMaxThreads];
  const int64_t row = blockIdx.x / splits, piece = blockIdx.x % splits;
  const int64_t chunk = ceil_div(n, splits);
  const int64_t begin = piece * chunk, end = begin + chunk < n ? begin + chunk : n;
  const T* x = in + row * n;
  Best<T> best{T(0), -1};
  for (int64_t k = begin + threadIdx.x; k < end; k += blockDim.x) best = pick(best, Best<T>{x[k], k}, is_max);
  best = block_reduce(best, shared, [is_max](Best<T> a, Best<T> b) { return pick(a, b, is_max); });
  if (threadIdx.x == 0) {
    if (splits == 1) {
      values[row] = best.value;
      indices[row] = best.index;
    } else {
      workspace[row * splits + piece] = best;
    }
  }
}

template <typename T>
__global__ void fold_best(int64_t splits, T* values, int64_t* indices, const Best<T>* workspace,
                          bool is_max) {
  __shared__ Best<T> shared[kMaxThreads];
  const int64_t row = blockIdx.x;
  Best<T> best{T(0), -1};
  for (int64_t s = threadIdx.x; s < splits; s += blockDim.x)
    best = pick(best, workspace[row * splits + s], is_max);
  best = block_reduce(best, shared, [is_max](Best<T> a, Best<T> b) { return pick(a, b, is_max); });
  if (threadIdx.x == 0) {
    values[row] = best.value;
    indices[row] = best.index;
  }
}

void argreduce_kernel(const th::Tensor& rows, th::Tensor& values, th::Tensor& indices, bool is_max) {
  const int64_t R = rows.sizes()[0], n = rows.sizes()[1];
  if (R == 0 || n == 0) return;
  DeviceGuard guard(rows.device());
  TH_DISPATCH_ALL_TYPES(rows.dtype(), "argreduce_cuda", [&] {
    const Plan p = plan_for(R, n, /*inner=*/true);
    th::Tensor ws = p.splits > 1 ? workspace_for<Best<scalar_t>>(R * p.splits, rows.device()) : th::Tensor();
    auto* w = p.splits > 1 ? reinterpret_cast<Best<scalar_t>*>(ws.data_ptr()) : nullptr;
    auto* v = reinterpret_cast<scalar_t*>(values.data_ptr());
    auto* idx = reinterpret_cast<int64_t*>(indices.data_ptr());
    argreduce_rows<scalar_t><<<static_cast<unsigned>(R * p.splits), p.threads, 0, thc::current_stream()>>>(
        n, p.splits, reinterpret_cast<const scalar_t*>(rows.data_ptr()), v, idx, w, is_max);
    THC_CHECK(cudaGetLastError());
    if (p.splits > 1) {
      fold_best<scalar_t>
          <<<static_cast<unsigned>(R), pow2_at_least(p.splits, 32), 0, thc::current_stream()>>>(
              p.splits, v, idx, w, is_max);
      THC_CHECK(cudaGetLastError());
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::argreduce_stub, CUDA, argreduce_kernel);

}  // namespace thc::reduce
