"""torch.autograd.functional: derivatives of a whole function at a point (PyTorch's API): vector-Jacobian and
Jacobian-vector products (`vjp`, `jvp`), full Jacobians and Hessians (`jacobian`, `hessian`) and Hessian-vector
products (`vhp`, `hvp`).

Every function takes `func` (Tensors in, a Tensor or a tuple of Tensors out) and `inputs` (a Tensor or a tuple of
Tensors) and returns results shaped as upstream's: a tuple where the inputs or outputs were one, nested tuples
(`jacobian(...)[i][j]`, output i by input j) where both were. `func` runs on fresh tensors made from the inputs
(detached unless `create_graph`), so tensors it captures from its surroundings count as constants. An output
that does not depend on an input has a derivative of zeros, or raises upstream's error with `strict=True`.

Everything runs on the reverse-mode engine (torch.autograd.grad): `jvp` and `hvp` use the double-backward trick
as upstream does. This library has no forward-mode AD and no vmap: `vectorize=True` and the forward-mode
strategies compute the same Jacobian row by row, checked as upstream checks them.
"""

from __future__ import annotations

import torch
from torch._C import Tensor

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]

# strict mode's messages, by what was found independent of the inputs (see _check_requires_grad)
_NOT_REQUIRING_GRAD = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The outputs must be computed "
    "in a differentiable manner from the input when running in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the user-provided "
    "function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with respect to "
    "input {i} is independent of the input. This is not allowed in strict mode. You should ensure that your "
    "function is twice differentiable and that the jacobian depends on the inputs (this would be violated by a "
    "linear function for example).",
}

# strict mode's messages, by backward stage (see _fill_in_zeros): a gradient that is None, and one that does
# not require grad under create_graph
_NO_GRADIENT = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
    "using the double backward trick to compute forward mode gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed "
    "in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
    "grad_jacobian. This is not allowed in strict mode as it prevents from using the double backward trick to "
    "replace forward mode AD.",
}
_CONSTANT_GRADIENT = (
    "The {what} of the user-provided function is independent of input {i}. This is not allowed in strict mode "
    "when create_graph=True."
)


def _as_tuple(x, arg_name: str, fn_name: str) -> tuple[bool, tuple]:
    """(whether `x` was a tuple, `x` as a tuple of Tensors); a TypeError naming what is not a Tensor."""
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"the value at index {i}" if is_tuple else f"the given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but {where} has "
                f"type {type(el)}."
            )
    return is_tuple, items


def _unpack(res: tuple, is_tuple: bool, is_inner_tuple: bool = True):
    """Undoes _as_tuple on a result: `res` itself or its only element, and likewise per element of `res` for
    the inner level of nested results (jacobian, hessian)."""
    if not is_inner_tuple:
        res = tuple(el[0] for el in res)
    return res if is_tuple else res[0]


def _fresh(tensors: tuple, create_graph: bool, need_graph: bool) -> tuple:
    """New Tensor objects for `tensors`: a differentiable view of those requiring grad under create_graph (so
    that gradients flow back to them), otherwise detached copies that require grad when `need_graph`. New
    objects tell the inputs passed to `func` apart from the same tensors captured by it."""
    return tuple(
        t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_(need_graph) for t in tensors
    )


def _detach(res: tuple, create_graph: bool) -> tuple:
    """`res` (a tuple of Tensors, or of such tuples) without history, unless create_graph."""
    if create_graph:
        return res
    return tuple(r.detach() if isinstance(r, Tensor) else _detach(r, False) for r in res)


def _validate_v(v: tuple, other: tuple, is_other_tuple: bool) -> None:
    """`v` must hold one Tensor per Tensor of `other`, each of its size."""
    if len(v) != len(other):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {i} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}.")


def _prepare_v(v, like: tuple, is_like_tuple: bool, fn_name: str, create_graph: bool, none_error: str):
    """`v` as a tuple shaped as `like`, or None where `like` is a single one-element Tensor (`none_error`
    otherwise)."""
    if v is None:
        if len(like) != 1 or like[0].nelement() != 1:
            raise RuntimeError(none_error)
        return None
    v = _fresh(_as_tuple(v, "v", fn_name)[1], create_graph, need_graph=False)
    _validate_v(v, like, is_like_tuple)
    return v


def _check_requires_grad(tensors: tuple, kind: str, strict: bool) -> None:
    """In strict mode, refuses `tensors` (of `kind`, a key of _NOT_REQUIRING_GRAD) that are missing (None: the
    output does not depend on that input) or do not require grad."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(_NO_GRADIENT["back"].format(i=i))
        if not t.requires_grad:
            raise RuntimeError(_NOT_REQUIRING_GRAD[kind].format(i=i))


def _grad(outputs: tuple, inputs: tuple, grad_outputs=None, create_graph: bool = False, retain_graph=None) -> tuple:
    """torch.autograd.grad over the outputs that require grad (None entries allowed), None for the inputs they do
    not depend on; all None, without running the engine, when no output requires grad."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, grads = zip(*pairs)
    return torch.autograd.grad(
        outs, inputs, grads, allow_unused=True, create_graph=create_graph, retain_graph=retain_graph
    )


def _fill_in_zeros(grads: tuple, refs: tuple, strict: bool, create_graph: bool, stage: str) -> tuple:
    """`grads` with zeros shaped as `refs` for the None entries; in strict mode, raises (with `stage`'s message,
    a key of _NO_GRADIENT) instead, and under create_graph also for gradients that do not require grad."""
    res = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(_NO_GRADIENT[stage].format(i=i))
            g = torch.zeros_like(ref)
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if stage.startswith("double") else "jacobian"
            raise RuntimeError(_CONSTANT_GRADIENT.format(what=what, i=i))
        res.append(g)
    return tuple(res)


def _product(outputs: tuple, inputs: tuple, v, refs: tuple, strict: bool, create_graph: bool, stage: str) -> tuple:
    """The last backward pass of vjp, jvp, vhp and hvp: the gradients of `outputs` with respect to `inputs` along
    `v`, zeros shaped as `refs` (or `stage`'s strict error) where there are none. Grad mode is on under
    create_graph, the caller's otherwise."""
    with torch.set_grad_enabled(create_graph or torch.is_grad_enabled()):
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        return _fill_in_zeros(grads, refs, strict, create_graph, stage)


def _results(outputs: tuple, is_outputs_tuple: bool, res: tuple, is_res_tuple: bool, create_graph: bool) -> tuple:
    """(func_output, product) as returned: each unpacked as given, without history unless create_graph."""
    return _unpack(_detach(outputs, create_graph), is_outputs_tuple), _unpack(_detach(res, create_graph), is_res_tuple)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """The vector-Jacobian product `v^T J` of `func` at `inputs`.

    Args:
        func (callable): takes the Tensors of `inputs` and returns a Tensor or a tuple of Tensors.
        inputs (Tensor or tuple of Tensors): the point.
        v (Tensor or tuple of Tensors, optional): shaped as `func`'s output; may be None only when that output is
            a single one-element Tensor (then 1).
        create_graph (bool, optional): compute the output and the product differentiably (default False).
        strict (bool, optional): raise where all the outputs are independent of an input, instead of returning
            zeros for it (default False).

    Returns:
        (func_output, vjp): `func(*inputs)`, and the product shaped as `inputs` (a Tensor or a tuple).
    """
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        v = _prepare_v(
            v,
            outputs,
            is_outputs_tuple,
            "vjp",
            create_graph,
            "The vector v can only be None if the user-provided function returns a single Tensor with a single "
            "element.",
        )
    res = _product(outputs, inputs, v, inputs, strict, create_graph, "back")
    return _results(outputs, is_outputs_tuple, res, is_inputs_tuple, create_graph)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """The Jacobian-vector product `J v` of `func` at `inputs`, by the double-backward trick: the vector-Jacobian
    product is linear in its vector u, so differentiating `u^T J` with respect to u, along `v`, gives `J v`.

    Args:
        func (callable): takes the Tensors of `inputs` and returns a Tensor or a tuple of Tensors.
        inputs (Tensor or tuple of Tensors): the point.
        v (Tensor or tuple of Tensors, optional): shaped as `inputs`; may be None only when `inputs` is a single
            one-element Tensor (then 1).
        create_graph (bool, optional): compute the output and the product differentiably (default False).
        strict (bool, optional): raise where all the outputs are independent of an input, instead of returning
            zeros for it (default False).

    Returns:
        (func_output, jvp): `func(*inputs)`, and the product shaped as that output (a Tensor or a tuple).
    """
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _prepare_v(
            v,
            inputs,
            is_inputs_tuple,
            "jvp",
            create_graph,
            "The vector v can only be None if the input to the user-provided function is a single Tensor with a "
            "single element.",
        )
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        # u's value never reaches the double-backward graph (the backward is linear in it): zeros, neither inf nor NaN
        u = tuple(torch.zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _grad(outputs, inputs, u, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    res = _product(grad_inputs, u, v, outputs, strict, create_graph, "back_trick")
    return _results(outputs, is_outputs_tuple, res, is_outputs_tuple, create_graph)


def _jacobian_of_output(out: Tensor, index: int, inputs: tuple, create_graph: bool, strict: bool) -> tuple:
    """Per input: the Jacobian of `out` (output `index`) with respect to it, shaped out.shape + input.shape,
    one backward pass per element of `out`."""
    rows: tuple[list, ...] = tuple([] for _ in inputs)
    flat = out.reshape(-1)
    for k in range(out.nelement()):
        grads = _grad((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
        for j, (g, inp) in enumerate(zip(grads, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(
                        f"Output {index} of the user-provided function is independent of input {j}. This is not "
                        "allowed in strict mode."
                    )
                g = torch.zeros_like(inp)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(_CONSTANT_GRADIENT.format(what="jacobian", i=j))
            rows[j].append(g)
    return tuple(
        torch.stack(r).view(tuple(out.shape) + tuple(inp.shape))
        if r
        else inp.new_zeros(tuple(out.shape) + tuple(inp.shape))
        for r, inp in zip(rows, inputs)
    )


def _check_forward_mode(create_graph: bool, strict: bool, vectorize: bool) -> None:
    """Upstream's refusals of strategy="forward-mode" (what it does support runs in reverse mode here)."""
    if create_graph:
        raise NotImplementedError(
            'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-mode"` are not '
            'supported together (yet). Please either set `create_graph=False` or `strategy="reverse-mode"`.'
        )
    if strict:
        raise RuntimeError(
            'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not supported '
            'together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.'
        )
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is only implemented for "
            "`vectorize=True`."
        )


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of `func` at `inputs`.

    Args:
        func (callable): takes the Tensors of `inputs` and returns a Tensor or a tuple of Tensors.
        inputs (Tensor or tuple of Tensors): the point.
        create_graph (bool, optional): compute the Jacobian differentiably (default False).
        strict (bool, optional): raise where an output is independent of an input, instead of returning zeros
            for it (default False).
        vectorize (bool, optional): upstream batches the backward passes with vmap; this library has no vmap and
            computes the same Jacobian one backward pass per output element. As upstream, not with strict=True.
        strategy (str, optional): "reverse-mode" (default) or "forward-mode". This library has no forward-mode
            AD: "forward-mode" is refused where upstream refuses it (create_graph=True, strict=True, or
            vectorize=False) and otherwise computes the Jacobian in reverse mode (in the inputs' dtype, where
            upstream's forward mode gives the outputs').

    Returns:
        Tensor or nested tuple of Tensors: for output i and input j, a Tensor of size output_i.shape +
        input_j.shape; a single Tensor for one input and one output, a tuple over the one that is a tuple, and
        `Jacobian[i][j]` when both are.

    Unlike upstream, an output with no elements has an empty Jacobian (upstream fails on it), and strict mode's
    error for a constant Jacobian under create_graph names the input (upstream names the output's index).
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more '
            'outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use '
            '"reverse-mode".'
        )
    if strategy == "forward-mode":
        _check_forward_mode(create_graph, strict, vectorize)
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported "
                "together. Please either set `strict=False` or `vectorize=False`."
            )
        jac = tuple(_jacobian_of_output(out, i, inputs, create_graph, strict) for i, out in enumerate(outputs))
    return _unpack(_detach(jac, create_graph), is_outputs_tuple, is_inputs_tuple)


def _single_output(out: tuple, is_tuple: bool, fn_name: str) -> None:
    """Hessians are of scalar functions: `func` must return one Tensor with one element."""
    if is_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if out[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of the scalar function `func` at `inputs`: the Jacobian (outer) of its Jacobian (inner, always
    reverse mode).

    Args:
        func (callable): takes the Tensors of `inputs` and returns a Tensor with a single element.
        inputs (Tensor or tuple of Tensors): the point.
        create_graph (bool, optional): compute the Hessian differentiably (default False).
        strict (bool, optional): raise where the output or its Jacobian is independent of an input, instead of
            returning zeros for it (default False).
        vectorize (bool, optional): as jacobian's (the same Hessian, row by row; not with strict=True).
        outer_jacobian_strategy (str, optional): the outer Jacobian's strategy, "reverse-mode" (default) or
            "forward-mode", as jacobian's (refused unless vectorize=True, computed in reverse mode here).

    Returns:
        Tensor or tuple of tuples of Tensors: a Tensor of size input.shape + input.shape for a single input,
        otherwise `Hessian[i][j]` of size input_i.shape + input_j.shape.
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_func(*inp):
        is_tuple, out = _as_tuple(func(*inp), "outputs of the user-provided function", "hessian")
        _check_requires_grad(out, "outputs", strict)
        _single_output(out, is_tuple, "hessian")
        return out[0].squeeze()

    def jac_func(*inp):
        jac = jacobian(scalar_func, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(
        jac_func,
        inputs,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return _unpack(res, is_inputs_tuple, is_inputs_tuple)


def _jacobian_at(fn_name: str, func, inputs, v, create_graph: bool, strict: bool):
    """vhp and hvp's first step: (is_inputs_tuple, inputs, v, outputs, the Jacobian as a graph), `func` checked
    to be scalar and, in strict mode, its Jacobian to depend on every input."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    inputs = _fresh(inputs, create_graph, need_graph=True)
    v = _prepare_v(
        v,
        inputs,
        is_inputs_tuple,
        fn_name,
        create_graph,
        "The vector v can only be None if the input to the user-provided function is a single Tensor with a "
        "single element.",
    )
    is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", fn_name)
    _check_requires_grad(outputs, "outputs", strict)
    _single_output(outputs, is_outputs_tuple, fn_name)
    jac = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return is_inputs_tuple, inputs, v, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """The vector-Hessian product `v^T H` of the scalar function `func` at `inputs`.

    Args:
        func (callable): takes the Tensors of `inputs` and returns a Tensor with a single element.
        inputs (Tensor or tuple of Tensors): the point.
        v (Tensor or tuple of Tensors, optional): shaped as `inputs`; may be None only when `inputs` is a single
            one-element Tensor (then 1).
        create_graph (bool, optional): compute the output and the product differentiably (default False).
        strict (bool, optional): raise where the output or its Jacobian is independent of an input, instead of
            returning zeros for it (default False).

    Returns:
        (func_output, vhp): `func(*inputs)`, and the product shaped as `inputs` (a Tensor or a tuple).
    """
    with torch.enable_grad():
        is_inputs_tuple, inputs, v, outputs, jac = _jacobian_at("vhp", func, inputs, v, create_graph, strict)
    res = _product(jac, inputs, v, inputs, strict, create_graph, "double_back")
    return _results(outputs, False, res, is_inputs_tuple, create_graph)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """The Hessian-vector product `H v` of the scalar function `func` at `inputs`, by the double-backward trick
    on the Jacobian. It is slower than vhp, which equals it for twice continuously differentiable functions (their
    Hessian is symmetric).

    Takes vhp's arguments (`v` shaped as `inputs`, None only for a single one-element input) and returns
    (func_output, hvp): `func(*inputs)`, and the product shaped as `inputs` (a Tensor or a tuple).
    """
    with torch.enable_grad():
        is_inputs_tuple, inputs, v, outputs, jac = _jacobian_at("hvp", func, inputs, v, create_graph, strict)
        u = tuple(torch.zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _grad(jac, inputs, u, create_graph=True)
    res = _product(double_back, u, v, inputs, strict, create_graph, "double_back_trick")
    return _results(outputs, False, res, is_inputs_tuple, create_graph)
