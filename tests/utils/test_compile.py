"""torch.compile, torch.compiler and torch.jit as code calls them: compiled modules and functions compute what
the eager ones do, a compiled module wraps the original as `_orig_mod` (its state_dict keys prefixed, as
upstream's checkpoints of compiled models are), bad arguments give upstream's errors, and the TorchScript
decorators that library code uses leave the code runnable. Runs against upstream PyTorch too
(TORCH_REFERENCE); every compile that runs uses backend="eager", so no C++ compiler is needed."""

from __future__ import annotations

import pickle

import pytest

import torch
from torch import nn


def _model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


def test_compiled_module_matches_eager_forward_and_backward():
    model = _model()
    compiled = torch.compile(model, backend="eager")
    x = torch.randn(3, 4)
    expected = model(x)
    out = compiled(x)
    torch.testing.assert_close(out, expected)
    out.sum().backward()
    assert model[0].weight.grad is not None
    assert compiled._orig_mod is model
    assert isinstance(compiled, nn.Module) and isinstance(compiled, torch._dynamo.eval_frame.OptimizedModule)


def test_compiled_module_state_dict_and_attributes_are_the_originals():
    model = nn.Linear(2, 3)
    compiled = torch.compile(model, backend="eager")
    assert list(compiled.state_dict()) == ["_orig_mod.weight", "_orig_mod.bias"]
    assert compiled.weight is model.weight and compiled.in_features == 2
    assert [n for n, _ in compiled.named_parameters()] == ["_orig_mod.weight", "_orig_mod.bias"]
    compiled.eval()
    assert model.training is False
    assert "(_orig_mod): Linear(in_features=2, out_features=3, bias=True)" in repr(compiled)
    # the optimizer sees the same parameters
    assert list(compiled.parameters()) == list(model.parameters())


def test_compiled_module_pickles():
    compiled = torch.compile(nn.Linear(2, 3), backend="eager")
    back = pickle.loads(pickle.dumps(compiled))
    x = torch.ones(1, 2)
    torch.testing.assert_close(back(x), compiled(x))


def test_compile_functions_and_decorator_forms():
    def f(x, y=1.0):
        return torch.sin(x) * y

    x = torch.randn(5)
    torch.testing.assert_close(torch.compile(f, backend="eager")(x, y=2.0), f(x, y=2.0))

    @torch.compile(backend="eager", fullgraph=True, dynamic=False)
    def g(x):
        return x * 2

    torch.testing.assert_close(g(x), x * 2)
    assert g.__name__ == "g"


def test_module_compile_keeps_the_module():
    model = nn.Linear(2, 2)
    assert model.compile(backend="eager") is None
    assert list(model.state_dict()) == ["weight", "bias"]
    x = torch.ones(1, 2)
    torch.testing.assert_close(model(x), x @ model.weight.T + model.bias)


def test_disable_returns_the_model():
    model = nn.Linear(2, 2)
    assert torch.compile(model, disable=True) is model


def test_bad_arguments_give_upstreams_errors():
    model = nn.Linear(2, 2)
    # checked when torch.compile is called, before anything compiles (the mode names are inductor's)
    with pytest.raises(RuntimeError, match="Unrecognized mode=bogus"):
        torch.compile(model, mode="bogus")
    with pytest.raises(RuntimeError, match="Either mode or options can be specified"):
        torch.compile(model, backend="eager", mode="default", options={"a": 1})
    with pytest.raises(RuntimeError, match="Invalid backend: 'no-such-backend'"):
        torch.compile(model, backend="no-such-backend")(torch.ones(1, 2))


def test_compiler_queries():
    assert torch.compiler.is_compiling() is False
    assert torch.compiler.is_dynamo_compiling() is False
    assert "inductor" in torch.compiler.list_backends()
    f = torch.compiler.disable(lambda x: x + 1)
    assert f(1) == 2
    torch.compiler.reset()
    torch._dynamo.reset()
    assert torch.compiler.allow_in_graph(len) is len


def test_jit_decorators_leave_code_runnable():
    @torch.jit.ignore
    def helper(x):
        return x + 1

    @torch.jit.unused
    def unused(x):
        return x - 1

    assert helper(1) == 2 and unused(1) == 0
    assert torch.jit.is_scripting() is False and torch.jit.is_tracing() is False
    assert torch.jit.annotate(list, [1]) == [1]

    assert torch.jit.Final[int] is not None

    class M(nn.Module):
        __constants__ = ["c"]

        def __init__(self):
            super().__init__()
            self.c = 3

        def forward(self, x):
            return x * self.c

    x = torch.randn(2)
    scripted = torch.jit.script(M())
    torch.testing.assert_close(scripted(x), x * 3)

    def add(a, b):
        return a + b

    torch.testing.assert_close(torch.jit.script(add)(x, x), 2 * x)
    traced = torch.jit.trace(M(), (x,))
    torch.testing.assert_close(traced(x), x * 3)


def test_jit_fork_wait():
    fut = torch.jit.fork(torch.add, torch.ones(2), 1)
    torch.testing.assert_close(torch.jit.wait(fut), torch.full((2,), 2.0))
