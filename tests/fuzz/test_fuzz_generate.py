"""The fuzzer's generator (tools/fuzz): deterministic, valid Python, every family and dtype reached."""

from __future__ import annotations

import ast
import re
from collections import Counter

import pytest

from tools.fuzz import values
from tools.fuzz.generate import FAMILIES, OPT_IN, calls, generate


def test_a_call_is_a_function_of_seed_and_index():
    first = [generate(7, i).src for i in range(50)]
    again = [generate(7, i).src for i in reversed(range(50))]
    assert first == again[::-1]
    assert generate(7, 3).cid == "7:3"
    assert [c.src for c in calls(7, 10, 5)] == first[10:15]
    assert generate(8, 3).src != generate(7, 3).src


@pytest.mark.parametrize("family", list(FAMILIES) + list(OPT_IN))
def test_every_family_writes_valid_python_that_names_only_torch(family):
    names = set()
    for c in calls(1, 0, 400, [family]):
        tree = ast.parse(c.src)
        bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        bound |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}  # lambda parameters
        names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - bound
        assert c.op and isinstance(c.values, bool)
    # the source is reproducible verbatim after `import torch`: nothing else is referenced
    assert names <= {"torch", "float", "abs", "tuple"}, names  # builtins and torch only


def test_the_stream_covers_every_dtype_and_the_odd_inputs():
    srcs = [c.src for c in calls(2, 0, 3000)]
    text = "\n".join(srcs)
    for dt in values.DTYPES:
        assert f"torch.{dt}" in text
    for pattern in (
        r"\.transpose\(",
        r"\.expand\(",
        r"\[::\d",
        r"float\('nan'\)",
        r"float\('inf'\)",
        r"torch\.zeros\(\(0,",
    ):
        assert re.search(pattern, text), pattern
    ops = Counter(c.op for c in calls(2, 0, 3000))
    for op in ("getitem", "setitem", "index_put_", "gather", "scatter", "as_strided", "view(dtype)", "cat", "split"):
        assert ops[op] > 0, op
    for op in (
        "sum",
        "max",
        "sort",
        "topk",
        "mm",
        "matmul",
        "floor_divide",
        "remainder",
        "clamp",
        "arange",
        "linspace",
    ):
        assert ops[op] > 0, op


def test_families_filter_and_unknown_family():
    assert {c.op for c in calls(3, 0, 200, ["linalg"])} <= {"mm", "bmm", "matmul", "mv", "dot"}
    with pytest.raises(ValueError, match="no such family"):
        generate(3, 0, ["nope"])


def test_the_distributions_family_reaches_every_distribution_and_method():
    ops = Counter(c.op for c in calls(4, 0, 4000, ["distributions"]))
    names = {op.split(".")[0] for op in ops if not op.startswith("kl(")}
    expected = {spec[0] for spec in __import__("tools.fuzz.distributions", fromlist=["SCALAR"]).SCALAR}
    expected |= {"Categorical", "OneHotCategorical", "Multinomial", "Dirichlet", "MultivariateNormal", "LowRank"}
    assert expected | {"Independent"} <= names, expected - names
    for method in ("log_prob", "cdf", "icdf", "entropy", "mean", "mode", "variance", "enumerate_support", "sample"):
        assert any(op.endswith("." + method) for op in ops), method
    assert any(op.startswith("kl(") for op in ops)
    assert not any("distributions" in c.src for c in calls(4, 0, 2000))  # opt-in: not in the default stream
