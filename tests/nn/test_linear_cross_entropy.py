"""F.linear_cross_entropy and nn.LinearCrossEntropyLoss/Options: the composition cross_entropy(linear(...)) on
the reference path and on the chunked one (every reduction, class weights, ignore_index, a bias, chunk sizes
that do not divide the batch), their gradients, K-dimensional losses, and upstream's errors and warning. Also
run on upstream 2.13."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from torch import nn

RNG = np.random.default_rng(23)


def _t(*shape):
    return torch.from_numpy(RNG.standard_normal(shape)).requires_grad_()


X, W, B = _t(37, 8), _t(50, 8), _t(50)
T = torch.from_numpy(RNG.integers(0, 50, 37))
T[3] = -100
CLASS_WEIGHTS = torch.from_numpy(RNG.random(50))

OPTIONS = {
    "reference": None,
    "chunks_of_5": lambda: nn.LinearCrossEntropyOptions(
        batch_chunk_size=5, chunking_method=None, allow_retain_graph=True
    ),
    "auto": lambda: nn.LinearCrossEntropyOptions(allow_retain_graph=True),
}


@pytest.mark.parametrize("options", sorted(OPTIONS))
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_equals_cross_entropy_of_linear(options, reduction, weighted):
    make = OPTIONS[options]
    weight = CLASS_WEIGHTS if weighted else None
    got = F.linear_cross_entropy(
        X, W, T, linear_bias=B, weight=weight, reduction=reduction, options=None if make is None else make()
    )
    want = F.cross_entropy(F.linear(X, W, B), T, weight=weight, reduction=reduction)
    torch.testing.assert_close(got, want)
    for g, w in zip(torch.autograd.grad(got.sum(), (X, W, B)), torch.autograd.grad(want.sum(), (X, W, B))):
        torch.testing.assert_close(g, w)


def test_chunked_gradcheck():
    options = nn.LinearCrossEntropyOptions(batch_chunk_size=4, chunking_method=None, allow_retain_graph=True)
    x = X[:9].detach().requires_grad_()

    def f(x, w, b):
        return F.linear_cross_entropy(x, w, T[:9], linear_bias=b, options=options)

    assert torch.autograd.gradcheck(f, (x, W, B))


def test_low_precision_accumulates_in_float32():
    x, w = X.detach().to(torch.bfloat16).requires_grad_(), W.detach().to(torch.bfloat16).requires_grad_()
    loss = F.linear_cross_entropy(
        x, w, T, options=nn.LinearCrossEntropyOptions(batch_chunk_size=8, chunking_method=None)
    )
    loss.backward()
    assert loss.dtype == torch.bfloat16 and x.grad.dtype == torch.bfloat16 and w.grad.dtype == torch.bfloat16
    want = F.cross_entropy(F.linear(x.detach().float(), w.detach().float()), T)
    assert abs(float(loss) - float(want)) < 0.05


def test_unbatched_and_k_dimensional():
    torch.testing.assert_close(F.linear_cross_entropy(X[0], W, T[0]), F.cross_entropy(F.linear(X[0], W), T[0]))
    assert F.linear_cross_entropy(X[0], W, T[0], reduction="none", options=nn.LinearCrossEntropyOptions()).shape == ()
    wk = _t(5, 3, 8)
    tk = torch.from_numpy(RNG.integers(0, 5, (37, 3)))
    want = F.cross_entropy(F.linear(X, wk.reshape(15, 8)).reshape(37, 5, 3), tk)
    torch.testing.assert_close(F.linear_cross_entropy(X, wk, tk), want)
    probabilities = torch.softmax(_t(37, 50).detach(), 1)
    torch.testing.assert_close(
        F.linear_cross_entropy(X, W, probabilities), F.cross_entropy(F.linear(X, W), probabilities)
    )


def test_the_module():
    torch.manual_seed(0)
    loss = nn.LinearCrossEntropyLoss(8, 5, out_features=(3,), bias=True, dtype=torch.float64)
    assert loss.linear.weight.shape == (15, 8) and loss.linear.bias.shape == (15,)
    tk = torch.from_numpy(RNG.integers(0, 5, (37, 3)))
    logits = F.linear(X, loss.linear.weight, loss.linear.bias).reshape(37, 5, 3)
    torch.testing.assert_close(loss(X, tk), F.cross_entropy(logits, tk))
    with pytest.raises(RuntimeError, match="expected weight shape to be \\(5,\\)"):
        nn.LinearCrossEntropyLoss(8, 5, weight=torch.ones(4))
    with pytest.raises(RuntimeError, match="expected label_smoothing to be in range"):
        nn.LinearCrossEntropyLoss(8, 5, label_smoothing=2.0)


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: nn.LinearCrossEntropyOptions(acc_policy="x"), ValueError, "invalid acc_policy"),
        (lambda: nn.LinearCrossEntropyOptions(batch_chunk_size=0), ValueError, "batch_chunk_size must be positive"),
        (lambda: nn.LinearCrossEntropyOptions(chunking_method="foo"), ValueError, "invalid chunking_method"),
        (lambda: nn.LinearCrossEntropyOptions(acc_dtype=torch.int32), ValueError, "acc_dtype must be one of"),
        (
            lambda: F.linear_cross_entropy(X, W, F.one_hot(T.clamp(0), 50).double(), ignore_index=3),
            RuntimeError,
            "ignore_index cannot be specified when target contains probabilities",
        ),
        (lambda: F.linear_cross_entropy(X, W[:, :3], T), RuntimeError, "expected equal input and linear_weight"),
        (lambda: F.linear_cross_entropy(X[None], W, T), RuntimeError, "expected input with dimensionality 1 or 2"),
        (lambda: F.linear_cross_entropy(X, W, T, linear_bias=B[:3]), RuntimeError, "expected linear_bias shape"),
        (lambda: F.linear_cross_entropy(X[0], W.reshape(25, 2, 8), T[0]), RuntimeError, "requires batched input"),
    ],
)
def test_errors(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_options_that_do_not_apply_are_ignored_with_a_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = F.linear_cross_entropy(X, W, T, label_smoothing=0.1, options=nn.LinearCrossEntropyOptions())
    assert any("``options`` ignored" in str(w.message) for w in caught)
    torch.testing.assert_close(got, F.cross_entropy(F.linear(X, W), T, label_smoothing=0.1))
