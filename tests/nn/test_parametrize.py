"""torch.nn.utils.parametrize, torch.nn.utils.parametrizations (orthogonal, weight_norm, spectral_norm) and
the hook-based torch.nn.utils.weight_norm / spectral_norm: values against NumPy formulas, gradients,
state_dict keys and round trips, removal, caching and upstream's error messages."""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

import torch
from torch import nn
from torch.nn.utils import parametrizations as PZ
from torch.nn.utils import parametrize as P
from torch.nn.utils.spectral_norm import remove_spectral_norm
from torch.nn.utils.spectral_norm import spectral_norm as hook_spectral_norm
from torch.nn.utils.weight_norm import remove_weight_norm
from torch.nn.utils.weight_norm import weight_norm as hook_weight_norm


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).mT


class Scale(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.calls = 0

    def forward(self, X):
        self.calls += 1
        return X * self.c

    def right_inverse(self, X):
        return X / self.c


class RankOne(nn.Module):
    def forward(self, x, y):
        return x.unsqueeze(-1) @ y.unsqueeze(-2)

    def right_inverse(self, Z):
        return Z[:, 0].clone(), torch.ones(Z.shape[1], dtype=Z.dtype)


class Flatten(nn.Module):
    def forward(self, X):
        return X.reshape(-1)


class ToDouble(nn.Module):
    def forward(self, X):
        return X.double()


def _np(t):
    return t.detach().numpy()


# ---- parametrize core


def test_register_swaps_class_and_moves_original():
    torch.manual_seed(0)
    m = nn.Linear(3, 3)
    w = m.weight
    w0 = w.detach().clone()
    assert P.register_parametrization(m, "weight", Symmetric()) is m
    assert type(m).__name__ == "ParametrizedLinear"
    assert isinstance(m, nn.Linear) and type(m) is not nn.Linear
    assert P.type_before_parametrizations(m) is nn.Linear
    assert P.type_before_parametrizations(nn.Linear(2, 2)) is nn.Linear
    assert P.is_parametrized(m) and P.is_parametrized(m, "weight") and not P.is_parametrized(m, "bias")
    assert not P.is_parametrized(nn.Linear(2, 2))
    assert m.parametrizations.weight.original is w  # the same Parameter object (optimizers keep working)
    assert isinstance(m.parametrizations.weight, P.ParametrizationList)
    W = _np(m.weight)
    np.testing.assert_allclose(W, np.triu(_np(w0)) + np.triu(_np(w0), 1).T)
    np.testing.assert_allclose(W, W.T)
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original"]
    assert "weight" not in dict(m.named_parameters())
    assert "parametrizations.weight.original" in dict(m.named_parameters())
    x = torch.randn(2, 3)
    np.testing.assert_allclose(_np(m(x)), _np(x) @ W.T + _np(m.bias), rtol=1e-5, atol=1e-6)


def test_gradient_reaches_original():
    m = nn.Linear(3, 3)
    P.register_parametrization(m, "weight", Symmetric())
    m.weight.sum().backward()
    # d/dW of sum(triu(W) + triu(W, 1)^T): 2 strictly above the diagonal, 1 on it, 0 below
    expected = np.triu(np.ones((3, 3))) + np.triu(np.ones((3, 3)), 1)
    np.testing.assert_allclose(_np(m.parametrizations.weight.original.grad), expected)


def _fd_check_parameter_grads(m, x, eps=1e-6):
    # central finite differences of sum(m(x)**2) against autograd, for every parameter of m (float64)
    m.zero_grad()
    (m(x) ** 2).sum().backward()
    for name, p in m.named_parameters():
        numeric = torch.zeros_like(p)
        flat, nflat = p.data.view(-1), numeric.view(-1)
        for i in range(flat.numel()):
            with torch.no_grad():
                old = float(flat[i])
                flat[i] = old + eps
                plus = float((m(x) ** 2).sum())
                flat[i] = old - eps
                minus = float((m(x) ** 2).sum())
                flat[i] = old
            nflat[i] = (plus - minus) / (2 * eps)
        np.testing.assert_allclose(_np(p.grad), _np(numeric), rtol=1e-6, atol=1e-8, err_msg=name)


def test_gradcheck_through_parametrized_linear():
    torch.manual_seed(0)
    m = nn.Linear(3, 3).double()
    P.register_parametrization(m, "weight", Symmetric())
    P.register_parametrization(m, "weight", Scale(2.0))
    x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(m, (x,))
    _fd_check_parameter_grads(m, x.detach())
    m = P.register_parametrization(nn.Linear(3, 4).double(), "weight", RankOne())
    _fd_check_parameter_grads(m, x.detach())
    names = {n for n, _ in m.named_parameters()}
    assert names == {"bias", "parametrizations.weight.original0", "parametrizations.weight.original1"}


def test_chained_parametrizations_and_right_inverse():
    torch.manual_seed(0)
    m = nn.Linear(3, 3)
    w = m.weight
    w0 = w.detach().clone()
    P.register_parametrization(m, "weight", Scale(2.0))  # right_inverse divides: original = w0 / 2
    np.testing.assert_allclose(_np(m.parametrizations.weight.original), _np(w0) / 2, rtol=1e-6)
    np.testing.assert_allclose(_np(m.weight), _np(w0), rtol=1e-6)
    P.register_parametrization(m, "weight", Scale(3.0))  # appended: original untouched, weight = 3 * w0
    assert len(m.parametrizations.weight) == 2
    np.testing.assert_allclose(_np(m.weight), 3 * _np(w0), rtol=1e-6)
    target = torch.arange(9.0).reshape(3, 3)
    m.weight = target  # right_inverse of the whole chain, in reverse order
    assert m.parametrizations.weight.original is w
    np.testing.assert_allclose(_np(w), _np(target) / 6, rtol=1e-6)
    np.testing.assert_allclose(_np(m.weight), _np(target), rtol=1e-6)


def test_tuple_right_inverse_gives_original0_1():
    m = nn.Linear(3, 4)
    P.register_parametrization(m, "weight", RankOne())
    pl = m.parametrizations.weight
    assert not hasattr(pl, "original") and pl.ntensors == 2
    assert isinstance(pl.original0, nn.Parameter) and pl.original1.shape == (3,)
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original0", "parametrizations.weight.original1"]
    assert np.linalg.matrix_rank(_np(m.weight)) == 1
    np.testing.assert_allclose(_np(m.weight), np.outer(_np(pl.original0), _np(pl.original1)), rtol=1e-6)


def test_parametrize_buffer():
    m = nn.Module()
    m.register_buffer("b", torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    P.register_parametrization(m, "b", Symmetric())
    assert "original" in m.parametrizations.b._buffers
    assert list(m.state_dict()) == ["parametrizations.b.original"]
    np.testing.assert_allclose(_np(m.b), [[1.0, 2.0], [2.0, 4.0]])


@pytest.mark.parametrize("leave", [True, False])
def test_remove_parametrizations_single_tensor(leave):
    m = nn.Linear(3, 3)
    w = m.weight
    w0 = w.detach().clone()
    P.register_parametrization(m, "weight", Scale(2.0))
    P.register_parametrization(m, "weight", Symmetric())
    W = m.weight.detach().clone()
    assert P.remove_parametrizations(m, "weight", leave_parametrized=leave) is m
    assert type(m) is nn.Linear and not hasattr(m, "parametrizations")
    assert m.weight is w and isinstance(m.weight, nn.Parameter)
    np.testing.assert_allclose(_np(m.weight), _np(W) if leave else _np(w0) / 2, rtol=1e-6)
    assert list(m.state_dict()) == ["bias", "weight"]


def test_remove_keeps_class_while_others_parametrized():
    m = nn.Linear(3, 3)
    P.register_parametrization(m, "weight", Symmetric())
    P.register_parametrization(m, "bias", Scale(2.0))
    P.remove_parametrizations(m, "weight")
    assert type(m).__name__ == "ParametrizedLinear" and P.is_parametrized(m, "bias")
    assert not P.is_parametrized(m, "weight") and "weight" in m._parameters
    P.remove_parametrizations(m, "bias")
    assert type(m) is nn.Linear


def test_remove_parametrizations_tuple():
    m = nn.Linear(3, 4)
    P.register_parametrization(m, "weight", RankOne())
    W = m.weight.detach().clone()
    with pytest.raises(ValueError, match=r"Cannot leave unparametrized \(`leave_parametrized=False`\) a tensor"):
        P.remove_parametrizations(m, "weight", leave_parametrized=False)
    P.remove_parametrizations(m, "weight")
    assert isinstance(m.weight, nn.Parameter) and m.weight.is_leaf
    np.testing.assert_allclose(_np(m.weight), _np(W))
    with pytest.raises(ValueError, match="does not have a parametrization on weight"):
        P.remove_parametrizations(m, "weight")


def test_cached():
    m = nn.Linear(3, 3)
    scale = Scale(2.0)
    P.register_parametrization(m, "weight", scale)
    scale.calls = 0
    assert m.weight is not m.weight
    assert scale.calls == 2
    with P.cached():
        a = m.weight
        with P.cached():
            b = m.weight
        assert m.weight is a is b
    assert scale.calls == 3
    assert m.weight is not a


def test_state_dict_round_trip_and_train_mode():
    torch.manual_seed(0)
    src = P.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
    dst = P.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
    dst.load_state_dict(src.state_dict())
    np.testing.assert_allclose(_np(dst.weight), _np(src.weight))
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "parametrizations.weight.original"'):
        dst.load_state_dict(nn.Linear(3, 3).state_dict())
    dst.eval()
    assert not dst.parametrizations.weight[0].training
    m = nn.Linear(2, 2).eval()
    P.register_parametrization(m, "weight", Symmetric())
    assert not m.parametrizations.weight[0].training


def test_deepcopy_and_pickle():
    m = P.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
    c = copy.deepcopy(m)
    assert type(c) is type(m) and c.parametrizations.weight.original is not m.parametrizations.weight.original
    np.testing.assert_allclose(_np(c.weight), _np(m.weight))
    with torch.no_grad():
        c.parametrizations.weight.original.zero_()
    assert float(m.weight.detach().abs().sum()) > 0 and float(c.weight.detach().abs().sum()) == 0
    with pytest.raises(RuntimeError, match="Serialization of parametrized modules is only supported"):
        pickle.dumps(m)


def test_transfer_parametrizations_and_params():
    src = P.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
    dst = nn.Linear(3, 3)
    assert P.transfer_parametrizations_and_params(src, dst) is dst
    assert P.is_parametrized(dst, "weight") and not P.is_parametrized(dst, "bias")
    assert dst.parametrizations.weight.original is src.parametrizations.weight.original
    np.testing.assert_allclose(_np(dst.weight), _np(src.weight))
    assert P.transfer_parametrizations_and_params(nn.Linear(2, 2), nn.Linear(2, 2)) is not None


def test_register_errors():
    with pytest.raises(ValueError, match="may not change the shape of the tensor, unless `unsafe` flag is enabled"):
        P.register_parametrization(nn.Linear(3, 3), "weight", Flatten())
    with pytest.raises(ValueError, match=r"unparametrized dtype: torch.float32\nparametrized dtype: torch.float64"):
        P.register_parametrization(nn.Linear(3, 3), "weight", ToDouble())
    m = nn.Linear(3, 3)
    w = m.weight
    with pytest.raises(ValueError):
        P.register_parametrization(m, "weight", Flatten())
    assert type(m) is nn.Linear and m.weight is w  # a failed registration leaves the module alone
    P.register_parametrization(m, "weight", Flatten(), unsafe=True)
    assert m.weight.shape == (9,) and m.parametrizations.weight.unsafe
    m = P.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
    with pytest.raises(ValueError, match=r"module.weight.shape: torch.Size\(\[3, 3\]\)\nparametrization"):
        P.register_parametrization(m, "weight", Flatten())
    with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a parametrized element with name"):
        P.register_parametrization(nn.Linear(3, 3), "nope", Symmetric())

    class BadInverse(nn.Module):
        def forward(self, X):
            return X

        def right_inverse(self, X):
            return 3

    with pytest.raises(ValueError, match="'right_inverse' must return a Tensor or a Sequence of tensors"):
        P.register_parametrization(nn.Linear(3, 3), "weight", BadInverse())
    m = P.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
    with pytest.raises(RuntimeError, match="parametrization Symmetric does not implement right_inverse"):
        m.weight = torch.zeros(3, 3)
    with pytest.raises(ValueError, match="ParametrizationList requires one or more modules"):
        P.ParametrizationList([], torch.zeros(2))


# ---- parametrizations.orthogonal


def _check_orthogonal(Q):
    Q = Q.detach()
    n, k = Q.shape[-2], Q.shape[-1]
    G = Q.mH @ Q if n >= k else Q @ Q.mH
    eye = np.broadcast_to(np.eye(min(n, k)), G.shape)
    np.testing.assert_allclose(G.numpy(), eye, atol=1e-5)


@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("use_trivialization", [True, False])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 4, 3)])
def test_orthogonal_real(orthogonal_map, use_trivialization, shape):
    torch.manual_seed(0)
    m = nn.Module()
    m.weight = nn.Parameter(torch.randn(*shape))
    PZ.orthogonal(m, orthogonal_map=orthogonal_map, use_trivialization=use_trivialization)
    assert type(m.parametrizations.weight[0]).__name__ == "_Orthogonal"
    assert hasattr(m.parametrizations.weight[0], "base") == use_trivialization
    _check_orthogonal(m.weight)
    original = m.parametrizations.weight.original
    (m.weight * torch.randn(*shape)).sum().backward()  # a gradient step keeps it orthogonal
    with torch.no_grad():
        original.sub_(0.5 * original.grad)
    _check_orthogonal(m.weight)


@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley"])
@pytest.mark.parametrize("shape", [(4, 4), (5, 3)])
def test_orthogonal_complex(orthogonal_map, shape):
    torch.manual_seed(0)
    m = nn.Module()
    m.weight = nn.Parameter(torch.randn(*shape, dtype=torch.complex64))
    PZ.orthogonal(m, orthogonal_map=orthogonal_map)
    assert m.weight.dtype == torch.complex64
    _check_orthogonal(m.weight)


def test_orthogonal_keeps_orthogonal_init_and_assignment():
    torch.manual_seed(0)
    Q0, _ = np.linalg.qr(np.random.default_rng(0).standard_normal((5, 3)))
    m = nn.Linear(3, 5, bias=False)
    with torch.no_grad():
        m.weight.copy_(torch.tensor(Q0, dtype=torch.float32))
    PZ.orthogonal(m)  # default map for a tall real matrix: householder
    np.testing.assert_allclose(_np(m.weight), Q0, atol=1e-5)
    Q1, _ = np.linalg.qr(np.random.default_rng(1).standard_normal((5, 3)))
    m.weight = torch.tensor(Q1, dtype=torch.float32)
    np.testing.assert_allclose(_np(m.weight), Q1, atol=1e-5)
    m = PZ.orthogonal(nn.Linear(4, 4), use_trivialization=False)  # matrix_exp without base: not invertible
    with pytest.raises(NotImplementedError, match="It is not possible to assign to the matrix exponential"):
        m.weight = torch.eye(4)


@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley", "householder"])
def test_orthogonal_gradcheck(orthogonal_map):
    torch.manual_seed(0)
    m = nn.Module()
    m.weight = nn.Parameter(torch.randn(4, 3, dtype=torch.float64))
    PZ.orthogonal(m, orthogonal_map=orthogonal_map, use_trivialization=False)
    orth = m.parametrizations.weight[0]
    X0 = m.parametrizations.weight.original.detach()
    # householder reads only signs off the diagonal (a step function): keep the diagonal fixed
    diag = torch.zeros_like(X0)
    diag.diagonal().copy_(X0.diagonal())
    L = X0.tril(-1).clone().requires_grad_(True)
    assert torch.autograd.gradcheck(lambda L: orth(L.tril(-1) + diag), (L,))


def test_orthogonal_errors():
    with pytest.raises(ValueError, match="Expected a matrix or batch of matrices. Got a tensor of 1 dimensions."):
        PZ.orthogonal(nn.Linear(3, 3), "bias")
    with pytest.raises(ValueError, match="has no parameter or buffer with name 'nope'"):
        PZ.orthogonal(nn.Linear(3, 3), "nope")
    with pytest.raises(ValueError, match='orthogonal_map has to be one of "matrix_exp", "cayley", "householder"'):
        PZ.orthogonal(nn.Linear(3, 3), orthogonal_map="qr")
    m = nn.Module()
    m.weight = nn.Parameter(torch.randn(3, 3, dtype=torch.complex64))
    with pytest.raises(ValueError, match="The householder parametrization does not support complex tensors."):
        PZ.orthogonal(m, orthogonal_map="householder")


# ---- weight norm


def _np_weight_norm(g, v, dim):
    if dim is None:
        return g * v / np.linalg.norm(v)
    axes = tuple(a for a in range(v.ndim) if a != dim % v.ndim)
    return g * v / np.sqrt((v * v).sum(axis=axes, keepdims=True))


@pytest.mark.parametrize("dim", [0, 1, None])
def test_parametrized_weight_norm(dim):
    torch.manual_seed(0)
    m = nn.Conv2d(3, 4, 3)
    w0 = _np(m.weight).copy()
    PZ.weight_norm(m, dim=dim)
    pl = m.parametrizations.weight
    g, v = pl.original0, pl.original1
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original0", "parametrizations.weight.original1"]
    expected_g = {0: (4, 1, 1, 1), 1: (1, 3, 1, 1), None: ()}[dim]
    assert tuple(g.shape) == expected_g and v.shape == (4, 3, 3, 3)
    np.testing.assert_allclose(_np(m.weight), w0, rtol=1e-5, atol=1e-6)  # right_inverse round trip
    with torch.no_grad():
        g.mul_(torch.rand_like(g) + 0.5)
        v.add_(torch.randn_like(v))
    np.testing.assert_allclose(_np(m.weight), _np_weight_norm(_np(g), _np(v), dim), rtol=1e-5, atol=1e-6)
    m.weight.sum().backward()
    assert g.grad is not None and v.grad is not None


def test_parametrized_weight_norm_gradcheck():
    torch.manual_seed(0)
    m = PZ.weight_norm(nn.Linear(3, 4).double())
    wn = m.parametrizations.weight[0]
    g = torch.rand(4, 1, dtype=torch.float64, requires_grad=True)
    v = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(wn, (g, v))


def test_parametrized_weight_norm_loads_hook_state_dict():
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        old = hook_weight_norm(nn.Linear(3, 4))
    with torch.no_grad():
        old.weight_g.mul_(2.0)
    new = PZ.weight_norm(nn.Linear(3, 4))
    new.load_state_dict(old.state_dict())
    old(torch.randn(1, 3))  # the hook recomputes old.weight
    np.testing.assert_allclose(_np(new.weight), _np(old.weight), rtol=1e-6)
    np.testing.assert_allclose(_np(new.parametrizations.weight.original0), _np(old.weight_g))


def test_hook_weight_norm():
    torch.manual_seed(0)
    m = nn.Linear(3, 4)
    w0 = _np(m.weight).copy()
    with pytest.warns(FutureWarning, match="`torch.nn.utils.weight_norm` is deprecated"):
        hook_weight_norm(m)
    assert list(m.state_dict()) == ["bias", "weight_g", "weight_v"]
    assert m.weight_g.shape == (4, 1) and "weight" not in m._parameters
    np.testing.assert_allclose(_np(m.weight), w0, rtol=1e-6)
    np.testing.assert_allclose(_np(m.weight_g), np.linalg.norm(w0, axis=1, keepdims=True), rtol=1e-6)
    with torch.no_grad():
        m.weight_g.mul_(3.0)
    x = torch.randn(2, 3)
    y = m(x)  # the pre-hook recomputed the weight
    np.testing.assert_allclose(_np(m.weight), 3 * w0, rtol=1e-5)
    np.testing.assert_allclose(_np(y), _np(x) @ (3 * w0).T + _np(m.bias), rtol=1e-5, atol=1e-6)
    y.sum().backward()
    assert m.weight_g.grad is not None and m.weight_v.grad is not None
    with pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks on the same parameter weight"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            hook_weight_norm(m)
    remove_weight_norm(m)
    assert isinstance(m.weight, nn.Parameter) and list(m.state_dict()) == ["bias", "weight"]
    np.testing.assert_allclose(_np(m.weight), 3 * w0, rtol=1e-5)
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found in"):
        remove_weight_norm(m)


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_hook_weight_norm_dim_none():
    torch.manual_seed(0)
    m = hook_weight_norm(nn.Conv1d(2, 3, 3), dim=None)
    assert m.weight_g.shape == ()
    with torch.no_grad():
        m.weight_g.fill_(2.0)
    m(torch.randn(1, 2, 5))
    np.testing.assert_allclose(np.linalg.norm(_np(m.weight)), 2.0, rtol=1e-5)


# ---- spectral norm


def _np_normalize(x):
    return x / max(np.linalg.norm(x), 1e-12)


def test_parametrized_spectral_norm_power_iteration_formula():
    torch.manual_seed(0)
    m = PZ.spectral_norm(nn.Linear(5, 4))
    sn = m.parametrizations.weight[0]
    assert list(m.state_dict()) == [
        "bias",
        "parametrizations.weight.original",
        "parametrizations.weight.0._u",
        "parametrizations.weight.0._v",
    ]
    W = _np(m.parametrizations.weight.original)
    u, v = _np(sn._u).copy(), _np(sn._v).copy()
    out = _np(m.weight)  # one training-mode power iteration, then W / u^T W v
    u = _np_normalize(W @ v)
    v = _np_normalize(W.T @ u)
    np.testing.assert_allclose(_np(sn._u), u, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_np(sn._v), v, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out, W / (u @ W @ v), rtol=1e-5, atol=1e-6)


def test_parametrized_spectral_norm_converges_and_eval_freezes():
    torch.manual_seed(0)
    m = PZ.spectral_norm(nn.Linear(8, 6), n_power_iterations=3)
    for _ in range(10):
        W = m.weight
    assert abs(float(torch.linalg.matrix_norm(W.detach(), ord=2)) - 1.0) < 1e-3
    W0 = _np(m.parametrizations.weight.original)
    np.testing.assert_allclose(_np(W), W0 / np.linalg.svd(W0, compute_uv=False)[0], rtol=1e-3, atol=1e-4)
    m.eval()
    u = m.parametrizations.weight[0]._u.clone()
    a, b = m.weight, m.weight
    assert torch.equal(m.parametrizations.weight[0]._u, u) and torch.equal(a, b)
    m.train()
    m.weight.sum().backward()
    assert m.parametrizations.weight.original.grad is not None


def test_parametrized_spectral_norm_dims_and_vector():
    torch.manual_seed(0)
    m = PZ.spectral_norm(nn.ConvTranspose2d(3, 5, 2))  # weight (3, 5, 2, 2), default dim=1
    assert m.parametrizations.weight[0].dim == 1
    assert m.parametrizations.weight[0]._u.shape == (5,) and m.parametrizations.weight[0]._v.shape == (12,)
    m = PZ.spectral_norm(nn.Conv2d(3, 5, 2))
    assert m.parametrizations.weight[0]._u.shape == (5,)
    m = PZ.spectral_norm(nn.Linear(3, 4), name="bias")
    b = _np(m.parametrizations.bias.original)
    np.testing.assert_allclose(_np(m.bias), b / np.linalg.norm(b), rtol=1e-6)


def test_parametrized_spectral_norm_errors():
    with pytest.raises(ValueError, match="Expected n_power_iterations to be positive, but got n_power_iterations=0"):
        PZ.spectral_norm(nn.Linear(3, 3), n_power_iterations=0)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\] but got 2\)"):
        PZ.spectral_norm(nn.Linear(3, 3), dim=2)
    with pytest.raises(ValueError, match="has no parameter or buffer with name 'nope'"):
        PZ.spectral_norm(nn.Linear(3, 3), "nope")


def test_hook_spectral_norm():
    torch.manual_seed(0)
    m = hook_spectral_norm(nn.Linear(5, 4))
    assert list(m.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    assert "weight" not in m._parameters and m.weight_u.shape == (4,) and m.weight_v.shape == (5,)
    W = _np(m.weight_orig)
    u, v = _np(m.weight_u).copy(), _np(m.weight_v).copy()
    x = torch.randn(2, 5)
    y = m(x)  # one power iteration: v first, then u
    v = _np_normalize(W.T @ u)
    u = _np_normalize(W @ v)
    Wsn = W / (u @ W @ v)
    np.testing.assert_allclose(_np(m.weight_u), u, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_np(m.weight), Wsn, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_np(y), _np(x) @ Wsn.T + _np(m.bias), rtol=1e-5, atol=1e-5)
    y.sum().backward()
    assert m.weight_orig.grad is not None
    for _ in range(30):
        m(x)
    assert abs(float(torch.linalg.matrix_norm(m.weight.detach(), ord=2)) - 1.0) < 1e-3
    m.eval()
    u = m.weight_u.clone()
    m(x)
    assert torch.equal(m.weight_u, u)
    with pytest.raises(RuntimeError, match="Cannot register two spectral_norm hooks on the same parameter weight"):
        hook_spectral_norm(m)
    sd = m.state_dict()
    m2 = hook_spectral_norm(nn.Linear(5, 4))
    m2.load_state_dict(sd)
    m2.eval()
    m2(x)
    np.testing.assert_allclose(_np(m2.weight), _np(m.weight), rtol=1e-6)
    W = m.weight.detach().clone()
    remove_spectral_norm(m)
    assert isinstance(m.weight, nn.Parameter) and list(m.state_dict()) == ["bias", "weight"]
    assert not m._state_dict_hooks
    np.testing.assert_allclose(_np(m.weight), _np(W), rtol=1e-6)
    with pytest.raises(ValueError, match="spectral_norm of 'weight' not found in"):
        remove_spectral_norm(m)
    with pytest.raises(ValueError, match="Expected n_power_iterations to be positive"):
        hook_spectral_norm(nn.Linear(2, 2), n_power_iterations=0)
    assert hook_spectral_norm(nn.ConvTranspose1d(2, 3, 2)).weight_u.shape == (3,)
