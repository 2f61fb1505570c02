// CPU kernels of the softmax family: math/Softmax.h along each line, lines in parallel. Rows along the
// last dim (inner == 1) are contiguous; otherwise a line is strided by `inner`. float32 takes the
// explicitly vectorized exp, max and sum (TH/cpu/VecKernels.h): a row at a time along the last dim, a
// block of columns at a time along an inner dim (so that every pass reads memory in order).
#include <algorithm>
#include <cmath>
#include <vector>

#include <TH/cpu/VecKernels.h>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../math/Softmax.h"
#include "../ops/Softmax.h"

namespace th {
namespace {

/// Calls line(offset of the line's first element) for each of the outer * inner lines, in parallel.
template <typename F>
void for_each_line(int64_t outer, int64_t n, int64_t inner, const F& line) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1));
  parallel_for(outer * inner, grain, [&](int64_t begin, int64_t end) {
    for (int64_t l = begin; l < end; ++l) line((l / inner) * n * inner + l % inner);
  });
}

using cpu::VecReduce;
using cpu::VecUnary;

/// float rows of n along the last dim: max, exp(x - max) (vectorized), its sum (in double), then scale. Short
/// rows (an attention's scores) go a block of rows at a time through one exp call, so that the call's setup
/// and tail are paid per block, not per row.
void softmax_rows_float(const float* src, float* dst, int64_t rows, int64_t n, bool log) {
  const cpu::vec_unary_fn vexp = cpu::vec_unary();
  const cpu::vec_reduce_fn vreduce = cpu::vec_reduce();
  const int64_t per_block = std::max<int64_t>(1, 2048 / std::max<int64_t>(n, 1));  // rows an exp call takes
  parallel_for(rows, std::max<int64_t>(1, kGrainSize / n), [&](int64_t begin, int64_t end) {
    std::vector<float> buf(log ? size_t(std::min(per_block, end - begin) * n) : 0);
    std::vector<float> m(static_cast<size_t>(per_block));
    for (int64_t r0 = begin; r0 < end; r0 += per_block) {
      const int64_t count = std::min(per_block, end - r0);
      const float* x = src + r0 * n;
      float* y = dst + r0 * n;
      float* e = log ? buf.data() : y;
      for (int64_t r = 0; r < count; ++r) {
        m[size_t(r)] = float(vreduce(VecReduce::Max, x + r * n, n));  // NaN propagates: the row becomes NaN
        for (int64_t k = 0; k < n; ++k) e[r * n + k] = x[r * n + k] - m[size_t(r)];
      }
      vexp(VecUnary::Exp, e, e, count * n);
      for (int64_t r = 0; r < count; ++r) {
        const double s = vreduce(VecReduce::Sum, e + r * n, n);
        if (log) {
          // (x - max) - log(sum), as upstream: exact where max is large
          const float log_s = float(std::log(s));
          for (int64_t k = 0; k < n; ++k) y[r * n + k] = (x[r * n + k] - m[size_t(r)]) - log_s;
        } else {
          const float inv = float(1.0 / s);
          for (int64_t k = 0; k < n; ++k) y[r * n + k] *= inv;
        }
      }
    }
  });
}

/// float lines along a middle dim: per outer index, blocks of up to 1024 columns, each pass over the n
/// rows of the block reading in order (max, then exp and sum, then scale).
void softmax_columns_float(const float* src, float* dst, int64_t outer, int64_t n, int64_t inner, bool log) {
  constexpr int64_t kBlock = 1024;
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  const cpu::vec_unary_fn vexp = cpu::vec_unary();
  parallel_for(outer * blocks, std::max<int64_t>(1, kGrainSize / (n * kBlock)),
               [&](int64_t begin, int64_t end) {
                 std::vector<float> m(kBlock), s(kBlock);
                 for (int64_t b = begin; b < end; ++b) {
                   const int64_t o = b / blocks, i0 = (b % blocks) * kBlock, w = std::min(kBlock, inner - i0);
                   const float* x = src + o * n * inner + i0;
                   float* y = dst + o * n * inner + i0;
                   std::fill_n(m.data(), w, -INFINITY);
                   std::fill_n(s.data(), w, 0.0f);
                   for (int64_t k = 0; k < n; ++k) {
                     const float* xr = x + k * inner;
                     for (int64_t j = 0; j < w; ++j) m[j] = (xr[j] > m[j] || xr[j] != xr[j]) ? xr[j] : m[j];
                   }
                   for (int64_t k = 0; k < n; ++k) {
                     const float* xr = x + k * inner;
                     float* yr = y + k * inner;
                     for (int64_t j = 0; j < w; ++j) yr[j] = xr[j] - m[j];
                     vexp(VecUnary::Exp, yr, yr, w);
                     for (int64_t j = 0; j < w; ++j) s[j] += yr[j];
                   }
                   for (int64_t j = 0; j < w; ++j) s[j] = log ? std::log(s[j]) : 1.0f / s[j];
                   for (int64_t k = 0; k < n; ++k) {
                     const float* xr = x + k * inner;
                     float* yr = y + k * inner;
                     if (log) {
                       for (int64_t j = 0; j < w; ++j) yr[j] = (xr[j] - m[j]) - s[j];
                     } else {
                       for (int64_t j = 0; j < w; ++j) yr[j] *= s[j];
                     }
                   }
                 }
               });
}

void softmax_kernel(const Tensor& in, const Tensor& out, int64_t outer, int64_t n, int64_t inner, bool log) {
  if (in.dtype() == ScalarType::Float && cpu::vec_unary() && cpu::vec_reduce()) {
    const auto* src = reinterpret_cast<const float*>(in.data_ptr());
    auto* dst = reinterpret_cast<float*>(out.data_ptr());
    if (inner == 1) return softmax_rows_float(src, dst, outer, n, log);
    return softmax_columns_float(src, dst, outer, n, inner, log);
  }
  TH_DISPATCH_FLOATING_TYPES(in.dtype(), "softmax_cpu", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(in.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    for_each_line(outer, n, inner,
                  [&](int64_t at) { math::softmax_line(src + at, dst + at, n, inner, log); });
  });
}

/// The backward along a middle dim: per outer index, blocks of up to 1024 columns, two passes over the
/// block's n rows in order (the sums, then the gradient), as softmax_backward_line computes per line.
template <typename T>
void softmax_backward_columns(const T* g, const T* y, T* gi, int64_t outer, int64_t n, int64_t inner,
                              bool log) {
  using A = opmath_t<T>;
  constexpr int64_t kBlock = 1024;
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  parallel_for(outer * blocks, std::max<int64_t>(1, kGrainSize / (n * kBlock)),
               [&](int64_t begin, int64_t end) {
                 std::vector<A> s(kBlock);
                 for (int64_t b = begin; b < end; ++b) {
                   const int64_t o = b / blocks, i0 = (b % blocks) * kBlock, w = std::min(kBlock, inner - i0);
                   const int64_t base = o * n * inner + i0;
                   std::fill_n(s.data(), w, A(0));
                   for (int64_t k = 0; k < n; ++k) {
                     const T* gr = g + base + k * inner;
                     const T* yr = y + base + k * inner;
                     for (int64_t j = 0; j < w; ++j) s[j] += log ? A(gr[j]) : A(gr[j]) * A(yr[j]);
                   }
                   for (int64_t k = 0; k < n; ++k) {
                     const T* gr = g + base + k * inner;
                     const T* yr = y + base + k * inner;
                     T* out = gi + base + k * inner;
                     for (int64_t j = 0; j < w; ++j)
                       out[j] = T(log ? A(gr[j]) - std::exp(A(yr[j])) * s[j] : A(yr[j]) * (A(gr[j]) - s[j]));
                   }
                 }
               });
}

/// float rows along the last dim: the sum (vectorized), exp(y) vectorized for log_softmax, then one pass.
void softmax_backward_rows_float(const float* g, const float* y, float* gi, int64_t rows, int64_t n,
                                 bool log) {
  const cpu::vec_unary_fn vexp = cpu::vec_unary();
  const cpu::vec_reduce_fn vreduce = cpu::vec_reduce();
  parallel_for(rows, std::max<int64_t>(1, kGrainSize / n), [&](int64_t begin, int64_t end) {
    std::vector<float> buf(static_cast<size_t>(n));
    for (int64_t r = begin; r < end; ++r) {
      const float* gr = g + r * n;
      const float* yr = y + r * n;
      float* out = gi + r * n;
      if (log) {
        const float s = float(vreduce(VecReduce::Sum, gr, n));
        vexp(VecUnary::Exp, yr, buf.data(), n);
        for (int64_t k = 0; k < n; ++k) out[k] = gr[k] - buf[size_t(k)] * s;
      } else {
        for (int64_t k = 0; k < n; ++k) buf[size_t(k)] = gr[k] * yr[k];
        const float s = float(vreduce(VecReduce::Sum, buf.data(), n));
        for (int64_t k = 0; k < n; ++k) out[k] = yr[k] * (gr[k] - s);
      }
    }
  });
}

void softmax_backward_kernel(const Tensor& grad, const Tensor& out, const Tensor& grad_in, int64_t outer,
                             int64_t n, int64_t inner, bool log) {
  if (inner == 1 && out.dtype() == ScalarType::Float && cpu::vec_unary() && cpu::vec_reduce()) {
    return softmax_backward_rows_float(reinterpret_cast<const float*>(grad.data_ptr()),
                                       reinterpret_cast<const float*>(out.data_ptr()),
                                       reinterpret_cast<float*>(grad_in.data_ptr()), outer, n, log);
  }
  TH_DISPATCH_FLOATING_TYPES(out.dtype(), "softmax_backward_cpu", [&] {
    const auto* g = reinterpret_cast<const scalar_t*>(grad.data_ptr());
    const auto* y = reinterpret_cast<const scalar_t*>(out.data_ptr());
    auto* gi = reinterpret_cast<scalar_t*>(grad_in.data_ptr());
    if (inner > 1) return softmax_backward_columns(g, y, gi, outer, n, inner, log);
    for_each_line(outer, n, inner,
                  [&](int64_t at) { math::softmax_backward_line(g + at, y + at, gi + at, n, inner, log); });
  });
}

}  // namespace

TH_REGISTER_KERNEL(softmax_stub, CPU, softmax_kernel);
TH_REGISTER_KERNEL(softmax_backward_stub, CPU, softmax_backward_kernel);

}  // namespace th
