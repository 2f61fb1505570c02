#include "Warning.h"

#include <atomic>
#include <cstdio>

namespace th {
namespace {
std::atomic<WarningHandler> current{nullptr};
}  // namespace

void warn(const std::string& message) {
  if (WarningHandler h = current.load()) return h(message);
  std::fprintf(stderr, "UserWarning: %s\n", message.c_str());
}

void set_warning_handler(WarningHandler handler) { current.store(handler); }

}  // namespace th
