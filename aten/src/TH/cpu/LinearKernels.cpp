// CPU batched gemm: OpenBLAS (the scipy-openblas32 wheel's symbols, prefixed scipy_) for
// float and double, a cache-friendly loop for the integer types (as PyTorch, which has no
// BLAS for them either).
#include <cblas.h>

#include <algorithm>
#include <vector>

#include "../Parallel.h"
#include "../ops/Linear.h"

namespace th {
namespace {

/// How BLAS can read one [rows, cols] operand with element strides (s0, s1): row-major with a
/// leading dimension, transposed, or not at all (then it is packed first).
struct BlasView {
  bool ok = false;
  CBLAS_TRANSPOSE trans = CblasNoTrans;
  int64_t ld = 0;
};

BlasView blas_view(int64_t rows, int64_t cols, int64_t s0, int64_t s1) {
  if (s1 == 1 || cols == 1) {
    const int64_t ld = rows == 1 ? std::max<int64_t>(cols, 1) : s0;
    if (ld >= std::max<int64_t>(cols, 1)) return {true, CblasNoTrans, ld};
  }
  if (s0 == 1 || rows == 1) {
    const int64_t ld = cols == 1 ? std::max<int64_t>(rows, 1) : s1;
    if (ld >= std::max<int64_t>(rows, 1)) return {true, CblasTrans, ld};
  }
  return {};
}

template <typename T>
void blas_gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int64_t M, int64_t N, int64_t K, T alpha, const T* a,
               int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) {
    scipy_cblas_sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a, lda, b, ldb, beta, c, ldc);
  } else {
    scipy_cblas_dgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

/// Products whose C has at most this many elements may split their K among the threads (each thread's
/// partial C is then added up: worth it only while C is small next to the work).
constexpr int64_t kMaxSplitK = int64_t(1) << 14;

/// blas_gemm of a small C over a long K (a convolution's weight gradient: [O, rows] summed over every
/// output position of the batch) on the intra-op threads: thread t multiplies its slice of K into its own
/// partial C (thread 0 into C itself, with beta), and the partials are added to C in thread order
/// (deterministic for a thread count).
template <typename T>
void blas_gemm_split_k(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int64_t M, int64_t N, int64_t K, T alpha,
                       const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc,
                       int64_t blocks) {
  std::vector<T> partial(size_t((blocks - 1) * M * N));
  parallel_for(blocks, 0, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t lo = K * t / blocks, hi = K * (t + 1) / blocks;
      const T* at = a + (ta == CblasNoTrans ? lo : lo * lda);  // A[:, lo:hi]
      const T* bt = b + (tb == CblasNoTrans ? lo * ldb : lo);  // B[lo:hi, :]
      if (t == 0) {
        blas_gemm<T>(ta, tb, M, N, hi - lo, alpha, at, lda, bt, ldb, beta, c, ldc);
      } else {
        blas_gemm<T>(ta, tb, M, N, hi - lo, alpha, at, lda, bt, ldb, T(0), partial.data() + (t - 1) * M * N,
                     N);
      }
    }
  });
  for (int64_t t = 1; t < blocks; ++t)
    for (int64_t i = 0; i < M; ++i) {
      const T* p = partial.data() + ((t - 1) * M + i) * N;
      T* ci = c + i * ldc;
      for (int64_t j = 0; j < N; ++j) ci[j] += p[j];
    }
}

/// blas_gemm over the intra-op threads: C split into column (or row) blocks, one single-threaded
/// BLAS call each. OpenBLAS's own threads scale poorly on the small products of training loops, and
/// between calls they spin, competing with the intra-op pool; so OpenBLAS runs single-threaded
/// (set when TH loads) and the blocks are ours.
constexpr int64_t kMinBlock = 32, kMinWork = int64_t(1) << 18;  // multiply-adds worth a thread

template <typename T>
void blas_gemm_parallel(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int64_t M, int64_t N, int64_t K, T alpha,
                        const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  const bool by_cols = N >= M;
  const int64_t len = by_cols ? N : M;
  const int64_t blocks = std::min<int64_t>({get_num_threads(), len / kMinBlock, M * N * K / kMinWork});
  if (blocks <= 1) {
    const int64_t k_blocks = std::min<int64_t>({get_num_threads(), K / kMinBlock, M * N * K / kMinWork});
    if (k_blocks > 1 && M * N <= kMaxSplitK)
      return blas_gemm_split_k<T>(ta, tb, M, N, K, alpha, a, lda, b, ldb, beta, c, ldc, k_blocks);
    return blas_gemm<T>(ta, tb, M, N, K, alpha, a, lda, b, ldb, beta, c, ldc);
  }
  parallel_for(blocks, 0, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t lo = len * t / blocks / 8 * 8,
                    hi = t + 1 == blocks ? len : len * (t + 1) / blocks / 8 * 8;
      if (by_cols) {  // C[:, lo:hi] = op(A) op(B)[:, lo:hi]
        const T* bt = b + (tb == CblasNoTrans ? lo : lo * ldb);
        blas_gemm<T>(ta, tb, M, hi - lo, K, alpha, a, lda, bt, ldb, beta, c + lo, ldc);
      } else {  // C[lo:hi, :] = op(A)[lo:hi, :] op(B)
        const T* at = a + (ta == CblasNoTrans ? lo * lda : lo);
        blas_gemm<T>(ta, tb, hi - lo, N, K, alpha, at, lda, b, ldb, beta, c + lo * ldc, ldc);
      }
    }
  });
}

[[maybe_unused]] const bool openblas_single_threaded = [] {
  scipy_openblas_set_num_threads(1);
  return true;
}();

/// [rows, cols] operand at `p` with element strides (s0, s1), packed row-major into `buf` (as type O).
template <typename O, typename T>
const O* pack(const T* p, int64_t rows, int64_t cols, int64_t s0, int64_t s1, std::vector<O>& buf) {
  buf.resize(size_t(rows * cols));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) buf[size_t(i * cols + j)] = static_cast<O>(p[i * s0 + j * s1]);
  return buf.data();
}

template <typename T>
void gemm_blas(const Tensor& a, const Tensor& b, const Tensor& c, T alpha, T beta) {
  const int64_t B = a.size(0), M = a.size(1), K = a.size(2), N = b.size(2);
  const T* pa = reinterpret_cast<const T*>(a.data_ptr());
  const T* pb = reinterpret_cast<const T*>(b.data_ptr());
  T* pc = reinterpret_cast<T*>(c.data_ptr());
  const auto products = [&](int64_t begin, int64_t end) {
    std::vector<T> bufa, bufb;
    for (int64_t i = begin; i < end; ++i) {
      const T* ai = pa + i * a.stride(0);
      const T* bi = pb + i * b.stride(0);
      BlasView va = blas_view(M, K, a.stride(1), a.stride(2));
      BlasView vb = blas_view(K, N, b.stride(1), b.stride(2));
      if (!va.ok) ai = pack<T>(ai, M, K, a.stride(1), a.stride(2), bufa), va = {true, CblasNoTrans, K};
      if (!vb.ok) bi = pack<T>(bi, K, N, b.stride(1), b.stride(2), bufb), vb = {true, CblasNoTrans, N};
      blas_gemm_parallel<T>(va.trans, vb.trans, M, N, K, alpha, ai, va.ld, bi, vb.ld, beta, pc + i * M * N,
                            N);
    }
  };
  // a batch of products too small to split among the threads takes a share of the products per thread
  // (their BLAS calls then run single-threaded inside the parallel region); else one product after another,
  // each split
  if (B > 1 && M * N * K < kMinWork * get_num_threads())
    return parallel_for(B, kMinWork / std::max<int64_t>(M * N * K, 1), products);
  products(0, B);
}

/// float16 / bfloat16: each batch converted to float32, multiplied by sgemm, rounded once on the way back.
template <typename T>
void gemm_via_float(const Tensor& a, const Tensor& b, const Tensor& c, float alpha, float beta) {
  const int64_t B = a.size(0), M = a.size(1), K = a.size(2), N = b.size(2);
  const T* pa = reinterpret_cast<const T*>(a.data_ptr());
  const T* pb = reinterpret_cast<const T*>(b.data_ptr());
  T* pc = reinterpret_cast<T*>(c.data_ptr());
  std::vector<float> fa, fb, fc(size_t(M * N));
  for (int64_t i = 0; i < B; ++i) {
    pack<float>(pa + i * a.stride(0), M, K, a.stride(1), a.stride(2), fa);
    pack<float>(pb + i * b.stride(0), K, N, b.stride(1), b.stride(2), fb);
    T* ci = pc + i * M * N;
    for (int64_t k = 0; k < M * N; ++k) fc[size_t(k)] = beta == 0.f ? 0.f : static_cast<float>(ci[k]);
    blas_gemm_parallel<float>(CblasNoTrans, CblasNoTrans, M, N, K, alpha, fa.data(), K, fb.data(), N, beta,
                              fc.data(), N);
    for (int64_t k = 0; k < M * N; ++k) ci[k] = T(fc[size_t(k)]);
  }
}

template <typename T>
void gemm_loop(const Tensor& a, const Tensor& b, const Tensor& c, T alpha, T beta) {
  const int64_t B = a.size(0), M = a.size(1), K = a.size(2), N = b.size(2);
  const T* pa = reinterpret_cast<const T*>(a.data_ptr());
  const T* pb = reinterpret_cast<const T*>(b.data_ptr());
  T* pc = reinterpret_cast<T*>(c.data_ptr());
  const int64_t sa0 = a.stride(0), sa1 = a.stride(1), sa2 = a.stride(2);
  const int64_t sb0 = b.stride(0), sb1 = b.stride(1), sb2 = b.stride(2);
  parallel_for(B * M, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, N * K)),
               [&](int64_t lo, int64_t hi) {
                 std::vector<T> row(static_cast<size_t>(N));
                 for (int64_t r = lo; r < hi; ++r) {
                   const int64_t bi = r / M, i = r % M;
                   std::fill(row.begin(), row.end(), T(0));
                   for (int64_t k = 0; k < K; ++k) {  // i-k-j order: the inner loop streams a row of b
                     const T av = pa[bi * sa0 + i * sa1 + k * sa2];
                     const T* brow = pb + bi * sb0 + k * sb1;
                     for (int64_t j = 0; j < N; ++j) row[size_t(j)] += av * brow[j * sb2];
                   }
                   T* crow = pc + r * N;
                   for (int64_t j = 0; j < N; ++j)
                     crow[j] = T(alpha * row[size_t(j)] + (beta == T(0) ? T(0) : beta * crow[j]));
                 }
               });
}

void gemm_kernel(const Tensor& a, const Tensor& b, const Tensor& c, const Scalar& alpha, const Scalar& beta) {
  TH_DISPATCH_NUMERIC_TYPES(a.dtype(), "addmm_impl_cpu_", [&] {
    if constexpr (std::is_same_v<scalar_t, float> || std::is_same_v<scalar_t, double>) {
      gemm_blas<scalar_t>(a, b, c, alpha.to<scalar_t>(), beta.to<scalar_t>());
    } else if constexpr (is_floating_v<scalar_t>) {
      gemm_via_float<scalar_t>(a, b, c, alpha.to<float>(), beta.to<float>());
    } else {
      gemm_loop<scalar_t>(a, b, c, alpha.to<scalar_t>(), beta.to<scalar_t>());
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(gemm_stub, CPU, gemm_kernel);

}  // namespace th
