"""Matrix products (mm, bmm, mv, dot, outer, addmm, matmul / @) against NumPy: every shape
rule of matmul, float and integer dtypes, transposed / strided / expanded operands, out=, and
PyTorch's errors.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_dtypes import NP

import torch

TOL = {torch.float32: dict(rtol=1e-4, atol=1e-4), torch.float64: dict(rtol=1e-10, atol=1e-10)}
DTYPES = (torch.float32, torch.float64, torch.int64, torch.int32)


def _rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) * 3
    return torch.from_numpy(a.astype(NP[dtype]))


def _check(got: torch.Tensor, want: np.ndarray, dtype):
    assert tuple(got.shape) == want.shape
    assert got.dtype == dtype
    np.testing.assert_allclose(got.numpy(), want, **TOL.get(dtype, dict(rtol=0, atol=0)))


MATMUL_SHAPES = [
    ((4,), (4,)),
    ((3, 4), (4, 5)),
    ((4,), (4, 5)),
    ((3, 4), (4,)),
    ((2, 3, 4), (2, 4, 5)),
    ((2, 1, 3, 4), (5, 4, 2)),
    ((7, 3, 4), (4,)),
    ((4,), (2, 4, 3)),
    ((3, 4), (6, 4, 2)),
    ((0, 3), (3, 2)),
    ((3, 0), (0, 2)),
    ((2, 0, 4), (2, 4, 3)),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES, ids=str)
def test_matmul_against_numpy(sa, sb, dtype):
    a, b = _rand(sa, dtype, 1), _rand(sb, dtype, 2)
    want = np.matmul(a.numpy(), b.numpy())
    _check(torch.matmul(a, b), want, dtype)
    _check(a @ b, want, dtype)
    _check(a.matmul(b), want, dtype)


@pytest.mark.parametrize("dtype", (torch.float32, torch.float64, torch.int64), ids=str)
@pytest.mark.parametrize(
    "layout",
    ["transposed", "strided", "expanded", "both_transposed", "row_vector"],
)
def test_mm_non_contiguous(layout, dtype):
    base = _rand((6, 8), dtype, 3)
    if layout == "transposed":
        a, b = base[:, :5].t(), base[:, :3]
    elif layout == "strided":
        a, b = base[::2, ::2], base.t()[::2, ::2]
    elif layout == "expanded":
        a, b = base[0:1, :4].expand(3, 4), base[:4, 0:1].expand(4, 5)
    elif layout == "both_transposed":
        a, b = base[:4, :3].t(), base[:5, :4].t()
    else:
        a, b = base[0:1, 2:6], base[2:6, 1:7:2]
    _check(torch.mm(a, b), a.numpy() @ b.numpy(), dtype)
    _check(torch.matmul(a, b), a.numpy() @ b.numpy(), dtype)


def test_bmm_mv_dot_outer():
    a, b = _rand((3, 2, 4), torch.float64, 4), _rand((3, 4, 5), torch.float64, 5)
    _check(torch.bmm(a, b), a.numpy() @ b.numpy(), torch.float64)
    _check(a.transpose(1, 2).bmm(a), a.numpy().transpose(0, 2, 1) @ a.numpy(), torch.float64)
    m, v = _rand((3, 4), torch.float32, 6), _rand((4,), torch.float32, 7)
    _check(torch.mv(m, v), m.numpy() @ v.numpy(), torch.float32)
    _check(m.t().mv(m[:, 0]), m.numpy().T @ m.numpy()[:, 0], torch.float32)
    _check(torch.dot(v, v), np.asarray(v.numpy() @ v.numpy()), torch.float32)
    _check(torch.dot(m[:, 1], m[:, 2]), np.asarray(m.numpy()[:, 1] @ m.numpy()[:, 2]), torch.float32)
    i, j = torch.arange(3), torch.arange(4)
    _check(torch.outer(i, j), np.outer(i.numpy(), j.numpy()), torch.int64)


def test_addmm_broadcasts_self_and_scales():
    s, m1, m2 = _rand((5,), torch.float64, 8), _rand((3, 4), torch.float64, 9), _rand((4, 5), torch.float64, 10)
    got = torch.addmm(s, m1, m2, beta=0.5, alpha=2.0)
    _check(got, 0.5 * s.numpy() + 2.0 * (m1.numpy() @ m2.numpy()), torch.float64)
    _check(s.addmm(m1, m2), s.numpy() + m1.numpy() @ m2.numpy(), torch.float64)
    before = s.clone()
    torch.addmm(s, m1, m2)
    np.testing.assert_array_equal(s.numpy(), before.numpy())  # self is not modified


def test_out_is_resized_and_written():
    a, b = _rand((3, 4), torch.float32, 11), _rand((4, 2), torch.float32, 12)
    out = torch.empty(0)
    r = torch.mm(a, b, out=out)
    assert r is out
    _check(out, a.numpy() @ b.numpy(), torch.float32)
    out = torch.empty(2, 3, 2)
    torch.matmul(_rand((2, 3, 4), torch.float32), b, out=out)
    assert tuple(out.shape) == (2, 3, 2)


def test_matmul_result_does_not_alias_inputs():
    a = _rand((3, 3), torch.float32, 13)
    r = a @ a
    r.fill_(0)
    assert a.abs().sum().item() > 0


@pytest.mark.parametrize(
    "fn,message",
    [
        (lambda: torch.mm(torch.ones(2, 3), torch.ones(2, 3)), r"mat1 and mat2 shapes cannot be multiplied \(2x3 and"),
        (lambda: torch.mm(torch.ones(3), torch.ones(3, 3)), "self must be a matrix"),
        (lambda: torch.mm(torch.ones(2, 3), torch.ones(3, 2, dtype=torch.float64)), "same dtype"),
        (
            lambda: torch.ones(2, 2, dtype=torch.complex128) @ torch.ones(2, 2),
            r"same dtype, but got: c10::complex<double> != float",
        ),
        (lambda: torch.bmm(torch.ones(2, 3), torch.ones(2, 3, 4)), "batch1 must be a 3D tensor"),
        (lambda: torch.dot(torch.ones(3), torch.ones(4)), "inconsistent tensor size"),
        (lambda: torch.dot(torch.ones(3, 1), torch.ones(3)), "1D tensors expected, but got 2D and 1D tensors"),
        (lambda: torch.mv(torch.ones(2, 3), torch.ones(4)), "size mismatch"),
        (lambda: torch.matmul(torch.ones(()), torch.ones(3)), "both arguments to matmul need to be at least 1D"),
        (lambda: torch.matmul(torch.ones(2, 3, 4), torch.ones(3, 5, 2)), "size"),
    ],
)
def test_errors(fn, message):
    with pytest.raises(RuntimeError, match=message):
        fn()


B = torch.bool


@pytest.mark.parametrize(
    "fn, shape",
    [
        (lambda: torch.mm(torch.ones(2, 0, dtype=B), torch.ones(0, 3, dtype=B)), (2, 3)),
        (lambda: torch.mm(torch.ones(0, 2, dtype=B), torch.ones(2, 3, dtype=B)), (0, 3)),
        (lambda: torch.mv(torch.ones(2, 0, dtype=B), torch.ones(0, dtype=B)), (2,)),
        (lambda: torch.bmm(torch.ones(1, 2, 0, dtype=B), torch.ones(1, 0, 3, dtype=B)), (1, 2, 3)),
        (lambda: torch.bmm(torch.ones(0, 2, 2, dtype=B), torch.ones(0, 2, 3, dtype=B)), (0, 2, 3)),
        (lambda: torch.ones(2, 2, 0, dtype=B) @ torch.ones(0, 3, dtype=B), (2, 2, 3)),
    ],
)
def test_bool_products_that_read_nothing_are_false(fn, shape):
    # upstream has no bool product kernel, but returns before its dispatch when no element is read
    got = fn()
    assert got.dtype == torch.bool and tuple(got.shape) == shape and not got.any()


@pytest.mark.parametrize(
    "fn, kernel",
    [
        (lambda: torch.mm(torch.ones(2, 2, dtype=B), torch.ones(2, 3, dtype=B)), "addmm_impl_cpu_"),
        (lambda: torch.bmm(torch.ones(1, 2, 2, dtype=B), torch.ones(1, 2, 3, dtype=B)), "bmm"),
        (lambda: torch.bmm(torch.ones(1, 8, 8, dtype=B), torch.ones(1, 8, 8, dtype=B)), "addmm_impl_cpu_"),
        (lambda: torch.ones(3, 2, 2, dtype=B) @ torch.ones(2, dtype=B), "addmv_impl_cpu"),
        (lambda: torch.ones(3, 2, 2, dtype=B) @ torch.ones(2, 2, dtype=B), "addmm_impl_cpu_"),
        (lambda: torch.mv(torch.ones(1, 2, dtype=B), torch.ones(2, dtype=B)), "addmv_impl_cpu"),
        (lambda: torch.dot(torch.ones(0, dtype=B), torch.ones(0, dtype=B)), "dot"),  # even empty
    ],
)
def test_bool_products_are_refused(fn, kernel):
    with pytest.raises(NotImplementedError, match=f"^\"{kernel}\" not implemented for 'Bool'$"):
        fn()


@settings(max_examples=60, deadline=None)
@given(
    batch_a=st.lists(st.integers(1, 3), max_size=2),
    batch_b=st.lists(st.integers(1, 3), max_size=2),
    n=st.integers(0, 4),
    k=st.integers(0, 4),
    m=st.integers(0, 4),
    transpose_a=st.booleans(),
)
def test_matmul_property(batch_a, batch_b, n, k, m, transpose_a):
    """Random batch shapes: NumPy's result, or an error exactly when NumPy refuses."""
    if transpose_a:
        a = _rand((*batch_a, k, n), torch.float64, 14).transpose(-1, -2)
    else:
        a = _rand((*batch_a, n, k), torch.float64, 14)
    b = _rand((*batch_b, k, m), torch.float64, 15)
    try:
        want = np.matmul(a.numpy(), b.numpy())
    except ValueError:
        with pytest.raises(RuntimeError):
            torch.matmul(a, b)
        return
    _check(torch.matmul(a, b), want, torch.float64)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(
    "m,k,n",
    # blocks of columns, of rows, ragged; a small product over a long k (k split among the threads)
    [(64, 256, 256), (300, 70, 100), (257, 129, 513), (16, 40000, 9), (3, 70001, 5)],
)
@pytest.mark.parametrize("transpose", ["none", "a", "b", "both"])
def test_products_big_enough_to_split_over_threads(threads, m, k, n, transpose):
    rng = np.random.default_rng(m + n)
    a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
    ta = torch.from_numpy(np.ascontiguousarray(a.T)).t() if transpose in ("a", "both") else torch.from_numpy(a)
    tb = torch.from_numpy(np.ascontiguousarray(b.T)).t() if transpose in ("b", "both") else torch.from_numpy(b)
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        got64 = ta @ tb
        got32 = torch.addmm(torch.ones(n, dtype=torch.float32), ta.float(), tb.float(), beta=0.5, alpha=2.0)
    finally:
        torch.set_num_threads(old)
    np.testing.assert_allclose(got64.numpy(), a @ b, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got32.numpy(), 0.5 + 2.0 * (a @ b), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("batch,m,k,n", [(64, 32, 32, 32), (3, 8, 5, 7), (40, 17, 9, 33)])
def test_batches_of_small_products_over_threads(threads, batch, m, k, n):
    rng = np.random.default_rng(batch)
    a, b = rng.standard_normal((batch, m, k)), rng.standard_normal((batch, n, k)).transpose(0, 2, 1)
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        got64 = torch.bmm(torch.from_numpy(a), torch.from_numpy(b))  # b transposed: BLAS reads it as is
        got32 = torch.baddbmm(torch.ones(batch, m, n), torch.from_numpy(a).float(), torch.from_numpy(b).float())
    finally:
        torch.set_num_threads(old)
    np.testing.assert_allclose(got64.numpy(), a @ b, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got32.numpy(), 1.0 + a @ b, rtol=1e-4, atol=1e-4)


def test_norm_string_orders_over_other_than_two_dims_are_matrix_norm_errors():
    # 'fro' over three dims was silently a vector norm here; upstream sends it to matrix_norm, which refuses it
    x = torch.randn(2, 3, 4, 5)
    with pytest.raises(RuntimeError, match="linalg.matrix_norm: dim must be a 2-tuple. Got 1 2 3"):
        torch.norm(x, p="fro", dim=(1, 2, 3))
    with pytest.raises(RuntimeError, match="dim must be a 2-tuple. Got 0 1 2 3"):
        torch.norm(x, "nuc")
    with pytest.raises(RuntimeError, match="Order abc not supported"):
        torch.norm(x[0, 0], p="abc")
    with pytest.raises(TypeError):
        torch.linalg.matrix_norm(x, dim=1)
    torch.testing.assert_close(torch.norm(x, "fro"), x.pow(2).sum().sqrt())
    torch.testing.assert_close(torch.norm(x, "fro", dim=(1, 2)), x.pow(2).sum((1, 2)).sqrt())


def test_linalg_norm_string_orders_are_matrix_norms():
    x3, v, m = torch.randn(2, 3, 4), torch.randn(5), torch.randn(3, 4)
    with pytest.raises(RuntimeError, match=r"If dim is specified, it must be of length 1 or 2. Got \[0, 1, 2\]"):
        torch.linalg.norm(x3, "fro", dim=(0, 1, 2))
    with pytest.raises(RuntimeError, match="The input tensor A must have at least 2 dimensions"):
        torch.linalg.norm(v, "fro")
    with pytest.raises(RuntimeError, match="dim must be a 2-tuple. Got 1"):
        torch.linalg.norm(m, "nuc", dim=1)
    with pytest.raises(RuntimeError, match="dim must be a 2-tuple. Got 1"):
        torch.norm(m, "nuc", dim=1)
    with pytest.raises(RuntimeError, match="If dim is not specified but ord is, the input must be 1D or 2D. Got 3D"):
        torch.linalg.norm(x3, 2)
    a = m.numpy().astype(np.float64)
    np.testing.assert_allclose(torch.linalg.norm(m, "nuc").item(), np.linalg.norm(a, "nuc"), rtol=1e-5)
    np.testing.assert_allclose(torch.linalg.norm(m, "fro").item(), np.linalg.norm(a, "fro"), rtol=1e-5)
    np.testing.assert_allclose(torch.linalg.norm(m, 2).item(), np.linalg.norm(a, 2), rtol=1e-5)
    np.testing.assert_allclose(
        torch.linalg.norm(x3, "fro", dim=(1, 2)).numpy(), np.linalg.norm(x3.numpy(), "fro", axis=(1, 2)), rtol=1e-5
    )


def test_matrix_norm_dim_out_of_range_is_an_index_error():
    # dim=(0, 3) of a 2-D input was wrapped to (0, 1) and silently computed
    m = torch.randn(3, 4)
    for dim in ((0, 3), (0, 2), (-3, 1)):
        with pytest.raises(IndexError, match="Dimension out of range"):
            torch.linalg.matrix_norm(m, dim=dim)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.linalg.norm(m, "nuc", dim=(0, 2))


def test_tensorsolve_dims_out_of_range_is_an_index_error():
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.linalg.tensorsolve(torch.randn(2, 3, 6), torch.randn(2, 3), dims=(5,))
