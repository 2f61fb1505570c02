"""Module: the base class of every layer: registration of parameters, buffers and submodules, their
traversal, state_dict round trips, hooks, train/eval, device/dtype conversion and the nested repr."""

from __future__ import annotations

import functools
import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import torch
from torch.nn.parameter import Buffer, Parameter
from torch.utils.hooks import RemovableHandle

__all__ = ["Module", "RemovableHandle"]


def _typename(obj) -> str:
    """PyTorch's torch.typename: 'torch.FloatTensor' style for tensors, the qualified class name otherwise."""
    if isinstance(obj, torch.Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    qualname = getattr(obj, "__qualname__", None) or type(obj).__qualname__
    if not hasattr(obj, "__qualname__"):
        module = type(obj).__module__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


_EXTRA_STATE_KEY_SUFFIX = "_extra_state"  # the state_dict key of a module's get_extra_state()


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What load_state_dict returns: the missing and unexpected keys."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s_: str, num_spaces: int) -> str:
    """Indents every line but the first of `s_` by `num_spaces` (blank lines stay empty)."""
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(num_spaces * " ") + line if line.strip() else "" for line in s]
    return first + "\n" + "\n".join(s)


# the per-module hook tables a module pickled by an older version may lack
_HOOK_TABLES = (
    "_forward_pre_hooks_with_kwargs",
    "_forward_hooks_with_kwargs",
    "_forward_hooks_always_called",
    "_backward_pre_hooks",
    "_backward_hooks",
    "_state_dict_pre_hooks",
    "_load_state_dict_post_hooks",
)
_global_forward_pre_hooks: dict = OrderedDict()
_global_forward_hooks: dict = OrderedDict()
_global_forward_hooks_always_called: dict = OrderedDict()
_global_forward_hooks_with_kwargs: dict = OrderedDict()
_global_backward_pre_hooks: dict = OrderedDict()
_global_backward_hooks: dict = OrderedDict()
_global_is_full_backward_hook: bool | None = None


def register_module_forward_pre_hook(hook) -> RemovableHandle:
    """Registers a forward pre-hook common to all modules."""
    handle = RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[handle.id] = hook
    return handle


def register_module_forward_hook(hook, *, with_kwargs: bool = False, always_call: bool = False) -> RemovableHandle:
    """Registers a forward hook common to all modules (hook(module, args[, kwargs], output), always_call: run
    even when forward raises)."""
    handle = RemovableHandle(
        _global_forward_hooks, extra_dict=[_global_forward_hooks_with_kwargs, _global_forward_hooks_always_called]
    )
    _global_forward_hooks[handle.id] = hook
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def register_module_full_backward_pre_hook(hook) -> RemovableHandle:
    """Registers hook(module, grad_output) run before every module's backward (see
    Module.register_full_backward_pre_hook)."""
    handle = RemovableHandle(_global_backward_pre_hooks)
    _global_backward_pre_hooks[handle.id] = hook
    return handle


def register_module_full_backward_hook(hook) -> RemovableHandle:
    """Registers hook(module, grad_input, grad_output) run after every module's backward (see
    Module.register_full_backward_hook)."""
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is False:
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward hooks as a global Module hook. Please use "
            "only one of them."
        )
    _global_is_full_backward_hook = True
    handle = RemovableHandle(_global_backward_hooks)
    _global_backward_hooks[handle.id] = hook
    return handle


def register_module_backward_hook(hook) -> RemovableHandle:
    """Deprecated (register_module_full_backward_hook): a hook on every module's last autograd node."""
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is True:
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward hooks as a global Module hook. Please use "
            "only one of them."
        )
    _global_is_full_backward_hook = False
    handle = RemovableHandle(_global_backward_hooks)
    _global_backward_hooks[handle.id] = hook
    return handle


def _forward_unimplemented(self, *input):
    """Placeholder forward: subclasses must override it."""
    raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')


class Module:
    """Base class for all neural network modules; subclasses assign parameters and submodules as attributes
    in __init__ (after calling super().__init__()) and define forward()."""

    dump_patches = False
    _version = 1
    training: bool
    call_super_init = False

    def __init__(self, *args, **kwargs) -> None:
        if self.call_super_init is False and bool(kwargs):
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'"
            )
        if self.call_super_init is False and bool(args):
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were given"
            )
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_pre_hooks_with_kwargs"] = OrderedDict()
        d["_forward_hooks"] = OrderedDict()
        d["_forward_hooks_with_kwargs"] = OrderedDict()
        d["_forward_hooks_always_called"] = OrderedDict()
        d["_backward_pre_hooks"] = OrderedDict()
        d["_backward_hooks"] = OrderedDict()
        d["_is_full_backward_hook"] = None
        d["_state_dict_hooks"] = OrderedDict()
        d["_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_post_hooks"] = OrderedDict()
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    forward = _forward_unimplemented

    # ---- registration

    def register_buffer(self, name: str, tensor: torch.Tensor | None, persistent: bool = True) -> None:
        """Adds a buffer (state that is not a parameter); non-persistent buffers stay out of state_dict."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(
                f"cannot assign '{_typename(tensor)}' object to buffer '{name}' (torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: torch.Tensor | None) -> None:
        """Adds a parameter (a Parameter, or None) reachable as an attribute named `name`."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' (torch.nn.Parameter or None required)"
            )
        elif param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                f"parameters must be created explicitly. To express '{name}' "
                "as a function of another Tensor, compute the value in "
                "the forward() method."
            )
        else:
            self._parameters[name] = param

    def add_module(self, name: str, module: Module | None) -> None:
        """Adds a child module reachable as an attribute named `name`."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name: str, module: Module | None) -> None:
        """Alias of add_module."""
        self.add_module(name, module)

    def get_submodule(self, target: str) -> Module:
        """The submodule at dotted path `target` ('' is self)."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Puts `module` at dotted path `target` (replacing what is there, or adding it where the parent
        exists; with strict, only replacing an existing attribute)."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        atoms = target.split(".")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent = self if len(atoms) == 1 else self.get_submodule(".".join(atoms[:-1]))
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(parent._get_name() + " has no attribute `" + atoms[-1] + "`")
        if hasattr(parent, atoms[-1]) and not isinstance(getattr(parent, atoms[-1]), Module):
            raise AttributeError("`" + atoms[-1] + "` is not an nn.Module")
        setattr(parent, atoms[-1], module)

    def get_parameter(self, target: str) -> torch.Tensor:
        """The parameter at dotted path `target`."""
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> torch.Tensor:
        """The buffer at dotted path `target`."""
        module_path, _, buffer_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return getattr(mod, buffer_name)

    # ---- attribute protocol

    def __getattr__(self, name: str):
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as parameter '{name}' (torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(
                        f"cannot assign '{_typename(value)}' as child module '{name}' "
                        "(torch.nn.Module or None expected)"
                    )
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if isinstance(value, Buffer) or (buffers is not None and name in buffers):
                    if value is not None and not isinstance(value, torch.Tensor):
                        raise TypeError(
                            f"cannot assign '{_typename(value)}' as buffer '{name}' "
                            "(torch.nn.Buffer, torch.Tensor or None expected)"
                        )
                    if isinstance(value, Buffer):
                        persistent = value.persistent
                    else:
                        persistent = name not in self._non_persistent_buffers_set
                    remove_from(self.__dict__, self._parameters, self._modules)
                    self.register_buffer(name, value, persistent)
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        attrs = list(self.__dict__.keys()) + dir(self.__class__)
        attrs += list(self._parameters) + list(self._modules) + list(self._buffers)
        return sorted(a for a in set(attrs) if not a[0].isdigit())

    def __setstate__(self, state):
        """Restores a pickled/deep-copied module (re-marking its parameters, which copies lose); a module pickled
        before a hook table existed gets an empty one."""
        self.__dict__.update(state)
        for name in _HOOK_TABLES:
            self.__dict__.setdefault(name, OrderedDict())
        self.__dict__.setdefault("_is_full_backward_hook", None)
        for name, p in self.__dict__.get("_parameters", {}).items():
            if p is not None and not isinstance(p, Parameter):
                self._parameters[name] = Parameter(p, p.requires_grad)

    # ---- traversal

    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate: bool = True):
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse: bool = True):
        """Iterator over the module's parameters (and its descendants' if `recurse`)."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """Iterator over (dotted name, parameter)."""
        yield from self._named_members(
            lambda m: m._parameters.items(), prefix=prefix, recurse=recurse, remove_duplicate=remove_duplicate
        )

    def buffers(self, recurse: bool = True):
        """Iterator over the module's buffers."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """Iterator over (dotted name, buffer)."""
        yield from self._named_members(
            lambda m: m._buffers.items(), prefix=prefix, recurse=recurse, remove_duplicate=remove_duplicate
        )

    def children(self):
        """Iterator over the immediate child modules."""
        for _, m in self.named_children():
            yield m

    def named_children(self):
        """Iterator over (name, immediate child module), each module once."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self, remove_duplicate: bool = True):
        """Iterator over all modules in the tree, self first (a module reached twice is yielded once unless
        remove_duplicate=False)."""
        for _, m in self.named_modules(remove_duplicate=remove_duplicate):
            yield m

    def named_modules(self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True):
        """Iterator over (dotted name, module) for every module in the tree, self first (named `prefix`)."""
        if memo is None:
            memo = set()
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            submodule_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, submodule_prefix, remove_duplicate)

    # ---- modes and gradients

    def train(self, mode: bool = True):
        """Sets training mode (recursively); returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        """train(False)."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True):
        """Sets requires_grad of every parameter; returns self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Resets the gradients of all parameters (to None, or to zero in place)."""
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    g = p.grad
                    if g.grad_fn is not None:
                        g = g.detach()
                        p.grad = g
                    else:
                        g.requires_grad_(False)
                    g.zero_()

    # ---- conversions

    def _apply(self, fn, recurse: bool = True):
        """Applies `fn` to every parameter, gradient and buffer (recursively), replacing them by its results."""
        if recurse:
            for module in self.children():
                module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with torch.no_grad():
                param_applied = fn(param)
            if param_applied is param:
                continue
            # the same Parameter object takes the new memory (as PyTorch's default does), so an optimizer or
            # anything else holding it sees the converted tensor
            param.data = param_applied
            if param.grad is not None:
                with torch.no_grad():
                    param.grad = fn(param.grad)
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to_empty(self, *, device, recurse: bool = True):
        """Moves the parameters and buffers to `device` without copying their values (uninitialized memory
        of the same shapes and dtypes, as upstream's; initialize them after)."""
        return self._apply(lambda t: torch.empty_like(t, device=device), recurse=recurse)

    def apply(self, fn):
        """Calls fn(module) on every submodule (children first) and then self; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def to(self, *args, **kwargs):
        """Moves and/or casts parameters and buffers: to(device), to(dtype), to(device, dtype), to(tensor),
        to(memory_format=torch.channels_last). Only floating-point and complex tensors change dtype; only
        4-D and 5-D ones change memory format."""
        dtype = kwargs.pop("dtype", None)
        device = kwargs.pop("device", None)
        non_blocking = bool(kwargs.pop("non_blocking", False))
        memory_format = kwargs.pop("memory_format", None)
        if kwargs:
            raise TypeError(f"to() received an invalid combination of arguments: {sorted(kwargs)}")
        for a in args:
            if isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, torch.Tensor):
                device, dtype = a.device, a.dtype
            elif isinstance(a, (str, torch.device, int)) or a is None:
                device = a
            elif isinstance(a, torch.memory_format):
                memory_format = a
            else:
                raise TypeError(f"to() received an invalid combination of arguments - got ({type(a).__name__})")
        if dtype is not None and not (dtype.is_floating_point or getattr(dtype, "is_complex", False)):
            raise TypeError(
                f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}"
            )
        if isinstance(device, int):
            device = torch.device("cuda", device)

        def convert(t):
            cast = dtype if dtype is not None and (t.is_floating_point() or t.is_complex()) else None
            fmt = memory_format if memory_format is not None and t.dim() in (4, 5) else None
            if device is None and cast is None and fmt is None:
                return t
            return t.to(device, cast, non_blocking, memory_format=fmt)

        return self._apply(convert)

    def cuda(self, device=None):
        """Moves every parameter and buffer to the GPU."""
        return self._apply(lambda t: t.cuda(device))

    def compile(self, *args, **kwargs) -> None:
        """Compiles this module's forward in place with torch.compile's arguments (upstream's Module.compile):
        the arguments are checked as torch.compile checks them and, as everything here runs eagerly, the
        module keeps its structure, its state_dict keys and its forward."""
        import torch

        self._compiled_call_impl = torch.compile(self.forward, *args, **kwargs)

    def share_memory(self):
        """Moves every parameter and buffer into shared memory (Tensor.share_memory_); returns self."""
        return self._apply(lambda t: t.share_memory_())

    def cpu(self):
        """Moves every parameter and buffer to the CPU."""
        return self._apply(lambda t: t.cpu())

    def type(self, dst_type):
        """Casts every parameter and buffer to `dst_type`."""
        return self._apply(lambda t: t.type(dst_type))

    def float(self):
        """Casts floating-point parameters and buffers to float32."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        """Casts floating-point parameters and buffers to float64."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        """Casts floating-point parameters and buffers to float16."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        """Casts floating-point parameters and buffers to bfloat16."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    # ---- hooks and calling

    def register_forward_pre_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False):
        """Registers hook(module, args) (or hook(module, args, kwargs)) run before forward; a non-None result
        replaces the input."""
        handle = RemovableHandle(self._forward_pre_hooks, extra_dict=self._forward_pre_hooks_with_kwargs)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False, always_call=False):
        """Registers hook(module, args, output) run after forward; a non-None result replaces the output."""
        handle = RemovableHandle(
            self._forward_hooks, extra_dict=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called]
        )
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_pre_hook(self, hook, prepend: bool = False):
        """Registers hook(module, grad_output) run when the gradients of the module's outputs are computed, before
        its backward; a non-None result replaces grad_output."""
        handle = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        if prepend:
            self._backward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_hook(self, hook, prepend: bool = False):
        """Registers hook(module, grad_input, grad_output) run when the gradients of the module's inputs are
        computed (grad_input: one entry per positional argument, None for non-tensors); a non-None result
        replaces grad_input. The module's tensor arguments and outputs pass through identity nodes for it."""
        if self._is_full_backward_hook is False:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single Module. Please use only "
                "one of them."
            )
        self._is_full_backward_hook = True
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook):
        """Deprecated (register_full_backward_hook): hook(module, grad_input, grad_output) on the autograd node
        that made the module's output, whose grad_input is that node's alone."""
        if self._is_full_backward_hook is True:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single Module. Please use only "
                "one of them."
            )
        self._is_full_backward_hook = False
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    def _get_backward_hooks(self):
        """(full backward hooks, non-full backward hooks) that apply to this module, the global ones first."""
        full, non_full = [], []
        if _global_is_full_backward_hook is True:
            full += _global_backward_hooks.values()
        if self._is_full_backward_hook is True:
            full += self._backward_hooks.values()
        if _global_is_full_backward_hook is False:
            non_full += _global_backward_hooks.values()
        if self._is_full_backward_hook is False:
            non_full += self._backward_hooks.values()
        return full, non_full

    def _get_backward_pre_hooks(self):
        return [*_global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]

    def _maybe_warn_non_full_backward_hook(self, inputs, result, grad_fn) -> None:
        """Upstream's warnings for a non-full backward hook that will not see the module's whole gradient."""
        tensor = torch.Tensor
        if not isinstance(result, tensor):
            if not (isinstance(result, tuple) and all(isinstance(r, tensor) for r in result)):
                warnings.warn(
                    "Using non-full backward hooks on a Module that does not return a single Tensor or a tuple of "
                    "Tensors is deprecated and will be removed in future versions. This hook will be missing some of "
                    "the grad_output. Please use register_full_backward_hook to get the documented behavior.",
                    FutureWarning,
                    stacklevel=2,
                )
                return
        else:
            result = (result,)
        if not isinstance(inputs, tensor):
            if not (isinstance(inputs, tuple) and all(isinstance(i, tensor) for i in inputs)):
                warnings.warn(
                    "Using non-full backward hooks on a Module that does not take as input a single Tensor or a tuple "
                    "of Tensors is deprecated and will be removed in future versions. This hook will be missing some "
                    "of the grad_input. Please use register_full_backward_hook to get the documented behavior.",
                    FutureWarning,
                    stacklevel=2,
                )
                return
        else:
            inputs = (inputs,)
        out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
        if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
            message = (
                "Using a non-full backward hook when outputs are nested in python data structure is deprecated and "
                "will be removed in future versions. This hook will be missing some grad_output."
            )
        elif len(out_grad_fn) > 1:
            message = (
                "Using a non-full backward hook when outputs are generated by different autograd Nodes is deprecated "
                "and will be removed in future versions. This hook will be missing some grad_output. Please use "
                "register_full_backward_hook to get the documented behavior."
            )
        else:
            inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
            if inputs_grad_fn == {n for n, _ in grad_fn.next_functions}:
                return
            message = (
                "Using a non-full backward hook when the forward contains multiple autograd Nodes is deprecated and "
                "will be removed in future versions. This hook will be missing some grad_input. Please use "
                "register_full_backward_hook to get the documented behavior."
            )
        warnings.warn(message, FutureWarning, stacklevel=2)

    def _call_impl(self, *args, **kwargs):
        if not (
            self._forward_pre_hooks
            or self._forward_hooks
            or self._backward_hooks
            or self._backward_pre_hooks
            or _global_forward_pre_hooks
            or _global_forward_hooks
            or _global_backward_hooks
            or _global_backward_pre_hooks
        ):
            return self.forward(*args, **kwargs)
        result = None
        called_always_called_hooks = set()
        try:
            full_backward_hooks, non_full_backward_hooks = [], []
            backward_pre_hooks = []
            if self._backward_pre_hooks or _global_backward_pre_hooks:
                backward_pre_hooks = self._get_backward_pre_hooks()
            if self._backward_hooks or _global_backward_hooks:
                full_backward_hooks, non_full_backward_hooks = self._get_backward_hooks()
            pre = list(_global_forward_pre_hooks.items()) + list(self._forward_pre_hooks.items())
            for hook_id, hook in pre:
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    hook_result = hook(self, args, kwargs)
                    if hook_result is not None:
                        if not (isinstance(hook_result, tuple) and len(hook_result) == 2):
                            raise RuntimeError(
                                "forward pre-hook must return None or a tuple of (new_args, new_kwargs), but got "
                                f"{hook_result}."
                            )
                        args, kwargs = hook_result
                else:
                    hook_result = hook(self, args)
                    if hook_result is not None:
                        args = hook_result if isinstance(hook_result, tuple) else (hook_result,)
            bw_hook = None
            if full_backward_hooks or backward_pre_hooks:
                from torch.utils.hooks import BackwardHook  # noqa: PLC0415

                bw_hook = BackwardHook(self, full_backward_hooks, backward_pre_hooks)
                args = bw_hook.setup_input_hook(args)
            result = self.forward(*args, **kwargs)
            post = [(i, h, _global_forward_hooks_with_kwargs, _global_forward_hooks_always_called)
                    for i, h in _global_forward_hooks.items()]  # fmt: skip
            post += [(i, h, self._forward_hooks_with_kwargs, self._forward_hooks_always_called)
                     for i, h in self._forward_hooks.items()]  # fmt: skip
            for hook_id, hook, with_kwargs, always in post:
                if hook_id in always:
                    called_always_called_hooks.add(hook_id)
                out = hook(self, args, kwargs, result) if hook_id in with_kwargs else hook(self, args, result)
                if out is not None:
                    result = out
            if bw_hook:
                if not isinstance(result, (torch.Tensor, tuple)):
                    warnings.warn(
                        "For backward hooks to be called, module output should be a Tensor or a tuple of Tensors but "
                        f"received {type(result)}",
                        stacklevel=2,
                    )
                result = bw_hook.setup_output_hook(result)
            if non_full_backward_hooks:
                var = result
                while not isinstance(var, torch.Tensor):
                    var = (
                        next(v for v in var.values() if isinstance(v, torch.Tensor))
                        if isinstance(var, dict)
                        else var[0]
                    )
                grad_fn = var.grad_fn
                if grad_fn is not None:
                    for hook in non_full_backward_hooks:
                        grad_fn.register_hook(functools.partial(hook, self))
                    self._maybe_warn_non_full_backward_hook(args, result, grad_fn)
            return result
        except Exception:
            # the forward hooks registered with always_call=True still run, once, as upstream's
            for table, with_kwargs, always, where in (
                (_global_forward_hooks, _global_forward_hooks_with_kwargs, _global_forward_hooks_always_called,
                 "global module forward hook"),
                (self._forward_hooks, self._forward_hooks_with_kwargs, self._forward_hooks_always_called,
                 "module forward hook"),
            ):  # fmt: skip
                for hook_id, hook in table.items():
                    if hook_id in always and hook_id not in called_always_called_hooks:
                        called_always_called_hooks.add(hook_id)
                        try:
                            out = (
                                hook(self, args, kwargs, result) if hook_id in with_kwargs else hook(self, args, result)
                            )
                            if out is not None:
                                result = out
                        except Exception as e:
                            warnings.warn(
                                f"{where} with ``always_call=True`` raised an exception that was silenced as another "
                                f"error was raised in forward: {e}",
                                stacklevel=2,
                            )
            raise

    __call__ = _call_impl

    # ---- state dict

    def get_extra_state(self):
        """The module's extra state for its state_dict (under the key `_extra_state`): override it, with
        set_extra_state, to save state that is not a parameter or buffer."""
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
            "to report this bug."
        )

    def set_extra_state(self, state) -> None:
        """Restores what get_extra_state returned, from load_state_dict."""
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
            "to report this bug."
        )

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """An ordered dict of every parameter and persistent buffer, keyed by dotted name (detached unless
        `keep_vars`)."""
        if args:  # the deprecated positional form (destination, prefix, keep_vars)
            destination = args[0]
            if len(args) > 1:
                prefix = args[1]
            if len(args) > 2:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}  # the hooks see (and may add to) what is saved
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if result is not None:
                destination = result
        return destination

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ):
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        persistent = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(), persistent.items()) if v is not None}
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, torch.Tensor):
                error_msgs.append(
                    f'While copying the parameter named "{key}", '
                    "expected torch.Tensor or Tensor-like object from checkpoint but "
                    f"received {type(input_param)}"
                )
                continue
            if len(param.shape) == 0 and len(input_param.shape) == 1 and input_param.shape[0] == 1:
                input_param = input_param[0]
            if input_param.shape != param.shape:
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {input_param.shape} from checkpoint, "
                    f"the shape in current model is {param.shape}."
                )
                continue
            try:
                with torch.no_grad():
                    if assign:
                        if isinstance(param, Parameter):
                            input_param = Parameter(input_param, requires_grad=param.requires_grad)
                        setattr(self, name, input_param)
                    else:
                        param.copy_(input_param)
            except Exception as ex:
                error_msgs.append(
                    f'While copying the parameter named "{key}", '
                    f"whose dimensions in the model are {param.size()} and "
                    f"whose dimensions in the checkpoint are {input_param.size()}, "
                    f"an exception occurred : {ex.args}."
                )
        extra_state_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        elif strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_state_key:
                    input_name = key[len(prefix) :].split(".", 1)
                    if input_name[0] not in self._modules and input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """Copies parameters and buffers from `state_dict`; with `strict`, missing or unexpected keys raise
        RuntimeError. Returns _IncompatibleKeys(missing_keys, unexpected_keys)."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys: list[str] = []
        unexpected_keys: list[str] = []
        error_msgs: list[str] = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(
                local_state_dict, prefix, local_metadata, True, missing_keys, unexpected_keys, error_msgs
            )
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state = {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}
                    load(child, child_state, child_prefix)
            incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                hook(module, incompatible)

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(
                    0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected_keys))
                )
            if missing_keys:
                error_msgs.insert(
                    0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing_keys))
                )
        if error_msgs:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(type(self).__name__, "\n\t".join(error_msgs))
            )
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    def register_load_state_dict_post_hook(self, hook):
        """Registers hook(module, incompatible_keys) run after load_state_dict."""
        handle = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

    def register_state_dict_post_hook(self, hook):
        """Registers hook(module, state_dict, prefix, local_metadata) run after state_dict."""
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def _register_state_dict_hook(self, hook):
        """Registers hook(module, state_dict, prefix, local_metadata) run after state_dict; a dict it returns
        replaces the state dict (upstream's private form, which spectral_norm and older libraries use)."""
        return self.register_state_dict_post_hook(hook)

    def register_state_dict_pre_hook(self, hook):
        """Registers hook(module, prefix, keep_vars) run before state_dict."""
        handle = RemovableHandle(self._state_dict_pre_hooks)
        self._state_dict_pre_hooks[handle.id] = hook
        return handle

    def _register_load_state_dict_pre_hook(self, hook, with_module: bool = False):
        """Registers hook([module,] state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs) run before this module loads its part of a state dict (the module first with_module)."""
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = functools.partial(hook, self) if with_module else hook
        return handle

    def register_load_state_dict_pre_hook(self, hook):
        """Registers hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs) run before this module loads its part of a state dict."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    # ---- repr

    def extra_repr(self) -> str:
        """The module-specific part of the repr (one line per item); override in subclasses."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = _addindent(repr(module), 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str
