"""nn.DataParallel / nn.parallel: without a GPU the wrapped module runs as it is (upstream's behaviour there) and
the wrapper's state_dict carries the `module.` prefix of checkpoints saved from DataParallel models; on GPUs
(tests marked cuda) the split batch gives the module's own outputs and gradients. Runs against upstream PyTorch
too (TORCH_REFERENCE)."""

from __future__ import annotations

import os

import pytest

import torch
from torch import nn

REFERENCE = "TORCH_REFERENCE" in os.environ


def _model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))


def test_without_a_gpu_the_module_runs_as_it_is():
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    model = _model()
    dp = nn.DataParallel(model)
    assert dp.device_ids == [] and dp.module is model
    x = torch.randn(5, 4)
    torch.testing.assert_close(dp(x), model(x))
    if not REFERENCE:  # upstream's data_parallel() raises "device type could not be determined" here
        torch.testing.assert_close(nn.parallel.data_parallel(model, x), model(x))


def test_state_dict_has_the_module_prefix_and_loads_back():
    model = _model()
    dp = nn.DataParallel(model)
    keys = list(dp.state_dict())
    assert keys == ["module." + k for k in model.state_dict()]
    fresh = nn.DataParallel(_model())
    fresh.load_state_dict(dp.state_dict())
    stripped = {k.removeprefix("module."): v for k, v in dp.state_dict().items()}
    _model().load_state_dict(stripped)
    assert "(module): Sequential(" in repr(dp)


def test_backward_reaches_the_wrapped_parameters():
    model = _model()
    dp = nn.DataParallel(model)
    dp(torch.randn(6, 4)).sum().backward()
    assert all(p.grad is not None for p in model.parameters())


def test_distributed_data_parallel_needs_a_process_group():
    with pytest.raises((ValueError, RuntimeError)):
        nn.parallel.DistributedDataParallel(nn.Linear(2, 2))


@pytest.mark.skipif(REFERENCE, reason="upstream's parallel_apply needs a GPU")
def test_parallel_apply_runs_each_module_and_reraises_errors():
    mods = [nn.Linear(2, 2), nn.Linear(2, 2)]
    xs = [(torch.ones(1, 2),), (torch.zeros(1, 2),)]
    outs = nn.parallel.parallel_apply(mods, xs)
    torch.testing.assert_close(outs[0], mods[0](xs[0][0]))
    torch.testing.assert_close(outs[1], mods[1](xs[1][0]))

    def bad(x):
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        nn.parallel.parallel_apply([mods[0], bad], xs)


@pytest.mark.cuda
def test_on_gpus_the_split_batch_matches_the_module():
    model = _model()
    reference = _model().cuda()
    dp = nn.DataParallel(model.cuda())
    x = torch.randn(7, 4, device="cuda", requires_grad=True)
    out = dp(x)
    expected = reference(x)
    torch.testing.assert_close(out, expected)
    out.pow(2).sum().backward()
    g = torch.autograd.grad(expected.pow(2).sum(), list(reference.parameters()))
    for p, gp in zip(model.parameters(), g):
        torch.testing.assert_close(p.grad, gp)


@pytest.mark.skipif(REFERENCE, reason="upstream's replicate needs GPUs")
def test_replicas_compute_the_module_and_backpropagate_into_it():
    model = _model()
    replicas = nn.parallel.replicate(model, [torch.device("cpu"), torch.device("cpu")])
    x = torch.randn(3, 4)
    for r in replicas:
        torch.testing.assert_close(r(x), model(x))
    replicas[1](x).sum().backward()
    grads = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    model(x).sum().backward()
    for g, p in zip(grads, model.parameters()):
        torch.testing.assert_close(g, p.grad)
    detached = nn.parallel.replicate(model, [torch.device("cpu"), torch.device("cpu")], detach=True)
    assert not detached[1](x).requires_grad
