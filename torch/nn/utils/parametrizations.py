"""Ready-made parametrizations: orthogonal, weight_norm and spectral_norm (built on torch.nn.utils.parametrize)."""

from __future__ import annotations

from enum import Enum, auto

import torch
import torch.nn.functional as F
from torch._C import Tensor
from torch.autograd.grad_mode import no_grad
from torch.nn.modules.module import Module
from torch.nn.utils import parametrize
from torch.nn.utils.spectral_norm import _default_dim, _register_load_state_dict_pre_hook
from torch.nn.utils.weight_norm import _norm_except_dim, _weight_norm

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _is_orthogonal(Q, eps=None):
    n, k = Q.size(-2), Q.size(-1)
    Id = torch.eye(k, dtype=Q.dtype, device=Q.device)
    eps = 10.0 * n * torch.finfo(Q.dtype).eps
    return torch.allclose(Q.mH @ Q, Id, atol=eps)


def _make_orthogonal(A):
    # The Q of A = QR (A tall, maybe complex) with diag(R) real and non-negative.
    X, tau = torch.geqrf(A)
    Q = torch.linalg.householder_product(X, tau)
    # diag(X) is diag(R) (always real): normalise by its signs
    Q *= X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)
    return Q


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """Maps a (batch of) matrices to orthogonal/unitary ones via matrix_exp, cayley or householder; with
    ``use_trivialization`` the result is left-multiplied by the buffer ``base``, set by ``right_inverse``."""

    base: Tensor

    def __init__(self, weight, orthogonal_map: _OrthMaps, *, use_trivialization=True) -> None:
        super().__init__()
        # For complex tensors the reflectors hold only n(n-1) real parameters, too few to reach every unitary.
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        """The orthogonal matrix parametrized by ``X``."""
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        # X is tall (n >= k) from here on
        if self.orthogonal_map == _OrthMaps.matrix_exp or self.orthogonal_map == _OrthMaps.cayley:
            # n*k - k(k-1)/2 parameters: the lower triangle, embedded into a square matrix
            X = X.tril()
            if n != k:
                X = torch.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH  # skew-symmetric (skew-hermitian)
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = torch.matrix_exp(A)
            else:
                # the Cayley retraction (I + A/2)(I - A/2)^{-1}
                Id = torch.eye(n, dtype=A.dtype, device=A.device)
                Q = torch.linalg.solve(torch.add(Id, A, alpha=-0.5), torch.add(Id, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            # X is real here (householder rejects complex tensors)
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = torch.linalg.householder_product(A, tau)
            # the diagonal of X holds +-1 signs; the int cast keeps it out of the gradient
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    @no_grad()
    def right_inverse(self, Q: torch.Tensor) -> torch.Tensor:
        """An ``X`` with ``forward(X) == Q`` (``Q`` orthogonalized by QR first if it is not orthogonal)."""
        if Q.shape != self.shape:
            raise ValueError(
                f"Expected a matrix or batch of matrices of shape {self.shape}. Got a tensor of shape {Q.shape}."
            )
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        if not hasattr(self, "base"):
            # without trivialization only the householder map can be inverted
            if self.orthogonal_map == _OrthMaps.cayley or self.orthogonal_map == _OrthMaps.matrix_exp:
                raise NotImplementedError(
                    "It is not possible to assign to the matrix exponential "
                    "or the Cayley parametrizations when use_trivialization=False."
                )
            # householder: the reflectors of Q's QR, with the signs of diag(R) (made positive) on the diagonal
            A, tau = torch.geqrf(Q)
            A.diagonal(dim1=-2, dim2=-1).sign_()
            # LAPACK returns exactly tau == 0 when it skips a reflection
            A.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1
            return A.mT if transpose else A
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:
            # complete Q into a full n x n orthogonal matrix
            N = torch.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype, device=Q.device)
            Q = _make_orthogonal(torch.cat([Q, N], dim=-1))
        self.base = Q
        # -Id, so that householder(zeros) == eye and every map gives base at -Id
        neg_Id = torch.zeros_like(Q_init)
        neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_Id


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *, use_trivialization=True):
    """Parametrizes ``module.<name>`` (a matrix or batch of matrices) to be orthogonal (unitary if complex):
    orthonormal columns if it is tall, orthonormal rows if wide; returns ``module``.

    ``orthogonal_map`` is ``"matrix_exp"``, ``"cayley"`` or ``"householder"`` (default: matrix_exp for square
    or complex matrices, householder otherwise). With ``use_trivialization`` (default) the extra buffer
    ``module.parametrizations.<name>[0].base`` implements the dynamic trivialization framework. The initial
    value is the tensor itself if orthogonal, its QR orthogonalization otherwise."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.size(-2) == weight.size(-1) or weight.is_complex() else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError(
            f'orthogonal_map has to be one of "matrix_exp", "cayley", "householder". Got: {orthogonal_map}'
        )
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


class _WeightNorm(Module):
    """``(g, v) -> g * v / ||v||``, the norm over every dim but ``dim`` (``None``: the whole tensor)."""

    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        """The weight from magnitude ``weight_g`` and direction ``weight_v``."""
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        """``(||weight||, weight)``."""
        return _norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int = 0):
    """Parametrizes ``module.<name>`` as ``g * v / ||v||`` (https://arxiv.org/abs/1602.07868); returns
    ``module``. The magnitude ``g`` is ``parametrizations.<name>.original0`` (norm over every dim but ``dim``;
    ``dim=None``: the whole tensor), the direction ``v`` is ``original1``. State dicts of the hook-based
    :func:`torch.nn.utils.weight_norm` (``<name>_g``/``<name>_v``) still load."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def _weight_norm_compat_hook(
        state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ) -> None:
        g_key = f"{prefix}{name}_g"
        v_key = f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)

    _register_load_state_dict_pre_hook(module, _weight_norm_compat_hook)
    return module


class _SpectralNorm(Module):
    """``W -> W / sigma(W)``, ``sigma`` the largest singular value of W as a matrix with rows along ``dim``,
    estimated by power iteration on the buffers ``_u``, ``_v`` (updated in training mode only); a vector is
    simply normalized."""

    def __init__(self, weight: torch.Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError(
                f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}"
            )
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            # (a 1-D weight needs no estimate, see forward)
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            # start from reasonable singular-vector estimates
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: torch.Tensor) -> torch.Tensor:
        if weight.ndim <= 1:
            raise AssertionError(f"Expected weight to have more than 1 dimension, got {weight.ndim}")
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    @no_grad()
    def _power_method(self, weight_mat: torch.Tensor, n_power_iterations: int) -> None:
        # u and v are updated in place (so that replicas sharing the buffers see the update); forward clones them
        # so that a backward through an earlier forward is unaffected
        if weight_mat.ndim <= 1:
            raise AssertionError(f"Expected weight_mat to have more than 1 dimension, got {weight_mat.ndim}")
        for _ in range(n_power_iterations):
            self._u = F.normalize(torch.mv(weight_mat, self._v), dim=0, eps=self.eps, out=self._u)
            self._v = F.normalize(torch.mv(weight_mat.H, self._u), dim=0, eps=self.eps, out=self._v)

    def forward(self, weight: torch.Tensor) -> torch.Tensor:
        """``weight / sigma``, after ``n_power_iterations`` power iterations in training mode."""
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone(memory_format=torch.contiguous_format)
        v = self._v.clone(memory_format=torch.contiguous_format)
        sigma = torch.vdot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value: torch.Tensor) -> torch.Tensor:
        """The identity (the assigned value is stored as the unnormalized weight)."""
        return value


def spectral_norm(
    module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12, dim: int | None = None
) -> Module:
    """Parametrizes ``module.<name>`` as ``W / sigma(W)`` (https://arxiv.org/abs/1802.05957); returns ``module``.

    ``sigma``, the largest singular value of W reshaped to a matrix with rows along ``dim`` (default 0, 1 for
    ConvTranspose), is estimated with ``n_power_iterations`` power iterations on every access in training
    mode (the estimates are the buffers ``module.parametrizations.<name>[0]._u`` / ``_v``); eval mode reuses
    them. A 1-D tensor is divided by its norm."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = _default_dim(module)
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
