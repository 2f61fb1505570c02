#pragma once
// The GIL around the libraries' calls: released while a long kernel runs, as PyTorch's bindings do,
// so that Python threads run alongside it (and the kernel's own OpenMP threads do not wait on it).
#include <initializer_list>

#include <TH/Parallel.h>
#include <TH/Tensor.h>

#include "bind.h"

namespace torch {

/// f() (a call into TH that touches no Python object), with the GIL released when one of `tensors`
/// has at least th::kGrainSize elements, the size from which kernels split their work over
/// threads. A short op keeps the GIL: releasing and taking it back costs more than the op saves.
template <typename F>
auto without_gil_if_long(std::initializer_list<const th::Tensor*> tensors, F&& f) {
  for (const th::Tensor* t : tensors) {
    if (t->defined() && t->numel() >= th::kGrainSize) {
      nb::gil_scoped_release released;
      return f();
    }
  }
  return f();
}

}  // namespace torch
