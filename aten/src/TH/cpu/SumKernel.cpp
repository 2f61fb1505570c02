// CPU kernel of sum: accumulates into the output (stride 0 along reduced dims).
#include "../Kernels.h"
#include "../math/Binary.h"
#include "Loops.h"

namespace th {
namespace {

void sum_kernel(TensorIterator& iter) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "sum_cpu", [&] {
    using acc_t = typename math::acc_type<scalar_t>::type;
    iter.for_each([](char** data, const int64_t* strides, int64_t n) {
      auto* out = reinterpret_cast<scalar_t*>(data[0]);
      const char* in = data[1];
      if (strides[0] == 0) {  // the inner dim is reduced: one accumulator for the row
        acc_t acc = 0;
        for (int64_t k = 0; k < n; ++k) acc += *reinterpret_cast<const scalar_t*>(in + k * strides[1]);
        *out = static_cast<scalar_t>(*out + acc);
      } else {
        for (int64_t k = 0; k < n; ++k) {
          auto* o = reinterpret_cast<scalar_t*>(data[0] + k * strides[0]);
          *o = static_cast<scalar_t>(*o + *reinterpret_cast<const scalar_t*>(in + k * strides[1]));
        }
      }
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(sum_stub, CPU, sum_kernel);

}  // namespace th
