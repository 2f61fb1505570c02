// CPU kernels of the attention family (math/Attention.h): query rows of every batch-head in parallel for the
// forward and for dq, key rows in parallel for dk and dv.
#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/Attention.h"

namespace th {
namespace {

template <typename T>
T* ptr(const Tensor& t) {
  return t.defined() ? reinterpret_cast<T*>(t.data_ptr()) : nullptr;
}

void attention_kernel(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                      const Tensor& acc, const Tensor& lse, const math::AttentionShape& a) {
  const int64_t BH = q.size(0);
  TH_DISPATCH_FLOATING_TYPES(q.dtype(), "attention_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const scalar_t *pq = ptr<scalar_t>(q), *pk = ptr<scalar_t>(k), *pv = ptr<scalar_t>(v),
                   *pm = ptr<scalar_t>(mask);
    A *pa = ptr<A>(acc), *pl = ptr<A>(lse);
    parallel_for(BH * a.L, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(a.S * (a.E + a.Ev), 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t r = begin; r < end; ++r) {
                     const int64_t b = r / a.L, i = r % a.L;
                     math::attention_forward_row<scalar_t, A>(
                         pq + b * a.L * a.E, pk + b * a.S * a.E, pv + b * a.S * a.Ev,
                         pm ? pm + b * a.mask_b : nullptr, pa + b * a.L * a.Ev, pl + b * a.L, a, i);
                   }
                 });
  });
}

void attention_backward_kernel(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                               const Tensor& out, const Tensor& dout, const Tensor& lse, const Tensor& D,
                               const Tensor& dq, const Tensor& dk, const Tensor& dv, const Tensor& dmask,
                               const math::AttentionShape& a) {
  const int64_t BH = q.size(0);
  TH_DISPATCH_FLOATING_TYPES(q.dtype(), "attention_backward_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const scalar_t *pq = ptr<scalar_t>(q), *pk = ptr<scalar_t>(k), *pv = ptr<scalar_t>(v),
                   *pm = ptr<scalar_t>(mask), *po = ptr<scalar_t>(out), *pg = ptr<scalar_t>(dout);
    const A* pl = ptr<A>(lse);
    A *pD = ptr<A>(D), *pdq = ptr<A>(dq), *pdk = ptr<A>(dk), *pdv = ptr<A>(dv);
    scalar_t* pdm = ptr<scalar_t>(dmask);
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(a.S * (a.E + a.Ev), 1));
    parallel_for(BH * a.L, grain, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t b = r / a.L, i = r % a.L;
        math::attention_backward_query_row<scalar_t, A>(
            pq + b * a.L * a.E, pk + b * a.S * a.E, pv + b * a.S * a.Ev, pm ? pm + b * a.mask_b : nullptr,
            po + b * a.L * a.Ev, pg + b * a.L * a.Ev, pl + b * a.L, pD + b * a.L, pdq + b * a.L * a.E,
            pdm ? pdm + b * a.L * a.S : nullptr, a, i);
      }
    });
    parallel_for(BH * a.S, grain, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t b = r / a.S, j = r % a.S;
        math::attention_backward_key_row<scalar_t, A>(
            pq + b * a.L * a.E, pk + b * a.S * a.E, pv + b * a.S * a.Ev, pm ? pm + b * a.mask_b : nullptr,
            pg + b * a.L * a.Ev, pl + b * a.L, pD + b * a.L, pdk + b * a.S * a.E, pdv + b * a.S * a.Ev, a, j);
      }
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(attention_stub, CPU, attention_kernel);
TH_REGISTER_KERNEL(attention_backward_stub, CPU, attention_backward_kernel);

}  // namespace th
