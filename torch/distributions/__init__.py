"""torch.distributions: probability distributions as Python over the ops (so autograd and every device come
from them), with PyTorch's names, shapes, argument validation and KL divergences: Normal, Uniform, Exponential,
Gamma, Chi2, Beta, Dirichlet, Laplace, Cauchy, HalfCauchy, LogNormal, HalfNormal, StudentT, FisherSnedecor,
Gumbel, Weibull, Pareto, Poisson, Bernoulli, Binomial, Geometric, Categorical, OneHotCategorical, Multinomial,
MultivariateNormal, LowRankMultivariateNormal, Wishart, LKJCholesky, Kumaraswamy, VonMises, ContinuousBernoulli,
NegativeBinomial, RelaxedBernoulli, RelaxedOneHotCategorical (and, in their modules,
LogitRelaxedBernoulli and ExpRelaxedCategorical),
LogisticNormal, MixtureSameFamily, Independent, TransformedDistribution and its transforms,
kl_divergence/register_kl, constraints."""

from torch.distributions import constraints, transforms, utils
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.binomial import Binomial
from torch.distributions.categorical import Categorical
from torch.distributions.cauchy import Cauchy
from torch.distributions.continuous_bernoulli import ContinuousBernoulli
from torch.distributions.dirichlet import Beta, Dirichlet
from torch.distributions.distribution import Distribution
from torch.distributions.exponential import Exponential
from torch.distributions.extreme_value import Gumbel, HalfCauchy, Pareto, Weibull
from torch.distributions.fishersnedecor import FisherSnedecor
from torch.distributions.gamma import Chi2, Gamma
from torch.distributions.geometric import Geometric
from torch.distributions.independent import Independent
from torch.distributions.kl import kl_divergence, register_kl
from torch.distributions.kumaraswamy import Kumaraswamy
from torch.distributions.laplace import Laplace
from torch.distributions.lkj_cholesky import LKJCholesky
from torch.distributions.log_normal import HalfNormal, LogNormal
from torch.distributions.logistic_normal import LogisticNormal
from torch.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from torch.distributions.mixture_same_family import MixtureSameFamily
from torch.distributions.multivariate_normal import MultivariateNormal
from torch.distributions.negative_binomial import NegativeBinomial
from torch.distributions.normal import Normal
from torch.distributions.one_hot_categorical import Multinomial, OneHotCategorical
from torch.distributions.poisson import Poisson
from torch.distributions.relaxed_bernoulli import RelaxedBernoulli
from torch.distributions.relaxed_categorical import RelaxedOneHotCategorical
from torch.distributions.studentT import StudentT
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import (
    AbsTransform,
    AffineTransform,
    ComposeTransform,
    CorrCholeskyTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    SoftmaxTransform,
    SoftplusTransform,
    StickBreakingTransform,
    TanhTransform,
    Transform,
    identity_transform,
)
from torch.distributions.uniform import Uniform
from torch.distributions.von_mises import VonMises
from torch.distributions.wishart import Wishart

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "Bernoulli",
    "Beta",
    "Binomial",
    "Categorical",
    "Cauchy",
    "Chi2",
    "ComposeTransform",
    "ContinuousBernoulli",
    "CorrCholeskyTransform",
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
    "Kumaraswamy",
    "LKJCholesky",
    "Laplace",
    "LogNormal",
    "LogisticNormal",
    "LowRankMultivariateNormal",
    "MixtureSameFamily",
    "Multinomial",
    "MultivariateNormal",
    "NegativeBinomial",
    "Normal",
    "OneHotCategorical",
    "Pareto",
    "Poisson",
    "PowerTransform",
    "RelaxedBernoulli",
    "RelaxedOneHotCategorical",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StickBreakingTransform",
    "StudentT",
    "TanhTransform",
    "Transform",
    "TransformedDistribution",
    "Uniform",
    "VonMises",
    "Weibull",
    "Wishart",
    "constraints",
    "identity_transform",
    "kl_divergence",
    "register_kl",
    "transforms",
    "utils",
]
