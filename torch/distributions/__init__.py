"""torch.distributions: probability distributions as Python over the ops (so autograd and every device come
from them), with PyTorch's names, shapes, argument validation and KL divergences: Normal, Uniform, Exponential,
Bernoulli, Categorical, MultivariateNormal, kl_divergence/register_kl, constraints."""

from torch.distributions import constraints
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.categorical import Categorical
from torch.distributions.distribution import Distribution
from torch.distributions.exponential import Exponential
from torch.distributions.kl import kl_divergence, register_kl
from torch.distributions.multivariate_normal import MultivariateNormal
from torch.distributions.normal import Normal
from torch.distributions.uniform import Uniform

__all__ = [
    "Bernoulli",
    "Categorical",
    "Distribution",
    "Exponential",
    "MultivariateNormal",
    "Normal",
    "Uniform",
    "constraints",
    "kl_divergence",
    "register_kl",
]
