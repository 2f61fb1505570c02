#pragma once
// How a new tensor's elements are laid out in memory (PyTorch's torch.memory_format).
#include <cstdint>

namespace th {

enum class MemoryFormat : int8_t {
  Contiguous,      ///< row-major
  Preserve,        ///< like the source tensor when it is dense, else row-major
  ChannelsLast,    ///< 4-D NCHW sizes stored as NHWC
  ChannelsLast3d,  ///< 5-D NCDHW sizes stored as NDHWC
};

/// "contiguous_format", "preserve_format", "channels_last", "channels_last_3d".
inline const char* memory_format_name(MemoryFormat f) {
  switch (f) {
    case MemoryFormat::Contiguous: return "contiguous_format";
    case MemoryFormat::Preserve: return "preserve_format";
    case MemoryFormat::ChannelsLast: return "channels_last";
    case MemoryFormat::ChannelsLast3d: return "channels_last_3d";
  }
  return "?";
}

}  // namespace th
