// CUDA batched gemm. With cuBLAS (its wheel installed: cmake/TorchCUDALibs.cmake) the float products
// (float32 on TF32 tensor cores when torch.backends.cuda.matmul.allow_tf32, float16/bfloat16 accumulating
// in float32, float64) are one cublasGemmStridedBatchedEx; the integer dtypes, strides BLAS cannot
// express and sizes past int32 run THC's own kernel: 32x32 output tiles staged through shared memory,
// any input strides, one z-block per batch, accumulating in the math/ accumulate type.
#include <TH/ops/Linear.h>

#include <climits>
#include <optional>

#include "Cublas.h"
#include "DeviceGuard.h"
#include "Exception.h"
#include "LazyLibrary.h"
#include "Stream.h"

#ifdef THC_HAVE_CUBLAS
#include <TH/MatmulPrecision.h>
#endif

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

#ifdef THC_HAVE_CUBLAS
using GemmStridedBatchedEx = cublasStatus_t(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                            int, const void*, const void*, cudaDataType, int, long long,
                                            const void*, cudaDataType, int, long long, const void*, void*,
                                            cudaDataType, int, long long, int, cublasComputeType_t,
                                            cublasGemmAlgo_t);

/// How BLAS sees a [rows, cols] matrix with these strides, in column-major terms: `transposed` false
/// when it is row-major (its column-major view is the [cols, rows] transpose, leading dimension the
/// row stride), true when it is column-major. None when neither holds (the caller falls back).
struct BlasLayout {
  bool transposed;
  int64_t ld;
};
std::optional<BlasLayout> blas_layout(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
  if (col_stride == 1 || cols == 1) {
    const int64_t ld = rows == 1 ? std::max<int64_t>(cols, 1) : row_stride;
    if (ld >= std::max<int64_t>(cols, 1)) return BlasLayout{false, ld};
  }
  if (row_stride == 1 || rows == 1) {
    const int64_t ld = cols == 1 ? std::max<int64_t>(rows, 1) : col_stride;
    if (ld >= std::max<int64_t>(rows, 1)) return BlasLayout{true, ld};
  }
  return std::nullopt;
}

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

/// c = alpha a @ b + beta c through cuBLAS for the float dtypes; false where it does not apply (the
/// caller runs THC's kernel). Row-major C = A B is column-major C^T = B^T A^T: cuBLAS's first operand
/// is b, its second a.
bool cublas_gemm(const th::Tensor& a, const th::Tensor& b, const th::Tensor& c, const th::Scalar& alpha,
                 const th::Scalar& beta) {
  if (!cublas().available()) return false;  // the wheel is gone since the build: THC's kernel
  cudaDataType_t type;
  cublasComputeType_t compute;
  const bool tf32 = th::float32_matmul_precision() != th::MatmulPrecision::Highest;
  switch (a.dtype()) {
    case th::ScalarType::Float:
      type = CUDA_R_32F, compute = tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
      break;
    case th::ScalarType::Double: type = CUDA_R_64F, compute = CUBLAS_COMPUTE_64F; break;
    case th::ScalarType::Half: type = CUDA_R_16F, compute = CUBLAS_COMPUTE_32F; break;
    case th::ScalarType::BFloat16: type = CUDA_R_16BF, compute = CUBLAS_COMPUTE_32F; break;
    default: return false;
  }
  const int64_t batch = a.size(0), M = a.size(1), K = a.size(2), N = b.size(2);
  const auto la = blas_layout(M, K, a.stride(1), a.stride(2));
  const auto lb = blas_layout(K, N, b.stride(1), b.stride(2));
  if (!la || !lb) return false;
  if (!fits_int(M) || !fits_int(N) || !fits_int(K) || !fits_int(batch) || !fits_int(la->ld) ||
      !fits_int(lb->ld))
    return false;
  const int64_t sa = batch == 1 ? 0 : a.stride(0), sb = batch == 1 ? 0 : b.stride(0);
  cublasHandle_t handle = cublas_handle_on_stream();
  static auto* gemm = cublas().function<GemmStridedBatchedEx>("cublasGemmStridedBatchedEx");
  const cublasOperation_t op_b = lb->transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = la->transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const auto run = [&](const void* al, const void* be) {
    cublas_check(gemm(handle, op_b, op_a, int(N), int(M), int(K), al, b.data_ptr(), type, int(lb->ld), sb,
                      a.data_ptr(), type, int(la->ld), sa, be, c.data_ptr(), type, int(N), M * N, int(batch),
                      compute, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmStridedBatchedEx");
  };
  if (compute == CUBLAS_COMPUTE_64F) {  // alpha and beta in the compute type
    const double al = alpha.to<double>(), be = beta.to<double>();
    run(&al, &be);
  } else {
    const float al = alpha.to<float>(), be = beta.to<float>();
    run(&al, &be);
  }
  return true;
}
#endif

void gemm_kernel(const th::Tensor& a, const th::Tensor& b, const th::Tensor& c, const th::Scalar& alpha,
                 const th::Scalar& beta) {
  DeviceGuard guard(a.device());
#ifdef THC_HAVE_CUBLAS
  if (cublas_gemm(a, b, c, alpha, beta)) return;
#endif
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
    gemm_tiled<scalar_t><<<grid, dim3(kTile, kRows), 0, thc::current_stream()>>>(g);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

bool cublas_available() {
#ifdef THC_HAVE_CUBLAS
  return cublas().available();
#else
  return false;
#endif
}

TH_REGISTER_KERNEL(th::gemm_stub, CUDA, gemm_kernel);

}  // namespace thc
