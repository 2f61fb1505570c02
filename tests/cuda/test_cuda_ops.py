"""Every op family on the GPU against the same op on the CPU, which tests/tensor checks against NumPy.

One table of cases drives the checks: each case runs on CPU inputs and on their `.cuda()` copies
(contiguous, transposed, sliced with steps, expanded) and the results must agree in dtype, shape,
device and value. Skips where no GPU is present.
"""

from __future__ import annotations

import numpy as np
import pytest

import torch

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU: torch.cuda.is_available() is False")

F32, F64, F16, BF16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
I64, I32, U8 = torch.int64, torch.int32, torch.uint8
FLOATS = (F32, F64)
HALVES = (F16, BF16)
INTS = (I64, I32)
TOL = {F32: (1e-5, 1e-5), F64: (1e-12, 1e-12), F16: (1e-2, 1e-2), BF16: (2e-2, 2e-2)}
LAYOUTS = ("contiguous", "transposed", "stepped", "expanded")


def make(dtype, layout, seed):
    """A 5x7 tensor of `dtype` in `layout` (values in [-3, 3), integers in [-5, 5))."""
    rng = np.random.default_rng(seed)
    shape = {"contiguous": (5, 7), "transposed": (7, 5), "stepped": (10, 14), "expanded": (1, 7)}[layout]
    if dtype.is_floating_point:
        arr = rng.uniform(-3, 3, size=shape)
    else:
        arr = rng.integers(0 if dtype == U8 else -5, 5, size=shape)
    t = torch.from_numpy(arr).to(dtype)
    if layout == "transposed":
        t = t.t()
    elif layout == "stepped":
        t = t[::2, ::2]
    elif layout == "expanded":
        t = t.expand(5, 7)
    return t


def idx(t, values):
    """An int64 index tensor on `t`'s device."""
    return torch.tensor(values, device=t.device)


def inplace(method, *args):
    """Runs an in-place method on a dense copy and returns the copy (checks it wrote in place)."""

    def run(a, *rest):
        out = a.clone()
        ret = getattr(out, method)(*[r(a, *rest) if callable(r) else r for r in args])
        assert ret is out
        return out

    return run


def setitem(index, value):
    """`a.clone()[index(a)] = value(a)`, returning the copy."""

    def run(a):
        out = a.clone()
        out[index(a)] = value(a)
        return out

    return run


POS = lambda a: a.abs() + 0.5  # noqa: E731  a domain for log, sqrt, pow, ...
UNIT = lambda a: a / 3.5  # noqa: E731  inside (-1, 1)

UNARY_FLOAT = {
    "exp": lambda a: a.exp(),
    "exp2": lambda a: torch.exp2(a),
    "expm1": lambda a: a.expm1(),
    "log": lambda a: POS(a).log(),
    "log2": lambda a: POS(a).log2(),
    "log10": lambda a: POS(a).log10(),
    "log1p": lambda a: POS(a).log1p(),
    "sqrt": lambda a: POS(a).sqrt(),
    "rsqrt": lambda a: POS(a).rsqrt(),
    "reciprocal": lambda a: POS(a).reciprocal(),
    "sin": lambda a: a.sin(),
    "cos": lambda a: a.cos(),
    "tan": lambda a: UNIT(a).tan(),
    "asin": lambda a: UNIT(a).asin(),
    "acos": lambda a: UNIT(a).acos(),
    "atan": lambda a: a.atan(),
    "sinh": lambda a: a.sinh(),
    "cosh": lambda a: a.cosh(),
    "tanh": lambda a: a.tanh(),
    "sigmoid": lambda a: a.sigmoid(),
    "erf": lambda a: a.erf(),
    "erfc": lambda a: a.erfc(),
    "floor": lambda a: a.floor(),
    "ceil": lambda a: a.ceil(),
    "round": lambda a: a.round(),
    "round_decimals": lambda a: a.round(decimals=1),
    "trunc": lambda a: a.trunc(),
    "frac": lambda a: a.frac(),
    "relu": lambda a: torch.relu(a),
    "softmax": lambda a: torch.softmax(a, 1),
    "log_softmax": lambda a: torch.log_softmax(a, 0),
    "nan_to_num": lambda a: (a / (a > 0)).nan_to_num(posinf=7.0),
    "isnan_isinf": lambda a: torch.stack([(a / 0).isinf(), (a * 0 / 0).isnan(), (a / 0).isfinite()]),
    "pow_scalar": lambda a: POS(a) ** 1.5,
    "rpow": lambda a: 2**a,
    "lerp": lambda a: torch.lerp(a, a.cos(), 0.25),
    "clamp": lambda a: a.clamp(-0.5, 0.75),
}

UNARY_ANY = {
    "view_dtype_bytes": lambda a: a.contiguous().view(torch.uint8),
    "inplace_views": lambda a: a.clone().t_().unsqueeze_(0).transpose_(0, 2).squeeze_(2),
    "resize": lambda a: a.clone().resize_(3, 4),
    "unique": lambda a: torch.unique(a, return_inverse=True, return_counts=True),
    "unique_dim": lambda a: torch.unique(a.remainder(2), dim=0, return_counts=True),
    "median_kth": lambda a: torch.stack([torch.median(a, 1).values, torch.kthvalue(a, 2, 1).values]),
    "median_indices": lambda a: torch.median(a * 0, 0),
    "stacks": lambda a: torch.cat([torch.vstack([a, a]).reshape(-1), torch.hstack([a, a]).reshape(-1)]),
    "rot90_split": lambda a: torch.rot90(a, 1).tensor_split(3, 1)[1],
    "diff": lambda a: torch.diff(a, 2, 0, append=a[:1]),
    "aminmax_count": lambda a: torch.stack([*torch.aminmax(a, dim=0), torch.count_nonzero(a, 0).to(a.dtype)]),
    "signbit": lambda a: torch.signbit(a),
    "neg": lambda a: -a,
    "abs": lambda a: a.abs(),
    "sign": lambda a: a.sign(),
    "add_scalar": lambda a: a + 2,
    "mul_weak_float": lambda a: a * 2.5,
    "div_scalar": lambda a: a / 3,
    "square": lambda a: a**2,
    "clamp_min": lambda a: a.clamp(min=1),
    "to_f64": lambda a: a.to(F64),
    "to_i32": lambda a: a.to(I32),
    "to_f16": lambda a: a.half(),
    "to_bool": lambda a: a.bool(),
    "contiguous": lambda a: a.contiguous(),
    "clone_keeps_layout": lambda a: a.clone(),
    "reshape": lambda a: a.reshape(-1),
    "t_contiguous": lambda a: a.t().contiguous(),
    "getitem": lambda a: a[1:4:2, ::3],
    "select": lambda a: a[2],
    "mask": lambda a: a[a > 0],
    "int_index": lambda a: a[idx(a, [4, 0, 4])],
    "two_int_index": lambda a: a[idx(a, [0, 1, 4]), idx(a, [6, 2, 0])],
    "index_select": lambda a: a.index_select(1, idx(a, [6, 0, 3, 3])),
    "gather": lambda a: a.gather(1, idx(a, [[0, 6], [1, 1], [2, 0], [5, 5], [3, 4]])),
    "masked_fill": lambda a: a.masked_fill(a > 1, 9),
    "masked_select": lambda a: a.masked_select(a < 0),
    "nonzero": lambda a: (a > 0).nonzero(),
    "where_scalar": lambda a: torch.where(a > 0, a, 0),
    "flip": lambda a: a.flip(0, 1),
    "roll": lambda a: a.roll((2, -1), (0, 1)),
    "repeat": lambda a: a.repeat(2, 1, 2),
    "tile": lambda a: a.tile((2,)),
    "tril": lambda a: a.tril(),
    "triu": lambda a: a.triu(2),
    "diag": lambda a: torch.diag(a, 1),
    "diag_embed": lambda a: torch.diag(a[0]),
    "cat": lambda a: torch.cat([a, a * 2], 1),
    "stack": lambda a: torch.stack([a, -a], 2),
    "split": lambda a: torch.stack(a.split([3, 4], 1)[1].unbind(0)),
    "sum": lambda a: a.sum(),
    "sum_dim": lambda a: a.sum(0),
    "sum_dims_keepdim": lambda a: a.sum((0, 1), keepdim=True),
    "sum_dtype": lambda a: a.sum(1, dtype=F64),
    "prod": lambda a: (a.sign() + 2).prod(1),
    "max": lambda a: a.max(),
    "max_dim": lambda a: a.max(1),
    "min_dim": lambda a: a.min(0, keepdim=True),
    "amax": lambda a: a.amax(1),
    "amin": lambda a: a.amin((0, 1)),
    "argmax": lambda a: a.argmax(),
    "argmax_dim": lambda a: a.argmax(1),
    "argmin_dim": lambda a: a.argmin(0),
    "all_any": lambda a: torch.stack([(a > -4).all(), (a > 2).any(), (a > 0).all(1).any()]),
    "cumsum": lambda a: a.cumsum(1),
    "cumprod": lambda a: (a.sign() + 2).cumprod(0),
    "sort": lambda a: a.sort(1),
    "sort_descending": lambda a: a.sort(0, descending=True)[0],
    "argsort_values": lambda a: a.gather(1, a.argsort(1)),
    "topk_values": lambda a: a.topk(3, 1)[0],
    "topk_smallest_values": lambda a: a.topk(2, 0, largest=False)[0],
    "inplace_add": inplace("add_", 1),
    "inplace_mul": inplace("mul_", 3),
    "inplace_fill": inplace("fill_", 4),
    "inplace_zero": inplace("zero_"),
    "inplace_clamp": inplace("clamp_", -1, 1),
    "setitem_mask": setitem(lambda a: a > 0, lambda a: 0),
    "setitem_column": setitem(lambda a: (slice(None), 1), lambda a: a[:, 2] * 2),
    "setitem_int_index": setitem(lambda a: idx(a, [1, 3]), lambda a: a[0]),
    "index_put_accumulate": lambda a: a.clone().index_put_((idx(a, [0, 0, 2]),), a[:3], accumulate=True),
    "scatter": lambda a: a.clone().scatter(1, idx(a, [[0], [1], [2], [3], [6]]), a[:, :1] * 2),
    "scatter_add": lambda a: a.clone().scatter_add(0, idx(a, [[0, 1, 0, 1, 0, 1, 0]] * 2), a[:2]),
    "index_add": lambda a: a.clone().index_add_(0, idx(a, [4, 4, 1]), a[:3]),
}

BINARY = {
    "add": lambda a, b: a + b,
    "add_broadcast_row": lambda a, b: a + b[0],
    "sub_alpha": lambda a, b: torch.sub(a, b, alpha=2),
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b.abs() + 1),
    "div_floor": lambda a, b: torch.div(a, b.abs() + 1, rounding_mode="floor"),
    "div_trunc": lambda a, b: torch.div(a, b.abs() + 1, rounding_mode="trunc"),
    "floor_divide": lambda a, b: a // (b.abs() + 1),
    "remainder": lambda a, b: a % (b.abs() + 1),
    "fmod": lambda a, b: torch.fmod(a, b.abs() + 1),
    "maximum": lambda a, b: torch.maximum(a, b),
    "minimum": lambda a, b: torch.minimum(a, b),
    "compare": lambda a, b: torch.stack([a == b, a != b, a < b, a <= b, a > b, a >= b]),
    "logical": lambda a, b: torch.stack([a.logical_and(b), a.logical_or(b), a.logical_xor(b), a.logical_not()]),
    "where": lambda a, b: torch.where(a > b, a, b),
    "clamp_tensors": lambda a, b: a.clamp(min=b, max=b + 2),
    "inplace_sub": inplace("sub_", lambda a, b: b),
    "inplace_copy": inplace("copy_", lambda a, b: b[0]),
    "matmul": lambda a, b: a @ b.t(),
    "matmul_batched": lambda a, b: torch.stack([a, b]) @ b.t(),
    "mv": lambda a, b: a.mv(b[0]),
    "dot": lambda a, b: torch.dot(a[0], b[1]),
    "outer": lambda a, b: torch.outer(a[0], b[:, 1]),
    "bmm": lambda a, b: torch.bmm(torch.stack([a, b]), torch.stack([b.t(), a.t()])),
    "einsum": lambda a, b: torch.einsum("ij,kj->ik", a, b),
}

BINARY_FLOAT = {
    "addcmul_addcdiv": lambda a, b: torch.addcdiv(torch.addcmul(a, a, b, value=2), a, b.abs() + 1, value=0.5),
    "logaddexp": lambda a, b: torch.logaddexp(a, b * 10),
    "nan_reductions": lambda a, b: torch.stack([torch.nansum(a.log(), 1), torch.nanmean(b.log(), 0)[:5]]),
    "clamp_out": lambda a, b: torch.clamp(a, -1, 1, out=torch.empty_like(b)),
    "pow": lambda a, b: POS(a) ** b,
    "atan2": lambda a, b: torch.atan2(a, b),
    "isclose": lambda a, b: torch.isclose(a, a + b * 1e-3, rtol=1e-3),
    "addmm": lambda a, b: torch.addmm(b[:, 0], a, b.t(), beta=0.5, alpha=2),
    "mean": lambda a, b: torch.stack([a.mean(), b.mean(1).sum()]),
    "var_std": lambda a, b: torch.stack([a.var(1), a.std(1, correction=0), b.var(1, unbiased=False)]),
    "norm": lambda a, b: torch.stack([a.norm(), b.norm(p=1), a.norm(dim=1).sum()]),
    "logsumexp": lambda a, b: a.logsumexp(1) + b.logsumexp(0).sum(),
}

BINARY_INT = {
    "bitwise": lambda a, b: torch.stack([a & b, a | b, a ^ b, ~a]),
    "shifts": lambda a, b: torch.stack([a << 2, a >> 1]),
}

CASES = (
    [(n, f, 1, FLOATS + HALVES) for n, f in UNARY_FLOAT.items()]
    + [(n, f, 1, FLOATS + INTS) for n, f in UNARY_ANY.items()]
    + [(n, f, 2, FLOATS + INTS) for n, f in BINARY.items()]
    + [(n, f, 2, FLOATS) for n, f in BINARY_FLOAT.items()]
    + [(n, f, 2, INTS + (U8,)) for n, f in BINARY_INT.items()]
)
PARAMS = [
    pytest.param(fn, arity, dtype, layout, id=f"{name}-{str(dtype)[6:]}-{layout}")
    for name, fn, arity, dtypes in CASES
    for dtype in dtypes
    for layout in LAYOUTS
    if not (layout == "expanded" and "inplace" in name)
]


def flat(result):
    """The tensors of a result (a tensor, or a tuple such as max(dim)'s (values, indices))."""
    return list(result) if isinstance(result, tuple) else [result]


def assert_same(got, want, dtype):
    """`got` (from CUDA) equals `want` (from the CPU) in dtype, shape, device and value."""
    assert got.device.type == "cuda", got.device
    assert got.dtype == want.dtype and got.shape == want.shape
    g, w = got.cpu(), want
    if w.dtype in (F16, BF16):
        g, w = g.float(), w.float()
    if w.is_floating_point():
        rtol, atol = TOL.get(dtype if dtype in TOL else w.dtype, TOL[F32])
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(g.numpy(), w.numpy())


@pytest.mark.parametrize("fn, arity, dtype, layout", PARAMS)
def test_gpu_matches_cpu(fn, arity, dtype, layout):
    inputs = [make(dtype, layout, seed) for seed in range(arity)]
    want = flat(fn(*inputs))
    gpu_inputs = [t.cuda() for t in inputs]
    assert gpu_inputs[0].stride() == inputs[0].stride() or layout != "contiguous"
    got = flat(fn(*gpu_inputs))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w, dtype)


@pytest.mark.parametrize("dtype", [F32, F64, I64])
def test_factories_on_the_gpu(dtype):
    cuda = torch.device("cuda")
    for make_ in (
        lambda d: torch.zeros(3, 4, dtype=dtype, device=d),
        lambda d: torch.ones(2, 5, dtype=dtype, device=d),
        lambda d: torch.full((4,), 7, dtype=dtype, device=d),
        lambda d: torch.arange(2, 17, 3, dtype=dtype, device=d),
        lambda d: torch.eye(3, 5, dtype=dtype, device=d),
        lambda d: torch.linspace(-1, 1, 9, device=d).to(dtype),
        lambda d: torch.zeros_like(torch.empty(2, 3, dtype=dtype, device=d)),
    ):
        assert_same(make_(cuda), make_("cpu"), dtype)


@pytest.mark.parametrize("dtype", [F32, F64, F16, BF16, I64])
def test_linspace_on_the_gpu_is_the_cpus_bit_for_bit(dtype):
    # the same math/ formula on both devices (PyTorch's, see tests/tensor/test_factories.py)
    for start, end, steps in ((-300, 300, 2001), (3, -7, 333), (-5.5, 17.25, 77), (2.5, 2.5, 1)):
        got = torch.linspace(start, end, steps, dtype=dtype, device="cuda")
        assert torch.equal(got.cpu(), torch.linspace(start, end, steps, dtype=dtype))


def test_random_on_the_gpu():
    torch.manual_seed(3)
    a = torch.rand(1000, device="cuda")
    torch.manual_seed(3)
    b = torch.rand(1000, device="cuda")
    assert a.is_cuda and torch.equal(a.cpu(), b.cpu()), "manual_seed makes CUDA streams reproducible"
    assert 0 <= a.min().item() and a.max().item() < 1 and abs(a.mean().item() - 0.5) < 0.05
    n = torch.randn(100_000, device="cuda", dtype=F64)
    assert abs(n.mean().item()) < 0.02 and abs(n.std().item() - 1) < 0.02
    r = torch.randint(3, 9, (1000,), device="cuda")
    assert r.dtype == I64 and r.min().item() == 3 and r.max().item() == 8
    p = torch.randperm(50, device="cuda")
    assert sorted(p.cpu().tolist()) == list(range(50))
    u = torch.empty(1000, device="cuda").uniform_(-2, -1)
    assert -2 <= u.min().item() and u.max().item() < -1


def test_autograd_on_the_gpu_matches_the_cpu():
    x = make(F64, "transposed", 0)
    w = make(F64, "contiguous", 1)
    grads = []
    for device in ("cpu", "cuda"):
        xd = x.to(device).detach().requires_grad_()  # a leaf on each device
        wd = w.to(device).detach().requires_grad_()
        loss = (torch.tanh(xd @ wd.t()).softmax(1) * (xd.exp() + wd).sum(1)).sum()
        loss.backward()
        assert xd.grad.device.type == device
        grads.append((loss.item(), xd.grad.cpu(), wd.grad.cpu()))
    (l0, gx0, gw0), (l1, gx1, gw1) = grads
    assert l1 == pytest.approx(l0, rel=1e-12)
    np.testing.assert_allclose(gx1.numpy(), gx0.numpy(), rtol=1e-10)
    np.testing.assert_allclose(gw1.numpy(), gw0.numpy(), rtol=1e-10)


def test_large_inputs_cross_blocks_and_grids():
    """Sizes past one block and one grid row: reductions, scans, sorts, copies."""
    a = torch.from_numpy(np.random.default_rng(0).normal(size=(3, 1_000_003)))
    c = a.cuda()
    np.testing.assert_allclose(c.sum(1).cpu().numpy(), a.sum(1).numpy(), rtol=1e-10)
    np.testing.assert_allclose(c.t().sum(1).cpu().numpy(), a.t().sum(1).numpy(), rtol=1e-10)
    assert c.max().item() == a.max().item() and c.argmin().item() == a.argmin().item()
    np.testing.assert_allclose(c.cumsum(1).cpu().numpy(), a.cumsum(1).numpy(), rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(c[0, :5000].sort()[0].cpu().numpy(), np.sort(a[0, :5000].numpy()))
    np.testing.assert_array_equal(c.t().contiguous().cpu().numpy(), a.t().contiguous().numpy())
    assert c.to(F32).sum().item() == pytest.approx(a.sum().item(), abs=1e-2)


@pytest.mark.parametrize(
    "fn",
    [
        lambda t: t.sum(0),  # a thread per output, the reduction split over blocks
        lambda t: t.sum(1),  # a block per output
        lambda t: t[:, ::3].sum(),  # a full reduction of a strided view, split over blocks
        lambda t: t.transpose(0, 1).reshape(-1, 4, 50).sum((0, 2)),
        lambda t: t.amax(0),
        lambda t: t.amin(),
        lambda t: t.max(0),
        lambda t: t.argmax(),
        lambda t: t.argmin(1),
        lambda t: (t > 3).any(),
        lambda t: (t > -9).all(0),
        lambda t: (t * 1e-3 + 1).prod(0),
        lambda t: t.half().sum(0),
        lambda t: t.cumsum(0),  # a scan in chunks, lines with a stride
        lambda t: t.reshape(-1).cumsum(0),  # one long line in chunks
        lambda t: (t * 1e-4 + 1).reshape(-1)[:100_000].cumprod(0),
    ],
)
def test_reductions_and_scans_of_every_shape_class(fn):
    a = torch.from_numpy(np.random.default_rng(1).normal(size=(20_000, 200)))
    want, got = flat(fn(a)), flat(fn(a.cuda()))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        if w.is_floating_point():
            np.testing.assert_allclose(g.cpu().double().numpy(), w.double().numpy(), rtol=1e-6, atol=1e-6)
        else:
            np.testing.assert_array_equal(g.cpu().numpy(), w.numpy())


def test_argmax_keeps_the_first_of_ties_and_nan():
    a = torch.zeros(3, 100_000)
    a[0, 77_777] = a[0, 99_999] = 5
    a[1, 50_000] = float("nan")
    a[1, 60_000] = float("nan")
    a[2, 1] = -1
    got = a.cuda().max(1)
    assert got.indices.cpu().tolist() == [77_777, 50_000, 0]
    assert a.cuda().argmin(1).cpu().tolist() == [0, 50_000, 1]


def test_errors_on_the_gpu():
    a = torch.ones(3, 4, device="cuda")
    with pytest.raises(IndexError):
        a[5]
    with pytest.raises(RuntimeError, match="same device"):
        a.index_select(0, torch.tensor([0]))
    with pytest.raises(RuntimeError):
        a @ torch.ones(5, 2, device="cuda")
    with pytest.raises(TypeError, match="cuda"):
        a.numpy()
    assert a.tolist() == [[1.0] * 4] * 3 and a[1, 2].item() == 1.0


@pytest.mark.parametrize("dtype", HALVES)
def test_mul_div_by_a_python_number_round_once_on_the_gpu(dtype):
    # as on the CPU (tests/tensor/test_half.py): the scalar is read at float32, the result rounded once
    x = torch.arange(-2000, 2000, dtype=F64).mul(0.37).to(dtype)
    g = x.cuda()
    for s in (0.1, 1 / 3, 7.77):
        for got, want in (
            (g * s, x * s),
            (g / s, x / s),
            (g // s, x // s),
            (g[::3] * s, x[::3] * s),
            (g.clone().div_(torch.tensor(s)), x.clone().div_(torch.tensor(s))),
        ):
            assert got.device.type == "cuda" and got.dtype == dtype
            assert torch.equal(got.cpu(), want)
