"""out= as upstream's out= overloads behave, for the ops without a kernel of their own for it (torch/_out.py):
the ops declared `out: castable|exact` in native_functions.yaml, the Python ops registered with out=, and
torch.fft/special. Also runs against upstream 2.13 (`nox -s tests-reference`)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import torch


def _x():
    return torch.arange(6.0).reshape(2, 3)


def _empty(dtype=torch.float32):
    return torch.empty(0, dtype=dtype)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda o: torch.sum(_x(), 0, out=o), [3.0, 5.0, 7.0]),
        (lambda o: torch.mean(_x(), 1, out=o), [1.0, 4.0]),
        (lambda o: torch.cumsum(_x()[0], 0, out=o), [0.0, 1.0, 3.0]),
        (lambda o: torch.cat([_x()[0], _x()[1]], out=o), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]),
        (lambda o: torch.stack([_x()[0, :2], _x()[1, :2]], out=o), [[0.0, 1.0], [3.0, 4.0]]),
        (lambda o: torch.tril(_x(), out=o), [[0.0, 0.0, 0.0], [3.0, 4.0, 0.0]]),
        (lambda o: torch.index_select(_x(), 1, torch.tensor([2, 0]), out=o), [[2.0, 0.0], [5.0, 3.0]]),
        (lambda o: torch.gather(_x(), 1, torch.tensor([[1], [0]]), out=o), [[1.0], [3.0]]),
        (lambda o: torch.mv(_x(), torch.ones(3), out=o), [3.0, 12.0]),
        (lambda o: torch.logsumexp(torch.zeros(2, 2), 1, out=o), [float(np.log(2))] * 2),
        (lambda o: torch.arange(0, 3, out=o), [0.0, 1.0, 2.0]),
        (lambda o: torch.zeros(2, 2, out=o), [[0.0, 0.0], [0.0, 0.0]]),  # the *size form
        (lambda o: torch.full((2,), 7.0, out=o), [7.0, 7.0]),
        (lambda o: torch.linspace(0, 1, 3, out=o), [0.0, 0.5, 1.0]),
        # Python ops
        (lambda o: torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([5.0, 1.0]), out=o), [0.0, 0.0]),
        (lambda o: torch.square(torch.tensor([3.0]), out=o), [9.0]),
        (lambda o: torch.softmax(torch.zeros(2), 0, out=o), [0.5, 0.5]),
        (lambda o: torch.hstack([torch.ones(1), torch.zeros(1)], out=o), [1.0, 0.0]),
        (lambda o: torch.nansum(torch.tensor([1.0, float("nan")]), out=o), 1.0),
        (lambda o: torch.special.entr(torch.tensor([1.0]), out=o), [0.0]),
        (lambda o: torch.special.xlogy(torch.tensor([0.0]), torch.tensor([0.0]), out=o), [0.0]),
        (lambda o: torch.special.logit(torch.tensor([0.5]), out=o), [0.0]),
        (lambda o: torch.nn.functional.hardshrink(torch.tensor([1.0, 0.2]), out=o), [1.0, 0.0]),
    ],
)  # fmt: skip
def test_out_writes_the_result_and_returns_out(call, expected):
    out = _empty()
    got = call(out)
    assert got is out
    np.testing.assert_allclose(out.numpy(), np.array(expected, dtype=np.float32), rtol=1e-6)


def test_out_takes_the_shape_with_upstreams_warning_when_it_had_elements():
    out = torch.zeros(5)
    with pytest.warns(UserWarning, match="An output with one or more elements was resized"):
        torch.sum(_x(), 0, out=out)
    assert out.tolist() == [3.0, 5.0, 7.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an empty out, or one of the right shape, is resized silently
        torch.sum(_x(), 1, out=_empty())
        torch.sum(_x(), 0, out=out)


def test_out_none_is_no_out():
    assert torch.sum(_x(), 0, out=None).tolist() == [3.0, 5.0, 7.0]
    assert torch.softmax(torch.zeros(2), 0, out=None).tolist() == [0.5, 0.5]


def test_tuple_outs_are_named_tuples_of_the_out_tensors():
    values, indices = _empty(), _empty(torch.int64)
    got = torch.max(_x(), 1, out=(values, indices))
    assert type(got).__name__ == "max_out" and got.values is values and got.indices is indices
    assert values.tolist() == [2.0, 5.0] and indices.tolist() == [2, 2]
    got = torch.sort(torch.tensor([3.0, 1.0, 2.0]), out=(values, indices))
    assert got.values.tolist() == [1.0, 2.0, 3.0] and got.indices.tolist() == [1, 2, 0]
    got = torch.cummax(torch.tensor([1.0, 3.0, 2.0]), 0, out=(values, indices))
    assert got.values is values and values.tolist() == [1.0, 3.0, 3.0] and indices.tolist() == [0, 1, 1]
    with pytest.raises(TypeError):
        torch.max(_x(), 1, out=values)  # one tensor for two results


def test_a_dtype_left_out_is_outs():
    ints = _empty(torch.int64)
    assert torch.zeros(3, out=ints).dtype == torch.int64 and ints.tolist() == [0, 0, 0]
    assert torch.arange(0, 3, out=_empty(torch.float64)).tolist() == [0.0, 1.0, 2.0]
    # a reduction computes in out's dtype: each 0.5 is 0 as an integer, so the sum is 0
    assert torch.sum(torch.tensor([0.5, 0.5]), 0, out=torch.empty((), dtype=torch.int64)).item() == 0
    assert torch.sum(_x(), 0, out=ints).tolist() == [3, 5, 7]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: torch.mean(_x(), 0, out=_empty(torch.int64)), "Long"),  # a float mean, an int out
        (lambda: torch.xlogy(_x(), _x(), out=_empty(torch.int64)),
         "result type Float can't be cast to the desired output type Long"),
        (lambda: torch.square(_x(), out=_empty(torch.int64)),
         "result type Float can't be cast to the desired output type Long"),
        (lambda: torch.mv(_x(), torch.ones(3), out=_empty(torch.float64)), "Expected out tensor to have dtype float"),
        (lambda: torch.argmax(_x(), 0, out=_empty()), "Expected out tensor to have dtype long int"),
        (lambda: torch.softmax(_x(), 0, out=_empty(torch.float64)), "Expected out tensor to have dtype float"),
        (lambda: torch.sort(_x(), 0, out=(_empty(), _empty(torch.int32))), "dtype long int, but got int"),
        (lambda: torch.sum(_x().requires_grad_(), 0, out=_empty()),
         "sum\\(\\): functions with out=... arguments don't support automatic differentiation"),
        (lambda: torch.cumsum(_x().requires_grad_(), 0, out=_empty()), "don't support automatic differentiation"),
        (lambda: torch.xlogy(_x().requires_grad_(), 2.0, out=_empty()), "don't support automatic differentiation"),
    ],
)  # fmt: skip
def test_out_refusals(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()


def test_out_of_a_result_without_a_gradient_is_fine_when_inputs_require_grad():
    x = _x().requires_grad_()
    assert torch.argmax(x, 1, out=_empty(torch.int64)).tolist() == [2, 2]
    assert torch.nonzero(x, out=_empty(torch.int64)).shape == (5, 2)
    with torch.no_grad():
        assert torch.sum(x, 0, out=_empty()).tolist() == [3.0, 5.0, 7.0]


def test_fft_out():
    out = torch.empty(0, dtype=torch.complex64)
    got = torch.fft.fft(torch.tensor([1.0, 0.0, 0.0, 0.0]), out=out)
    assert got is out and out.tolist() == [1 + 0j] * 4
    with pytest.raises(RuntimeError):
        torch.fft.fft(torch.ones(4), out=_empty())  # a real out for a complex result
    assert torch.fft.rfftfreq(4, out=_empty(torch.float64)).tolist() == [0.0, 0.25, 0.5]


def test_argsort_takes_out_with_stable_only():
    out = torch.empty(0, dtype=torch.int64)
    assert torch.argsort(torch.tensor([3.0, 1.0, 2.0]), stable=True, out=out) is out and out.tolist() == [1, 2, 0]
    with pytest.raises(TypeError):
        torch.argsort(torch.tensor([3.0, 1.0]), out=out)  # upstream's plain argsort has no out=


def test_the_full_reductions_without_an_out_overload_refuse_it():
    with pytest.raises(TypeError):
        torch.sum(_x(), out=_empty())  # upstream's sum(input, *, dtype) has no out=; sum(input, dim) has
    with pytest.raises(TypeError):
        torch.std(_x(), True, out=_empty())
