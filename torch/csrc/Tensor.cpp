// torch.Tensor: the metadata API and NumPy interop. Ops are added by the generated shards,
// Python-level methods by torch/_tensor.py.
#include <nanobind/ndarray.h>

#include <string>
#include <unordered_map>

#include <TH/Exception.h>

#include "bind.h"

namespace torch {
namespace {

PyObject* size_type = nullptr;  // torch.Size, registered by torch/__init__.py

constexpr nb::dlpack::dtype kFloat16{static_cast<uint8_t>(nb::dlpack::dtype_code::Float), 16, 1};

nb::dlpack::dtype to_dlpack(th::ScalarType t) {
  switch (t) {
    case th::ScalarType::Bool: return nb::dtype<bool>();
    case th::ScalarType::Byte: return nb::dtype<uint8_t>();
    case th::ScalarType::Char: return nb::dtype<int8_t>();
    case th::ScalarType::Short: return nb::dtype<int16_t>();
    case th::ScalarType::Int: return nb::dtype<int32_t>();
    case th::ScalarType::Long: return nb::dtype<int64_t>();
    case th::ScalarType::Float: return nb::dtype<float>();
    case th::ScalarType::Double: return nb::dtype<double>();
    case th::ScalarType::Half: return kFloat16;
    default:  // bfloat16: NumPy has no such type
      throw th::TypeError(th::detail::str("Got unsupported ScalarType ", th::scalar_type_cpp_name(t)));
  }
}

th::ScalarType from_dlpack(nb::dlpack::dtype d) {
  const std::pair<nb::dlpack::dtype, th::ScalarType> table[] = {
      {nb::dtype<bool>(), th::ScalarType::Bool},
      {nb::dtype<uint8_t>(), th::ScalarType::Byte},
      {nb::dtype<int8_t>(), th::ScalarType::Char},
      {nb::dtype<int16_t>(), th::ScalarType::Short},
      {nb::dtype<int32_t>(), th::ScalarType::Int},
      {nb::dtype<int64_t>(), th::ScalarType::Long},
      {nb::dtype<float>(), th::ScalarType::Float},
      {nb::dtype<double>(), th::ScalarType::Double},
      {kFloat16, th::ScalarType::Half},
  };
  for (const auto& [dl, st] : table)
    if (dl == d) return st;
  throw th::TypeError(
      "can't convert np.ndarray of this dtype. The only supported types are: float64, float32, float16, "
      "int64, int32, int16, int8, uint8, and bool.");
}

using NumpyArray = nb::ndarray<nb::numpy, nb::device::cpu>;

NumpyArray to_numpy(const th::Tensor& t) {
  TH_CHECK_T(th::TypeError, t.device().is_cpu(), "can't convert ", t.device().str(),
             " device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.");
  std::vector<size_t> shape(t.sizes().begin(), t.sizes().end());
  // the capsule keeps the storage alive as long as NumPy needs the memory
  auto* keep = new th::Tensor(t);
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<th::Tensor*>(p); });
  return NumpyArray(t.data_ptr(), t.dim(), shape.data(), owner, t.strides().data(), to_dlpack(t.dtype()));
}

th::Tensor from_numpy(nb::ndarray<nb::device::cpu> a) {
  th::ScalarType dtype = from_dlpack(a.dtype());
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
  // the storage keeps the array alive; released with the GIL held when the storage dies
  using Array = nb::ndarray<nb::device::cpu>;
  std::shared_ptr<void> keep(new Array(a), [](void* p) {
    nb::gil_scoped_acquire gil;
    delete static_cast<Array*>(p);
  });
  auto impl = std::make_shared<th::TensorImpl>();
  impl->storage = std::make_shared<th::StorageImpl>(a.data(), extent * th::element_size(dtype), th::Device(),
                                                    std::move(keep));
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->dtype = dtype;
  return th::Tensor(std::move(impl));
}

}  // namespace

nb::object make_size(const th::IntList& sizes) {
  nb::object t =
      nb::steal(nb::detail::type_caster<IntArg>::from_cpp(IntArg{sizes}, nb::rv_policy::move, nullptr));
  return size_type ? nb::handle(size_type)(t) : t;
}

nb::handle return_type(const char* name, std::initializer_list<const char*> fields) {
  static std::unordered_map<std::string, PyObject*> types;  // owned for the process lifetime
  auto it = types.find(name);
  if (it != types.end()) return it->second;
  nb::list names;
  for (const char* f : fields) names.append(f);
  nb::object cls = nb::module_::import_("collections").attr("namedtuple")(name, names);
  cls.attr("__module__") = "torch.return_types";
  types[name] = cls.inc_ref().ptr();
  return types[name];
}

th::IntList int_list_from_args(const nb::args& args, const char* fn, const char* arg) {
  if (args.size() == 1 && !PyLong_Check(args[0].ptr())) {
    IntArg a;
    if (!nb::try_cast(args[0], a))
      throw th::TypeError(th::detail::str(fn, "(): argument '", arg, "' must be tuple of ints"));
    return a.v;
  }
  th::IntList out;
  for (nb::handle h : args) {
    if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr()))
      throw th::TypeError(th::detail::str(fn, "(): argument '", arg,
                                          "' must be tuple of ints, but found element of type ",
                                          Py_TYPE(h.ptr())->tp_name));
    out.push_back(nb::cast<int64_t>(h));
  }
  return out;
}

nb::handle bind_tensor(nb::module_& m) {
  nb::class_<th::Tensor> cls(m, "Tensor", nb::dynamic_attr(), nb::is_weak_referenceable());
  cls.def_prop_ro("shape", [](const th::Tensor& t) { return make_size(t.sizes()); })
      .def("size", [](const th::Tensor& t) { return make_size(t.sizes()); })
      .def(
          "size", [](const th::Tensor& t, int64_t dim) { return t.size(dim); }, "dim"_a)
      .def("stride",
           [](const th::Tensor& t) {
             return nb::steal(nb::detail::type_caster<IntArg>::from_cpp(IntArg{t.strides()},
                                                                        nb::rv_policy::move, nullptr));
           })
      .def(
          "stride", [](const th::Tensor& t, int64_t dim) { return t.stride(dim); }, "dim"_a)
      .def_prop_ro("dtype", &th::Tensor::dtype)
      .def_prop_ro("device", &th::Tensor::device)
      .def_prop_ro("is_cuda", [](const th::Tensor& t) { return t.device().is_cuda(); })
      .def_prop_ro("ndim", &th::Tensor::dim)
      .def_prop_ro("_version", [](const th::Tensor& t) { return t.version(); })
      .def("dim", &th::Tensor::dim, "Number of dimensions.")
      .def("numel", &th::Tensor::numel, "Number of elements.")
      .def("storage_offset", &th::Tensor::storage_offset, "Offset into the storage, in elements.")
      .def("element_size", &th::Tensor::element_size, "Bytes per element.")
      .def(
          "is_contiguous",
          [](const th::Tensor& t, th::MemoryFormat memory_format) { return t.is_contiguous(memory_format); },
          nb::kw_only(), "memory_format"_a = nb::cast(th::MemoryFormat::Contiguous),
          "Whether the strides are those of memory_format (row-major by default).")
      .def("data_ptr", [](const th::Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_ptr()); })
      .def("_is_view_of", [](const th::Tensor& a, const th::Tensor& b) { return a.storage() == b.storage(); })
      .def("__len__",
           [](const th::Tensor& t) {
             TH_CHECK_T(th::TypeError, t.dim() > 0, "len() of a 0-d tensor");
             return t.sizes()[0];
           })
      .def("numpy", &to_numpy, nb::rv_policy::reference, "A NumPy array sharing this tensor's memory.");
  m.def("from_numpy", &from_numpy, "ndarray"_a, "A tensor sharing the memory of a NumPy array.");
  m.def("_register_size_type", [](nb::handle t) { size_type = t.inc_ref().ptr(); });
  return cls;
}

}  // namespace torch
