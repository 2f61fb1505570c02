"""Every differentiable op of the op table (tests/opinfo.py) through gradcheck (float64 central
differences) on contiguous, non-contiguous and broadcast inputs, and gradgradcheck (create_graph=True)
for those marked supports_gradgrad; on every device.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

from opinfo import F64, op_db, ops

from torch.autograd import gradcheck, gradgradcheck


def differentiable(op, sample):
    """The op as a function of its tensor arguments, returning its floating-point outputs only
    (max(dim)'s values, not its indices)."""

    def fn(*args):
        result = op.op(*args, **sample.kwargs)
        outputs = result if isinstance(result, tuple) else (result,)
        return tuple(t for t in outputs if t.is_floating_point())

    return fn


@ops([op for op in op_db if op.supports_grad], dtypes=(F64,))
def test_gradcheck(device, dtype, op):
    for sample in op.sample_inputs(device, dtype, requires_grad=True):
        assert gradcheck(differentiable(op, sample), sample.args), sample.layout


@ops([op for op in op_db if op.supports_gradgrad], dtypes=(F64,))
def test_gradgradcheck(device, dtype, op):
    """Second derivatives on contiguous (and broadcasting) inputs: the layouts are gradcheck's to test."""
    for sample in op.sample_inputs(device, dtype, requires_grad=True):
        if sample.layout in ("contiguous", "broadcast"):
            assert gradgradcheck(differentiable(op, sample), sample.args), sample.layout


def test_every_differentiable_op_is_checked_in_float64():
    assert all(F64 in op.dtypes for op in op_db if op.supports_grad)
    assert all(op.supports_grad for op in op_db if op.supports_gradgrad)
