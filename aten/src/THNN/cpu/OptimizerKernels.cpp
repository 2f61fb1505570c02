// CPU kernels of the optimizer family: the elements of all parameters of a group in parallel, as one range
// (math/Optimizer.h).
#include <algorithm>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/Optimizer.h"

namespace th {
namespace {

template <typename T>
T* ptr(const Tensor& t) {
  return reinterpret_cast<T*>(t.data_ptr());
}

/// f(i, lo, hi) over the elements of every tensor of `ts` as one range split between the threads (one
/// parallel region per step, not one per parameter: a model has many small ones).
template <typename F>
void parallel_over(const std::vector<Tensor>& ts, const F& f) {
  std::vector<int64_t> start(ts.size() + 1, 0);
  for (size_t i = 0; i < ts.size(); ++i) start[i + 1] = start[i] + ts[i].numel();
  parallel_for(start.back(), kGrainSize / 4, [&](int64_t begin, int64_t end) {
    size_t i = size_t(std::upper_bound(start.begin(), start.end(), begin) - start.begin()) - 1;
    for (; i < ts.size() && start[i] < end; ++i) {
      const int64_t lo = std::max(begin, start[i]) - start[i], hi = std::min(end, start[i + 1]) - start[i];
      if (lo < hi) f(i, lo, hi);
    }
  });
}

/// Adam over [lo, hi) of one parameter; restrict pointers and amsgrad known at compile time, so the loop
/// vectorizes.
template <typename T, bool kAmsgrad>
void adam_range(T* __restrict p, const T* __restrict g, T* __restrict m, T* __restrict v, T* __restrict vmax,
                int64_t lo, int64_t hi, const math::AdamStep& s) {
  for (int64_t k = lo; k < hi; ++k)
    math::adam_element(p[k], g[k], m[k], v[k], kAmsgrad ? vmax + k : nullptr, s);
}

void adam_kernel(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                 const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                 const std::vector<Tensor>& max_exp_avg_sqs, const math::AdamStep& s) {
  TH_DISPATCH_FLOATING_TYPES(params[0].dtype(), "fused_adam_cpu", [&] {
    parallel_over(params, [&](size_t i, int64_t lo, int64_t hi) {
      scalar_t *p = ptr<scalar_t>(params[i]), *g = ptr<scalar_t>(grads[i]), *m = ptr<scalar_t>(exp_avgs[i]),
               *v = ptr<scalar_t>(exp_avg_sqs[i]);
      if (s.amsgrad)
        adam_range<scalar_t, true>(p, g, m, v, ptr<scalar_t>(max_exp_avg_sqs[i]), lo, hi, s);
      else
        adam_range<scalar_t, false>(p, g, m, v, nullptr, lo, hi, s);
    });
  });
}

/// SGD over [lo, hi) of one parameter (momentum buffer `b` or none), vectorizable as adam_range.
template <typename T, bool kMomentum>
void sgd_range(T* __restrict p, const T* __restrict g, T* __restrict b, int64_t lo, int64_t hi,
               const math::SgdStep& s) {
  for (int64_t k = lo; k < hi; ++k) math::sgd_element(p[k], g[k], kMomentum ? b + k : nullptr, s);
}

void sgd_kernel(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                const std::vector<Tensor>& momentum_buffers, const math::SgdStep& s) {
  TH_DISPATCH_FLOATING_TYPES(params[0].dtype(), "fused_sgd_cpu", [&] {
    parallel_over(params, [&](size_t i, int64_t lo, int64_t hi) {
      scalar_t *p = ptr<scalar_t>(params[i]), *g = ptr<scalar_t>(grads[i]);
      if (momentum_buffers.empty())
        sgd_range<scalar_t, false>(p, g, nullptr, lo, hi, s);
      else
        sgd_range<scalar_t, true>(p, g, ptr<scalar_t>(momentum_buffers[i]), lo, hi, s);
    });
  });
}

/// Optimizer K over [lo, hi) of one parameter, restrict pointers so the loop vectorizes.
template <math::FusedOptimizer K, typename T>
void fused_range(T* __restrict p, const T* __restrict g, T* __restrict s1, T* __restrict s2, T* __restrict s3,
                 int64_t lo, int64_t hi, const math::FusedStep& s) {
  for (int64_t k = lo; k < hi; ++k)
    math::fused_element<K>(p[k], g[k], s1 ? s1 + k : nullptr, s2 ? s2 + k : nullptr, s3 ? s3 + k : nullptr,
                           s);
}

void fused_step_kernel(math::FusedOptimizer kind, const std::vector<Tensor>& params,
                       const std::vector<Tensor>& grads, const std::vector<Tensor>& s1,
                       const std::vector<Tensor>& s2, const std::vector<Tensor>& s3,
                       const math::FusedStep& s) {
  TH_DISPATCH_FLOATING_TYPES(params[0].dtype(), "fused_step_cpu", [&] {
    math::with_fused_optimizer(kind, [&](auto k) {
      parallel_over(params, [&](size_t i, int64_t lo, int64_t hi) {
        const auto state = [&](const std::vector<Tensor>& list) {
          return list.empty() ? nullptr : ptr<scalar_t>(list[i]);
        };
        fused_range<decltype(k)::value, scalar_t>(ptr<scalar_t>(params[i]), ptr<scalar_t>(grads[i]),
                                                  state(s1), state(s2), state(s3), lo, hi, s);
      });
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(adam_stub, CPU, adam_kernel);
TH_REGISTER_KERNEL(fused_step_stub, CPU, fused_step_kernel);
TH_REGISTER_KERNEL(sgd_stub, CPU, sgd_kernel);

}  // namespace th
