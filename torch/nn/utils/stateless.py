"""torch.nn.utils.stateless: calling a module with its parameters and buffers swapped for given tensors.

functional_call here is upstream's deprecated spelling of torch.func.functional_call (it warns with a
FutureWarning); both run _functional_call, which swaps the tensors in for the call and always swaps
the originals back, even when the call raises.
"""

from __future__ import annotations

import contextlib
import functools
import warnings
from typing import Any

import torch
from torch._C import Tensor

__all__ = ["functional_call"]

_MISSING: Any = object()  # what swapping in returns for a name the module did not have


def _submodule(module, name: str, memo: dict):
    """The submodule at dotted path `name` ("" is the module itself), cached in memo."""
    if not name:
        return module
    if name not in memo:
        prefix, dot, attr = name.rpartition(".")
        parent = _submodule(module, prefix, memo) if dot else module
        try:
            sub = getattr(parent, attr)
        except AttributeError as ex:
            raise AttributeError(f"{parent._get_name()} has no attribute `{attr}`") from ex
        if not isinstance(sub, torch.nn.Module):
            raise TypeError(f"submodule `{name}`: {sub} is not an instance of torch.nn.Module")
        memo[name] = sub
    return memo[name]


def _swap_tensor(module, name: str, tensor):
    """Puts `tensor` (or, for _MISSING, nothing) at attribute `name` of `module`; returns what was there."""
    if tensor is not _MISSING and tensor is not None and not isinstance(tensor, Tensor):
        raise TypeError(f"{tensor} is not an instance of torch.Tensor")
    if name == "":
        raise KeyError('tensor name can\'t be empty string ""')
    for store in (module._parameters, module._buffers):
        if name in store:
            orig = store[name]
            if tensor is _MISSING:
                del store[name]
            else:
                store[name] = tensor
            return orig
    orig = getattr(module, name) if hasattr(module, name) else _MISSING
    if orig is not _MISSING and orig is not None and not isinstance(orig, Tensor):
        raise TypeError(f"attribute `{name}`: {orig} is not an instance of torch.Tensor")
    if tensor is not _MISSING:
        setattr(module, name, tensor)
    elif hasattr(module, name):
        delattr(module, name)
    return orig


def _swap_tensors_dict(module, named_tensors: dict[str, Tensor]) -> dict[str, Tensor]:
    """Swaps every tensor of `named_tensors` (dotted names) in; returns the originals (all swapped back
    if one swap fails)."""
    memo: dict = {}
    orig: dict[str, Tensor] = {}
    try:
        for name, tensor in named_tensors.items():
            prefix, _, attr = name.rpartition(".")
            orig[name] = _swap_tensor(_submodule(module, prefix, memo), attr, tensor)
    except Exception:
        _swap_back(module, orig)
        raise
    return orig


def _swap_back(module, orig: dict[str, Tensor]) -> dict[str, Tensor]:
    """Restores the originals that _swap_tensors_dict returned; returns the tensors found in their place."""
    memo: dict = {}
    found = {}
    for name, tensor in orig.items():
        prefix, _, attr = name.rpartition(".")
        found[name] = _swap_tensor(_submodule(module, prefix, memo), attr, tensor)
    return found


def _untie_named_tensors_map(module, parameters_and_buffers: dict[str, Tensor]) -> dict[str, Tensor]:
    """A copy of parameters_and_buffers with the value given for one of several tied names (the same
    tensor under several names in the module) entered under all of them; raises ValueError if different
    values are given for names tied together."""
    all_named = dict(module.named_parameters(remove_duplicate=False))
    all_named.update(module.named_buffers(remove_duplicate=False))
    names_of: dict[int, set[str]] = {}
    for name, tensor in all_named.items():
        names_of.setdefault(id(tensor), set()).add(name)
    tied: dict[str, set[str]] = {n: names for names in names_of.values() if len(names) > 1 for n in names}

    given_tied = {name for name in parameters_and_buffers if name in tied}
    for name in given_tied:
        names = tied[name]
        values = {id(parameters_and_buffers[n]) for n in names if n in given_tied}
        if len(names & given_tied) > 1 and len(values) != 1:
            raise ValueError(
                f"functional_call got multiple values for keys {sorted(names)}, which are tied. "
                "Consider using tie_weights=False"
            )
    untied = dict(parameters_and_buffers)
    for name in given_tied:
        for other in tied[name]:
            untied[other] = parameters_and_buffers[name]
    return untied


@contextlib.contextmanager
def _reparametrize_module(module, parameters_and_buffers: dict[str, Tensor], tie_weights=False, strict=False):
    """Context manager: the module holds the given tensors (by dotted name) inside, its own outside.

    In-place changes the call makes to the module's _parameters/_buffers dicts are written back into
    parameters_and_buffers, as upstream does."""
    untied = _untie_named_tensors_map(module, parameters_and_buffers) if tie_weights else parameters_and_buffers
    if strict:
        valid = {name for name, _ in module.named_parameters(remove_duplicate=False)}
        valid |= {name for name, _ in module.named_buffers(remove_duplicate=False)}
        missing, unexpected = sorted(valid - set(untied)), sorted(set(untied) - valid)
        msgs = []
        if unexpected:
            msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
        if msgs:
            raise RuntimeError(
                "Error(s) in reparametrizing for {}:\n\t{}".format(module._get_name(), "\n\t".join(msgs))
            )
    orig: dict[str, Tensor] = {}
    try:
        orig = _swap_tensors_dict(module, untied)
        yield
    finally:
        found = _swap_back(module, orig)
        parameters_and_buffers.update({k: found[k] for k in parameters_and_buffers if k in found})


def _functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """module(*args, **kwargs) with its parameters and buffers replaced by parameters_and_buffers."""
    data_parallel = getattr(torch.nn, "DataParallel", None)
    if data_parallel is not None and isinstance(module, data_parallel):
        raise RuntimeError("The stateless API can't be used with nn.DataParallel module")
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrize_module(module, parameters_and_buffers, tie_weights=tie_weights, strict=strict):
        return module(*args, **kwargs)


_DEPRECATION = (
    "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be removed in a future "
    "version of PyTorch. Please use `torch.func.functional_call` instead which is a drop-in replacement."
)


def _deprecated(fn):
    """Marks fn deprecated as upstream's typing_extensions.deprecated does: a FutureWarning per call."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        warnings.warn(_DEPRECATION, FutureWarning, stacklevel=2)
        return fn(*args, **kwargs)

    wrapper.__deprecated__ = _DEPRECATION
    return wrapper


@_deprecated
def functional_call(
    module: torch.nn.Module,
    parameters_and_buffers: dict[str, Tensor],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
):
    """Deprecated (warns with a FutureWarning): use torch.func.functional_call, a drop-in replacement.

    Calls `module` with its parameters and buffers replaced by `parameters_and_buffers` (dotted names,
    as in named_parameters()); the module's own tensors are restored afterwards, even on exception.
    `args` that is not a tuple is the single positional argument. With tie_weights, a value given for
    one of several tied names is used for all of them; with strict, missing or unexpected keys raise.
    """
    return _functional_call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict)
