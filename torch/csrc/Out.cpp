// out= for the ops declared `out: castable` / `out: exact` in native_functions.yaml: their generated
// out= overload computes the result and hands it here; torch/_out.py's write_out (shared with the Python
// ops and torch.linalg) checks out's dtype and device, resizes it and copies the result in.
#include "Autograd.h"

namespace torch::autograd {

nb::object write_out(const char* name, nb::handle out, nb::handle result, const char* rule) {
  if (out.is_none()) return nb::borrow(result);
  // imported on use: out= is the rare path, and sys.modules makes a second import a dict lookup
  nb::object write = nb::module_::import_("torch._out").attr("write_out");
  return write(name, out, result, rule);
}

}  // namespace torch::autograd
