// CPU kernels of the normalization family: layer_norm rows in parallel (math/Normalization.h); the
// backward's weight and bias gradients sum over rows, in one partial sum per chunk of rows, added up after.
#include <algorithm>
#include <cmath>
#include <vector>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../math/Normalization.h"
#include "../ops/Normalization.h"

namespace th {
namespace {

template <typename T>
const T* ptr_or_null(const Tensor& t) {
  return t.defined() ? reinterpret_cast<const T*>(t.data_ptr()) : nullptr;
}

void layer_norm_kernel(const Tensor& x, const Tensor& weight, const Tensor& bias, double eps, const Tensor& y,
                       const Tensor& mean, const Tensor& rstd, int64_t N, int64_t M) {
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "LayerNormKernelImpl", [&] {
    using A = opmath_t<scalar_t>;
    const auto* xp = reinterpret_cast<const scalar_t*>(x.data_ptr());
    auto* yp = reinterpret_cast<scalar_t*>(y.data_ptr());
    auto* mp = reinterpret_cast<A*>(mean.data_ptr());
    auto* rp = reinterpret_cast<A*>(rstd.data_ptr());
    const scalar_t* w = ptr_or_null<scalar_t>(weight);
    const scalar_t* b = ptr_or_null<scalar_t>(bias);
    parallel_for(N, std::max<int64_t>(1, kGrainSize / M), [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r)
        math::layer_norm_row(xp + r * M, yp + r * M, M, w, b, eps, mp[r], rp[r]);
    });
  });
}

void layer_norm_backward_kernel(const Tensor& dy, const Tensor& x, const Tensor& mean, const Tensor& rstd,
                                const Tensor& weight, const Tensor& dx, const Tensor& dweight,
                                const Tensor& dbias, int64_t N, int64_t M) {
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "LayerNormBackwardKernelImpl", [&] {
    using A = opmath_t<scalar_t>;
    const auto* g = reinterpret_cast<const scalar_t*>(dy.data_ptr());
    const auto* xp = reinterpret_cast<const scalar_t*>(x.data_ptr());
    const auto* mp = reinterpret_cast<const A*>(mean.data_ptr());
    const auto* rp = reinterpret_cast<const A*>(rstd.data_ptr());
    const scalar_t* w = ptr_or_null<scalar_t>(weight);
    auto* dxp = reinterpret_cast<scalar_t*>(dx.data_ptr());
    parallel_for(N, std::max<int64_t>(1, kGrainSize / M), [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r)
        math::layer_norm_backward_row(g + r * M, xp + r * M, M, w, mp[r], rp[r], dxp + r * M);
    });
    if (!dweight.defined() && !dbias.defined()) return;
    const int64_t chunks = std::min<int64_t>(N, std::max(1, get_num_threads()));
    std::vector<A> dw(size_t(chunks * M), A(0)), db(size_t(chunks * M), A(0));
    parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c) {
        A* pw = dw.data() + c * M;
        A* pb = db.data() + c * M;
        for (int64_t r = c * N / chunks; r < (c + 1) * N / chunks; ++r) {
          for (int64_t k = 0; k < M; ++k) {
            const A gk = A(g[r * M + k]);
            pw[k] += gk * (A(xp[r * M + k]) - mp[r]) * rp[r];
            pb[k] += gk;
          }
        }
      }
    });
    for (int64_t c = 1; c < chunks; ++c)
      for (int64_t k = 0; k < M; ++k) {
        dw[size_t(k)] += dw[size_t(c * M + k)];
        db[size_t(k)] += db[size_t(c * M + k)];
      }
    if (dweight.defined()) {
      auto* out = reinterpret_cast<scalar_t*>(dweight.data_ptr());
      for (int64_t k = 0; k < M; ++k) out[k] = scalar_t(dw[size_t(k)]);
    }
    if (dbias.defined()) {
      auto* out = reinterpret_cast<scalar_t*>(dbias.data_ptr());
      for (int64_t k = 0; k < M; ++k) out[k] = scalar_t(db[size_t(k)]);
    }
  });
}

void batch_norm_kernel(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& mean,
                       const Tensor& var, bool batch_stats, double eps, const Tensor& y, int64_t N, int64_t C,
                       int64_t L) {
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "batch_norm_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* xp = reinterpret_cast<const scalar_t*>(x.data_ptr());
    auto* yp = reinterpret_cast<scalar_t*>(y.data_ptr());
    auto* mp = reinterpret_cast<A*>(mean.data_ptr());
    auto* vp = reinterpret_cast<A*>(var.data_ptr());
    const scalar_t* w = ptr_or_null<scalar_t>(weight);
    const scalar_t* b = ptr_or_null<scalar_t>(bias);
    parallel_for(C, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(N * L, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t c = begin; c < end; ++c) {
                     if (batch_stats) math::batch_norm_channel_stats(xp, N, C, L, c, mp[c], vp[c]);
                     const A invstd = A(1) / std::sqrt(vp[c] + A(eps));
                     math::batch_norm_channel_apply(xp, yp, N, C, L, c, mp[c], invstd, w, b);
                   }
                 });
  });
}

void batch_norm_backward_kernel(const Tensor& dy, const Tensor& x, const Tensor& mean, const Tensor& var,
                                const Tensor& weight, bool batch_stats, double eps, const Tensor& dx,
                                const Tensor& dweight, const Tensor& dbias, int64_t N, int64_t C, int64_t L) {
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "batch_norm_backward_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* g = reinterpret_cast<const scalar_t*>(dy.data_ptr());
    const auto* xp = reinterpret_cast<const scalar_t*>(x.data_ptr());
    const auto* mp = reinterpret_cast<const A*>(mean.data_ptr());
    const auto* vp = reinterpret_cast<const A*>(var.data_ptr());
    const scalar_t* w = ptr_or_null<scalar_t>(weight);
    auto* dxp = reinterpret_cast<scalar_t*>(dx.data_ptr());
    auto* dwp = dweight.defined() ? reinterpret_cast<scalar_t*>(dweight.data_ptr()) : nullptr;
    auto* dbp = dbias.defined() ? reinterpret_cast<scalar_t*>(dbias.data_ptr()) : nullptr;
    parallel_for(
        C, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(N * L, 1)), [&](int64_t begin, int64_t end) {
          for (int64_t c = begin; c < end; ++c)
            math::batch_norm_channel_backward(g, xp, N, C, L, c, mp[c], A(1) / std::sqrt(vp[c] + A(eps)), w,
                                              batch_stats, dxp, dwp, dbp);
        });
  });
}

}  // namespace

TH_REGISTER_KERNEL(batch_norm_stub, CPU, batch_norm_kernel);
TH_REGISTER_KERNEL(batch_norm_backward_stub, CPU, batch_norm_backward_kernel);
TH_REGISTER_KERNEL(layer_norm_stub, CPU, layer_norm_kernel);
TH_REGISTER_KERNEL(layer_norm_backward_stub, CPU, layer_norm_backward_kernel);

}  // namespace th
