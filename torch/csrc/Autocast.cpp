// torch.autocast's thread-local state and the generated bindings' hook into torch/amp/autocast_mode.py.
#include "Autocast.h"

namespace torch::autocast {

thread_local State state;

namespace {
bool& enabled_flag(const std::string& device_type) {
  if (device_type == "cpu") return state.cpu;
  if (device_type == "cuda") return state.cuda;
  throw th::Error("User specified an unsupported autocast device_type '" + device_type + "'");
}
th::ScalarType& dtype_slot(const std::string& device_type) {
  if (device_type == "cpu") return state.cpu_dtype;
  if (device_type == "cuda") return state.cuda_dtype;
  throw th::Error("User specified an unsupported autocast device_type '" + device_type + "'");
}
}  // namespace

nb::object redispatch(int cpu, int cuda, int where, const char* name, nb::tuple args, nb::dict kwargs) {
  // looked up once and kept for the life of the process (no destructor runs at interpreter exit)
  static PyObject* hook =
      nb::object(nb::module_::import_("torch.amp.autocast_mode").attr("_redispatch")).release().ptr();
  nb::object r = nb::borrow(hook)(cpu, cuda, where, name, args, kwargs);
  if (r.is_none()) return nb::object();
  return r;
}

void bind_autocast(nb::module_& m) {
  m.def(
      "_is_autocast_available", [](const std::string& d) { return d == "cpu" || d == "cuda"; },
      "device_type"_a);
  m.def(
      "_autocast_is_enabled", [](const std::string& d) { return enabled_flag(d); }, "device_type"_a,
      "Whether autocast is on for the device type on this thread.");
  m.def(
      "_autocast_set_enabled", [](const std::string& d, bool on) { enabled_flag(d) = on; }, "device_type"_a,
      "enabled"_a);
  m.def("_autocast_get_dtype", [](const std::string& d) { return dtype_slot(d); }, "device_type"_a);
  m.def(
      "_autocast_set_dtype", [](const std::string& d, th::ScalarType t) { dtype_slot(d) = t; },
      "device_type"_a, "dtype"_a);
  m.def("_autocast_cache_enabled", [] { return state.cache; });
  m.def("_autocast_set_cache_enabled", [](bool on) { state.cache = on; }, "enabled"_a);
  m.def("_autocast_increment_nesting", [] { return ++state.nesting; });
  m.def("_autocast_decrement_nesting", [] { return --state.nesting; });
  m.def("_autocast_active", &active,
        "Whether an autocast op casts now (autocast on, not inside its own call).");
  m.def("_autocast_exclude", [](int delta) { state.excluded += delta; }, "delta"_a);
}

}  // namespace torch::autocast
