"""The code generator: schema parsing, validation errors, determinism, minimal rewrites, sharding."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tools.codegen import bindings
from tools.codegen.__main__ import generate
from tools.codegen.model import CodegenError, Schema, Type, load

ROOT = Path(__file__).resolve().parents[2]
YAML = ROOT / "aten" / "native_functions.yaml"


def test_parse_schema():
    s = Schema.parse("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)")
    assert (s.name, s.overload, s.is_out) == ("add", "out", True)
    assert [a.name for a in s.arguments] == ["self", "other", "alpha", "out"]
    assert [a.kwarg_only for a in s.arguments] == [False, False, True, True]
    assert s.arguments[2].default == "1"
    assert s.returns == (Type("Tensor", alias="a", mutable=True),)
    assert str(s) == "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"
    assert Type.parse("int[1]?") == Type("int", is_list=True, optional=True)


@pytest.mark.parametrize(
    "text,message",
    [
        ("- func: f(Tensr self) -> Tensor", "unknown type 'Tensr'"),
        ("- func: f(Tensor self) -> Tensor\n  variants: methd", "unknown variant"),
        ("- func: f(Tensor self) -> Tensor\n  dispatch:\n    TPU: th::f", "unknown dispatch key 'TPU'"),
        ("- func: f(Tensor self) -> Tensor\n- func: f(Tensor self) -> Tensor", "duplicate op 'f'"),
        ("- func: f(int x) -> Tensor\n  variants: method", "needs 'self'"),
        ("- func: f(Tensor self\n", "cannot parse schema"),
        ("- fnc: f(Tensor self) -> Tensor", "unknown key"),
    ],
)
def test_errors_name_the_line(tmp_path, text, message):
    p = tmp_path / "nf.yaml"
    p.write_text(text)
    with pytest.raises(CodegenError, match=message) as e:
        load(p)
    assert str(p) in str(e.value)


def test_bad_default_is_reported(tmp_path):
    p = tmp_path / "nf.yaml"
    p.write_text("- func: f(Tensor self, int k=None) -> Tensor\n")
    with pytest.raises(CodegenError, match="not optional"):
        bindings.render_shards([bindings.shard_entry(f) for f in load(p)], 4)


def test_output_is_deterministic_and_rewritten_only_on_change(tmp_path):
    out, pyi = tmp_path / "gen", tmp_path / "_C.pyi"
    first = generate(YAML, out, pyi, 8)
    assert len(first) == 10  # 8 shards + register_all + stub
    snapshot = {p: p.read_bytes() for p in out.iterdir()}
    mtimes = {p: p.stat().st_mtime_ns for p in out.iterdir()}
    assert generate(YAML, out, pyi, 8) == []
    assert {p: p.stat().st_mtime_ns for p in out.iterdir()} == mtimes
    assert {p: p.read_bytes() for p in out.iterdir()} == snapshot


def test_fewer_shards_remove_the_stale_ones(tmp_path):
    out, pyi = tmp_path / "gen", tmp_path / "_C.pyi"
    generate(YAML, out, pyi, 8)
    generate(YAML, out, pyi, 4)
    assert sorted(p.name for p in out.glob("shard_*.cpp")) == [f"shard_{k}.cpp" for k in range(4)]


def test_adding_an_op_changes_one_shard(tmp_path):
    yaml_copy = tmp_path / "nf.yaml"
    yaml_copy.write_text(YAML.read_text())
    out, pyi = tmp_path / "gen", tmp_path / "_C.pyi"
    generate(yaml_copy, out, pyi, 8)
    yaml_copy.write_text(
        yaml_copy.read_text()
        + textwrap.dedent("""\
        - func: plus(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
          dispatch:
            CPU, CUDA: th::add
        """)
    )
    changed = {p.name for p in generate(yaml_copy, out, pyi, 8)}
    assert changed == {f"shard_{bindings.shard_of('plus', 8)}.cpp", "_C.pyi"}


def test_stub_lists_overloads():
    from tools.codegen import stubs

    text = stubs.render([stubs.stub_entry(f) for f in load(YAML)])
    assert "def add(self, other: Tensor | Number, *, alpha: Number = ...) -> Tensor: ..." in text
    assert text.count("def sum(") >= 4  # method and function, two overloads each


def test_memory_format_arguments(tmp_path):
    p = tmp_path / "nf.yaml"
    p.write_text(
        "- func: f(Tensor self, *, MemoryFormat memory_format=contiguous_format) -> Tensor\n"
        "  variants: method\n"
        "- func: g(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor\n"
    )
    funcs = load(p)
    assert bindings.prototype(funcs[0])[1] == "th::Tensor f(const th::Tensor& self, th::MemoryFormat memory_format);"
    assert "std::optional<th::MemoryFormat> memory_format" in bindings.prototype(funcs[1])[1]
    text = "".join(bindings.render_shards([bindings.shard_entry(f) for f in funcs], 1).values())
    assert '"memory_format"_a = nb::cast(th::MemoryFormat::Contiguous)' in text
    p.write_text("- func: f(Tensor self, *, MemoryFormat memory_format=channels_first) -> Tensor\n")
    with pytest.raises(CodegenError, match="unsupported default 'channels_first'"):
        bindings.render_shards([bindings.shard_entry(f) for f in load(p)], 1)


def test_bool_returns_are_plain_python_bools(tmp_path):
    p = tmp_path / "nf.yaml"
    p.write_text("- func: same(Tensor self, Tensor other) -> bool\n  variants: function, method\n")
    funcs = load(p)
    assert bindings.prototype(funcs[0])[1] == "bool same(const th::Tensor& self, const th::Tensor& other);"
    text = "".join(bindings.render_shards([bindings.shard_entry(f) for f in funcs], 1).values())
    assert "return nb::bool_(torch::without_gil_if_long({&(self_r), &(other_r)}, [&] { return th::same(" in text
    assert "autograd::record" not in text


def test_calls_release_the_gil_when_a_tensor_argument_is_long(tmp_path):
    p = tmp_path / "nf.yaml"
    p.write_text(
        "- func: f(Tensor self, Tensor? w, Tensor[] many, int n) -> Tensor\n"
        "- func: g_(Tensor(a!) self, Tensor other) -> Tensor(a!)\n  variants: method\n"
    )
    text = "".join(bindings.render_shards([bindings.shard_entry(f) for f in load(p)], 1).values())
    # plain tensor arguments decide (optional and list ones are not looked at); the result is cast after
    assert "nb::cast(torch::without_gil_if_long({&(self_r)}, [&] { return th::f(self_r, w, many_r, n.v); }))" in text
    assert "torch::Int n" in text  # an int argument refuses a bool (upstream: "must be int, not bool")
    assert "torch::without_gil_if_long({&(self_w.get()), &(other_r)}" in text
    p.write_text("- func: f(Tensor self) -> int\n")
    with pytest.raises(CodegenError, match="only Tensor and bool returns are supported"):
        bindings.render_shards([bindings.shard_entry(f) for f in load(p)], 1)


def test_split_entries_cuts_a_block_list_and_refuses_other_shapes():
    from tools.codegen.memo import split_entries

    text = "# header\n\n- func: a()\n  doc: |\n    - not an entry\n# about b\n- func: b()\n"
    assert split_entries(text) == [(3, "- func: a()\n  doc: |\n    - not an entry\n# about b\n"), (7, "- func: b()\n")]
    assert split_entries("[a, b]\n") is None  # a flow list
    assert split_entries("---\n- func: a()\n") is None  # a document marker
    assert split_entries("key: 1\n") is None
    assert split_entries("# only a comment\n") is None


def _generate_memoized(yaml_path, out_dir, memo_path, shards=8, autograd=True):
    from tools.codegen.__main__ import generate_autograd, ops
    from tools.codegen.memo import Memo

    memo = Memo(memo_path)
    parsed = ops(yaml_path, memo)
    out, pyi, nodes = out_dir / "gen", out_dir / "_C.pyi", out_dir / "_generated.py"
    written = generate(yaml_path, out, pyi, shards, memo, parsed)
    formulas = ROOT / "torch/autograd/_formulas.py"
    if autograd and generate_autograd(ROOT / "aten/derivatives.yaml", yaml_path, formulas, nodes, memo, parsed):
        written.append(nodes)
    memo.save()
    return memo, {p.name for p in written}


def test_memoized_runs_write_what_a_fresh_run_writes(tmp_path):
    from tools.codegen.__main__ import generate_autograd

    yaml_copy = tmp_path / "nf.yaml"
    yaml_copy.write_text(YAML.read_text())
    fresh = tmp_path / "fresh"
    generate(yaml_copy, fresh / "gen", fresh / "_C.pyi", 8)
    generate_autograd(
        ROOT / "aten/derivatives.yaml", yaml_copy, ROOT / "torch/autograd/_formulas.py", fresh / "_generated.py"
    )
    memo_path = tmp_path / "codegen.marshal"
    memo, _ = _generate_memoized(yaml_copy, tmp_path / "memo", memo_path)
    assert memo.computed > len(load(yaml_copy))  # a cold memo computes every entry
    memo, written = _generate_memoized(yaml_copy, tmp_path / "memo", memo_path)
    assert (memo.computed, written) == (0, set())  # a warm one computes and writes nothing

    # one op added at the end and one comment at the top (every line moves): one entry computed
    yaml_copy.write_text(
        "# moved\n" + YAML.read_text() + "- func: plus(Tensor self, Tensor other) -> Tensor\n  dispatch:\n"
        "    CPU, CUDA: th::add\n"
    )
    memo, written = _generate_memoized(yaml_copy, tmp_path / "memo", memo_path)
    assert memo.computed == 1 and written == {f"shard_{bindings.shard_of('plus', 8)}.cpp", "_C.pyi"}
    generate(yaml_copy, fresh / "gen", fresh / "_C.pyi", 8)
    for p in (fresh / "gen").iterdir():
        assert (tmp_path / "memo/gen" / p.name).read_text() == p.read_text(), p.name
    assert (tmp_path / "memo/_C.pyi").read_text() == (fresh / "_C.pyi").read_text()
    assert (tmp_path / "memo/_generated.py").read_text() == (fresh / "_generated.py").read_text()


def test_memoized_errors_name_the_current_line(tmp_path):
    yaml_copy, memo_path = tmp_path / "nf.yaml", tmp_path / "codegen.marshal"
    yaml_copy.write_text("- func: f(Tensor self) -> Tensor\n- func: g(Tensor self) -> Tensor\n")
    _generate_memoized(yaml_copy, tmp_path, memo_path, autograd=False)
    yaml_copy.write_text("\n\n- func: f(Tensor self) -> Tensor\n- func: f(Tensor self) -> Tensor\n")
    with pytest.raises(CodegenError, match=r"nf.yaml:4: duplicate op 'f' \(first at line 3\)"):
        _generate_memoized(yaml_copy, tmp_path, memo_path, autograd=False)


def test_memo_survives_a_corrupt_file_and_yaml_aliases(tmp_path):
    yaml_copy, memo_path = tmp_path / "nf.yaml", tmp_path / "codegen.marshal"
    memo_path.write_bytes(b"\x00not a memo")
    # an alias to another entry: entries cannot be parsed alone, so the file is parsed whole
    yaml_copy.write_text(
        "- func: f(Tensor self) -> Tensor\n  dispatch: &d\n    CPU, CUDA: th::f\n"
        "- func: g(Tensor self) -> Tensor\n  dispatch: *d\n"
    )
    _, written = _generate_memoized(yaml_copy, tmp_path, memo_path, shards=1, autograd=False)
    assert "shard_0.cpp" in written
    assert "th::f(" in (tmp_path / "gen/shard_0.cpp").read_text()
    assert [f.dispatch for f in load(yaml_copy)] == [{"CPU": "th::f", "CUDA": "th::f"}] * 2


def test_memo_is_salted_with_the_generator_sources(tmp_path, monkeypatch):
    from tools.codegen import memo as memo_mod

    sources = tmp_path / "codegen"
    sources.mkdir()
    (sources / "model.py").write_text("# v1\n")
    monkeypatch.setattr(memo_mod, "_SOURCES", str(sources))
    m = memo_mod.Memo(tmp_path / "m.marshal")
    assert m.get("k", lambda: "v1") == "v1"
    m.save()
    assert memo_mod.Memo(tmp_path / "m.marshal").get("k", lambda: "recomputed") == "v1"
    (sources / "model.py").write_text("# v2: the generator changed\n")
    assert memo_mod.Memo(tmp_path / "m.marshal").get("k", lambda: "recomputed") == "recomputed"


def test_numbers_false_makes_tensor_arguments_tensors_only(tmp_path):
    p = tmp_path / "nf.yaml"
    p.write_text(
        "- func: f(Tensor self, Tensor other, Scalar s) -> Tensor\n  numbers: False\n  inplace: method\n  out: True\n"
        "- func: g(Tensor self, Tensor other, Scalar s) -> Tensor\n"
    )
    funcs = load(p)
    assert [f.numbers for f in funcs] == [False, False, False, True]  # the derived forms inherit it
    text = "".join(bindings.render_shards([bindings.shard_entry(f) for f in funcs], 1).values())
    assert "const torch::StrictTensorArg& self, const torch::StrictTensorArg& other, torch::ScalarArg s" in text
    assert "const torch::TensorArg& self, const torch::TensorArg& other, torch::ScalarArg s" in text
    p.write_text("- func: f(Tensor self) -> Tensor\n  numbers: maybe\n")
    with pytest.raises(CodegenError, match="'numbers:' is True or False"):
        load(p)


def test_conjugate_views_are_resolved_except_where_the_op_takes_them(tmp_path):
    """Every op reads a tensor with the conjugate bit resolved (torch/csrc/Conj.h) and writes a mutable one through
    a resolved copy committed after the call; a view op's viewed tensor and a `conj: aware` op's tensors pass as
    they are; a list written in place refuses the bit."""
    p = tmp_path / "nf.yaml"
    p.write_text(
        "- func: f(Tensor self, Tensor? w, Tensor[] many) -> Tensor\n"
        "- func: g_(Tensor(a!) self, Tensor other) -> Tensor(a!)\n  variants: method\n"
        "- func: v(Tensor(a) self, Tensor other) -> Tensor(a)\n"
        "- func: c_(Tensor(a!) self, Tensor src) -> Tensor(a!)\n  variants: method\n  conj: aware\n"
        "- func: o_(Tensor[] params, Tensor[] grads) -> bool\n"
    )
    text = "".join(bindings.render_shards([bindings.shard_entry(f) for f in load(p)], 1).values())
    assert "const th::Tensor& self_r = torch::resolved(self.tensor(), self_h);" in text
    assert "torch::resolve(w);" in text and "const auto& many_r = torch::resolved(many, many_h);" in text
    assert "torch::ConjWrite self_w(*nb::inst_ptr<th::Tensor>(self_obj));" in text
    assert "th::g_(self_w.get(), other_r); }); self_w.commit(); return nb::borrow(self_obj);" in text
    # the view's own tensor is not resolved (the view keeps the bit); its other tensor is
    v = next(line for line in text.splitlines() if '"v"' in line)
    assert "self_r" not in v and "torch::resolved(other.tensor(), other_h)" in v
    c = next(line for line in text.splitlines() if '"c_"' in line)
    assert "resolved" not in c and "ConjWrite" not in c
    o = next(line for line in text.splitlines() if '"o_"' in line)
    assert 'torch::refuse_conj(params, "o_");' in o and "resolved" not in o
    p.write_text("- func: f(Tensor self) -> Tensor\n  conj: lazy\n")
    with pytest.raises(CodegenError, match="'conj:' is 'aware' or absent"):
        load(p)
