// Python's binary operators on tensors (`t * x`, `t += x`): the op's bound method, except that an
// operand the op does not take (neither a tensor nor a Python number) gives NotImplemented instead of the
// op's TypeError, so that Python asks that operand's reflected method (`x.__rmul__(t)`), as upstream's
// TypeError_to_NotImplemented_ wrappers do. Written in C++: the wrapper is on the path of every `a + b`.
#include "bind.h"

namespace torch {
namespace {

/// Whether `o` is an operand the tensor ops take: a tensor or a Python number (their own errors stand).
bool is_operand(PyObject* o) {
  return nb::isinstance<th::Tensor>(o) || PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o);
}

}  // namespace

void bind_operators(nb::module_& m, nb::handle tensor_cls) {
  m.def(
      "_operator",
      [tensor_cls](nb::object fn, const char* name) {
        return nb::cpp_function(
            [fn](nb::handle self, nb::handle other) -> nb::object {
              PyObject* args[2] = {self.ptr(), other.ptr()};
              PyObject* r = PyObject_Vectorcall(fn.ptr(), args, 2, nullptr);
              if (r) return nb::steal(r);
              if (!PyErr_ExceptionMatches(PyExc_TypeError) || is_operand(other.ptr()))
                throw nb::python_error();
              PyErr_Clear();
              return nb::borrow(Py_NotImplemented);
            },
            nb::scope(tensor_cls), nb::name(name), nb::is_method(), "other"_a.none());
      },
      "fn"_a, "name"_a,
      "The method `name` (__mul__, __iadd__, ...) calling fn(self, other), NotImplemented for an operand "
      "that is "
      "neither a tensor nor a number.");
}

}  // namespace torch
