"""Random tensors: reproducible streams per seed and per Generator, ranges and moments of the
distributions, dtypes, and PyTorch's errors.

Runs against upstream PyTorch too (nox -s tests-reference): values differ between the libraries
(different generators), the properties checked here do not.
"""

from __future__ import annotations

import numpy as np
import pytest

import torch


def test_manual_seed_reproduces_the_stream():
    torch.manual_seed(1234)
    a, b = torch.rand(5), torch.randn(3, 2)
    torch.manual_seed(1234)
    np.testing.assert_array_equal(torch.rand(5).numpy(), a.numpy())
    np.testing.assert_array_equal(torch.randn(3, 2).numpy(), b.numpy())
    assert torch.initial_seed() == 1234


def test_successive_draws_differ():
    torch.manual_seed(0)
    assert not np.array_equal(torch.rand(8).numpy(), torch.rand(8).numpy())


def test_generator_objects_are_independent():
    g1 = torch.Generator().manual_seed(7)
    g2 = torch.Generator()
    assert g2.manual_seed(7) is g2
    np.testing.assert_array_equal(torch.rand(4, generator=g1).numpy(), torch.rand(4, generator=g2).numpy())
    torch.manual_seed(7)
    torch.rand(100)  # the default generator does not disturb g1
    np.testing.assert_array_equal(torch.randn(3, generator=g1).numpy(), torch.randn(3, generator=g2).numpy())
    assert g1.initial_seed() == 7
    state = g1.get_state()
    x = torch.rand(3, generator=g1)
    g1.set_state(state)
    np.testing.assert_array_equal(torch.rand(3, generator=g1).numpy(), x.numpy())


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_rand_range_and_moments(dtype):
    torch.manual_seed(1)
    x = torch.rand(200_000, dtype=dtype)
    assert x.dtype == dtype and tuple(x.shape) == (200_000,)
    v = x.numpy()
    assert v.min() >= 0.0 and v.max() < 1.0
    assert abs(v.mean() - 0.5) < 0.01 and abs(v.var() - 1 / 12) < 0.01


def test_randn_moments_and_normal_():
    torch.manual_seed(2)
    v = torch.randn(200_000).numpy()
    assert abs(v.mean()) < 0.02 and abs(v.std() - 1.0) < 0.02
    t = torch.empty(100_000, dtype=torch.float64).normal_(3.0, 0.5)
    assert abs(t.numpy().mean() - 3.0) < 0.02 and abs(t.numpy().std() - 0.5) < 0.02


def test_uniform_on_a_non_contiguous_view():
    base = torch.zeros(4, 6)
    view = base[:, ::2]
    r = view.uniform_(2.0, 3.0)
    assert r is view
    v = base.numpy()
    assert ((v[:, ::2] >= 2.0) & (v[:, ::2] < 3.0)).all()
    assert (v[:, 1::2] == 0).all()


def test_randint_and_randperm():
    torch.manual_seed(3)
    x = torch.randint(5, (1000,))
    assert x.dtype == torch.int64 and set(np.unique(x.numpy())) == set(range(5))
    y = torch.randint(-3, 3, (2, 500), dtype=torch.int32)
    assert y.dtype == torch.int32 and y.numpy().min() >= -3 and y.numpy().max() < 3
    p = torch.randperm(50)
    assert sorted(p.tolist()) == list(range(50))
    assert p.tolist() != list(range(50))
    assert torch.randperm(0).numel() == 0


def test_like_forms_and_requires_grad():
    x = torch.zeros(2, 3, dtype=torch.float64)
    assert torch.rand_like(x).dtype == torch.float64 and tuple(torch.randn_like(x).shape) == (2, 3)
    assert torch.rand(2, requires_grad=True).requires_grad


def test_errors():
    with pytest.raises(RuntimeError, match="from=1.0 > to=0.0|from=1 > to=0"):
        torch.empty(3).uniform_(1.0, 0.0)
    with pytest.raises(RuntimeError, match="normal expects std >= 0.0"):
        torch.empty(3).normal_(0.0, -1.0)
    with pytest.raises(RuntimeError, match="random_ expects 'from' to be less than 'to'"):
        torch.randint(5, 3, (2,))
    with pytest.raises(RuntimeError):
        torch.rand(3, dtype=torch.int64)


def test_rng_state_is_a_byte_tensor_that_round_trips():
    """get_rng_state is a torch.uint8 tensor (a copy: drawing afterwards leaves it as it was), as upstream."""
    torch.manual_seed(3)
    state = torch.get_rng_state()
    assert state.dtype == torch.uint8 and state.dim() == 1
    before = state.clone()
    x = torch.rand(5)
    assert torch.equal(state, before)
    torch.set_rng_state(state)
    np.testing.assert_array_equal(torch.rand(5).numpy(), x.numpy())
    g = torch.Generator().manual_seed(5)
    gs = g.get_state()
    y = torch.randn(4, generator=g)
    g.set_state(gs)
    np.testing.assert_array_equal(torch.randn(4, generator=g).numpy(), y.numpy())


def test_set_rng_state_refuses_what_is_no_state():
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        torch.set_rng_state(torch.zeros(16))
    with pytest.raises(TypeError, match="expected a torch.ByteTensor, but got tuple"):
        torch.set_rng_state((1, 2))
    with pytest.raises(RuntimeError, match="found the input RNG state size to be 3"):
        torch.set_rng_state(torch.zeros(3, dtype=torch.uint8))


def test_cuda_seeding_leaves_the_cpu_stream_alone():
    """torch.cuda.manual_seed/seed seed the GPUs' generators only (silently nothing without CUDA)."""
    torch.manual_seed(11)
    x = torch.rand(4)
    torch.manual_seed(11)
    torch.cuda.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    torch.cuda.seed_all()
    np.testing.assert_array_equal(torch.rand(4).numpy(), x.numpy())
    assert len(torch.cuda.get_rng_state_all()) == torch.cuda.device_count()
