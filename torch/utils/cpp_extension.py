"""C++ and CUDA extensions built against this torch, as PyTorch's `torch.utils.cpp_extension`.

- Just in time: `load(name, sources)` and `load_inline(name, cpp_sources, functions=...)` write a build.ninja
  into the build directory (written only when it changes), compile with Ninja through ccache (where ccache is
  installed), and import the module. A second call with the same sources and flags compiles nothing; changed
  sources build a new version of the module (`name_v1`, ...), which the same process can import.
- Ahead of time: `CppExtension`, `CUDAExtension` and `BuildExtension` for setuptools.

An extension includes `<torch/extension.h>`: nanobind, the TH tensor `torch::Tensor` (= `th::Tensor`) and its ops
(`TH/Functions.h`), with conversions to and from `torch.Tensor` through torch._C's C API capsule, so it may use
another nanobind version than torch._C. It binds its functions with `NB_MODULE(TORCH_EXTENSION_NAME, m)`
(upstream uses pybind11's PYBIND11_MODULE; this torch's bindings are nanobind). Building needs a C++ compiler,
`nanobind` and `ninja` (`pip install nanobind ninja`); `.cu` sources need nvcc and a CUDA build of torch.
"""

from __future__ import annotations

import contextlib
import copy
import fcntl
import hashlib
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import torch

__all__ = [
    "BuildExtension",  # noqa: F822 (made on first use: see __getattr__)
    "CUDA_HOME",
    "CppExtension",
    "CUDAExtension",
    "get_default_build_root",
    "include_paths",
    "library_paths",
    "load",
    "load_inline",
]

_PACKAGE = Path(__file__).resolve().parents[1]  # the torch package this module is part of
_CXX_STD = "-std=c++17"
_CUDA_SUFFIXES = (".cu", ".cuh")


def _build_config() -> dict:
    return torch._C._build_config()


def _which(program: str) -> str | None:
    """`program` from this interpreter's environment first (a venv's ninja and ccache), then PATH."""
    here = Path(sys.executable).parent / program
    return str(here) if here.exists() else shutil.which(program)


def _find_cuda_home() -> str | None:
    """The CUDA toolkit: CUDA_HOME / CUDA_PATH, the folder of the nvcc this torch was built with, nvcc on PATH,
    /usr/local/cuda."""
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            return os.environ[var]
    nvcc = _build_config().get("cuda_compiler") or shutil.which("nvcc")
    if nvcc and Path(nvcc).exists():
        return str(Path(nvcc).resolve().parent.parent)
    return "/usr/local/cuda" if Path("/usr/local/cuda/bin/nvcc").exists() else None


CUDA_HOME = _find_cuda_home()


def _nanobind():
    try:
        import nanobind
    except ImportError:
        raise RuntimeError(
            "C++ extensions of this torch are built with nanobind, which is not installed: pip install nanobind"
        ) from None
    return nanobind


def include_paths(device_type: str = "cpu") -> list[str]:
    """The include directories of an extension: torch's headers (`torch/extension.h`, `TH/...`; the source tree's
    in develop mode, torch/include in a wheel), nanobind's, and with device_type='cuda' the CUDA toolkit's."""
    nanobind = _nanobind()
    root = _build_config().get("include_dir") or str(_PACKAGE / "include")
    if not Path(root, "torch", "extension.h").exists():
        raise RuntimeError(f"torch's C++ headers are not at {root}: this torch is incomplete; reinstall it")
    nb_root = Path(nanobind.include_dir()).parent
    paths = [root, nanobind.include_dir(), str(nb_root / "ext" / "robin_map" / "include")]
    if device_type == "cuda":
        paths.append(str(Path(_require_cuda_home()) / "include"))
    return paths


def library_paths(device_type: str = "cpu") -> list[str]:
    """Where an extension's libraries are: torch/lib (libTH, libTHNN; libTHC, libTHCUNN in a CUDA build), and
    with device_type='cuda' the CUDA toolkit's lib64."""
    paths = [str(_PACKAGE / "lib")]
    if device_type == "cuda":
        paths.append(str(Path(_require_cuda_home()) / "lib64"))
    return paths


def _libraries(cuda: bool) -> list[str]:
    return ["TH", "THNN", *(("THC", "THCUNN", "cudart") if cuda else ())]


def _require_cuda_home() -> str:
    if CUDA_HOME is None:
        raise RuntimeError("CUDA_HOME is not set and no nvcc was found: .cu sources need the CUDA toolkit")
    return CUDA_HOME


def _check_cuda_build() -> None:
    if not _build_config().get("use_cuda"):
        raise RuntimeError(
            "this torch was built without CUDA (USE_CUDA=0 or no nvcc at its build): it cannot load CUDA "
            "extensions; rebuild it with USE_CUDA=1"
        )


def _cxx() -> str:
    """The C++ compiler: $CXX, else the one this torch was built with, else c++ on PATH."""
    for cand in (os.environ.get("CXX"), _build_config().get("cxx_compiler"), shutil.which("c++")):
        if cand and (Path(cand).exists() or shutil.which(cand)):
            return cand
    raise RuntimeError("no C++ compiler found: install g++ (or set CXX)")


def _nvcc() -> str:
    for cand in (os.environ.get("CUDACXX"), str(Path(_require_cuda_home()) / "bin" / "nvcc")):
        if cand and Path(cand).exists():
            return cand
    raise RuntimeError(f"nvcc not found (CUDACXX, {CUDA_HOME}/bin): .cu sources need it")


def get_default_build_root() -> str:
    """Where JIT-built extensions go: $TORCH_EXTENSIONS_DIR, else ~/.cache/torch_extensions/py<ver>_<cpu|cu>."""
    if os.environ.get("TORCH_EXTENSIONS_DIR"):
        return os.environ["TORCH_EXTENSIONS_DIR"]
    flavor = "cu" if _build_config().get("use_cuda") else "cpu"
    return str(Path.home() / ".cache" / "torch_extensions" / f"py{sys.version_info[0]}{sys.version_info[1]}_{flavor}")


def _common_cflags() -> list[str]:
    return [_CXX_STD, "-fPIC", "-fvisibility=hidden", "-O2", f"-I{sysconfig.get_paths()['include']}"]


def _ldflags(cuda: bool) -> list[str]:
    flags = ["-shared"]
    for d in library_paths("cuda" if cuda else "cpu"):
        flags += [f"-L{d}", f"-Wl,-rpath,{d}"]
    return flags + [f"-l{lib}" for lib in _libraries(cuda)]


@contextlib.contextmanager
def _locked(build_dir: Path):
    """One build of a build directory at a time (processes and pytest-xdist workers take turns)."""
    build_dir.mkdir(parents=True, exist_ok=True)
    with open(build_dir / "lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _version(build_dir: Path, name: str, key: str) -> int:
    """The version of the module built from `key` (a hash of its sources and flags): the same key keeps its
    version across processes; a new key gets the next one, so a changed extension loads as a new module."""
    path = build_dir / "versions.json"
    try:
        versions = json.loads(path.read_text())
    except (OSError, ValueError):
        versions = {}
    if key not in versions:
        versions[key] = max(versions.values(), default=-1) + 1
        path.write_text(json.dumps(versions, indent=1))
    return versions[key]


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _ninja_file(module: str, sources: list[Path], cflags: list[str], cuda_cflags: list[str], ldflags: list[str],
                cuda: bool) -> str:  # fmt: skip
    """The build.ninja of one extension: each source and nanobind's library compiled (through ccache where it
    is installed), then linked into `<module><EXT_SUFFIX>`."""
    ccache = _ccache_prefix()
    q = lambda args: " ".join(shlex.quote(a) for a in args)  # noqa: E731
    lines = [
        "ninja_required_version = 1.3",
        f"cxx = {q([*ccache, _cxx()])}",
        f"cflags = {q(cflags)}",
        f"ldflags = {q(ldflags)}",
        "rule compile",
        "  command = $cxx -MMD -MF $out.d $cflags -c $in -o $out",
        "  depfile = $out.d",
        "  deps = gcc",
        "  description = compile $in",
        "rule link",
        "  command = $cxx $in $ldflags -o $out",
        "  description = link $out",
    ]
    if cuda:
        lines += [
            f"nvcc = {q([*ccache, _nvcc()])}",
            f"cuda_cflags = {q(cuda_cflags)}",
            "rule cuda_compile",
            "  command = $nvcc -MD -MF $out.d $cuda_cflags -c $in -o $out",
            "  depfile = $out.d",
            "  deps = gcc",
            "  description = nvcc $in",
        ]
    objects = []
    for src in sources:
        obj = f"{src.stem}{'.cuda' if src.suffix == '.cu' else ''}.o"
        rule = "cuda_compile" if src.suffix == ".cu" else "compile"
        lines.append(f"build {obj}: {rule} {_ninja_path(src)}")
        objects.append(obj)
    nb_src = Path(_nanobind().source_dir()) / "nb_combined.cpp"
    lines.append(f"build nanobind.o: compile {_ninja_path(nb_src)}")
    lines.append(f"  cflags = {q([f for f in cflags if not f.startswith('-DTORCH_EXTENSION_NAME')])}")
    target = module + sysconfig.get_config_var("EXT_SUFFIX")
    lines += [f"build {target}: link {' '.join(objects)} nanobind.o", f"default {target}", ""]
    return "\n".join(lines)


def _ninja_path(p: Path) -> str:
    return str(p).replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


def _ccache_prefix() -> list[str]:
    if os.environ.get("TORCH_EXTENSIONS_NO_CCACHE"):
        return []
    ccache = _which("ccache")
    return [ccache] if ccache else []


def _run_ninja(build_dir: Path, name: str, verbose: bool) -> bool:
    """Builds; returns whether anything was done. A failure raises RuntimeError with the compiler's output."""
    ninja = _which("ninja")
    if not ninja:
        raise RuntimeError("Ninja is required to build C++ extensions: pip install ninja")
    p = subprocess.run([ninja, "-C", str(build_dir)], capture_output=True, text=True)
    if verbose:
        print(p.stdout, p.stderr, sep="", end="", flush=True)
    if p.returncode != 0:
        raise RuntimeError(f"Error building extension '{name}':\n{p.stdout}{p.stderr}")
    return "no work to do" not in p.stdout


def load(
    name: str,
    sources: str | list[str],
    extra_cflags: list[str] | None = None,
    extra_cuda_cflags: list[str] | None = None,
    extra_ldflags: list[str] | None = None,
    extra_include_paths: list[str] | None = None,
    build_directory: str | None = None,
    verbose: bool = False,
    with_cuda: bool | None = None,
    is_python_module: bool = True,
    keep_intermediates: bool = True,
):
    """Builds the C++ (and `.cu`) `sources` into the Python module `name` with Ninja and ccache, imports it and
    returns it. The build goes into `build_directory` (default: get_default_build_root()/name). `with_cuda`
    (default: whether any source is a .cu file) adds the CUDA toolkit's headers and libraries. A second call
    with unchanged sources and flags compiles nothing; a compile error raises RuntimeError with its output."""
    if not is_python_module:
        raise NotImplementedError("load(is_python_module=False): only Python modules are supported here")
    del keep_intermediates  # object files always stay: the next build reuses them
    sources = [Path(s).resolve() for s in ([sources] if isinstance(sources, (str, os.PathLike)) else sources)]
    for src in sources:
        if not src.exists():
            raise FileNotFoundError(f"load('{name}'): source file {src} does not exist")
    if not name.isidentifier():
        raise ValueError(f"load: the extension name must be a Python identifier, not {name!r}")
    cuda = any(s.suffix == ".cu" for s in sources) if with_cuda is None else with_cuda
    if cuda:
        _check_cuda_build()
    build_dir = Path(build_directory or Path(get_default_build_root()) / name).resolve()
    includes = [f"-I{p}" for p in [*(extra_include_paths or []), *include_paths("cuda" if cuda else "cpu")]]
    with _locked(build_dir):
        digest = hashlib.sha256()
        for src in sources:
            digest.update(str(src).encode() + b"\0" + src.read_bytes() + b"\0")
        digest.update(json.dumps([extra_cflags, extra_cuda_cflags, extra_ldflags, includes, cuda]).encode())
        version = _version(build_dir, name, digest.hexdigest())
        module = name if version == 0 else f"{name}_v{version}"
        define = f"-DTORCH_EXTENSION_NAME={module}"
        cflags = [*_common_cflags(), *includes, define, *(extra_cflags or [])]
        cuda_cflags = [_CXX_STD, "-O2", "-Xcompiler", "-fPIC", "-Xcompiler", "-fvisibility=hidden",
                       "--expt-relaxed-constexpr", f"-I{sysconfig.get_paths()['include']}", *includes, define,
                       *(extra_cuda_cflags or [])]  # fmt: skip
        ldflags = [*_ldflags(cuda), *(extra_ldflags or [])]
        _write_if_changed(build_dir / "build.ninja", _ninja_file(module, sources, cflags, cuda_cflags, ldflags, cuda))
        if verbose:
            print(f"Building extension module {module} in {build_dir}", flush=True)
        _run_ninja(build_dir, name, verbose)
        return _import(module, build_dir / (module + sysconfig.get_config_var("EXT_SUFFIX")))


def _import(module: str, path: Path):
    if module in sys.modules and getattr(sys.modules[module], "__file__", None) == str(path):
        return sys.modules[module]
    spec = importlib.util.spec_from_file_location(module, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sys.modules[module] = mod
    return mod


def load_inline(
    name: str,
    cpp_sources: str | list[str],
    cuda_sources: str | list[str] | None = None,
    functions: str | list[str] | dict[str, str] | None = None,
    build_directory: str | None = None,
    **kwargs,
):
    """Builds a module from source strings, as `load` (whose other arguments it takes): `cpp_sources` go into
    main.cpp after `#include <torch/extension.h>`, `cuda_sources` into cuda.cu. `functions` (names, or name ->
    docstring) are bound in a generated `NB_MODULE(TORCH_EXTENSION_NAME, m)`; without them, the sources define
    it."""
    cpp = [cpp_sources] if isinstance(cpp_sources, str) else list(cpp_sources)
    cu = [cuda_sources] if isinstance(cuda_sources, str) else list(cuda_sources or [])
    build_dir = Path(build_directory or Path(get_default_build_root()) / name)
    build_dir.mkdir(parents=True, exist_ok=True)
    if isinstance(functions, str):
        functions = [functions]
    if functions is not None:
        docs = functions.items() if isinstance(functions, dict) else ((f, f) for f in functions)
        defs = "".join(f'  m.def("{f}", &{f}, {json.dumps(doc)});\n' for f, doc in docs)
        cpp.append(f"NB_MODULE(TORCH_EXTENSION_NAME, m) {{\n{defs}}}\n")
    sources = [build_dir / "main.cpp"]
    _write_if_changed(sources[0], "#include <torch/extension.h>\n\n" + "\n".join(cpp))
    if cu:
        sources.append(build_dir / "cuda.cu")
        _write_if_changed(sources[1], "#include <torch/extension.h>\n\n" + "\n".join(cu))
    return load(name, [str(s) for s in sources], build_directory=str(build_dir), **kwargs)


# ---------------------------------------------------------------------------------------------- setuptools


def CppExtension(name: str, sources: list[str], *args, **kwargs):
    """A setuptools Extension for C++ sources against this torch (headers, libraries and rpath set; nanobind's
    library compiled in). Build it with `cmdclass={"build_ext": BuildExtension}`."""
    from setuptools import Extension

    kwargs["include_dirs"] = [*kwargs.get("include_dirs", []), *include_paths()]
    kwargs["library_dirs"] = [*kwargs.get("library_dirs", []), *library_paths()]
    kwargs["libraries"] = [*kwargs.get("libraries", []), *_libraries(False)]
    kwargs["runtime_library_dirs"] = [*kwargs.get("runtime_library_dirs", []), *library_paths()]
    kwargs["language"] = "c++"
    nb_src = str(Path(_nanobind().source_dir()) / "nb_combined.cpp")
    return Extension(name, [*sources, nb_src], *args, **kwargs)


def CUDAExtension(name: str, sources: list[str], *args, **kwargs):
    """CppExtension with the CUDA toolkit's headers and libraries (and THC/THCUNN); `.cu` sources are compiled
    by nvcc under BuildExtension."""
    _check_cuda_build()
    kwargs["include_dirs"] = [*kwargs.get("include_dirs", []), *include_paths("cuda")[len(include_paths()) :]]
    kwargs["library_dirs"] = [*kwargs.get("library_dirs", []), *library_paths("cuda")[1:]]
    kwargs["runtime_library_dirs"] = [*kwargs.get("runtime_library_dirs", []), *library_paths("cuda")[1:]]
    kwargs["libraries"] = [*kwargs.get("libraries", []), "THC", "THCUNN", "cudart"]
    return CppExtension(name, sources, *args, **kwargs)


def _build_ext_base():
    from setuptools.command.build_ext import build_ext

    return build_ext


def __getattr__(attr: str):
    """BuildExtension is made on first use, so that importing this module does not import setuptools."""
    if attr == "BuildExtension":
        cls = _make_build_extension()
        globals()["BuildExtension"] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def _make_build_extension():
    build_ext = _build_ext_base()

    class BuildExtension(build_ext):
        """setuptools' build_ext for CppExtension/CUDAExtension: C++17, TORCH_EXTENSION_NAME defined as each
        extension's module name, every compile through ccache where it is installed, `.cu` sources by nvcc.
        `extra_compile_args` may be a list or a dict {'cxx': [...], 'nvcc': [...]} as upstream."""

        @classmethod
        def with_options(cls, **options):
            """The class with default options (upstream's API; `use_ninja` is accepted and ignored)."""
            return cls

        def __init__(self, *args, **kwargs):
            kwargs.pop("use_ninja", None)
            kwargs.pop("no_python_abi_suffix", None)
            super().__init__(*args, **kwargs)

        def build_extensions(self):
            ccache = _ccache_prefix()
            for attr in ("compiler_so", "compiler_cxx", "linker_so"):
                cmd = getattr(self.compiler, attr, None)
                if cmd and attr == "compiler_so" and ccache and cmd[0] != ccache[0]:
                    setattr(self.compiler, attr, [*ccache, *cmd])
            self.compiler.src_extensions = [*self.compiler.src_extensions, ".cu"]
            original = self.compiler._compile

            def compile_one(obj, src, ext, cc_args, extra_postargs, pp_opts):
                extra = copy.deepcopy(extra_postargs)
                if isinstance(extra, dict):
                    extra = extra.get("nvcc" if src.endswith(".cu") else "cxx", [])
                if src.endswith(".cu"):
                    cmd = [*ccache, _nvcc(), "-c", src, "-o", obj, _CXX_STD, "-Xcompiler", "-fPIC",
                           "--expt-relaxed-constexpr", *pp_opts, *extra]  # fmt: skip
                    self.compiler.spawn(cmd)
                    return
                original(obj, src, ext, cc_args, [*extra, _CXX_STD, "-fvisibility=hidden"], pp_opts)

            self.compiler._compile = compile_one
            for ext in self.extensions:
                define = ("TORCH_EXTENSION_NAME", ext.name.split(".")[-1])
                if define not in ext.define_macros:
                    ext.define_macros.append(define)
            super().build_extensions()

    BuildExtension.__module__ = __name__
    return BuildExtension
