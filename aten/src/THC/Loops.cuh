#pragma once
// The CUDA loops: gpu_kernel runs a scalar functor over a TensorIterator, contiguous operands through a
// vectorized kernel (contiguous_kernel), any others through a grid-stride kernel that turns each linear
// index into per-operand byte offsets (launch).
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <TH/Load.h>
#include <TH/TensorIterator.h>
#include <TH/math/BindSecond.h>

#include "DeviceGuard.h"
#include "Stream.h"

namespace thc {

/// Blocks of `threads` for a grid-stride loop over n elements: enough to cover n, capped at 65535
/// (the loop strides over the rest).
inline unsigned grid_for(int64_t n, int threads) {
  return static_cast<unsigned>(std::min<int64_t>((n + threads - 1) / threads, 65535));
}

/// The iterator's shape and byte strides, passed to kernels by value.
template <int N>
struct OffsetCalculator {
  int ndim;
  int64_t sizes[TH_MAX_DIMS];
  int64_t strides[N][TH_MAX_DIMS];

  explicit OffsetCalculator(const th::TensorIterator& iter) : ndim(iter.ndim()) {
    for (int d = 0; d < ndim; ++d) {
      sizes[d] = iter.shape()[d];
      for (int a = 0; a < N; ++a) strides[a][d] = iter.strides(a)[d];
    }
  }
  __device__ void get(int64_t linear, int64_t (&offsets)[N]) const {
    for (int a = 0; a < N; ++a) offsets[a] = 0;
    for (int d = 0; d < ndim; ++d) {
      int64_t idx = linear % sizes[d];
      linear /= sizes[d];
      for (int a = 0; a < N; ++a) offsets[a] += idx * strides[a][d];
    }
  }
};

template <int N>
struct Pointers {
  char* p[N];
};

/// Grid-stride loop calling body(offsets) for every element.
template <int N, typename Body>
__global__ void for_each_kernel(int64_t n, OffsetCalculator<N> calc, Body body) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x) {
    int64_t offsets[N];
    calc.get(i, offsets);
    body(offsets);
  }
}

/// Runs body(offsets) on the GPU for every element of `iter` (N operands).
template <int N, typename Body>
void launch(const th::TensorIterator& iter, const Body& body) {
  const int64_t n = iter.numel();
  if (n == 0) return;
  DeviceGuard guard(iter.device());
  constexpr int threads = 256;
  for_each_kernel<N>
      <<<grid_for(n, threads), threads, 0, thc::current_stream()>>>(n, OffsetCalculator<N>(iter), body);
  THC_CHECK(cudaGetLastError());
}

/// The per-element body of gpu_kernel: out = f(in...) at the given byte offsets. Inputs of type T
/// reach f as opmath_t<T> (float for the 16-bit floats); the output has f's result type (bool for
/// comparisons), stored back as T when that is T's opmath type.
template <typename T, int Arity, typename F>
struct Elementwise {
  F f;
  Pointers<Arity + 1> ptrs;

  __device__ void operator()(const int64_t (&off)[Arity + 1]) const {
    apply(off, std::make_index_sequence<Arity>{});
  }
  template <size_t... I>
  __device__ void apply(const int64_t (&off)[Arity + 1], std::index_sequence<I...>) const {
    using op_t = th::opmath_t<T>;
    using out_t = th::storage_t<decltype(f((I, op_t())...)), T>;
    *reinterpret_cast<out_t*>(ptrs.p[0] + off[0]) =
        out_t(f(static_cast<op_t>(th::load(reinterpret_cast<const T*>(ptrs.p[I + 1] + off[I + 1])))...));
  }
};

/// `Vec` elements of T as one aligned unit: one 128-bit load or store for 16 bytes.
template <typename T, int Vec>
struct alignas(sizeof(T) * Vec) AlignedVector {
  T val[Vec];
};

/// Elements per thread on the contiguous path: 16 bytes of T (4 float32, 8 float16, 2 float64), at most 8
/// (8 bytes of a 1-byte type).
template <typename T>
constexpr int vec_size() {
  return sizeof(T) >= 16 ? 1 : (16 / int(sizeof(T)) > 8 ? 8 : 16 / int(sizeof(T)));
}

/// out = f(in...) over contiguous operands, blockDim * Vec elements per block and step. When `aligned`
/// (every pointer a multiple of its vector's size) thread t takes elements [t * Vec, t * Vec + Vec) of
/// the block's span as one AlignedVector load per operand and one store (PyTorch's vectorized loop);
/// otherwise element t + k * blockDim for k < Vec, so that a warp's accesses stay coalesced. No index
/// arithmetic beyond a product.
template <typename T, int Arity, int Vec, typename F, size_t... I>
__global__ void contiguous_kernel(int64_t n, Pointers<Arity + 1> ptrs, F f, bool aligned,
                                  std::index_sequence<I...>) {
  using op_t = th::opmath_t<T>;
  using Out = th::storage_t<decltype(f(((void)I, op_t())...)), T>;  // as Elementwise's out_t
  Out* out = reinterpret_cast<Out*>(ptrs.p[0]);
  const T* in[Arity > 0 ? Arity : 1] = {reinterpret_cast<const T*>(ptrs.p[I + 1])...};
  const auto one = [&](int64_t i) { out[i] = Out(f(static_cast<op_t>(th::load(in[I] + i))...)); };
  const int64_t span = int64_t(blockDim.x) * Vec, step = span * gridDim.x;
  for (int64_t base = blockIdx.x * span; base < n; base += step) {
    const int64_t mine = base + int64_t(threadIdx.x) * Vec;
    if (aligned && mine + Vec <= n) {
      AlignedVector<T, Vec> v[Arity > 0 ? Arity : 1];
      ((v[I] = *reinterpret_cast<const AlignedVector<T, Vec>*>(in[I] + mine)), ...);
      AlignedVector<Out, Vec> r;
#pragma unroll
      for (int k = 0; k < Vec; ++k) r.val[k] = Out(f(static_cast<op_t>(th::load(&v[I].val[k]))...));
      *reinterpret_cast<AlignedVector<Out, Vec>*>(out + mine) = r;
    } else if (aligned) {  // the last, partial vector
      for (int64_t i = mine; i < n; ++i) one(i);
    } else {
#pragma unroll
      for (int k = 0; k < Vec; ++k) {
        const int64_t i = base + k * int64_t(blockDim.x) + threadIdx.x;
        if (i < n) one(i);
      }
    }
  }
}

/// out = f(in...) elementwise; every operand has element type T (the output: f's result type, as in
/// Elementwise). Contiguous operands take the vectorized contiguous_kernel, the rest the strided loop.
template <typename T, int Arity, typename F>
void gpu_kernel(th::TensorIterator& iter, const F& f) {
  Pointers<Arity + 1> ptrs;
  for (int i = 0; i <= Arity; ++i) ptrs.p[i] = iter.data_ptr(i);
  const int64_t n = iter.numel();
  if (n > 0 && iter.is_contiguous()) {
    constexpr int Vec = vec_size<T>();
    // the output's element: T, or bool for a comparison (an extended lambda's result type is not
    // known to host code)
    bool aligned = reinterpret_cast<uintptr_t>(ptrs.p[0]) % (th::element_size(iter.dtype(0)) * Vec) == 0;
    for (int i = 1; i <= Arity; ++i)
      aligned = aligned && reinterpret_cast<uintptr_t>(ptrs.p[i]) % (sizeof(T) * Vec) == 0;
    DeviceGuard guard(iter.device());
    constexpr int threads = 128;
    contiguous_kernel<T, Arity, Vec>
        <<<grid_for((n + Vec - 1) / Vec, threads), threads, 0, current_stream()>>>(
            n, ptrs, f, aligned, std::make_index_sequence<Arity>{});
    THC_CHECK(cudaGetLastError());
    return;
  }
  launch<Arity + 1>(iter, Elementwise<T, Arity, F>{f, ptrs});
}

/// out = f(a, b) as gpu_kernel<T, 2>, except that for the 16-bit floats a CPU scalar b is read
/// once at opmath_t<T> (float32), not rounded to T first (th::scalar_at_opmath), as PyTorch's mul
/// and div kernels read a Python number: the operand is dropped and the rest runs as a unary loop. Two
/// tensors run th::math::on_tensors(f) (div_trunc's quotient rounded to T, as upstream's).
template <typename T, typename F>
void gpu_kernel_with_scalars(th::TensorIterator& iter, const F& f) {
  if constexpr (!std::is_same_v<T, th::opmath_t<T>>) {
    if (th::scalar_at_opmath(iter)) {
      const auto b = iter.original_scalar_value<th::opmath_t<T>>(2);
      iter.remove_operand(2);
      return gpu_kernel<T, 1>(iter, th::math::BindSecond<F, th::opmath_t<T>>{f, b});
    }
  }
  gpu_kernel<T, 2>(iter, th::math::on_tensors<T>(f));
}

}  // namespace thc
