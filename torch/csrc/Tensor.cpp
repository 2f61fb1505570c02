// torch.Tensor: the metadata API (NumPy and DLPack interop: DLPack.cpp). Ops are added by the
// generated shards, Python-level methods by torch/_tensor.py.
#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>

#include <TH/Exception.h>

#include <torch/python_errors.h>

#include "bind.h"

namespace torch {
namespace {

PyObject* size_type = nullptr;  // torch.Size, registered by torch/__init__.py

}  // namespace

nb::object make_size(const th::IntList& sizes) {
  if (!size_type) {
    return nb::steal(nb::detail::type_caster<IntArg>::from_cpp(IntArg{sizes}, nb::rv_policy::move, nullptr));
  }
  // built as CPython's tuple.__new__ builds a subclass instance (torch.Size adds no __new__/__init__):
  // allocated and filled in place, ~2x faster than calling the class, and `.shape` is everywhere
  auto* type = reinterpret_cast<PyTypeObject*>(size_type);
  const auto n = static_cast<Py_ssize_t>(sizes.size());
  nb::object r = nb::steal(type->tp_alloc(type, n));
  if (!r.is_valid()) throw nb::python_error();
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* v = PyLong_FromLongLong(static_cast<long long>(sizes[static_cast<size_t>(i)]));
    if (!v) throw nb::python_error();
    PyTuple_SET_ITEM(r.ptr(), i, v);
  }
  return r;
}

nb::handle return_type(const char* name, std::initializer_list<const char*> fields) {
  static std::unordered_map<std::string, PyObject*> types;  // owned for the process lifetime
  auto it = types.find(name);
  if (it != types.end()) return it->second;
  nb::list names;
  for (const char* f : fields) names.append(f);
  nb::object cls = nb::module_::import_("collections").attr("namedtuple")(name, names);
  nb::module_ home = nb::module_::import_("torch.return_types");
  cls.attr("__module__") = "torch.return_types";
  cls.attr("__repr__") = home.attr("_repr");
  home.attr(name) = cls;
  types[name] = cls.inc_ref().ptr();
  return types[name];
}

th::IntList int_list_from_args(const nb::args& args, const char* fn, const char* arg) {
  // no argument at all is upstream's TypeError (x.permute(), torch.zeros()); an empty list is a list
  if (args.size() == 0)
    throw th::TypeError(th::detail::str(fn, "() missing 1 required positional arguments: \"", arg, "\""));
  if (args.size() == 1 && !PyLong_Check(args[0].ptr())) {
    IntArg a;
    if (!nb::try_cast(args[0], a))
      throw th::TypeError(th::detail::str(fn, "(): argument '", arg, "' must be tuple of ints"));
    return a.v;
  }
  th::IntList out;
  for (nb::handle h : args) {
    int64_t index;  // a NumPy integer or a 0-dim integer tensor: its __index__ (x.view(np.int64(2), 3))
    if (!PyLong_Check(h.ptr()) &&
        nb::detail::load_int(h.ptr(), (uint8_t)nb::detail::cast_flags::convert, index)) {
      out.push_back(index);
      continue;
    }
    if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr()))
      throw th::TypeError(th::detail::str(fn, "(): argument '", arg,
                                          "' must be tuple of ints, but found element of type ",
                                          Py_TYPE(h.ptr())->tp_name));
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow)
      throw th::TypeError(th::detail::str(fn, "(): argument '", arg, "' failed to unpack the object at pos ",
                                          out.size() + 1,
                                          " with error \"Overflow when unpacking long long\""));
    out.push_back(v);
  }
  return out;
}

void raise_int_overflow(const char* message) { throw OverflowError(message); }

nb::handle bind_tensor(nb::module_& m) {
  nb::class_<th::Tensor> cls(m, "Tensor", nb::dynamic_attr(), nb::is_weak_referenceable());
  // The legacy constructor: torch.Tensor() (empty), torch.Tensor(*sizes) or torch.Tensor(torch.Size) (an
  // uninitialized tensor), torch.Tensor(sequence) (its data), torch.Tensor(tensor) (an alias), all of the
  // default dtype; device= picks the device. The Python layer (torch._refs.creation) does the work.
  cls.def("__init__", [](th::Tensor* self, nb::args args, nb::kwargs kwargs) {
    nb::object t = nb::module_::import_("torch._refs.creation").attr("_legacy_tensor")(*args, **kwargs);
    new (self) th::Tensor(nb::cast<th::Tensor>(t));
  });
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
      // torch.autograd.graph.increment_version: a write autograd did not see (a custom kernel through
      // data_ptr)
      .def("_bump_version", [](const th::Tensor& t) { t.bump_version(); })
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
      .def("_storage_nbytes", [](const th::Tensor& t) { return t.storage()->nbytes(); })
      // the whole storage as a uint8 tensor (torch.UntypedStorage's bytes, torch/storage.py)
      .def("_storage_bytes",
           [](const th::Tensor& t) {
             return th::make_view(t, {int64_t(t.storage()->nbytes())}, {1}, 0, th::ScalarType::Byte);
           })
      // share_memory_'s move (torch/multiprocessing/reductions.py): self's storage bytes are copied into
      // dst's storage (new memory of the same size), and the two storages exchange their memory, so that
      // every tensor viewing self's storage now views the new memory (its version counter carried over)
      .def("_move_storage_into",
           [](const th::Tensor& self, const th::Tensor& dst) {
             th::StorageImpl &a = *self.storage(), &b = *dst.storage();
             TH_CHECK(a.device() == b.device() && a.nbytes() == b.nbytes(),
                      "_move_storage_into: expected a storage of ", a.nbytes(), " bytes on ",
                      a.device().str(), ", got ", b.nbytes(), " bytes on ", b.device().str());
             if (a.nbytes() > 0) std::memcpy(b.data(), a.data(), a.nbytes());
             while (b.version() < a.version()) b.bump_version();
             std::swap(a, b);
           })
      .def("__len__", [](const th::Tensor& t) {
        TH_CHECK_T(th::TypeError, t.dim() > 0, "len() of a 0-d tensor");
        return t.sizes()[0];
      });
  // Tensor._make_subclass(cls, data): an instance of the Python subclass `cls` of Tensor (nn.Parameter's)
  // over data's TensorImpl (an alias: same storage, metadata and autograd state), as PyTorch's.
  cls.def_static("_make_subclass", [](nb::handle type, const th::Tensor& data) {
    if (!PyType_Check(type.ptr()) || !nb::type_check(type) ||
        !PyType_IsSubtype((PyTypeObject*)type.ptr(), (PyTypeObject*)nb::type<th::Tensor>().ptr()))
      throw nb::type_error("Tensor._make_subclass: expected a subclass of torch.Tensor");
    nb::object o = nb::inst_alloc(type);
    new (nb::inst_ptr<th::Tensor>(o)) th::Tensor(data);
    nb::inst_mark_ready(o);
    return o;
  });
  bind_dlpack(m, cls);
  m.def("_register_size_type", [](nb::handle t) {
    if (!PyType_Check(t.ptr()) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(t.ptr()), &PyTuple_Type))
      throw nb::type_error("_register_size_type: expected a subclass of tuple");
    size_type = t.inc_ref().ptr();
  });
  return cls;
}

}  // namespace torch
