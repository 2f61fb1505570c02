// torch.device: built from "cuda:1", ("cuda", 1), or another device.
#include <TH/DefaultDevice.h>

#include "bind.h"

namespace torch {

void bind_device(nb::module_& m) {
  m.def(
      "_set_default_device", [](std::optional<th::Device> d) { th::set_default_device(d); },
      "device"_a.none(), "Sets (None: clears) the device of tensors that factories make without one.");
  m.def("_get_default_device", &th::default_device_setting, "The device set by set_default_device, or None.");
  nb::class_<th::Device>(m, "device")
      .def(nb::init_implicit<const std::string&>(), "type"_a)
      .def(
          "__init__",
          [](th::Device* self, const std::string& type, int index) {
            new (self) th::Device(type);
            if (index < 0) throw th::Error("Device index must not be negative");
            self->index = index;
          },
          "type"_a, "index"_a)
      .def(
          "__init__",
          [](th::Device* self, int64_t index) {  // torch.device(1) is cuda:1, as upstream
            if (index < 0) throw th::Error("Device index must not be negative");
            new (self) th::Device(th::DeviceType::CUDA, static_cast<int>(index));
          },
          "index"_a)
      .def_prop_ro("type", [](const th::Device& d) { return std::string(th::device_type_name(d.type)); })
      .def_prop_ro("index",
                   [](const th::Device& d) -> std::optional<int> {
                     if (d.index < 0) return std::nullopt;
                     return d.index;
                   })
      .def("__str__", &th::Device::str)
      .def("__repr__",
           [](const th::Device& d) {
             std::string s = std::string("device(type='") + th::device_type_name(d.type) + "'";
             if (d.index >= 0) s += ", index=" + std::to_string(d.index);
             return s + ")";
           })
      .def("__eq__", [](const th::Device& a, const th::Device& b) { return a == b; })
      .def("__eq__", [](const th::Device&, nb::handle) { return false; })
      .def("__hash__", [](const th::Device& d) { return static_cast<int>(d.type) * 1000 + d.index; });
}

}  // namespace torch
