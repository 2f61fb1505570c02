"""The GPU beyond the op table: factories, random streams, autograd, inputs past one block and one
grid, ties, errors and 16-bit scalars, against the same calls on the CPU. Each op of the op table
(tests/opinfo.py) runs on the GPU in tests/tensor/test_ops.py and tests/autograd/test_ops_grad.py, as
their `device="cuda"` instances. Skips, with one reason, where no GPU is present.
"""

from __future__ import annotations

import numpy as np
import pytest
from opinfo import DEVICE_TOL, make_tensor

import torch

pytestmark = pytest.mark.cuda

F32, F64, F16, BF16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
C64, C128 = torch.complex64, torch.complex128
I64 = torch.int64
HALVES = (F16, BF16)


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
    if w.is_floating_point() or w.is_complex():
        real = w.real.dtype if w.is_complex() else w.dtype
        rtol, atol = DEVICE_TOL.get(dtype, DEVICE_TOL.get(real, DEVICE_TOL[F32]))
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(g.numpy(), w.numpy())


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


@pytest.mark.parametrize("dtype", [torch.int8, torch.int32, I64, F16, F32])
def test_arange_on_the_gpu_is_the_cpus(dtype):
    # integer dtypes step in int64 on both devices (fractional ends and steps truncated as upstream's)
    for args in ((0, 5, 1.5), (-2.5, 3), (0.5, 3.5, 1.0), (0, 100, 7)):
        assert torch.equal(torch.arange(*args, dtype=dtype, device="cuda").cpu(), torch.arange(*args, dtype=dtype))
    assert torch.arange(2**60, 2**60 + 3, device="cuda").tolist() == [2**60, 2**60 + 1, 2**60 + 2]


def test_clamp_of_a_half_tensor_reads_number_bounds_at_float_on_the_gpu():
    # upstream's CUDA kernel reads the bounds at opmath (float): a bound past float16's range is no bound
    h = torch.tensor([1.0, -2.0], dtype=F16, device="cuda")
    assert h.clamp(max=1e5).tolist() == [1.0, -2.0]
    assert h.clamp(min=-1e5, max=0.5).tolist() == [0.5, -2.0]


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
    x = make_tensor((5, 7), F64, "cpu", "transposed", seed=0)
    w = make_tensor((5, 7), F64, "cpu", seed=1)
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


@pytest.mark.parametrize("dtype", [F32, F16])
def test_dropout_mask_on_the_gpu_is_the_cpus(dtype):
    """native_dropout draws its mask from Philox by element index: one seed, the same mask on both devices."""
    x = torch.randn(3000, 7, dtype=dtype)
    torch.manual_seed(5)
    out, mask = torch.native_dropout(x, 0.3, True)
    torch.manual_seed(5)
    out_cuda, mask_cuda = torch.native_dropout(x.cuda(), 0.3, True)
    assert torch.equal(mask_cuda.cpu(), mask)
    assert_same(out_cuda, out, dtype)


LINALG_CALLS = {
    "solve": lambda A, B: torch.linalg.solve(A, B),
    "inv": lambda A, B: torch.linalg.inv(A),
    "det": lambda A, B: torch.linalg.det(A),
    "cholesky": lambda A, B: torch.linalg.cholesky(A @ A.mH + 4 * torch.eye(4, dtype=A.dtype, device=A.device)),
    "qr": lambda A, B: torch.linalg.qr(A),
    "eigh": lambda A, B: torch.linalg.eigvalsh(A + A.mH),
    "eigvals": lambda A, B: torch.linalg.eigvals(A),
    "svdvals": lambda A, B: torch.linalg.svdvals(A),
    "pinv": lambda A, B: torch.linalg.pinv(A),
    "lu_factor": lambda A, B: torch.linalg.lu_factor(A),
    "solve_triangular": lambda A, B: torch.linalg.solve_triangular(
        A.triu() + 4 * torch.eye(4, device=A.device, dtype=A.dtype), B, upper=True
    ),
    "lstsq": lambda A, B: torch.linalg.lstsq(A, B, driver="gels").solution,
    "ldl": lambda A, B: torch.linalg.ldl_solve(*torch.linalg.ldl_factor(A + A.mH, hermitian=True), B, hermitian=True),
}


@pytest.mark.parametrize("name", sorted(LINALG_CALLS))
@pytest.mark.parametrize("dtype", [F32, F64, C64, C128])
def test_linalg_on_the_gpu_matches_the_cpu(name, dtype):
    """torch.linalg's kernels (THC/LinearAlgebraKernels.cu) on a batch give the CPU's results, on the GPU,
    for real and complex matrices."""
    rng = np.random.default_rng(0)
    A = torch.from_numpy(rng.standard_normal((3, 4, 4))).to(dtype) + 2 * torch.eye(4, dtype=dtype)
    B = torch.from_numpy(rng.standard_normal((3, 4, 2))).to(dtype)
    if dtype.is_complex:
        A = A + 1j * torch.from_numpy(rng.standard_normal((3, 4, 4))).to(dtype)
    want = LINALG_CALLS[name](A, B)
    got = LINALG_CALLS[name](A.cuda(), B.cuda())
    for g, w in zip(flat(got), flat(want)):
        assert_same(g, w, dtype)


SPECIAL_CALLS = {
    "i0": lambda x: torch.special.i0(x),
    "i1e": lambda x: torch.special.i1e(x),
    "k0": lambda x: torch.special.modified_bessel_k0(x.abs()),
    "k1e": lambda x: torch.special.scaled_modified_bessel_k1(x.abs()),
    "j0": lambda x: torch.special.bessel_j0(x),
    "y1": lambda x: torch.special.bessel_y1(x.abs()),
    "erfcx": lambda x: torch.special.erfcx(x),
    "airy_ai": lambda x: torch.special.airy_ai(x),
    "ndtri": lambda x: torch.special.ndtri(torch.sigmoid(x)),
    "zeta": lambda x: torch.special.zeta(x.abs() + 1.5, 2.0),
    "gammainc": lambda x: torch.special.gammainc(x.abs() + 0.5, 3.0),
    "chebyshev_t": lambda x: torch.special.chebyshev_polynomial_t(x / 40, 9),
    "laguerre": lambda x: torch.special.laguerre_polynomial_l(x, 5),
    "polygamma": lambda x: torch.special.polygamma(3, x.abs() + 0.25),
}


@pytest.mark.parametrize("name", sorted(SPECIAL_CALLS))
@pytest.mark.parametrize("dtype", [F32, F64])
def test_special_functions_on_the_gpu_match_the_cpu(name, dtype):
    """The special-function family (THC/SpecialKernels.cu: math/Special.h in double) gives the CPU's values."""
    x = torch.linspace(-40, 40, 1001, dtype=dtype)
    want = SPECIAL_CALLS[name](x)
    assert_same(SPECIAL_CALLS[name](x.cuda()), want, dtype)


@pytest.mark.parametrize("dtype", [F32, F64])
def test_gamma_samples_on_the_gpu_match_the_cpu(dtype):
    """The same Philox streams on both devices (math/Philox.h's random_gamma): one seed, the same samples."""
    alpha = torch.tensor([0.05, 0.5, 1.0, 3.0, 250.0], dtype=dtype).repeat(200)
    cpu = torch._standard_gamma(alpha, generator=torch.Generator().manual_seed(7))
    gpu = torch._standard_gamma(alpha.cuda(), generator=torch.Generator(device="cuda").manual_seed(7))
    assert_same(gpu, cpu, dtype)


def test_poisson_samples_on_the_gpu_match_the_cpu():
    """torch.poisson draws the same Philox streams on both devices: one seed, the same samples."""
    rate = torch.tensor([0.0, 0.7, 5.0, 10.0, 120.0]).repeat(200)
    cpu = torch.poisson(rate, generator=torch.Generator().manual_seed(3))
    gpu = torch.poisson(rate.cuda(), generator=torch.Generator(device="cuda").manual_seed(3))
    assert_same(gpu, cpu, F32)


# ---- sorting on CUB (THC/SortKernels.cu) and the order statistics over it ----------------------

SORT_DTYPES = [F32, F64, F16, BF16, I64, torch.bool]


def ties_and_specials(shape, dtype, seed=0):
    """A few distinct values (long runs of ties), with NaN, -NaN, +-0.0 and +-inf among floating ones."""
    rng = np.random.default_rng(seed)
    if dtype == torch.bool:
        return torch.from_numpy(rng.integers(0, 2, shape).astype(bool))
    a = rng.integers(-3, 4, shape).astype(np.float64)
    if dtype.is_floating_point:
        special = rng.random(shape) < 0.3
        a[special] = rng.choice(np.array([np.nan, -np.nan, 0.0, -0.0, np.inf, -np.inf]), int(special.sum()))
    return torch.from_numpy(a).to(dtype)


def assert_same_order(got, want):
    """(values, indices) from CUDA are the CPU's exactly: the same positions, hence the same values, NaNs
    and zero signs."""
    (gv, gi), (wv, wi) = [t.cpu() for t in got], want
    assert got[0].device.type == "cuda" and gi.dtype == wi.dtype == I64 and gv.dtype == wv.dtype
    assert gv.shape == wv.shape and gi.shape == wi.shape
    np.testing.assert_array_equal(gi.numpy(), wi.numpy())
    g, w = (v.float().numpy() if v.dtype in HALVES else v.numpy() for v in (gv, wv))
    np.testing.assert_array_equal(g, w)  # NaN matches NaN
    np.testing.assert_array_equal(np.signbit(g), np.signbit(w))


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", SORT_DTYPES)
def test_sort_matches_the_cpu_along_every_dim(dtype, descending):
    a = ties_and_specials((6, 7, 300), dtype)
    for x in (a, a.transpose(0, 2), a[:, ::2, 1::3]):  # contiguous and not
        c = x.cuda()
        for dim in (0, 1, 2, -1):
            want = torch.sort(x, dim=dim, descending=descending, stable=True)
            assert_same_order(torch.sort(c, dim=dim, descending=descending, stable=True), want)
            # argsort and topk need not be stable: their values are the sort's
            assert_same(c.gather(dim, c.argsort(dim=dim, descending=descending)), want.values, dtype)
            if dtype != torch.bool:
                k = min(5, x.shape[dim])
                top = torch.topk(c, k, dim=dim, largest=descending)
                assert_same(top.values, want.values.narrow(dim if dim >= 0 else 2, 0, k), dtype)
                assert_same(c.gather(dim, top.indices), top.values.cpu(), dtype)
        assert_same(torch.msort(c), torch.msort(x), dtype)


@pytest.mark.parametrize("dtype", SORT_DTYPES)
def test_sort_one_long_line_and_many_short_lines(dtype):
    # one line: DeviceRadixSort; many: DeviceSegmentedSort
    long, short = ties_and_specials((1_000_003,), dtype, seed=2), ties_and_specials((100_000, 9), dtype, seed=3)
    for descending in (False, True):
        want = long.sort(descending=descending, stable=True)
        assert_same_order(long.cuda().sort(descending=descending, stable=True), want)
        for dim in (0, 1):
            want = short.sort(dim=dim, descending=descending, stable=True)
            assert_same_order(short.cuda().sort(dim=dim, descending=descending, stable=True), want)


def test_sort_on_the_gpu_is_numpys_stable_sort():
    a = np.random.default_rng(4).integers(0, 1000, (2, 1_200_000)).astype(np.float32)
    values, indices = torch.from_numpy(a).cuda().sort(dim=1, stable=True)
    np.testing.assert_array_equal(indices.cpu().numpy(), np.argsort(a, axis=1, kind="stable"))
    np.testing.assert_array_equal(values.cpu().numpy(), np.sort(a, axis=1))
    values, indices = torch.from_numpy(a[0]).cuda().sort(descending=True, stable=True)
    np.testing.assert_array_equal(indices.cpu().numpy(), np.argsort(-a[0], kind="stable"))


@pytest.mark.parametrize("dtype", SORT_DTYPES)
def test_order_statistics_match_the_cpu(dtype):
    a = ties_and_specials((5, 9, 40), dtype, seed=1)
    c = a.cuda()
    if dtype != torch.bool:
        calls = [lambda t, d: t.median(d), lambda t, d: t.kthvalue(3, d), lambda t, d: t.kthvalue(5, d, keepdim=True)]
        if dtype.is_floating_point:
            calls.append(lambda t, d: t.nanmedian(d))
        for dim in (0, 1, 2):
            for call in calls:
                assert_same_order(call(c, dim), call(a, dim))
        assert_same(c.median(), a.median(), dtype)
    for kwargs in ({}, {"dim": 1}):
        got = torch.unique(c, return_inverse=True, return_counts=True, **kwargs)
        for g, w in zip(got, torch.unique(a, return_inverse=True, return_counts=True, **kwargs)):
            assert_same(g, w, dtype)


def test_sort_refuses_complex_on_the_gpu():
    z = torch.tensor([1 + 2j, -1j], device="cuda")
    for call in (torch.sort, torch.argsort, lambda t: torch.topk(t, 1)):
        with pytest.raises(RuntimeError, match="does not support complex"):
            call(z)


@pytest.mark.parametrize("dtype", [F32, F64, F16, BF16, I64, torch.complex64])
def test_cumsum_cumprod_match_the_cpu(dtype):
    # integer values and signs: every sum and product is exact in any order, so CUB's scans (lines along
    # the last dim) and the strided kernels give the CPU's bits
    rng = np.random.default_rng(5)
    for shape, dim in (
        ((2_000_003,), 0),  # one line: DeviceScan::InclusiveScan
        ((2, 1_500_000), 1),  # long lines: InclusiveScanByKey
        ((3_000, 77), 1),  # many short lines
        ((3_000, 77), 0),  # strided lines (inner > 1)
        ((5, 1_200_000), 0),
        ((7, 20, 33), 0),
        ((7, 20, 33), 1),
        ((7, 20, 33), 2),
    ):
        ints, signs = rng.integers(-3, 4, shape), rng.choice([-1, 1], shape)
        if dtype.is_complex:
            ints = ints + 1j * rng.integers(-3, 4, shape)
            signs = np.array([1, 1j, -1, -1j])[rng.integers(0, 4, shape)]
        x, s = torch.from_numpy(ints).to(dtype), torch.from_numpy(signs).to(dtype)
        assert_same(x.cuda().cumsum(dim), x.cumsum(dim), dtype)
        assert_same(s.cuda().cumprod(dim), s.cumprod(dim), dtype)
        assert_same(x.cuda()[..., ::2].cumsum(dim), x[..., ::2].cumsum(dim), dtype)  # not contiguous


@pytest.mark.parametrize("shape", [(0,), (7,), (3, 0, 2), (33, 65), (4, 5, 6, 7), (1 << 21,)])
def test_nonzero_and_masked_select_on_the_device_match_the_cpu(shape):
    a = torch.from_numpy(np.random.default_rng(1).integers(-2, 3, shape))
    c = a.cuda()
    assert torch.equal(c.nonzero().cpu(), a.nonzero())
    assert torch.equal(torch.masked_select(c, c > 0).cpu(), torch.masked_select(a, a > 0))
    for got, want in zip(c.nonzero(as_tuple=True), a.nonzero(as_tuple=True)):
        assert torch.equal(got.cpu(), want)
    assert torch.equal(torch.tensor(3, device="cuda").nonzero().cpu(), torch.tensor(3).nonzero())
    raw = torch.tensor([0, 7, 0, 255], dtype=torch.uint8).view(torch.bool)  # any nonzero byte is true
    assert raw.cuda().nonzero().flatten().tolist() == [1, 3]


def test_float_to_uint64_and_expanded_fill_match_the_cpu():
    # the cast kernel is shared (th::convert): a float past int64 converts exactly, a negative one wraps
    for dtype in (F32, F64):
        cpu = torch.tensor([1e19, 2.0**63, -1.0, 3.5], dtype=dtype)
        assert cpu.cuda().to(torch.uint64).cpu().tolist() == cpu.to(torch.uint64).tolist()
    base = torch.zeros(3, device="cuda")
    base.expand(2, 3).fill_(7)  # fill_ writes into an expanded view, one element per location
    assert base.cpu().tolist() == [7.0, 7.0, 7.0]
    with pytest.raises(RuntimeError, match="single memory location"):
        torch.zeros(3, device="cuda").expand(2, 3)[:, 0] = 1
