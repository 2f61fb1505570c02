"""The device-generic API (torch.cpu beside torch.cuda, torch.get_device_module) and the deprecated names that
old code still calls (Tensor.resize/resize_as, torch.set_default_tensor_type), plus Tensor.module_load, as
upstream has them. Also run on upstream 2.13."""

from __future__ import annotations

import pytest

import torch


def test_torch_cpu_is_a_device_module_like_torch_cuda():
    cpu = torch.get_device_module("cpu")
    assert cpu is torch.cpu and torch.get_device_module(torch.device("cpu")) is torch.cpu
    assert (
        torch.get_device_module("cuda") is torch.cuda and torch.get_device_module(torch.device("cuda", 0)) is torch.cuda
    )
    assert torch.get_device_module() is (torch.cuda if torch.cuda.is_available() else torch.cpu)
    assert cpu.is_available() and cpu.device_count() == 1 and cpu.current_device() == "cpu"
    cpu.synchronize()
    cpu.set_device("cpu")
    s = cpu.Stream()
    s.wait_stream(cpu.current_stream())
    event = cpu.Event()
    event.record()
    assert event.query()
    with cpu.stream(s):
        assert cpu.current_stream() is s
    assert cpu.current_stream() is not s
    caps = cpu.get_capabilities()
    assert "architecture" in caps
    with pytest.raises(TypeError):
        caps["x"] = 1  # immutable


def test_get_device_module_refuses_unknown_devices():
    with pytest.raises(RuntimeError):
        torch.get_device_module("foo")


def test_resize_is_a_deprecated_reshape_that_keeps_the_element_count():
    t = torch.arange(6.0)
    with pytest.warns(UserWarning, match="non-inplace resize is deprecated"):
        r = t.resize(2, 3)
    assert r.shape == (2, 3) and r.data_ptr() == t.data_ptr() and torch.equal(r.flatten(), t)
    with pytest.warns(UserWarning, match="non-inplace resize_as is deprecated"):
        assert t.resize_as(torch.empty(3, 2)).shape == (3, 2)
    with pytest.warns(UserWarning), pytest.raises(RuntimeError, match="autograd's resize can only change the shape"):
        t.resize(4)
    x = torch.arange(6.0, requires_grad=True)
    with pytest.warns(UserWarning):
        (x.resize(3, 2) * torch.arange(6.0).view(3, 2)).sum().backward()
    assert torch.equal(x.grad, torch.arange(6.0))
    with pytest.warns(UserWarning):
        assert torch.equal(torch.arange(6.0).view(2, 3).t().resize(6), torch.tensor([0.0, 3, 1, 4, 2, 5]))


def test_set_default_tensor_type():
    torch.set_warn_always(True)  # its deprecation warning is given once per process otherwise
    try:
        with pytest.warns(UserWarning, match="set_default_tensor_type\\(\\) is deprecated"):
            torch.set_default_tensor_type(torch.DoubleTensor)
        assert torch.get_default_dtype() == torch.float64 and torch.zeros(1).dtype == torch.float64
        with pytest.warns(UserWarning):
            torch.set_default_tensor_type("torch.FloatTensor")
        assert torch.get_default_dtype() == torch.float32
        with pytest.warns(UserWarning), pytest.raises(TypeError, match="only floating-point types"):
            torch.set_default_tensor_type(torch.IntTensor)
        with pytest.warns(UserWarning), pytest.raises(TypeError, match="only floating-point types"):
            torch.set_default_tensor_type(torch.float64)
    finally:
        torch.set_default_dtype(torch.float32)
        torch.set_warn_always(False)


def test_module_load():
    a, b = torch.zeros(3), torch.ones(3, requires_grad=True)
    loaded = a.module_load(b)
    assert torch.equal(a, torch.ones(3)) and not loaded.requires_grad
    assigned = a.module_load(b, assign=True)
    assert assigned is not b and not assigned.requires_grad and assigned.data_ptr() == b.data_ptr()


def test_backend_flags_and_removed_attributes():
    t = torch.zeros(2)
    for flag in ("is_sparse", "is_quantized", "is_meta", "is_nested", "is_mkldnn", "is_xla", "is_maia", "is_mps"):
        assert getattr(t, flag) is False, flag
    assert t.name is None
    with pytest.warns(UserWarning, match="volatile was removed"):
        assert t.volatile is False
    with pytest.raises(RuntimeError, match="reinforce\\(\\) was removed"):
        t.reinforce(1.0)


def test_set_makes_a_tensor_a_view_of_another_in_place():
    a, b = torch.zeros(3), torch.arange(6.0).view(2, 3)
    assert a.set_(b) is a
    assert a.shape == (2, 3) and a.stride() == (3, 1) and a.data_ptr() == b.data_ptr()
    b[0, 0] = 7
    assert a[0, 0] == 7
    c = torch.zeros(3)
    c.set_(b, 1, (2, 2), (1, 1))
    assert c.tolist() == [[1.0, 2.0], [2.0, 3.0]]
    assert torch.zeros(2).set_().shape == (0,)
    with pytest.raises(RuntimeError, match="Could not set tensor of type double to a tensor of type float"):
        torch.zeros(3).set_(torch.zeros(2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        torch.zeros(3, requires_grad=True).set_(b)


def test_reflected_operators_give_way_to_sequences():
    # an operand a tensor op does not take makes the reflected operator return NotImplemented, so Python asks
    # the other side: a tuple or list repeated by a 0-dim integer tensor, as upstream
    assert (2, 3) * torch.tensor(2) == (2, 3, 2, 3)
    assert [1] * torch.tensor(3) == [1, 1, 1]
    assert torch.equal(2.5 - torch.ones(2), torch.full((2,), 1.5))
    with pytest.raises(TypeError):
        "x" + torch.ones(1)
