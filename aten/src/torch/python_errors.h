#pragma once
// The Python exception of each TH error class (TH/Exception.h), for nanobind's exception translation: what
// torch._C registers, and what a C++ extension registers for itself (torch/extension.h).
#include <exception>

#include <nanobind/nanobind.h>

#include <TH/Exception.h>
#include <TH/LinAlgError.h>
#include <TH/OutOfMemoryError.h>

namespace torch {

/// A Python int that no 64-bit integer holds, met as an op's number argument: Python's OverflowError
/// (upstream's "int too big to convert"). Only the bindings raise it; the libraries never see such an int.
struct OverflowError : th::Error {
  using th::Error::Error;
};

/// Sets torch._C's exception class `name` (_LinAlgError: torch.linalg.LinAlgError; _OutOfMemoryError:
/// torch.cuda.OutOfMemoryError) with `what`; a RuntimeError should torch._C not have it.
inline void set_torch_c_error(const char* name, const char* what) {
  PyObject* module = PyImport_ImportModule("torch._C");
  PyObject* cls = module ? PyObject_GetAttrString(module, name) : nullptr;
  Py_XDECREF(module);
  if (cls == nullptr) {
    PyErr_Clear();
    PyErr_SetString(PyExc_RuntimeError, what);
    return;
  }
  PyErr_SetString(cls, what);
  Py_DECREF(cls);
}

/// A nanobind exception translator: th::IndexError -> IndexError, TypeError, ValueError, NotImplementedError,
/// torch::OverflowError -> OverflowError, th::LinAlgError -> torch.linalg.LinAlgError, th::OutOfMemoryError
/// -> torch.cuda.OutOfMemoryError, any other th::Error -> RuntimeError. Anything else goes on to the next
/// translator. Every error class is here, not left to a later translator: nanobind tries the translators
/// registered last first, so an extension's copy of this one (torch/extension.h) runs before torch._C's own.
inline void translate_th_errors(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const th::LinAlgError& e) {
    set_torch_c_error("_LinAlgError", e.what());
  } catch (const th::OutOfMemoryError& e) {
    set_torch_c_error("_OutOfMemoryError", e.what());
  } catch (const OverflowError& e) {
    PyErr_SetString(PyExc_OverflowError, e.what());
  } catch (const th::IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const th::TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const th::ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const th::NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const th::Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

}  // namespace torch
