// torch.memory_format: one Python object per th::MemoryFormat (torch.contiguous_format, ...).
#include <iterator>

#include "bind.h"

namespace torch {
namespace {

struct MemoryFormatObject {
  th::MemoryFormat format;
};

constexpr th::MemoryFormat kFormats[] = {th::MemoryFormat::Contiguous, th::MemoryFormat::Preserve,
                                         th::MemoryFormat::ChannelsLast, th::MemoryFormat::ChannelsLast3d};
PyObject* objects[std::size(kFormats)] = {};  // borrowed: torch._C's attributes own them

}  // namespace

nb::handle memory_format_object(th::MemoryFormat f) { return objects[static_cast<int>(f)]; }

std::optional<th::MemoryFormat> memory_format_of(nb::handle h) {
  if (!nb::isinstance<MemoryFormatObject>(h)) return std::nullopt;
  return nb::inst_ptr<MemoryFormatObject>(h)->format;
}

void bind_memory_formats(nb::module_& m) {
  nb::class_<MemoryFormatObject>(m, "memory_format")
      .def("__repr__",
           [](const MemoryFormatObject& f) {
             return std::string("torch.") + th::memory_format_name(f.format);
           })
      .def("__reduce__",
           [](const MemoryFormatObject& f) { return std::string(th::memory_format_name(f.format)); });
  for (th::MemoryFormat f : kFormats) {
    nb::object obj = nb::cast(MemoryFormatObject{f});
    objects[static_cast<int>(f)] = obj.ptr();
    m.attr(th::memory_format_name(f)) = obj;
  }
}

}  // namespace torch
