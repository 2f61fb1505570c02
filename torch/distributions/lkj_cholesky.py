"""LKJCholesky(dim, concentration): the LKJ distribution over Cholesky factors of correlation matrices."""

from __future__ import annotations

import math

import torch
from torch.distributions import constraints
from torch.distributions.dirichlet import Beta
from torch.distributions.distribution import Distribution, broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """The LKJ distribution (Lewandowski, Kurowicka and Joe, 2009) over lower Cholesky factors L of dim x dim
    correlation matrices: the density of the correlation matrix L L^T is proportional to
    det(L L^T)^(concentration - 1), so concentration = 1 is uniform over correlation matrices. Sampled by the
    onion method (a Beta draw for each row's squared norm off the diagonal, a uniform direction for it)."""

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim: int, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        event_shape = torch.Size((dim, dim))
        # the squared norm of row i below the diagonal is Beta(i / 2, beta - (i - 1) / 2), beta = concentration +
        # (dim - 2) / 2 (the onion method; row 0's is a placeholder, never used). Upstream 2.13 has offset + 0.5
        # for the first concentration, i - 1/2 for row i: right for row 1 only, so its samples' correlations
        # past the first are not LKJ distributed (their variances differ from row to row)
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = torch.arange(self.dim - 1, dtype=self.concentration.dtype, device=self.concentration.device)
        offset = torch.cat([offset.new_zeros((1,)), offset])
        beta_conc1 = 0.5 * offset + 0.5
        beta_conc0 = marginal_conc.unsqueeze(-1) - 0.5 * offset
        self._beta = Beta(beta_conc1, beta_conc0)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its concentration expanded to batch_shape."""
        new = self._expand_parameters(LKJCholesky, ("concentration", "_beta"), batch_shape, _instance)
        new.dim = self.dim
        return new

    def sample(self, sample_shape=()):
        """The onion method, as PyTorch (Ghosh and Henderson's variant: the row directions uniform on the
        hypersphere from normalized normal draws)."""
        with torch.no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            shape = self._extended_shape(sample_shape)
            u_normal = torch.randn(shape, dtype=y.dtype, device=y.device).tril(-1)
            u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
            # row 0 has nothing below the diagonal (its 0 / 0 above is NaN): zeroed
            first_row = torch.arange(self.dim, device=y.device) == 0
            u_hypersphere = torch.where(first_row.unsqueeze(-1), torch.zeros_like(u_hypersphere), u_hypersphere)
            w = torch.sqrt(y) * u_hypersphere
            eps = torch.finfo(w.dtype).tiny  # keeps the diagonal positive
            diag_elems = torch.clamp(1 - torch.sum(w**2, dim=-1), min=eps).sqrt()
            return w + torch.diag_embed(diag_elems)

    def log_prob(self, value):
        """log density of the Cholesky factor value (the LKJ density of value value^T times the Jacobian of
        the map from the factor to it)."""
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = torch.arange(2, self.dim + 1, device=self.concentration.device)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = torch.sum(order * diag_elems.log(), dim=-1)
        # the normalizer (Lewandowski et al., 2009, eq. 16)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = torch.lgamma(alpha) * dm1
        numerator = torch.mvlgamma(alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        normalize_term = pi_constant + numerator - denominator
        return unnormalized_log_pdf - normalize_term
