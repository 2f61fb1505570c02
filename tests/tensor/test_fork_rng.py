"""torch.random.fork_rng: the generators' states are back on exit (CPU always, GPUs when asked)."""

from __future__ import annotations

import pytest

import torch
from torch.random import fork_rng


def test_restores_cpu_state():
    torch.manual_seed(0)
    expected = torch.rand(4)
    torch.manual_seed(0)
    with fork_rng(devices=[]):
        inside = torch.rand(4)
        torch.manual_seed(123)
        torch.rand(10)
    assert torch.equal(inside, expected)  # the fork starts from the current state
    torch.manual_seed(0)
    torch.rand(4)
    after_plain = torch.rand(4)
    torch.manual_seed(0)
    torch.rand(4)
    with fork_rng():
        torch.rand(100)
    assert torch.equal(torch.rand(4), after_plain)


def test_restores_after_an_exception_and_nests():
    torch.manual_seed(1)
    state = torch.get_rng_state()
    with pytest.raises(ZeroDivisionError):
        with fork_rng(devices=[]):
            with fork_rng(devices=iter([])):  # an iterator of devices is fine
                torch.rand(3)
            torch.rand(3)
            raise ZeroDivisionError
    assert torch.equal(torch.get_rng_state(), state)


def test_disabled_and_meta_do_not_fork():
    torch.manual_seed(2)
    state = torch.get_rng_state()
    with fork_rng(enabled=False):
        torch.rand(3)
    assert not torch.equal(torch.get_rng_state(), state)
    state = torch.get_rng_state()
    with fork_rng(device_type="meta"):
        torch.rand(3)
    assert not torch.equal(torch.get_rng_state(), state)


def test_unknown_device_type():
    with pytest.raises(RuntimeError):
        with fork_rng(device_type="foo"):
            pass


def test_device_generators(device):
    if device == "cpu":
        with fork_rng(devices=[], device_type="cpu"):
            torch.rand(2)
        return
    torch.cuda.manual_seed(3)
    expected = torch.rand(5, device=device)
    torch.cuda.manual_seed(3)
    with fork_rng(devices=[0]):
        torch.rand(50, device=device)
    assert torch.equal(torch.rand(5, device=device), expected)
    torch.cuda.manual_seed(3)
    with fork_rng(devices=[]):  # the GPU is not forked
        torch.rand(5, device=device)
    assert not torch.equal(torch.rand(5, device=device), expected)
