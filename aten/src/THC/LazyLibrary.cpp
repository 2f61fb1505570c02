#include "LazyLibrary.h"

#include <dlfcn.h>

#include <TH/Exception.h>

namespace thc {

bool LazyLibrary::available() {
  std::call_once(once_, [this] {
    handle_ = dlopen(soname_, RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
      const char* why = dlerror();
      error_ = why ? why : "dlopen failed";
    }
  });
  return handle_ != nullptr;
}

void* LazyLibrary::symbol(const char* name) {
  TH_CHECK(available(), "CUDA library ", soname_, " could not be loaded (", error_,
           "); install it with `pip install ", wheel_, "`");
  dlerror();
  void* p = dlsym(handle_, name);
  TH_CHECK(p != nullptr, "CUDA library ", soname_, " has no symbol ", name, " (an older ", wheel_,
           " than this build was compiled against?)");
  return p;
}

}  // namespace thc
