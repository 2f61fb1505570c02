"""Worker processes (one per library per job) and the loop that feeds them batches of calls."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .call import Call
from .worker import EOF, TIMEOUT, Reader, send

WORKER = Path(__file__).resolve().parent / "worker.py"


@dataclass
class Library:
    """A torch to run calls against: a Python executable and the environment it runs in.

    ours: True for this project's torch (it has `torch.version.build_config`), False for upstream;
    the worker's import is checked against it (and against `expect_root`, a package dir, if given)."""

    name: str
    python: str
    ours: bool
    env: dict[str, str] = field(default_factory=dict)
    expect_root: str | None = None


def library(name: str, python: str, ours: bool, threads: int = 1) -> Library:
    """A Library with the environment its worker needs: the caller's, with PYTHONSAFEPATH=1 and one
    OpenMP/BLAS thread; for upstream without PYTHONPATH (which may point at our build)."""
    env = dict(os.environ)
    env.update(PYTHONSAFEPATH="1", PYTHONDONTWRITEBYTECODE="1", OMP_NUM_THREADS=str(max(threads, 1)))
    env.update(OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    expect = env.pop("TORCH_EXPECT_ROOT", None)
    if not ours:
        for k in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"):
            env.pop(k, None)
        expect = None
    return Library(name, python, ours, env, expect)


class WorkerError(RuntimeError):
    """A worker could not be started (its torch does not import, or is the wrong one)."""


class Worker:
    """One worker process of a library: batches in, one outcome per call out; restarted if it dies."""

    def __init__(self, lib: Library, timeout: float, mem_gb: float, threads: int, log: Callable[[str], None]):
        self.lib, self.timeout, self.mem_gb, self.threads, self.log = lib, timeout, mem_gb, threads, log
        self.tmp = tempfile.mkdtemp(prefix=f"fuzz-{lib.name}-")
        self.proc: subprocess.Popen | None = None
        self.reader: Reader | None = None
        self.info: dict = {}
        self.restarts = 0

    def start(self, attempts: int = 20, wait: float = 6.0) -> dict:
        """Starts the worker and waits for its torch import (retried: a rebuild may be under way)."""
        last = ""
        for attempt in range(attempts):
            r, w = os.pipe()
            err = open(os.path.join(self.tmp, "worker.err"), "wb")
            args = [self.lib.python, str(WORKER), str(w), str(self.timeout), str(self.mem_gb), str(self.threads)]
            args.append(os.path.join(self.tmp, "child.err"))
            self.proc = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=err,
                pass_fds=(w,),
                cwd=self.tmp,
                env=self.lib.env,
            )
            os.close(w)
            err.close()
            self.reader = Reader(r)
            msg = self.reader.read(300)
            if isinstance(msg, tuple) and msg[0] == "ready":
                self.info = msg[1]
                try:
                    self._check()
                except WorkerError:
                    self._kill()
                    raise
                return self.info
            self._kill()
            last = Path(self.tmp, "worker.err").read_text(errors="replace")[-2000:]
            self.log(f"{self.lib.name}: worker did not start (attempt {attempt + 1}): {last.strip().splitlines()[-1:]}")
            time.sleep(wait)
        raise WorkerError(f"{self.lib.name} ({self.lib.python}): torch does not import:\n{last}")

    def _check(self) -> None:
        info = self.info
        if info["ours"] != self.lib.ours:
            want = "this project's torch" if self.lib.ours else "upstream PyTorch"
            raise WorkerError(
                f"{self.lib.name}: {self.lib.python} imports torch {info['version']} from {info['file']}, not {want}"
            )
        if self.lib.expect_root and Path(info["file"]).resolve().parent != Path(self.lib.expect_root).resolve():
            raise WorkerError(f"{self.lib.name}: imported {info['file']}, expected the build in {self.lib.expect_root}")

    def _kill(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            if self.proc.stdin:
                self.proc.stdin.close()
        if self.reader is not None:
            os.close(self.reader.fd)
            self.reader = None
        self.proc = None

    def close(self) -> None:
        """Stops the worker and removes its scratch directory."""
        if self.proc is not None and self.proc.poll() is None and self.proc.stdin:
            try:
                self.proc.stdin.close()
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()
        for name in ("worker.err", "child.err"):
            try:
                os.unlink(os.path.join(self.tmp, name))
            except OSError:
                pass
        os.rmdir(self.tmp)

    def submit(self, calls: list[Call]) -> None:
        """Sends a batch (results are read by `collect`)."""
        if self.proc is None:
            self.start()
        try:
            send(self.proc.stdin.fileno(), ("run", [(c.cid, c.src, c.values) for c in calls]))
        except OSError:
            pass  # the worker died: collect() restarts it and sends what is missing

    def collect(self, calls: list[Call]) -> dict[str, tuple]:
        """Outcomes of a submitted batch by call id. A worker that dies (a rebuild changed torch on disk,
        or worse) is restarted and given the calls that have no outcome yet."""
        out: dict[str, tuple] = {}
        failures = 0
        # the worker times each call itself; this only guards against the worker hanging
        guard = self.timeout * 60 + 300
        while True:
            msg = self.reader.read(guard) if self.reader else EOF
            if isinstance(msg, tuple) and msg[0] == "out":
                out[msg[1]] = msg[2]
                continue
            if isinstance(msg, tuple) and msg[0] == "done":
                return out
            code = self.proc.poll() if self.proc else None
            if msg is TIMEOUT:
                self.log(f"{self.lib.name}: worker silent for {guard:g}s; restarting it")
            elif code == 3:
                self.log(f"{self.lib.name}: torch changed on disk (a rebuild); restarting the worker")
            else:
                tail = Path(self.tmp, "worker.err").read_text(errors="replace")[-500:] if self.proc else ""
                self.log(f"{self.lib.name}: worker died (exit {code}); restarting it. {tail.strip()}")
            self._kill()
            self.restarts += 1
            missing = [c for c in calls if c.cid not in out]
            failures += 1
            if failures > 3:
                for c in missing:
                    out[c.cid] = ("error", "the worker kept dying on this batch")
                return out
            self.start()
            self.submit(missing)


def run_batches(
    batches: Iterator[list[Call]],
    ours: list[Worker],
    ref: list[Worker],
    on_batch: Callable[[list[Call], dict, dict], None],
) -> None:
    """Feeds batches to pairs of workers (one thread per pair); `on_batch(calls, ours, ref)` gets each
    batch's outcomes as soon as both libraries have run it."""
    lock = threading.Lock()
    errors: list[BaseException] = []

    def job(w_ours: Worker, w_ref: Worker) -> None:
        try:
            while not errors:
                with lock:
                    batch = next(batches, None)
                if batch is None:
                    return
                w_ours.submit(batch)
                w_ref.submit(batch)
                a, b = w_ours.collect(batch), w_ref.collect(batch)
                with lock:
                    on_batch(batch, a, b)
        except BaseException as e:  # surfaced in the caller's thread
            errors.append(e)

    threads = [threading.Thread(target=job, args=pair, daemon=True) for pair in zip(ours, ref)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def python_of(path: str) -> str:
    """A Python executable: a venv directory is accepted for its bin/python."""
    p = Path(path)
    if p.is_dir():
        p = p / "bin" / "python"
    if not p.exists():
        sys.exit(f"no such Python: {path}")
    return str(p)
