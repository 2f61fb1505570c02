"""The dev-loop table: each contributor step next to its floor, measured side by side in one run.

    python bench/devloop.py            (or: invoke bench)
    python bench/devloop.py --only noop,edit-TH --repeat 5

Works on a throwaway copy of the working tree (build dir, package dir and, for the cold row,
an empty ccache of its own), so the developer's tree and cache are untouched. The floor of
an edit row is the raw compiler + linker commands of exactly that file and library, taken
from compile_commands.json and `ninja -t commands`, run without ccache or Ninja.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from nox import project as nox_project

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools import ccache  # noqa: E402
from tools.builder import copy_worktree, develop_pth_kept, tool  # noqa: E402
from tools.codegen.bindings import shard_of  # noqa: E402
from tools.suites import ALL as SUITES  # noqa: E402  (what `nox -s tests-cpu` runs)


class Tree:
    """A copy of the repository where the dev loop is exercised."""

    def __init__(self, path: Path, env: dict[str, str]):
        self.path, self.env = path, env
        self.build = path / "build" / "develop"

    def run(self, *cmd: str, env: dict | None = None, shell: bool = False) -> float:
        t0 = time.perf_counter()
        p = subprocess.run(
            cmd[0] if shell else cmd,
            cwd=self.path,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            shell=shell,
        )
        dt = time.perf_counter() - t0
        if p.returncode != 0:
            shown = cmd if shell else " ".join(cmd)
            raise SystemExit(f"bench: `{shown}` failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
        return dt

    def invoke(self, *args: str, env: dict | None = None) -> float:
        return self.run(tool("invoke"), *args, env=env)

    def edit(self, rel: str) -> None:
        """A real code change (a comment would be a ccache hit: it vanishes in preprocessing)."""
        n = time.time_ns()
        with open(self.path / rel, "a") as f:
            f.write(f"\n[[maybe_unused]] static const long bench_edit_{n} = {n}L;\n")

    def compile_floor(self, source: str) -> float:
        """Raw compile of `source` (its compile_commands.json entry, output to a scratch file)."""
        entries = json.loads((self.build / "compile_commands.json").read_text())
        entry = next(e for e in entries if e["file"].endswith(source))
        return self._run_redirected(entry["command"], entry["directory"], ".o")

    def link_floor(self, target: str) -> float:
        """Raw link of `target` (the last of `ninja -t commands`, output to a scratch file)."""
        cmds = (
            subprocess.run(
                [tool("ninja"), "-C", str(self.build), "-t", "commands", target],
                capture_output=True,
                text=True,
                check=True,
            )
            .stdout.strip()
            .splitlines()
        )
        link = cmds[-1].removeprefix(": && ").removesuffix(" && :")
        return self._run_redirected(link, str(self.build), ".so")

    def _run_redirected(self, command: str, cwd: str, suffix: str) -> float:
        args = shlex.split(command)
        with tempfile.TemporaryDirectory() as tmp:
            args[args.index("-o") + 1] = str(Path(tmp) / f"floor{suffix}")
            t0 = time.perf_counter()
            subprocess.run(args, cwd=cwd, check=True, capture_output=True)
            return time.perf_counter() - t0


def configure_alone(tree: Tree, build_dir: Path, env: dict | None = None) -> float:
    """Seconds of CMake's configure step alone, into a new build dir: the floor of a build from a warm cache."""
    return tree.run(
        "cmake", "-S", str(tree.path), "-B", str(build_dir), "-G", "Ninja", f"-DPython_EXECUTABLE={sys.executable}",
        "-DUSE_CUDA=auto", env=env,
    )  # fmt: skip


def remote_row(scratch: Path, env: dict[str, str]) -> tuple:
    """A team's compile cache (TORCH_CCACHE_REMOTE) on a Redis server (tools/cache_server.py): a teammate's build
    fills it; then a fresh clone with an empty local cache runs `invoke develop`, next to configure alone."""
    from tools.cache_server import redis_server

    with redis_server() as (url, _):
        clone = Tree(scratch / "clone", {**env, "PYTHONPATH": str(scratch / "clone"), "TORCH_CCACHE_REMOTE": url})
        copy_worktree(clone.path)
        clone.invoke("build", env={"CCACHE_RESHARE": "1"})  # the teammate: its objects go to the remote cache
        shutil.rmtree(clone.path / "build")
        local = scratch / "empty-local-cache"
        ours = clone.invoke("develop", env={"CCACHE_DIR": str(local)})
        c = ccache.counters(local)
        floor = configure_alone(clone, scratch / "configure-remote", env={"CCACHE_DIR": str(local)})
    hits, misses = c.get("remote_storage_hit", 0), c.get("cache_miss", 0)
    note = f"remote hits {hits}, misses {misses}, local hits {c.get('local_storage_hit', 0)} (Redis on this machine)"
    return (
        "fresh clone, empty local ccache, warm remote cache → `invoke develop`",
        ours,
        floor,
        "configure alone",
        note,
    )


def paired(ours, floor, repeat: int) -> tuple[float, float, float]:
    """Medians of `ours` and `floor`, and the median of their per-pair differences: the two run
    alternately, so each difference is taken a few seconds apart, before this VM's speed (which
    drifts up to 2x within minutes) moves; the difference of the two medians mixes moments."""
    a, b = [], []
    for _ in range(repeat):
        a.append(ours())
        b.append(floor())
    return statistics.median(a), statistics.median(b), statistics.median(x - y for x, y in zip(a, b))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--only",
        default="",
        help="comma-separated rows: cold,warm,remote,noop,edit-TH,edit-THC,edit-THNN,edit-THCUNN,op,python,nox",
    )
    ap.add_argument("--repeat", type=int, default=3, help="repetitions of the quick rows (median)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch tree")
    args = ap.parse_args()
    with develop_pth_kept():
        return measure(args)


def measure(args: argparse.Namespace) -> int:
    """Runs the selected rows on a scratch copy of the tree and prints the table."""
    only = set(filter(None, args.only.split(",")))
    want = lambda row: not only or row in only  # noqa: E731

    scratch = Path(tempfile.mkdtemp(prefix="torch-devloop-"))
    shared_cache = str(ccache.cache_dir())
    env = dict(os.environ, CCACHE_DIR=shared_cache, PYTHONPATH=str(scratch / "repo"))
    tree = Tree(scratch / "repo", env)
    copy_worktree(tree.path)
    rows: list[tuple] = []  # (step, ours, floor, floor is, note[, over floor: paired rows])
    cuda = shutil.which("nvcc") is not None
    print(f"bench: scratch tree {tree.path}; CUDA build: {cuda}; jobs: {os.cpu_count()} cores", flush=True)

    cold = None
    if want("cold"):
        empty = scratch / "cold-cache"
        cold = tree.invoke("build", env={"CCACHE_DIR": str(empty)})
        shutil.rmtree(tree.build)
        raw = tree.invoke("build", env={"CCACHE_DISABLE": "1"})
        shutil.rmtree(empty, ignore_errors=True)
        rows.append(("cold build (empty ccache)", cold, raw, "same build without ccache", ""))
    if want("warm") or not (tree.build / "build.ninja").exists():
        shutil.rmtree(tree.build, ignore_errors=True)
        tree.invoke("build")  # a real build through ccache: this tree's objects are in the cache now
        shutil.rmtree(tree.build)
        before = ccache.hits_misses()
        warm = tree.invoke("build")
        hits, misses = (a - b for a, b in zip(ccache.hits_misses(), before))
        rate = 100 * hits / max(1, hits + misses)
        configure = configure_alone(tree, scratch / "configure-only")
        note = f"hits {rate:.0f}% ({hits}/{hits + misses})" + (f", {100 * warm / cold:.0f}% of cold" if cold else "")
        if want("warm"):
            rows.append(("clean rebuild (build dir deleted), warm ccache", warm, configure, "configure alone", note))
    if want("remote"):
        rows.append(remote_row(scratch, env))
    if want("noop"):
        tree.invoke("develop")
        ours, floor, over = paired(
            lambda: tree.invoke("develop"),
            lambda: tree.invoke("--version") + tree.run(tool("ninja"), "-C", str(tree.build)),
            args.repeat,
        )
        rows.append(("no-op `invoke develop`", ours, floor, "invoke start + ninja no-op", "", over))
    for lib, src in (
        ("TH", "aten/src/TH/ops/Fill.cpp"),
        ("THC", "aten/src/THC/ReduceSumProdKernels.cu"),
        ("THNN", "aten/src/THNN/cpu/SoftmaxKernels.cpp"),
        ("THCUNN", "aten/src/THCUNN/SoftmaxKernels.cu"),
    ):
        if not want(f"edit-{lib}") or (lib in ("THC", "THCUNN") and not cuda):
            continue

        def edit_rebuild(lib=lib, src=src):
            tree.edit(src)
            return tree.invoke("rebuild-lib", "--name", lib)

        ours, floor, over = paired(
            edit_rebuild, lambda src=src, lib=lib: tree.compile_floor(src) + tree.link_floor(lib), args.repeat
        )
        rows.append(
            (f"edit {Path(src).name} -> `rebuild-lib --name {lib}`", ours, floor, "that file's compile + lib link", "")
            + (over,)
        )
    if want("op"):
        yaml = tree.path / "aten/native_functions.yaml"
        original = yaml.read_text()

        def add_op():  # a new op, with a fresh default each time so every run is a real (uncached) compile
            yaml.write_text(
                original + f"\n- func: plus(Tensor self, Tensor other, *, Scalar alpha={time.time_ns()}) "
                "-> Tensor\n  dispatch:\n    CPU, CUDA: th::add\n"
            )
            return tree.invoke("gen-bindings", "relink")

        shards = len(list((tree.build / "generated" / "bindings").glob("shard_*.cpp")))
        shard = f"shard_{shard_of('plus', shards)}.cpp"
        ours, floor, over = paired(add_op, lambda: tree.compile_floor(shard) + tree.link_floor("_C"), args.repeat)
        rows.append(("one-op YAML edit -> `gen-bindings relink`", ours, floor, "one shard compile + _C link", "", over))
        yaml.write_text(original)
        tree.invoke("build")
    if want("python"):

        def py_edit():
            with open(tree.path / "torch/_tensor.py", "a") as f:
                f.write(f"\n# bench edit {time.time_ns()}\n")
            return tree.invoke("develop") + tree.run(sys.executable, "-c", "import torch")

        ours, floor, over = paired(
            py_edit,
            lambda: (
                tree.invoke("--version")
                + tree.run(tool("ninja"), "-C", str(tree.build))
                + tree.run(sys.executable, "-c", "import torch")
            ),
            args.repeat,
        )
        rows.append(
            (
                "Python-only edit -> `invoke develop` + import",
                ours,
                floor,
                "invoke start + ninja no-op + import",
                "no build step runs",
                over,
            )
        )

    if want("nox"):
        nox = [sys.executable, "-m", "nox", "-f", str(tree.path / "noxfile.py")]
        # fresh session venv (packages come from uv's cache): nox's install step alone vs raw uv
        t0 = time.perf_counter()
        tree.run(*nox, "-s", "tests-cpu", "--install-only")
        fresh = time.perf_counter() - t0
        groups = nox_project.dependency_groups(nox_project.load_toml(tree.path / "pyproject.toml"), "build", "test")
        raw_env = scratch / "raw-venv"
        t0 = time.perf_counter()
        tree.run("uv", "venv", "-q", str(raw_env))
        tree.run("uv", "pip", "install", "-q", "-p", str(raw_env), *groups)
        raw = time.perf_counter() - t0
        rows.append(
            ("fresh `nox -s tests-cpu` venv, env ready", fresh, raw, "uv venv + uv pip install", "before the build")
        )
        # nox -R: everything but pytest is overhead
        venv_bin = tree.path / ".nox" / "tests-cpu" / "bin"
        site = tree.path / "build" / "nox-tests-cpu" / "python"
        pytest_env = {"PYTHONPATH": str(site), "PYTHONSAFEPATH": "1", "TORCH_EXPECT_ROOT": str(site / "torch")}
        tree.run(*nox, "-R", "-s", "tests-cpu")  # the first run builds
        ours, floor, over = paired(
            lambda: tree.run(*nox, "-R", "-s", "tests-cpu"),
            lambda: tree.run(str(venv_bin / "pytest"), "-n", "auto", *SUITES, env=pytest_env),
            args.repeat,
        )
        rows.append(("`nox -R -s tests-cpu` (no change)", ours, floor, "pytest's own run", "nox + no-op build", over))

    print("\n| step | ours (s) | floor (s) | over floor (s) | floor is | note |")
    print("|---|---:|---:|---:|---|---|")
    for step, ours, floor, what, note, *paired_over in rows:  # paired rows: the median of the differences
        over = paired_over[0] if paired_over else ours - floor
        print(f"| {step} | {ours:.2f} | {floor:.2f} | {over:+.2f} | {what} | {note} |")
    if not args.keep:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
