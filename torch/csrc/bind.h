#pragma once
// What every torch._C source (hand-written or generated) needs: nanobind, the TH types,
// and the casters between Python objects and th::Scalar / ScalarType / int lists.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <TH/Device.h>
#include <TH/Exception.h>
#include <TH/Generator.h>
#include <TH/MemoryFormat.h>
#include <TH/Scalar.h>
#include <TH/ScalarType.h>
#include <TH/Tensor.h>

namespace nb = nanobind;
using namespace nb::literals;

namespace torch {

/// An `int[]` argument: a Python int or a sequence of ints (PyTorch's IntArrayRef).
struct IntArg {
  th::IntList v;
};

/// An `int` argument: a Python int or an object with __index__ (a NumPy integer, a 0-dim integer tensor),
/// never a bool or a float (upstream's parser refuses `x.topk(True)`; nanobind's int64_t took it as 1).
struct Int {
  int64_t v;
};

/// Raises upstream's OverflowError for a Python int no 64-bit integer holds: `message` is Python's own
/// ("int too big to convert", or "can't convert negative int to unsigned" below int64).
[[noreturn]] void raise_int_overflow(const char* message);

/// A `Tensor` argument: a tensor, or a Python number (a 0-dim "wrapped number" with weak
/// dtype, as PyTorch's argument parser makes: torch.add(x, 2), torch.pow(2, x)).
struct TensorArg {
  th::Tensor t;
  nb::handle obj;  ///< the Python object it came from (borrowed for the call)
  /// Set for an int no 64-bit integer holds: Python's OverflowError message; t is a placeholder 0
  const char* overflow = nullptr;
  /// The tensor, checked: an int past 64 bits raises OverflowError here, in the op's body (a caster
  /// cannot raise, and refusing the match would make it nanobind's TypeError).
  const th::Tensor& tensor() const {
    if (overflow) raise_int_overflow(overflow);
    return t;
  }
};

/// A `Tensor` argument of an op that takes no Python number there (upstream has no Scalar overload of it:
/// torch.maximum(x, 1) is a TypeError); a TensorArg, so autograd reads it the same way.
struct StrictTensorArg : TensorArg {};

/// A `Device?` argument of a generated binding: None, a torch.device, a string ("cuda:1") or a GPU index, as
/// upstream's parser takes. A string that names no device ("gpu", "cuda0") keeps upstream's RuntimeError,
/// raised when the op reads the argument (a caster cannot raise, and refusing the match would make it
/// nanobind's TypeError listing every overload).
struct DeviceArg {
  std::optional<th::Device> d;
  std::string error;  ///< set for an argument that names no device; d is then empty
  /// The device (none: the op's default), checked.
  std::optional<th::Device> get() const {
    if (!error.empty()) throw th::Error(error);
    return d;
  }
};

/// A `Scalar` argument of a generated binding: a Python number, or an int past 64 bits that raises
/// upstream's OverflowError when the op reads it (converting to th::Scalar), as TensorArg.
struct ScalarArg {
  th::Scalar s;
  const char* overflow = nullptr;  ///< as TensorArg's
  operator const th::Scalar&() const {
    if (overflow) raise_int_overflow(overflow);
    return s;
  }
};

/// The Python dtype object for `t` (one shared instance per dtype: `x.dtype is torch.float32`).
nb::handle dtype_object(th::ScalarType t);
/// The ScalarType of a torch.dtype object, or Undefined if `h` is not one.
th::ScalarType dtype_of(nb::handle h);
/// The Python object for `f` (torch.contiguous_format, ...).
nb::handle memory_format_object(th::MemoryFormat f);
/// The MemoryFormat of a torch.memory_format object, if `h` is one.
std::optional<th::MemoryFormat> memory_format_of(nb::handle h);
/// torch.Size(sizes) (a plain tuple until torch/__init__ registers Size).
nb::object make_size(const th::IntList& sizes);

/// Adds method `name` to class `cls` (appending an overload if one exists).
template <typename Func, typename... Extra>
void def_method(nb::handle cls, const char* name, Func&& f, const Extra&... extra) {
  nb::cpp_function_def<th::Tensor>(std::forward<Func>(f), nb::scope(cls), nb::name(name), nb::is_method(),
                                   extra...);
}

/// Raises NotImplementedError unless `t`'s device type is one the op has a kernel for.
inline void check_backend(const char* op, const th::Tensor& t, bool cpu, bool cuda) {
  if ((t.device().is_cpu() && cpu) || (t.device().is_cuda() && cuda)) return;
  throw th::NotImplementedError(std::string("Could not run '") + op + "' with arguments from the '" +
                                (t.device().is_cpu() ? "CPU" : "CUDA") + "' backend.");
}

/// A factory's layout=: None or torch.strided, the one layout of this library's tensors (upstream's sparse
/// and mkldnn layouts are refused with a RuntimeError, anything else is a TypeError).
inline void check_layout(const char* op, nb::handle layout) {
  if (layout.is_none()) return;
  nb::module_ torch = nb::module_::import_("torch");
  if (layout.is(torch.attr("strided"))) return;
  if (!nb::isinstance(layout, torch.attr("layout")))
    throw nb::type_error((std::string(op) + "(): argument 'layout' must be torch.layout, not " +
                          nb::type_name(layout.type()).c_str())
                             .c_str());
  throw th::Error(std::string(nb::str(layout).c_str()) + " is not supported: tensors here are torch.strided");
}

/// The namedtuple class torch.return_types.<name> with `fields` (created once, then cached).
nb::handle return_type(const char* name, std::initializer_list<const char*> fields);

/// `t` as an instance of torch.return_types.<name> (what torch.max(x, dim) returns).
template <typename... Ts>
nb::object named_tuple(const char* name, std::initializer_list<const char*> fields, std::tuple<Ts...> t) {
  return return_type(name, fields)(*nb::cast(std::move(t)));
}

/// Converts *args of ints (x.view(2, 3)) or one sequence (x.view((2, 3))) to a list.
th::IntList int_list_from_args(const nb::args& args, const char* fn, const char* arg);

void bind_dtypes(nb::module_& m);
void bind_memory_formats(nb::module_& m);
void bind_device(nb::module_& m);
void bind_generator(nb::module_& m);
nb::handle bind_tensor(nb::module_& m);
/// Tensor.numpy, torch.from_numpy and the DLPack exchange (DLPack.cpp).
void bind_dlpack(nb::module_& m, nb::handle tensor);
void bind_build_info(nb::module_& m);
/// torch._C._C_API, the capsule C++ extensions convert tensors through (CApi.cpp, torch/c_api.h).
void bind_c_api(nb::module_& m, nb::handle tensor);
void bind_cuda(nb::module_& m);
void bind_indexing(nb::handle tensor_cls);
/// torch._C._operator: the binary operator methods (Operators.cpp).
void bind_operators(nb::module_& m, nb::handle tensor_cls);

namespace bindings {
/// Defined by the generated register_all.cpp.
void register_all(nb::module_& m, nb::handle tensor_cls);
}  // namespace bindings

}  // namespace torch

namespace nanobind::detail {

template <>
struct type_caster<th::Scalar> {
  NB_TYPE_CASTER(th::Scalar, const_name("Number"))

  bool from_python(handle src, uint8_t flags, cleanup_list*) noexcept {
    PyObject* o = src.ptr();
    if (PyBool_Check(o)) {
      value = th::Scalar(o == Py_True);
      return true;
    }
    if (PyLong_Check(o)) return from_int(o);
    if (PyFloat_Check(o)) {
      value = th::Scalar(PyFloat_AS_DOUBLE(o));
      return true;
    }
    if (PyComplex_Check(o)) {  // Python and NumPy complex numbers
      value = th::Scalar(th::complex<double>(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)));
      return true;
    }
    if ((flags & (uint8_t)cast_flags::convert) && nanobind::isinstance<th::Tensor>(src))
      return from_tensor(src);
    if ((flags & (uint8_t)cast_flags::convert) && PyIndex_Check(o)) {  // NumPy integers
      PyObject* i = PyNumber_Index(o);
      if (!i) return PyErr_Clear(), false;
      const bool ok = from_int(i);
      Py_DECREF(i);
      return ok;
    }
    if ((flags & (uint8_t)cast_flags::convert) && Py_TYPE(o)->tp_as_number &&
        Py_TYPE(o)->tp_as_number->nb_float) {  // NumPy floats
      double v = PyFloat_AsDouble(o);
      if (v == -1.0 && PyErr_Occurred()) return PyErr_Clear(), false;
      value = th::Scalar(v);
      return true;
    }
    return false;
  }
  /// A 0-dim tensor that does not require grad, as its value (upstream's parser takes one for a Scalar:
  /// torch.linspace(torch.tensor(0.), 1, 5), torch.full((2,), torch.tensor(3))); any other tensor, no match.
  bool from_tensor(handle src) noexcept {
    const th::Tensor& t = *nanobind::inst_ptr<th::Tensor>(src);
    if (!t.defined() || t.dim() != 0 || t.impl()->requires_grad) return false;
    try {
      object v = src.attr("item")();  // a Python bool, int, float or complex (a CUDA tensor is read back)
      return from_python(v, 0, nullptr);
    } catch (...) {
      return false;
    }
  }
  /// A Python int: an int64, or a uint64 Scalar in [2^63, 2^64) (c10's HAS_u); past that, no match.
  bool from_int(PyObject* o) noexcept {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) return PyErr_Clear(), false;
      value = th::Scalar(static_cast<uint64_t>(u));
      return true;
    }
    if (overflow) return false;
    value = th::Scalar(static_cast<int64_t>(v));
    return true;
  }
  static handle from_cpp(const th::Scalar& s, rv_policy, cleanup_list*) noexcept {
    if (s.is_bool()) return PyBool_FromLong(s.to<int64_t>());
    if (s.is_uint64()) return PyLong_FromUnsignedLongLong(s.to<uint64_t>());
    if (s.is_integral()) return PyLong_FromLongLong(s.to<int64_t>());
    if (s.is_complex()) {
      const th::complex<double> z = s.to_complex();
      return PyComplex_FromDoubles(z.re, z.im);
    }
    return PyFloat_FromDouble(s.to<double>());
  }
};

template <>
struct type_caster<torch::ScalarArg> {
  NB_TYPE_CASTER(torch::ScalarArg, const_name("Number"))

  bool from_python(handle src, uint8_t flags, cleanup_list* cleanup) noexcept {
    type_caster<th::Scalar> number;
    if (number.from_python(src, flags, cleanup)) {
      value = {number.value, nullptr};
      return true;
    }
    value = {th::Scalar(), overflow_message(src)};  // an int the Scalar caster refused is past 64 bits
    return value.overflow != nullptr;
  }
  static handle from_cpp(const torch::ScalarArg& a, rv_policy policy, cleanup_list* cleanup) noexcept {
    // an int past uint64 is seen only by a recording made before the op raises on it
    return make_caster<th::Scalar>::from_cpp(a.s, policy, cleanup);
  }
  /// Python's OverflowError message for an int past 64 bits (nullptr for anything else), as upstream
  /// reports it (its parser tries int64, then uint64).
  static const char* overflow_message(handle src) noexcept {
    if (!PyLong_Check(src.ptr()) || PyBool_Check(src.ptr())) return nullptr;
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(src.ptr(), &overflow);  // -1 below int64, +1 above
    return overflow < 0 ? "can't convert negative int to unsigned" : "int too big to convert";
  }
};

template <>
struct type_caster<torch::TensorArg> {
  NB_TYPE_CASTER(torch::TensorArg, const_name("Tensor | Number"))

  bool from_python(handle src, uint8_t flags, cleanup_list* cleanup) noexcept {
    value.obj = src;
    if (nanobind::isinstance<th::Tensor>(src)) {
      value.t = *nanobind::inst_ptr<th::Tensor>(src);
      return true;
    }
    type_caster<th::Scalar> number;
    if (PyTuple_Check(src.ptr()) || PyList_Check(src.ptr())) return false;
    value.overflow = nullptr;
    if (!number.from_python(src, flags, cleanup)) {
      value.overflow = type_caster<torch::ScalarArg>::overflow_message(src);
      if (!value.overflow) return false;
      number.value = th::Scalar(int64_t(0));  // a placeholder: tensor() raises
    }
    try {
      value.t = th::wrap_number(number.value);
    } catch (...) {
      return false;
    }
    return true;
  }
  static handle from_cpp(const torch::TensorArg& a, rv_policy policy, cleanup_list* cleanup) noexcept {
    return make_caster<th::Tensor>::from_cpp(a.t, policy, cleanup);
  }
};

template <>
struct type_caster<torch::StrictTensorArg> {
  NB_TYPE_CASTER(torch::StrictTensorArg, const_name("Tensor"))

  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    if (!nanobind::isinstance<th::Tensor>(src)) return false;
    value.obj = src;
    value.t = *nanobind::inst_ptr<th::Tensor>(src);
    return true;
  }
  static handle from_cpp(const torch::StrictTensorArg& a, rv_policy policy, cleanup_list* cleanup) noexcept {
    return make_caster<th::Tensor>::from_cpp(a.t, policy, cleanup);
  }
};

template <>
struct type_caster<torch::DeviceArg> {
  NB_TYPE_CASTER(torch::DeviceArg, const_name("torch.device | str | int"))

  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    PyObject* o = src.ptr();
    value = torch::DeviceArg();
    if (src.is_none()) return true;
    if (nanobind::isinstance<th::Device>(src)) {
      value.d = *nanobind::inst_ptr<th::Device>(src);
      return true;
    }
    if (PyUnicode_Check(o)) {
      Py_ssize_t n = 0;
      const char* text = PyUnicode_AsUTF8AndSize(o, &n);
      if (!text) return PyErr_Clear(), false;
      try {
        value.d = th::Device(std::string(text, static_cast<size_t>(n)));
      } catch (const std::exception& e) {
        value.error = e.what();
      }
      return true;
    }
    if (PyLong_Check(o) && !PyBool_Check(o)) {  // a GPU index, as upstream: device=1 is cuda:1
      int overflow = 0;
      const long long i = PyLong_AsLongLongAndOverflow(o, &overflow);
      if (overflow || i < 0 || i > INT32_MAX)
        value.error = "Device index must not be negative";
      else
        value.d = th::Device(th::DeviceType::CUDA, static_cast<int>(i));
      return true;
    }
    return false;
  }
  static handle from_cpp(const torch::DeviceArg& a, rv_policy, cleanup_list* cleanup) noexcept {
    if (!a.d) return none().release();
    return make_caster<th::Device>::from_cpp(*a.d, rv_policy::copy, cleanup);
  }
};

template <>
struct type_caster<th::MemoryFormat> {
  NB_TYPE_CASTER(th::MemoryFormat, const_name("memory_format"))

  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    std::optional<th::MemoryFormat> f = torch::memory_format_of(src);
    if (f) value = *f;
    return f.has_value();
  }
  static handle from_cpp(th::MemoryFormat f, rv_policy, cleanup_list*) noexcept {
    return torch::memory_format_object(f).inc_ref();
  }
};

template <>
struct type_caster<th::ScalarType> {
  NB_TYPE_CASTER(th::ScalarType, const_name("dtype"))

  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    value = torch::dtype_of(src);
    return value != th::ScalarType::Undefined;
  }
  static handle from_cpp(th::ScalarType t, rv_policy, cleanup_list*) noexcept {
    return torch::dtype_object(t).inc_ref();
  }
};

/// One int of an `int` or `int[]` argument: a Python int, or with conversions an object with __index__ (a
/// NumPy integer, a 0-dim integer tensor); never a bool or a float, as upstream's parser.
inline bool load_int(PyObject* o, uint8_t flags, int64_t& out, bool bool_tensor = false) noexcept {
  if (PyBool_Check(o)) return false;
  PyObject* i = nullptr;
  if (!PyLong_Check(o)) {
    if (!(flags & (uint8_t)cast_flags::convert) || PyFloat_Check(o) || !PyIndex_Check(o)) return false;
    if (!bool_tensor && nanobind::isinstance<th::Tensor>(handle(o)) &&
        nanobind::inst_ptr<th::Tensor>(handle(o))->dtype() == th::ScalarType::Bool)
      return false;  // a bool tensor is no int either (an int[]'s element may be one, as upstream's parser)
    i = PyNumber_Index(o);
    if (!i) return PyErr_Clear(), false;
    o = i;
  }
  out = PyLong_AsLongLong(o);
  Py_XDECREF(i);
  return !PyErr_Occurred() || (PyErr_Clear(), false);
}

template <>
struct type_caster<torch::IntArg> {
  NB_TYPE_CASTER(torch::IntArg, const_name("Sequence[int] | int"))

  bool from_python(handle src, uint8_t flags, cleanup_list*) noexcept {
    PyObject* o = src.ptr();
    value.v.clear();
    int64_t v;
    if (!PyTuple_Check(o) && !PyList_Check(o)) {
      if (!load_int(o, flags, v, true)) return false;
      value.v.push_back(v);
      return true;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (!load_int(PySequence_Fast_GET_ITEM(o, i), flags, v, true)) return false;
      value.v.push_back(v);
    }
    return true;
  }
  static handle from_cpp(const torch::IntArg& a, rv_policy, cleanup_list*) noexcept {
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(a.v.size()));
    for (size_t i = 0; i < a.v.size(); ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(a.v[i]));
    return t;
  }
};

template <>
struct type_caster<torch::Int> {
  NB_TYPE_CASTER(torch::Int, const_name("int"))

  bool from_python(handle src, uint8_t flags, cleanup_list*) noexcept {
    return load_int(src.ptr(), flags, value.v);
  }
  static handle from_cpp(torch::Int a, rv_policy, cleanup_list*) noexcept { return PyLong_FromLongLong(a.v); }
};

}  // namespace nanobind::detail
