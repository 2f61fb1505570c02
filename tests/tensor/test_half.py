"""float16 and bfloat16: storage types that compute in float32 and round to nearest-even.

Oracles: NumPy's float16 (conversions, bit for bit), a NumPy model of bfloat16 rounding (the upper
16 bits of a float32, rounded to nearest-even), and float32 NumPy math rounded to the 16-bit type
for the ops. Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from opinfo import EPS, bf16_round, round_to

import torch

HALVES = (torch.float16, torch.bfloat16)


def as_f32(t: torch.Tensor) -> np.ndarray:
    return t.float().numpy()


def sample(dtype, shape, lo=-3.0, hi=3.0, seed=0):
    """A tensor of `dtype` and the same (exactly representable) values as float32."""
    x = round_to(dtype, np.random.default_rng(seed).uniform(lo, hi, size=shape))
    return torch.from_numpy(x.copy()).to(dtype), x


class TestDtypeObjects:
    def test_names_sizes_and_aliases(self):
        assert torch.half is torch.float16 and repr(torch.float16) == "torch.float16"
        assert repr(torch.bfloat16) == "torch.bfloat16"
        for d in HALVES:
            assert d.is_floating_point and d.itemsize == 2 and d.is_signed
            assert torch.empty(3, dtype=d).element_size() == 2

    def test_finfo(self):
        f = torch.finfo(torch.float16)
        assert (f.bits, f.eps, f.max, f.min, f.tiny) == (16, 2.0**-10, 65504.0, -65504.0, 2.0**-14)
        assert f.resolution == 0.001
        b = torch.finfo(torch.bfloat16)
        assert (b.bits, b.eps, b.tiny, b.resolution) == (16, 2.0**-7, 2.0**-126, 0.01)
        assert b.max == float.fromhex("0x1.fep127") == -b.min

    @pytest.mark.parametrize(
        "a, b, want",
        [
            (torch.float16, torch.float16, torch.float16),
            (torch.float16, torch.bfloat16, torch.float32),
            (torch.float16, torch.float32, torch.float32),
            (torch.bfloat16, torch.float64, torch.float64),
            (torch.float16, torch.int64, torch.float16),
            (torch.bfloat16, torch.uint8, torch.bfloat16),
            (torch.bfloat16, torch.bool, torch.bfloat16),
        ],
    )
    def test_promote_types(self, a, b, want):
        assert torch.promote_types(a, b) == want and torch.promote_types(b, a) == want

    @pytest.mark.parametrize("dtype", HALVES)
    def test_promotion_in_ops(self, dtype):
        h = torch.ones(3, dtype=dtype)
        assert (h * 2.5).dtype == dtype  # Python numbers are weak
        assert (h + torch.tensor(2.0, dtype=torch.float64)).dtype == dtype  # so are 0-dim tensors
        assert (h + torch.ones(3, dtype=torch.int64)).dtype == dtype
        assert (h + torch.ones(3)).dtype == torch.float32
        assert (torch.ones(3, dtype=torch.int32) + torch.ones(3, dtype=dtype)).dtype == dtype
        assert torch.can_cast(dtype, torch.float32) and not torch.can_cast(dtype, torch.int64)


class TestConversions:
    def test_every_float16_converts_to_float32_exactly(self):
        bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
        h = bits.view(np.float16)
        got = torch.from_numpy(h.copy()).float().numpy()
        np.testing.assert_array_equal(got, h.astype(np.float32))  # NaNs compare equal here

    @pytest.mark.filterwarnings("ignore:overflow encountered in cast")
    def test_float32_rounds_to_float16_like_numpy(self):
        rng = np.random.default_rng(0)
        x = np.concatenate(
            [
                rng.normal(scale=10.0 ** rng.integers(-9, 6, size=20000), size=20000),
                [0.0, -0.0, 65504, 65519.99, 65520, 1e6, -1e6, 2.0**-24, 2.0**-25, 2.0**-25 * 1.0001, 2.0**-14],
                [1 + 2.0**-11, 1 + 3 * 2.0**-11, np.inf, -np.inf, np.nan],  # ties round to even
            ]
        ).astype(np.float32)
        got = torch.from_numpy(x).half().numpy()
        np.testing.assert_array_equal(got, x.astype(np.float16))
        want_bits = x.astype(np.float16).view(np.uint16)
        finite = np.isfinite(x)
        np.testing.assert_array_equal(got.view(np.uint16)[finite], want_bits[finite])  # signed zeros too

    def test_every_bfloat16_round_trips(self):
        patterns = (np.arange(1 << 16, dtype=np.uint32) << 16).view(np.float32)
        t = torch.from_numpy(patterns.copy()).bfloat16()
        np.testing.assert_array_equal(as_f32(t), patterns)

    def test_float32_rounds_to_bfloat16_to_nearest_even(self):
        rng = np.random.default_rng(1)
        x = rng.normal(scale=10.0 ** rng.integers(-30, 30, size=20000), size=20000).astype(np.float32)
        x = np.concatenate([x, np.float32([1 + 2.0**-8, 1 + 3 * 2.0**-8, 3.4e38, -np.inf, np.nan])])
        np.testing.assert_array_equal(as_f32(torch.from_numpy(x).bfloat16()), bf16_round(x))

    @pytest.mark.filterwarnings("ignore:overflow encountered in cast")
    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.floats(width=32, allow_nan=False), min_size=1, max_size=40))
    def test_property_rounding(self, values):
        x = np.array(values, dtype=np.float32)
        np.testing.assert_array_equal(torch.from_numpy(x).half().numpy(), x.astype(np.float16))
        np.testing.assert_array_equal(as_f32(torch.from_numpy(x).bfloat16()), bf16_round(x))

    def test_between_the_16_bit_types_and_integers(self):
        h = torch.tensor([1.5, -2.5, 300.0, 70000.0], dtype=torch.float32).half()
        assert h.tolist() == [1.5, -2.5, 300.0, math.inf]
        assert h.bfloat16().tolist() == [1.5, -2.5, 300.0, math.inf]
        assert torch.tensor([257, -3], dtype=torch.int64).bfloat16().tolist() == [256.0, -3.0]
        assert torch.tensor([1.75, -2.5], dtype=torch.float16).to(torch.int64).tolist() == [1, -2]
        assert torch.tensor([0.0, 0.5], dtype=torch.bfloat16).bool().tolist() == [False, True]

    def test_numpy_interop(self):
        a = np.array([1.0, 2.5], dtype=np.float16)
        t = torch.from_numpy(a)
        assert t.dtype == torch.float16
        t[0] = 7
        assert a[0] == 7  # shares memory
        assert t.numpy().dtype == np.float16 and np.asarray(t).dtype == np.float16
        b = torch.ones(2, dtype=torch.bfloat16)
        with pytest.raises(TypeError, match="BFloat16"):
            b.numpy()
        assert b.tolist() == [1.0, 1.0] and b[0].item() == 1.0 and isinstance(b[0].item(), float)

    def test_creation(self):
        assert torch.tensor([1.5, 2], dtype=torch.bfloat16).tolist() == [1.5, 2.0]
        assert torch.zeros(2, 3, dtype=torch.float16).dtype == torch.float16
        assert torch.full((2,), 0.1, dtype=torch.float16).tolist() == [float(np.float16(0.1))] * 2
        assert torch.arange(0, 3, dtype=torch.bfloat16).tolist() == [0.0, 1.0, 2.0]
        assert torch.linspace(0, 1, 5, dtype=torch.float16).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
        b = torch.ones(2, dtype=torch.bfloat16)
        assert torch.as_tensor(b) is b and torch.as_tensor([1.5], dtype=torch.bfloat16).dtype == torch.bfloat16

    def test_to_signatures_and_type(self):
        t = torch.ones(2, 3)
        h = torch.zeros(1, dtype=torch.float16)
        assert t.to(h).dtype == torch.float16 and t.to(h, copy=True).dtype == torch.float16
        assert t.to("cpu", torch.bfloat16).dtype == torch.bfloat16
        assert t.to(torch.float32) is t and t.to(torch.float32, copy=True) is not t
        assert t.half().type() == "torch.HalfTensor" and t.bfloat16().type() == "torch.BFloat16Tensor"
        assert t.type(torch.float16).dtype == torch.float16 and t.type("torch.DoubleTensor").dtype == torch.float64
        x = torch.ones(2, requires_grad=True)
        x.to(h).sum().backward()
        assert x.grad.dtype == torch.float32 and x.grad.tolist() == [1.0, 1.0]

    def test_default_dtype(self):
        old = torch.get_default_dtype()
        try:
            for d in HALVES:
                torch.set_default_dtype(d)
                assert torch.tensor([1.5]).dtype == d and torch.ones(2).dtype == d
                assert torch.arange(0.0, 2.0).dtype == d and (torch.ones(2, dtype=torch.int64) / 2).dtype == d
        finally:
            torch.set_default_dtype(old)

    def test_repr(self):
        assert repr(torch.tensor([1.5, 2.0], dtype=torch.float16)) == "tensor([1.5000, 2.0000], dtype=torch.float16)"
        assert repr(torch.tensor([1.0, 2.0], dtype=torch.bfloat16)) == "tensor([1., 2.], dtype=torch.bfloat16)"


class TestVectorizedPaths:
    """Contiguous 16-bit data goes through the CPU's conversion instructions (F16C, AVX-512) and ops
    widen it to float a chunk at a time: lengths around the vector widths and the chunk size, a sweep
    of float32 bit patterns, and each CPU capability (TH_CPU_CAPABILITY caps ours; upstream ignores it)."""

    @pytest.mark.parametrize("dtype", HALVES)
    @pytest.mark.parametrize("n", [1, 7, 8, 9, 15, 16, 17, 31, 33, 255, 256, 257, 513, 4099])
    def test_lengths(self, dtype, n):
        t, x = sample(dtype, (n,), seed=n)
        u, y = sample(dtype, (n,), seed=n + 1)
        np.testing.assert_array_equal(t.float().numpy(), x)
        np.testing.assert_array_equal(as_f32(torch.from_numpy(x * 1.001).to(dtype)), round_to(dtype, x * 1.001))
        np.testing.assert_array_equal(as_f32(t + u), round_to(dtype, x + y))
        np.testing.assert_array_equal((t < u).numpy(), x < y)
        assert_close_rounded(dtype, torch.exp(t), np.exp(x))
        assert_close_rounded(dtype, torch.tanh(t), np.tanh(x))

    @pytest.mark.parametrize("dtype", HALVES)
    @pytest.mark.parametrize("shape", [(3001,), (5, 2500), (2500, 5)])
    def test_sums_accumulate_in_float_and_round_once(self, dtype, shape):
        t, x = sample(dtype, shape, 0, 1, seed=3)
        x64 = x.astype(np.float64)
        for view, ref in ((t, x64), (t.flip(0), x64[::-1]), (t[::2], x64[::2])):
            for dim in (None, 0, -1):
                got = view.sum() if dim is None else view.sum(dim)
                assert_close_rounded(dtype, got, np.float32(ref.sum() if dim is None else ref.sum(dim)))
            assert_close_rounded(dtype, view.mean(0), np.float32(ref.mean(0)))

    @pytest.mark.filterwarnings("ignore:overflow encountered in cast")
    def test_float32_bit_patterns_sweep(self):
        x = np.arange(0, 1 << 32, 4099, dtype=np.uint64).astype(np.uint32).view(np.float32)
        for dtype, want in ((torch.float16, x.astype(np.float16).astype(np.float32)), (torch.bfloat16, bf16_round(x))):
            got = as_f32(torch.from_numpy(x).to(dtype))
            nan = np.isnan(x)
            assert np.isnan(got[nan]).all()
            np.testing.assert_array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))

    @pytest.mark.parametrize("capability", ["default", "avx2", "avx512"])
    def test_each_cpu_capability(self, capability):
        script = textwrap.dedent("""
            import numpy as np, torch
            x = np.arange(0, 1 << 32, 65537, dtype=np.uint64).astype(np.uint32).view(np.float32)
            x = x[np.isfinite(x)]
            with np.errstate(over="ignore"):
                want = x.astype(np.float16)
            got = torch.from_numpy(x).half()
            assert (got.numpy().view(np.uint16) == want.view(np.uint16)).all()
            h = (np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)).view(np.float16)
            np.testing.assert_array_equal(torch.from_numpy(h.copy()).float().numpy(), h.astype(np.float32))
            b = torch.from_numpy(np.float32([1 + 2.0**-8, 1 + 3 * 2.0**-8, -2.5, 3.4e38] * 5)).bfloat16()
            assert b.float().tolist() == [1.0, 1 + 2.0**-6, -2.5, float("inf")] * 5
            assert (b + b).float().tolist() == [2.0, 2 + 2.0**-5, -5.0, float("inf")] * 5
            rng = np.random.default_rng(0)
            u, v = rng.uniform(-4, 4, (2, 1003)).astype(np.float16)
            tu, tv = torch.from_numpy(u), torch.from_numpy(v)
            with np.errstate(all="ignore"):  # NumPy's float16 ops compute in float32 and round once
                for got, want in ((tu + tv, u + v), (tu - tv, u - v), (tu * tv, u * v), (tu / tv, u / v),
                                  (tu * 0.1, (u.astype(np.float32) * np.float32(0.1)).astype(np.float16))):
                    assert (got.numpy().view(np.uint16) == want.view(np.uint16)).all()
            ref = u.astype(np.float64).sum()
            assert abs(tu.sum().item() - ref) <= abs(ref) * 2.0**-10, (tu.sum().item(), ref)
        """)
        env = {**os.environ, "TH_CPU_CAPABILITY": capability}
        p = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
        assert p.returncode == 0, p.stderr[-2000:]


def assert_same_bits(got: torch.Tensor, want: np.ndarray):
    """got (a 16-bit tensor) holds exactly the float32 values `want` (signed zeros told apart; any NaN)."""
    g = np.ascontiguousarray(as_f32(got))
    w = np.ascontiguousarray(np.broadcast_to(np.float32(want), g.shape))
    nan = np.isnan(w)
    np.testing.assert_array_equal(np.isnan(g), nan)
    np.testing.assert_array_equal(g[~nan].view(np.uint32), w[~nan].view(np.uint32))


def special_sample(dtype, n, seed):
    """n values of `dtype` (as float32 too) mixing ordinary numbers with 0, -0, +-inf, NaN, the largest finite
    value and the smallest subnormal, so sums overflow, quotients divide by zero and products underflow."""
    rng = np.random.default_rng(seed)
    fi = torch.finfo(dtype)
    specials = np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, fi.max, -fi.max, fi.tiny * fi.eps, 1.0, -3.0])
    x = rng.uniform(-4.0, 4.0, n).astype(np.float32)
    pick = rng.random(n) < 0.25
    x[pick] = rng.choice(specials, int(pick.sum()))
    x = round_to(dtype, x)
    return torch.from_numpy(x.copy()).to(dtype), x


@pytest.mark.parametrize("dtype", HALVES)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
class TestArithmeticRoundsOnce:
    """add/sub/mul/div of 16-bit tensors are the float32 result rounded once, bit for bit, on every layout:
    contiguous (the fused vectorized loop on CPUs with conversion instructions), a Python number or one-element
    tensor on either side, broadcast rows and columns, and strided views (the scalar loop); lengths around the
    vector widths, special values included. A Python number is read at float32 by mul/div (upstream's CPU
    kernels read it as passed) and rounded to the dtype first by add/sub (it joins as a tensor of the dtype)."""

    FNS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}

    @pytest.mark.parametrize("n", [1, 7, 8, 15, 16, 17, 33, 1000, 4099])
    def test_two_tensors(self, dtype, op, n):
        a, x = special_sample(dtype, n, seed=n)
        b, y = special_sample(dtype, n, seed=n + 100)
        fn = getattr(torch, op)
        with np.errstate(all="ignore"):
            want = round_to(dtype, self.FNS[op](x, y))
            assert_same_bits(fn(a, b), want)
            assert_same_bits(fn(a[::2], b[::2]), want[::2])  # strided: the scalar loop
            out = torch.empty(n, dtype=dtype)
            fn(a, b, out=out)
            assert_same_bits(out, want)
            c = a.clone()
            getattr(c, op + "_")(b)
            assert_same_bits(c, want)

    def test_numbers_and_broadcasts(self, dtype, op):
        a, x = special_sample(dtype, 600, seed=1)
        m, mx = a.view(20, 30), x.reshape(20, 30)
        row, rx = special_sample(dtype, 30, seed=2)
        col, cx = special_sample(dtype, 20, seed=3)
        fn, npf = getattr(torch, op), self.FNS[op]
        with np.errstate(all="ignore"):
            for s in (0.1, -2.5, 3, 1e-8, 70000.0, -0.0, 0.0):
                at = np.float32(s) if op in ("mul", "div") else round_to(dtype, np.float32(s))
                assert_same_bits(fn(a, s), round_to(dtype, npf(x, at)))
                left = torch.tensor(np.float32(s)).to(dtype)  # 0-dim, on the left: its dtype's value
                assert_same_bits(fn(left, a), round_to(dtype, npf(round_to(dtype, np.float32(s)), x)))
            for v in (-0.0, 0.0, 2.5, np.inf):  # a one-element operand (-0.0: a broadcast keeps its sign)
                one, ox = torch.tensor([v]).to(dtype), np.float32([v])
                for b in (one, one.view(()), one.view(1, 1).expand(20, 30)):
                    assert_same_bits(fn(m, b), round_to(dtype, npf(mx, ox[0])))
                    assert_same_bits(fn(b, m), round_to(dtype, npf(ox[0], mx)))
            assert_same_bits(fn(m, row), round_to(dtype, npf(mx, rx)))
            assert_same_bits(fn(row, m), round_to(dtype, npf(rx, mx)))
            assert_same_bits(fn(m, col[:, None]), round_to(dtype, npf(mx, cx[:, None])))
            assert_same_bits(fn(m.t(), m.t()), round_to(dtype, npf(mx.T, mx.T)))


def assert_close_rounded(dtype, got: torch.Tensor, want32: np.ndarray, ulps=1):
    """got (a 16-bit tensor) equals the float32 reference rounded to dtype, within `ulps` ulps."""
    assert got.dtype == dtype
    want = round_to(dtype, want32)
    np.testing.assert_allclose(as_f32(got), want, rtol=ulps * EPS[dtype], atol=1e-6)


@pytest.mark.parametrize("dtype", HALVES)
class TestOps:
    def test_add_alpha_and_scalars(self, dtype):
        a, x = sample(dtype, (4, 4), seed=3)
        b, y = sample(dtype, (4, 4), seed=4)
        assert_close_rounded(dtype, torch.add(a, b, alpha=0.5), x + np.float32(0.5) * y)
        assert_close_rounded(dtype, a * 0.1, x * np.float32(0.1))
        assert_close_rounded(dtype, 2 - a, 2 - x)

    def test_comparisons_and_where(self, dtype):
        a, x = sample(dtype, (6, 5), seed=5)
        b, y = sample(dtype, (5,), seed=6)
        np.testing.assert_array_equal((a < b).numpy(), x < y)
        np.testing.assert_array_equal((a == a.t().t()).numpy(), np.ones((6, 5), bool))
        assert_close_rounded(dtype, torch.where(a > 0, a, b), np.where(x > 0, x, y), ulps=0)
        assert_close_rounded(dtype, torch.clamp(a, -1, 0.5), np.clip(x, -1, 0.5), ulps=0)
        nan = torch.tensor([math.nan, 1.0, math.inf], dtype=dtype)
        assert torch.isnan(nan).tolist() == [True, False, False]
        assert torch.isinf(nan).tolist() == [False, False, True]
        assert torch.nan_to_num(nan).tolist() == [0.0, 1.0, torch.finfo(dtype).max]

    def test_reductions_accumulate_in_float32(self, dtype):
        n = 4096  # a 16-bit accumulator would stop growing at 256 (bfloat16) or 2048 (float16)
        ones = torch.ones(n, 3, dtype=dtype)
        assert ones.sum().item() == 3 * n and ones.sum().dtype == dtype
        assert ones.sum(0).tolist() == [n] * 3 and ones.t().sum(1).tolist() == [n] * 3
        assert ones.mean().item() == 1.0 and ones.mean(0).dtype == dtype
        t, x = sample(dtype, (64, 33), seed=7)
        assert_close_rounded(dtype, t.sum(1), x.astype(np.float64).sum(1))
        assert_close_rounded(dtype, t.mean(0), x.astype(np.float64).mean(0))
        assert_close_rounded(dtype, t.std(1), x.astype(np.float64).std(1, ddof=1))
        assert_close_rounded(dtype, t.cumsum(1)[:, -1], np.cumsum(x.astype(np.float64), 1)[:, -1])

    def test_max_min_sort(self, dtype):
        t, x = sample(dtype, (8, 13), seed=8)
        assert_close_rounded(dtype, t.amax(1), x.max(1), ulps=0)
        values, idx = t.min(0)
        assert_close_rounded(dtype, values, x.min(0), ulps=0)
        np.testing.assert_array_equal(idx.numpy(), x.argmin(0))
        assert t.argmax().item() == int(x.argmax())
        s = torch.tensor([2.0, math.nan, -1.0, 0.5], dtype=dtype)
        assert str(torch.sort(s).values.tolist()) == str([-1.0, 0.5, 2.0, math.nan])
        assert torch.max(s).item() != torch.max(s).item()  # NaN propagates
        assert torch.topk(t[0], 3).values.tolist() == sorted(x[0].tolist(), reverse=True)[:3]

    def test_matmul(self, dtype):
        a, x = sample(dtype, (2, 17, 31), seed=9)
        b, y = sample(dtype, (31, 9), seed=10)
        got = a @ b
        want = x.astype(np.float64) @ y.astype(np.float64)
        assert got.dtype == dtype
        np.testing.assert_allclose(as_f32(got), want, rtol=2 * EPS[dtype], atol=EPS[dtype])
        np.testing.assert_allclose(as_f32(a[0].t().mT @ b), want[0], rtol=2 * EPS[dtype], atol=EPS[dtype])
        with pytest.raises(RuntimeError, match="same dtype"):
            torch.mm(a[0], b.float())

    def test_indexing_joining(self, dtype):
        t, x = sample(dtype, (6, 4), seed=11)
        assert_close_rounded(dtype, t[[0, 2, 2], 1:], x[[0, 2, 2], 1:], ulps=0)
        assert_close_rounded(dtype, t[t > 0], x[x > 0], ulps=0)
        assert_close_rounded(dtype, torch.cat([t, t[:2]]), np.concatenate([x, x[:2]]), ulps=0)
        acc = torch.zeros(3, dtype=dtype).index_put_((torch.tensor([0, 2, 0]),), torch.ones(3, dtype=dtype), True)
        assert acc.tolist() == [2.0, 0.0, 1.0]
        u = t.clone()
        u[1] = 0.5
        assert u[1].tolist() == [0.5] * 4

    def test_random(self, dtype):
        torch.manual_seed(0)
        r = torch.rand(1000, dtype=dtype)
        assert r.dtype == dtype and 0 <= r.min().item() and r.max().item() < 1
        n = torch.empty(4000, dtype=dtype).normal_(2.0, 0.5)
        assert abs(n.float().mean().item() - 2.0) < 0.05

    def test_autograd(self, dtype):
        w = torch.tensor([0.5, -1.0, 2.0], dtype=dtype, requires_grad=True)
        (w * w).sum().backward()
        assert w.grad.dtype == dtype and w.grad.tolist() == [1.0, -2.0, 4.0]

    def test_bitwise_is_refused(self, dtype):
        with pytest.raises(RuntimeError, match="not implemented for"):
            torch.ones(2, dtype=dtype) & torch.ones(2, dtype=dtype)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("scalar", [0.1, 1 / 3, 7.77, math.pi / 180])
def test_mul_div_by_a_scalar_round_once(dtype, scalar):
    # PyTorch reads a Python-number (or 0-dim CPU tensor) operand of a 16-bit mul/div at float32,
    # without rounding it to 16 bits first: the result is the float32 result rounded once
    bits = np.arange(0, 65536, dtype=np.uint16).view(np.float16)
    x = torch.from_numpy(bits[np.isfinite(bits)].astype(np.float32)).to(dtype)
    wide = x.float()
    for got, want in (
        (x * scalar, wide * scalar),
        (x / scalar, wide / scalar),
        (x // scalar, wide // scalar),
        (x * torch.tensor(scalar), wide * torch.tensor(scalar)),
        (x.clone().mul_(scalar), wide * scalar),
        (torch.div(x, scalar, rounding_mode="trunc"), torch.div(wide, scalar, rounding_mode="trunc")),
        (x.clone().div_(torch.tensor(scalar, dtype=torch.float64)), wide / scalar),
        # the kernels read the scalar (not the op): strided and broadcast operands, out= of float32
        (x[::7] * scalar, wide[::7] * scalar),
        (x[:60].view(6, 10).t() / scalar, wide[:60].view(6, 10).t() / scalar),
        (x[:5].view(5, 1).expand(5, 4) * scalar, wide[:5].view(5, 1).expand(5, 4) * scalar),
    ):
        assert got.dtype == dtype
        assert torch.equal(got.isnan(), want.to(dtype).isnan())
        assert torch.equal(got.nan_to_num(0.0), want.to(dtype).nan_to_num(0.0))
    # a 0-dim 16-bit tensor times a Python number is read the same way
    for v in (1.7, -0.3, 1000.0):
        assert torch.equal(
            torch.tensor(v, dtype=dtype) * scalar, (torch.tensor(v, dtype=dtype).float() * scalar).to(dtype)
        )
    # out= of a wider dtype: computed in the 16-bit type (rounded once), then converted
    out = torch.empty(0, dtype=torch.float32)
    assert torch.mul(x, scalar, out=out) is out
    assert torch.equal(out.nan_to_num(0.0), (wide * scalar).to(dtype).float().nan_to_num(0.0))
    out = torch.empty(0, dtype=torch.float32)
    torch.div(x, scalar, out=out)
    assert torch.equal(out.nan_to_num(0.0), (wide / scalar).to(dtype).float().nan_to_num(0.0))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_scalar_first_is_rounded_to_the_16_bit_type(dtype):
    # only the second operand is read at float32, as in PyTorch's kernels: 0.1 * x rounds 0.1 first
    x = torch.tensor([3.0, 7.0, 11.0, 300.0], dtype=dtype)
    s = torch.tensor(0.1)
    assert torch.equal(torch.mul(s, x), x * torch.tensor(0.1).to(dtype))


def test_a_one_element_operand_is_read_as_passed():
    # PyTorch's CPU mul/div of a 16-bit tensor read a one-element second operand once, at float32, from the
    # tensor as passed (int64 257, not its bfloat16 256); an expanded one is copied to bfloat16 first
    x = torch.tensor([3.0, 1.0], dtype=torch.bfloat16)
    assert (x * torch.tensor([257])).tolist() == [772.0, 256.0]  # 3 * 257 = 771 rounds to 772
    assert (x * torch.tensor([257, 257])).tolist() == [768.0, 256.0]
    assert (x * torch.tensor([257]).expand(2)).tolist() == [768.0, 256.0]
    assert torch.equal(x / torch.tensor([257]), (x.float() / 257).bfloat16())
    assert torch.equal(x / torch.tensor([257, 257]), (x.float() / 256).bfloat16())


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_trunc_division_of_two_16_bit_tensors_rounds_the_quotient_first(dtype):
    # PyTorch's div_trunc of two 16-bit tensors truncates the quotient rounded to 16 bits: 1 / bf16(0.1) is
    # 9.99 in float32 but 10 in bfloat16 (so trunc and floor differ), while a Python-number divisor is read
    # at float32 (test_mul_div_by_a_scalar_round_once)
    rng = np.random.default_rng(5)
    a = torch.from_numpy(rng.uniform(-50, 50, 4000).astype(np.float32)).to(dtype)
    b = torch.from_numpy(rng.uniform(-2, 2, 4000).astype(np.float32)).to(dtype)
    quotient = round_to(dtype, as_f32(a) / as_f32(b))
    got = torch.div(a, b, rounding_mode="trunc")
    assert got.dtype == dtype
    np.testing.assert_array_equal(as_f32(got), np.trunc(quotient))
    np.testing.assert_array_equal(as_f32(torch.div(a[::3], b[::3], rounding_mode="trunc")), np.trunc(quotient[::3]))
    # a one-element or expanded divisor is read once at float32, as a Python number is (PyTorch's CPU kernels
    # test is_scalar): no rounding of the quotient. bfloat16(0.1) is 0.10009765625: 1 / it is 9.990
    pair = torch.tensor([0.1, 0.1], dtype=dtype)
    rounded = float(np.trunc(round_to(dtype, np.float32([1.0]) / as_f32(pair[:1]))[0]))
    wide = float(np.trunc(np.float32(1.0) / as_f32(pair[:1])[0]))
    if dtype == torch.bfloat16:
        assert (rounded, wide) == (10.0, 9.0)
    ones = torch.ones(4, dtype=dtype)
    assert torch.div(ones[:2], pair, rounding_mode="trunc").tolist() == [rounded] * 2
    assert torch.div(1, pair, rounding_mode="trunc").tolist() == [rounded] * 2
    assert torch.div(ones, pair[:1], rounding_mode="trunc").tolist() == [wide] * 4
    assert torch.div(ones[:1], pair[:1], rounding_mode="trunc").tolist() == [wide]
    assert torch.div(ones, pair[:1].expand(4), rounding_mode="trunc").tolist() == [wide] * 4
    assert torch.div(ones, pair[0].item(), rounding_mode="trunc").tolist() == [wide] * 4
