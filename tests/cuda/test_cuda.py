"""The CUDA backends (THC, THCUNN) against the CPU ones. GPU tests skip where no GPU is present."""

from __future__ import annotations

import numpy as np
import pytest

import torch

gpu = pytest.mark.cuda  # skips, with one reason, where no GPU is present (tests/conftest.py)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU behaviour")
def test_without_gpu_cuda_tensors_raise_clearly():
    assert torch.cuda.device_count() == 0
    with pytest.raises(RuntimeError, match="CUDA|cuda"):
        torch.ones(2, device="cuda")
    with pytest.raises((RuntimeError, AssertionError), match="CUDA"):
        torch.cuda.get_device_name()


@gpu
def test_device_properties():
    p = torch.cuda.get_device_properties(0)
    assert p.name == torch.cuda.get_device_name() and p.name
    assert torch.cuda.get_device_capability() == (p.major, p.minor) and p.major >= 3
    assert p.total_memory > 2**30 and p.multi_processor_count > 0
    assert torch.cuda.current_device() == 0 and "name=" in repr(p)
    with pytest.raises(AssertionError, match="Invalid device id"):
        torch.cuda.get_device_properties(torch.cuda.device_count())


def sample(shape, dtype=torch.float32, seed=0):
    a = np.random.default_rng(seed).normal(size=shape).astype(np.float64)
    return torch.from_numpy(a).to(dtype)


@gpu
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32])
def test_pointwise_matches_cpu(dtype):
    a, b = sample((33, 65), dtype, 1), sample((65,), dtype, 2)
    ca, cb = a.cuda(), b.cuda()
    assert ca.device.type == "cuda" and ca.is_cuda
    for got, want in [
        (ca + cb, a + b),
        (ca.transpose(0, 1) * ca.transpose(0, 1), a.transpose(0, 1) * a.transpose(0, 1)),
        (torch.sub(ca, cb, alpha=2), torch.sub(a, b, alpha=2)),
        (torch.relu(ca), torch.relu(a)),
    ]:
        np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=1e-6)


@gpu
def test_fill_copy_sum_threshold_backward():
    t = torch.zeros(4, 5, device="cuda")
    t.fill_(2.5)
    assert t.sum().item() == 50.0
    x = sample((8, 16), torch.float64)
    cx = x.cuda()
    np.testing.assert_allclose(cx.sum(0).cpu().numpy(), x.sum(0).numpy(), rtol=1e-12)
    np.testing.assert_allclose(cx.sum(1, keepdim=True).cpu().numpy(), x.sum(1, keepdim=True).numpy(), rtol=1e-12)
    g = sample((8, 16), torch.float64, 3)
    got = torch.threshold_backward(g.cuda(), cx, 0).cpu().numpy()
    np.testing.assert_array_equal(got, torch.threshold_backward(g, x, 0).numpy())
    assert cx.to(torch.int64).cpu().tolist() == x.to(torch.int64).tolist()


@gpu
def test_device_mismatch_and_allocator():
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        torch.ones(2, device="cuda") + torch.ones(2)
    before = torch.cuda.memory_allocated()
    t = torch.empty(1 << 20, device="cuda")
    assert torch.cuda.memory_allocated() >= before + (1 << 22)
    del t
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    assert torch.cuda.memory_allocated() == before


@gpu
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_16_bit_floats_match_cpu(dtype):
    a, b = sample((33, 65), dtype, 4), sample((65,), dtype, 5)
    ca, cb = a.cuda(), b.cuda()
    for got, want in [
        (ca + cb, a + b),
        (ca.t() * 0.5, a.t() * 0.5),
        (torch.tanh(ca), torch.tanh(a)),
        (torch.relu(ca), torch.relu(a)),
        (torch.maximum(ca, cb), torch.maximum(a, b)),
        (ca.sum(0), a.sum(0)),
        (ca.amax(1), a.amax(1)),
        (ca.cumsum(1), a.cumsum(1)),
        (ca @ ca.t(), a @ a.t()),
    ]:
        assert got.dtype == dtype and got.device.type == "cuda"
        np.testing.assert_allclose(got.cpu().float().numpy(), want.float().numpy(), rtol=1e-2, atol=1e-2)
    assert torch.ones(4096, dtype=dtype, device="cuda").sum().item() == 4096  # float32 accumulation
    idx = torch.tensor([0, 1, 0, 0, 3], device="cuda")
    acc = torch.zeros(5, dtype=dtype, device="cuda").index_put_((idx,), torch.ones(5, dtype=dtype, device="cuda"), True)
    assert acc.cpu().tolist() == [3.0, 1.0, 0.0, 1.0, 0.0]  # the compare-and-swap add, on both halves of a word


@gpu
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.int64])
def test_dlpack_shares_cuda_memory(dtype):
    src = sample((4, 3), dtype).cuda().t()
    assert tuple(src.__dlpack_device__()) == (2, 0)
    t = torch.from_dlpack(src.__dlpack__())
    assert t.is_cuda and t.data_ptr() == src.data_ptr() and t.stride() == src.stride()
    t.fill_(2)
    assert (src.cpu() == 2).all()


@gpu
def test_layout_preserving_copies_and_rearranging_ops_match_cpu():
    a = sample((3, 4, 5))
    ca = a.cuda()
    for f in (
        lambda t: t.transpose(0, 2).clone(),
        lambda t: t.flip(0, 2),
        lambda t: t.roll((1, -2), (0, 2)),
        lambda t: t.repeat(2, 1, 1, 2),
        lambda t: t.tril(1),
        lambda t: t[0].diag(-1),
        lambda t: torch.diag(t[0, 0]),
        lambda t: t.unsqueeze(0).contiguous(memory_format=torch.channels_last),
        lambda t: t.transpose(0, 2).to(torch.float64),
        lambda t: torch.empty_like(t.transpose(0, 1)).fill_(1),
    ):
        got, want = f(ca), f(a)
        assert got.stride() == want.stride()
        np.testing.assert_array_equal(got.cpu().numpy(), want.numpy())
