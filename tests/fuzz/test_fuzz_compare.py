"""The fuzzer's comparison of outcomes (tools/fuzz/compare.py) and its known-divergences file."""

from __future__ import annotations

import numpy as np
import pytest

from tools.fuzz import known
from tools.fuzz.call import Call
from tools.fuzz.compare import classify
from tools.fuzz.report import Tally


def T(dtype, arr, strides=None, shape=None):
    arr = np.asarray(arr)
    shape = arr.shape if shape is None else shape
    return ("ok", ("T", f"torch.{dtype}", shape, strides or tuple(1 for _ in shape), arr, False))


def E(cls, bases=("Exception",)):
    return ("exc", cls, "message", bases)


CALL = Call("op", "src")


def test_exceptions():
    assert classify(CALL, E("RuntimeError"), E("RuntimeError"))[0] == "both-raise"
    assert classify(CALL, E("NotImplementedError", ("RuntimeError",)), E("RuntimeError"))[0] == "both-raise"
    assert classify(CALL, E("IndexError"), E("RuntimeError"))[0] == "exc-class"
    assert classify(CALL, E("RuntimeError"), T("int64", [1]))[0] == "raise-ours"
    assert classify(CALL, T("int64", [1]), E("RuntimeError"))[0] == "raise-ref"


def test_crashes_and_hangs():
    crash = ("crash", "SIGFPE", "", "alone")
    assert classify(CALL, crash, E("RuntimeError")) == ("crash", "CRASH SIGFPE (alone)")
    assert classify(CALL, crash, crash)[0] == "crash"
    assert classify(CALL, ("hang", 10.0, ""), T("int64", [1]))[0] == "hang"
    assert classify(CALL, E("RuntimeError"), crash)[0] == "ref-crash"
    assert classify(CALL, T("int64", [1]), ("hang", 10.0, ""))[0] == "ref-hang"


def test_values_dtypes_shapes():
    assert classify(CALL, T("int64", [1, 2]), T("int64", [1, 2]))[0] == "match"
    assert classify(CALL, T("int64", [1, 3]), T("int64", [1, 2]))[0] == "value"
    assert classify(CALL, T("int32", [1, 2]), T("int64", [1, 2]))[0] == "dtype"
    assert classify(CALL, T("int64", [[1, 2]]), T("int64", [1, 2]))[0] == "shape"
    assert classify(CALL, T("float32", [np.nan, 1]), T("float32", [np.nan, 1]))[0] == "match"
    assert classify(CALL, T("float32", [np.inf]), T("float32", [-np.inf]))[0] == "value"
    assert classify(CALL, ("ok", ("py", "int", 3)), T("int64", 3))[0] == "type"


@pytest.mark.parametrize(
    "dtype, close, far",
    [
        ("float64", 1 + 1e-14, 1 + 1e-9),
        ("float32", 1 + 1e-6, 1 + 1e-4),
        ("float16", 1.001, 1.01),
        ("bfloat16", 1.01, 1.05),
    ],
)
def test_float_tolerance_follows_the_dtype(dtype, close, far):
    assert classify(CALL, T(dtype, [close]), T(dtype, [1.0]))[0] == "match"
    assert classify(CALL, T(dtype, [far]), T(dtype, [1.0]))[0] == "value"


def test_strides_matter_for_views_only_and_ignore_size_one_dims():
    view = Call("view", "src", strides=True)
    a, b = T("int64", [[1, 2]], strides=(2, 1)), T("int64", [[1, 2]], strides=(1, 1))
    assert classify(view, a, b)[0] == "match"  # dim 0 has size 1
    a, b = T("int64", [[1], [2]], strides=(1, 1)), T("int64", [[1], [2]], strides=(2, 1))
    assert classify(view, a, b)[0] == "stride"
    assert classify(CALL, a, b)[0] == "layout"


def test_only_compares_the_listed_results():
    vals = T("int64", [1, 2])[1]
    ours = ("ok", ("seq", "tuple", None, [vals, T("int64", [0, 1])[1]]))
    ref = ("ok", ("seq", "tuple", None, [vals, T("int64", [1, 0])[1]]))
    assert classify(Call("sort", "src"), ours, ref)[0] == "value"
    assert classify(Call("sort", "src", only=(0,)), ours, ref)[0] == "match"


def test_known_file(tmp_path):
    p = tmp_path / "known.txt"
    p.write_text("# comment\nvalue  floor_divide  int8,*  *  -- reason one\nraise-* * * TypeError -- any raise\n")
    entries = known.load(p)
    assert [k.reason for k in entries] == ["reason one", "any raise"]
    assert known.lookup(entries, "value", "floor_divide", "int8,int", "int8").line == 2
    assert known.lookup(entries, "value", "floor_divide", "int16,int", "int16") is None
    assert known.lookup(entries, "raise-ours", "gather", "x", "TypeError").reason == "any raise"
    assert known.lookup(entries, "raise-ours", "gather", "x", "IndexError") is None
    p.write_text("value floor_divide int8 * \n")
    with pytest.raises(ValueError, match="REASON"):
        known.load(p)


def test_the_shipped_known_file_parses():
    known.load(known.DEFAULT)


def test_a_known_divergence_does_not_fail_the_run_a_crash_always_does(tmp_path):
    p = tmp_path / "known.txt"
    p.write_text("value op * * -- listed\ncrash op * * -- listed, still fails\n")
    tally = Tally(known.load(p))
    tally.add(CALL, T("int64", [1]), T("int64", [2]))
    assert tally.failing("divergence") == []
    tally.add(CALL, ("crash", "SIGSEGV", "", "alone"), T("int64", [2]))
    assert [f.category for f in tally.failing("divergence")] == ["crash"]
    tally.add(Call("other", "src"), T("int64", [1]), T("int64", [2]))
    assert len(tally.failing("divergence")) == 2 and len(tally.failing("crash")) == 1
