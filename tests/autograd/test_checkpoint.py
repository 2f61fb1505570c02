"""torch.utils.checkpoint: gradients through checkpointed regions equal the plain ones (both variants), RNG
state replay, argument handling and upstream's errors."""

from __future__ import annotations

import contextlib
import os
import warnings

import pytest

import torch
from torch import nn
from torch.utils.checkpoint import CheckpointError, checkpoint, checkpoint_sequential, set_checkpoint_early_stop

REFERENCE = "TORCH_REFERENCE" in os.environ
MODES = [True, False]


def _mlp(device="cpu", dtype=torch.float32):
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 3)).to(device=device, dtype=dtype)


def _grads(net, x, fn, seed=1):
    """The output and the gradients of the parameters and of x for loss sum(fn(x)^2), from RNG seed `seed`."""
    net.zero_grad()
    x.grad = None
    torch.manual_seed(seed)
    if x.device.type == "cuda":
        torch.cuda.manual_seed(seed)
    out = fn(x)
    out.pow(2).sum().backward()
    return out.detach(), [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]


@pytest.mark.parametrize("use_reentrant", MODES)
def test_mlp_with_dropout_matches_unchecked(use_reentrant, device):
    net = _mlp(device)
    x = torch.randn(6, 4, device=device, requires_grad=True)
    ref_out, ref = _grads(net, x, net)
    out, got = _grads(net, x, lambda t: checkpoint(net, t, use_reentrant=use_reentrant))
    assert torch.equal(out, ref_out)
    for a, b in zip(got, ref):
        torch.testing.assert_close(a, b)
    other, _ = _grads(net, x, net, seed=2)
    assert not torch.equal(other, ref_out)  # dropout's mask matters: the recomputation replayed it


@pytest.mark.parametrize("use_reentrant", MODES)
def test_without_preserved_rng_state_the_mask_differs(use_reentrant):
    x = torch.randn(200, dtype=torch.float64, requires_grad=True)

    def drop(t):
        return nn.functional.dropout(t, 0.5)

    masks = []
    for preserve in (True, False):
        x.grad = None
        torch.manual_seed(0)
        out = checkpoint(drop, x, use_reentrant=use_reentrant, preserve_rng_state=preserve)
        out.sum().backward()
        masks.append(torch.equal((out != 0).double() * 2, x.grad))
    assert masks == [True, False]


def test_gradcheck_non_reentrant():
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    c = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)

    def f(a, scale, *, b):
        return (a.exp() * scale + b.sin()).tanh()

    assert torch.autograd.gradcheck(lambda a, b: checkpoint(f, a, 3.0, b=b, use_reentrant=False), (x, c))
    assert torch.autograd.gradgradcheck(
        lambda a, b: checkpoint(lambda u, v: (u.sin() * v).sum(1), a, b, use_reentrant=False), (x, c)
    )


def test_gradcheck_reentrant_through_backward():
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
    out = checkpoint(lambda a, k: (a @ w).sin() * k, x, 2.0, use_reentrant=True)
    out.sum().backward()
    x_ref, w_ref = x.detach().requires_grad_(), w.detach().requires_grad_()
    ((x_ref @ w_ref).sin() * 2.0).sum().backward()
    torch.testing.assert_close(x.grad, x_ref.grad)
    torch.testing.assert_close(w.grad, w_ref.grad)  # closed over: accumulated by the inner backward


def test_non_reentrant_supports_grad_and_backward_inputs():
    net = _mlp(dtype=torch.float64).eval()
    x = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
    params = list(net.parameters())
    ref = torch.autograd.grad(net(x).sum(), params + [x])
    got = torch.autograd.grad(checkpoint(net, x, use_reentrant=False).sum(), params + [x])
    for a, b in zip(got, ref):
        torch.testing.assert_close(a, b)
    checkpoint(net, x, use_reentrant=False).sum().backward(inputs=[params[0]])
    assert x.grad is None
    torch.testing.assert_close(params[0].grad, ref[0])


def test_reentrant_refuses_grad():
    net = _mlp().eval()
    x = torch.randn(5, 4, requires_grad=True)
    with pytest.raises(RuntimeError, match="When use_reentrant=True, torch.utils.checkpoint is incompatible"):
        torch.autograd.grad(checkpoint(net, x, use_reentrant=True).sum(), x)


def test_inputs_without_grad():
    net = _mlp().eval()
    x = torch.randn(5, 4)
    checkpoint(net, x, use_reentrant=False).sum().backward()
    assert all(p.grad is not None for p in net.parameters())  # the closed-over parameters still get theirs
    net.zero_grad()
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True. Gradients will be None"):
        out = checkpoint(net, x, use_reentrant=True)
    assert not out.requires_grad


@pytest.mark.parametrize("use_reentrant", MODES)
def test_non_tensor_args_and_outputs(use_reentrant):
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)

    def f(a, k, name):
        assert name == "scale"
        return a * k, a.exp()

    y, z = checkpoint(f, x, 3, "scale", use_reentrant=use_reentrant)
    (y.sum() + z.sum()).backward()
    torch.testing.assert_close(x.grad, 3 + x.detach().exp())


def test_non_reentrant_nested_outputs_passthrough_and_nesting():
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)

    def g(a):
        h = a.exp()
        return {"t": h.t(), "same": a, "inner": checkpoint(lambda u: u.cos() * 2, h, use_reentrant=False)}

    out = checkpoint(g, x, use_reentrant=False)
    assert out["same"] is x
    (out["t"].sum() + out["inner"].sum()).backward()
    e = x.detach().exp()
    torch.testing.assert_close(x.grad, e - 2 * e.sin() * e)


def test_non_reentrant_closure_over_non_leaf_and_retain_graph():
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    h = x.sin()  # computed outside, closed over by the region
    out = checkpoint(lambda a: a * h, x.detach(), use_reentrant=False).sum()
    out.backward(retain_graph=True)
    first = x.grad.clone()
    out.backward()
    torch.testing.assert_close(x.grad, 2 * first)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        out.backward()


@pytest.mark.parametrize("use_reentrant", MODES)
def test_checkpoint_sequential(use_reentrant):
    torch.manual_seed(0)
    seq = nn.Sequential(*[nn.Sequential(nn.Linear(4, 4), nn.Tanh()) for _ in range(4)]).double()
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    ref = torch.autograd.grad(seq(x).sum(), list(seq.parameters()))
    for functions in (seq, list(seq.children())):
        seq.zero_grad()
        checkpoint_sequential(functions, 2, x, use_reentrant=use_reentrant).sum().backward()
        for p, r in zip(seq.parameters(), ref):
            torch.testing.assert_close(p.grad, r)
    with pytest.raises(ValueError, match="Unexpected keyword arguments: foo"):
        checkpoint_sequential(seq, 2, x, use_reentrant=use_reentrant, foo=1)


def test_use_reentrant_not_passed_warns_and_is_reentrant():
    x = torch.randn(3, requires_grad=True)
    with pytest.warns(UserWarning, match="the use_reentrant parameter should be passed explicitly"):
        out = checkpoint(lambda a: a * 2, x)
    assert "CheckpointFunctionBackward" in type(out.grad_fn).__name__
    with pytest.raises(ValueError, match="Unexpected keyword arguments: b"):  # the reentrant rule applies
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            checkpoint(lambda a, b: a * b, x, b=2)
    with pytest.warns(UserWarning, match="checkpoint_sequential: the use_reentrant parameter"):
        checkpoint_sequential([lambda a: a * 2, lambda a: a + 1], 2, x)


def test_argument_errors():
    x = torch.randn(3, requires_grad=True)
    with pytest.raises(ValueError, match="Unexpected keyword arguments: b"):
        checkpoint(lambda a, b: a * b, x, b=2, use_reentrant=True)
    with pytest.raises(ValueError, match="Passing `context_fn` or `debug` is only supported when use_reentrant=False"):
        checkpoint(lambda a: a, x, use_reentrant=True, debug=True)
    with pytest.raises(ValueError, match=r"determinism_check should be one of \['default', 'none'\], but got x"):
        checkpoint(lambda a: a * 2, x, use_reentrant=False, determinism_check="x")
    with pytest.raises(ValueError, match="debug=True is incompatible with non-default context_fn"):
        checkpoint(lambda a: a * 2, x, use_reentrant=False, debug=True, context_fn=lambda: (None, None))


def test_reentrant_output_without_grad_in_recomputation():
    x = torch.randn(3, requires_grad=True)
    calls = []

    def f(a):
        calls.append(1)
        return a * 2 if len(calls) == 1 else (a * 2).detach()

    out = checkpoint(f, x, use_reentrant=True)
    with pytest.raises(RuntimeError, match="none of output has requires_grad=True, this checkpoint"):
        out.sum().backward()


def test_non_deterministic_recomputation_raises():
    x = torch.randn(6, requires_grad=True)
    calls = []

    def f(a):
        calls.append(1)
        return a[: 2 + len(calls)].exp()

    out = checkpoint(f, x, use_reentrant=False)
    with pytest.raises(CheckpointError, match="torch.utils.checkpoint: Recomputed values"):
        out.sum().backward()


def test_context_fn_no_grad_and_early_stop():
    x = torch.randn(3, requires_grad=True)
    log = []

    @contextlib.contextmanager
    def tag(name):
        log.append(name)
        yield

    out = checkpoint(lambda a: a.exp(), x, use_reentrant=False, context_fn=lambda: (tag("fwd"), tag("recompute")))
    assert log == ["fwd"]
    out.sum().backward()
    assert log == ["fwd", "recompute"]
    torch.testing.assert_close(x.grad, x.detach().exp())
    with torch.no_grad():
        assert checkpoint(lambda a: a.exp(), x, use_reentrant=False).grad_fn is None
    with set_checkpoint_early_stop(False):
        x.grad = None
        checkpoint(lambda a: a.sin(), x, use_reentrant=False).sum().backward()
    torch.testing.assert_close(x.grad, x.detach().cos())


@pytest.mark.skipif(REFERENCE, reason="upstream keeps the region's graph (its saved tensors go through hooks)")
def test_non_reentrant_cuts_the_region_out_of_the_graph():
    net = _mlp()
    x = torch.randn(5, 4, requires_grad=True)
    out = checkpoint(net, x, use_reentrant=False)
    edges = out.grad_fn.next_functions
    assert type(out.grad_fn).__name__ == "CheckpointBackward"
    assert len(edges) == 5 and all(type(n).__name__ == "AccumulateGrad" for n, _ in edges)
    assert {id(n.variable) for n, _ in edges} == {id(p) for p in net.parameters()} | {id(x)}


@pytest.mark.skipif(not hasattr(torch, "autocast"), reason="a build without autocast")
@pytest.mark.parametrize("use_reentrant", MODES)
def test_recomputation_replays_autocast(use_reentrant):
    torch.manual_seed(0)
    x = torch.randn(4, 8, requires_grad=True)
    w = torch.randn(8, 8, requires_grad=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = checkpoint(lambda a: a @ w, x, use_reentrant=use_reentrant)
    assert out.dtype == torch.bfloat16
    out.float().sum().backward()  # outside the autocast region: the recomputation must still be in bfloat16
    got = w.grad.clone()
    w.grad = None
    with torch.autocast("cpu", dtype=torch.bfloat16):
        ref = x @ w
    ref.float().sum().backward()
    assert torch.equal(got, w.grad)
