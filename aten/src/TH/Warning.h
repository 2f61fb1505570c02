#pragma once
// Warnings from the libraries (PyTorch's TORCH_WARN): th::warn hands the message to the handler that
// torch._C installs, which raises it as a Python UserWarning (an exception under `-W error`, which then
// propagates as one); without a handler it goes to stderr.
#include <string>

#include "Exception.h"

namespace th {

/// Receives every warning; may throw (a warning turned into an error).
using WarningHandler = void (*)(const std::string& message);

/// Emits `message` through the current handler.
void warn(const std::string& message);
/// Installs `handler` (nullptr: back to stderr).
void set_warning_handler(WarningHandler handler);

}  // namespace th

/// TH_WARN("a ", b, " c"): a warning built as TH_CHECK builds its message.
#define TH_WARN(...) ::th::warn(::th::detail::str(__VA_ARGS__))
