"""The autograd part of torch.Tensor: requires_grad, grad, grad_fn, is_leaf, backward, hooks,
detach (PyTorch's names, semantics and errors)."""

from __future__ import annotations

from torch._C import Tensor
from torch._C import dtype as _dtype
from torch._registry import register
from torch.autograd.engine import run_backward
from torch.autograd.graph import SAME_DTYPE, _RemovableHandle, grad_copy, meta


def _get_requires_grad(self: Tensor) -> bool:
    return self._requires_grad


def _set_requires_grad(self: Tensor, value: bool) -> None:
    m = self._autograd_meta
    if m is not None and m.grad_fn is not None:
        if not value:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
            )
        return
    if value and not self.dtype._differentiable:
        raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
    self._requires_grad = bool(value)


@register(function=False, method=True)
def requires_grad_(self: Tensor, requires_grad: bool = True) -> Tensor:
    """Sets requires_grad in place (leaves only) and returns self."""
    _set_requires_grad(self, requires_grad)
    return self


def _grad_fn(self: Tensor):
    m = self._autograd_meta
    return None if m is None else m.grad_fn


def _is_leaf(self: Tensor) -> bool:
    m = self._autograd_meta
    return m is None or m.grad_fn is None


def _get_grad(self: Tensor):
    m = self._autograd_meta
    if m is None:
        return None
    if m.grad_fn is not None and not m.retains_grad and m.grad is None:
        import warnings  # noqa: PLC0415

        warnings.warn(
            "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't "
            "be populated during autograd.backward(). If you indeed want the .grad field to be populated for a "
            "non-leaf Tensor, use .retain_grad() on the non-leaf Tensor.",
            UserWarning,
            stacklevel=2,
        )
    return m.grad


def _set_grad(self: Tensor, value) -> None:
    if value is not None:
        if not isinstance(value, Tensor):
            raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of {type(value).__name__}")
        if value.dtype != self.dtype:
            raise RuntimeError("assigned grad has data of a different type")
        if tuple(value.shape) != tuple(self.shape):
            raise RuntimeError("assigned grad has data of a different size")
        if value.device != self.device:
            raise RuntimeError("assigned grad has data located on a different device")
    meta(self).grad = value


def _grad_deleter(self: Tensor) -> None:
    meta(self).grad = None


@register(function=False, method=True)
def detach(self: Tensor) -> Tensor:
    """A new tensor sharing this one's memory, outside the graph (requires_grad=False)."""
    return self._alias()


@register(function=False, method=True)
def detach_(self: Tensor) -> Tensor:
    """Detaches this tensor from the graph in place (it becomes a leaf)."""
    if self._base is not None and self._requires_grad:
        raise RuntimeError(
            "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for "
            "training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence "
            "detach_() cannot be called on these gradients. To fix this error, please refer to the "
            "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
        )
    m = self._autograd_meta
    if m is not None:
        m.grad_fn = None
        m.output_nr = 0
    self._requires_grad = False
    return self


@register(function=False, method=True)
def retain_grad(self: Tensor) -> None:
    """Keeps the gradient of this non-leaf tensor in .grad during backward."""
    if not self._requires_grad:
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    m = meta(self)
    if m.grad_fn is None or m.retains_grad:
        return
    m.retains_grad = True
    node, nr = m.grad_fn, m.output_nr

    def hook(g, m=m):
        m.grad = grad_copy(g) if m.grad is None else m.grad + g
        return None

    hook._retains_grad = True
    _add_pre_hook(node, nr, hook)


def _add_pre_hook(node, nr: int, fn) -> _RemovableHandle:
    if node._pre_hooks is None:
        node._pre_hooks = {}
    hooks = node._pre_hooks.setdefault(nr, [])
    # user hooks run before the retain_grad hook, as in PyTorch
    if getattr(fn, "_retains_grad", False):
        hooks.append(fn)
    else:
        k = next((i for i, h in enumerate(hooks) if getattr(h, "_retains_grad", False)), len(hooks))
        hooks.insert(k, fn)
    return _RemovableHandle(hooks, fn)


def _retains_grad(self: Tensor) -> bool:
    m = self._autograd_meta
    return m is not None and m.retains_grad


@register(function=False, method=True)
def register_hook(self: Tensor, hook) -> _RemovableHandle:
    """hook(grad) runs when this tensor's gradient is computed; a non-None result replaces it."""
    if not self._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    m = meta(self)
    if m.grad_fn is None:
        if m.hooks is None:
            m.hooks = []
        m.hooks.append(hook)
        return _RemovableHandle(m.hooks, hook)
    return _add_pre_hook(m.grad_fn, m.output_nr, hook)


@register(function=False, method=True)
def register_post_accumulate_grad_hook(self: Tensor, hook) -> _RemovableHandle:
    """hook(tensor) runs after this leaf's .grad was updated."""
    if not _is_leaf(self):
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    m = meta(self)
    if m.post_acc_hooks is None:
        m.post_acc_hooks = []
    m.post_acc_hooks.append(hook)
    return _RemovableHandle(m.post_acc_hooks, hook)


@register(function=False, method=True)
def backward(self: Tensor, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
    """Computes the gradient of this tensor w.r.t. the graph leaves (see torch.autograd.backward)."""
    if inputs is None and gradient is None and not create_graph:  # the common case, kept short
        run_backward([self], None, bool(retain_graph), False)
        return
    from torch import autograd  # noqa: PLC0415

    autograd.backward(self, gradient, retain_graph, create_graph, inputs)


def _data(self: Tensor) -> Tensor:
    return self._alias()


def _set_data(self: Tensor, value: Tensor) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
    self._set_data(value)


def _output_nr(self: Tensor) -> int:
    m = self._autograd_meta
    return 0 if m is None else m.output_nr


def _get_grad_dtype(self: Tensor):
    if not _is_leaf(self):
        raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
    m = self._autograd_meta
    return self.dtype if m is None or m.grad_dtype is SAME_DTYPE else m.grad_dtype


def _set_grad_dtype(self: Tensor, dtype) -> None:
    if not _is_leaf(self):
        raise RuntimeError("grad_dtype can only be set on leaf tensors.")
    if dtype is not None and not isinstance(dtype, _dtype):
        raise TypeError(f"grad_dtype must be a torch.dtype or None, not {type(dtype).__name__}")
    meta(self).grad_dtype = dtype


# Tensor's autograd attributes
for _name, _property in {
    "requires_grad": property(_get_requires_grad, _set_requires_grad, doc="Whether gradients flow here."),
    "grad_fn": property(_grad_fn, doc="The backward node that produced this tensor (None for leaves)."),
    "is_leaf": property(_is_leaf, doc="Whether this tensor was created by the user (not by a recorded op)."),
    "grad": property(_get_grad, _set_grad, _grad_deleter, doc="The accumulated gradient (leaves)."),
    "retains_grad": property(_retains_grad),
    "grad_dtype": property(
        _get_grad_dtype,
        _set_grad_dtype,
        doc="A leaf's gradients are cast to this dtype as they accumulate (default: its own dtype; None: any).",
    ),
    "data": property(_data, _set_data, doc="This tensor's memory, detached from the graph."),
    "output_nr": property(_output_nr),
}.items():
    register(_property, name=_name, function=False, method=True)
