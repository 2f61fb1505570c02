// CUDA kernel of the scans (cumsum / cumprod). Lines along the last dim (inner == 1) go to CUB's
// decoupled look-back scan: DeviceScan::InclusiveScan for one line, InclusiveScanByKey keyed by the
// line number for many. Strided lines (inner > 1) take a thread per line when there are lines enough
// to fill the GPU, else each line is cut into chunks scanned in three passes (chunk totals, their
// exclusive scan, the chunks from their offsets).
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <cub/device/device_scan.cuh>

#include <TH/math/Scan.h>
#include <TH/ops/Scan.h>

#include "Cub.cuh"
#include "Exception.h"
#include "Loops.cuh"
#include "Stream.h"

namespace thc {
namespace {

template <typename T>
__global__ void scan_lines(const T* src, T* dst, int64_t lines, int64_t n, int64_t inner, bool prod) {
  for (int64_t line = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; line < lines;
       line += int64_t(blockDim.x) * gridDim.x)
    th::math::scan_line(src, dst, line, n, inner, prod);
}

template <typename T>
using scan_acc = th::math::acc_t<T>;
using th::math::scan_identity;
using th::math::scan_step;

/// Which line (o, i) and chunk c thread t of the chunked passes handles (i fastest, so that
/// neighbouring threads read neighbouring addresses when inner > 1).
struct ChunkGrid {
  int64_t outer, n, inner, chunks, len;
  __device__ void get(int64_t t, int64_t& o, int64_t& c, int64_t& i) const {
    i = t % inner;
    c = (t / inner) % chunks;
    o = t / (inner * chunks);
  }
  __device__ int64_t end(int64_t c) const { return (c + 1) * len < n ? (c + 1) * len : n; }
};

template <typename T>
__global__ void scan_chunk_totals(const T* src, scan_acc<T>* totals, ChunkGrid g, bool prod) {
  const int64_t total = g.outer * g.chunks * g.inner;
  for (int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; t < total;
       t += int64_t(blockDim.x) * gridDim.x) {
    int64_t o, c, i;
    g.get(t, o, c, i);
    scan_acc<T> a = scan_identity<scan_acc<T>>(prod);
    for (int64_t k = c * g.len; k < g.end(c); ++k)
      a = scan_step(a, scan_acc<T>(src[(o * g.n + k) * g.inner + i]), prod);
    totals[t] = a;
  }
}

/// Replaces each line's chunk totals by their exclusive scan (a thread per line).
template <typename T>
__global__ void scan_chunk_offsets(scan_acc<T>* totals, ChunkGrid g, bool prod) {
  const int64_t lines = g.outer * g.inner;
  for (int64_t line = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; line < lines;
       line += int64_t(blockDim.x) * gridDim.x) {
    const int64_t o = line / g.inner, i = line % g.inner;
    scan_acc<T> run = scan_identity<scan_acc<T>>(prod);
    for (int64_t c = 0; c < g.chunks; ++c) {
      scan_acc<T>& slot = totals[(o * g.chunks + c) * g.inner + i];
      const scan_acc<T> v = slot;
      slot = run;
      run = scan_step(run, v, prod);
    }
  }
}

template <typename T>
__global__ void scan_chunks(const T* src, T* dst, const scan_acc<T>* offsets, ChunkGrid g, bool prod) {
  const int64_t total = g.outer * g.chunks * g.inner;
  for (int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; t < total;
       t += int64_t(blockDim.x) * gridDim.x) {
    int64_t o, c, i;
    g.get(t, o, c, i);
    scan_acc<T> a = offsets[t];
    for (int64_t k = c * g.len; k < g.end(c); ++k) {
      const int64_t at = (o * g.n + k) * g.inner + i;
      a = scan_step(a, scan_acc<T>(src[at]), prod);
      dst[at] = T(a);
    }
  }
}

/// T read as its accumulate type (CUB then scans in it).
template <typename T>
struct ToAcc {
  __host__ __device__ scan_acc<T> operator()(T v) const { return scan_acc<T>(v); }
};

/// The accumulator stored as T (rounded once).
template <typename T>
struct FromAcc {
  __host__ __device__ T operator()(scan_acc<T> a) const { return T(a); }
};

/// The scan's step as CUB's binary operator.
template <typename A>
struct ScanOp {
  bool prod;
  __host__ __device__ A operator()(A a, A b) const { return scan_step(a, b, prod); }
};

/// The line of element j of contiguous lines of n: CUB's key, a new scan where it changes.
struct LineOf {
  int64_t n;
  __host__ __device__ int64_t operator()(int64_t j) const { return j / n; }
};

/// The scan of `outer` contiguous lines of n with CUB, accumulating in scan_acc<T> and storing T.
template <typename T>
void scan_contiguous_lines(th::Device device, const T* src, T* dst, int64_t outer, int64_t n, bool prod) {
  auto values = thrust::make_transform_iterator(src, ToAcc<T>{});
  auto out = thrust::make_transform_output_iterator(dst, FromAcc<T>{});
  const ScanOp<scan_acc<T>> op{prod};
  if (outer == 1) {
    cub_call(device, [&](void* temp, size_t& bytes, cudaStream_t stream) {
      return cub::DeviceScan::InclusiveScan(temp, bytes, values, out, op, n, stream);
    });
    return;
  }
  auto lines = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), LineOf{n});
  cub_call(device, [&](void* temp, size_t& bytes, cudaStream_t stream) {
    return cub::DeviceScan::InclusiveScanByKey(temp, bytes, lines, values, out, op, outer * n,
                                               ::cuda::std::equal_to<>(), stream);
  });
}

void scan_kernel(const th::Tensor& in, const th::Tensor& out, int64_t outer, int64_t n, int64_t inner,
                 bool prod) {
  DeviceGuard guard(in.device());
  const int64_t lines = outer * inner;
  constexpr int64_t kEnoughLines = 1 << 15;  // a thread per line fills the GPU
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(in.dtype(), "cumsum_cuda", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(in.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    if (inner == 1) {
      scan_contiguous_lines(in.device(), src, dst, outer, n, prod);
      return;
    }
    if (lines >= kEnoughLines || n < 2048) {
      scan_lines<scalar_t>
          <<<grid_for(lines, 128), 128, 0, thc::current_stream()>>>(src, dst, lines, n, inner, prod);
      THC_CHECK(cudaGetLastError());
      return;
    }
    // ~1024 chunks a line (fewer for many lines): passes 1 and 3 run a thread per chunk, pass 2 a
    // thread per line over its chunks
    const int64_t chunks =
        std::max<int64_t>(2, std::min<int64_t>(std::min<int64_t>(1024, kEnoughLines / lines), n / 64));
    const int64_t len = (n + chunks - 1) / chunks;
    ChunkGrid g{outer, n, inner, chunks, len};
    const int64_t threads_total = lines * chunks;
    th::Tensor ws = th::empty_tensor({threads_total * int64_t(sizeof(scan_acc<scalar_t>))},
                                     th::ScalarType::Byte, in.device());
    auto* totals = reinterpret_cast<scan_acc<scalar_t>*>(ws.data_ptr());
    scan_chunk_totals<scalar_t>
        <<<grid_for(threads_total, 128), 128, 0, thc::current_stream()>>>(src, totals, g, prod);
    THC_CHECK(cudaGetLastError());
    scan_chunk_offsets<scalar_t><<<grid_for(lines, 128), 128, 0, thc::current_stream()>>>(totals, g, prod);
    THC_CHECK(cudaGetLastError());
    scan_chunks<scalar_t>
        <<<grid_for(threads_total, 128), 128, 0, thc::current_stream()>>>(src, dst, totals, g, prod);
    THC_CHECK(cudaGetLastError());
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::scan_stub, CUDA, scan_kernel);

}  // namespace thc
