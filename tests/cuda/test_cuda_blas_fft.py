"""Matrix products (cuBLAS where the build has it, THC's gemm otherwise) and FFTs (cuFFT, or the host
round trip) on the GPU against the CPU: every BLAS layout (row-major, column-major, a single row or
column, broadcast batches), the layouts cuBLAS cannot take (THC's kernel then), the 16-bit and integer
dtypes, float8 scaled products (torch._scaled_mm, F.scaled_mm), TF32 under
torch.backends.cuda.matmul.allow_tf32, transforms over more dims than one cuFFT plan takes, and the plan cache.
Skips, with one reason, where no GPU is present."""

from __future__ import annotations

import numpy as np
import pytest
from opinfo import DEVICE_TOL

import torch

pytestmark = pytest.mark.cuda

F32, F64, F16, BF16 = torch.float32, torch.float64, torch.float16, torch.bfloat16


def _layout(t: torch.Tensor, how: str) -> torch.Tensor:
    """t (a batch of matrices) laid out as `how`, same values."""
    if how == "row":
        return t.contiguous()
    if how == "col":
        return t.mT.contiguous().mT
    if how == "stepped":  # every other column: no BLAS leading dimension, THC's kernel
        wide = torch.zeros(*t.shape[:-1], 2 * t.shape[-1], dtype=t.dtype, device=t.device)
        wide[..., ::2] = t
        return wide[..., ::2]
    if how == "broadcast":  # one matrix for every batch (batch stride 0)
        return t[:1].expand_as(t)
    raise ValueError(how)


def _close(got: torch.Tensor, want: torch.Tensor, dtype: torch.dtype, k: int) -> None:
    assert got.device.type == "cuda" and got.dtype == want.dtype and got.shape == want.shape
    g, w = got.cpu().double().numpy(), want.double().numpy()
    if not dtype.is_floating_point:
        np.testing.assert_array_equal(g, w)
        return
    rtol, atol = DEVICE_TOL[dtype]
    np.testing.assert_allclose(g, w, rtol=rtol * 4, atol=atol * 4 * max(1.0, np.sqrt(k)))


@pytest.mark.parametrize("dtype", [F32, F64, F16, BF16, torch.int64])
@pytest.mark.parametrize("a_layout", ["row", "col", "stepped", "broadcast"])
@pytest.mark.parametrize("b_layout", ["row", "col", "broadcast"])
@pytest.mark.parametrize("mnk", [(17, 33, 9), (1, 40, 7), (40, 1, 7), (5, 6, 1)])
def test_bmm_of_every_layout_matches_the_cpu(dtype, a_layout, b_layout, mnk):
    m, n, k = mnk
    g = torch.Generator().manual_seed(0)
    if dtype.is_floating_point:
        a, b = torch.randn(3, m, k, generator=g).to(dtype), torch.randn(3, k, n, generator=g).to(dtype)
    else:
        a, b = torch.randint(-9, 9, (3, m, k), generator=g), torch.randint(-9, 9, (3, k, n), generator=g)
    a, b = _layout(a, a_layout), _layout(b, b_layout)
    prev = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("highest")
    try:
        got = torch.bmm(a.cuda(), b.cuda())
    finally:
        torch.set_float32_matmul_precision(prev)
    want = torch.bmm(a.double(), b.double()).to(dtype) if dtype.is_floating_point else torch.bmm(a, b)
    _close(got, want, dtype, k)


@pytest.mark.parametrize("rows", [False, True], ids=["tensorwise", "rowwise"])
def test_float8_scaled_mm_matches_the_cpu(rows):
    g = torch.Generator().manual_seed(3)
    a = torch.randn(32, 48, generator=g).to(torch.float8_e4m3fn)
    b = torch.randn(16, 48, generator=g).to(torch.float8_e4m3fn).t()  # column-major, as cuBLASLt wants it
    sa, sb = (torch.rand(32, 1, generator=g), torch.rand(1, 16, generator=g)) if rows else (torch.tensor(0.5),) * 2
    bias = torch.randn(16, generator=g).bfloat16()
    want = torch._scaled_mm(a, b, sa, sb, bias=bias, out_dtype=torch.bfloat16)
    got = torch._scaled_mm(a.cuda(), b.cuda(), sa.cuda(), sb.cuda(), bias=bias.cuda(), out_dtype=torch.bfloat16)
    _close(got, want, BF16, 48)
    kind = torch.nn.functional.ScalingType.RowWise if rows else torch.nn.functional.ScalingType.TensorWise
    f = torch.nn.functional.scaled_mm(a.cuda(), b.cuda(), sa.cuda(), kind, sb.cuda(), kind, output_dtype=F32)
    _close(f, torch._scaled_mm(a, b, sa, sb, out_dtype=F32), F32, 48)


@pytest.mark.parametrize("dtype", [F32, F64, F16])
def test_addmm_alpha_beta_and_matmul_broadcasting(dtype):
    g = torch.Generator().manual_seed(1)
    c, a, b = (torch.randn(*s, generator=g).to(dtype) for s in ((8, 5), (8, 3), (3, 5)))
    want = torch.addmm(c.double(), a.double(), b.double(), beta=0.5, alpha=-2.0).to(dtype)
    _close(torch.addmm(c.cuda(), a.cuda(), b.cuda(), beta=0.5, alpha=-2.0), want, dtype, 3)
    x, w = torch.randn(2, 4, 6, 3, generator=g).to(dtype), torch.randn(3, 7, generator=g).to(dtype)
    _close(torch.matmul(x.cuda(), w.cuda()), (x.double() @ w.double()).to(dtype), dtype, 3)
    _close(torch.nn.functional.linear(x.cuda(), w.mT.cuda()), (x.double() @ w.double()).to(dtype), dtype, 3)


def test_many_batches_and_empty_contractions():
    a, b = torch.randn(70000, 2, 3), torch.randn(70000, 3, 2)  # more batches than one grid dim holds
    _close(torch.bmm(a.cuda(), b.cuda()), torch.bmm(a.double(), b.double()).float(), F32, 3)
    e = torch.mm(torch.ones(4, 0, device="cuda"), torch.ones(0, 5, device="cuda"))
    assert e.shape == (4, 5) and not e.cpu().any()


def test_tf32_only_when_allowed():
    """float32 products are float32 at 'highest' and TF32 (10-bit mantissa) at 'high' on GPUs with it."""
    g = torch.Generator().manual_seed(2)
    a, b = torch.randn(512, 512, generator=g), torch.randn(512, 512, generator=g)
    exact = (a.double() @ b.double()).numpy()
    prev = torch.get_float32_matmul_precision()
    try:
        torch.set_float32_matmul_precision("highest")
        err_fp32 = np.abs((a.cuda() @ b.cuda()).cpu().double().numpy() - exact).max()
        torch.backends.cuda.matmul.allow_tf32 = True
        err_tf32 = np.abs((a.cuda() @ b.cuda()).cpu().double().numpy() - exact).max()
    finally:
        torch.set_float32_matmul_precision(prev)
    assert err_fp32 < 1e-3
    if torch.version.build_config()["cuda_libs"] and torch.cuda.get_device_properties(0).major >= 8:
        assert err_tf32 > 10 * err_fp32  # the switch reached cuBLAS


FFT_CALLS = {
    "fft": lambda x: torch.fft.fft(x),
    "ifft_ortho": lambda x: torch.fft.ifft(x, norm="ortho"),
    "fft_dim0_n": lambda x: torch.fft.fft(x, n=7, dim=0),
    "fft2": lambda x: torch.fft.fft2(x),
    "fftn_all4": lambda x: torch.fft.fftn(x),  # 4 dims: two cuFFT passes
    "fftn_dims": lambda x: torch.fft.fftn(x, dim=(3, 0, 2)),
    "rfft": lambda x: torch.fft.rfft(x.real),
    "rfft_odd": lambda x: torch.fft.rfft(x.real, n=9, norm="forward"),
    "rfftn_all4": lambda x: torch.fft.rfftn(x.real),
    "irfft": lambda x: torch.fft.irfft(x),
    "irfft_odd": lambda x: torch.fft.irfft(x, n=9),
    "irfftn_all4": lambda x: torch.fft.irfftn(x),
    "irfft2_dims": lambda x: torch.fft.irfft2(x, dim=(2, 0)),
    "hfft": lambda x: torch.fft.hfft(x, n=10),
    "ihfft": lambda x: torch.fft.ihfft(x.real),
    "transposed": lambda x: torch.fft.fft(x.transpose(0, 3)),
}


@pytest.mark.parametrize("name", sorted(FFT_CALLS))
@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_fft_on_the_gpu_matches_the_cpu(name, dtype):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(4, 3, 5, 6, generator=g, dtype=dtype)
    xc = x.cuda()
    want, got = FFT_CALLS[name](x), FFT_CALLS[name](xc)
    assert got.device.type == "cuda" and got.dtype == want.dtype and got.shape == want.shape
    assert torch.equal(xc.cpu(), x)  # cuFFT's c2r overwrites its input: never the caller's
    tol = 1e-4 if dtype == torch.complex64 else 1e-10
    np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=tol, atol=tol)


def test_long_fft_on_the_gpu():
    x = torch.randn(1 << 20, dtype=torch.complex64)
    np.testing.assert_allclose(torch.fft.fft(x.cuda()).cpu().numpy(), np.fft.fft(x.numpy()), rtol=1e-3, atol=1e-2)


def test_cufft_plan_cache():
    cache = torch.backends.cuda.cufft_plan_cache
    old = cache.max_size
    try:
        cache.clear()
        assert cache.size == 0
        torch.fft.fft(torch.randn(64, dtype=torch.complex64, device="cuda"))
        torch.fft.fft(torch.randn(32, dtype=torch.complex64, device="cuda"))
        if "cufft" in torch.version.build_config()["cuda_libs"]:
            assert cache.size == 2 and cache[0].size == 2
            cache.max_size = 1
            assert cache.size == 1
        with pytest.raises(RuntimeError, match="non-negative"):
            cache.max_size = -1
        cache.clear()
        assert cache.size == 0
    finally:
        cache.max_size = old


def test_allocator_figures_and_peaks():
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    x = torch.empty(1 << 20, device="cuda")  # 4 MiB
    assert torch.cuda.memory_allocated() == base + (4 << 20)
    assert torch.cuda.max_memory_allocated() >= base + (4 << 20)
    assert torch.cuda.memory_reserved() >= torch.cuda.memory_allocated()
    stats = torch.cuda.memory_stats()
    assert stats["allocated_bytes.all.current"] == torch.cuda.memory_allocated()
    del x
    assert torch.cuda.memory_allocated() == base
    assert torch.cuda.max_memory_allocated() >= base + (4 << 20)  # the peak stays until reset
    torch.cuda.reset_peak_memory_stats()
    assert torch.cuda.max_memory_allocated() == base
    reserved = torch.cuda.memory_reserved()
    torch.cuda.empty_cache()
    assert torch.cuda.memory_reserved() <= reserved - (4 << 20)
    assert "PyTorch CUDA memory summary" in torch.cuda.memory_summary()


def test_out_of_memory_is_pytorchs_error_and_leaves_the_allocator_usable():
    total = torch.cuda.get_device_properties(0).total_memory
    before = torch.cuda.memory_stats()["num_ooms"]
    with pytest.raises(torch.cuda.OutOfMemoryError, match="CUDA out of memory. Tried to allocate"):
        torch.empty(2 * total, dtype=torch.uint8, device="cuda")
    assert torch.cuda.memory_stats()["num_ooms"] == before + 1
    assert torch.ones(4, device="cuda").sum().item() == 4
