"""The vectorized float kernels and the FFT agree with NumPy at every CPU capability this machine has
(each run in a fresh interpreter with TH_CPU_CAPABILITY capping the ISA). Upstream PyTorch has
ATEN_CPU_CAPABILITY instead; there the cap is ignored and the checks still hold."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CHECK = r"""
import math, os
import numpy as np, torch
import torch.nn.functional as F
rng = np.random.default_rng(0)
a = np.concatenate([rng.uniform(-90, 90, 5000), rng.uniform(-3, 3, 5000), [0.0, -0.0, np.inf, -np.inf, np.nan]])
a = a.astype(np.float32)
t = torch.from_numpy(a)
with np.errstate(all="ignore"):
    refs = {"exp": np.exp(a), "tanh": np.tanh(a), "sigmoid": 1 / (1 + np.exp(-a.astype(np.float64)))}
refs["erf"] = np.vectorize(math.erf)(a.astype(np.float64))
# ours within 3e-6; upstream's AVX-512 exp sometimes takes its fast exp_u20 (seen at 5e-6 in a CI run on an AMX Xeon)
rtol = 2e-5 if os.environ.get("TORCH_REFERENCE") else 3e-6
for name, want in refs.items():
    want = want.astype(np.float32)
    np.testing.assert_allclose(getattr(t, name)().numpy(), want, rtol=rtol, atol=1e-30, err_msg=name)
    # a strided view takes the scalar loop; a transposed one the vector kernel row by row
    np.testing.assert_allclose(getattr(t[::2], name)().numpy(), want[::2], rtol=rtol, atol=1e-30, err_msg=name)
    tt = t[:10000].view(100, 100).t()
    np.testing.assert_allclose(getattr(tt, name)().numpy(), want[:10000].reshape(100, 100).T, rtol=rtol,
                               atol=1e-30, err_msg=name)
# GELU (both forms) and SiLU, forward and backward, float32 against float64, dense and transposed
x = torch.from_numpy(np.concatenate([rng.uniform(-12, 12, 5000), rng.uniform(-3, 3, 5000)]).astype(np.float32))
for tx in (x, x.view(100, 100).t()):
    g = torch.from_numpy(rng.standard_normal(10000).astype(np.float32)).view(tx.shape)
    for f in (F.gelu, lambda v: F.gelu(v, approximate="tanh"), F.silu):
        x32, x64 = tx.clone().requires_grad_(), tx.double().requires_grad_()
        y32, y64 = f(x32), f(x64)
        np.testing.assert_allclose(y32.detach().numpy(), y64.detach().numpy(), rtol=1e-5, atol=1e-6)
        (d32,), (d64,) = torch.autograd.grad(y32, x32, g), torch.autograd.grad(y64, x64, g.double())
        np.testing.assert_allclose(d32.numpy(), d64.numpy(), rtol=1e-5, atol=1e-5)
b = rng.standard_normal(100_003).astype(np.float32)
np.testing.assert_allclose(torch.from_numpy(b).sum().item(), b.astype(np.float64).sum(), rtol=1e-6)
assert torch.from_numpy(b).max().item() == b.max() and torch.from_numpy(b).min().item() == b.min()
b[777] = np.nan
assert np.isnan(torch.from_numpy(b).max().item()) and np.isnan(torch.from_numpy(b).min().item())
# the FFT (its AVX2 copy is a module of its own): complex, real and inverse transforms against NumPy
z = (rng.standard_normal((3, 1000)) + 1j * rng.standard_normal((3, 1000))).astype(np.complex64)
np.testing.assert_allclose(torch.fft.fft(torch.from_numpy(z)).numpy(), np.fft.fft(z), rtol=1e-4, atol=1e-3)
np.testing.assert_allclose(torch.fft.rfft(torch.from_numpy(z.real.copy())).numpy(), np.fft.rfft(z.real), rtol=1e-4,
                           atol=1e-3)
np.testing.assert_allclose(torch.fft.irfftn(torch.from_numpy(z), s=(3, 999)).numpy(), np.fft.irfftn(z, s=(3, 999)),
                           rtol=1e-4, atol=1e-5)
# complex products (a vector kernel at every capability): the schoolbook formula, each product rounded (no FMA)
for ct in (np.complex64, np.complex128):
    za = ((rng.standard_normal(1003) + 1j * rng.standard_normal(1003)) * 10.0 ** rng.integers(-3, 4, 1003)).astype(ct)
    zb = (rng.standard_normal(1003) + 1j * rng.standard_normal(1003)).astype(ct)
    want = np.empty_like(za)
    want.real = za.real * zb.real - za.imag * zb.imag
    want.imag = za.real * zb.imag + za.imag * zb.real
    got = (torch.from_numpy(za) * torch.from_numpy(zb)).numpy()
    if os.environ.get("TORCH_REFERENCE"):  # upstream contracts some products into FMAs
        np.testing.assert_allclose(got, want, rtol=1e-5 if ct == np.complex64 else 1e-13)
    else:
        np.testing.assert_array_equal(got.view(want.real.dtype), want.view(want.real.dtype))
print(torch.backends.cpu.get_cpu_capability())
"""


@pytest.mark.parametrize("cap", ["default", "avx2", None])
def test_vectorized_kernels_at_each_capability(cap):
    env = dict(os.environ)
    env.pop("TH_CPU_CAPABILITY", None)
    if cap:
        env["TH_CPU_CAPABILITY"] = cap
    p = subprocess.run([sys.executable, "-c", CHECK], env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-3000:]
    if cap == "default" and "TORCH_REFERENCE" not in os.environ:
        assert p.stdout.strip() == "DEFAULT"
