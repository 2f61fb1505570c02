// CUDA kernels of where (the shared elementwise loop) and of the scans (one thread per line).
#include <TH/Kernels.h>
#include <TH/math/Scan.h>

#include "Loops.cuh"

namespace thc {
namespace {

template <typename T>
struct WhereOp {
  __device__ T operator()(T c, T a, T b) const { return c != T(0) ? a : b; }
};

void where_kernel(th::TensorIterator& iter) {
  TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "where_cuda",
                        [&] { gpu_kernel<scalar_t, 3>(iter, WhereOp<th::opmath_t<scalar_t>>{}); });
}

template <typename T>
__global__ void scan_lines(const T* src, T* dst, int64_t lines, int64_t n, int64_t inner, bool prod) {
  for (int64_t line = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; line < lines;
       line += int64_t(blockDim.x) * gridDim.x)
    th::math::scan_line(src, dst, line, n, inner, prod);
}

void scan_kernel(const th::Tensor& in, const th::Tensor& out, int64_t outer, int64_t n, int64_t inner,
                 bool prod) {
  DeviceGuard guard(in.device());
  const int64_t lines = outer * inner;
  TH_DISPATCH_ALL_TYPES(in.dtype(), "cumsum_cuda", [&] {
    const int64_t blocks = std::min<int64_t>((lines + 127) / 128, 65535);
    scan_lines<scalar_t><<<static_cast<unsigned>(blocks), 128>>>(
        reinterpret_cast<const scalar_t*>(in.data_ptr()), reinterpret_cast<scalar_t*>(out.data_ptr()), lines,
        n, inner, prod);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::where_stub, CUDA, where_kernel);
TH_REGISTER_KERNEL(th::scan_stub, CUDA, scan_kernel);

}  // namespace thc
