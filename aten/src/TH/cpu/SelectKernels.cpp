// CPU kernel of where: a ternary loop over the iterator.
#include "../ops/Select.h"
#include "Loops.h"

namespace th {
namespace {

void where_kernel(TensorIterator& iter) {
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(iter.common_dtype(), "where_cpu", [&] {
    using op_t = opmath_t<scalar_t>;
    cpu::cpu_kernel<scalar_t, 3>(iter, [](op_t c, op_t a, op_t b) { return c != op_t(0) ? a : b; });
  });
}

}  // namespace

TH_REGISTER_KERNEL(where_stub, CPU, where_kernel);

}  // namespace th
