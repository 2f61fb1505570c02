#pragma once
// What a C++ extension of torch includes (torch.utils.cpp_extension builds it): nanobind, the TH tensor and
// its ops (TH/Functions.h), and conversions between torch.Tensor objects and th::Tensor (torch::Tensor).
//
//   #include <torch/extension.h>
//
//   torch::Tensor scaled_add(const torch::Tensor& a, const torch::Tensor& b, double alpha) {
//     return th::add(a, b, alpha);
//   }
//   NB_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scaled_add", &scaled_add); }
//
// The conversions go through torch._C's C API capsule (torch/c_api.h), so the extension may be built with
// another nanobind than torch._C. TH's errors become the same Python exceptions as in torch._C.
#include <cstdint>
#include <cstring>

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <TH/Functions.h>
#include <TH/Tensor.h>
#include <torch/c_api.h>
#include <torch/python_errors.h>

namespace nb = nanobind;

namespace torch {

using Tensor = th::Tensor;

namespace detail {

/// torch._C's C API (imported on first use: torch is imported by then, as the extension's caller has it).
inline const CApi& c_api() {
  static const CApi* api = [] {
    nb::object capsule = nb::module_::import_("torch._C").attr("_C_API");
    auto* p = static_cast<const CApi*>(PyCapsule_GetPointer(capsule.ptr(), kCApiCapsule));
    if (!p) throw nb::python_error();
    if (p->version != CApi::kVersion)
      throw std::runtime_error("this extension was built against torch C API version " +
                               std::to_string(CApi::kVersion) + ", the torch it runs with has version " +
                               std::to_string(p->version) + ": rebuild the extension");
    nb::register_exception_translator(translate_th_errors);
    return p;
  }();
  return *api;
}

}  // namespace detail
}  // namespace torch

namespace nanobind::detail {

/// torch.Tensor <-> th::Tensor (by value or const reference; a tensor shares its storage, as in torch._C).
template <>
struct type_caster<th::Tensor> {
  NB_TYPE_CASTER(th::Tensor, const_name("torch.Tensor"))

  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    try {
      return torch::detail::c_api().unwrap(src.ptr(), &value);
    } catch (...) {
      PyErr_Clear();
      return false;
    }
  }
  static handle from_cpp(const th::Tensor& t, rv_policy, cleanup_list*) noexcept {
    try {
      return torch::detail::c_api().wrap(t);
    } catch (python_error& e) {
      e.restore();
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
    return handle();
  }
};

}  // namespace nanobind::detail
