#pragma once
// The CUDA reduction kernels, as templates over the math/Reduce.h reducers. The outputs are the
// iterator's kept dims, the reduced dims those where the output's stride is 0. Two layouts (as in PyTorch's
// Reduce.cuh), chosen by which side is contiguous:
//  - inner (the reduction runs along the fast dim: sum(-1), a full sum): a block per output, its
//    threads striding along the reduction, then a tree in shared memory;
//  - outer (a kept dim is the fast one: sum(0)): a thread per output, neighbouring threads on
//    neighbouring outputs so that their loads coalesce.
// When the outputs alone cannot fill the GPU, each output's reduction is split over several
// blocks that write accumulators to a workspace, and a second kernel folds them in a fixed
// order: deterministic, no atomics. Row-wise max/min with indices works the same way.
//
// Each reducer family is instantiated in a .cu file of its own (ReduceSumProdKernels.cu,
// ReduceMinMaxKernels.cu, ReduceLogicKernels.cu), as PyTorch splits its Reduce*Kernel.cu: an
// edit recompiles one family (13-17 s of nvcc, where all of them in one file took ~39 s), and a
// build compiles them in parallel. ReduceKernels.cu holds the host helpers and the dispatch.
#include <TH/math/Reduce.h>
#include <TH/ops/Reduce.h>

#include "BlockReduce.cuh"
#include "Loops.cuh"
#include "Stream.h"

namespace thc::reduce {

constexpr int kMaxThreads = 256;

/// Sizes and (output, input) byte strides of either the kept or the reduced dims of an iterator.
struct DimSplit {
  int ndim = 0;
  int64_t sizes[TH_MAX_DIMS];
  int64_t out_strides[TH_MAX_DIMS];
  int64_t in_strides[TH_MAX_DIMS];

  __device__ void get(int64_t linear, int64_t& out_off, int64_t& in_off) const {
    if (ndim == 1) {  // the common case: the iterator coalesced these dims into one
      out_off = linear * out_strides[0];
      in_off = linear * in_strides[0];
      return;
    }
    out_off = in_off = 0;
    for (int d = 0; d < ndim; ++d) {
      int64_t idx = linear % sizes[d];
      linear /= sizes[d];
      out_off += idx * out_strides[d];
      in_off += idx * in_strides[d];
    }
  }
  __device__ int64_t in_offset(int64_t linear) const {
    int64_t out_off, in_off;
    get(linear, out_off, in_off);
    return in_off;
  }
};

/// How a reduction of n_out outputs over n_red values each is spread over the GPU.
struct Plan {
  bool inner;      // block per output (else thread per output)
  int threads;     // per block, a power of two
  int64_t splits;  // pieces each output's reduction is cut into (1: no workspace)
};

/// The smallest power of two >= n, between lo and kMaxThreads.
int pow2_at_least(int64_t n, int lo);

__host__ __device__ inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The layout and split of a reduction of n_out outputs over n_red values each (ReduceKernels.cu).
Plan plan_for(int64_t n_out, int64_t n_red, bool inner);

/// Inner layout: block b reduces piece b % splits of output b / splits.
template <typename T, typename R>
__global__ void reduce_inner(int64_t n_red, int64_t splits, DimSplit kept, DimSplit red, char* out,
                             const char* in, typename R::acc* workspace, R r) {
  using A = typename R::acc;
  __shared__ A shared[kMaxThreads];
  const int64_t i = blockIdx.x / splits, piece = blockIdx.x % splits;
  const int64_t chunk = ceil_div(n_red, splits);
  const int64_t begin = piece * chunk, end = begin + chunk < n_red ? begin + chunk : n_red;
  int64_t out_off, in_base;
  kept.get(i, out_off, in_base);
  A a = R::identity();
  for (int64_t k = begin + threadIdx.x; k < end; k += blockDim.x)
    a = r(a, th::load(reinterpret_cast<const T*>(in + in_base + red.in_offset(k))));
  a = block_reduce(a, shared, [](A x, A y) { return R::combine(x, y); });
  if (threadIdx.x == 0) {
    if (splits == 1)
      *reinterpret_cast<T*>(out + out_off) = T(a);
    else
      workspace[i * splits + piece] = a;
  }
}

/// Outer layout: thread x of the grid reduces piece blockIdx.y of output x.
template <typename T, typename R>
__global__ void reduce_outer(int64_t n_out, int64_t n_red, DimSplit kept, DimSplit red, char* out,
                             const char* in, typename R::acc* workspace, R r) {
  using A = typename R::acc;
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= n_out) return;
  const int64_t splits = gridDim.y, piece = blockIdx.y;
  const int64_t chunk = ceil_div(n_red, splits);
  const int64_t begin = piece * chunk, end = begin + chunk < n_red ? begin + chunk : n_red;
  int64_t out_off, in_base;
  kept.get(i, out_off, in_base);
  A a = R::identity();
  for (int64_t k = begin; k < end; ++k)
    a = r(a, th::load(reinterpret_cast<const T*>(in + in_base + red.in_offset(k))));
  if (splits == 1)
    *reinterpret_cast<T*>(out + out_off) = T(a);
  else
    workspace[i * splits + piece] = a;
}

/// Folds each output's `splits` accumulators, in order, and writes the result.
template <typename T, typename R>
__global__ void fold_pieces(int64_t splits, DimSplit kept, char* out, const typename R::acc* workspace) {
  using A = typename R::acc;
  __shared__ A shared[kMaxThreads];
  const int64_t i = blockIdx.x;
  A a = R::identity();
  for (int64_t s = threadIdx.x; s < splits; s += blockDim.x) a = R::combine(a, workspace[i * splits + s]);
  a = block_reduce(a, shared, [](A x, A y) { return R::combine(x, y); });
  if (threadIdx.x == 0) {
    int64_t out_off, unused;
    kept.get(i, out_off, unused);
    *reinterpret_cast<T*>(out + out_off) = T(a);
  }
}

/// Device memory for `n` values of A, freed (stream-ordered) when the tensor goes.
template <typename A>
th::Tensor workspace_for(int64_t n, th::Device device) {
  return th::empty_tensor({n * int64_t(sizeof(A))}, th::ScalarType::Byte, device);
}

template <typename T, typename R>
void reduce_typed(th::TensorIterator& iter, R r) {
  using A = typename R::acc;
  if (iter.numel() == 0) return;
  DimSplit kept, red;
  int64_t n_out = 1, n_red = 1;
  for (int d = 0; d < iter.ndim(); ++d) {
    bool reduced = iter.strides(0)[d] == 0 && iter.shape()[d] > 1;
    DimSplit& s = reduced ? red : kept;
    s.sizes[s.ndim] = iter.shape()[d];
    s.out_strides[s.ndim] = iter.strides(0)[d];
    s.in_strides[s.ndim] = iter.strides(1)[d];
    ++s.ndim;
    (reduced ? n_red : n_out) *= iter.shape()[d];
  }
  // dims are ordered fastest first: a block per output when the reduction runs along the smaller
  // stride and is long enough to share out (short ones: a thread per output)
  const bool inner = red.ndim > 0 && n_red >= 16 &&
                     (kept.ndim == 0 || std::abs(red.in_strides[0]) <= std::abs(kept.in_strides[0]));
  DeviceGuard guard(iter.device());
  const Plan p = plan_for(n_out, n_red, inner);
  th::Tensor ws = p.splits > 1 ? workspace_for<A>(n_out * p.splits, iter.device()) : th::Tensor();
  A* w = p.splits > 1 ? reinterpret_cast<A*>(ws.data_ptr()) : nullptr;
  if (p.inner) {
    reduce_inner<T, R><<<static_cast<unsigned>(n_out * p.splits), p.threads, 0, thc::current_stream()>>>(
        n_red, p.splits, kept, red, iter.data_ptr(0), iter.data_ptr(1), w, r);
  } else {
    dim3 grid(static_cast<unsigned>(ceil_div(n_out, p.threads)), static_cast<unsigned>(p.splits));
    reduce_outer<T, R><<<grid, p.threads, 0, thc::current_stream()>>>(
        n_out, n_red, kept, red, iter.data_ptr(0), iter.data_ptr(1), w, r);
  }
  THC_CHECK(cudaGetLastError());
  if (p.splits > 1) {
    fold_pieces<T, R>
        <<<static_cast<unsigned>(n_out), pow2_at_least(p.splits, 32), 0, thc::current_stream()>>>(
            p.splits, kept, iter.data_ptr(0), w);
    THC_CHECK(cudaGetLastError());
  }
}

/// Reducer `Op` over every dtype. Defined here, instantiated once, in its family's .cu file;
/// ReduceKernels.cu declares the instantiations `extern` and dispatches to them.
template <th::math::ReduceOp Op>
void reduce_op(th::TensorIterator& iter) {
  if constexpr (th::math::kReduceComplex<Op>) {
    TH_DISPATCH_ALL_TYPES_AND_COMPLEX(iter.common_dtype(), "reduce_cuda", [&] {
      reduce_typed<scalar_t>(iter, th::math::ReducerOf<Op, scalar_t>{});
    });
  } else {
    TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "reduce_cuda",
                          [&] { reduce_typed<scalar_t>(iter, th::math::ReducerOf<Op, scalar_t>{}); });
  }
}

}  // namespace thc::reduce
