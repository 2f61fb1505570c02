#pragma once
// torch._C's C API for C++ extensions (torch/extension.h uses it): a capsule, torch._C._C_API, holding a
// CApi, NumPy's way of sharing a C API. Through it an extension converts torch.Tensor objects without sharing
// torch._C's nanobind ABI (its version, compiler and flags may differ), and gets the same Python objects,
// subclasses and autograd state as torch._C's own bindings.
#include <Python.h>

namespace th {
class Tensor;
}

namespace torch {

/// The capsule's name (and torch._C's attribute: `_C_API`).
inline constexpr const char* kCApiCapsule = "torch._C._C_API";

struct CApi {
  /// Bumped on any change to this struct: an extension built against another version is refused by name.
  static constexpr unsigned kVersion = 1;
  unsigned version;
  /// Sets *out to the th::Tensor of `obj` if it is a torch.Tensor (a subclass such as nn.Parameter included)
  /// and returns true; false (no Python error set) if it is not one.
  bool (*unwrap)(PyObject* obj, th::Tensor* out);
  /// A new reference to the torch.Tensor of `t` (what torch._C returns for it); nullptr with a Python error
  /// set if that fails.
  PyObject* (*wrap)(const th::Tensor& t);
};

}  // namespace torch
