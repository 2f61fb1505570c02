// Tensor.__getitem__ / __setitem__: Python's indexing protocol on top of TH's views
// (select, slice, unsqueeze). Ints, slices with steps, None and ... make views; assigning
// copies a tensor (broadcast) or fills a number into the indexed view.
#include <TH/Functions.h>
#include <TH/Overlap.h>

#include "Autograd.h"
#include "bind.h"

namespace torch {
namespace {

bool is_int(PyObject* o) { return PyLong_Check(o) && !PyBool_Check(o); }

/// The view that `index` selects from `self`.
th::Tensor index_view(const th::Tensor& self, nb::handle index) {
  PyObject* idx = index.ptr();
  if (is_int(idx)) {  // fast paths: x[i], x[a:b]
    TH_CHECK_T(th::IndexError, self.dim() > 0,
               "invalid index of a 0-dim tensor. Use `tensor.item()` in Python");
    return th::select(self, 0, PyLong_AsLongLong(idx));
  }
  std::vector<nb::handle> items;
  if (PyTuple_Check(idx)) {
    for (nb::handle h : nb::borrow<nb::tuple>(index)) items.push_back(h);
  } else {
    items.push_back(index);
  }
  int64_t specified = 0;
  for (nb::handle h : items) {
    if (h.ptr() != Py_Ellipsis && !h.is_none()) ++specified;
  }
  TH_CHECK_T(th::IndexError, specified <= self.dim(), "too many indices for tensor of dimension ",
             self.dim());
  th::Tensor r = self;
  int64_t dim = 0;   // position in r
  int64_t item = 0;  // position in the key: upstream's error names it as the dimension
  for (nb::handle h : items) {
    PyObject* o = h.ptr();
    if (is_int(o)) {
      const int64_t i = PyLong_AsLongLong(o), n = r.sizes()[size_t(dim)];
      TH_CHECK_T(th::IndexError, i >= -n && i < n, "index ", i, " is out of bounds for dimension ", item,
                 " with size ", n);
      r = th::select(r, dim, i);
    } else if (PySlice_Check(o)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(o, &start, &stop, &step) < 0) throw nb::python_error();
      TH_CHECK_T(th::ValueError, step > 0, "step must be greater than zero");
      TH_CHECK_T(th::IndexError, dim < r.dim(), "too many indices for tensor of dimension ", self.dim());
      PySlice_AdjustIndices(r.sizes()[dim], &start, &stop, step);
      r = th::slice(r, dim, start, std::max(start, stop), step);
      ++dim;
    } else if (h.is_none()) {
      r = th::unsqueeze(r, dim);
      ++dim;
    } else if (o == Py_Ellipsis) {
      // the indices after ... take the last dims; each further ... skips as many again (upstream's rule,
      // so x[..., ...] is x)
      dim += self.dim() - specified;
    } else {
      throw th::IndexError(
          "only integers, slices (`:`), ellipsis (`...`) and None are valid indices (advanced indexing with "
          "tensors is not implemented yet)");
    }
    ++item;
  }
  return r;
}

/// How many leading size-1 dims of an assigned value go beyond the target's dims: upstream drops them
/// (x[0] = row.unsqueeze(0) writes the row).
int64_t leading_ones(const th::Tensor& value, int64_t target_dim) {
  int64_t k = 0;
  while (value.dim() - k > target_dim && value.sizes()[size_t(k)] == 1) ++k;
  return k;
}

}  // namespace

/// Whether `index` has an advanced item (an index tensor, a list or a bool), which torch/_refs/indexing.py
/// handles.
bool is_advanced(nb::handle index) {
  auto advanced = [](nb::handle h) {
    return nb::isinstance<th::Tensor>(h) || PyList_Check(h.ptr()) || PyBool_Check(h.ptr());
  };
  if (PyTuple_Check(index.ptr())) {
    for (nb::handle h : nb::borrow<nb::tuple>(index))
      if (advanced(h) || PyTuple_Check(h.ptr())) return true;
    return false;
  }
  return advanced(index);
}

nb::object advanced_indexing(const char* fn) {
  // Not a function-local static initialised by the import: its guard would be held while the import
  // releases the GIL, and a second thread indexing meanwhile would wait on the guard holding the GIL
  // (a deadlock). A constant-initialised pointer has no guard; two threads may both import (the same
  // module object, from sys.modules), under the GIL each.
  static PyObject* module = nullptr;  // a reference kept to exit
  if (!module) {
    nb::object m = nb::module_::import_("torch._refs.indexing");
    if (!module) module = m.release().ptr();
  }
  return nb::borrow(module).attr(fn);
}

void bind_indexing(nb::handle tensor_cls) {
  def_method(
      tensor_cls, "__getitem__",
      [](nb::handle_t<th::Tensor> self_obj, nb::handle index) -> nb::object {
        if (is_advanced(index)) return advanced_indexing("getitem")(self_obj, index);
        const th::Tensor& self = *nb::inst_ptr<th::Tensor>(self_obj);
        th::Tensor r = index_view(self, index);
        autograd::mark_view(r, self);
        nb::object res = nb::cast(std::move(r));
        if (autograd::recording(self)) autograd::record("__getitem__", nb::make_tuple(self_obj, index), res);
        return res;
      },
      "index"_a.none());  // t[None] adds a dim (nanobind refuses None unless told)
  def_method(
      tensor_cls, "__setitem__",
      [](nb::handle_t<th::Tensor> self_obj, nb::handle index, const TensorArg& value) {
        // upstream's setitem unpacks a Python int as an int64, whatever the dtype: 2**63 is its ValueError
        if (value.overflow || (value.t.impl()->wrapped_number && value.t.dtype() == th::ScalarType::UInt64))
          throw th::ValueError("Overflow when unpacking long long");
        // a number converts into the dtype (checked) before the key is read, as upstream's setitem does;
        // a real number into a 16- or 8-bit float rounds instead (x[0] = 1e6 is inf for float16)
        const th::ScalarType dt = nb::inst_ptr<th::Tensor>(self_obj)->dtype();
        const bool reduced =
            th::is_floating_point(dt) && th::element_size(dt) <= 2 && !PyComplex_Check(value.obj.ptr());
        const bool number = value.t.impl()->wrapped_number && !reduced;
        const th::Scalar scalar = number ? nb::cast<th::Scalar>(value.obj) : th::Scalar();
        if (number)  // the checked conversion alone (no tensor made): the basic path's fill_ writes it
          TH_DISPATCH_ALL_TYPES_AND_BAREBONES(dt, "setitem", [&] { (void)scalar.to<scalar_t>(); });
        if (is_advanced(index)) {
          advanced_indexing("setitem")(self_obj, index, value.obj);
          return;
        }
        const th::Tensor& self = *nb::inst_ptr<th::Tensor>(self_obj);
        if (autograd::recording(self, value)) {  // view + copy_, both recorded: the engine rebases self
          nb::object view = self_obj.attr("__getitem__")(index);
          nb::object v = nb::borrow(value.obj);
          for (int64_t k = leading_ones(value.t, nb::cast<const th::Tensor&>(view).dim()); k > 0; --k)
            v = v.attr("select")(0, 0);
          view.attr("copy_")(v);
          return;
        }
        th::Tensor view = index_view(self, index);
        if (number) {  // a Python number: fill_'s conversion (checked above)
          // ... but upstream's setitem writes it with copy_, which refuses an expanded view (fill_ allows
          // one)
          th::assert_no_internal_overlap(view);
          th::fill_(view, scalar);
        } else {  // a tensor, or a number into a reduced float: rounded as upstream's setitem (1e6 is inf)
          th::Tensor v = value.t;
          for (int64_t k = leading_ones(v, view.dim()); k > 0; --k) v = th::select(v, 0, 0);
          // upstream's copy_to expands the value first: it must fit even an empty target
          th::copy_(view, th::expand(v, view.sizes()));  // converts the dtype, crosses devices
        }
      },
      "index"_a.none(), "value"_a);
}

}  // namespace torch
