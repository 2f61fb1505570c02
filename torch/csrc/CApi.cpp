// torch._C._C_API: the C API that C++ extensions convert tensors through (aten/src/torch/c_api.h).
#include <torch/c_api.h>

#include "bind.h"

namespace torch {
namespace {

PyTypeObject* tensor_type = nullptr;

bool unwrap(PyObject* obj, th::Tensor* out) {
  if (!PyObject_TypeCheck(obj, tensor_type)) return false;
  *out = *nb::inst_ptr<th::Tensor>(nb::handle(obj));
  return true;
}

PyObject* wrap(const th::Tensor& t) {
  try {
    return nb::cast(t).release().ptr();
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

const CApi api{CApi::kVersion, &unwrap, &wrap};

}  // namespace

void bind_c_api(nb::module_& m, nb::handle tensor) {
  tensor_type = reinterpret_cast<PyTypeObject*>(tensor.ptr());
  m.attr("_C_API") = nb::capsule(&api, kCApiCapsule);
}

}  // namespace torch
