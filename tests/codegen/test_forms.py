"""One YAML entry, three forms: `inplace:` and `out:` derive an op's in-place and out= schemas from
its functional one (PyTorch's structured ops), and `dispatch:` is written only where it differs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.codegen.model import CodegenError, load

ROOT = Path(__file__).resolve().parents[2]
YAML = ROOT / "aten" / "native_functions.yaml"


def _load(tmp_path, text: str):
    p = tmp_path / "nf.yaml"
    p.write_text(text)
    return load(p)


def test_one_entry_declares_functional_inplace_and_out(tmp_path):
    funcs = _load(
        tmp_path,
        "- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
        "  variants: function, method\n  inplace: method\n  out: True\n",
    )
    assert [str(f.schema) for f in funcs] == [
        "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
        "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
    ]
    assert [sorted(f.variants) for f in funcs] == [["function", "method"], ["method"], ["function"]]
    assert [f.cpp_name for f in funcs] == ["th::add", "th::add_", "th::add_out"]
    assert all(f.line == 1 for f in funcs)


def test_out_form_of_an_op_without_keyword_arguments(tmp_path):
    (f, out) = _load(tmp_path, "- func: exp(Tensor self) -> Tensor\n  out: True\n")
    assert str(out.schema) == "exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"
    assert out.schema.is_out


@pytest.mark.parametrize(
    "text,message",
    [
        ("- func: f(Tensor self) -> Tensor\n  out: yes please\n", "'out:' is True, False, castable or exact"),
        ("- func: f(int n) -> Tensor\n  inplace: method\n", "needs 'Tensor self'"),
        ("- func: f(Tensor self) -> (Tensor a, Tensor b)\n  out: True\n", "returns one Tensor"),
        ("- func: f(Tensor self) -> Tensor\n  inplace: methd\n", "unknown variant"),
        ("- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: th::g\n  out: True\n", "default dispatch"),
        (
            "- func: f(Tensor self) -> Tensor\n  out: True\n"
            "- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n",
            "duplicate op 'f.out'",
        ),
    ],
)
def test_form_errors_name_the_line(tmp_path, text, message):
    with pytest.raises(CodegenError, match=message) as e:
        _load(tmp_path, text)
    assert "nf.yaml:" in str(e.value)


def test_yaml_says_only_what_differs():
    """No entry restates the default dispatch (th::<name>[_out] on every device), and no in-place or
    out= entry is written by hand where `inplace:` / `out:` would derive it."""
    text = YAML.read_text()
    funcs = load(YAML)
    for f in funcs:
        if f.dispatch:
            default = f"th::{f.schema.name}" + ("_out" if f.schema.is_out else "")
            assert set(f.dispatch.values()) != {default} or set(f.dispatch) != {"CPU", "CUDA"}, f.schema
    written = {line.split("(")[0].removeprefix("- func: ") for line in text.splitlines() if line.startswith("- func:")}
    derived = {f.schema.full_name for f in funcs} - written
    assert len(derived) > 100  # add_/add.out, exp_/exp.out, ...
    assert "clip" not in written  # the Python layer defines clip (an alias of clamp)


def test_python_module_nn_binds_in_torch_C_nn(tmp_path):
    from tools.codegen import bindings, stubs

    (f,) = _load(tmp_path, "- func: gelu(Tensor self, *, str approximate='none') -> Tensor\n  python_module: nn\n")
    assert f.python_module == "nn"
    files = bindings.render_shards([bindings.shard_entry(f)], 1)
    shard = files["shard_0.cpp"]
    assert ' nn.def("gelu"' in shard and ' m.def("gelu"' not in shard
    assert 'functions.append("gelu")' not in shard  # not on torch
    assert 'm.def_submodule("_nn"' in files["register_all.cpp"]
    assert stubs.stub_entry(f)[2] is None  # not in torch/_C.pyi's module functions
    with pytest.raises(CodegenError, match="function only"):
        _load(tmp_path, "- func: g(Tensor self) -> Tensor\n  python_module: nn\n  variants: function, method\n")
    with pytest.raises(CodegenError, match="'nn' or absent"):
        _load(tmp_path, "- func: g(Tensor self) -> Tensor\n  python_module: linalg\n")


def test_out_castable_gives_the_function_an_out_overload(tmp_path):
    """`out: castable|exact`: no out= schema (the op has no th::<name>_out), but the torch function's binding
    gets a second overload, after the first, with a keyword-only out that write_out fills; the method has none.
    A function's self is `input` to Python."""
    from tools.codegen import bindings

    (f,) = _load(
        tmp_path,
        "- func: cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor\n"
        "  variants: function, method\n  out: castable\n",
    )
    assert f.out_rule == "castable" and not f.schema.is_out
    shard = bindings.render_shards([bindings.shard_entry(f)], 1)["shard_0.cpp"]
    defs = [line for line in shard.splitlines() if '"cumsum"' in line and '"dim"_a' in line]  # not the axis= forms
    plain, with_out, method = defs
    assert '"out"_a' not in plain and '"input"_a' in plain
    assert 'torch::autograd::write_out("cumsum", out, res, "castable")' in with_out and '"out"_a.none()' in with_out
    assert "if (!dtype && nb::isinstance<th::Tensor>(out)) dtype =" in with_out  # computed in out's dtype
    assert "def_method" in method and '"out"_a' not in method and '"input"_a' not in method
    with pytest.raises(CodegenError, match="function variant"):
        _load(tmp_path, "- func: g(Tensor self) -> Tensor\n  variants: method\n  out: exact\n")
