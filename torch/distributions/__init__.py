"""torch.distributions: probability distributions as Python over the ops (so autograd and every device come
from them), with PyTorch's names, shapes, argument validation and KL divergences: Normal, Uniform, Exponential,
Gamma, Chi2, Beta, Dirichlet, Laplace, Cauchy, HalfCauchy, LogNormal, HalfNormal, StudentT, FisherSnedecor,
Gumbel, Weibull, Pareto, Poisson, Bernoulli, Binomial, Geometric, Categorical, OneHotCategorical, Multinomial,
MultivariateNormal, Independent, TransformedDistribution and its transforms, kl_divergence/register_kl,
constraints."""

from torch.distributions import constraints, transforms
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.binomial import Binomial
from torch.distributions.categorical import Categorical
from torch.distributions.cauchy import Cauchy
from torch.distributions.dirichlet import Beta, Dirichlet
from torch.distributions.distribution import Distribution
from torch.distributions.exponential import Exponential
from torch.distributions.extreme_value import Gumbel, HalfCauchy, Pareto, Weibull
from torch.distributions.fishersnedecor import FisherSnedecor
from torch.distributions.gamma import Chi2, Gamma
from torch.distributions.geometric import Geometric
from torch.distributions.independent import Independent
from torch.distributions.kl import kl_divergence, register_kl
from torch.distributions.laplace import Laplace
from torch.distributions.log_normal import HalfNormal, LogNormal
from torch.distributions.multivariate_normal import MultivariateNormal
from torch.distributions.normal import Normal
from torch.distributions.one_hot_categorical import Multinomial, OneHotCategorical
from torch.distributions.poisson import Poisson
from torch.distributions.studentT import StudentT
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import (
    AbsTransform,
    AffineTransform,
    ComposeTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
    Transform,
)
from torch.distributions.uniform import Uniform

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "Bernoulli",
    "Binomial",
    "Beta",
    "Categorical",
    "Cauchy",
    "Chi2",
    "ComposeTransform",
    "Dirichlet",
    "Distribution",
    "ExpTransform",
    "Exponential",
    "FisherSnedecor",
    "Gamma",
    "Geometric",
    "Gumbel",
    "HalfCauchy",
    "HalfNormal",
    "Independent",
    "Laplace",
    "LogNormal",
    "Multinomial",
    "MultivariateNormal",
    "Normal",
    "OneHotCategorical",
    "Pareto",
    "Poisson",
    "PowerTransform",
    "SigmoidTransform",
    "SoftplusTransform",
    "StudentT",
    "TanhTransform",
    "Transform",
    "TransformedDistribution",
    "Uniform",
    "Weibull",
    "constraints",
    "kl_divergence",
    "register_kl",
    "transforms",
]
