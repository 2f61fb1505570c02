"""torch.func.vmap: mapping a function over a dimension of its inputs.

This library has no batching rules (no BatchedTensor): vmap calls func once per batch entry, on the
inputs with the mapped dimension selected away, and stacks the outputs along out_dims. The results are
upstream's; the cost is a Python loop (chunk_size groups the entries whose outputs are stacked
together, then the chunks are concatenated). Gradients flow through it (select and stack are
differentiable), and the other transforms nest inside and outside.

randomness: 'error' raises upstream's error when func draws from the default generators (detected by
comparing their states before and after each call; draws from an explicit torch.Generator are not
seen); 'different' gives each entry its own draws (the loop's natural behaviour); 'same' restores the
generators' state before each entry, so every entry draws the same numbers.
"""

from __future__ import annotations

import functools
from typing import Callable

import torch
from torch._C import Tensor
from torch.utils._pytree import LeafSpec, broadcast_prefix, tree_flatten, tree_unflatten

__all__ = ["vmap"]


# ---- the default generators ----


def _rng_states() -> list:
    """The states of the default generators: the CPU one's, then each GPU's (when there are GPUs)."""
    states = [torch.get_rng_state()]
    if torch.cuda.is_available():
        states.extend(torch.cuda.get_rng_state_all())
    return states


def _set_rng_states(states: list) -> None:
    torch.set_rng_state(states[0])
    if len(states) > 1:
        torch.cuda.set_rng_state_all(states[1:])


def _same_rng_states(a: list, b: list) -> bool:
    def same(x, y) -> bool:
        if isinstance(x, Tensor):
            return isinstance(y, Tensor) and x.shape == y.shape and torch.equal(x, y)
        return x == y

    return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))


def _random_error() -> RuntimeError:
    return RuntimeError(
        "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
        "'different' randomness flags on vmap or perform the randomness operation out of vmap"
    )


def _check_randomness_arg(randomness) -> None:
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")


# ---- argument checks (upstream's messages) ----


def _get_name(func) -> str:
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({_get_name(func.func)}, ...)"
    return repr(func)


def _check_out_dims(out_dims, func) -> None:
    if isinstance(out_dims, int):
        return
    for d in tree_flatten(out_dims)[0]:
        if not (d is None or isinstance(d, int)):
            raise ValueError(
                f"vmap({_get_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a python "
                "collection of ints representing where in the outputs the vmapped dimension should appear."
            )


def _process_inputs(in_dims, args: tuple, func):
    """(batch size, flat in_dims, flat args, args' spec), validating in_dims against args."""
    name = _get_name(func)
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a (potentially "
            f"nested) tuple matching the structure of inputs, got: {type(in_dims)}."
        )
    if len(args) == 0:
        raise ValueError(
            f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are trying to vmap "
            "over a function with no inputs. The latter is unsupported."
        )
    flat_args, args_spec = tree_flatten(args)
    flat_in_dims = broadcast_prefix(in_dims, args_spec)
    if flat_in_dims is None:
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the structure of "
            f"`inputs`. in_dims has structure {tree_flatten(in_dims)[1]} but inputs has structure {args_spec}."
        )
    for i, (arg, in_dim) in enumerate(zip(flat_args, flat_in_dims)):
        if in_dim is not None and (not isinstance(in_dim, int) or isinstance(in_dim, bool)):
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for an input but in_dim "
                "must be either an integer dimension or None."
            )
        if in_dim is None:
            continue
        if not isinstance(arg, Tensor):
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for an input but the input "
                f"is of type {type(arg)}. We cannot vmap over non-Tensor arguments, please use None as the "
                "respective in_dim"
            )
        if not -arg.dim() <= in_dim < arg.dim():
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for some input, but that "
                f"input is a Tensor of dimensionality {arg.dim()} so expected in_dim to satisfy "
                f"-{arg.dim()} <= in_dim < {arg.dim()}."
            )
        flat_in_dims[i] = in_dim % arg.dim()
    sizes = [arg.size(d) for arg, d in zip(flat_args, flat_in_dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError(
            "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
            f"{sizes} for the mapped dimension"
        )
    return sizes[0], flat_in_dims, flat_args, args_spec


def _flat_out_dims(out_dims, out_spec, func) -> list:
    flat = None
    if isinstance(out_spec, LeafSpec):  # a single output: upstream's edge cases
        if isinstance(out_dims, int) or out_dims is None:
            flat = [out_dims]
        elif isinstance(out_dims, tuple) and len(out_dims) == 1:
            flat = list(out_dims)
    else:
        flat = broadcast_prefix(out_dims, out_spec)
    if flat is None:
        raise ValueError(
            f"vmap({_get_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the "
            f"structure of `outputs`. out_dims has structure {tree_flatten(out_dims)[1]} but outputs has "
            f"structure {out_spec}."
        )
    return flat


# ---- the loop ----


def _same_value(a, b) -> bool:
    if a is b:
        return True
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        return a.shape == b.shape and a.dtype == b.dtype and a.device == b.device and bool(torch.equal(a, b))
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        return False
    try:
        return bool(a == b)
    except Exception:
        return False


def _combine(func, entries: list, out_dims, batch_size: int, chunk_size: int | None):
    """The per-entry outputs stacked along their out_dims (an entry is (flat outputs, spec))."""
    name = _get_name(func)
    spec = entries[0][1]
    for _, s in entries[1:]:
        if s != spec:
            raise ValueError(
                f"vmap({name}, ...): `{name}` returned outputs of different structures for different batch "
                f"entries ({spec} and {s})"
            )
    flat_out_dims = _flat_out_dims(out_dims, spec, func)
    empty = batch_size == 0  # entries holds one call on a stand-in entry, for the outputs' shapes
    results = []
    for j, out_dim in enumerate(flat_out_dims):
        values = [flat[j] for flat, _ in entries]
        if out_dim is None:
            if isinstance(values[0], Tensor) and not all(_same_value(values[0], v) for v in values[1:]):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
            results.append(values[0])
            continue
        for v in values:
            if not isinstance(v, Tensor):
                raise ValueError(
                    f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(v)}. Did you mean to "
                    "set out_dims= to None for output?"
                )
        if empty:
            results.append(torch.stack(values, dim=out_dim).narrow(out_dim % (values[0].dim() + 1), 0, 0))
        elif chunk_size is None or chunk_size >= len(values):
            results.append(torch.stack(values, dim=out_dim))
        else:
            chunks = [torch.stack(values[i : i + chunk_size], dim=out_dim) for i in range(0, len(values), chunk_size)]
            results.append(torch.cat(chunks, dim=out_dim % (values[0].dim() + 1)))
    return tree_unflatten(results, spec)


def _entry(flat_args: list, flat_in_dims: list, i: int) -> list:
    return [a if d is None else a.select(d, i) for a, d in zip(flat_args, flat_in_dims)]


def _stand_in(flat_args: list, flat_in_dims: list) -> list:
    """For a batch of size 0: zeros shaped like one entry, to learn the outputs' structure and shapes."""
    out = []
    for a, d in zip(flat_args, flat_in_dims):
        if d is None:
            out.append(a)
        else:
            shape = list(a.shape)
            del shape[d]
            out.append(a.new_zeros(shape))
    return out


def vmap(
    func: Callable, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size: int | None = None
) -> Callable:
    """Returns func mapped over a dimension of its inputs: the outputs of func on each entry of the
    mapped dimension, stacked along out_dims.

    in_dims: per positional argument, the dimension mapped over (an int) or None (the argument is
    passed whole to every call); an int applies to all arguments, and a (nested) tuple/list/dict
    matching a pytree argument gives per-leaf dims. kwargs are not mapped. All mapped sizes must agree.
    out_dims: where the mapped dimension goes in each output (an int, or a pytree of ints/None
    matching the outputs; None: the output must not depend on the mapped inputs and is returned once;
    here that is checked by value: it must be equal for every entry, else upstream's error).
    randomness: 'error' (func may not draw random numbers), 'different' or 'same' (see the module doc).
    chunk_size: None or > 0; entries are stacked in chunks of that many, then concatenated.

    Implementation: this library has no batching rules, so func is called once per batch entry
    (a Python loop over the mapped dimension) and the outputs are stacked; results match upstream's.
    """
    _check_randomness_arg(randomness)
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        _check_out_dims(out_dims, func)
        batch_size, flat_in_dims, flat_args, args_spec = _process_inputs(in_dims, args, func)
        states = _rng_states() if randomness in ("error", "same") or batch_size == 0 else None
        entries = []
        for i in range(max(batch_size, 1)):
            if randomness == "same" and i > 0:
                _set_rng_states(states)
            flat = _entry(flat_args, flat_in_dims, i) if batch_size else _stand_in(flat_args, flat_in_dims)
            out = func(*tree_unflatten(flat, args_spec), **kwargs)
            if randomness == "error" and not _same_rng_states(states, _rng_states()):
                _set_rng_states(states)
                raise _random_error()
            entries.append(tree_flatten(out))
        if batch_size == 0:
            _set_rng_states(states)
        return _combine(func, entries, out_dims, batch_size, chunk_size)

    return wrapped
