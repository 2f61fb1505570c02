"""torch.cuda streams, events and pinned memory, as PyTorch has them.

On a GPU: work queued on a side stream (kernels, copies, cuBLAS, cuFFT, CUB) gives the default stream's
results; wait_stream/wait_event order streams; events time work; the caching allocator keeps a stream's
freed blocks for that stream (and for record_stream's streams until they pass); pinned memory and
non_blocking copies. Without a GPU: the same API raises PyTorch's errors or is a no-op where upstream's is.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import torch

gpu = pytest.mark.cuda  # skips, with one reason, where no GPU is present (tests/conftest.py)
no_gpu = pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU behaviour")


def busy(n: int = 2048, reps: int = 8) -> torch.Tensor:
    """Queues a few big matmuls on the current stream (tens of milliseconds of GPU work)."""
    a = torch.randn(n, n, device="cuda")
    for _ in range(reps):
        a = (a @ a).clamp_(-1, 1)
    return a


# ---- without a GPU


@no_gpu
def test_without_gpu_streams_raise_and_none_is_a_noop():
    for make in (torch.cuda.Stream, torch.cuda.current_stream, torch.cuda.default_stream):
        with pytest.raises((RuntimeError, AssertionError), match="CUDA"):
            make()
    with torch.cuda.stream(None):  # upstream: a no-op for None
        pass
    torch.cuda.set_stream(None)


@no_gpu
def test_without_gpu_nothing_is_pinned():
    assert not torch.ones(3).is_pinned()
    with pytest.raises(RuntimeError):
        torch.ones(3).pin_memory()


@no_gpu
def test_without_gpu_dataloader_pin_memory_warns_and_loads():
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(torch.arange(6.0)), batch_size=2, pin_memory=True
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        batches = [b for (b,) in loader]
    assert any("pin_memory" in str(w.message) for w in caught)
    assert [b.tolist() for b in batches] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    assert not batches[0].is_pinned()


# ---- streams


@gpu
def test_current_stream_is_the_default_until_a_context_sets_one():
    default = torch.cuda.default_stream()
    assert torch.cuda.current_stream() == default and default.cuda_stream == 0
    s = torch.cuda.Stream()
    assert s != default and s.cuda_stream != 0 and s.device == torch.device("cuda", 0)
    with torch.cuda.stream(s):
        assert torch.cuda.current_stream() == s
        with torch.cuda.stream(default):
            assert torch.cuda.current_stream() == default
        assert torch.cuda.current_stream() == s
    assert torch.cuda.current_stream() == default
    assert "cuda_stream=0x" in repr(s) and hash(s) == hash(torch.cuda.ExternalStream(s.cuda_stream))
    assert torch.cuda.ExternalStream(s.cuda_stream) == s


@gpu
def test_stream_priorities():
    assert torch.cuda.Stream().priority == 0
    least, greatest = torch.cuda.Stream.priority_range()
    assert greatest <= least == 0
    assert torch.cuda.Stream(priority=-1).priority == max(-1, greatest)
    assert torch.cuda.Stream(priority=-100).priority == greatest  # out of range: the nearest
    assert torch.cuda.Stream(priority=5).priority == 0


@gpu
def test_work_on_a_side_stream_matches_the_default_stream():
    x = torch.randn(1 << 20, generator=torch.Generator().manual_seed(0))
    want = (x * 2 + 1).sum()
    m = torch.randn(64, 96, dtype=torch.float64)
    s = torch.cuda.Stream()
    cx = x.cuda()
    s.wait_stream(torch.cuda.current_stream())  # cx was made on the default stream
    with torch.cuda.stream(s):
        cx2 = cx.to("cuda")  # same device: no copy
        y = cx2 * 2 + 1
        got = y.sum().cpu()  # the copy runs on s and waits for it
        prod = (m.cuda() @ m.cuda().T).cpu()
        spectrum = torch.fft.fft(m.cuda()).cpu()
        ordered = torch.sort(cx)[0][:5].cpu()
        cum = torch.cumsum(cx, 0)[-1].cpu()
    torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(prod.numpy(), (m @ m.T).numpy(), rtol=1e-10)
    np.testing.assert_allclose(spectrum.numpy(), np.fft.fft(m.numpy()), rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(ordered.numpy(), np.sort(x.numpy())[:5])
    torch.testing.assert_close(cum, x.sum(), rtol=1e-4, atol=1e-2)


@gpu
def test_wait_stream_orders_a_consumer_after_a_producer():
    producer, consumer = torch.cuda.Stream(), torch.cuda.Stream()
    with torch.cuda.stream(producer):
        a = busy()
        b = a + 1
    consumer.wait_stream(producer)
    with torch.cuda.stream(consumer):
        c = (b - 1 - a).abs().max()
        assert c.item() == 0.0
    producer.synchronize()
    assert producer.query() and consumer.query()


@gpu
def test_events_time_and_order_work():
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    assert start.query() and "uninitialized" in repr(start)
    start.record()
    busy()
    end.record()
    end.synchronize()
    assert end.query() and start.elapsed_time(end) > 0
    s = torch.cuda.Stream()
    done = torch.cuda.Event()
    with torch.cuda.stream(s):
        x = busy() * 0 + 3
        done.record()
    torch.cuda.current_stream().wait_event(done)
    assert (x == 3).all().item()
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        done.elapsed_time(end)
    with pytest.raises(RuntimeError, match="recorded"):
        torch.cuda.Event(enable_timing=True).elapsed_time(end)
    assert isinstance(s.record_event(), torch.cuda.Event)


@gpu
def test_a_freed_block_stays_with_its_stream():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        x = torch.empty(1 << 20, device="cuda")
    ptr = x.data_ptr()
    del x
    y = torch.empty(1 << 20, device="cuda")  # default stream: not s's block
    assert y.data_ptr() != ptr
    with torch.cuda.stream(s):
        z = torch.empty(1 << 20, device="cuda")  # s again: its block back
    assert z.data_ptr() == ptr


@gpu
def test_record_stream_delays_reuse_until_the_stream_passes():
    s = torch.cuda.Stream()
    x = torch.ones(1 << 22, device="cuda")
    ptr = x.data_ptr()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        busy()
        y = x * 2  # x used on s
    x.record_stream(s)
    del x
    s.synchronize()
    assert torch.empty(1 << 22, device="cuda").data_ptr() == ptr
    assert y[0].item() == 2.0
    with pytest.raises(RuntimeError, match="CUDA tensor"):
        torch.ones(2).record_stream(s)
    torch.empty(0, device="cuda").record_stream(s)  # no memory: nothing to hold back


@gpu
def test_record_stream_holds_the_block_while_the_stream_is_blocked():
    """Deterministic: s waits on an event that the host records only after checking."""
    s = torch.cuda.Stream()
    gate_stream = torch.cuda.Stream()
    gate = torch.cuda.Event()
    with torch.cuda.stream(gate_stream):
        torch.cuda._sleep(200_000_000) if hasattr(torch.cuda, "_sleep") else busy(4096, 16)
        gate.record()
    s.wait_event(gate)
    x = torch.ones(1 << 22, device="cuda")
    ptr = x.data_ptr()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        x.add_(1)
    x.record_stream(s)
    del x
    if not s.query():  # s is held back by the gate: the block must not come back
        assert torch.empty(1 << 22, device="cuda").data_ptr() != ptr
    s.synchronize()


@gpu
def test_set_device_and_device_context():
    torch.cuda.set_device(0)
    with torch.cuda.device(0):
        assert torch.cuda.current_device() == 0
    with torch.cuda.device_of(torch.ones(1, device="cuda")):
        assert torch.cuda.current_device() == 0
    assert torch.ones(1, device="cuda").device == torch.device("cuda", 0)
    with pytest.raises(AssertionError, match="Invalid device id"):
        torch.cuda.set_device(torch.cuda.device_count())
    with pytest.raises(ValueError, match="Expected a cuda device"):
        torch.cuda.device(torch.device("cpu"))


# ---- pinned memory and non_blocking copies


@gpu
def test_pin_memory():
    x = torch.arange(1000.0)
    p = x.pin_memory()
    assert p.is_pinned() and not x.is_pinned() and p[10:].is_pinned() and p.pin_memory() is p
    assert torch.equal(p, x)
    e = torch.empty_strided((4, 3), (1, 4), pin_memory=True)
    assert e.is_pinned() and e.stride() == (1, 4)
    t = torch.arange(12.0).reshape(3, 4).t().pin_memory()  # the strides are kept, as upstream
    assert t.is_pinned() and t.stride() == (1, 4) and torch.equal(t, torch.arange(12.0).reshape(3, 4).t())
    w = torch.ones(3, requires_grad=True)
    w.pin_memory().sum().backward()
    assert torch.equal(w.grad, torch.ones(3))
    with pytest.raises(RuntimeError):
        torch.ones(2, device="cuda").pin_memory()


@gpu
def test_non_blocking_copies_from_and_to_pinned_memory():
    x = torch.randn(1 << 20).pin_memory()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        c = x.cuda(non_blocking=True) * 3
        back = torch.empty(1 << 20).pin_memory()
        back.copy_(c, non_blocking=True)
    s.synchronize()
    torch.testing.assert_close(back, x * 3)
    host = c.to("cpu", non_blocking=True)  # upstream: into pinned memory, asynchronously
    assert host.is_pinned()
    torch.cuda.synchronize()
    torch.testing.assert_close(host, x * 3)
    for _ in range(3):  # pinned blocks freed after a non_blocking copy come back once it is done
        y = torch.randn(1 << 16).pin_memory()
        assert torch.equal(y.to("cuda", non_blocking=True).cpu(), y)
        del y
    # a converting or non-contiguous copy is still right with non_blocking
    z = torch.randn(8, 6, dtype=torch.float64).pin_memory()
    got = z.T.to("cuda", torch.float32, non_blocking=True).cpu()
    torch.testing.assert_close(got, z.T.float())


@gpu
def test_dataloader_pin_memory_pins_batches():
    data = torch.utils.data.TensorDataset(torch.arange(8.0), torch.arange(8))
    for x, y in torch.utils.data.DataLoader(data, batch_size=4, pin_memory=True):
        assert x.is_pinned() and y.is_pinned()


@gpu
def test_set_default_device_cuda():
    try:
        torch.set_default_device("cuda")
        assert torch.get_default_device() == torch.device("cuda", 0)
        for t in (torch.zeros(2), torch.arange(3), torch.randn(2), torch.randperm(4), torch.tensor([1.0])):
            assert t.device == torch.device("cuda", 0)
        assert torch.ones(1, device="cpu").device == torch.device("cpu")
        assert torch.zeros_like(torch.ones(1, device="cpu")).device == torch.device("cpu")  # like its input
    finally:
        torch.set_default_device(None)
    assert torch.zeros(1).device == torch.device("cpu")
