"""Every op of the op table (tests/opinfo.py) on every device, dtype and layout: values, and the method,
in-place and out= forms against the functional one.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import numpy as np
import pytest
from opinfo import DEVICE_TOL, HALVES, LAYOUTS, TOL, make_tensor, op_db, ops, round_to, to_numpy, ulp_tol

import torch


def flat(result) -> list:
    """The tensors of a result (a tensor, or a tuple such as max(dim)'s (values, indices))."""
    return list(result) if isinstance(result, tuple) else [result]


def assert_matches_numpy(got: torch.Tensor, want: np.ndarray, layout: str):
    """`got` equals NumPy's result: exactly for integers and bools, within TOL for float32/float64,
    within one ulp of the float32 result rounded to the type for 16-bit floats."""
    if got.dtype in HALVES:
        np.testing.assert_allclose(to_numpy(got), round_to(got.dtype, want), **ulp_tol(got.dtype), err_msg=layout)
    elif got.dtype.is_floating_point:
        rtol, atol = TOL[got.dtype]
        want = np.asarray(want, dtype=to_numpy(got).dtype)
        np.testing.assert_allclose(to_numpy(got), want, rtol=rtol, atol=atol, err_msg=layout)
    else:
        np.testing.assert_array_equal(to_numpy(got), want, err_msg=layout)


def assert_same(got: torch.Tensor, want: torch.Tensor, dtype: torch.dtype, layout: str):
    """`got` equals `want` (the op on a CPU copy) in dtype, shape and value, within DEVICE_TOL
    of the input `dtype` (of the result's, for integer inputs)."""
    assert got.dtype == want.dtype and got.shape == want.shape, layout
    if want.is_floating_point():
        rtol, atol = DEVICE_TOL.get(dtype, DEVICE_TOL.get(want.dtype, DEVICE_TOL[torch.float32]))
        np.testing.assert_allclose(to_numpy(got), to_numpy(want), rtol=rtol, atol=atol, err_msg=layout)
    else:
        np.testing.assert_array_equal(to_numpy(got), to_numpy(want), err_msg=layout)


def assert_equal(got: torch.Tensor, want: torch.Tensor, layout: str):
    """The same tensor values, bit for bit (NaN equal to NaN)."""
    assert got.dtype == want.dtype and got.shape == want.shape and got.device == want.device, layout
    np.testing.assert_array_equal(to_numpy(got), to_numpy(want), err_msg=layout)


@ops(op_db)
def test_values(device, dtype, op):
    """Each sample's result on `device` against NumPy where the op has a reference, else against the
    op on a CPU copy of the inputs (which keeps a transposed layout and makes stepped and expanded ones
    contiguous, as `to` does): on CUDA the devices agree, on the CPU the layouts do."""
    for sample in op.sample_inputs(device, dtype):
        got = op(sample)
        for t in flat(got):
            assert t.device.type == device, (sample.layout, t.device)
        if op.ref is not None:
            assert got.dtype == op.result_dtype(dtype), sample.layout
            arrays = [to_numpy(a) for a in sample.args]
            if op.promotes_int_to_float and not dtype.is_floating_point:
                arrays = [a.astype(np.float32) for a in arrays]
            with np.errstate(all="ignore"):
                want = op.ref(*arrays, **sample.kwargs)
            assert_matches_numpy(got, want, sample.layout)
        else:
            cpu_args = tuple(a.to("cpu", copy=True) for a in sample.args)
            want = flat(op.op(*cpu_args, **sample.kwargs))
            assert len(flat(got)) == len(want)
            for g, w in zip(flat(got), want):
                assert_same(g, w, dtype, sample.layout)


@ops([op for op in op_db if op.supports_method or op.supports_inplace or op.supports_out])
def test_variants(device, dtype, op):
    """Tensor.<name>, Tensor.<name>_ and torch.<name>(..., out=) give the functional form's result; an
    in-place op whose result dtype self cannot hold (exp_ of integers) is refused."""
    method = getattr(torch.Tensor, op.name, None)
    for sample in op.sample_inputs(device, dtype):
        first, *rest = sample.args
        want = op(sample)
        if op.supports_method:
            assert_equal(method(first, *rest, **sample.kwargs), want, sample.layout)
        if op.supports_out:
            out = torch.empty(0, dtype=want.dtype, device=device)
            assert op.op(*sample.args, **sample.kwargs, out=out) is out
            assert_equal(out, want, sample.layout)
        if op.supports_inplace:
            self = first.expand(want.shape).clone()  # a broadcast first argument takes the result's shape
            inplace = getattr(self, op.name + "_")
            if want.dtype != dtype:
                with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
                    inplace(*rest, **sample.kwargs)
                continue
            # the functional form of the same (dense) operand: a kernel may take another path for the sample's
            # layout (upstream's vectorized and scalar sinh/atanh differ by an ulp)
            same = op.op(self.clone(), *rest, **sample.kwargs)
            assert inplace(*rest, **sample.kwargs) is self
            assert_equal(self, same, sample.layout)


@pytest.mark.parametrize("shape", [(3, 4), (4,), (2, 3, 4), (3, 1)])
def test_sample_layouts(device, shape):
    """The table's layouts: the same shape, on the device, contiguous only where asked for."""
    for layout in LAYOUTS:
        t = make_tensor(shape, torch.float32, device, layout)
        assert t.shape == shape and t.device.type == device
        assert t.is_contiguous() == (layout == "contiguous"), layout


def test_op_names_are_unique():
    names = [op.name for op in op_db]
    assert len(names) == len(set(names))
