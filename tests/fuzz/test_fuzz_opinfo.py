"""The OpInfo mode's writer (tools/fuzz/opinfo_calls.py): a sample's arguments written as source evaluate back
to the same tensors (values, dtype, shape, strides and storage offset), and what has no source form is refused."""

from __future__ import annotations

import math

import pytest

import torch
from tools.fuzz import opinfo_calls
from tools.fuzz.opinfo_calls import Unwritable, Writer


def roundtrip(x, max_elements=4096):
    src = Writer(torch, max_elements).arg(x)
    return src, eval(src, {"torch": torch})


def same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape and a.stride() == b.stride()
    if a.is_floating_point():
        assert torch.equal(a.isnan(), b.isnan()) and torch.equal(a.nan_to_num(), b.nan_to_num())
    else:
        assert torch.equal(a, b)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.bool, torch.float16,
                                   torch.bfloat16, torch.complex64, torch.uint8])  # fmt: skip
def test_a_tensor_comes_back_with_its_values_and_dtype(dtype):
    x = (torch.arange(12, dtype=torch.float64) - 5.5).reshape(3, 4) * 1.25
    x = x.to(dtype) if dtype != torch.complex64 else torch.complex(x, -x).to(dtype)
    same(x, roundtrip(x)[1])


def test_views_keep_their_strides_and_offset():
    base = torch.arange(60.0).reshape(3, 4, 5)
    for v in (base.transpose(0, 2), base[:, 1::2, 1:], base[1], base.expand(2, 3, 4, 5), base[..., 3]):
        src, back = roundtrip(v)
        same(v, back)
        assert ".as_strided(" in src or v.is_contiguous()
    v = base[2, 1:, 2:]  # only the span the view reads is written, not the whole storage
    src, back = roundtrip(v)
    same(v, back)
    assert src.count(",") < 30


def test_special_values_numbers_and_containers():
    x = torch.tensor([math.nan, math.inf, -math.inf, -0.0, 1e-300])
    same(x, roundtrip(x)[1])
    assert math.copysign(1, roundtrip(x)[1][3].item()) == -1
    assert roundtrip(torch.tensor(3.5))[1].dim() == 0
    assert roundtrip(torch.empty(0, 3))[1].shape == (0, 3)
    assert roundtrip((1, 2.5, True, None, "mean", complex(1, -2)))[1] == (1, 2.5, True, None, "mean", complex(1, -2))
    assert roundtrip([float("nan")])[0] == "[float('nan')]"
    assert roundtrip(slice(1, None, 2))[1] == slice(1, None, 2)
    assert roundtrip(torch.Size([2, 3]))[1] == torch.Size([2, 3])
    assert roundtrip(torch.float16)[1] is torch.float16
    assert roundtrip((5,))[0] == "(5,)"


def test_what_has_no_source_form_is_refused():
    with pytest.raises(Unwritable):
        Writer(torch, 4096).arg(lambda v: v)
    with pytest.raises(Unwritable, match="too large"):
        Writer(torch, 10).arg((torch.zeros(6), torch.zeros(6)))


def test_public_callables_are_named_by_their_module():
    names = opinfo_calls.callables(torch)
    assert names[id(torch.add)] == "torch.add"
    assert names[id(torch.nn.functional.relu)] == "torch.nn.functional.relu"
    assert names[id(torch.linalg.solve)] == "torch.linalg.solve"
    assert names[id(torch.Tensor.__add__)] == "torch.Tensor.__add__"


def test_the_minimizer_keeps_the_shape_of_an_empty_tensor():
    # shortening torch.empty's shape would read uninitialized memory: the "reproducer" would be noise
    from tools.fuzz.minimize import candidates

    src = "torch.histogram(torch.empty([0, 5], dtype=torch.float), [1.0, 2.0, 3.0])"
    assert all("torch.empty([0, 5]" in c for c in candidates(src))
    assert any("[1.0, 2.0]" in c or "[1.0]" in c for c in candidates(src))


@pytest.mark.parametrize("order", [1, 2])
def test_grad_source_computes_the_gradient_of_the_weighted_outputs(order):
    """The gradient calls (`--opinfo-dtypes grad`, `gradgrad`): the source's value is the first or second
    derivative of the fixed weightings, here of x ** 3 with x = [1, 2]: loss = sum(w x^3), w = linspace(-1, 2),
    so g = 3 w x^2; loss2 = sum(v g), v = linspace(0.5, -1.5), so its gradient is 6 v w x."""
    src = opinfo_calls.grad_source("(l0 := torch.tensor([1.0, 2.0], dtype=torch.double).requires_grad_()) ** 3",
                                   ["l0"], order=order)  # fmt: skip
    (g,) = opinfo_calls.run(src, torch)
    x, w, v = torch.tensor([1.0, 2.0], dtype=torch.double), torch.tensor([-1.0, 2.0]), torch.tensor([0.5, -1.5])
    expected = 3 * w * x * x if order == 1 else 6 * v * w * x
    torch.testing.assert_close(g, expected.double())
