"""autograd.Function in its newer forms: forward without ctx plus setup_context (inputs with forward's
defaults), vjp as backward's alias, and once_differentiable's delayed error when its gradient is
differentiated. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import pytest

import torch
from torch.autograd.function import once_differentiable


class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(x, scale=3.0):
        return x * x * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs  # the default is filled in
        ctx.save_for_backward(x)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad * ctx.scale, None


def test_setup_context_form_with_defaults_and_keywords():
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)
    torch.testing.assert_close(ScaledSquare.apply(x), 3 * x * x)
    (g,) = torch.autograd.grad(ScaledSquare.apply(x).sum(), x)
    torch.testing.assert_close(g, 6 * x)
    (g,) = torch.autograd.grad(ScaledSquare.apply(x, 0.5).sum(), x)
    torch.testing.assert_close(g, x)
    assert torch.autograd.gradcheck(lambda t: ScaledSquare.apply(t, 2.0), (x,))
    assert torch.autograd.gradgradcheck(ScaledSquare.apply, (x,))


def test_setup_context_sees_the_output_and_marks_it():
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x.exp()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(output)

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(Exp.apply, (x,))


def test_vjp_is_an_alias_of_backward():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return 2 * x

        @staticmethod
        def vjp(ctx, grad):
            return 2 * grad

    x = torch.randn(3, requires_grad=True)
    Double.apply(x).sum().backward()
    torch.testing.assert_close(x.grad, torch.full((3,), 2.0))

    class Both(Double):
        @staticmethod
        def backward(ctx, grad):
            return grad

    with pytest.raises(RuntimeError, match="Implementing both 'backward' and 'vjp'"):
        Both.apply(torch.randn(2, requires_grad=True)).sum().backward()


class OnceSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


def test_once_differentiable_raises_when_differentiated_twice():
    x = torch.randn(3, requires_grad=True)
    v = torch.ones(3, requires_grad=True)
    (g,) = torch.autograd.grad(OnceSquare.apply(x), x, v, create_graph=True)
    assert g.requires_grad
    torch.testing.assert_close(g.detach(), 2 * x.detach())
    with pytest.raises(RuntimeError, match="trying to differentiate twice a function that was marked with"):
        g.sum().backward()


def test_once_differentiable_first_order_is_plain():
    x = torch.randn(3, requires_grad=True)
    (g,) = torch.autograd.grad(OnceSquare.apply(x).sum(), x)
    assert not g.requires_grad
    torch.testing.assert_close(g, 2 * x.detach())
