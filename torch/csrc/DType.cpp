// torch.dtype: one Python object per ScalarType, plus the default-dtype functions.
#include "bind.h"

namespace torch {
namespace {

struct DType {
  th::ScalarType type;
};

PyObject* objects[th::kNumScalarTypes] = {};  // borrowed: torch._C's attributes own them

}  // namespace

nb::handle dtype_object(th::ScalarType t) { return objects[static_cast<int>(t)]; }

th::ScalarType dtype_of(nb::handle h) {
  if (!nb::isinstance<DType>(h)) return th::ScalarType::Undefined;
  return nb::inst_ptr<DType>(h)->type;
}

void bind_dtypes(nb::module_& m) {
  nb::class_<DType>(m, "dtype")
      .def_prop_ro("is_floating_point", [](const DType& d) { return th::is_floating_point(d.type); })
      .def_prop_ro("is_complex", [](const DType& d) { return th::is_complex(d.type); })
      // floating or complex: the dtypes autograd differentiates (one lookup on the recording path)
      .def_prop_ro("_differentiable",
                   [](const DType& d) { return th::is_floating_point(d.type) || th::is_complex(d.type); })
      .def(
          "to_real", [](const DType& d) { return th::to_real_type(d.type); },
          "The real dtype of this dtype's values (float32 for complex64); real dtypes are their own.")
      .def(
          "to_complex", [](const DType& d) { return th::to_complex_type(d.type); },
          "The complex dtype of this precision (complex64 for float32).")
      .def_prop_ro("is_signed",
                   [](const DType& d) {
                     using S = th::ScalarType;
                     return d.type != S::Byte && d.type != S::Bool && d.type != S::UInt16 &&
                            d.type != S::UInt32 && d.type != S::UInt64;
                   })
      .def_prop_ro("itemsize", [](const DType& d) { return th::element_size(d.type); })
      .def("__repr__", [](const DType& d) { return std::string("torch.") + th::scalar_type_name(d.type); })
      .def("__reduce__", [](const DType& d) { return std::string(th::scalar_type_name(d.type)); });

  using S = th::ScalarType;
  const std::pair<S, std::vector<const char*>> names[] = {
      {S::Bool, {"bool"}},
      {S::Byte, {"uint8"}},
      {S::Char, {"int8"}},
      {S::Short, {"int16", "short"}},
      {S::Int, {"int32", "int"}},
      {S::Long, {"int64", "long"}},
      {S::Float, {"float32", "float"}},
      {S::Double, {"float64", "double"}},
      {S::Half, {"float16", "half"}},
      {S::BFloat16, {"bfloat16"}},
      {S::ComplexFloat, {"complex64", "cfloat"}},
      {S::ComplexDouble, {"complex128", "cdouble"}},
      {S::UInt16, {"uint16"}},
      {S::UInt32, {"uint32"}},
      {S::UInt64, {"uint64"}},
      {S::Float8_e4m3fn, {"float8_e4m3fn"}},
      {S::Float8_e5m2, {"float8_e5m2"}},
  };
  for (const auto& [type, aliases] : names) {
    nb::object obj = nb::cast(DType{type});
    objects[static_cast<int>(type)] = obj.ptr();
    for (const char* alias : aliases) m.attr(alias) = obj;
  }
  m.def("get_default_dtype", &th::get_default_dtype, "The dtype of new floating-point tensors.");
  m.def("set_default_dtype", &th::set_default_dtype, "d"_a, "Sets the default floating-point dtype.");
  m.def("promote_types", &th::promote_types, "type1"_a, "type2"_a,
        "The smallest dtype both arguments can be represented in.");
  m.def("can_cast", &th::can_cast, "from_"_a, "to"_a,
        "Whether a result of dtype from_ may be written to dtype to.");
}

}  // namespace torch
