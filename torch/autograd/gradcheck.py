"""gradcheck / gradgradcheck: analytical gradients (the engine's) against central finite
differences, with PyTorch's defaults (eps=1e-6, atol=1e-5, rtol=1e-3) and messages."""

from __future__ import annotations

import torch
from torch._C import Tensor

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck when the gradients disagree (and raise_exception=True)."""


def _as_tuple(x) -> tuple:
    return x if isinstance(x, tuple) else tuple(x) if isinstance(x, list) else (x,)


def _differentiable_outputs(func, inputs) -> tuple:
    return tuple(o for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor) and o.requires_grad)


def _real_parts(t: Tensor):
    """A float64 NumPy vector of t's values, a complex t as its real parts then its imaginary parts."""
    t = t.detach().reshape(-1).cpu()
    if t.is_complex():
        return torch.cat([t.real, t.imag]).detach().to(torch.float64).numpy().copy()
    return t.detach().to(torch.float64).numpy().copy()


def _numerical_jacobian(func, inputs, out_index: int, eps: float) -> list:
    """Per input requiring grad: rows d output / d input[i] by central differences (any layout). A complex
    input has two rows per element (its real, then its imaginary part moved by eps), a complex output its
    real parts then its imaginary parts as columns: the real Jacobian of the function, as upstream's."""
    import numpy as np  # noqa: PLC0415

    def set_(x, idx, value) -> None:
        with torch.no_grad():
            x[idx] = value

    jacobians = []
    for x in inputs:
        if not (isinstance(x, Tensor) and x.requires_grad):
            continue
        rows = []
        steps = (eps, eps * 1j) if x.is_complex() else (eps,)
        for idx in np.ndindex(*tuple(x.shape)):
            orig = x[idx].item()
            for step in steps:
                set_(x, idx, orig + step)
                plus = _as_tuple(func(*inputs))[out_index].detach().clone()
                set_(x, idx, orig - step)
                minus = _as_tuple(func(*inputs))[out_index].detach().clone()
                set_(x, idx, orig)
                rows.append((_real_parts(plus) - _real_parts(minus)) / (2 * eps))
        jacobians.append(rows)
    return jacobians


def _analytical_jacobian(func, inputs, out_index: int, create_graph: bool = False) -> list:
    """Per input requiring grad: the real Jacobian laid out as _numerical_jacobian's, one backward pass per
    real output: the gradient of Re(out[j]) (grad_output 1 at j) and, for a complex output, of Im(out[j])
    (grad_output 1j at j); with PyTorch's convention a complex input's gradient is d/dRe + i d/dIm."""
    import numpy as np  # noqa: PLC0415

    diff_inputs = [x for x in inputs if isinstance(x, Tensor) and x.requires_grad]
    out = _differentiable_outputs(func, inputs)[out_index]
    parts = (1.0, 1j) if out.is_complex() else (1.0,)
    n_out = out.numel()
    cols = [np.zeros((x.numel() * (2 if x.is_complex() else 1), n_out * len(parts))) for x in diff_inputs]
    for p, unit in enumerate(parts):
        for j in range(n_out):
            g = torch.zeros_like(out, memory_format=torch.contiguous_format)
            g.view(-1)[j] = unit
            grads = torch.autograd.grad(out, diff_inputs, g, retain_graph=True, allow_unused=True)
            for k, gk in enumerate(grads):
                if gk is None:
                    continue
                gk = gk.detach().reshape(-1).cpu()
                if diff_inputs[k].is_complex():  # rows per element: its real part, then its imaginary part
                    col = torch.stack([gk.real, gk.imag], dim=1).reshape(-1) if gk.is_complex() else (
                        torch.stack([gk, torch.zeros_like(gk)], dim=1).reshape(-1))  # fmt: skip
                else:
                    col = gk.real if gk.is_complex() else gk
                cols[k][:, p * n_out + j] = col.detach().to(torch.float64).numpy()
    return cols


def gradcheck(
    func,
    inputs,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked=None,
) -> bool:
    """Checks the gradients of `func` at `inputs` (float64 tensors with requires_grad) against finite
    differences; raises GradcheckError (or returns False) on a mismatch."""
    import numpy as np  # noqa: PLC0415

    inputs = _as_tuple(inputs)
    diff = [x for x in inputs if isinstance(x, Tensor) and x.requires_grad]
    if not diff:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of the them have "
            "requires_grad=True."
        )
    for x in diff:
        if x.dtype not in (torch.float64, torch.complex128):
            import warnings  # noqa: PLC0415

            warnings.warn(
                "Input #0 requires gradient and is not a double precision floating point. This check will likely "
                "fail if all the inputs are not of double precision floating point. ",
                stacklevel=2,
            )
    outputs = _differentiable_outputs(func, inputs)
    for o_idx in range(len(outputs)):
        numerical = _numerical_jacobian(
            func,
            inputs,
            [i for i, o in enumerate(_as_tuple(func(*inputs))) if isinstance(o, Tensor) and o.requires_grad][o_idx],
            eps,
        )
        analytical = _analytical_jacobian(func, inputs, o_idx)
        for i, (num_rows, ana) in enumerate(zip(numerical, analytical)):
            num = np.array(num_rows).reshape(ana.shape)
            if not np.allclose(ana, num, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {o_idx} with respect to input {i},\n"
                    f"numerical:{torch.from_numpy(num.T.copy())}\nanalytical:{torch.from_numpy(ana.T.copy())}\n"
                )
    return True


def gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    """gradcheck of the first derivative: checks gradients of `func`'s vector-Jacobian product."""
    inputs = _as_tuple(inputs)
    outputs = _differentiable_outputs(func, inputs)
    if grad_outputs is None:
        import numpy as np  # noqa: PLC0415

        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            torch.from_numpy(rng.standard_normal(tuple(o.shape))).to(o.device, o.dtype).requires_grad_()
            for o in outputs
        )
    grad_outputs = _as_tuple(grad_outputs)
    n_in = len(inputs)

    def first_derivative(*args):
        ins, gouts = args[:n_in], args[n_in:]
        outs = _differentiable_outputs(func, ins)
        diff = [x for x in ins if isinstance(x, Tensor) and x.requires_grad]
        grads = torch.autograd.grad(outs, diff, gouts, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_derivative, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception
    )
