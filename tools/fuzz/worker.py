"""The process that runs calls against one library: `python worker.py OUT_FD TIMEOUT MEM_GB THREADS ERRFILE`.

Standalone (stdlib, NumPy and the torch under test only): the runner starts it by path with
PYTHONSAFEPATH=1 in an empty directory, so nothing of the repository is importable in it.

It imports torch once, then serves batches read from stdin. Each batch runs in a forked child (no
re-import), which writes one outcome per call back; the worker forwards them on OUT_FD. When the child
dies (a signal) or a call overruns TIMEOUT seconds (killed), the call in flight is reported as a crash or
hang (if it also overruns 3 x TIMEOUT on its own), with the child's stderr tail, and a new child takes the
rest of the batch. A crash is also re-run
alone (and, if it does not reproduce alone, after each of the calls before it) to tell a call that
crashes from one that crashes because an earlier call corrupted memory.

Frames: 4-byte little-endian length + pickle. stdin: ("run", [(cid, src, compare_values), ...]).
OUT_FD: ("ready", info), ("out", cid, outcome) per call, ("done",) per batch. Outcomes:
("ok", value), ("exc", class name, message, base class names), ("crash", signal, stderr tail, isolation),
("hang", seconds, stderr tail). Values: ("T", dtype, shape, strides, ndarray or None, sampled),
("py", type, value), ("seq", "tuple"|"list", fields or None, [values]), ("obj", type, repr).
The worker exits 3 when the torch it imported changed on disk (a rebuild): the runner restarts it.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
import time

HEADER = struct.Struct("<I")
EOF = object()
TIMEOUT = object()
MAX_ELEMENTS = 1 << 16  # larger results are compared on an evenly spaced sample
SAMPLE = 4096


def send(fd: int, obj: object) -> None:
    """Writes one frame."""
    data = pickle.dumps(obj, protocol=4)
    view = memoryview(HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


class Reader:
    """Reads frames from a file descriptor, with an optional timeout per frame."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buf = bytearray()

    def read(self, timeout: float | None = None) -> object:
        """The next frame's object, EOF when the writer is gone, or TIMEOUT."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if len(self.buf) >= HEADER.size:
                (n,) = HEADER.unpack_from(self.buf)
                if len(self.buf) >= HEADER.size + n:
                    obj = pickle.loads(bytes(self.buf[HEADER.size : HEADER.size + n]))
                    del self.buf[: HEADER.size + n]
                    return obj
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                    return TIMEOUT
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                return EOF
            self.buf += chunk


def _stamp(torch) -> tuple:
    """The shared libraries of the imported torch, with their mtimes and sizes (a rebuild changes it)."""
    root = os.path.dirname(torch.__file__)
    out = []
    for d in (root, os.path.join(root, "lib")):
        try:
            names = sorted(os.listdir(d))
        except OSError:
            continue
        for name in names:
            if ".so" in name:
                try:
                    st = os.stat(os.path.join(d, name))
                except OSError:
                    continue
                out.append((name, st.st_mtime_ns, st.st_size))
    return tuple(out)


def encode(value: object, torch, values: bool = True, depth: int = 0) -> tuple:
    """A call's result as plain data (NumPy arrays for tensor values; bfloat16 widened to float32)."""
    if isinstance(value, torch.Tensor):
        t = value.detach()
        try:
            strides = tuple(t.stride())
        except Exception:
            strides = None
        arr, sampled = None, False
        if values:
            if t.numel() > MAX_ELEMENTS:
                step = -(-t.numel() // SAMPLE)
                t, sampled = t.contiguous().view(-1)[::step], True
            if t.dtype == torch.bfloat16:
                t = t.to(torch.float32)
            if getattr(t, "_is_zerotensor", lambda: False)():  # upstream's ZeroTensor (a gradient) has no data
                t = torch.zeros(t.shape, dtype=t.dtype)
            arr = t.resolve_conj().resolve_neg().cpu().numpy()  # upstream's lazy conj/neg views (fft, conj)
        return ("T", str(value.dtype), tuple(value.shape), strides, arr, sampled)
    if isinstance(value, bool) or value is None:
        return ("py", type(value).__name__, value)
    for kind in (int, float, complex):  # plain Python numbers only (a subclass may not unpickle elsewhere)
        if isinstance(value, kind):
            return ("py", kind.__name__, kind(value))
    if isinstance(value, str):
        return ("py", "str", value[:200])
    if isinstance(value, torch.Size):
        return ("py", "Size", tuple(value))
    if isinstance(value, torch.dtype):
        return ("py", "dtype", str(value))
    if isinstance(value, (tuple, list)) and depth < 3:
        # namedtuple fields, or a structseq's (upstream's torch.return_types)
        fields = tuple(getattr(value, "__match_args__", ()) or getattr(value, "_fields", ())) or None
        kind = "tuple" if isinstance(value, tuple) else "list"
        return ("seq", kind, fields, [encode(v, torch, values, depth + 1) for v in value])
    return ("obj", type(value).__name__, repr(value)[:200])


def _bases(exc: BaseException) -> tuple[str, ...]:
    return tuple(c.__name__ for c in type(exc).__mro__[1:] if c not in (BaseException, Exception, object))


def execute(src: str, values: bool, torch) -> tuple:
    """Runs one call's source (the last expression statement is the result) and returns its outcome."""
    import ast
    import builtins

    try:
        tree = ast.parse(src, "<call>", "exec")
    except SyntaxError as e:
        return ("exc", "SyntaxError", str(e)[:400], ("generator",))
    ns = {"torch": torch, "__builtins__": builtins}
    try:
        body = tree.body
        if body and isinstance(body[-1], ast.Expr):
            if len(body) > 1:
                exec(compile(ast.Module(body[:-1], []), "<call>", "exec"), ns)
            value = eval(compile(ast.Expression(body[-1].value), "<call>", "eval"), ns)
        else:
            exec(compile(tree, "<call>", "exec"), ns)
            value = None
    except BaseException as e:
        return ("exc", type(e).__name__, str(e)[:400], _bases(e))
    try:
        return ("ok", encode(value, torch, values))
    except BaseException as e:
        return ("exc", type(e).__name__, f"(reading the result) {str(e)[:400]}", _bases(e))


class Zygote:
    """The worker: torch imported once, every batch run in a forked child."""

    def __init__(self, out_fd: int, timeout: float, mem_gb: float, threads: int, err_path: str):
        self.out_fd, self.timeout, self.mem_gb, self.threads, self.err_path = out_fd, timeout, mem_gb, threads, err_path
        import warnings

        warnings.simplefilter("ignore")
        import numpy  # noqa: F401  (imported before the fork, once)

        import torch

        self.torch = torch
        self.stamp = _stamp(torch)

    def info(self) -> dict:
        """What was imported: the runner checks it is the torch it meant."""
        t = self.torch
        return {
            "version": str(t.__version__),
            "file": str(t.__file__),
            "ours": hasattr(t.version, "build_config"),
            "pid": os.getpid(),
            "python": sys.version.split()[0],
        }

    def _limits(self) -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if self.mem_gb > 0:
            with open("/proc/self/statm") as f:
                vm = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            cap = vm + int(self.mem_gb * (1 << 30))
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        if self.threads > 0:
            self.torch.set_num_threads(self.threads)

    def child(self, calls: list, forward: bool, timeout: float = 0.0, sink: list | None = None) -> tuple:
        """Runs `calls` in a forked child (outcomes forwarded, or appended to `sink`). Returns (calls
        completed, None | 'crash' | 'hang', detail)."""
        timeout = timeout or self.timeout
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: report each outcome as it comes, then leave without cleanup
            try:
                os.close(r)
                os.close(self.out_fd)
                fd = os.open(self.err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                self._limits()
                for cid, src, values in calls:
                    send(w, (cid, execute(src, values, self.torch)))
            finally:
                os._exit(0)
        os.close(w)
        reader, done, kind, detail = Reader(r), 0, None, ""
        while done < len(calls):
            obj = reader.read(timeout)
            if obj is TIMEOUT:
                os.kill(pid, signal.SIGKILL)
                kind, detail = "hang", f"over {timeout:g}s"
                break
            if obj is EOF:
                kind = "crash"
                break
            if forward:
                send(self.out_fd, ("out", *obj))
            if sink is not None:
                sink.append(obj)
            done += 1
        _, status = os.waitpid(pid, 0)
        os.close(r)
        if kind == "crash":
            if os.WIFSIGNALED(status):
                sig = os.WTERMSIG(status)
                try:
                    detail = signal.Signals(sig).name
                except ValueError:
                    detail = f"signal {sig}"
            else:
                detail = f"exit {os.WEXITSTATUS(status)}"
        return done, kind, detail

    def _stderr_tail(self) -> str:
        try:
            with open(self.err_path, "rb") as f:
                f.seek(0, 2)
                f.seek(max(f.tell() - 1500, 0))
                return f.read().decode("utf-8", "replace").strip()[-1000:]
        except OSError:
            return ""

    def _isolate(self, before: list, call: tuple, detail: str) -> str:
        """Does the crash reproduce alone? If not, after which earlier call of the batch?"""
        done, kind, d = self.child([call], forward=False)
        if kind == "crash" and d == detail:
            return "alone"
        for prev in reversed(before[-24:]):
            done, kind, d = self.child([prev, call], forward=False)
            if kind == "crash" and done == 1:
                return f"after {prev[0]}"
        return "not alone" if before else "alone?"

    def run(self, calls: list) -> None:
        """Runs a batch, forwarding every outcome (a crash or hang as that call's outcome)."""
        pending = list(calls)
        while pending:
            if _stamp(self.torch) != self.stamp:
                sys.exit(3)
            done, kind, detail = self.child(pending, forward=True)
            if kind is None:
                break
            cid = pending[done][0]
            tail = self._stderr_tail()
            if kind == "crash":
                if _stamp(self.torch) != self.stamp:
                    sys.exit(3)
                where = self._isolate(pending[:done], pending[done], detail)
                outcome = ("crash", detail, tail, where)
            else:  # a slow call on a busy machine is not a hang: it gets a longer go on its own
                sink: list = []
                self.child([pending[done]], forward=False, timeout=3 * self.timeout, sink=sink)
                outcome = sink[0][1] if sink else ("hang", self.timeout, tail)
            send(self.out_fd, ("out", cid, outcome))
            pending = pending[done + 1 :]
        send(self.out_fd, ("done",))


def main(argv: list[str]) -> int:
    """Serves batches from stdin until it closes."""
    out_fd, timeout, mem_gb, threads, err_path = int(argv[1]), float(argv[2]), float(argv[3]), int(argv[4]), argv[5]
    zygote = Zygote(out_fd, timeout, mem_gb, threads, err_path)
    send(out_fd, ("ready", zygote.info()))
    reader = Reader(0)
    while True:
        msg = reader.read()
        if msg is EOF:
            return 0
        if msg[0] == "run":
            zygote.run(msg[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
