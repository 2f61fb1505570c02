"""Autograd semantics: the tensor API, grad modes, graph lifetime, hooks, custom Functions,
in-place ops and views, and PyTorch's errors.

Runs against upstream PyTorch too (nox -s tests-reference), so it encodes PyTorch's behaviour.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import torch


def leaf(values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def close(t: torch.Tensor, values) -> None:
    np.testing.assert_allclose(t.detach().numpy(), np.asarray(values, dtype=np.float64), rtol=1e-6, atol=1e-6)


# ---- the tensor API ---------------------------------------------------------------------


def test_leaf_and_result_flags():
    x = leaf([1.0, 2.0])
    assert x.requires_grad and x.is_leaf and x.grad_fn is None and x.grad is None
    y = x * 2
    assert y.requires_grad and not y.is_leaf
    assert type(y.grad_fn).__name__ == "MulBackward0"
    c = torch.ones(2)
    assert not c.requires_grad and c.is_leaf
    assert not (c * 2).requires_grad


def test_grad_fn_names_and_next_functions():
    x = leaf([1.0, 2.0])
    z = (x + x * x).sum()
    assert z.grad_fn.name() == "SumBackward0"
    ((add, _),) = z.grad_fn.next_functions
    assert add.name() == "AddBackward0"
    names = sorted(type(n).__name__ for n, _ in add.next_functions)
    assert names == ["AccumulateGrad", "MulBackward0"]
    acc = next(n for n, _ in add.next_functions if type(n).__name__ == "AccumulateGrad")
    assert acc.variable is x


def test_requires_grad_setters():
    x = torch.ones(3)
    assert x.requires_grad_() is x and x.requires_grad
    x.requires_grad = False
    assert not x.requires_grad
    y = leaf([1.0]) * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        y.requires_grad = False
    with pytest.raises(RuntimeError, match="floating point"):
        torch.ones(2, dtype=torch.int64).requires_grad_()
    assert torch.zeros(2, requires_grad=True).requires_grad
    assert not torch.zeros_like(torch.zeros(2, requires_grad=True)).requires_grad


def test_backward_accumulates_into_grad():
    x = leaf([1.0, 2.0, 3.0])
    (x * x).sum().backward()
    close(x.grad, [2, 4, 6])
    (x * 3).sum().backward()
    close(x.grad, [5, 7, 9])
    x.grad = None
    x.sum().backward()
    close(x.grad, [1, 1, 1])


def test_grad_setter_checks():
    x = leaf([1.0, 2.0])
    x.grad = torch.zeros(2)
    with pytest.raises(RuntimeError):
        x.grad = torch.zeros(3)


def test_broadcast_and_dtype_of_gradients():
    a = leaf([[1.0], [2.0]])  # [2, 1]
    b = leaf([1.0, 2.0, 3.0], dtype=torch.float64)  # [3], promotes the product to float64
    (a * b).sum().backward()
    assert a.grad.shape == (2, 1) and a.grad.dtype == torch.float32
    assert b.grad.shape == (3,) and b.grad.dtype == torch.float64
    close(a.grad, [[6], [6]])
    close(b.grad, [3, 3, 3])


def test_detach_shares_memory_and_leaves_the_graph():
    x = leaf([1.0, 2.0])
    d = (x * 2).detach()
    assert not d.requires_grad and d.is_leaf
    y = x.detach()
    y[0] = 5.0
    assert x[0].item() == 5.0
    z = x * 2
    z.detach_()
    assert z.is_leaf and not z.requires_grad


def test_integer_inputs_get_no_gradient():
    x = leaf([1.0, 2.0])
    i = torch.tensor([3, 4])
    y = (x * i).sum()
    y.backward()
    close(x.grad, [3, 4])
    assert i.grad is None


# ---- grad modes -------------------------------------------------------------------------


def test_no_grad_context_and_decorator():
    x = leaf([1.0])
    with torch.no_grad():
        y = x * 2
        assert not torch.is_grad_enabled()
        with torch.enable_grad():
            assert (x * 2).requires_grad
    assert not y.requires_grad and y.grad_fn is None
    assert torch.is_grad_enabled()

    @torch.no_grad()
    def f(t):
        return t * 2

    assert not f(x).requires_grad
    assert torch.is_grad_enabled()


def test_set_grad_enabled_and_inference_mode():
    x = leaf([1.0])
    with torch.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    try:
        assert not (x * 2).requires_grad
    finally:
        torch.set_grad_enabled(True)
    with torch.inference_mode():
        assert not (x * 2).requires_grad
    with torch.inference_mode(False):
        assert (x * 2).requires_grad


def test_grad_mode_is_thread_local():
    seen = []

    def worker():
        seen.append(torch.is_grad_enabled())

    with torch.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert seen == [True]


# ---- graph lifetime and errors ----------------------------------------------------------


def test_backward_twice_needs_retain_graph():
    x = leaf([1.0, 2.0])
    y = (x.exp()).sum()
    y.backward(retain_graph=True)
    y.backward()
    close(x.grad, 2 * np.exp([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_non_scalar_backward_needs_gradient():
    x = leaf([1.0, 2.0])
    y = x * 2
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        y.backward()
    y.backward(torch.tensor([1.0, 10.0]))
    close(x.grad, [2, 20])


def test_backward_of_tensor_without_grad():
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        torch.ones(2).sum().backward()


def test_autograd_grad_and_allow_unused():
    x, w = leaf([1.0, 2.0]), leaf([3.0])
    y = (x * x).sum()
    (gx,) = torch.autograd.grad(y, x, retain_graph=True)
    close(gx, [2, 4])
    assert x.grad is None  # grad() does not accumulate
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad(y, [x, w], retain_graph=True)
    gx, gw = torch.autograd.grad(y, [x, w], allow_unused=True)
    assert gw is None


def test_grad_of_non_leaf_input():
    x = leaf([1.0, 2.0])
    h = x * 3
    y = (h * h).sum()
    (gh,) = torch.autograd.grad(y, h)
    close(gh, [6, 12])


def test_backward_inputs_restricts_accumulation():
    x, w = leaf([1.0]), leaf([2.0])
    (x * w).sum().backward(inputs=[w])
    assert x.grad is None
    close(w.grad, [1])


def test_higher_order_gradients():
    x = leaf([1.0, 2.0], dtype=torch.float64)
    (g,) = torch.autograd.grad((x**3).sum(), x, create_graph=True)
    close(g, [3, 12])
    assert g.requires_grad
    (g2,) = torch.autograd.grad(g.sum(), x)
    close(g2, [6, 12])


def test_out_arguments_refuse_grad():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="out=... arguments don't support automatic differentiation"):
        torch.exp(x, out=torch.empty(2))


def test_diamond_graph_runs_each_node_once():
    x = leaf([2.0])
    a = x * 3
    b = a.exp()
    c = a.sin()
    (b + c).sum().backward()
    close(x.grad, 3 * (np.exp(6.0) + np.cos(6.0)))


# ---- hooks ------------------------------------------------------------------------------


def test_hooks_on_leaf_and_non_leaf():
    x = leaf([1.0, 2.0])
    seen = []
    handle = x.register_hook(lambda g: g * 10)
    y = x * 2
    y.register_hook(lambda g: seen.append(g.clone()))
    y.sum().backward()
    close(x.grad, [20, 20])
    close(seen[0], [1, 1])
    handle.remove()
    x.grad = None
    (x * 2).sum().backward()
    close(x.grad, [2, 2])


def test_retain_grad():
    x = leaf([1.0, 2.0])
    y = x * 2
    y.retain_grad()
    assert y.retains_grad
    (y * y).sum().backward()
    close(y.grad, [4, 8])
    close(x.grad, [8, 16])


# ---- custom Function --------------------------------------------------------------------


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return x**3 * scale

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        assert ctx.needs_input_grad == (True, False)
        return g * 3 * x**2 * ctx.scale, None


class SortLike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        idx = torch.arange(x.shape[0])
        ctx.mark_non_differentiable(idx)
        return x * 1.0, idx

    @staticmethod
    def backward(ctx, g, g_idx):
        return g


def test_custom_function():
    x = leaf([1.0, 2.0], dtype=torch.float64)
    y = Cube.apply(x, 2.0)
    assert type(y.grad_fn).__name__ == "CubeBackward"
    y.sum().backward()
    close(x.grad, [6, 24])
    assert torch.autograd.gradcheck(lambda t: Cube.apply(t, 0.5), (leaf([0.5, -1.0], dtype=torch.float64),))


def test_custom_function_non_differentiable_output():
    x = leaf([1.0, 2.0])
    v, i = SortLike.apply(x)
    assert v.requires_grad and not i.requires_grad
    v.sum().backward()
    close(x.grad, [1, 1])


# ---- in-place ops and views -------------------------------------------------------------


def test_in_place_on_leaf_requiring_grad_raises():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        x.add_(1)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        x[0].mul_(2)
    with torch.no_grad():
        x.add_(1)  # allowed: not recorded
    close(x, [2, 3])


def test_modified_saved_tensor_raises():
    x = leaf([1.0, 2.0])
    y = x * 2
    z = y.exp()  # saves its result
    z.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    a = x * 2
    b = a * a  # saves a
    a.mul_(3)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        b.sum().backward()


def test_in_place_on_non_leaf_extends_history():
    x = leaf([1.0, 2.0])
    y = x * 2
    y.mul_(3)
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    close(x.grad, [6, 6])
    assert y._version == 1


def test_in_place_through_a_view_updates_the_base():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    y = x.clone()
    y[:, 0].mul_(10)
    y.sum().backward()
    close(x.grad, [[10, 1], [10, 1]])


def test_setitem_records_the_value():
    w = leaf([2.0])
    y = torch.zeros(3)
    y[1] = (w * 3)[0]
    assert y.requires_grad
    (y * torch.tensor([1.0, 5.0, 1.0])).sum().backward()
    close(w.grad, [15])


def test_views_share_the_version_counter():
    x = torch.zeros(4)
    v = x[1:3]
    v.add_(1)
    assert x._version == v._version == 1


@pytest.mark.parametrize(
    "make, strides",
    [
        (lambda: torch.randn(4, 3), (3, 1)),  # contiguous parameter, transposed gradient (a linear weight)
        (lambda: torch.randn(3, 4).t(), (1, 4)),  # dense transposed parameter: .grad takes its strides
        (lambda: torch.randn(6, 4)[::2], (4, 1)),  # not dense: contiguous
        (lambda: torch.randn(1, 4).expand(3, 4), (4, 1)),
        (lambda: torch.randn(4, 1, 3).permute(2, 1, 0), (1, 3, 3)),
    ],
)
def test_grad_layout_contract(make, strides):
    """p.grad has the strides of its dense parameter (else is contiguous), whatever the backward produced."""
    p = make().requires_grad_()
    x = torch.randn(p.shape[::-1])
    (p * x.t() if p.dim() == 2 else p * 2).sum().backward()  # grad x.t(): a transposed layout
    assert p.grad.stride() == strides
    torch.testing.assert_close(p.grad, x.t() if p.dim() == 2 else torch.full(p.shape, 2.0))
    # the linear layer: the weight's gradient is computed transposed and lands contiguous
    lin = torch.nn.Linear(5, 3)
    lin(torch.randn(2, 5)).sum().backward()
    assert lin.weight.grad.is_contiguous()


def test_modified_saved_tensor_messages_name_the_producer():
    """PyTorch's wording: a leaf is named by type and shape only; a node's output by the forward op (Exp, Add)."""
    w = torch.randn(3, requires_grad=True)
    y = (w * w).sum()
    with torch.no_grad():
        w.add_(1)
    with pytest.raises(
        RuntimeError, match=r"operation: \[torch.FloatTensor \[3\]\] is at version 1; expected version 0"
    ):
        y.backward()
    x = torch.randn(3, requires_grad=True)
    e = x.exp()
    total = e.sum() + (e * 2).sum()
    e.mul_(2)
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[3\]\], which is output 0 of Exp, is at version 1"):
        total.backward()


@pytest.mark.parametrize(
    "values",
    [[1.5, -2.0, 0.7, 3.0], [1.5, 0.0, 0.7, 3.0], [0.0, 2.0, 0.0, 3.0], [2.0, 3.0, -1.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
)
def test_cumprod_gradient_with_zeros(values):
    """d out_k / d x_j is the product of the other factors: finite at zeros (one or several), not NaN."""
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: a.cumprod(0), (x,))
    m = torch.tensor(np.random.default_rng(0).normal(size=(3, 4, 5)))
    m[0, 1, 2] = 0
    m[1, :, 3] = 0
    m[2, 0, :2] = 0
    m.requires_grad_()
    assert torch.autograd.gradcheck(lambda a: a.cumprod(1), (m,))
    assert torch.autograd.gradcheck(lambda a: a.cumprod(-1), (m,))
    x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
    x.cumprod(0).sum().backward()
    assert x.grad.tolist() == [4.0, 0.0, 0.0]  # 1 + 1*2 at the zero; 0 after it


def test_pow_gradient_of_a_zero_exponent_is_zero_also_at_zero():
    """x ** 0 is constant: its gradient is 0 everywhere, at x = 0 too (0 * 0 ** -1 would be NaN)."""
    x = torch.zeros(2, requires_grad=True)
    (x**0.0).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
    x = torch.tensor([0.0, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
    e = torch.tensor([0.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
    (x**e).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 4.0]
    np.testing.assert_allclose(e.grad.numpy(), [0.0, 0.0, 4 * np.log(2)])


def test_grad_with_respect_to_a_non_leaf_leaves_its_own_graph_usable():
    """autograd.grad(z1, y) stops at y: y's own node neither runs nor is freed, so a later backward through y
    still reaches x (it raised 'backward through the graph a second time')."""
    x = torch.ones(3, requires_grad=True)
    y = x.exp()
    z1, z2 = (y * 2).sum(), (y * 3).sum()
    (g,) = torch.autograd.grad(z1, y)
    assert torch.equal(g, torch.full((3,), 2.0))
    z2.backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full(3, 3 * np.e), rtol=1e-6)
    a = torch.ones(2, requires_grad=True)
    b = a * 3
    (b**2).sum().backward(inputs=[b])
    assert torch.equal(b.grad, torch.full((2,), 6.0)) and a.grad is None
