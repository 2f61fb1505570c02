"""torch.nn.utils.prune: the name_orig * name_mask reparametrization and its forward pre-hook, L1/Ln masks against
NumPy, counts and structure for random pruning, iterative pruning (PruningContainer), global and custom masks,
remove(), gradients and state_dict. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch import nn
from torch.nn.utils import prune

INF = float("inf")


def distinct(shape, seed=0):
    """Values with distinct absolute values (no ties for L1 pruning), random signs, as a float32 array."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    mags = (rng.permutation(n) + 1).astype(np.float32) / n
    return (mags * rng.choice([-1.0, 1.0], size=n)).astype(np.float32).reshape(shape)


def linear(out_f=3, in_f=4, seed=0):
    m = nn.Linear(in_f, out_f)
    with torch.no_grad():
        m.weight.copy_(torch.tensor(distinct((out_f, in_f), seed)))
        m.bias.copy_(torch.tensor(distinct((out_f,), seed + 1)))
    return m


def l1_mask(a, k):
    """NumPy mask zeroing the k entries of smallest |a|."""
    mask = np.ones(a.size, dtype=np.float32)
    mask[np.argsort(np.abs(a).ravel(), kind="stable")[:k]] = 0
    return mask.reshape(a.shape)


def np_(t):
    return t.detach().numpy()


def check_reparam(m, name="weight"):
    orig, mask = getattr(m, name + "_orig"), getattr(m, name + "_mask")
    assert isinstance(orig, nn.Parameter) and name not in m._parameters and name + "_mask" in m._buffers
    assert not isinstance(getattr(m, name), nn.Parameter)
    assert set(np.unique(np_(mask))) <= {0.0, 1.0}
    np.testing.assert_array_equal(np_(getattr(m, name)), np_(orig) * np_(mask))
    return np_(mask)


def test_identity_sets_up_reparametrization():
    m = linear()
    w = np_(m.weight).copy()
    assert prune.identity(m, "weight") is m
    mask = check_reparam(m)
    np.testing.assert_array_equal(mask, np.ones((3, 4), np.float32))
    np.testing.assert_array_equal(np_(m.weight_orig), w)
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight_orig"]
    assert [n for n, _ in m.named_buffers()] == ["weight_mask"]
    hooks = list(m._forward_pre_hooks.values())
    assert len(hooks) == 1 and isinstance(hooks[0], prune.Identity) and hooks[0]._tensor_name == "weight"


def test_weight_recomputed_from_orig_in_forward():
    m = prune.l1_unstructured(linear(), "weight", amount=4)
    mask = check_reparam(m)
    with torch.no_grad():
        m.weight_orig.mul_(2.0)
    x = torch.tensor(distinct((2, 4), 5))
    y = m(x)
    expected_w = np_(m.weight_orig) * mask
    np.testing.assert_array_equal(np_(m.weight), expected_w)
    np.testing.assert_allclose(np_(y), np_(x) @ expected_w.T + np_(m.bias), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("amount,k", [(0, 0), (5, 5), (12, 12), (0.0, 0), (0.25, 3), (0.5, 6), (0.75, 9), (1.0, 12)])
def test_l1_unstructured_mask(amount, k):
    m = linear()
    w = np_(m.weight).copy()
    prune.l1_unstructured(m, "weight", amount=amount)
    np.testing.assert_array_equal(check_reparam(m), l1_mask(w, k))


@pytest.mark.parametrize("amount,k", [(1, 1), (7, 7), (0.5, 6), (1.0, 12), (0, 0)])
def test_random_unstructured_counts(amount, k):
    m = prune.random_unstructured(linear(), "weight", amount=amount)
    assert int((check_reparam(m) == 0).sum()) == k


def test_amount_validation():
    for bad in (-1, -0.1, 1.5):
        with pytest.raises(ValueError, match=r"should either be a float in the range \[0, 1\] or a non-negative"):
            prune.l1_unstructured(linear(), "weight", amount=bad)
    with pytest.raises(TypeError, match="Invalid type for amount"):
        prune.random_unstructured(linear(), "weight", amount="half")
    m = linear()
    w = np_(m.weight).copy()
    with pytest.raises(ValueError, match="should be smaller than the number of parameters to prune=12"):
        prune.l1_unstructured(m, "weight", amount=13)
    # the failed pruning is rolled back: weight is a Parameter again, nothing left behind
    assert isinstance(m.weight, nn.Parameter) and "weight" in m._parameters
    assert not hasattr(m, "weight_orig") and not hasattr(m, "weight_mask") and not prune.is_pruned(m)
    np.testing.assert_array_equal(np_(m.weight), w)
    with pytest.raises(ValueError, match="should be smaller than the number of parameters to prune=3"):
        prune.ln_structured(linear(), "weight", amount=4, n=2, dim=0)
    with pytest.raises(ValueError, match="Structured pruning can only be applied to multidimensional tensors"):
        prune.random_structured(linear(), "bias", amount=1, dim=0)
    with pytest.raises(IndexError, match="Invalid index 2"):
        prune.ln_structured(linear(), "weight", amount=1, n=1, dim=2)
    with pytest.raises(AssertionError, match="importance_scores should have the same shape"):
        prune.l1_unstructured(linear(), "weight", amount=1, importance_scores=torch.ones(4, 3))


def test_iterative_pruning_composes_into_container():
    m = linear()
    w = np_(m.weight).copy()
    prune.l1_unstructured(m, "weight", amount=3)
    prune.l1_unstructured(m, "weight", amount=2)
    # the second pruning acts on the still-unpruned entries: 5 smallest in all
    np.testing.assert_array_equal(check_reparam(m), l1_mask(w, 5))
    hooks = list(m._forward_pre_hooks.values())
    assert len(hooks) == 1 and isinstance(hooks[0], prune.PruningContainer) and len(hooks[0]) == 2
    before = check_reparam(m)
    prune.random_unstructured(m, "weight", amount=4)
    after = check_reparam(m)
    assert int((after == 0).sum()) == 9 and np.all(after[before == 0] == 0)
    container = next(iter(m._forward_pre_hooks.values()))
    assert [type(h).__name__ for h in container] == ["L1Unstructured", "L1Unstructured", "RandomUnstructured"]
    assert isinstance(container[-1], prune.RandomUnstructured)


def test_iterative_structured_then_unstructured():
    m = linear(4, 5, seed=3)
    w = np_(m.weight).copy()
    order = np.argsort(np.abs(w).sum(axis=1))
    prune.ln_structured(m, "weight", amount=1, n=1, dim=0)
    prune.ln_structured(m, "weight", amount=1, n=1, dim=0)
    mask = check_reparam(m)
    expected = np.ones_like(w)
    expected[order[:2]] = 0
    np.testing.assert_array_equal(mask, expected)
    prune.l1_unstructured(m, "weight", amount=3)  # acts on the 10 kept entries only
    kept = np.where(expected.ravel() == 1)[0]
    expected.ravel()[kept[np.argsort(np.abs(w.ravel()[kept]))[:3]]] = 0
    np.testing.assert_array_equal(check_reparam(m), expected)


def test_importance_scores():
    m = linear()
    scores = distinct((3, 4), seed=9)
    prune.l1_unstructured(m, "weight", amount=5, importance_scores=torch.tensor(scores))
    np.testing.assert_array_equal(check_reparam(m), l1_mask(scores, 5))
    m = linear(4, 5)
    prune.ln_structured(m, "weight", amount=2, n=2, dim=1, importance_scores=torch.tensor(distinct((4, 5), 7)))
    expected = np.ones((4, 5), np.float32)
    expected[:, np.argsort(np.linalg.norm(distinct((4, 5), 7), axis=0))[:2]] = 0
    np.testing.assert_array_equal(check_reparam(m), expected)


@pytest.mark.parametrize("n", [1, 2, INF])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_ln_structured_mask(n, dim):
    m = nn.Linear(6, 5)
    w = np.random.default_rng(11).standard_normal((5, 6)).astype(np.float32)
    with torch.no_grad():
        m.weight.copy_(torch.tensor(w))
    norms = np.linalg.norm(w, ord=n, axis=1 - (dim % 2))
    assert np.min(np.diff(np.sort(norms))) > 1e-3  # no near-ties
    prune.ln_structured(m, "weight", amount=2, n=n, dim=dim)
    expected = np.ones_like(w)
    idx = [slice(None)] * 2
    idx[dim] = np.argsort(norms)[:2]
    expected[tuple(idx)] = 0
    np.testing.assert_array_equal(check_reparam(m), expected)


@pytest.mark.parametrize("dim", [0, 1])
def test_random_structured_channels(dim):
    m = nn.Conv2d(4, 6, 3)
    prune.random_structured(m, "weight", amount=0.5, dim=dim)
    mask = check_reparam(m)
    other = tuple(d for d in range(4) if d != dim)
    per_channel = mask.sum(axis=other)
    full = mask.size // mask.shape[dim]
    assert set(per_channel.tolist()) <= {0.0, float(full)}
    assert int((per_channel == 0).sum()) == round(0.5 * mask.shape[dim])
    prune.random_structured(m, "weight", amount=1, dim=dim)  # one more among the kept channels
    assert int((check_reparam(m).sum(axis=other) == 0).sum()) == round(0.5 * mask.shape[dim]) + 1


def test_global_unstructured():
    a, b = linear(3, 4, seed=0), linear(2, 5, seed=1)
    vals = distinct((22,), seed=4)
    with torch.no_grad():
        a.weight.copy_(torch.tensor(vals[:12].reshape(3, 4)))
        b.weight.copy_(torch.tensor(vals[12:].reshape(2, 5)))
    params = [(a, "weight"), (b, "weight")]
    prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=7)
    expected = l1_mask(vals, 7)
    np.testing.assert_array_equal(check_reparam(a), expected[:12].reshape(3, 4))
    np.testing.assert_array_equal(check_reparam(b), expected[12:].reshape(2, 5))
    for mod in (a, b):
        assert [type(h) for h in mod._forward_pre_hooks.values()] == [prune.CustomFromMask]
    prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=0.25)  # of the 15 kept: 4 more
    expected = l1_mask(vals, 11)
    np.testing.assert_array_equal(check_reparam(a), expected[:12].reshape(3, 4))
    np.testing.assert_array_equal(check_reparam(b), expected[12:].reshape(2, 5))
    with pytest.raises(TypeError, match='Only "unstructured" PRUNING_TYPE supported'):
        prune.global_unstructured(params, pruning_method=prune.RandomStructured, amount=1)


def test_global_unstructured_importance_scores_and_random():
    a, b = linear(3, 4), linear(2, 5)
    sa, sb = distinct((3, 4), 2), distinct((2, 5), 3) * 0.5
    scores = {(a, "weight"): torch.tensor(sa), (b, "weight"): torch.tensor(sb)}
    prune.global_unstructured(((a, "weight"), (b, "weight")), prune.L1Unstructured, importance_scores=scores, amount=8)
    expected = l1_mask(np.concatenate([sa.ravel(), sb.ravel()]), 8)
    np.testing.assert_array_equal(check_reparam(a), expected[:12].reshape(3, 4))
    np.testing.assert_array_equal(check_reparam(b), expected[12:].reshape(2, 5))
    c, d = linear(3, 4), linear(2, 5)
    prune.global_unstructured([(c, "weight"), (d, "bias")], prune.RandomUnstructured, amount=6)
    assert int((check_reparam(c) == 0).sum() + (check_reparam(d, "bias") == 0).sum()) == 6


def test_custom_from_mask_and_bias():
    m = prune.custom_from_mask(linear(), "bias", mask=torch.tensor([0, 1, 0]))
    np.testing.assert_array_equal(check_reparam(m, "bias"), np.array([0, 1, 0], np.float32))
    assert m.bias_mask.dtype == torch.float32 and isinstance(m.weight, nn.Parameter)
    prune.custom_from_mask(m, "bias", mask=torch.tensor([1, 1, 0]))  # combined with the current mask
    np.testing.assert_array_equal(check_reparam(m, "bias"), np.array([0, 1, 0], np.float32))
    m2 = linear()
    b = np_(m2.bias).copy()
    prune.l1_unstructured(m2, "bias", amount=1)
    np.testing.assert_array_equal(check_reparam(m2, "bias"), l1_mask(b, 1))
    assert [n for n, _ in m2.named_parameters()] == ["weight", "bias_orig"]


def test_remove_makes_pruning_permanent():
    m = linear()
    prune.l1_unstructured(m, "weight", amount=3)
    prune.random_unstructured(m, "weight", amount=2)
    pruned = np_(m.weight).copy()
    assert prune.remove(m, "weight") is m
    assert isinstance(m.weight, nn.Parameter) and "weight" in m._parameters
    assert not hasattr(m, "weight_orig") and not hasattr(m, "weight_mask")
    assert len(m._forward_pre_hooks) == 0 and not prune.is_pruned(m)
    np.testing.assert_array_equal(np_(m.weight), pruned)
    assert sorted(m.state_dict().keys()) == ["bias", "weight"]
    with torch.no_grad():
        m.weight.fill_(1.0)
    m(torch.ones(1, 4))
    np.testing.assert_array_equal(np_(m.weight), np.ones((3, 4), np.float32))  # no mask reapplied
    with pytest.raises(ValueError, match="has to be pruned before pruning can be removed"):
        prune.remove(m, "weight")


def test_is_pruned_on_submodules():
    net = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.ReLU(), nn.Linear(3, 2)))
    assert not prune.is_pruned(net)
    prune.random_unstructured(net[1][1], "bias", amount=1)
    assert prune.is_pruned(net) and prune.is_pruned(net[1]) and not prune.is_pruned(net[0])


def test_gradient_reaches_orig_with_zeros_where_masked():
    m = prune.l1_unstructured(linear(), "weight", amount=5)
    mask = check_reparam(m)
    x = torch.tensor(distinct((2, 4), 6))
    m(x).sum().backward()
    expected = np.broadcast_to(np_(x).sum(axis=0), (3, 4)) * mask
    np.testing.assert_allclose(np_(m.weight_orig.grad), expected, rtol=1e-6)
    assert np.all(np_(m.weight_orig.grad)[mask == 0] == 0)
    np.testing.assert_allclose(np_(m.bias.grad), np.full(3, 2.0, np.float32))


def test_state_dict_keys_and_round_trip():
    m = prune.l1_unstructured(linear(), "weight", amount=0.5)
    sd = m.state_dict()
    assert list(sd.keys()) == ["bias", "weight_orig", "weight_mask"]
    other = prune.identity(nn.Linear(4, 3), "weight")
    other.load_state_dict(sd)
    x = torch.tensor(distinct((2, 4), 8))
    np.testing.assert_array_equal(np_(other(x)), np_(m(x)))
    np.testing.assert_array_equal(np_(other.weight_mask), np_(m.weight_mask))


def test_pruning_method_prune_and_container_checks():
    t = torch.tensor(distinct((3, 4), 1))
    np.testing.assert_array_equal(np_(prune.L1Unstructured(amount=4).prune(t)), np_(t) * l1_mask(np_(t), 4))
    a = prune.Identity()
    a._tensor_name = "weight"
    b = prune.Identity()
    b._tensor_name = "bias"
    c = prune.PruningContainer(a)
    with pytest.raises(ValueError, match="Can only add pruning methods acting on the parameter named 'weight'"):
        c.add_pruning_method(b)
    with pytest.raises(TypeError, match="is not a BasePruningMethod subclass"):
        c.add_pruning_method(nn.ReLU())


def test_pruned_network_forward_backward():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(2, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 2 * 2, 3))
    prune.ln_structured(net[0], "weight", amount=2, n=2, dim=0)
    prune.l1_unstructured(net[3], "weight", amount=0.5)
    x = torch.randn(5, 2, 4, 4)
    out = net(x)
    assert out.shape == (5, 3)
    out.pow(2).sum().backward()
    cmask = np_(net[0].weight_mask)
    dead = np.where(cmask.reshape(4, -1).sum(axis=1) == 0)[0]
    assert len(dead) == 2
    conv_out = np_(net[0](x))
    for c in dead:  # a pruned filter outputs its bias only
        np.testing.assert_allclose(conv_out[:, c], np.full((5, 2, 2), np_(net[0].bias)[c]), rtol=1e-6)
        assert np.all(np_(net[0].weight_orig.grad)[c] == 0)
    lmask = np_(net[3].weight_mask)
    assert int((lmask == 0).sum()) == 24
    assert np.all(np_(net[3].weight_orig.grad)[lmask == 0] == 0)
    assert net[0].weight_orig.grad.shape == (4, 2, 3, 3) and net[3].bias.grad is not None
