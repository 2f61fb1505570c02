"""The Optimizer base class (PyTorch's torch.optim.Optimizer): parameter groups with per-group options,
`state_dict`/`load_state_dict` in PyTorch's format, `zero_grad`, `add_param_group`, step hooks.

Each optimizer keeps its math in one multi-tensor function `_<name>_update(params, grads, states..., *,
options)` over the lists of one parameter group, so that a fused kernel can later replace it whole.
"""

from __future__ import annotations

import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from copy import deepcopy
from itertools import chain
from typing import Any

import torch
from torch.utils.hooks import RemovableHandle

__all__ = ["Optimizer", "register_optimizer_step_post_hook", "register_optimizer_step_pre_hook", "required"]


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj: Any) -> str:
    """The name torch.typename gives `obj`: a tensor's type string, else the (qualified) class name."""
    if isinstance(obj, torch.Tensor):
        return obj.type() if hasattr(obj, "type") else "torch.Tensor"
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def _scalar_dtype():
    """The dtype of the `step` counters: float64 under a float64 default dtype, else float32 (PyTorch's)."""
    return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32


def _get_value(x: Any) -> Any:
    """A Python number from a 0-d tensor hyperparameter or counter; numbers pass through."""
    return x.item() if isinstance(x, torch.Tensor) else x


def _fusable(*lists) -> bool:
    """Whether a group's update can take the fused kernels (torch._fused_adam_ / _fused_sgd_, one call for
    the whole group): outside autograd, every tensor contiguous and floating, of one dtype and device."""
    if torch.is_grad_enabled():
        return False
    first = next((t for ts in lists for t in ts), None)
    if first is None:
        return False
    return all(
        isinstance(t, torch.Tensor)
        and t.dtype == first.dtype
        and t.device == first.device
        and t.dtype.is_floating_point
        and t.is_contiguous()
        for ts in lists
        for t in ts
    )


def _by_step(steps: list) -> dict:
    """{step count: [indices]}: the parameters of a group that share a step count (one fused call each)."""
    groups: dict = {}
    for i, s in enumerate(steps):
        groups.setdefault(float(_get_value(s)), []).append(i)
    return groups


def _fused_update(steps: list, lists: tuple, call, key=None) -> None:
    """The fused path of an optimizer without per-parameter Python: every step count is incremented, then
    `call(step, *lists)` runs once per set of parameters sharing a step count (and `key(i)`, where given), with
    each list narrowed to that set (an empty list, an option's absent state, stays empty)."""
    for step_t in steps:
        step_t += 1
    groups: dict = {}
    for i, s in enumerate(steps):
        groups.setdefault((float(_get_value(s)), key(i) if key else None), []).append(i)
    for (step, _), idx in groups.items():
        call(step, *([lst[i] for i in idx] if lst else [] for lst in lists))


def _check_lr(lr: Any) -> None:
    """PyTorch's checks of a learning rate: a 1-element tensor or a non-negative number."""
    if isinstance(lr, torch.Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def _check_fused(fused: Any, foreach: Any, differentiable: bool) -> None:
    """The errors PyTorch raises for incompatible `fused` options."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _check_fused_param(p) -> None:
    """fused=True takes floating-point parameters of cpu or cuda only (PyTorch's message)."""
    devices = ["mps", "cuda", "xpu", "hpu", "cpu", "mtia", "privateuseone"]
    if not (p.device.type in devices and p.is_floating_point()):
        raise RuntimeError(
            "`fused=True` requires all the params to be floating point Tensors of "
            f"supported devices: {devices} but {p.dtype} and {p.device.type}"
        )


def _use_grad_for_differentiable(func):
    """Runs `step` with gradients off, or on where the optimizer was built with differentiable=True."""

    @functools.wraps(func)
    def _use_grad(self, *args, **kwargs):
        prev_grad = torch.is_grad_enabled()
        try:
            torch.set_grad_enabled(self.defaults["differentiable"])
            return func(self, *args, **kwargs)
        finally:
            torch.set_grad_enabled(prev_grad)

    return _use_grad


# the optimizer's hook tables (an optimizer pickled by an older version may lack some: __setstate__ adds them)
_HOOK_TABLES = (
    "_optimizer_step_pre_hooks",
    "_optimizer_step_post_hooks",
    "_optimizer_state_dict_pre_hooks",
    "_optimizer_state_dict_post_hooks",
    "_optimizer_load_state_dict_pre_hooks",
    "_optimizer_load_state_dict_post_hooks",
)
_global_optimizer_pre_hooks: OrderedDict = OrderedDict()
_global_optimizer_post_hooks: OrderedDict = OrderedDict()


def register_optimizer_step_pre_hook(hook) -> RemovableHandle:
    """Registers `hook(optimizer, args, kwargs) -> None or (args, kwargs)` before every optimizer's step."""
    handle = RemovableHandle(_global_optimizer_pre_hooks)
    _global_optimizer_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook) -> RemovableHandle:
    """Registers `hook(optimizer, args, kwargs) -> None` after every optimizer's step."""
    handle = RemovableHandle(_global_optimizer_post_hooks)
    _global_optimizer_post_hooks[handle.id] = hook
    return handle


class Optimizer:
    """Base class for all optimizers.

    Args:
        params (iterable): an iterable of Tensors (or of (name, Tensor) pairs) or of dicts; dicts
            define parameter groups, each with its own options.
        defaults (dict): the default values of the optimization options (used when a parameter
            group does not specify them).
    """

    #: Options a parameter group pickled by an older version may lack, with the value each had
    #: before it existed; __setstate__ fills them in.
    _group_setstate_defaults: dict[str, Any] = {}

    def __init__(self, params, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        for name in _HOOK_TABLES:
            setattr(self, name, OrderedDict())
        self._patch_step_function()

        if isinstance(params, torch.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, but got "
                + _typename(params)
            )

        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []

        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in _HOOK_TABLES:
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)
        for group in self.param_groups:
            for key, value in self._group_setstate_defaults.items():
                group.setdefault(key, value)
            for p in group["params"]:  # older pickles keep the step count as a Python number
                p_state = self.state.get(p, {})
                if "step" in p_state and not torch.is_tensor(p_state["step"]):
                    p_state["step"] = self._new_step(group, p).fill_(float(p_state["step"]))

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    def _patch_step_function(self) -> None:
        """Wraps the class's `step` once so that step hooks run around every call."""
        self._zero_grad_profile_name = f"Optimizer.zero_grad#{self.__class__.__name__}.zero_grad"
        hooked = getattr(self.__class__.step, "hooked", None)
        if not hooked:
            self.__class__.step = Optimizer._with_hooks(self.__class__.step)
            self.__class__.step.hooked = True

    @staticmethod
    def _with_hooks(func):
        """`func` (a step) with the optimizer's pre- and post-hooks around it."""

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self, *_ = args
            for pre_hook in (*_global_optimizer_pre_hooks.values(), *self._optimizer_step_pre_hooks.values()):
                result = pre_hook(self, args, kwargs)
                if result is not None:
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError(
                            f"{func} must return None or a tuple of (new_args, new_kwargs), but got {result}."
                        )
            out = func(*args, **kwargs)
            for post_hook in (*self._optimizer_step_post_hooks.values(), *_global_optimizer_post_hooks.values()):
                post_hook(self, args, kwargs)
            return out

        return wrapper

    def register_step_pre_hook(self, hook):
        """Registers `hook(optimizer, args, kwargs) -> None or (args, kwargs)`, called before each step."""
        handle = RemovableHandle(self._optimizer_step_pre_hooks)
        self._optimizer_step_pre_hooks[handle.id] = hook
        return handle

    def register_step_post_hook(self, hook):
        """Registers `hook(optimizer, args, kwargs) -> None`, called after each step."""
        handle = RemovableHandle(self._optimizer_step_post_hooks)
        self._optimizer_step_post_hooks[handle.id] = hook
        return handle

    def _register(self, table: str, hook, prepend: bool) -> RemovableHandle:
        hooks = getattr(self, table)
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Registers `hook(optimizer) -> None`, called before state_dict builds the dict."""
        return self._register("_optimizer_state_dict_pre_hooks", hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Registers `hook(optimizer, state_dict) -> state_dict or None`, called on the dict state_dict built (a
        returned dict replaces it)."""
        return self._register("_optimizer_state_dict_post_hooks", hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Registers `hook(optimizer, state_dict) -> state_dict or None`, called before load_state_dict loads the
        dict (a returned dict is loaded instead)."""
        return self._register("_optimizer_load_state_dict_pre_hooks", hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Registers `hook(optimizer) -> None`, called after load_state_dict."""
        return self._register("_optimizer_load_state_dict_post_hooks", hook, prepend)

    def state_dict(self) -> dict[str, Any]:
        """The optimizer's state as a dict: 'state' (per-parameter state keyed by the parameter's index
        in the order of the groups) and 'param_groups' (each group's options, 'params' an index list);
        the state dict hooks run around it."""
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        state_dict = self._packed_state_dict()
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            hook_result = post_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result
        return state_dict

    def _packed_state_dict(self) -> dict[str, Any]:
        param_mappings: dict[int, int] = {}
        start_index = 0

        def pack_group(group: dict[str, Any]) -> dict[str, Any]:
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update(
                {id(p): i for i, p in enumerate(group["params"], start_index) if id(p) not in param_mappings}
            )
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, torch.Tensor) else k): v for k, v in self.state.items()}
        return {"state": packed_state, "param_groups": param_groups}

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups, key=None):
        """A loaded state tensor moved to its parameter's device (and dtype, for floating-point
        parameters); 'step' keeps its own dtype unless the group is fused or capturable."""
        fused = capturable = False
        for pg in param_groups:
            if param_id in pg["params"]:
                fused = pg.get("fused", False)
                capturable = pg.get("capturable", False)
                break
        if key == "step":
            if capturable or fused:
                return value.to(dtype=torch.float32, device=param.device)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Loads the optimizer state (a dict returned by `state_dict`); the state is deep-copied. The load state
        dict hooks run around it."""
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            hook_result = pre_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result
        self._load_packed(state_dict)
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    def _load_packed(self, state_dict: dict[str, Any]) -> None:
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])

        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        param_lens = (len(g["params"]) for g in groups)
        saved_lens = (len(g["params"]) for g in saved_groups)
        if any(p_len != s_len for p_len, s_len in zip(param_lens, saved_lens)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
            )

        id_map = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups), chain.from_iterable(g["params"] for g in groups)
            )
        )

        def _cast(param, value, param_id=None, param_groups=None, key=None):
            if isinstance(value, torch.Tensor):
                return Optimizer._process_value_according_to_param_policy(param, value, param_id, param_groups, key)
            if isinstance(value, dict):
                return {
                    k: _cast(param, v, param_id=param_id, param_groups=param_groups, key=k) for k, v in value.items()
                }
            if isinstance(value, Iterable) and not isinstance(value, str):
                return type(value)(_cast(param, v, param_id=param_id, param_groups=param_groups) for v in value)
            return value

        state: defaultdict = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k, param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        def update_group(group: dict[str, Any], new_group: dict[str, Any]) -> dict[str, Any]:
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Resets the gradients of all optimized tensors: to None (the default) or to zeros."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure=None):
        """Performs a single optimization step; `closure` reevaluates the model and returns the loss."""
        raise NotImplementedError

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Adds a parameter group (a dict with 'params' and, optionally, options) to `param_groups`."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")

        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but "
                "the ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)

        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) == len(tensors):
                param_group["param_names"] = names
            else:
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")

        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; "
                "in future, this will cause an error; "
                "see github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )

        param_set: set = set()
        for group in self.param_groups:
            param_set.update(set(group["params"]))
            if ("param_names" in param_group) != ("param_names" in group):
                current = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. "
                    f"cannot add param group {current} to the optimizer"
                )
        if not param_set.isdisjoint(set(param_group["params"])):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)

    def _closure_loss(self, closure):
        """The closure's loss, evaluated with gradients on (None without a closure)."""
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()

    def _gather(self, group: dict[str, Any], buffers: tuple[str, ...], init=None) -> tuple:
        """The lists a group's update takes: the parameters that have a gradient, their gradients, one list per
        state name in `buffers`, then their step counters. A parameter's state is made on its first step: a
        step counter, zeros like the parameter for each of `buffers`, then whatever `init(p, state)` adds."""
        params, grads, steps = [], [], []
        lists: list[list] = [[] for _ in buffers]
        for p in group["params"]:
            if p.grad is None:
                continue
            state = self.state[p]
            if len(state) == 0:
                state["step"] = self._new_step(group, p)
                for name in buffers:
                    state[name] = torch.zeros_like(p, memory_format=torch.preserve_format)
                if init is not None:
                    init(p, state)
            params.append(p)
            grads.append(p.grad)
            for values, name in zip(lists, buffers):
                values.append(state[name])
            steps.append(state["step"])
        return (params, grads, *lists, steps)

    def _new_step(self, group: dict[str, Any], p):
        """A fresh `step` counter for a parameter's state: a 0-d float tensor, on the parameter's device
        for capturable/fused groups (PyTorch's layout)."""
        if group.get("capturable") or group.get("fused"):
            dtype = torch.float32 if group.get("fused") else _scalar_dtype()
            return torch.zeros((), dtype=dtype, device=p.device)
        return torch.tensor(0.0, dtype=_scalar_dtype())


def _check_adam_args(lr: Any, betas: Any, eps: float, weight_decay: float) -> None:
    """PyTorch's checks of the Adam family's lr, betas, eps and weight_decay (in its order)."""
    _check_lr(lr)
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")
