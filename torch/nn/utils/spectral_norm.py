"""Spectral normalization (https://arxiv.org/abs/1802.05957), the older forward-pre-hook implementation.

Prefer :func:`torch.nn.utils.parametrizations.spectral_norm`, which is built on parametrizations.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch.nn.modules.module import Module, RemovableHandle

__all__ = [
    "SpectralNorm",
    "SpectralNormLoadStateDictPreHook",
    "SpectralNormStateDictHook",
    "spectral_norm",
    "remove_spectral_norm",
]


def _add_hook(module: Module, method: str, store: str, hook) -> RemovableHandle:
    # module.<method>(hook) where Module has it, else the equivalent insertion into module.<store>
    register = getattr(module, method, None)
    if register is not None:
        return register(hook)
    hooks = getattr(module, store)
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    return handle


def _register_state_dict_hook(module: Module, hook) -> RemovableHandle:
    # hook(module, state_dict, prefix, local_metadata), run after module.state_dict()
    return _add_hook(module, "_register_state_dict_hook", "_state_dict_hooks", hook)


def _register_load_state_dict_pre_hook(module: Module, hook) -> RemovableHandle:
    # hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
    return _add_hook(module, "_register_load_state_dict_pre_hook", "_load_state_dict_pre_hooks", hook)


class SpectralNorm:
    """The forward pre-hook recomputing ``module.<name>`` as ``<name>_orig / sigma``, ``sigma`` estimated by
    power iteration with the buffers ``<name>_u`` and ``<name>_v`` (updated in training mode only)."""

    # Invariant before and after each forward call: u = F.normalize(W @ v)
    _version: int = 1
    # version 1: W is not a buffer, v is a buffer, and eval mode uses W = u @ W_orig @ v.
    name: str
    dim: int
    n_power_iterations: int
    eps: float

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(
                f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}"
            )
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: torch.Tensor) -> torch.Tensor:
        """``weight`` as a matrix whose rows index dimension ``dim``."""
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(self.dim, *[d for d in range(weight_mat.dim()) if d != self.dim])
        return weight_mat.reshape(weight_mat.size(0), -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> torch.Tensor:
        """``<name>_orig / sigma``, first running the power iterations (in place on u, v) if asked."""
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with torch.no_grad():
                for _ in range(self.n_power_iterations):
                    # u and v are updated in place (buffers shared with replicas); sigma = u^T W v
                    v = F.normalize(torch.mv(weight_mat.t(), u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(torch.mv(weight_mat, v), dim=0, eps=self.eps, out=u)
                if self.n_power_iterations > 0:
                    # cloned so that a backward through an earlier forward still sees its own u, v
                    u = u.clone(memory_format=torch.contiguous_format)
                    v = v.clone(memory_format=torch.contiguous_format)
        sigma = torch.dot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        """Puts the current normalized weight back as a plain parameter ``module.<name>``."""
        with torch.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, torch.nn.Parameter(weight.detach()))

    def __call__(self, module: Module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        # A v with u = F.normalize(W @ v) and u @ W @ v = target_sigma (pinverse: W^T W may be singular).
        v = torch.linalg.multi_dot([weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(), u.unsqueeze(1)]).squeeze(
            1
        )
        return v.mul_(target_sigma / torch.dot(u, torch.mv(weight_mat, v)))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int, eps: float) -> SpectralNorm:
        """Moves ``module.<name>`` to ``<name>_orig``, adds the ``<name>_u``/``<name>_v`` buffers and registers
        the forward pre-hook and the state-dict hooks."""
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(weight, torch.nn.parameter.UninitializedParameter):
            raise ValueError(
                "The module passed to `SpectralNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying spectral normalization"
            )
        with torch.no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # module.<name> keeps existing (as a plain attribute, not a parameter) for code that reads it
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        _register_state_dict_hook(module, SpectralNormStateDictHook(fn))
        _register_load_state_dict_pre_hook(module, SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Load-state-dict pre-hook upgrading a version-0 spectral-norm state dict (which stores ``<name>`` and no
    ``<name>_v``) by solving for ``v``."""

    def __init__(self, fn) -> None:
        self.fn = fn

    # For a version-None state dict (after at least one training forward): u = F.normalize(W_orig @ v),
    # W = W_orig / sigma with sigma = u @ W_orig @ v. Solve W_orig @ x = u, v = x / (u @ W_orig @ x) * sigma.
    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs) -> None:
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is None or version < 1:
            weight_key = prefix + fn.name
            if (
                version is None
                and all(weight_key + s in state_dict for s in ("_orig", "_u", "_v"))
                and weight_key not in state_dict
            ):
                # a current-format state dict that only lacks the metadata
                return
            has_missing_keys = False
            for suffix in ("_orig", "", "_u"):
                key = weight_key + suffix
                if key not in state_dict:
                    has_missing_keys = True
                    if strict:
                        missing_keys.append(key)
            if has_missing_keys:
                return
            with torch.no_grad():
                weight_orig = state_dict[weight_key + "_orig"]
                weight = state_dict.pop(weight_key)
                sigma = (weight_orig / weight).mean()
                weight_mat = fn.reshape_weight_to_matrix(weight_orig)
                u = state_dict[weight_key + "_u"]
                v = fn._solve_v_and_rescale(weight_mat, u, sigma)
                state_dict[weight_key + "_v"] = v


class SpectralNormStateDictHook:
    """State-dict hook recording the spectral-norm format version in the state dict's metadata."""

    def __init__(self, fn) -> None:
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata) -> None:
        if "spectral_norm" not in local_metadata:
            local_metadata["spectral_norm"] = {}
        key = self.fn.name + ".version"
        if key in local_metadata["spectral_norm"]:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        local_metadata["spectral_norm"][key] = self.fn._version


def _default_dim(module: Module) -> int:
    # the output dimension: 1 for transposed convolutions, 0 otherwise
    transposed = (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d, torch.nn.ConvTranspose3d)
    return 1 if isinstance(module, transposed) else 0


def spectral_norm(
    module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12, dim: int | None = None
) -> Module:
    """Applies spectral normalization ``W / sigma(W)`` to ``module.<name>`` with a forward pre-hook; returns
    ``module``. ``sigma`` (the largest singular value of W reshaped to a matrix with rows along ``dim``;
    default 0, 1 for ConvTranspose) is estimated with ``n_power_iterations`` power iterations per training
    forward; the original is ``<name>_orig`` and the singular-vector estimates the buffers ``<name>_u`` and
    ``<name>_v``. Prefer :func:`torch.nn.utils.parametrizations.spectral_norm`."""
    if dim is None:
        dim = _default_dim(module)
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: Module, name: str = "weight") -> Module:
    """Removes the spectral normalization hooks of ``module.<name>``, leaving the current normalized weight
    as a parameter; returns ``module``."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for k, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[k]
            break
    for k, hook in module._load_state_dict_pre_hooks.items():
        if isinstance(hook, SpectralNormLoadStateDictPreHook) and hook.fn.name == name:
            del module._load_state_dict_pre_hooks[k]
            break
    return module
