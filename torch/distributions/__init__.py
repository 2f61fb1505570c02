"""torch.distributions: probability distributions as Python over the ops (so autograd and every device come
from them), with PyTorch's names, shapes, argument validation and KL divergences: Normal, Uniform, Exponential,
Gamma, Chi2, Beta, Dirichlet, Bernoulli, Categorical, MultivariateNormal, kl_divergence/register_kl,
constraints."""

from torch.distributions import constraints
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.categorical import Categorical
from torch.distributions.dirichlet import Beta, Dirichlet
from torch.distributions.distribution import Distribution
from torch.distributions.exponential import Exponential
from torch.distributions.gamma import Chi2, Gamma
from torch.distributions.kl import kl_divergence, register_kl
from torch.distributions.multivariate_normal import MultivariateNormal
from torch.distributions.normal import Normal
from torch.distributions.uniform import Uniform

__all__ = [
    "Bernoulli",
    "Beta",
    "Categorical",
    "Chi2",
    "Dirichlet",
    "Distribution",
    "Exponential",
    "Gamma",
    "MultivariateNormal",
    "Normal",
    "Uniform",
    "constraints",
    "kl_divergence",
    "register_kl",
]
