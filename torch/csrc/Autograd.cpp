// Grad mode, requires_grad / autograd metadata on tensors, and the hooks into the Python engine.
#include "Autograd.h"

#include <unordered_map>

namespace torch::autograd {

thread_local bool grad_enabled = true;

namespace {

/// The engine's entry points (torch/autograd/_recording.py installs them at import).
/// The engine's entry points: recorder_for(name) / inplace_for(name) give the Python function that
/// records one op overload; it is looked up once per binding (keyed by its name literal) and cached.
struct Hooks {
  nb::object recorder_for, inplace_for, finish_inplace;
  std::unordered_map<const void*, nb::object> recorders, inplace;
};
Hooks& hooks() {
  static Hooks* h = new Hooks();  // leaked on purpose: outlives the interpreter's teardown
  return *h;
}

const nb::object& cached(std::unordered_map<const void*, nb::object>& cache, const nb::object& lookup,
                         const char* name) {
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, lookup(nb::str(name))).first;
  return it->second;
}

/// Holds a Python object in a TensorImpl (TH knows nothing of Python), released under the GIL.
std::shared_ptr<void> hold(nb::handle obj) {
  obj.inc_ref();
  return std::shared_ptr<void>(obj.ptr(), [](void* p) {
    if (!Py_IsInitialized()) return;
    nb::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject*>(p));
  });
}

}  // namespace

nb::object py(const th::Tensor& self) {
  nb::object found = nb::find(self);
  return found.is_valid() ? found : nb::cast(self);
}

void record(const char* name, nb::handle args, nb::handle result) {
  // an op that returned one of its inputs (x.to(x.dtype), x.contiguous()) made nothing new
  PyObject* r = result.ptr();
  for (Py_ssize_t i = 0, n = PyTuple_GET_SIZE(args.ptr()); i < n; ++i)
    if (PyTuple_GET_ITEM(args.ptr(), i) == r) return;
  Hooks& h = hooks();
  cached(h.recorders, h.recorder_for, name)(args, result);
}

nb::object begin_inplace(const char* name, nb::handle args) {
  Hooks& h = hooks();
  return cached(h.inplace, h.inplace_for, name)(args);
}

void finish_inplace(nb::handle pending, nb::handle self_obj) { hooks().finish_inplace(pending, self_obj); }

void check_out(const char* name, bool inputs_require_grad) {
  if (inputs_require_grad && grad_enabled)
    throw th::Error(th::detail::str(name,
                                    "(): functions with out=... arguments don't support automatic "
                                    "differentiation, but one of the arguments requires grad."));
}

void set_requires_grad(const th::Tensor& t, bool on) {
  if (!on) return;
  TH_CHECK(th::is_floating_point(t.dtype()) || th::is_complex(t.dtype()),
           "Only Tensors of floating point and complex dtype can require gradients");
  t.impl()->requires_grad = true;
}

void mark_view(const th::Tensor& result, const th::Tensor& input) {
  if (result.storage() != input.storage() || result.is_same(input)) return;
  const auto& root = input.impl()->base;
  result.impl()->base = root ? root : input.impl_ptr();
}

void bind_autograd(nb::module_& m, nb::handle tensor_cls) {
  m.def(
      "is_grad_enabled", [] { return grad_enabled; }, "Whether gradients are being recorded (this thread).");
  m.def(
      "_set_grad_enabled",
      [](bool on) {
        bool prev = grad_enabled;
        grad_enabled = on;
        return prev;
      },
      "mode"_a, "Sets grad mode for this thread; returns the previous mode.");
  m.def(
      "_set_autograd_hooks",
      [](nb::object recorder_for, nb::object inplace_for, nb::object finish) {
        Hooks& h = hooks();
        h.recorder_for = std::move(recorder_for);
        h.inplace_for = std::move(inplace_for);
        h.finish_inplace = std::move(finish);
        h.recorders.clear();
        h.inplace.clear();
      },
      "recorder_for"_a.none(), "inplace_for"_a.none(), "finish_inplace"_a.none());
  nb::class_<th::Tensor> cls = nb::borrow<nb::class_<th::Tensor>>(tensor_cls);
  cls.def_prop_rw(
      "_requires_grad", [](const th::Tensor& t) { return t.impl()->requires_grad; },
      [](th::Tensor& t, bool on) { t.impl()->requires_grad = on; },
      "The raw requires_grad bit (torch.Tensor.requires_grad adds PyTorch's checks).");
  cls.def_prop_rw(
      "_autograd_meta",
      [](const th::Tensor& t) -> nb::object {
        void* p = t.impl()->autograd_meta.get();
        return p ? nb::borrow(static_cast<PyObject*>(p)) : nb::none();
      },
      [](th::Tensor& t, nb::handle meta) { t.impl()->autograd_meta = meta.is_none() ? nullptr : hold(meta); },
      "The engine's per-tensor state (grad_fn, grad, hooks), shared by every Python object of the tensor.");
  cls.def_prop_ro(
      "_base",
      [](const th::Tensor& t) -> nb::object {
        const auto& base = t.impl()->base;
        return base ? nb::cast(th::Tensor(base)) : nb::none();
      },
      "The tensor this one is a view of, or None.");
  cls.def_prop_ro(
      "_meta", [](const th::Tensor& t) { return nb::make_tuple(make_size(t.sizes()), t.dtype()); },
      "(shape, dtype) in one call: what a backward node checks gradients against.");
  cls.def(
      "_set_data",
      [](th::Tensor& self, const th::Tensor& value) {
        th::Tensor t = th::make_view(value, value.sizes(), value.strides(), value.storage_offset());
        t.impl()->requires_grad = self.impl()->requires_grad;  // the autograd state is this tensor's own
        t.impl()->autograd_meta = self.impl()->autograd_meta;
        self = t;
      },
      "value",
      "t.data = value: this tensor object now holds value's memory and metadata (its autograd state stays).");
  cls.def(
      "_alias",
      [](const th::Tensor& t) { return th::make_view(t, t.sizes(), t.strides(), t.storage_offset()); },
      "A new tensor object over the same memory and metadata, with no autograd state.");
}

}  // namespace torch::autograd
