#pragma once
// Autocast (torch.autocast): the thread-local state, and the hook the generated bindings of the ops
// aten/native_functions.yaml marks `autocast:` call first. While no autocast region is active on this
// thread, an op pays one bool check; in one, the op's arguments go to torch/amp/autocast_mode.py, which
// casts them by the op's policy and calls the op again (with autocast excluded for that call).
#include "bind.h"

namespace torch::autocast {

/// The per-thread autocast state (upstream's: per device type enabled and dtype, the weight cache switch,
/// the nesting of autocast regions); `excluded` counts the calls autocast itself makes (no casting inside).
struct State {
  bool cpu = false;
  bool cuda = false;
  th::ScalarType cpu_dtype = th::ScalarType::BFloat16;
  th::ScalarType cuda_dtype = th::ScalarType::Half;
  bool cache = true;
  int nesting = 0;
  int excluded = 0;
};
extern thread_local State state;

/// Whether an autocast op must go through redispatch: autocast on for a device type, and not excluded.
inline bool active() { return (state.cpu || state.cuda) && state.excluded == 0; }

/// The op's policy on each device (0: none, 1: lower_precision_fp, 2: fp32, 3: promote, 4: banned), where
/// to find it again (0: torch._C, 1: torch._C._nn, 2: a Tensor method) and its Python arguments: the
/// op's result with its arguments cast, or an invalid object when nothing is to be cast (the caller
/// then runs the op as it is).
nb::object redispatch(int cpu, int cuda, int where, const char* name, nb::tuple args, nb::dict kwargs);

void bind_autocast(nb::module_& m);

}  // namespace torch::autocast
