// sum over all or some dimensions.
#include "../Functions.h"
#include "../Kernels.h"

namespace th {

TH_DEFINE_STUB(reduce_fn, sum_stub);

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  return sum(self, std::nullopt, false, dtype);
}

Tensor sum(const Tensor& self, const std::optional<IntList>& dim, bool keepdim,
           std::optional<ScalarType> dtype) {
  // integers (and bool) sum into int64, as in PyTorch
  ScalarType out_dtype = dtype.value_or(is_integral(self.dtype(), true) ? ScalarType::Long : self.dtype());
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(Tensor())
                            .add_input(self)
                            .common_dtype(out_dtype)
                            .reduce(dim.value_or(IntList{}), keepdim)
                            .build();
  Tensor result = iter.output();
  fill_(result, Scalar(int64_t(0)));
  sum_stub[iter.device().type](iter);
  return result;
}

}  // namespace th
