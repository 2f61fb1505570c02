// The CUDA reduction template: one thread per output element walks the reduced dims (those
// where the output's stride is 0) with the math/Reduce.h reducer; deterministic, no atomics.
// Plus row-wise max/min with indices.
#include <TH/Kernels.h>

#include "Loops.cuh"

namespace thc {
namespace {

/// Sizes and (output, input) byte strides of either the kept or the reduced dims of an iterator.
struct DimSplit {
  int ndim = 0;
  int64_t sizes[TH_MAX_DIMS];
  int64_t out_strides[TH_MAX_DIMS];
  int64_t in_strides[TH_MAX_DIMS];

  __device__ void get(int64_t linear, int64_t& out_off, int64_t& in_off) const {
    out_off = in_off = 0;
    for (int d = 0; d < ndim; ++d) {
      int64_t idx = linear % sizes[d];
      linear /= sizes[d];
      out_off += idx * out_strides[d];
      in_off += idx * in_strides[d];
    }
  }
};

template <typename T, typename R>
__global__ void reduce_kernel_impl(int64_t n_out, int64_t n_red, DimSplit kept, DimSplit red, char* out,
                                   const char* in, R r) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n_out;
       i += int64_t(blockDim.x) * gridDim.x) {
    int64_t out_off, in_base, unused, in_off;
    kept.get(i, out_off, in_base);
    typename R::acc a = R::identity();
    for (int64_t k = 0; k < n_red; ++k) {
      red.get(k, unused, in_off);
      a = r(a, *reinterpret_cast<const T*>(in + in_base + in_off));
    }
    *reinterpret_cast<T*>(out + out_off) = T(a);
  }
}

template <typename T, typename R>
void reduce_typed(th::TensorIterator& iter, R r) {
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
  DeviceGuard guard(iter.device());
  constexpr int threads = 128;
  const int64_t blocks = std::min<int64_t>((n_out + threads - 1) / threads, 65536);
  reduce_kernel_impl<T, R><<<static_cast<unsigned>(blocks), threads>>>(n_out, n_red, kept, red,
                                                                       iter.data_ptr(0), iter.data_ptr(1), r);
  THC_CHECK(cudaGetLastError());
}

void reduce_kernel(th::TensorIterator& iter, th::math::ReduceOp op) {
  TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "reduce_cuda", [&] {
    th::math::with_reducer<scalar_t>(op, [&](auto r) { reduce_typed<scalar_t>(iter, r); });
  });
}

template <typename T>
__global__ void argreduce_rows(int64_t R, int64_t n, const T* in, T* values, int64_t* indices, bool is_max) {
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < R;
       r += int64_t(blockDim.x) * gridDim.x) {
    const T* row = in + r * n;
    int64_t best = 0;
    for (int64_t k = 1; k < n; ++k) {
      if (th::math::better(row[k], row[best], is_max)) best = k;
    }
    values[r] = row[best];
    indices[r] = best;
  }
}

void argreduce_kernel(const th::Tensor& rows, th::Tensor& values, th::Tensor& indices, bool is_max) {
  const int64_t R = rows.sizes()[0], n = rows.sizes()[1];
  if (R == 0) return;
  DeviceGuard guard(rows.device());
  TH_DISPATCH_ALL_TYPES(rows.dtype(), "argreduce_cuda", [&] {
    const int64_t blocks = std::min<int64_t>((R + 127) / 128, 65536);
    argreduce_rows<scalar_t>
        <<<static_cast<unsigned>(blocks), 128>>>(R, n, reinterpret_cast<const scalar_t*>(rows.data_ptr()),
                                                 reinterpret_cast<scalar_t*>(values.data_ptr()),
                                                 reinterpret_cast<int64_t*>(indices.data_ptr()), is_max);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::reduce_stub, CUDA, reduce_kernel);
TH_REGISTER_KERNEL(th::argreduce_stub, CUDA, argreduce_kernel);

}  // namespace thc
