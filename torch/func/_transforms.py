"""torch.func's autodiff transforms (grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, linearize)
and functionalize, built on torch.autograd.grad.

How the transforms nest without functorch's levels: each call makes its differentiable inputs fresh
leaves (`x.detach().requires_grad_()`), or, when an input already takes part in an outer graph (it
requires grad: an outer transform's input, or the user's), a view of it (`x.view_as(x)`), so the outer
graph still reaches it. The function's graph is then differentiated with create_graph=True exactly when
it reaches a leaf that is not one of this call's own (something outside can still differentiate the
result) and grad mode was on outside the call. Results that reach none of those leaves are detached, so
nothing of a transform's own bookkeeping leaks into the caller's autograd state; the others stay
differentiable, which is how grad(grad(f)), jacrev(jacrev(f)), vmap(grad(f)) and ordinary backward()
through a transform's result work.

There is no forward-mode AD here: jvp and linearize use the double-vjp trick (J t is the gradient of
u -> <J^T u, t> with respect to u, computed with a create_graph backward pass), and jacfwd computes the
same Jacobian as jacrev, by reverse mode.
"""

from __future__ import annotations

import functools
from typing import Callable

import torch
from torch._C import Tensor
from torch.autograd._own_leaves import OwnLeaves, reaches
from torch.func._vmap import _check_randomness_arg, _random_error, _rng_states, _same_rng_states, _set_rng_states
from torch.utils._pytree import tree_flatten, tree_leaves, tree_map, tree_unflatten

__all__ = [
    "grad",
    "grad_and_value",
    "vjp",
    "jvp",
    "jacrev",
    "jacfwd",
    "hessian",
    "linearize",
    "functionalize",
    "debug_unwrap",
]

_JVP = "jvp(f, primals, tangents)"


# ---- the graph bookkeeping shared by the transforms ----


class _Call(OwnLeaves):
    """One transform call: its own leaves (the differentiable inputs that were not part of any graph)
    and whether grad mode was on outside it."""

    def needs_graph(self, *trees) -> bool:
        """Whether a backward pass over these tensors must be recorded (create_graph)."""
        return self.outer_grad and any(self.escapes(t) for t in tree_leaves(trees))

    def result(self, tree, keep: bool | None = None):
        """tree with every tensor detached but those (when keep, by default the grad mode outside the
        call) that reach leaves other than this call's own."""
        return tree_map(lambda t: self.finish(t, keep), tree)

    def aux(self, aux):
        """The aux output of a has_aux function: tensors only (upstream's error otherwise), as result()."""
        for x in tree_leaves(aux):
            if not isinstance(x, Tensor):
                raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
        return self.result(aux)


def _reaches(t: Tensor, targets: list[Tensor]) -> bool:
    """Whether t's graph reaches one of `targets` (leaves through their AccumulateGrad, others by grad_fn)."""
    leaf_ids = {id(x) for x in targets if x.grad_fn is None}
    node_ids = {id(x.grad_fn) for x in targets if x.grad_fn is not None}
    return reaches(t, lambda leaf: id(leaf) in leaf_ids, lambda node: id(node) in node_ids)


def _autograd_grad(outputs, inputs, grad_outputs=None, *, create_graph: bool, retain_graph: bool = True):
    """torch.autograd.grad that gives zeros for inputs (or all of them) the outputs do not depend on."""
    inputs = list(inputs)
    pairs = [
        (o, None if grad_outputs is None else g)
        for o, g in zip(outputs, grad_outputs if grad_outputs is not None else outputs)
        if o.requires_grad
    ]
    if not pairs:
        return [torch.zeros_like(x) for x in inputs]
    outs = [o for o, _ in pairs]
    gos = None if grad_outputs is None else [g for _, g in pairs]
    grads = torch.autograd.grad(
        outs, inputs, gos, retain_graph=retain_graph or create_graph, create_graph=create_graph, allow_unused=True
    )
    return [torch.zeros_like(x) if g is None else g for g, x in zip(grads, inputs)]


# ---- argnums ----


def _wrap_argnum(argnum, num_args: int) -> int:
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def _checked_argnums(argnums, num_args: int):
    """argnums (int or tuple of ints) validated and made non-negative, with upstream's errors."""
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if isinstance(argnums, int):
        return _wrap_argnum(argnums, num_args)
    argnums = tuple(_wrap_argnum(a, num_args) for a in argnums)
    if len(argnums) == 0:
        raise RuntimeError("argnums must be non-empty")
    if len(set(argnums)) != len(argnums):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return argnums


def _slice_argnums(args: tuple, argnums, as_tuple: bool = True):
    """The arguments at argnums: a tuple (or, for an int argnums and not as_tuple, the argument itself)."""
    argnums = _checked_argnums(argnums, len(args))
    if isinstance(argnums, int):
        return (args[argnums],) if as_tuple else args[argnums]
    return tuple(args[i] for i in argnums)


def _replace_args(args: tuple, new_args: tuple, argnums) -> tuple:
    """args with the ones at argnums replaced by new_args (a tuple, one per argnum)."""
    argnums = _checked_argnums(argnums, len(args))
    if isinstance(argnums, int):
        argnums = (argnums,)
    return tuple(new_args[argnums.index(i)] if i in argnums else a for i, a in enumerate(args))


def _prepare(call: _Call, args: tuple, argnums):
    """(args with the differentiated ones replaced, the flat differentiable tensors, their spec)."""
    diff = _slice_argnums(args, argnums)
    flat, spec = tree_flatten(diff)
    flat_diff = [call.differentiable(x) for x in flat]
    new_args = _replace_args(args, tree_unflatten(flat_diff, spec), argnums)
    return new_args, flat_diff, spec


def _split_aux(output, has_aux: bool, api: str):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return output


def _check_tensor_outputs(flat: list, api: str) -> None:
    if len(flat) == 0 or (len(flat) == 1 and flat[0] is None):
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output (got output = {flat})")
    for o in flat:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got unsupported type {type(o)}")


def _error_if_complex(api: str, tree, is_input: bool) -> None:
    for idx, t in enumerate(tree_leaves(tree)):
        if isinstance(t, Tensor) and t.dtype.is_complex:
            what = "inputs" if is_input else "outputs"
            raise RuntimeError(
                f"{api}: Expected all {what} to be real but received complex tensor at flattened input idx: {idx}"
            )


# ---- grad, vjp ----


def grad_and_value(func: Callable, argnums=0, has_aux: bool = False) -> Callable:
    """Returns a function computing (gradient, value) of the scalar-valued `func` with respect to the
    arguments at `argnums` (an int, or a tuple of ints: then the gradient is a tuple). Each argument
    may be a pytree (nested tuples/lists/dicts) of floating-point tensors; its gradient has the same
    structure. With has_aux, func returns (output, aux) and the result is (gradient, (value, aux)).

    Composes with the other transforms (vmap(grad_and_value(f)), grad_and_value(grad(f)), ...); the
    results are detached unless something outside the call (an outer transform, or a tensor that
    requires grad) can still be differentiated through them.
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        call = _Call()
        with torch.enable_grad():
            args, flat_diff, spec = _prepare(call, args, argnums)
            output, aux = _split_aux(func(*args, **kwargs), has_aux, "grad_and_value(f)(*args)")
            if not isinstance(output, Tensor):
                raise RuntimeError(
                    f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(output)}"
                )
            if output.dim() != 0:
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with "
                    f"{output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
                )
            grads = _autograd_grad([output], flat_diff, create_graph=call.needs_graph(output), retain_graph=False)
        grads = call.result(tree_unflatten(grads, spec))
        if isinstance(argnums, int):
            grads = grads[0]
        output = call.result(output)
        if has_aux:
            return grads, (output, call.aux(aux))
        return grads, output

    return wrapper


def grad(func: Callable, argnums=0, has_aux: bool = False) -> Callable:
    """Returns a function computing the gradient of the scalar-valued `func` with respect to the
    arguments at `argnums` (int or tuple of ints; pytree arguments give pytree gradients). With has_aux,
    func returns (output, aux) and the result is (gradient, aux). See grad_and_value.

    Per-sample gradients: ``vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)``.
    """
    gv = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        if has_aux:
            return g, value[1]
        return g

    return wrapper


def _vjp(func, primals: tuple, argnums, has_aux: bool):
    call = _Call()
    with torch.enable_grad():
        if argnums is None:
            flat, primals_spec = tree_flatten(primals)
            flat_diff = [call.differentiable(x) for x in flat]
            args = tree_unflatten(flat_diff, primals_spec)
        else:
            args, flat_diff, primals_spec = _prepare(call, primals, argnums)
        output, aux = _split_aux(func(*args), has_aux, "vjp(f, *primals)")
        flat_out, out_spec = tree_flatten(output)
        _check_tensor_outputs(flat_out, "vjp(f, *primals)")
        for o in flat_out:
            if not (o.is_floating_point() or o.is_complex()):
                raise RuntimeError(
                    "vjp(f, ...): All outputs of f must be floating-point or complex Tensors, got Tensor "
                    f"with dtype {o.dtype}"
                )

    def vjp_fn(cotangents, retain_graph: bool = True, create_graph: bool | None = None):
        """The vector-Jacobian products of cotangents (structured as func's output): one per primal."""
        if create_graph is None:
            create_graph = torch.is_grad_enabled()
        flat_cot, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of outputs to the "
                f"function. cotangents: {cot_spec}, primal output: {out_spec}"
            )
        need = create_graph and any(call.escapes(t) for t in flat_out + flat_cot)
        with torch.enable_grad():
            res = _autograd_grad(flat_out, flat_diff, flat_cot, create_graph=need, retain_graph=retain_graph)
        return tree_unflatten(call.result(res, keep=need), primals_spec)

    return call.result(output), vjp_fn, call.aux(aux) if has_aux else None, flat_out, flat_diff, call


def vjp(func: Callable, *primals, has_aux: bool = False):
    """(func(*primals), vjp_fn): vjp_fn(cotangents) gives the vector-Jacobian products of cotangents
    (a pytree shaped like func's output) with respect to each primal, as a tuple with one entry (a
    pytree, like its primal) per primal. vjp_fn may be called many times. With has_aux, func returns
    (output, aux) and the result is (output, vjp_fn, aux).
    """
    output, vjp_fn, aux, *_ = _vjp(func, primals, None, has_aux)
    if has_aux:
        return output, vjp_fn, aux
    return output, vjp_fn


# ---- jvp and linearize: the double-vjp trick ----


class _Linear:
    """u -> J^T u for func's flat outputs, recorded once, so that J t = d<J^T u, t>/du can be taken."""

    def __init__(self, call: _Call, flat_out: list, flat_diff: list) -> None:
        self.call = call
        self.flat_out = flat_out
        self.diff = [i for i, o in enumerate(flat_out) if o.requires_grad]
        self.us = [torch.zeros_like(flat_out[i]).requires_grad_() for i in self.diff]
        if self.diff:
            gs = torch.autograd.grad(
                [flat_out[i] for i in self.diff], flat_diff, self.us, create_graph=True, allow_unused=True
            )
        else:
            gs = [None] * len(flat_diff)
        self.gs = [(k, g) for k, g in enumerate(gs) if g is not None and g.requires_grad]

    def __call__(self, flat_tangents: list, outer_grad: bool, retain_graph: bool = True) -> list:
        """J t for each flat output (zeros for outputs that do not depend on the inputs); differentiable
        when outer_grad and something outside the call can be differentiated through it."""
        outs = [torch.zeros_like(o) for o in self.flat_out]
        need = outer_grad and any(self.call.escapes(t) for t in self.flat_out + list(flat_tangents))
        if self.gs:
            with torch.enable_grad():
                jv = torch.autograd.grad(
                    [g for _, g in self.gs],
                    self.us,
                    [flat_tangents[k] for k, _ in self.gs],
                    retain_graph=retain_graph or need,
                    create_graph=need,
                    allow_unused=True,
                )
            for i, r in zip(self.diff, jv):
                if r is not None:
                    outs[i] = r
        return self.call.result(outs, keep=need)


def _check_tangent(p: Tensor, t: Tensor) -> None:
    if t.shape != p.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original Tensor, this "
            f"is not supported. Tensor is of size {list(p.shape)} while the given forward gradient is of size "
            f"{list(t.shape)}."
        )


def jvp(func: Callable, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """(func(*primals), J @ tangents): the Jacobian-vector product of func at primals (a tuple of
    tensor pytrees) with tangents (the same structure). With has_aux, func returns (output, aux) and
    the result is (output, jvp_out, aux). With strict, an output independent of the inputs raises.

    There is no forward-mode AD here: J t is computed by differentiating the linear map u -> J^T u
    (a create_graph backward pass) with respect to u, so func needs double-backward support.
    """
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    flat_primals, primals_spec = tree_flatten(primals)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(
            f"{_JVP}: Expected primals and tangents to have the same python structure. For example, if primals "
            f"is a tuple of 3 tensors, tangents also must be. Got primals with structure {primals_spec} and "
            f"tangents with structure {tangents_spec}"
        )
    for name, flat in (("primals", flat_primals), ("tangents", flat_tangents)):
        if len(flat) == 0:
            raise RuntimeError(f"{_JVP}: Expected {name} to contain at least one Tensor.")
        for x in flat:
            if not isinstance(x, Tensor):
                raise RuntimeError(f"{_JVP}: Expected {name} to only contain Tensors, got {type(x)}")
    for p, t in zip(flat_primals, flat_tangents):
        _check_tangent(p, t)
    call = _Call()
    with torch.enable_grad():
        flat_diff = [call.differentiable(x) for x in flat_primals]
        output, aux = _split_aux(func(*tree_unflatten(flat_diff, primals_spec)), has_aux, _JVP)
        flat_out, out_spec = tree_flatten(output)
        _check_tensor_outputs(flat_out, _JVP)
        if strict and not all(_reaches(o, flat_diff) for o in flat_out):
            raise RuntimeError(
                "jvp(f, primals, tangents, strict=True): The output of f is independent of the inputs. "
                "This is not allowed with strict=True."
            )
        tangents_out = _Linear(call, flat_out, flat_diff)(flat_tangents, call.outer_grad, retain_graph=False)
    output = call.result(output)
    tangents_out = tree_unflatten(tangents_out, out_spec)
    if has_aux:
        return output, tangents_out, call.aux(aux)
    return output, tangents_out


def linearize(func: Callable, *primals):
    """(func(*primals), jvp_fn): jvp_fn(*tangents) gives J @ tangents at primals, the linear
    approximation of func there, for as many tangents as wanted (func runs once; its graph is kept)."""
    flat_primals, primals_spec = tree_flatten(primals)
    call = _Call()
    with torch.enable_grad():
        flat_diff = [call.differentiable(x) for x in flat_primals]
        output = func(*tree_unflatten(flat_diff, primals_spec))
        flat_out, out_spec = tree_flatten(output)
        _check_tensor_outputs(flat_out, "linearize(f, *primals)")
        linear = _Linear(call, flat_out, flat_diff)

    def jvp_fn(*tangents):
        """J @ tangents (structured as the primals), shaped as func's output."""
        flat_tangents, tangents_spec = tree_flatten(tangents)
        if tangents_spec != primals_spec:
            raise RuntimeError(
                f"Expected the tangents {tangents_spec} to have the same argspec as the primals {primals_spec}"
            )
        for idx, (p, t) in enumerate(zip(flat_primals, flat_tangents)):
            for what in ("shape", "device", "dtype"):
                if getattr(t, what) != getattr(p, what):
                    raise RuntimeError(
                        f"tangent:{idx} with {what} {getattr(t, what)} in flattened pytree doesn't match the "
                        f"{what} {getattr(p, what)} of the corresponding primal."
                    )
        return tree_unflatten(linear(flat_tangents, torch.is_grad_enabled()), out_spec)

    return call.result(output), jvp_fn


# ---- Jacobians ----


def _jacobian(api: str, func, args: tuple, argnums, has_aux: bool, randomness: str | None):
    _error_if_complex(api, args, is_input=True)
    states = _rng_states() if randomness == "error" else None
    call = _Call()
    with torch.enable_grad():
        new_args, flat_diff, primals_spec = _prepare(call, args, argnums)
        output, aux = _split_aux(func(*new_args), has_aux, "vjp(f, *primals)")
        if states is not None and not _same_rng_states(states, _rng_states()):
            _set_rng_states(states)
            raise _random_error()
        flat_out, out_spec = tree_flatten(output)
        _check_tensor_outputs(flat_out, "vjp(f, *primals)")
        _error_if_complex(api, flat_out, is_input=False)
        jac = [[None] * len(flat_diff) for _ in flat_out]  # [output][input]
        for i, o in enumerate(flat_out):
            n = o.numel()
            if not o.requires_grad or n == 0:
                for k, x in enumerate(flat_diff):
                    jac[i][k] = o.new_zeros(o.shape + x.shape, dtype=x.dtype)
                continue
            need = call.needs_graph(o)
            rows = []
            basis = torch.zeros(n, dtype=o.dtype, device=o.device)
            for j in range(n):
                e = basis.clone()
                e[j] = 1
                rows.append(_autograd_grad([o], flat_diff, [e.view(o.shape)], create_graph=need))
            for k, x in enumerate(flat_diff):
                jac[i][k] = torch.stack([r[k] for r in rows]).view(o.shape + x.shape)
    per_output = []
    for row in jac:
        entry = tree_unflatten(call.result(row), primals_spec)
        per_output.append(entry[0] if isinstance(argnums, int) else entry)
    result = tree_unflatten(per_output, out_spec)
    if has_aux:
        return result, call.aux(aux)
    return result


def jacrev(
    func: Callable, argnums=0, *, has_aux: bool = False, chunk_size: int | None = None, _preallocate_and_copy=False
):
    """Returns a function computing the Jacobian of func with respect to the arguments at argnums, by
    reverse mode (one backward pass per output element). For an output o and an input x the Jacobian is
    shaped o.shape + x.shape; pytree inputs and outputs give nested results (outputs outside, inputs
    inside; a tuple of inputs for a tuple argnums). With has_aux, func returns (output, aux) and the
    result is (jacobian, aux). chunk_size (None or > 0) is accepted for compatibility: the rows are
    computed one at a time here anyway.
    """
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args):
        return _jacobian("jacrev", func, args, argnums, has_aux, None)

    return wrapper


def jacfwd(func: Callable, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """Returns a function computing the Jacobian of func with respect to the arguments at argnums, laid
    out as jacrev's. Upstream pushes forward one tangent per input element; without forward-mode AD this
    computes the same Jacobian by reverse mode. randomness ('error', 'different' or 'same') is upstream's
    vmap flag: with 'error', func drawing random numbers raises (with one evaluation of func, 'same'
    and 'different' coincide).
    """

    @functools.wraps(func)
    def wrapper(*args):
        _check_randomness_arg(randomness)
        return _jacobian("jacfwd", func, args, argnums, has_aux, randomness)

    return wrapper


def hessian(func: Callable, argnums=0) -> Callable:
    """Returns a function computing the Hessian of func with respect to the arguments at argnums:
    jacfwd(jacrev(func, argnums), argnums), shaped output.shape + x.shape + x.shape."""
    return jacfwd(jacrev(func, argnums), argnums)


# ---- the others ----


def functionalize(func: Callable, *, remove: str = "mutations") -> Callable:
    """Upstream removes mutations (and, with remove='mutations_and_views', views) from func's program,
    for tracing; this library has no functionalization pass, so the returned function is func itself in
    effect: the same results and the same mutations of the inputs."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}. Valid options "
            "are:\n     remove='mutations': all inplace and out= operators will be removed from the program, and "
            "replaced with their out-of-place equivalents.\n     remove='mutations_and_views': In addition to the "
            "above, all aliasing operators {view} will be replaced with their non-aliasing counterparts, "
            "{view}_copy.\n"
        )

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        return func(*args, **kwargs)

    return wrapped


def debug_unwrap(tensor: Tensor, *, recurse: bool = True) -> Tensor:
    """Upstream unwraps functorch's wrapper tensors; the transforms here use no wrappers: returns tensor."""
    return tensor
