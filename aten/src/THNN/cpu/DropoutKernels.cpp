// CPU kernel of the dropout family: each element's Philox draw, mask and value (math/Dropout.h), elements in
// parallel.
#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../math/Dropout.h"
#include "../ops/Dropout.h"

namespace th {
namespace {

void dropout_kernel(const Tensor& x, const Tensor& out, const Tensor& mask, double p, double scale,
                    uint64_t seed, uint64_t offset) {
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "native_dropout_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* in = reinterpret_cast<const scalar_t*>(x.data_ptr());
    auto* o = reinterpret_cast<scalar_t*>(out.data_ptr());
    auto* m = reinterpret_cast<bool*>(mask.data_ptr());
    parallel_for(x.numel(), 4096, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const bool keep = math::dropout_keep(seed, offset, i, p);
        m[i] = keep;
        o[i] = scalar_t(math::dropout_value(A(in[i]), keep, A(scale)));
      }
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(dropout_stub, CPU, dropout_kernel);

}  // namespace th
