"""torch.distributions: every distribution with small broadcast parameters drawn from (and now and then off)
its constraints, in float32 or float64 or as Python numbers, and one of its deterministic methods (log_prob,
cdf, icdf, entropy, mean, mode, variance, stddev, enumerate_support) or a sample whose shape and
dtype are compared; kl_divergence between two distributions of the registered families. Parameters or values
off the support must raise the same ValueError as upstream (validate_args is on by default in both)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from . import tensors as T
from . import values as V
from .call import Call

D = "torch.distributions"


# -- element domains: a value inside the constraint mostly, an edge or an outside value now and then -------------
def _real(rng: random.Random) -> float:
    if rng.random() < 0.05:
        return rng.choice((1e4, -1e4, 30.0, -30.0, 0.0, -0.0))
    return rng.randint(-16, 16) / 4


def _pos(rng: random.Random) -> float:
    if rng.random() < 0.05:
        return rng.choice((1e-6, 50.0, 1e3, 0.01))
    return rng.randint(1, 24) / 4


def _unit(rng: random.Random) -> float:
    if rng.random() < 0.05:
        return rng.choice((1e-6, 1 - 1e-6, 0.0, 1.0))
    return rng.randint(1, 15) / 16


def _count(rng: random.Random) -> float:
    return float(rng.randint(0, 6))


def _bit(rng: random.Random) -> float:
    return float(rng.random() < 0.5)


def _bad(rng: random.Random, domain: Callable) -> float:
    """A value outside `domain` (or nan): what the constraint checks must refuse."""
    if domain is _real:
        return math.nan
    if domain is _unit:
        return rng.choice((-0.25, 1.5, math.nan))
    if domain is _count:
        return rng.choice((-1.0, 0.5, math.nan))
    if domain is _bit:
        return rng.choice((0.5, 2.0, -1.0))
    return rng.choice((-1.0, 0.0, math.nan, -math.inf))


def _shape(rng: random.Random) -> tuple[int, ...]:
    return T.shape(rng, rng.choices((0, 1, 2), (2, 5, 3))[0], empty=0.03, hi=3)


def _suffix(rng: random.Random, shp: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that broadcasts to `shp`: a suffix of it with some sizes 1."""
    shp = shp[rng.randint(0, len(shp)) :] if rng.random() < 0.3 else shp
    return tuple(1 if rng.random() < 0.2 else s for s in shp)


def _lit(rng: random.Random, shp: tuple[int, ...], dt: str, gen: Callable, bad: float = 0.0) -> str:
    """Source text of a tensor of `shp` (or, for `dt == 'py'`, of a Python number) drawn from `gen`."""
    draw = lambda: _bad(rng, gen) if rng.random() < bad else gen(rng)  # noqa: E731
    if dt == "py":
        return V.fmt(draw())
    flat = [draw() for _ in range(math.prod(shp))]
    if not shp:
        return f"torch.tensor({V.fmt(flat[0])}, dtype=torch.{dt})"
    return f"torch.tensor({T.nested(flat, shp)}, dtype=torch.{dt}).reshape({V.fmt(shp)})"


# -- the distributions: (name, parameters as (keyword, domain), domain of a value, methods) ------------------------
_CONT = ("log_prob", "entropy", "mean", "variance", "stddev", "mode")
_CDF = ("cdf", "icdf")
SCALAR = [
    ("Normal", (("loc", _real), ("scale", _pos)), _real, _CONT + _CDF),
    ("Laplace", (("loc", _real), ("scale", _pos)), _real, _CONT + _CDF),
    ("Cauchy", (("loc", _real), ("scale", _pos)), _real, ("log_prob", "entropy", "mode") + _CDF),
    ("Gumbel", (("loc", _real), ("scale", _pos)), _real, _CONT),
    ("LogNormal", (("loc", _real), ("scale", _pos)), _pos, _CONT),
    ("HalfNormal", (("scale", _pos),), _pos, _CONT + _CDF),
    ("HalfCauchy", (("scale", _pos),), _pos, ("log_prob", "entropy", "mode") + _CDF),
    ("Exponential", (("rate", _pos),), _pos, _CONT + _CDF),
    ("Gamma", (("concentration", _pos), ("rate", _pos)), _pos, _CONT + ("cdf",)),
    ("Chi2", (("df", _pos),), _pos, _CONT),
    ("InverseGamma", (("concentration", _pos), ("rate", _pos)), _pos, _CONT),
    ("Beta", (("concentration1", _pos), ("concentration0", _pos)), _unit, _CONT),
    ("Kumaraswamy", (("concentration1", _pos), ("concentration0", _pos)), _unit, ("log_prob", "mean", "variance")),
    ("StudentT", (("df", _pos), ("loc", _real), ("scale", _pos)), _real, _CONT),
    ("Weibull", (("scale", _pos), ("concentration", _pos)), _pos, _CONT),
    ("FisherSnedecor", (("df1", _pos), ("df2", _pos)), _pos, ("log_prob", "mean", "variance", "mode")),
    ("Pareto", (("scale", _pos), ("alpha", _pos)), _pos, _CONT),
    ("VonMises", (("loc", _real), ("concentration", _pos)), _real, ("log_prob", "mean", "variance", "mode")),
    ("ContinuousBernoulli", (("probs", _unit),), _unit, ("log_prob", "mean", "variance", "entropy") + _CDF),
    ("Bernoulli", (("probs", _unit),), _bit, ("log_prob", "entropy", "mean", "variance", "mode", "enumerate_support")),
    ("Bernoulli", (("logits", _real),), _bit, ("log_prob", "entropy", "mean", "variance", "mode")),
    ("Geometric", (("probs", _unit),), _count, ("log_prob", "entropy", "mean", "variance", "mode")),
    ("Poisson", (("rate", _pos),), _count, ("log_prob", "mean", "variance", "mode")),
    ("NegativeBinomial", (("total_count", _pos), ("probs", _unit)), _count, ("log_prob", "mean", "variance", "mode")),
    ("Binomial", (("total_count", _count), ("probs", _unit)), _count, ("log_prob", "mean", "variance", "mode")),
    ("Binomial", (("total_count", _count), ("logits", _real)), _count, ("log_prob", "mean", "entropy")),
    ("RelaxedBernoulli", (("temperature", _pos), ("probs", _unit)), _unit, ("log_prob",)),
    ("GeneralizedPareto", (("loc", _real), ("scale", _pos), ("concentration", _real)), _pos, _CONT + _CDF),
]  # fmt: skip


def _scalar_dist(rng: random.Random, spec, dt: str, bad: float) -> tuple[str, tuple[int, ...]]:
    """Source of a distribution of `spec` with broadcast parameters, and its batch shape."""
    name, params, _, _ = spec
    batch = _shape(rng)
    args, keyword = [], False
    for i, (kw, dom) in enumerate(params):
        shp = batch if i == 0 else _suffix(rng, batch)
        lit = _lit(rng, shp, dt if rng.random() < 0.85 or i == 0 else "py", dom, bad)
        keyword = keyword or rng.random() < 0.5 or kw in ("probs", "logits")  # no positional after a keyword
        args.append(f"{kw}={lit}" if keyword else lit)
    return f"{D}.{name}({', '.join(args)})", batch


def _method(rng: random.Random, d: str, batch: tuple[int, ...], value_dom: Callable, methods, dt: str) -> tuple:
    """(source, op suffix, compare values?) of a method of the distribution `d`."""
    m = rng.choice(methods + ("sample", "expand"))
    vdt = "float64" if dt in ("py", "float64") else "float32"
    if m in ("log_prob", "cdf"):
        shp = _suffix(rng, batch) if rng.random() < 0.6 else (2, *batch)
        return f"{d}.{m}({_lit(rng, shp, vdt, value_dom, 0.08)})", m, True
    if m == "icdf":
        return f"{d}.icdf({_lit(rng, _suffix(rng, batch), vdt, _unit, 0.05)})", m, True
    if m in ("entropy", "enumerate_support"):
        arg = "expand=False" if m == "enumerate_support" and rng.random() < 0.3 else ""
        return f"{d}.{m}({arg})", m, True
    if m == "sample":
        shape = rng.choice(("", "(2,)", "(2, 1)", "torch.Size([0])"))
        return f"{d}.sample({shape})", m, False
    if m == "expand":
        return f"{d}.expand({V.fmt((2, *batch))}).mean", m, True
    return f"{d}.{m}", m, True


def _render(d: str, m: str, value: str = "", sample: str = "") -> str:
    """Source of method m of the distribution d: log_prob/cdf of value, a sample of shape `sample`, entropy()
    or enumerate_support(), else the property."""
    if m in ("log_prob", "cdf"):
        return f"{d}.{m}({value})"
    if m == "sample":
        return f"{d}.sample({sample})"
    if m in ("entropy", "enumerate_support"):
        return f"{d}.{m}()"
    return f"{d}.{m}"


def scalar(rng: random.Random) -> Call:
    """A distribution over scalars: one of its methods."""
    spec = rng.choice(SCALAR)
    dt = rng.choices(("float32", "float64", "py"), (5, 4, 1))[0]
    bad = 0.06 if rng.random() < 0.2 else 0.0
    d, batch = _scalar_dist(rng, spec, dt, bad)
    src, m, values = _method(rng, d, batch, spec[2], spec[3], dt)
    return Call(f"{spec[0]}.{m}", src, f"{dt}{',bad' if bad else ''}", values=values, accum=True)


def _vec(rng: random.Random, batch: tuple[int, ...], k: int, dt: str, gen: Callable, bad: float = 0.0) -> str:
    return _lit(rng, (*batch, k), dt, gen, bad)


def vector(rng: random.Random) -> Call:
    """A distribution over vectors (Categorical, OneHotCategorical, Multinomial, Dirichlet, MultivariateNormal,
    LowRankMultivariateNormal, Independent) and one of its methods."""
    name = rng.choice(
        ("Categorical", "OneHotCategorical", "Multinomial", "Dirichlet", "MultivariateNormal", "LowRank", "Independent")
    )
    dt = rng.choice(("float32", "float64"))
    batch, k = _shape(rng), rng.randint(1, 4)
    bad = 0.05 if rng.random() < 0.15 else 0.0
    kw = rng.choice(("probs", "logits"))
    p = _vec(rng, batch, k, dt, _pos if kw == "probs" else _real, bad)
    if name in ("Categorical", "OneHotCategorical"):
        d = f"{D}.{name}({kw}={p})"
        if name == "Categorical":
            value = _lit(rng, _suffix(rng, batch), "int64", lambda r: float(r.randint(0, k - 1 + (r.random() < 0.05))))
        else:
            value = f"torch.nn.functional.one_hot(torch.tensor({rng.randrange(k)}), {k}).to(torch.{dt})"
        methods = ("log_prob", "entropy", "mean", "variance", "mode", "enumerate_support", "probs", "logits")
    elif name == "Multinomial":
        n = rng.randint(0, 5)
        counts = [0] * k
        for _ in range(n):
            counts[rng.randrange(k)] += 1
        if rng.random() < 0.1:
            counts[0] += 1
        d = f"{D}.Multinomial({n}, {kw}={p})"
        value = f"torch.tensor({V.fmt([float(c) for c in counts])}, dtype=torch.{dt})"
        methods = ("log_prob", "mean", "variance", "entropy")
    elif name == "Dirichlet":
        d = f"{D}.Dirichlet({_vec(rng, batch, k, dt, _pos, bad)})"
        w = [rng.randint(1, 8) for _ in range(k)]
        value = f"torch.tensor({V.fmt([x / sum(w) for x in w])}, dtype=torch.{dt})"
        methods = ("log_prob", "entropy", "mean", "variance", "mode")
    elif name in ("MultivariateNormal", "LowRank"):
        loc = _vec(rng, batch, k, dt, _real)
        if name == "LowRank":
            factor = _lit(rng, (k, rng.randint(1, 2)), dt, _real)
            d = f"{D}.LowRankMultivariateNormal({loc}, {factor}, {_vec(rng, (), k, dt, _pos, bad)})"
        else:
            a = _lit(rng, (k, k), dt, _real)
            form = rng.choice(("scale_tril", "covariance_matrix", "precision_matrix"))
            if form == "scale_tril":
                m = f"torch.tril({a}, -1) + torch.diag({_vec(rng, (), k, dt, _pos, bad)})"
            else:
                m = f"(lambda a: a @ a.mT + torch.eye({k}, dtype=torch.{dt}))({a})"
            d = f"{D}.MultivariateNormal({loc}, {form}={m})"
        value = _vec(rng, _suffix(rng, batch), k, dt, _real)
        methods = ("log_prob", "entropy", "mean", "variance", "mode")
    else:
        d = f"{D}.Independent({D}.Normal({_vec(rng, batch, k, dt, _real)}, {_vec(rng, batch, k, dt, _pos, bad)}), 1)"
        value = _vec(rng, _suffix(rng, batch), k, dt, _real)
        methods = ("log_prob", "entropy", "mean", "variance", "mode")
    m = rng.choice(methods + ("sample",))
    src = _render(d, m, value, rng.choice(("", "(2,)")) if m == "sample" else "")
    return Call(f"{name}.{m}", src, f"{dt}{',bad' if bad else ''}", values=m != "sample", accum=True)


# kl_divergence: families with a registered KL to themselves (and some pairs across families)
_KL_SAME = ("Normal", "Laplace", "Gumbel", "Exponential", "Gamma", "Beta", "HalfNormal", "Pareto", "Poisson",
            "Bernoulli", "Geometric", "ContinuousBernoulli", "LogNormal", "Chi2")  # fmt: skip
_KL_CROSS = (("Exponential", "Gamma"), ("Gamma", "Exponential"), ("Normal", "Gumbel"), ("Normal", "Laplace"),
             ("Exponential", "Normal"), ("Gamma", "Normal"), ("Beta", "Normal"), ("Laplace", "Normal"),
             ("Gumbel", "Normal"), ("Pareto", "Normal"), ("Exponential", "Gumbel"), ("Beta", "Exponential"),
             ("Normal", "Normal"), ("HalfNormal", "Exponential"))  # fmt: skip


def kl(rng: random.Random) -> Call:
    """kl_divergence(p, q) of two distributions (registered or not: then both raise NotImplementedError)."""
    specs = {s[0]: s for s in SCALAR if s[1][0][0] != "logits"}
    if rng.random() < 0.6:
        a = b = rng.choice(_KL_SAME)
    else:
        a, b = rng.choice(_KL_CROSS)
    dt = rng.choice(("float32", "float64"))
    p, _ = _scalar_dist(rng, specs[a], dt, 0.0)
    q, _ = _scalar_dist(rng, specs[b], dt, 0.0)
    return Call(f"kl({a},{b})", f"{D}.kl_divergence({p}, {q})", dt, accum=True)


def uniform(rng: random.Random) -> Call:
    """Uniform(low, high) with high above low (now and then not: the check), and one of its methods."""
    batch = _shape(rng)
    dt = rng.choice(("float32", "float64"))
    lows = [_real(rng) for _ in range(math.prod(batch))]
    highs = [lo + (_pos(rng) if rng.random() > 0.05 else -0.5) for lo in lows]
    lit = lambda flat: (  # noqa: E731
        f"torch.tensor({T.nested(flat, batch) if batch else V.fmt(flat[0])}, dtype=torch.{dt})"
        + (f".reshape({V.fmt(batch)})" if batch else "")
    )
    d = f"{D}.Uniform({lit(lows)}, {lit(highs)})"
    src, m, values = _method(rng, d, batch, _real, _CONT + _CDF, dt)
    return Call(f"Uniform.{m}", src, dt, values=values, accum=True)


def mixture(rng: random.Random) -> Call:
    """MixtureSameFamily of k Normals (or Independent Normals) under a Categorical."""
    dt = rng.choice(("float32", "float64"))
    batch, k = _shape(rng), rng.randint(1, 3)
    event = rng.random() < 0.3
    comp = (*batch, k, 2) if event else (*batch, k)
    normal = f"{D}.Normal({_lit(rng, comp, dt, _real)}, {_lit(rng, comp, dt, _pos)})"
    if event:
        normal = f"{D}.Independent({normal}, 1)"
    d = f"{D}.MixtureSameFamily({D}.Categorical(logits={_lit(rng, (*batch, k), dt, _real)}), {normal})"
    m = rng.choice(("log_prob", "cdf", "mean", "variance", "sample") if not event else ("log_prob", "mean", "variance"))
    value = _lit(rng, _suffix(rng, batch) + ((2,) if event else ()), dt, _real) if m in ("log_prob", "cdf") else ""
    src = _render(d, m, value, "(2,)")
    return Call(f"MixtureSameFamily.{m}", src, dt, values=m != "sample", accum=True)


# transforms: (source, domain of an input element, event dims of an input)
_TRANSFORMS = (
    ("ExpTransform()", _real, 0),
    ("SigmoidTransform()", _real, 0),
    ("TanhTransform()", _real, 0),
    ("SoftplusTransform()", _real, 0),
    ("AbsTransform()", _real, 0),
    ("AffineTransform(1.5, -2.0)", _real, 0),
    ("AffineTransform(0.0, 3.0, event_dim=1)", _real, 1),
    ("PowerTransform(2.0)", _pos, 0),
    ("PowerTransform(0.5)", _pos, 0),
    ("SoftmaxTransform()", _real, 1),
    ("StickBreakingTransform()", _real, 1),
    ("LowerCholeskyTransform()", _real, 2),
    ("CorrCholeskyTransform()", _real, 1),
    ("ComposeTransform([ExpTransform(), AffineTransform(1.0, 2.0)])", _real, 0),
    ("ExpTransform().inv", _pos, 0),
    ("SigmoidTransform().inv", _unit, 0),
    ("StickBreakingTransform().inv", None, 1),
)


def transform(rng: random.Random) -> Call:
    """A transform applied to a tensor (forward, inverse of its output, log_abs_det_jacobian, shapes), or a
    TransformedDistribution of a Normal under it."""
    src_t, dom, edims = rng.choice(_TRANSFORMS)
    t = f"{D}.transforms.{src_t}".replace("([", f"([{D}.transforms.").replace(", Affine", f", {D}.transforms.Affine")
    dt = rng.choice(("float32", "float64"))
    batch = _shape(rng)[:1]
    if edims == 2:
        shape = (*batch, 3, 3)
    elif edims == 1:
        shape = (*batch, 6 if "Corr" in src_t else rng.randint(1, 4))
    else:
        shape = _shape(rng)
    if dom is None:  # a point of the simplex
        x = f"torch.softmax({_lit(rng, shape, dt, _real)}, -1)"
    else:
        x = _lit(rng, shape, dt, dom, 0.03)
    m = rng.choice(("call", "inv", "ladj", "shape", "dist"))
    if m == "call":
        src = f"{t}({x})"
    elif m == "inv":
        src = f"(lambda t: t.inv(t({x})))({t})"
    elif m == "ladj":
        src = f"(lambda t, x: t.log_abs_det_jacobian(x, t(x)))({t}, {x})"
    elif m == "shape":
        src = f"(lambda t: (tuple(t.forward_shape({V.fmt(shape)})), tuple(t.inverse_shape({V.fmt(shape)}))))({t})"
    else:
        base = f"{D}.Normal(torch.zeros({V.fmt(shape)}, dtype=torch.{dt}), 1.0)"
        if edims:
            base = f"{D}.Independent({base}, {edims})"
        src = f"(lambda t, x: {D}.TransformedDistribution({base}, [t]).log_prob(t(x)))({t}, {x})"
    return Call(f"transform.{src_t.split('(')[0]}.{m}", src, dt, accum=True)


_CONSTRAINTS = ("real", "positive", "nonnegative", "unit_interval", "simplex", "real_vector", "boolean",
                "nonnegative_integer", "positive_integer", "lower_cholesky", "lower_triangular", "positive_definite",
                "positive_semidefinite", "corr_cholesky", "symmetric", "square", "one_hot",
                "integer_interval(0, 3)", "interval(-1.0, 2.0)", "half_open_interval(0.0, 1.0)",
                "greater_than(0.5)", "greater_than_eq(0.5)", "less_than(1.0)")  # fmt: skip


def constraint(rng: random.Random) -> Call:
    """A constraint's check of a tensor, or biject_to/transform_to of it applied to an unconstrained tensor."""
    c = rng.choice(_CONSTRAINTS)
    dt = V.dtype(rng, ("float32", "float64", "int64", "bool")) if rng.random() < 0.3 else "float32"
    square = c in ("lower_cholesky", "lower_triangular", "positive_definite", "positive_semidefinite",
                   "corr_cholesky", "symmetric", "square")  # fmt: skip
    shape = (*_shape(rng)[:1], 3, 3) if square else _shape(rng)
    if rng.random() < 0.5 or dt != "float32":
        gen = rng.choice((_real, _unit, _pos, _count, _bit))
        return Call(f"constraint.{c}", f"{D}.constraints.{c}.check({_lit(rng, shape, dt, gen)})", dt)
    fn = rng.choice(("biject_to", "transform_to"))
    if c in ("boolean", "nonnegative_integer", "positive_integer", "integer_interval(0, 3)", "one_hot", "symmetric",
             "square", "lower_triangular", "positive_semidefinite"):  # fmt: skip
        c = "positive"  # no transform registered for these (both raise NotImplementedError)
    if c == "corr_cholesky":
        shape = (*shape[:-2], 3)
    elif c == "simplex" and not shape:
        shape = (3,)
    return Call(
        f"{fn}.{c}", f"{D}.{fn}({D}.constraints.{c})({_lit(rng, shape, 'float64', _real)})", "float64", accum=True
    )


def matrix(rng: random.Random) -> Call:
    """Wishart and LKJCholesky: log_prob of a valid matrix, moments, entropy."""
    dt = rng.choice(("float32", "float64"))
    k = rng.randint(2, 3)
    a = _lit(rng, (k, k), dt, _real)
    pd = f"(lambda a: a @ a.mT + torch.eye({k}, dtype=torch.{dt}))({a})"
    if rng.random() < 0.6:
        df = V.fmt(float(k) + rng.choice((-1.5, 0.0, 0.5, 2.0, 5.0)))
        form = rng.choice(("covariance_matrix", "precision_matrix", "scale_tril"))
        m = f"torch.linalg.cholesky({pd})" if form == "scale_tril" else pd
        d = f"{D}.Wishart(torch.tensor({df}, dtype=torch.{dt}), {form}={m})"
        value = f"(lambda a: a @ a.mT + 0.5 * torch.eye({k}, dtype=torch.{dt}))({_lit(rng, (k, k), dt, _real)})"
        meth = rng.choice(("log_prob", "mean", "variance", "mode", "entropy", "sample"))
        name = "Wishart"
    else:
        conc = V.fmt(rng.choice((0.5, 1.0, 2.0, 4.0, -1.0)))
        d = f"{D}.LKJCholesky({k}, {conc})"
        value = f"(lambda c: torch.linalg.cholesky(c / c.diagonal().sqrt().outer(c.diagonal().sqrt())))({pd})"
        meth = rng.choice(("log_prob", "sample"))
        name = "LKJCholesky"
    src = _render(d, meth, value, "(2,)")
    return Call(f"{name}.{meth}", src, dt, values=meth != "sample", accum=True)


FAMILY = [(8, scalar), (4, vector), (3, kl), (1, uniform), (1, mixture), (3, transform), (2, constraint), (1, matrix)]
