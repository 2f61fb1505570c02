// CPU kernels of the reductions: the math/Reduce.h reducers over the iterator (the output has
// stride 0 along reduced dims and holds the identity on entry), and row-wise max/min with indices.
#include "../Kernels.h"
#include "Loops.h"

namespace th {
namespace {

template <typename T, typename R>
void reduce_loop(TensorIterator& iter, R r) {
  using acc = typename R::acc;
  iter.for_each([r](char** data, const int64_t* strides, int64_t n) {
    const char* in = data[1];
    if (strides[0] == 0) {  // the inner dim is reduced: one accumulator for the row
      T* out = reinterpret_cast<T*>(data[0]);
      acc a = acc(*out);
      for (int64_t k = 0; k < n; ++k) a = r(a, *reinterpret_cast<const T*>(in + k * strides[1]));
      *out = T(a);
    } else {
      for (int64_t k = 0; k < n; ++k) {
        T* o = reinterpret_cast<T*>(data[0] + k * strides[0]);
        *o = T(r(acc(*o), *reinterpret_cast<const T*>(in + k * strides[1])));
      }
    }
  });
}

void reduce_kernel(TensorIterator& iter, math::ReduceOp op) {
  TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "reduce_cpu", [&] {
    math::with_reducer<scalar_t>(op, [&](auto r) { reduce_loop<scalar_t>(iter, r); });
  });
}

void argreduce_kernel(const Tensor& rows, Tensor& values, Tensor& indices, bool is_max) {
  TH_DISPATCH_ALL_TYPES(rows.dtype(), "argreduce_cpu", [&] {
    const int64_t R = rows.sizes()[0], n = rows.sizes()[1];
    const auto* in = reinterpret_cast<const scalar_t*>(rows.data_ptr());
    auto* val = reinterpret_cast<scalar_t*>(values.data_ptr());
    auto* idx = reinterpret_cast<int64_t*>(indices.data_ptr());
    for (int64_t r = 0; r < R; ++r) {
      const scalar_t* row = in + r * n;
      int64_t best = 0;
      for (int64_t k = 1; k < n; ++k) {
        if (math::better(row[k], row[best], is_max)) best = k;
      }
      val[r] = row[best];
      idx[r] = best;
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(reduce_stub, CPU, reduce_kernel);
TH_REGISTER_KERNEL(argreduce_stub, CPU, argreduce_kernel);

}  // namespace th
