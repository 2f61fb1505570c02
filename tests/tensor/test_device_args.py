"""Device arguments as upstream's parser takes them: a torch.device, a string or a GPU index, and a string that
names no device raises upstream's RuntimeError (not a TypeError listing overloads, nor text on stderr).
Runs against upstream PyTorch too (nox -s tests-reference)."""

from __future__ import annotations

import pytest

import torch

BAD = "device type at start of device string|Invalid device string"


@pytest.mark.parametrize(
    "call",
    [
        lambda d: torch.zeros(2, device=d),
        lambda d: torch.empty(2, 3, device=d),
        lambda d: torch.arange(3, device=d),
        lambda d: torch.full((2,), 1.0, device=d),
        lambda d: torch.ones_like(torch.ones(2), device=d),
        lambda d: torch.tensor([1.0], device=d),
        lambda d: torch.ones(2).to(d),
        lambda d: torch.randn(2, device=d),
    ],
    ids=["zeros", "empty", "arange", "full", "ones_like", "tensor", "to", "randn"],
)
@pytest.mark.parametrize("bad", ["gpu", "xyz:0"])
def test_a_string_that_names_no_device_raises_runtime_error(call, bad, capfd):
    with pytest.raises(RuntimeError, match=BAD):
        call(bad)
    assert "nanobind" not in capfd.readouterr().err


@pytest.mark.parametrize("spec", ["cpu", "cpu:0", torch.device("cpu"), None])
def test_the_ways_of_naming_the_cpu(spec):
    t = torch.zeros(2, device=spec)
    assert t.device == torch.device("cpu")
    assert torch.ones(1).to(spec if spec is not None else "cpu").device.type == "cpu"


def test_an_int_is_a_gpu_index():
    if not torch.backends.cuda.is_built():
        pytest.skip("an index names an accelerator, and this build has none (upstream's CPU wheel raises)")
    assert torch.device(0) == torch.device("cuda", 0)
    assert torch.device(1) == torch.device("cuda:1")


def test_a_negative_index_names_no_device():
    with pytest.raises(RuntimeError, match="Device index must not be negative"):
        torch.device(-1)
    with pytest.raises(RuntimeError, match="Device index must not be negative"):
        torch.zeros(2, device=-1)


def test_a_float_is_no_device():
    with pytest.raises(TypeError):
        torch.zeros(2, device=1.5)
