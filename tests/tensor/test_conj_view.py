"""PyTorch's lazy conjugate bit: `x.conj()` of a complex tensor is a view that shares memory with `x` and has
`is_conj()` set; the views of a conj view keep the bit and the copies drop it; every op reads a conj view as
its conjugated values (against the op on `resolve_conj()` and against NumPy on np.conj of the values);
writes through a conj view reach the base conjugated; view_as_real/numpy()/view(dtype) refuse a conj view
while tolist/item/repr/save-load see the conjugated values; autograd through conj views (gradcheck in
complex128); CPU<->CUDA copies. Device-generic (`device`), complex64 and complex128. Also run on
upstream 2.13 (TORCH_REFERENCE), whose semantics these tests pin. (There is no negative bit here:
`conj_view.imag` is only checked for its values.)"""

from __future__ import annotations

import io
import operator

import numpy as np
import pytest

import torch
from torch.autograd import gradcheck

COMPLEX = [torch.complex64, torch.complex128]
NP_OF = {torch.complex64: np.complex64, torch.complex128: np.complex128}
# NumPy (in complex128) against the op on complex64 / complex128 inputs
NP_TOL = {torch.complex64: dict(rtol=2e-4, atol=2e-4), torch.complex128: dict(rtol=1e-9, atol=1e-9)}
# an op on conj views against the same op on their resolved copies: torch.testing.assert_close's defaults
# (np.testing here: the first assert_close of a process costs upstream ~2 s of imports)
SAME_TOL = {np.dtype(np.complex64): dict(rtol=1.3e-6, atol=1e-5), np.dtype(np.float32): dict(rtol=1.3e-6, atol=1e-5)}
LAYOUTS = ["contiguous", "transposed", "stepped", "conj_then_mT"]


def cvalues(*shape, seed=0) -> np.ndarray:
    """Fixed complex values, exactly representable in complex64 (so complex64 and complex128 hold the same
    numbers); a 3x3 matrix gets 3 added on the diagonal, to be well conditioned for the linalg ops."""
    rng = np.random.default_rng(seed)
    v = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
    if len(shape) == 2 and shape[0] == shape[1]:
        v = v + np.complex64(3) * np.eye(shape[0], dtype=np.complex64)
    return v.astype(np.complex128)


def tensor(v: np.ndarray, dtype, device) -> torch.Tensor:
    return torch.tensor(v, dtype=dtype, device=device)


def to_np(t) -> np.ndarray:
    """The (resolved) values of a tensor, or a Python value, as a NumPy array."""
    if isinstance(t, torch.Tensor):
        return t.detach().resolve_conj().resolve_neg().cpu().numpy()
    return np.asarray(t)


def same_memory(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether a and b view one storage (the address of its first element)."""
    return a.data_ptr() - a.storage_offset() * a.element_size() == b.data_ptr() - b.storage_offset() * b.element_size()


def conj_view(b: np.ndarray, layout: str, dtype, device):
    """A conj view whose values are np.conj(b) (a 2-D `b`), and the tensor whose memory it shares.

    contiguous: conj of a contiguous tensor; transposed: conj of a transposed one (column-major memory);
    stepped: conj of every other column of a wider tensor; conj_then_mT: mT of the conj of a contiguous one."""
    if layout == "contiguous":
        base = tensor(b, dtype, device)
        return base.conj(), base
    if layout == "transposed":
        storage = tensor(b.T.copy(), dtype, device)
        return storage.mT.conj(), storage
    if layout == "stepped":
        storage = torch.zeros(b.shape[0], 2 * b.shape[1], dtype=dtype, device=device)
        storage[:, ::2] = tensor(b, dtype, device)
        return storage[:, ::2].conj(), storage
    assert layout == "conj_then_mT"
    storage = tensor(b.T.copy(), dtype, device)
    return storage.conj().mT, storage


def assert_same(got, want):
    """`got` (an op on conj views) equals `want` (the op on their resolved copies): dtype, shape, values."""
    if isinstance(want, torch.Tensor):
        assert isinstance(got, torch.Tensor) and got.dtype == want.dtype and got.shape == want.shape
        close(got, want)
    else:
        assert got == want


def close(got: torch.Tensor, want: torch.Tensor):
    """The resolved values of two tensors agree, within assert_close's default tolerances of their dtype."""
    g, w = to_np(got), to_np(want)
    assert g.dtype == w.dtype and g.shape == w.shape
    if g.dtype.kind in "biu":
        np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_allclose(g, w, **SAME_TOL.get(g.dtype, dict(rtol=1e-7, atol=1e-7)))


def assert_np(got, want: np.ndarray, dtype, sort=False):
    """`got` equals NumPy's `want` (computed in complex128), within NP_TOL of the input dtype; bools exactly."""
    got, want = to_np(got), np.asarray(want)
    if sort:
        got, want = np.sort_complex(got.ravel()), np.sort_complex(want.ravel())
    if got.dtype == np.bool_ or want.dtype == np.bool_:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, **NP_TOL[dtype])


# ---------------------------------------------------------------------------------------------------------
# 1. conj, is_conj, resolve_conj, conj_physical


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_conj_of_complex_is_a_view_with_the_bit(device, dtype, layout):
    """conj() of a complex tensor sets is_conj (method and torch.is_conj), shares memory, reads as np.conj."""
    b = cvalues(3, 3)
    y, base = conj_view(b, layout, dtype, device)
    assert y.is_conj() and torch.is_conj(y) and y.dtype == dtype and y.device.type == device
    assert not base.is_conj() and not torch.is_conj(base)
    assert same_memory(y, base)
    np.testing.assert_array_equal(to_np(y), np.conj(b).astype(NP_OF[dtype]))
    assert y.data_ptr() == base.data_ptr()  # every layout starts at the start of its memory
    assert y.conj().stride() == y.stride() and y.conj().data_ptr() == y.data_ptr()
    plain = y.conj()  # the same memory read without the bit: the values b
    assert torch.conj(plain).is_conj() and torch.conj(plain).data_ptr() == base.data_ptr()
    assert torch.equal(y, plain.conj_physical()) and not torch.equal(y, plain)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool], ids=str)
def test_conj_of_real_and_integer_tensors_is_not_conj(device, dtype):
    """conj() of a non-complex tensor is the tensor itself, without the bit."""
    x = torch.tensor([[1, 0], [3, 4]], device=device).to(dtype)
    c = x.conj()
    assert c is x and not c.is_conj() and not torch.is_conj(c)
    assert not torch.conj(x).is_conj() and torch.equal(torch.conj(x), x)
    assert not x.resolve_conj().is_conj() and torch.equal(x.resolve_conj(), x)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_conj_twice_clears_the_bit(device, dtype, layout):
    """conj().conj() is not conj, still shares memory, and equals the original."""
    b = cvalues(3, 3)
    y, base = conj_view(b, layout, dtype, device)
    yy = y.conj()
    assert not yy.is_conj() and same_memory(yy, base)
    np.testing.assert_array_equal(to_np(yy), b.astype(NP_OF[dtype]))
    assert torch.equal(yy, y.conj_physical())
    assert y.conj().conj().is_conj()


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_resolve_conj(device, dtype, layout):
    """resolve_conj() of a conj view is a non-conj copy with the conjugated values; of a non-conj tensor,
    the tensor itself."""
    b = cvalues(3, 3)
    y, base = conj_view(b, layout, dtype, device)
    r = y.resolve_conj()
    assert not r.is_conj() and not same_memory(r, base) and r.shape == y.shape and r.dtype == dtype
    np.testing.assert_array_equal(r.cpu().numpy(), np.conj(b).astype(NP_OF[dtype]))
    assert torch.resolve_conj(y).is_conj() is False
    assert r.resolve_conj() is r and base.resolve_conj() is base
    r.fill_(0)  # a copy: the base is untouched
    np.testing.assert_array_equal(to_np(y.conj()), b.astype(NP_OF[dtype]))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_conj_physical_is_never_conj(device, dtype):
    """conj_physical (function, method, in-place) gives conjugated values without the bit."""
    b = cvalues(2, 3)
    z = tensor(b, dtype, device)
    y = z.conj()
    want = np.conj(b).astype(NP_OF[dtype])
    for c in (z.conj_physical(), torch.conj_physical(z), y.conj_physical().conj_physical()):
        assert not c.is_conj() and not same_memory(c, z)
        np.testing.assert_array_equal(to_np(c), want)
    c = y.conj_physical()
    assert not c.is_conj()
    np.testing.assert_array_equal(to_np(c), b.astype(NP_OF[dtype]))
    x = torch.tensor([1.0, -2.0], device=device)
    assert not x.conj_physical().is_conj() and torch.equal(x.conj_physical(), x)
    w = z.clone()
    assert w.conj_physical_() is w and not w.is_conj()
    np.testing.assert_array_equal(to_np(w), want)


# ---------------------------------------------------------------------------------------------------------
# 2. the views of a conj view keep the bit, the copies drop it

# name -> (the view, applied to the conj view y of a (2, 3, 4) base, and to its resolved values)
VIEWS = {
    "transpose": lambda y: y.transpose(0, 2),
    "t": lambda y: y[0].t(),
    "T": lambda y: y[1].T,
    "mT": lambda y: y.mT,
    "permute": lambda y: y.permute(2, 0, 1),
    "view": lambda y: y.view(6, 4),
    "view_-1": lambda y: y.view(-1),
    "reshape_as_view": lambda y: y.reshape(4, 6),
    "flatten": lambda y: y.flatten(),
    "unsqueeze": lambda y: y.unsqueeze(1),
    "squeeze": lambda y: y.unsqueeze(0).squeeze(0),
    "squeeze_dim": lambda y: y[:, :1].squeeze(1),
    "select": lambda y: y.select(1, 2),
    "int_index": lambda y: y[1],
    "two_int_index": lambda y: y[0, 1],
    "scalar_index": lambda y: y[1, 2, 3],
    "slice": lambda y: y[:, 1:],
    "step_slice": lambda y: y[..., ::2],
    "none_index": lambda y: y[None, :, 0],
    "narrow": lambda y: y.narrow(2, 1, 2),
    "expand": lambda y: y[:, :1].expand(2, 5, 4),
    "expand_as": lambda y: y[0, 0].expand_as(y),
    "diagonal": lambda y: y.diagonal(0, 1, 2),
    "unfold": lambda y: y.unfold(2, 2, 1),
    "movedim": lambda y: y.movedim(0, -1),
    "as_strided": lambda y: y.as_strided((3, 2), (4, 1), 1),
    "split": lambda y: y.split(2, dim=2)[1],
    "chunk": lambda y: y.chunk(3, 1)[2],
    "unbind": lambda y: y.unbind(1)[1],
    "detach": lambda y: y.detach(),
    "view_as": lambda y: y.view_as(torch.empty(6, 4)),
    "unflatten": lambda y: y.unflatten(2, (2, 2)),
    "swapaxes": lambda y: y.swapaxes(0, 1),
}


@pytest.mark.parametrize("name", list(VIEWS))
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_views_of_a_conj_view_keep_the_bit(device, dtype, name):
    """A view of a conj view is conj, shares the base's memory, and has the conjugated values."""
    b = cvalues(2, 3, 4)
    z = tensor(b, dtype, device)
    y = z.conj()
    v = VIEWS[name](y)
    assert v.is_conj(), name
    assert same_memory(v, z), name
    want = VIEWS[name](z.conj_physical())
    assert v.shape == want.shape and v.stride() == want.stride()
    np.testing.assert_array_equal(to_np(v), to_np(want))
    # the same view of the base, conjugated
    np.testing.assert_array_equal(to_np(v), np.conj(to_np(VIEWS[name](z))))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_adjoint_and_mH_of_complex_are_conj(device, dtype):
    """mH / adjoint() / H of a complex tensor are conj views (of the transposed base)."""
    b = cvalues(3, 4)
    z = tensor(b, dtype, device)
    for v in (z.mH, z.adjoint(), z.H, tensor(cvalues(2, 3, 4), dtype, device).mH):
        assert v.is_conj()
    for v in (z.mH, z.adjoint(), z.H):
        assert same_memory(v, z) and v.shape == (4, 3) and v.stride() == (1, 4)
        np.testing.assert_array_equal(to_np(v), np.conj(b.T).astype(NP_OF[dtype]))
    x = torch.ones(2, 3, device=device)
    assert not x.mH.is_conj() and not x.adjoint().is_conj()


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_mH_of_a_conj_view_is_not_conj(device, dtype):
    """mH / adjoint() of a conj view conjugate twice: a plain (non-conj) transposed view of the base."""
    b = cvalues(3, 4)
    z = tensor(b, dtype, device)
    y = z.conj()
    for v in (y.mH, y.adjoint()):
        assert not v.is_conj() and same_memory(v, z) and v.stride() == (1, 4)
        np.testing.assert_array_equal(to_np(v), b.T.astype(NP_OF[dtype]))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_no_op_conversions_return_the_conj_view(device, dtype):
    """contiguous() of a contiguous conj view, to() its own dtype/device and type_as return the view itself."""
    z = tensor(cvalues(2, 3), dtype, device)
    y = z.conj()
    assert y.contiguous() is y and y.to(dtype) is y and y.to(device) is y and y.type(dtype) is y
    assert y.type_as(z) is y and y.is_contiguous()
    assert y.mT.contiguous() is not y


OTHER = {torch.complex64: torch.complex128, torch.complex128: torch.complex64}

# name -> the copy, of the conj view y of a (2, 3, 4) base
COPIES = {
    "clone": lambda y: y.clone(),
    "contiguous_of_noncontiguous": lambda y: y.transpose(0, 2).contiguous(),
    "reshape_that_copies": lambda y: y.transpose(0, 1).reshape(-1),
    "flatten_that_copies": lambda y: y.mT.flatten(),
    "to_other_complex_dtype": lambda y: y.to(OTHER[y.dtype]),
    "advanced_index": lambda y: y[[0, 1]],
    "advanced_index_tensor": lambda y: y[:, torch.tensor([2, 0], device=y.device)],
    "bool_index": lambda y: y[torch.tensor([True, False], device=y.device)],
    "add_scalar": lambda y: y + 1,
    "neg": lambda y: -y,
    "mul_one": lambda y: y * 1,
    "cat": lambda y: torch.cat([y, y]),
    "stack": lambda y: torch.stack([y, y]),
    "flip": lambda y: y.flip(0),
}


@pytest.mark.parametrize("name", list(COPIES))
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_copies_of_a_conj_view_drop_the_bit(device, dtype, name):
    """Copies of a conj view (clone, contiguous/reshape that must copy, dtype change, advanced indexing,
    arithmetic, cat/stack) are not conj, do not share memory, and hold the conjugated values."""
    b = cvalues(2, 3, 4)
    z = tensor(b, dtype, device)
    c = COPIES[name](z.conj())
    assert not c.is_conj(), name
    assert not same_memory(c, z), name
    want = COPIES[name](z.conj_physical())
    assert c.dtype == want.dtype and c.shape == want.shape
    np.testing.assert_array_equal(to_np(c), to_np(want))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_factories_like_a_conj_view_are_not_conj(device, dtype):
    """empty_like / zeros_like / ones_like / new_zeros of a conj view are plain tensors."""
    y = tensor(cvalues(2, 3), dtype, device).conj()
    for t in (torch.empty_like(y), torch.zeros_like(y), torch.ones_like(y), y.new_zeros(2), torch.full_like(y, 1j)):
        assert not t.is_conj() and t.dtype == dtype
    np.testing.assert_array_equal(to_np(torch.full_like(y, 1 + 2j)), np.full((2, 3), 1 + 2j))


# ---------------------------------------------------------------------------------------------------------
# 3. ops read a conj view as its conjugated values

MASK = np.array([[True, False, True], [False, True, False], [True, True, False]])
GATHER = np.array([[0, 2], [1, 1], [2, 0]])
VEC = np.array([1 - 1j, 2 + 0.5j, -0.25 + 3j])


def _t(a: np.ndarray, like: torch.Tensor) -> torch.Tensor:
    return torch.tensor(a, device=like.device)


def _vec(like: torch.Tensor) -> torch.Tensor:
    return torch.tensor(VEC, dtype=like.dtype, device=like.device)


# name -> (op on a 3x3 tensor, the same on a NumPy array); SORTED: compared sorted (eigenvalues)
UNARY = {
    "exp": (torch.exp, np.exp),
    "log": (torch.log, np.log),
    "sqrt": (torch.sqrt, np.sqrt),
    "sin": (torch.sin, np.sin),
    "tanh": (torch.tanh, np.tanh),
    "abs": (torch.abs, np.abs),
    "angle": (torch.angle, np.angle),
    "sgn": (torch.sgn, lambda a: a / np.abs(a)),
    "reciprocal": (torch.reciprocal, lambda a: 1 / a),
    "neg": (torch.neg, np.negative),
    "square": (torch.square, np.square),
    "pow_2": (lambda x: x**2, lambda a: a**2),
    "real": (lambda x: x.real, np.real),
    "imag": (lambda x: x.imag, np.imag),
    "sum": (torch.sum, np.sum),
    "prod": (torch.prod, np.prod),
    "mean": (torch.mean, np.mean),
    "sum_dim": (lambda x: x.sum(-1), lambda a: a.sum(-1)),
    "mean_dim0": (lambda x: x.mean(0), lambda a: a.mean(0)),
    "cumsum": (lambda x: x.cumsum(0), lambda a: a.cumsum(0)),
    "cumsum_1": (lambda x: x.cumsum(1), lambda a: a.cumsum(1)),
    "trace": (torch.trace, np.trace),
    "matmul_self": (lambda x: x @ x, lambda a: a @ a),
    "matmul_vec": (lambda x: x @ _vec(x), lambda a: a @ VEC),
    "mv": (lambda x: torch.mv(x, _vec(x)), lambda a: a @ VEC),
    "vec_matmul": (lambda x: _vec(x) @ x, lambda a: VEC @ a),
    "mm_plain": (lambda x: torch.mm(_vec(x)[:, None] * 1, x[:1]), lambda a: VEC[:, None] @ a[:1]),
    "dot": (lambda x: torch.dot(x[0], x[:, 1]), lambda a: np.dot(a[0], a[:, 1])),
    "vdot": (lambda x: torch.vdot(x[:, 0], x[1]), lambda a: np.vdot(a[:, 0], a[1])),
    "dot_vec": (lambda x: torch.dot(_vec(x), x[2]), lambda a: np.dot(VEC, a[2])),
    "vdot_vec": (lambda x: torch.vdot(x[2], _vec(x)), lambda a: np.vdot(a[2], VEC)),
    "inv": (torch.linalg.inv, np.linalg.inv),
    "det": (torch.linalg.det, np.linalg.det),
    "svdvals": (torch.linalg.svdvals, lambda a: np.linalg.svd(a, compute_uv=False)),
    "eigvals": (torch.linalg.eigvals, np.linalg.eigvals),
    "norm": (torch.linalg.norm, np.linalg.norm),
    "vector_norm_1": (lambda x: torch.linalg.vector_norm(x, 1), lambda a: np.abs(a).sum()),
    "solve_vec": (lambda x: torch.linalg.solve(x, _vec(x)), lambda a: np.linalg.solve(a, VEC)),
    "fft": (torch.fft.fft, np.fft.fft),
    "fft_dim0": (lambda x: torch.fft.fft(x, dim=0), lambda a: np.fft.fft(a, axis=0)),
    "ifft": (torch.fft.ifft, np.fft.ifft),
    "fft2": (torch.fft.fft2, np.fft.fft2),
    "flip": (lambda x: x.flip(0), lambda a: a[::-1]),
    "roll": (lambda x: x.roll(1, 0), lambda a: np.roll(a, 1, 0)),
    "index_select": (lambda x: x.index_select(0, _t(np.array([2, 0]), x)), lambda a: a[[2, 0]]),
    "gather": (lambda x: x.gather(1, _t(GATHER, x)), lambda a: np.take_along_axis(a, GATHER, 1)),
    "masked_select": (lambda x: x.masked_select(_t(MASK, x)), lambda a: a[MASK]),
    "bool_index": (lambda x: x[_t(MASK, x)], lambda a: a[MASK]),
    "advanced_index": (lambda x: x[[2, 0, 2]], lambda a: a[[2, 0, 2]]),
    "where_scalar": (lambda x: torch.where(_t(MASK, x), x, 0), lambda a: np.where(MASK, a, 0)),
    "masked_fill": (lambda x: x.masked_fill(_t(MASK, x), 1j), lambda a: np.where(MASK, 1j, a)),
    "cat": (lambda x: torch.cat([x, x.resolve_conj()]), lambda a: np.concatenate([a, a])),
    "stack": (lambda x: torch.stack([x, x], 1), lambda a: np.stack([a, a], 1)),
    "kron_self": (lambda x: torch.kron(x, x), lambda a: np.kron(a, a)),
    "tensordot_self": (lambda x: torch.tensordot(x, x, dims=1), lambda a: np.tensordot(a, a, axes=1)),
    "einsum_ij_jk": (lambda x: torch.einsum("ij,jk->ik", x, x), lambda a: np.einsum("ij,jk->ik", a, a)),
    "einsum_trace": (lambda x: torch.einsum("ii->", x), lambda a: np.einsum("ii->", a)),
    "einsum_transpose": (lambda x: torch.einsum("ij->ji", x), lambda a: a.T),
    "outer": (lambda x: torch.outer(x[0], x[:, 2]), lambda a: np.outer(a[0], a[:, 2])),
    "diag": (torch.diag, np.diag),
    "triu": (torch.triu, np.triu),
    "eq_self": (lambda x: x == x, lambda a: a == a),
    "isfinite": (torch.isfinite, np.isfinite),
    "isreal": (torch.isreal, np.isreal),
    "to_other_dtype": (lambda x: x.to(OTHER[x.dtype]), lambda a: a),
    "cumprod": (lambda x: x.cumprod(1), lambda a: a.cumprod(1)),
}
SORTED = {"eigvals"}


@pytest.mark.parametrize("name", list(UNARY))
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_unary_ops_read_the_conjugated_values(device, dtype, name):
    """op(conj view) == op(resolve_conj()) and == the NumPy op on np.conj of the base, for conj views of every
    layout (contiguous, of a transposed tensor, of a stepped one, transposed after the conj)."""
    fn, np_fn = UNARY[name]
    b = cvalues(3, 3)
    for layout in LAYOUTS:
        y, _ = conj_view(b, layout, dtype, device)
        assert y.is_conj()
        got = fn(y)
        assert_same(got, fn(y.resolve_conj()))
        assert_np(got, np_fn(np.conj(b)), dtype, sort=name in SORTED)


# name -> (op of two 3x3 tensors, the same on NumPy arrays, elementwise: also run with a real other tensor)
BINARY = {
    "add": (torch.add, np.add, True),
    "sub": (torch.sub, np.subtract, True),
    "mul": (torch.mul, np.multiply, True),
    "div": (torch.div, np.divide, True),
    "pow": (torch.pow, np.power, True),
    "operator_add": (operator.add, np.add, True),
    "operator_truediv": (operator.truediv, np.divide, True),
    "eq": (torch.eq, np.equal, True),
    "ne": (torch.ne, np.not_equal, True),
    "isclose": (torch.isclose, lambda a, b: np.isclose(a, b, rtol=1e-5, atol=1e-8), False),  # needs one dtype
    "allclose": (torch.allclose, lambda a, b: np.allclose(a, b, rtol=1e-5, atol=1e-8), False),
    "equal": (torch.equal, lambda a, b: bool(np.array_equal(a, b)), True),
    "where": (lambda a, b: torch.where(_t(MASK, a), a, b), lambda a, b: np.where(MASK, a, b), True),
    "matmul": (torch.matmul, np.matmul, False),
    "mm": (torch.mm, np.matmul, False),
    "bmm": (
        lambda a, b: torch.bmm(a.unsqueeze(0).expand(2, 3, 3), torch.stack([b, b.mT])),
        lambda a, b: np.stack([a @ b, a @ b.T]),
        False,
    ),
    "mv": (lambda a, b: torch.mv(a, b[:, 0]), lambda a, b: a @ b[:, 0], False),
    "dot": (lambda a, b: torch.dot(a[0], b[:, 1]), lambda a, b: np.dot(a[0], b[:, 1]), False),
    "vdot": (lambda a, b: torch.vdot(a[:, 0], b[1]), lambda a, b: np.vdot(a[:, 0], b[1]), False),
    "solve": (torch.linalg.solve, np.linalg.solve, False),
    "cat": (lambda a, b: torch.cat([a, b], 1), lambda a, b: np.concatenate([a, b], 1), False),
    "stack": (lambda a, b: torch.stack([a, b]), lambda a, b: np.stack([a, b]), False),
    # 1-D: upstream 2.13's kron raises "view size is not compatible" for 2-D operands of different memory
    # orders (a transposed one with a contiguous one), conj or not
    "kron": (lambda a, b: torch.kron(a[0], b[:, 1]), lambda a, b: np.kron(a[0], b[:, 1]), False),
    "kron_same_order": (
        lambda a, b: torch.kron(a, b.contiguous() if a.stride(0) >= a.stride(1) else b.mT.contiguous().mT),
        np.kron,
        False,
    ),
    "tensordot": (lambda a, b: torch.tensordot(a, b, dims=1), lambda a, b: np.tensordot(a, b, axes=1), False),
    "tensordot_2": (lambda a, b: torch.tensordot(a, b, dims=2), lambda a, b: np.tensordot(a, b, axes=2), False),
    "einsum": (lambda a, b: torch.einsum("ij,kj->ik", a, b), lambda a, b: np.einsum("ij,kj->ik", a, b), False),
}
OTHERS = ["plain", "conj_of_other", "real", "same", "same_base_mT"]


def other_operand(kind: str, y: torch.Tensor, b: np.ndarray, dtype, device):
    """The second operand and its NumPy values: a plain complex tensor (equal to the conj view at [0, 0] and to
    the unconjugated base at [1, 1]), a conj view of another tensor, a real tensor, the conj view itself, or
    a transposed view of the same conj view."""
    if kind in ("plain", "conj_of_other"):
        o = cvalues(3, 3, seed=1)
        o[0, 0] = np.conj(b[0, 0])
        o[1, 1] = b[1, 1]
        if kind == "plain":
            return tensor(o, dtype, device), o
        return tensor(np.conj(o), dtype, device).conj(), o
    if kind == "real":
        o = np.real(cvalues(3, 3, seed=2)).copy()
        o[0, 0] = np.conj(b[0, 0]).real
        return torch.tensor(o, dtype=torch.float32 if dtype == torch.complex64 else torch.float64, device=device), o
    if kind == "same":
        return y, np.conj(b)
    assert kind == "same_base_mT"
    return y.mT, np.conj(b).T


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_binary_ops_read_the_conjugated_values(device, dtype, layout, name):
    """op(conj view, other) and op(other, conj view) == the op on the resolved copies and the NumPy op, with
    other a plain tensor, a conj view of another tensor, a real tensor (elementwise ops), the conj view itself,
    or a transposed view of it (both operands conj views of the same base)."""
    fn, np_fn, elementwise = BINARY[name]
    b = cvalues(3, 3)
    y, _ = conj_view(b, layout, dtype, device)
    for other in OTHERS:
        if other == "real" and not elementwise:
            continue
        o, onp = other_operand(other, y, b, dtype, device)
        if other != "real":
            assert o.is_conj() == (other != "plain")
        for args, np_args in (((y, o), (np.conj(b), onp)), ((o, y), (onp, np.conj(b)))):
            got = fn(*args)
            assert_same(got, fn(*(a.resolve_conj() for a in args)))
            assert_np(got, np_fn(*np_args), dtype)


SCALARS = {"complex": None, "float": 2.0, "int": 3}
SCALAR_OPS = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "div": operator.truediv,
    "pow": operator.pow,
    "eq": operator.eq,
    "ne": operator.ne,
}


@pytest.mark.parametrize("scalar", list(SCALARS))
@pytest.mark.parametrize("name", list(SCALAR_OPS))
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_ops_with_a_python_number_read_the_conjugated_values(device, dtype, layout, name, scalar):
    """conj view (op) number and number (op) conj view == the same with the resolved copy, and NumPy; the complex
    number equals the conj view's [0, 1] (so eq/ne see the conjugated value)."""
    op = SCALAR_OPS[name]
    b = cvalues(3, 3)
    y, _ = conj_view(b, layout, dtype, device)
    s = complex(np.conj(b[0, 1])) if scalar == "complex" else SCALARS[scalar]
    r = y.resolve_conj()
    for got, want, np_want in ((op(y, s), op(r, s), op(np.conj(b), s)), (op(s, y), op(s, r), op(s, np.conj(b)))):
        assert not got.is_conj()
        assert_same(got, want)
        assert_np(got, np_want, dtype)
    if name == "eq" and scalar == "complex":
        assert bool((y == s)[0, 1]) and not bool((y.conj() == s)[0, 1])


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_comparisons_with_the_unconjugated_values(device, dtype):
    """A conj view equals its resolved copy and conj_physical of the base, not the base; (base == conj view)
    is True exactly where the value is real."""
    b = cvalues(2, 3)
    b[1, 2] = 4.0  # real: its own conjugate
    z = tensor(b, dtype, device)
    y = z.conj()
    assert torch.equal(y, y.resolve_conj()) and torch.equal(y, z.conj_physical()) and torch.equal(y.conj(), z)
    assert not torch.equal(y, z) and not torch.allclose(y, z)
    assert torch.allclose(y, z.conj_physical()) and bool(torch.isclose(y, z.conj_physical()).all())
    np.testing.assert_array_equal(to_np(y == z), b == np.conj(b))
    np.testing.assert_array_equal(to_np(y != z), b != np.conj(b))
    assert (y == z).sum().item() == 1


# ---------------------------------------------------------------------------------------------------------
# 4. writes through a conj view reach the base conjugated

V = 2 - 3j


def _write_src(kind: str, w: torch.Tensor) -> torch.Tensor:
    if kind == "complex":
        return torch.tensor([1j, 2 + 1j, -3j, 4], dtype=w.dtype, device=w.device)
    if kind == "real":
        return torch.tensor([1.0, -2.0, 3.0, 0.5], device=w.device)
    # a conj view whose values are [1j, 2 + 1j, -3j, 4]
    return torch.tensor([-1j, 2 - 1j, 3j, 4], dtype=w.dtype, device=w.device).conj()


SRC_VALUES = {
    "complex": np.array([1j, 2 + 1j, -3j, 4]),
    "real": np.array([1.0, -2.0, 3.0, 0.5]),
    "conj": np.array([1j, 2 + 1j, -3j, 4]),
}
IDX = np.array([3, 0])
BMASK = np.array([True, False, True, False])
A = np.array([1j, 2, 3 - 1j, 4j])


def _np_set(w, key, value):
    w[key] = value
    return w


# name -> (write through the conj view w (4 elements), the same on its NumPy values W; returns the new W)
WRITES = {
    "int_index": (lambda w: w.__setitem__(0, V), lambda W: _np_set(W, 0, V)),
    "negative_index": (lambda w: w.__setitem__(-1, V), lambda W: _np_set(W, -1, V)),
    "slice": (lambda w: w.__setitem__(slice(1, 3), V), lambda W: _np_set(W, slice(1, 3), V)),
    "slice_tensor": (
        lambda w: w.__setitem__(slice(1, 3), _write_src("complex", w)[:2]),
        lambda W: _np_set(W, slice(1, 3), SRC_VALUES["complex"][:2]),
    ),
    "bool_mask": (
        lambda w: w.__setitem__(torch.tensor(BMASK, device=w.device), V),
        lambda W: _np_set(W, BMASK, V),
    ),
    "index_tensor": (
        lambda w: w.__setitem__(
            torch.tensor(IDX, device=w.device), torch.tensor([1j, 2 + 2j], dtype=w.dtype, device=w.device)
        ),
        lambda W: _np_set(W, IDX, np.array([1j, 2 + 2j])),
    ),
    "index_list": (lambda w: w.__setitem__([1, 2], V), lambda W: _np_set(W, [1, 2], V)),
    "fill_": (lambda w: w.fill_(V), lambda W: np.full_like(W, V)),
    "copy_complex": (lambda w: w.copy_(_write_src("complex", w)), lambda W: SRC_VALUES["complex"].astype(W.dtype)),
    "copy_real": (lambda w: w.copy_(_write_src("real", w)), lambda W: SRC_VALUES["real"].astype(W.dtype)),
    "copy_conj_view": (lambda w: w.copy_(_write_src("conj", w)), lambda W: SRC_VALUES["conj"].astype(W.dtype)),
    "add_": (lambda w: w.add_(1j), lambda W: W + 1j),
    "sub_tensor": (lambda w: w.sub_(_write_src("complex", w)), lambda W: W - SRC_VALUES["complex"]),
    "mul_self": (lambda w: w.mul_(w), lambda W: W * W),
    "mul_scalar": (lambda w: w.mul_(2j), lambda W: W * 2j),
    "div_conj_view": (lambda w: w.div_(_write_src("conj", w)), lambda W: W / SRC_VALUES["conj"]),
    "zero_": (lambda w: w.zero_(), lambda W: np.zeros_like(W)),
    "add_out": (
        lambda w: torch.add(torch.tensor(A, dtype=w.dtype, device=w.device), 1, out=w),
        lambda W: A + 1,
    ),
    "mul_out_self": (
        lambda w: torch.mul(w, torch.tensor(A, dtype=w.dtype, device=w.device), out=w),
        lambda W: W * A,
    ),
    "masked_fill_": (
        lambda w: w.masked_fill_(torch.tensor(BMASK, device=w.device), V),
        lambda W: np.where(BMASK, V, W),
    ),
    "index_fill_": (
        lambda w: w.index_fill_(0, torch.tensor(IDX, device=w.device), V),
        lambda W: _np_set(W, IDX, V),
    ),
    "exp_": (lambda w: w.exp_(), np.exp),
    "conj_physical_": (lambda w: w.conj_physical_(), np.conj),
}


@pytest.mark.parametrize("name", list(WRITES))
@pytest.mark.parametrize("layout", ["contiguous", "stepped"])
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_writes_through_a_conj_view_reach_the_base_conjugated(device, dtype, layout, name):
    """After a write through w = z.conj(), w reads as the written values, z as their conjugate; w keeps
    is_conj(); the memory outside w (every other element of a stepped base) is untouched."""
    write, np_write = WRITES[name]
    b = np.array([1 + 2j, 3 - 4j, -5 + 0.5j, 7 - 8j])
    if layout == "contiguous":
        storage = tensor(b, dtype, device)
        z = storage
    else:
        storage = tensor(np.stack([b, np.full(4, 9 + 9j)], 1).ravel(), dtype, device)
        z = storage[::2]
    w = z.conj()
    want = np_write(np.conj(b).astype(NP_OF[dtype]).copy())
    result = write(w)
    assert w.is_conj(), name
    if isinstance(result, torch.Tensor):
        assert result is w
    assert_np(w, want, dtype)
    assert_np(z, np.conj(want), dtype)
    if layout == "stepped":
        np.testing.assert_array_equal(to_np(storage[1::2]), np.full(4, 9 + 9j, dtype=NP_OF[dtype]))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_writes_through_views_of_a_conj_view(device, dtype):
    """Writes through a transposed / selected view of a 2-D conj view land conjugated in the base."""
    b = cvalues(3, 4)
    z = tensor(b, dtype, device)
    w = z.conj()
    w.t()[1] = 1 + 1j  # column 1 of w
    w[2, 1:3].mul_(1j)
    want = np.conj(b)
    want[:, 1] = 1 + 1j
    want[2, 1:3] *= 1j
    assert w.is_conj() and w.t().is_conj()
    assert_np(z, np.conj(want), dtype)
    assert_np(w, want, dtype)


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_inplace_on_the_base_is_seen_through_the_conj_view(device, dtype):
    """An in-place op on the base shows through its conj views as the conjugate."""
    b = cvalues(2, 3)
    z = tensor(b, dtype, device)
    y = z.conj()
    v = y.t()
    z.mul_(1j).add_(1)
    z[0, 0] = 5 - 5j
    want = b * 1j + 1
    want[0, 0] = 5 - 5j
    assert y.is_conj() and v.is_conj()
    assert_np(y, np.conj(want), dtype)
    assert_np(v, np.conj(want).T, dtype)


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_imag_and_real_of_a_conj_view(device, dtype):
    """real / imag of a conj view have the values of the conjugate; real is a view of the base's real part."""
    b = cvalues(2, 3)
    z = tensor(b, dtype, device)
    y = z.conj()
    assert not y.real.is_conj() and not y.real.is_complex() and not y.imag.is_complex()
    np.testing.assert_array_equal(to_np(y.real), b.real.astype(NP_OF[dtype]().real.dtype))
    np.testing.assert_array_equal(to_np(y.imag), -b.imag.astype(NP_OF[dtype]().real.dtype))
    np.testing.assert_array_equal(to_np(torch.real(y)), to_np(torch.real(z)))
    np.testing.assert_array_equal(to_np(torch.imag(y)), -to_np(torch.imag(z)))
    y.real.fill_(0.5)  # real of a conj view is a view of the base's real part
    np.testing.assert_array_equal(to_np(z).real, np.full((2, 3), 0.5))


# ---------------------------------------------------------------------------------------------------------
# 5. what refuses a conj view, and the conversions that see its values


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_view_as_real_numpy_and_view_dtype_refuse_a_conj_view(device, dtype):
    """view_as_real, numpy() (and np.asarray), view(dtype) -- even its own dtype -- raise on a conj view; on its
    resolved copy they work."""
    y = tensor(cvalues(2, 3), dtype, device).conj()
    with pytest.raises(RuntimeError, match="view_as_real doesn't work on unresolved conjugated tensors"):
        torch.view_as_real(y)
    real = torch.float32 if dtype == torch.complex64 else torch.float64
    for target in (real, OTHER[dtype], dtype, torch.uint8):
        with pytest.raises(RuntimeError, match="not supported for conjugate view tensors"):
            y.view(target)
    if device == "cpu":
        with pytest.raises(RuntimeError, match="conjugate bit"):
            y.numpy()
        with pytest.raises(RuntimeError, match="conjugate bit"):
            np.asarray(y)
    r = y.resolve_conj()
    vr = torch.view_as_real(r)
    assert vr.dtype == real and vr.shape == (2, 3, 2)
    np.testing.assert_array_equal(vr[..., 1].cpu().numpy(), -to_np(y.conj()).imag)
    assert r.view(real).shape == (2, 6)


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_python_conversions_see_the_conjugated_values(device, dtype):
    """tolist(), item(), complex(), repr()/str() and np.asarray(resolve_conj()) give the conjugated values."""
    z = torch.tensor([1 + 2j, 3 - 4j, -0.5 + 0.25j], dtype=dtype, device=device)
    y = z.conj()
    assert y.tolist() == [1 - 2j, 3 + 4j, -0.5 - 0.25j]
    assert y[1].item() == 3 + 4j and complex(y[0]) == 1 - 2j and y[1].is_conj()
    assert y.t().tolist() == [1 - 2j, 3 + 4j, -0.5 - 0.25j]
    np.testing.assert_array_equal(np.asarray(y.resolve_conj().cpu()), np.array([1 - 2j, 3 + 4j, -0.5 - 0.25j]))
    text = repr(y)
    assert text == repr(y.resolve_conj()) == repr(z.conj_physical()) and str(y) == text
    assert "1.0000-2.0000j" in text and "3.0000+4.0000j" in text and "-0.5000-0.2500j" in text
    assert repr(torch.tensor([1 + 2j, 3 - 4j], dtype=dtype, device=device).conj()).startswith("tensor([1.-2.j, 3.+4.j]")


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_save_load_round_trip_of_a_conj_view(device, dtype):
    """torch.save / torch.load of a conj view keeps its values and is_conj(); saved with its base, the two still
    share memory after the load."""
    b = cvalues(2, 3)
    z = tensor(b, dtype, device)
    y = z.conj()
    buf = io.BytesIO()
    torch.save(y, buf)
    buf.seek(0)
    loaded = torch.load(buf)
    assert loaded.is_conj() and loaded.dtype == dtype and loaded.device.type == device
    np.testing.assert_array_equal(to_np(loaded), np.conj(b).astype(NP_OF[dtype]))
    buf = io.BytesIO()
    torch.save({"z": z, "y": y.t()}, buf)
    buf.seek(0)
    d = torch.load(buf)
    assert d["y"].is_conj() and not d["z"].is_conj() and same_memory(d["y"], d["z"])
    np.testing.assert_array_equal(to_np(d["y"]), np.conj(b).T.astype(NP_OF[dtype]))
    d["z"].fill_(1j)
    np.testing.assert_array_equal(to_np(d["y"]), np.full((3, 2), -1j))


# ---------------------------------------------------------------------------------------------------------
# 6. autograd through conj views (complex128)


def _losses(w: torch.Tensor, m: torch.Tensor):
    return {
        "real_mul": lambda t: (t * w).real.sum(),
        "imag_mul": lambda t: (t * w).imag.sum(),
        "abs": lambda t: t.abs().sum(),
        "matmul": lambda t: (t.reshape(2, 2) @ m).abs().pow(2).sum(),
        "resolved_view_as_real": lambda t: torch.view_as_real(t.resolve_conj()).pow(3).sum(),
        "angle": lambda t: t.angle().sum(),
        "views": lambda t: (t.reshape(2, 2).mT[0] * w[:2]).imag.sum() + t[1:].real.sum(),
    }


LOSSES = list(_losses(torch.zeros(4, dtype=torch.complex128), torch.zeros(2, 2, dtype=torch.complex128)))


@pytest.mark.parametrize("loss", LOSSES)
def test_gradients_through_a_conj_view_match_conj_physical(device, loss):
    """b = a.conj() is a conj view that requires grad; the gradient of a real loss of b equals that of the same
    loss of a.conj_physical()."""
    a0 = tensor(cvalues(4, seed=3), torch.complex128, device)
    w = tensor(cvalues(4, seed=4), torch.complex128, device)
    m = tensor(cvalues(2, 2, seed=5), torch.complex128, device)
    fn = _losses(w, m)[loss]
    a = a0.clone().requires_grad_()
    b = a.conj()
    assert b.is_conj() and b.requires_grad and b.grad_fn is not None
    fn(b).backward()
    a2 = a0.clone().requires_grad_()
    c = a2.conj_physical()
    assert not c.is_conj()
    fn(c).backward()
    close(a.grad, a2.grad)
    # upstream's leaf keeps ConjBackward's grad.conj() (a conj view); ours may hold it resolved: the same values
    assert not a2.grad.is_conj()


INPLACE = {
    "mul_": (lambda d, x: d.mul_(2j), lambda c, x: (c.conj() * 2j).conj()),
    "add_tensor": (lambda d, x: d.add_(x), lambda c, x: (c.conj() + x).conj()),
    "mul_tensor": (lambda d, x: d.mul_(x), lambda c, x: (c.conj() * x).conj()),
    "copy_": (lambda d, x: d.copy_(x * 3), lambda c, x: (x * 3).conj()),
    "setitem": (lambda d, x: d.__setitem__(slice(1, 3), x[:2]), lambda c, x: torch.cat([c[:1], x[:2].conj(), c[3:]])),
}


@pytest.mark.parametrize("name", list(INPLACE))
def test_inplace_on_a_conj_view_of_a_non_leaf(device, name):
    """c = a * 1; d = c.conj(); an in-place op on d; the gradients of a loss of c (w.r.t. a and the op's other
    operand) equal those of the out-of-place formulation."""
    inplace, outplace = INPLACE[name]
    a0 = tensor(cvalues(4, seed=6), torch.complex128, device)
    x0 = tensor(cvalues(4, seed=7), torch.complex128, device)
    wt = tensor(cvalues(4, seed=8), torch.complex128, device)

    def loss(c):
        return (c * wt).real.sum() + c.abs().pow(2).sum()

    a, x = a0.clone().requires_grad_(), x0.clone().requires_grad_()
    c = a * 1
    d = c.conj()
    inplace(d, x)
    assert d.is_conj() and d.requires_grad
    loss(c).backward()

    a2, x2 = a0.clone().requires_grad_(), x0.clone().requires_grad_()
    c2 = outplace(a2 * 1, x2)
    close(c, c2)
    loss(c2).backward()
    for got, want in ((a.grad, a2.grad), (x.grad, x2.grad)):
        if want is None:  # the in-place formulation overwrote all of c: a zero gradient (or none)
            assert got is None or bool((got == 0).all())
        else:
            close(got, want)


def test_gradcheck_through_conj_views(device):
    """gradcheck (complex128 / float64) of functions built on conj views: products, views of the conj view,
    mH matmul, an in-place op on a conj view of a clone, and a real input made complex."""
    x = tensor(cvalues(3, seed=9), torch.complex128, device).requires_grad_()
    w = tensor(cvalues(3, seed=10), torch.complex128, device)
    m = tensor(cvalues(3, 3, seed=11), torch.complex128, device).requires_grad_()
    r = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, device=device).requires_grad_()

    def inplace_on_conj_view(t):
        c = t.clone()
        c.conj().mul_(w)
        return c

    def setitem_on_conj_view(t):
        c = t * 2
        c.conj()[1:] = t[:2] * w[:2]
        return c

    assert gradcheck(lambda t: (t.conj() * w).sum(), (x,))
    assert gradcheck(lambda t: t.conj() * t, (x,))
    assert gradcheck(lambda t: t.conj().unsqueeze(0).expand(2, 3).mT @ w[:2], (x,))
    assert gradcheck(lambda a: a.mH @ a, (m,))
    assert gradcheck(lambda a: torch.linalg.det(a.conj()), (m,))
    assert gradcheck(inplace_on_conj_view, (x,))
    assert gradcheck(setitem_on_conj_view, (x,))
    assert gradcheck(lambda t: (torch.complex(t, 2 * t).conj() * w).sum(), (r,))
    assert gradcheck(lambda t: torch.view_as_real(t.conj().resolve_conj()), (x,))


# ---------------------------------------------------------------------------------------------------------
# 7. CPU <-> CUDA


@pytest.mark.cuda
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_cpu_cuda_copies_of_a_conj_view_keep_values(dtype):
    """to('cuda') / cpu() / copy_ across devices of conj views (contiguous and transposed) keep the conjugated
    values, and copy_ into a conj view across devices lands conjugated in its base."""
    b = cvalues(3, 4)
    want = np.conj(b).astype(NP_OF[dtype])
    for src_dev, dst_dev in (("cpu", "cuda"), ("cuda", "cpu")):
        z = tensor(b, dtype, src_dev)
        for y, w in ((z.conj(), want), (z.conj().t(), want.T), (z.t().conj()[1:], want.T[1:])):
            assert y.is_conj()
            moved = y.to(dst_dev)
            assert moved.device.type == dst_dev and moved.dtype == dtype
            np.testing.assert_array_equal(to_np(moved), w)
            np.testing.assert_array_equal(to_np(y.cuda() if dst_dev == "cuda" else y.cpu()), w)
            dst = torch.empty(y.shape, dtype=dtype, device=dst_dev)
            dst.copy_(y)
            np.testing.assert_array_equal(to_np(dst), w)
        base = torch.zeros(3, 4, dtype=dtype, device=dst_dev)
        base.conj().copy_(tensor(b, dtype, src_dev))
        np.testing.assert_array_equal(to_np(base), want)
        base.conj().copy_(tensor(b, dtype, src_dev).conj())
        np.testing.assert_array_equal(to_np(base), b.astype(NP_OF[dtype]))
