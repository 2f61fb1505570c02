// CUDA batched gemm (the toolkit here has no cuBLAS): 32x32 output tiles staged through shared
// memory, any input strides, one z-block per batch. Accumulates in the math/ accumulate type.
#include <TH/ops/Linear.h>

#include "DeviceGuard.h"
#include "Exception.h"

namespace thc {
namespace {

constexpr int kTile = 32;
constexpr int kRows = 8;  // each thread computes kTile / kRows outputs of one column

template <typename T>
struct GemmArgs {
  const T* a;
  const T* b;
  T* c;
  int64_t M, N, K;
  int64_t sa0, sa1, sa2, sb0, sb1, sb2;
  T alpha, beta;
};

template <typename T>
__global__ void gemm_tiled(GemmArgs<T> g) {
  using acc_t = std::conditional_t<th::is_floating_v<T>, th::opmath_t<T>, int64_t>;
  __shared__ T ta[kTile][kTile + 1];
  __shared__ T tb[kTile][kTile + 1];
  const int64_t batch = blockIdx.z;
  const T* a = g.a + batch * g.sa0;
  const T* b = g.b + batch * g.sb0;
  const int64_t row0 = int64_t(blockIdx.y) * kTile, col0 = int64_t(blockIdx.x) * kTile;
  const int tx = threadIdx.x, ty = threadIdx.y;
  acc_t acc[kTile / kRows] = {};
  for (int64_t k0 = 0; k0 < g.K; k0 += kTile) {
    for (int r = ty; r < kTile; r += kRows) {
      const int64_t ar = row0 + r, ak = k0 + tx, bk = k0 + r, bc = col0 + tx;
      ta[r][tx] = ar < g.M && ak < g.K ? a[ar * g.sa1 + ak * g.sa2] : T(0);
      tb[r][tx] = bk < g.K && bc < g.N ? b[bk * g.sb1 + bc * g.sb2] : T(0);
    }
    __syncthreads();
    for (int k = 0; k < kTile; ++k) {
      const acc_t bv = tb[k][tx];
      for (int i = 0; i < kTile / kRows; ++i) acc[i] += acc_t(ta[ty + i * kRows][k]) * bv;
    }
    __syncthreads();
  }
  const int64_t col = col0 + tx;
  if (col >= g.N) return;
  for (int i = 0; i < kTile / kRows; ++i) {
    const int64_t row = row0 + ty + i * kRows;
    if (row >= g.M) continue;
    T* out = g.c + (batch * g.M + row) * g.N + col;
    *out = T(acc_t(g.alpha) * acc[i] + (g.beta == T(0) ? acc_t(0) : acc_t(g.beta) * acc_t(*out)));
  }
}

void gemm_kernel(const th::Tensor& a, const th::Tensor& b, const th::Tensor& c, const th::Scalar& alpha,
                 const th::Scalar& beta) {
  DeviceGuard guard(a.device());
  TH_DISPATCH_NUMERIC_TYPES(a.dtype(), "addmm_cuda", [&] {
    GemmArgs<scalar_t> g{reinterpret_cast<const scalar_t*>(a.data_ptr()),
                         reinterpret_cast<const scalar_t*>(b.data_ptr()),
                         reinterpret_cast<scalar_t*>(c.data_ptr()),
                         a.size(1),
                         b.size(2),
                         a.size(2),
                         a.stride(0),
                         a.stride(1),
                         a.stride(2),
                         b.stride(0),
                         b.stride(1),
                         b.stride(2),
                         alpha.to<scalar_t>(),
                         beta.to<scalar_t>()};
    TH_CHECK(a.size(0) <= 65535, "bmm: at most 65535 batches on CUDA, got ", a.size(0));
    dim3 grid(unsigned((g.N + kTile - 1) / kTile), unsigned((g.M + kTile - 1) / kTile), unsigned(a.size(0)));
    gemm_tiled<scalar_t><<<grid, dim3(kTile, kRows)>>>(g);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::gemm_stub, CUDA, gemm_kernel);

}  // namespace thc
