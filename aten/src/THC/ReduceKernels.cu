// The CUDA reductions, with the math/Reduce.h reducers. The outputs are the iterator's kept dims,
// the reduced dims those where the output's stride is 0. Two layouts (as in PyTorch's
// Reduce.cuh), chosen by which side is contiguous:
//  - inner (the reduction runs along the fast dim: sum(-1), a full sum): a block per output, its
//    threads striding along the reduction, then a tree in shared memory;
//  - outer (a kept dim is the fast one: sum(0)): a thread per output, neighbouring threads on
//    neighbouring outputs so that their loads coalesce.
// When the outputs alone cannot fill the GPU, each output's reduction is split over several
// blocks that write accumulators to a workspace, and a second kernel folds them in a fixed
// order: deterministic, no atomics. Row-wise max/min with indices works the same way.
#include <TH/Kernels.h>

#include "Loops.cuh"

namespace thc {
namespace {

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

int sm_count() {
  static int counts[64] = {};
  int dev = 0;
  THC_CHECK(cudaGetDevice(&dev));
  int& c = counts[dev & 63];
  if (c == 0) THC_CHECK(cudaDeviceGetAttribute(&c, cudaDevAttrMultiProcessorCount, dev));
  return c;
}

int pow2_at_least(int64_t n, int lo) {
  int p = lo;
  while (p < kMaxThreads && p < n) p *= 2;
  return p;
}

__host__ __device__ inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

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

/// Tree-reduces one accumulator per thread (blockDim.x a power of two) into the first thread's.
template <typename A, typename Combine>
__device__ A block_reduce(A a, A* shared, Combine combine) {
  shared[threadIdx.x] = a;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) shared[threadIdx.x] = combine(shared[threadIdx.x], shared[threadIdx.x + s]);
    __syncthreads();
  }
  return shared[0];
}

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
    a = r(a, *reinterpret_cast<const T*>(in + in_base + red.in_offset(k)));
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
    a = r(a, *reinterpret_cast<const T*>(in + in_base + red.in_offset(k)));
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
    reduce_inner<T, R><<<static_cast<unsigned>(n_out * p.splits), p.threads>>>(
        n_red, p.splits, kept, red, iter.data_ptr(0), iter.data_ptr(1), w, r);
  } else {
    dim3 grid(static_cast<unsigned>(ceil_div(n_out, p.threads)), static_cast<unsigned>(p.splits));
    reduce_outer<T, R>
        <<<grid, p.threads>>>(n_out, n_red, kept, red, iter.data_ptr(0), iter.data_ptr(1), w, r);
  }
  THC_CHECK(cudaGetLastError());
  if (p.splits > 1) {
    fold_pieces<T, R>
        <<<static_cast<unsigned>(n_out), pow2_at_least(p.splits, 32)>>>(p.splits, kept, iter.data_ptr(0), w);
    THC_CHECK(cudaGetLastError());
  }
}

void reduce_kernel(th::TensorIterator& iter, th::math::ReduceOp op) {
  TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "reduce_cuda", [&] {
    th::math::with_reducer<scalar_t>(op, [&](auto r) { reduce_typed<scalar_t>(iter, r); });
  });
}

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
    argreduce_rows<scalar_t><<<static_cast<unsigned>(R * p.splits), p.threads>>>(
        n, p.splits, reinterpret_cast<const scalar_t*>(rows.data_ptr()), v, idx, w, is_max);
    THC_CHECK(cudaGetLastError());
    if (p.splits > 1) {
      fold_best<scalar_t>
          <<<static_cast<unsigned>(R), pow2_at_least(p.splits, 32)>>>(p.splits, v, idx, w, is_max);
      THC_CHECK(cudaGetLastError());
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::reduce_stub, CUDA, reduce_kernel);
TH_REGISTER_KERNEL(th::argreduce_stub, CUDA, argreduce_kernel);

}  // namespace thc
