#pragma once
// The Python exception of each TH error class (TH/Exception.h), for nanobind's exception translation: what
// torch._C registers, and what a C++ extension registers for itself (torch/extension.h).
#include <exception>

#include <nanobind/nanobind.h>

#include <TH/Exception.h>

namespace torch {

/// A Python int that no 64-bit integer holds, met as an op's number argument: Python's OverflowError
/// (upstream's "int too big to convert"). Only the bindings raise it; the libraries never see such an int.
struct OverflowError : th::Error {
  using th::Error::Error;
};

/// A nanobind exception translator: th::IndexError -> IndexError, TypeError, ValueError, NotImplementedError,
/// torch::OverflowError -> OverflowError, any other th::Error -> RuntimeError. Anything else goes on to the
/// next translator.
inline void translate_th_errors(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
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
