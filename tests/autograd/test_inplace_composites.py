"""The in-place forms of ops composed in Python (Tensor.copysign_, hypot_, addcmul_, ...) on a tensor in the
graph: the gradient equals the functional form's (they used to fail with "modified by an inplace operation" where
the composite's graph saved self and copy_ then overwrote it). Runs against upstream PyTorch too."""

from __future__ import annotations

import pytest

import torch

G = torch.Generator().manual_seed(0)


def r(*shape):
    return torch.rand(*shape, generator=G, dtype=torch.float64) + 0.5


# name -> (shape of self, the other arguments)
CASES = {
    "copysign": ((3, 4), lambda: (r(3, 4) - 1.0,)),
    "hypot": ((3, 4), lambda: (r(3, 4),)),
    "xlogy": ((3, 4), lambda: (r(3, 4),)),
    "ldexp": ((3, 4), lambda: (torch.tensor([1.0, 2.0, -1.0, 0.0], dtype=torch.float64),)),
    "logit": ((3, 4), lambda: (0.1,)),
    "square": ((3, 4), lambda: ()),
    "addcmul": ((3, 4), lambda: (r(3, 4), r(3, 4))),
    "addcdiv": ((3, 4), lambda: (r(3, 4), r(3, 4))),
    "deg2rad": ((3, 4), lambda: ()),
    "rad2deg": ((3, 4), lambda: ()),
    "addmv": ((3,), lambda: (r(3, 4), r(4))),
    "addr": ((3, 4), lambda: (r(3), r(4))),
    "baddbmm": ((2, 3, 4), lambda: (r(2, 3, 5), r(2, 5, 4))),
    "addbmm": ((3, 4), lambda: (r(2, 3, 5), r(2, 5, 4))),
    "renorm": ((3, 4), lambda: (2, 0, 1.0)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_inplace_composite_on_a_tensor_in_the_graph(name):
    """y = x * 2; y.<name>_(...); the gradient of a weighted sum equals that of the functional form."""
    shape, make_args = CASES[name]
    x0 = r(*shape) * 0.4  # in (0.2, 0.6): inside logit's domain
    args = make_args()
    w = r(*shape)
    x = x0.clone().requires_grad_()
    y = x * 2
    assert getattr(y, name + "_")(*args) is y
    (y * w).sum().backward()
    x2 = x0.clone().requires_grad_()
    (getattr(torch.Tensor, name)(x2 * 2, *args) * w).sum().backward()
    torch.testing.assert_close(x.grad, x2.grad)
