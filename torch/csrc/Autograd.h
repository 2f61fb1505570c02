#pragma once
// The C++ side of autograd: the thread-local grad mode, the per-tensor requires_grad bit, and
// the calls from the generated bindings into the Python engine (torch/autograd/), which builds
// the graph. When grad mode is off or no input requires grad, an op pays for a few bool checks.
#include <optional>
#include <vector>

#include "Conj.h"
#include "Gil.h"
#include "bind.h"

namespace torch::autograd {

/// torch.is_grad_enabled(): per thread, like PyTorch's GradMode.
extern thread_local bool grad_enabled;

inline bool needs_grad(const th::Tensor& t) { return t.defined() && t.impl()->requires_grad; }
inline bool needs_grad(const TensorArg& a) { return needs_grad(a.t); }
inline bool needs_grad(const std::optional<th::Tensor>& t) { return t && needs_grad(*t); }
inline bool needs_grad(nb::handle_t<th::Tensor> h) { return needs_grad(*nb::inst_ptr<th::Tensor>(h)); }
inline bool needs_grad(const std::vector<th::Tensor>& ts) {
  for (const th::Tensor& t : ts)
    if (needs_grad(t)) return true;
  return false;
}

/// Whether an op on these inputs must be recorded: grad mode is on and one of them requires grad.
template <typename... Ts>
bool recording(const Ts&... inputs) {
  return grad_enabled && (needs_grad(inputs) || ...);
}

/// The Python object of a tensor argument (the caller's own object, so its autograd state holds).
inline nb::handle py(const TensorArg& a) { return a.obj; }
inline nb::handle py(nb::handle_t<th::Tensor> h) { return h; }
nb::object py(const th::Tensor& self);

/// Records an out-of-place op: the engine gives `result` a grad_fn for `name` (an overload name
/// such as "add.Tensor") from the Python values of the op's arguments.
void record(const char* name, nb::handle args, nb::handle result);

nb::object begin_inplace(const char* name, nb::handle args);
void finish_inplace(nb::handle pending, nb::handle self_obj);

/// Records an in-place op on `self_obj`: the engine checks and saves what it needs, `run` does the
/// op, then the engine rewrites self's history. Returns self.
template <typename F>
nb::object record_inplace(const char* name, nb::handle self_obj, nb::handle args, F&& run) {
  nb::object pending = begin_inplace(name, args);
  run();
  finish_inplace(pending, self_obj);
  return nb::borrow(self_obj);
}
/// out= overloads are not differentiable: PyTorch's error when an input requires grad.
void check_out(const char* name, bool inputs_require_grad);
/// The out= overload of an `out: castable|exact` op (Out.cpp): `result` written into `out` by
/// torch/_out.py's write_out (its dtype `rule`, device check, resize and copy); returns out (result if None).
nb::object write_out(const char* name, nb::handle out, nb::handle result, const char* rule);

/// `requires_grad=` of factory functions: a new leaf (floating point only, as in PyTorch).
void set_requires_grad(const th::Tensor& t, bool on);

/// Marks `result` as a view of `input` when it shares its storage (autograd tracks views).
void mark_view(const th::Tensor& result, const th::Tensor& input);

void bind_autograd(nb::module_& m, nb::handle tensor_cls);

}  // namespace torch::autograd
