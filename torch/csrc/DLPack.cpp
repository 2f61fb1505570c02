// Sharing memory with other array libraries through nanobind's ndarray (DLPack underneath):
// Tensor.numpy() / torch.from_numpy, and the DLPack exchange behind Tensor.__dlpack__ and
// torch.from_dlpack (any dtype, CPU or CUDA memory).
#include <nanobind/ndarray.h>

#include <TH/Exception.h>

#include "bind.h"

namespace torch {
namespace {

constexpr auto kFloatCode = static_cast<uint8_t>(nb::dlpack::dtype_code::Float);
constexpr nb::dlpack::dtype kFloat16{kFloatCode, 16, 1};
constexpr nb::dlpack::dtype kBFloat16{static_cast<uint8_t>(nb::dlpack::dtype_code::Bfloat), 16, 1};
constexpr auto kComplexCode = static_cast<uint8_t>(nb::dlpack::dtype_code::Complex);

const std::pair<nb::dlpack::dtype, th::ScalarType> kDTypes[] = {
    {nb::dtype<bool>(), th::ScalarType::Bool},
    {nb::dtype<uint8_t>(), th::ScalarType::Byte},
    {nb::dtype<int8_t>(), th::ScalarType::Char},
    {nb::dtype<int16_t>(), th::ScalarType::Short},
    {nb::dtype<int32_t>(), th::ScalarType::Int},
    {nb::dtype<int64_t>(), th::ScalarType::Long},
    {nb::dtype<uint16_t>(), th::ScalarType::UInt16},
    {nb::dtype<uint32_t>(), th::ScalarType::UInt32},
    {nb::dtype<uint64_t>(), th::ScalarType::UInt64},
    {nb::dtype<float>(), th::ScalarType::Float},
    {nb::dtype<double>(), th::ScalarType::Double},
    {kFloat16, th::ScalarType::Half},
    {kBFloat16, th::ScalarType::BFloat16},
    {{kComplexCode, 64, 1}, th::ScalarType::ComplexFloat},
    {{kComplexCode, 128, 1}, th::ScalarType::ComplexDouble},
};

nb::dlpack::dtype to_dlpack(th::ScalarType t) {
  for (const auto& [dl, st] : kDTypes)
    if (st == t) return dl;
  throw th::TypeError(th::detail::str("Got unsupported ScalarType ", th::scalar_type_cpp_name(t)));
}

std::optional<th::ScalarType> from_dlpack(nb::dlpack::dtype d) {
  for (const auto& [dl, st] : kDTypes)
    if (dl == d) return st;
  return std::nullopt;
}

/// A tensor over the memory of `a` (kept alive by the storage); PyTorch's errors for what
/// tensors cannot view.
template <typename Array>
th::Tensor wrap(const Array& a, const char* unsupported_dtype) {
  const std::optional<th::ScalarType> dtype = from_dlpack(a.dtype());
  TH_CHECK_T(th::TypeError, dtype.has_value(), unsupported_dtype);
  th::Device device;
  if (a.device_type() == nb::device::cuda::value) {
    device = th::Device(th::DeviceType::CUDA, a.device_id());
  } else {
    TH_CHECK(a.device_type() == nb::device::cpu::value, "Unsupported device in DLTensor (DLPack device type ",
             a.device_type(), ")");
  }
  th::IntList sizes(a.ndim()), strides(a.ndim());
  int64_t extent = 1;  // elements spanned, to size the storage
  for (size_t d = 0; d < a.ndim(); ++d) {
    sizes[d] = static_cast<int64_t>(a.shape(d));
    strides[d] = a.stride(d);
    TH_CHECK_T(th::ValueError, strides[d] >= 0,
               "At least one stride in the given numpy array is negative, and tensors with negative "
               "strides are not currently supported. (You can probably work around this by making a "
               "copy of your array  with array.copy().) ");
    if (sizes[d] == 0) extent = 0;
    if (extent) extent += (sizes[d] - 1) * strides[d];
  }
  // the storage keeps the producer alive; released with the GIL held when the storage dies
  std::shared_ptr<void> keep(new Array(a), [](void* p) {
    nb::gil_scoped_acquire gil;
    delete static_cast<Array*>(p);
  });
  auto impl = std::make_shared<th::TensorImpl>();
  impl->storage =
      std::make_shared<th::StorageImpl>(a.data(), extent * th::element_size(*dtype), device, std::move(keep));
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->dtype = *dtype;
  return th::Tensor(std::move(impl));
}

/// An ndarray over `t`'s memory; a capsule holding a handle to `t` keeps the storage alive.
template <typename... Extra>
nb::ndarray<Extra...> view_of(const th::Tensor& t) {
  std::vector<size_t> shape(t.sizes().begin(), t.sizes().end());
  auto* keep = new th::Tensor(t);
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<th::Tensor*>(p); });
  const bool cuda = t.device().is_cuda();
  return nb::ndarray<Extra...>(t.data_ptr(), t.dim(), shape.data(), owner, t.strides().data(),
                               to_dlpack(t.dtype()), cuda ? nb::device::cuda::value : nb::device::cpu::value,
                               cuda ? std::max(t.device().index, 0) : 0);
}

using NumpyArray = nb::ndarray<nb::numpy, nb::device::cpu>;

NumpyArray to_numpy(const th::Tensor& t) {
  TH_CHECK_T(th::TypeError, t.device().is_cpu(), "can't convert ", t.device().str(),
             " device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.");
  TH_CHECK_T(th::TypeError, t.dtype() != th::ScalarType::BFloat16,
             "Got unsupported ScalarType BFloat16");  // NumPy has no such type
  TH_CHECK(
      !t.is_conj(),
      "Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj().numpy() instead.");
  return view_of<nb::numpy, nb::device::cpu>(t);
}

th::Tensor from_numpy(nb::ndarray<nb::device::cpu> a) {
  return wrap(a,
              "can't convert np.ndarray of this dtype. The only supported types are: float64, float32, "
              "float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool.");
}

}  // namespace

void bind_dlpack(nb::module_& m, nb::handle tensor) {
  def_method(tensor, "numpy", &to_numpy, nb::rv_policy::reference,
             "A NumPy array sharing this tensor's memory.");
  m.def("from_numpy", &from_numpy, "ndarray"_a, "A tensor sharing the memory of a NumPy array.");
  m.def(
      "_dlpack_view",
      [](const th::Tensor& t) {
        if (t.is_conj()) throw nb::buffer_error("Can't export tensors with the conjugate bit set");
        return view_of<nb::array_api>(t);
      },
      "tensor"_a, "A nanobind ndarray over the tensor's memory; its __dlpack__ makes the capsule.");
  m.def(
      "_from_dlpack", [](nb::ndarray<> a) { return wrap(a, "Unsupported dtype in DLTensor"); },
      "ext_tensor"_a, "A tensor sharing the memory of any object with __dlpack__ (or the buffer protocol).");
}

}  // namespace torch
