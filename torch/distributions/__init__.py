"""torch.distributions: probability distributions as Python over the ops (so autograd and every device come
from them), with PyTorch's names, shapes, argument validation and KL divergences: Normal, Uniform, Exponential,
Gamma, Chi2, Beta, Dirichlet, Laplace, Cauchy, HalfCauchy, LogNormal, HalfNormal, StudentT, FisherSnedecor,
Gumbel, Weibull, Pareto, GeneralizedPareto, InverseGamma, Poisson, Bernoulli, Binomial, Geometric, Categorical,
OneHotCategorical, OneHotCategoricalStraightThrough, Multinomial, MultivariateNormal, LowRankMultivariateNormal,
Wishart, LKJCholesky, Kumaraswamy, VonMises, ContinuousBernoulli, NegativeBinomial, RelaxedBernoulli,
RelaxedOneHotCategorical (and, in their modules, LogitRelaxedBernoulli and ExpRelaxedCategorical),
LogisticNormal, MixtureSameFamily, Independent, TransformedDistribution and its transforms, the
ExponentialFamily base, kl_divergence/register_kl, constraints, and biject_to/transform_to (the registries from
constraints to the transforms onto them)."""

from torch.distributions import constraint_registry, constraints, transforms, utils
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.beta import Beta
from torch.distributions.binomial import Binomial
from torch.distributions.categorical import Categorical
from torch.distributions.cauchy import Cauchy
from torch.distributions.chi2 import Chi2
from torch.distributions.constraint_registry import biject_to, transform_to
from torch.distributions.continuous_bernoulli import ContinuousBernoulli
from torch.distributions.dirichlet import Dirichlet
from torch.distributions.distribution import Distribution
from torch.distributions.exp_family import ExponentialFamily
from torch.distributions.exponential import Exponential
from torch.distributions.fishersnedecor import FisherSnedecor
from torch.distributions.gamma import Gamma
from torch.distributions.generalized_pareto import GeneralizedPareto
from torch.distributions.geometric import Geometric
from torch.distributions.gumbel import Gumbel
from torch.distributions.half_cauchy import HalfCauchy
from torch.distributions.half_normal import HalfNormal
from torch.distributions.independent import Independent
from torch.distributions.inverse_gamma import InverseGamma
from torch.distributions.kl import kl_divergence, register_kl
from torch.distributions.kumaraswamy import Kumaraswamy
from torch.distributions.laplace import Laplace
from torch.distributions.lkj_cholesky import LKJCholesky
from torch.distributions.log_normal import LogNormal
from torch.distributions.logistic_normal import LogisticNormal
from torch.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from torch.distributions.mixture_same_family import MixtureSameFamily
from torch.distributions.multinomial import Multinomial
from torch.distributions.multivariate_normal import MultivariateNormal
from torch.distributions.negative_binomial import NegativeBinomial
from torch.distributions.normal import Normal
from torch.distributions.one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from torch.distributions.pareto import Pareto
from torch.distributions.poisson import Poisson
from torch.distributions.relaxed_bernoulli import RelaxedBernoulli
from torch.distributions.relaxed_categorical import RelaxedOneHotCategorical
from torch.distributions.studentT import StudentT
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import (
    AbsTransform,
    AffineTransform,
    CatTransform,
    ComposeTransform,
    CorrCholeskyTransform,
    CumulativeDistributionTransform,
    ExpTransform,
    IndependentTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
    PowerTransform,
    ReshapeTransform,
    SigmoidTransform,
    SoftmaxTransform,
    SoftplusTransform,
    StackTransform,
    StickBreakingTransform,
    TanhTransform,
    Transform,
    identity_transform,
)
from torch.distributions.uniform import Uniform
from torch.distributions.von_mises import VonMises
from torch.distributions.weibull import Weibull
from torch.distributions.wishart import Wishart

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "Bernoulli",
    "Beta",
    "Binomial",
    "CatTransform",
    "Categorical",
    "Cauchy",
    "Chi2",
    "ComposeTransform",
    "ContinuousBernoulli",
    "CorrCholeskyTransform",
    "CumulativeDistributionTransform",
    "Dirichlet",
    "Distribution",
    "ExpTransform",
    "Exponential",
    "ExponentialFamily",
    "FisherSnedecor",
    "Gamma",
    "GeneralizedPareto",
    "Geometric",
    "Gumbel",
    "HalfCauchy",
    "HalfNormal",
    "Independent",
    "IndependentTransform",
    "InverseGamma",
    "Kumaraswamy",
    "LKJCholesky",
    "Laplace",
    "LogNormal",
    "LogisticNormal",
    "LowRankMultivariateNormal",
    "LowerCholeskyTransform",
    "MixtureSameFamily",
    "Multinomial",
    "MultivariateNormal",
    "NegativeBinomial",
    "Normal",
    "OneHotCategorical",
    "OneHotCategoricalStraightThrough",
    "Pareto",
    "Poisson",
    "PositiveDefiniteTransform",
    "PowerTransform",
    "RelaxedBernoulli",
    "RelaxedOneHotCategorical",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StackTransform",
    "StickBreakingTransform",
    "StudentT",
    "TanhTransform",
    "Transform",
    "TransformedDistribution",
    "Uniform",
    "VonMises",
    "Weibull",
    "Wishart",
    "biject_to",
    "constraint_registry",
    "constraints",
    "identity_transform",
    "kl_divergence",
    "register_kl",
    "transform_to",
    "transforms",
    "utils",
]
