"""torch.utils.hooks: the handle every hook registration returns, BackwardHook (nn.Module's full backward hooks)
and helpers for hooks on tensors (PyTorch's API)."""

from __future__ import annotations

import warnings
import weakref
from collections import OrderedDict

__all__ = ["RemovableHandle", "unserializable_hook", "warn_if_has_hooks", "BackwardHook"]


class RemovableHandle:
    """A handle that removes the hook it was returned for from its dict (and from `extra_dict`, a dict or list of
    dicts of per-hook flags): `remove()`, or on `with` exit. It holds the dicts weakly, as upstream's."""

    id: int
    next_id: int = 0

    def __init__(self, hooks_dict, *, extra_dict=None) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        self.extra_dict_ref: tuple = ()
        if isinstance(extra_dict, dict):
            self.extra_dict_ref = (weakref.ref(extra_dict),)
        elif isinstance(extra_dict, list):
            self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self) -> None:
        """Removes the hook; removing twice is a no-op."""
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            d = ref()
            if d is not None:
                d.pop(self.id, None)

    def __getstate__(self):
        return (self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref))

    def __setstate__(self, state) -> None:
        self.hooks_dict_ref = weakref.ref(OrderedDict() if state[0] is None else state[0])
        self.id = state[1]
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        extra = state[2] if len(state) > 2 and state[2] is not None else ()
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extra if d is not None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *args) -> None:
        self.remove()


def unserializable_hook(f):
    """Marks `f` as a hook that is not serialized with its tensor (silencing warn_if_has_hooks)."""
    f.__torch_unserializable__ = True
    return f


def warn_if_has_hooks(tensor) -> None:
    """Warns about each backward hook of `tensor` not marked with unserializable_hook (it will not be saved)."""
    hooks = getattr(tensor, "_backward_hooks", None)
    if hooks:
        for k in hooks:
            hook = hooks[k]
            if not hasattr(hook, "__torch_unserializable__"):
                warnings.warn(
                    f"backward hook {hook!r} on tensor will not be serialized.  If this is expected, you can "
                    "decorate the function with @torch.utils.hooks.unserializable_hook to suppress this warning",
                    stacklevel=2,
                )


def _backward_hook_function():
    """The identity autograd Function whose nodes catch a module's input and output gradients (made on first use:
    torch.autograd is not importable when this module is)."""
    global _BackwardHookFunction
    if _BackwardHookFunction is None:
        import torch  # noqa: PLC0415

        class BackwardHookFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, *args):
                ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
                return args

            @staticmethod
            def backward(ctx, *args):
                return args

        _BackwardHookFunction = BackwardHookFunction
    return _BackwardHookFunction


_BackwardHookFunction = None


class BackwardHook:
    """nn.Module's full backward (pre-)hooks for one call: the module's tensor inputs and outputs pass through an
    identity Function; its output node's hook catches grad_output (and runs the pre-hooks, which may replace it),
    its input node's hook then calls the user hooks with (module, grad_input, grad_output), non-tensor
    arguments as None, and lets them replace grad_input."""

    def __init__(self, module, user_hooks, user_pre_hooks) -> None:
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size) -> tuple:
        res = [None] * size
        for idx, val in zip(indices, values):
            res[idx] = val
        return tuple(res)

    @staticmethod
    def _unpack_none(indices, values) -> tuple:
        return tuple(values[idx] for idx in indices)

    def _set_user_hook(self, grad_fn) -> None:
        def hook(grad_input, _):
            if self.grad_outputs is None:  # the output hook did not run (the output was not used)
                return None
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError(
                        f"Backward hook returned an invalid number of grad_input, got {len(out)}, but expected "
                        f"{len(res)}"
                    )
                res = out
            self.grad_outputs = None
            return self._unpack_none(self.input_tensors_index, res)

        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn, args):
        import torch  # noqa: PLC0415

        tensors_idx = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
        tensors = [args[i] for i in tensors_idx]
        if not (any(t.requires_grad for t in tensors) and torch.is_grad_enabled()):
            return args, None
        new_tensors = _backward_hook_function().apply(*tensors)
        if len(new_tensors) == 0:
            raise RuntimeError("Cannot set Module backward hook for a Module with no input Tensors.")
        grad_fns = [
            t.grad_fn
            for t in new_tensors
            if t.grad_fn is not None and t.grad_fn.name() == "BackwardHookFunctionBackward"
        ]
        if not grad_fns:
            raise RuntimeError(
                "Error while setting up backward hooks. Please open an issue with a code sample to reproduce this."
            )
        fn(grad_fns[0])
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors):
            arg_list[idx] = val
        out = tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)
        return out, tensors_idx

    def setup_input_hook(self, args):
        """The module's arguments, their tensors passed through the input node."""
        res, input_idx = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        self.input_tensors_index = input_idx
        return res

    def setup_output_hook(self, args):
        """The module's result, its tensors passed through the output node."""

        def fn(grad_fn) -> None:
            def hook(_, grad_output):
                self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
                if self.user_pre_hooks:
                    expected_len = len(self.grad_outputs)
                    for user_pre_hook in self.user_pre_hooks:
                        hook_grad_outputs = user_pre_hook(self.module, self.grad_outputs)
                        if hook_grad_outputs is None:
                            continue
                        if len(hook_grad_outputs) != expected_len:
                            raise RuntimeError(
                                "Backward pre hook returned an invalid number of grad_output, got "
                                f"{len(hook_grad_outputs)}, but expected {expected_len}"
                            )
                        self.grad_outputs = hook_grad_outputs
                local_grad_outputs = self.grad_outputs
                if self.input_tensors_index is None:  # no input requires grad: the hooks run now
                    warnings.warn(
                        "Full backward hook is firing when gradients are computed with respect to module outputs "
                        "since no inputs require gradients. See "
                        "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                        "#torch.nn.Module.register_full_backward_hook for more details.",
                        stacklevel=5,
                    )
                    grad_inputs = self._pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                            raise RuntimeError(
                                "Backward hook for Modules where no input requires gradient should always return "
                                "None or None for all gradients."
                            )
                    self.grad_outputs = None
                if local_grad_outputs is not None:
                    return tuple(local_grad_outputs[i] for i in self.output_tensors_index)
                return None

            grad_fn.register_hook(hook)

        is_tuple = isinstance(args, tuple)
        if not is_tuple:
            args = (args,)
        res, output_idx = self._apply_on_tensors(fn, args)
        self.n_outputs = len(args)
        self.output_tensors_index = output_idx
        return res if is_tuple else res[0]
