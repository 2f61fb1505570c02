// empty / zeros / ones / full.
#include "../Functions.h"

namespace th {

Tensor empty(const IntList& size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return empty_tensor(size, dtype.value_or(get_default_dtype()), device.value_or(Device()));
}

Tensor zeros(const IntList& size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return full(size, Scalar(int64_t(0)), dtype.value_or(get_default_dtype()), device);
}

Tensor ones(const IntList& size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return full(size, Scalar(int64_t(1)), dtype.value_or(get_default_dtype()), device);
}

Tensor full(const IntList& size, const Scalar& fill_value, std::optional<ScalarType> dtype,
            std::optional<Device> device) {
  // like PyTorch: the dtype follows the fill value (bool, int64, or the default float)
  ScalarType inferred = fill_value.is_floating_point() ? get_default_dtype() : fill_value.type();
  Tensor t = empty(size, dtype.value_or(inferred), device);
  return fill_(t, fill_value);
}

}  // namespace th
