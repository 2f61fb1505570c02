"""torch.utils.cpp_extension: a user's C++ (and CUDA) ops, JIT-built with Ninja and ccache (`load`,
`load_inline`) or by setuptools (`CppExtension`, `BuildExtension`), against this torch's headers and libraries.
Values against NumPy, the user op's gradient through torch.autograd.Function against finite differences
(float64 gradcheck), TH's errors as PyTorch's exceptions, and the build loop: a second load compiles nothing,
an edit loads as a new module in the same process, a compile error says what the compiler said.

These test this torch's extension API (nanobind bindings, TH's C++ API), not upstream's (pybind11, ATen):
they are not part of the PyTorch-compatible suites."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import torch
from torch.utils import cpp_extension

HERE = Path(__file__).resolve().parent
SCALED_ADD = """
torch::Tensor scaled_add(const torch::Tensor& a, const torch::Tensor& b, double alpha) {
  return th::add(a, b, alpha);
}
"""

pytestmark = pytest.mark.skipif(
    shutil.which("c++") is None and not os.environ.get("CXX"), reason="no C++ compiler to build extensions with"
)


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("torch_extensions")


@pytest.fixture(scope="module")
def scaled_add(root):
    return cpp_extension.load_inline(
        "scaled_add_ext", SCALED_ADD, functions={"scaled_add": "a + alpha * b"}, build_directory=str(root / "sa")
    )


@pytest.fixture(scope="module")
def swish(root):
    return cpp_extension.load("swish_ext", [str(HERE / "swish.cpp")], build_directory=str(root / "swish"))


def test_load_inline_binds_functions_that_take_and_return_tensors(scaled_add):
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(4, 3)), rng.normal(size=3)
    for dtype in (torch.float32, torch.float64):
        ta = torch.tensor(a.T, dtype=dtype).t()  # not contiguous
        tb = torch.tensor(b, dtype=dtype)  # broadcast
        out = scaled_add.scaled_add(ta, tb, 2.5)
        assert isinstance(out, torch.Tensor) and out.dtype == dtype and out.shape == (4, 3)
        np.testing.assert_allclose(out.numpy(), a + 2.5 * b, rtol=1e-6)
    assert scaled_add.scaled_add.__doc__.strip().endswith("a + alpha * b")
    p = torch.nn.Parameter(torch.ones(2))  # a Tensor subclass converts too
    assert scaled_add.scaled_add(p, torch.ones(2), 1.0).tolist() == [2.0, 2.0]


def test_tensors_cross_the_boundary_without_copies(scaled_add):
    x = torch.zeros(3)
    out = scaled_add.scaled_add(x, torch.ones(3), 1.0)
    out2 = scaled_add.scaled_add(out, torch.ones(3), 0.0)
    assert out2.tolist() == [1.0, 1.0, 1.0] and x.tolist() == [0.0, 0.0, 0.0]


def test_ths_errors_are_pythons_exceptions(scaled_add, swish):
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(4\)"):
        scaled_add.scaled_add(torch.ones(3), torch.ones(4), 1.0)
    with pytest.raises(TypeError, match="incompatible function arguments"):
        scaled_add.scaled_add([1.0], torch.ones(1), 1.0)
    with pytest.raises(TypeError, match="swish: input must be float32 or float64"):
        swish.forward(torch.ones(2, dtype=torch.int64))
    with pytest.raises(ValueError, match="swish: grad and input differ in shape"):
        swish.backward(torch.ones(2, dtype=torch.float64), torch.ones(3, dtype=torch.float64))
    # loading an extension (which registers its own translator, tried first) keeps torch's own error classes
    with pytest.raises(torch.linalg.LinAlgError, match="not positive-definite"):
        torch.linalg.cholesky(-torch.eye(3))


class Swish(torch.autograd.Function):
    """The extension's kernels as an autograd op."""

    ext = None

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return Swish.ext.forward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return Swish.ext.backward(grad, x)


def test_a_user_kernel_works_with_autograd(swish):
    Swish.ext = swish
    rng = np.random.default_rng(1)
    a = rng.normal(size=(5, 4)) * 3
    x = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    y = Swish.apply(x.t())  # a non-contiguous input: the kernel makes it contiguous
    np.testing.assert_allclose(y.detach().numpy(), a.T / (1 + np.exp(-a.T)), rtol=1e-12)
    (y * y).sum().backward()
    s = 1 / (1 + np.exp(-a))
    np.testing.assert_allclose(x.grad.numpy(), 2 * a * s * (s + a * s * (1 - s)), rtol=1e-10)
    assert torch.autograd.gradcheck(Swish.apply, (torch.tensor(a[:2], dtype=torch.float64, requires_grad=True),))
    f32 = Swish.apply(torch.tensor(a, dtype=torch.float32))
    np.testing.assert_allclose(f32.numpy(), a / (1 + np.exp(-a)), rtol=1e-5)


def test_a_second_load_compiles_nothing_and_an_edit_loads_as_a_new_module(root):
    src = root / "edit" / "op.cpp"
    src.parent.mkdir()
    body = "torch::Tensor op(const torch::Tensor& x) {{ return th::mul(x, x); }}\n{tail}"
    tail = 'NB_MODULE(TORCH_EXTENSION_NAME, m) { m.def("op", &op); }\n'
    src.write_text("#include <torch/extension.h>\n" + body.format(tail=tail))
    build = root / "edit" / "build"
    first = cpp_extension.load("edit_ext", [str(src)], build_directory=str(build))
    so = Path(first.__file__)
    stamp = so.stat().st_mtime_ns
    again = cpp_extension.load("edit_ext", [str(src)], build_directory=str(build))
    assert again is first and so.stat().st_mtime_ns == stamp  # nothing rebuilt, the module reused
    ninja = subprocess.run([shutil.which("ninja") or sys.executable.replace("python", "ninja"), "-C", str(build)],
                           capture_output=True, text=True)  # fmt: skip
    assert "no work to do" in ninja.stdout
    src.write_text(
        "#include <torch/extension.h>\n" + body.format(tail=tail).replace("th::mul(x, x)", "th::add(x, x, 1.0)")
    )
    edited = cpp_extension.load("edit_ext", [str(src)], build_directory=str(build))
    assert edited.__name__ == "edit_ext_v1" and edited is not first
    x = torch.tensor([3.0])
    assert first.op(x).tolist() == [9.0] and edited.op(x).tolist() == [6.0]  # both live in this process


def test_a_compile_error_says_what_the_compiler_said_and_the_failing_command(root):
    with pytest.raises(RuntimeError, match=r"Error building extension 'broken_ext'") as e:
        cpp_extension.load_inline(
            "broken_ext",
            "torch::Tensor f(const torch::Tensor& x) { return no_such_function(x); }",
            functions=["f"],
            build_directory=str(root / "broken"),
        )
    msg = str(e.value)
    assert "error: 'no_such_function' was not declared" in msg or "no_such_function" in msg.split("error:")[1]
    assert f"-c {root / 'broken' / 'main.cpp'} -o main.o" in msg  # the command, as Ninja shows it


def test_bad_arguments_are_refused_before_building(root):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        cpp_extension.load("missing_ext", [str(root / "nope.cpp")], build_directory=str(root / "missing"))
    with pytest.raises(ValueError, match="must be a Python identifier"):
        cpp_extension.load("not-a-name", [str(HERE / "swish.cpp")], build_directory=str(root / "bad"))


def test_headers_and_libraries_are_where_the_paths_say():
    inc = cpp_extension.include_paths()
    assert any(Path(p, "torch", "extension.h").exists() for p in inc)
    assert any(Path(p, "TH", "Tensor.h").exists() for p in inc)
    assert any(Path(p, "nanobind", "nanobind.h").exists() for p in inc)
    assert Path(cpp_extension.library_paths()[0], "libTH.so").exists()


def _cuda_build() -> bool:
    return bool(torch._C._build_config()["use_cuda"])


@pytest.mark.skipif(not _cuda_build() or cpp_extension.CUDA_HOME is None, reason="a CUDA build of torch and nvcc")
def test_a_cuda_extension_compiles_links_and_runs_where_a_gpu_is(root):
    ext = cpp_extension.load("add_one_ext", [str(HERE / "add_one.cu")], build_directory=str(root / "cuda"))
    if not torch.cuda.is_available():
        pytest.skip("compiled and loaded; running the kernel needs a GPU (none here)")
    x = torch.arange(1000, dtype=torch.float32, device="cuda")
    assert torch.equal(ext.add_one(x).cpu(), torch.arange(1000, dtype=torch.float32) + 1)
    with pytest.raises(ValueError, match="expected a float32 CUDA tensor"):
        ext.add_one(torch.ones(2))


def test_a_cuda_extension_on_a_cpu_build_is_refused_clearly(root):
    if _cuda_build():
        pytest.skip("this torch is a CUDA build")
    with pytest.raises(RuntimeError, match="built without CUDA"):
        cpp_extension.load("add_one_cpu", [str(HERE / "add_one.cu")], build_directory=str(root / "cuda-on-cpu"))


def test_setuptools_builds_a_cpp_extension(tmp_path):
    pytest.importorskip("setuptools", reason="setuptools (BuildExtension is its build_ext)")
    shutil.copy(HERE / "swish.cpp", tmp_path / "swish.cpp")
    (tmp_path / "setup.py").write_text(
        textwrap.dedent(
            """
            from setuptools import setup
            from torch.utils.cpp_extension import BuildExtension, CppExtension

            setup(
                name="swish_setuptools",
                ext_modules=[CppExtension("swish_setuptools", ["swish.cpp"])],
                cmdclass={"build_ext": BuildExtension},
            )
            """
        )
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    build = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tmp_path, env=env,
                           capture_output=True, text=True)  # fmt: skip
    assert build.returncode == 0, build.stdout + build.stderr
    check = (
        "import torch, swish_setuptools as s; x = torch.tensor([0.0, 1.0], dtype=torch.float64); "
        "print(s.forward(x).tolist())"
    )
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env["PYTHONPATH"]])  # the built module (PYTHONSAFEPATH)
    run = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    np.testing.assert_allclose(eval(run.stdout), [0.0, 1 / (1 + np.exp(-1.0))], rtol=1e-12)
