"""The fuzzer's worker and runner (tools/fuzz/worker.py, runner.py) against a stand-in `torch` module:
outcomes come back per call, a crash or hang is reported as that call's and the batch goes on, a crash
caused by an earlier call is told apart, the torch imported is checked. No real torch is needed."""

from __future__ import annotations

import sys
import textwrap

import pytest

from tools.fuzz.call import Call
from tools.fuzz.runner import Library, Worker, WorkerError

FAKE_TORCH = """
import os, signal
import numpy as np

__version__ = "0.0-fake"
armed = False

class version:
    build_config = staticmethod(lambda: {})

class dtype: pass
class Size(tuple): pass

class Tensor:
    def __init__(self, data):
        self.a = np.asarray(data)
        self.dtype = "torch." + str(self.a.dtype)
        self.shape = self.a.shape
    def detach(self): return self
    def stride(self): return tuple(s // self.a.itemsize for s in self.a.strides)
    def numel(self): return self.a.size
    def cpu(self): return self
    def resolve_conj(self): return self
    def resolve_neg(self): return self
    def numpy(self): return self.a

bfloat16 = object()
def tensor(data): return Tensor(data)
def set_num_threads(n): pass
def boom(): os.kill(os.getpid(), signal.SIGSEGV)
def arm():
    global armed
    armed = True
def trap():
    if armed: boom()
    return 1
def spin():
    while True: pass
"""


@pytest.fixture
def worker(tmp_path):
    pkg = tmp_path / "torch"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(FAKE_TORCH))
    lib = Library("fake", sys.executable, ours=True, env={"PYTHONPATH": str(tmp_path), "PYTHONSAFEPATH": "1"})
    w = Worker(lib, timeout=0.5, mem_gb=0, threads=0, log=lambda m: None)
    w.start(attempts=1)
    yield w
    w.close()


def run(w, *srcs):
    batch = [Call("op", s, cid=str(i)) for i, s in enumerate(srcs)]
    w.submit(batch)
    out = w.collect(batch)
    return [out[str(i)] for i in range(len(srcs))]


def test_values_exceptions_and_statements(worker):
    ok, exc, stmts, seq = run(worker, "torch.tensor([1, 2])", "1 // 0", "x = torch.tensor(3); x", "(1, 2.5, True)")
    assert ok[0] == "ok" and ok[1][:3] == ("T", "torch.int64", (2,)) and ok[1][4].tolist() == [1, 2]
    assert exc[:2] == ("exc", "ZeroDivisionError") and "ArithmeticError" in exc[3]
    assert stmts[1][4].tolist() == 3
    assert seq == ("ok", ("seq", "tuple", None, [("py", "int", 1), ("py", "float", 2.5), ("py", "bool", True)]))


def test_a_crash_and_a_hang_are_reported_and_the_batch_goes_on(worker):
    outs = run(worker, "1", "torch.boom()", "2", "torch.spin()", "3")
    assert [o[0] for o in outs] == ["ok", "crash", "ok", "hang", "ok"]
    assert outs[1][1] == "SIGSEGV" and outs[1][3] == "alone"
    assert outs[4][1] == ("py", "int", 3)


def test_a_crash_caused_by_an_earlier_call_names_it(worker):
    outs = run(worker, "1", "torch.arm()", "2", "torch.trap()")
    assert outs[3][:2] == ("crash", "SIGSEGV")
    assert outs[3][3] == "after 1"  # call 1 armed the trap: alone, call 3 does not crash


def test_the_torch_imported_is_checked(tmp_path, worker):
    lib = Library("fake", sys.executable, ours=False, env=worker.lib.env)
    w = Worker(lib, 1, 0, 0, lambda m: None)
    try:
        with pytest.raises(WorkerError, match="not upstream PyTorch"):
            w.start(attempts=1)
    finally:
        w.close()
