"""out= of torch.linalg's functions, as upstream's: the values of the call without it, written into the
given tensors (resized, with the deprecation warning where they had elements), which are what is returned;
a wrong dtype, a wrong number of outputs and an input that requires grad are refused with upstream's
messages. Also run on upstream 2.13."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import torch

LA = torch.linalg
RNG = np.random.default_rng(17)


def _t(*shape, dtype=torch.float64):
    return torch.from_numpy(RNG.standard_normal(shape)).to(dtype)


A = _t(3, 3) + 3 * torch.eye(3, dtype=torch.float64)
SPD = A @ A.mT
SYM = A + A.mT
B = _t(3, 2)
V = _t(3)
LU, PIV = LA.lu_factor(A)
LD, LDPIV = LA.ldl_factor(SYM)
REFL, TAU = torch.geqrf(_t(4, 3))

CALLS = {
    "cholesky": lambda **o: LA.cholesky(SPD, **o),
    "cholesky_ex": lambda **o: LA.cholesky_ex(SPD, **o),
    "cond": lambda **o: LA.cond(A, **o),
    "cross": lambda **o: LA.cross(V, V.flip(0), **o),
    "det": lambda **o: LA.det(A, **o),
    "eig": lambda **o: LA.eig(A, **o),
    "eigh": lambda **o: LA.eigh(SYM, **o),
    "eigvals": lambda **o: LA.eigvals(A, **o),
    "eigvalsh": lambda **o: LA.eigvalsh(SYM, **o),
    "householder_product": lambda **o: LA.householder_product(REFL, TAU, **o),
    "inv": lambda **o: LA.inv(A, **o),
    "inv_ex": lambda **o: LA.inv_ex(A, **o),
    "ldl_factor": lambda **o: LA.ldl_factor(SYM, **o),
    "ldl_factor_ex": lambda **o: LA.ldl_factor_ex(SYM, **o),
    "ldl_solve": lambda **o: LA.ldl_solve(LD, LDPIV, B, **o),
    "lu": lambda **o: LA.lu(A, **o),
    "lu_factor": lambda **o: LA.lu_factor(A, **o),
    "lu_factor_ex": lambda **o: LA.lu_factor_ex(A, **o),
    "lu_solve": lambda **o: LA.lu_solve(LU, PIV, B, **o),
    "matmul": lambda **o: LA.matmul(A, B, **o),
    "matrix_norm": lambda **o: LA.matrix_norm(A, **o),
    "matrix_power": lambda **o: LA.matrix_power(A, 3, **o),
    "matrix_rank": lambda **o: LA.matrix_rank(A, **o),
    "multi_dot": lambda **o: LA.multi_dot([A, A, B], **o),
    "norm": lambda **o: LA.norm(A, **o),
    "pinv": lambda **o: LA.pinv(B, **o),
    "qr": lambda **o: LA.qr(B, **o),
    "slogdet": lambda **o: LA.slogdet(A, **o),
    "solve": lambda **o: LA.solve(A, B, **o),
    "solve_ex": lambda **o: LA.solve_ex(A, B, **o),
    "solve_triangular": lambda **o: LA.solve_triangular(A.triu(), B, upper=True, **o),
    "svd": lambda **o: LA.svd(A, **o),
    "svdvals": lambda **o: LA.svdvals(A, **o),
    "tensorinv": lambda **o: LA.tensorinv(A.reshape(3, 3), ind=1, **o),
    "tensorsolve": lambda **o: LA.tensorsolve(A, V, **o),
    "vecdot": lambda **o: LA.vecdot(A, B.mT[:1], **o),
    "vector_norm": lambda **o: LA.vector_norm(A, **o),
}


def _as_tuple(r):
    return tuple(r) if isinstance(r, tuple) else (r,)


def _empties_like(r):
    outs = tuple(torch.empty(0, dtype=t.dtype) for t in _as_tuple(r))
    return outs if isinstance(r, tuple) else outs[0]


@pytest.mark.parametrize("name", sorted(CALLS))
def test_out_holds_the_result_and_is_returned(name):
    want = CALLS[name]()
    out = _empties_like(want)
    got = CALLS[name](out=out)
    for g, o, w in zip(_as_tuple(got), _as_tuple(out), _as_tuple(want)):
        assert g is o
        assert o.shape == w.shape and o.dtype == w.dtype
        torch.testing.assert_close(o, w, equal_nan=True)
    if isinstance(want, tuple) and hasattr(want, "_fields"):
        assert got._fields == want._fields


@pytest.mark.parametrize("name", ["inv", "solve", "det", "svdvals", "cross", "vector_norm", "qr", "lu_factor"])
def test_a_wrong_dtype_is_refused(name):
    want = CALLS[name]()
    wrong = torch.float32
    outs = tuple(torch.empty(0, dtype=wrong if t.is_floating_point() else torch.int64) for t in _as_tuple(want))
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype"):
        CALLS[name](out=outs if isinstance(want, tuple) else outs[0])


def test_castable_results_cast():
    out = torch.empty((), dtype=torch.float64)
    assert LA.matrix_rank(A, out=out) is out and out.item() == 3.0


def test_an_out_with_elements_is_resized_with_a_warning():
    out = torch.empty(2, 2, dtype=torch.float64)
    with pytest.warns(UserWarning, match="was resized since it had shape \\[2, 2\\]"):
        LA.inv(A, out=out)
    torch.testing.assert_close(out, LA.inv(A))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LA.inv(A, out=torch.empty(0, dtype=torch.float64))


def test_non_contiguous_out():
    out = torch.empty(3, 2, dtype=torch.float64).mT.mT.t().t()
    base = torch.zeros(2, 3, dtype=torch.float64)
    view = base.mT
    LA.solve(A, B, out=view)
    torch.testing.assert_close(base.mT, LA.solve(A, B))
    assert out.shape == (3, 2)


def test_tuple_outs_are_checked():
    with pytest.raises(TypeError, match="expected tuple of 3 elements but got 2"):
        LA.svd(A, out=(torch.empty(0), torch.empty(0)))
    with pytest.raises(TypeError, match="must be tuple of Tensors, not Tensor"):
        LA.svd(A, out=torch.empty(0))


def test_out_refuses_inputs_that_require_grad():
    x = A.clone().requires_grad_()
    with pytest.raises(RuntimeError, match="functions with out=... arguments don't support automatic differentiation"):
        LA.inv(x, out=torch.empty(0, dtype=torch.float64))
    with torch.no_grad():
        LA.inv(x, out=torch.empty(0, dtype=torch.float64))


def test_vecdot_conjugates_its_first_argument():
    x = torch.tensor([1 + 2j, 3 - 1j])
    y = torch.tensor([2 - 1j, 1 + 1j])
    assert LA.vecdot(x, y).item() == (np.conj(x.numpy()) * y.numpy()).sum()
