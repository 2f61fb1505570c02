"""F.pad on the padding kernels (torch._pad_nd and its backward): every mode against NumPy's np.pad for 1-3
padded dims, batched or not, negative (cropping) amounts, strided input and other dtypes; gradcheck and
gradgradcheck per mode; PyTorch's errors."""

from __future__ import annotations

import numpy as np
import pytest

import torch
import torch.nn.functional as F

NP_MODE = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}
CASES = [  # (input shape, pad)
    ((2, 3, 7), (2, 3)),
    ((3, 6), (0, 4)),
    ((2, 2, 5, 6), (1, 2, 3, 0)),
    ((2, 5, 6), (4, 4, 2, 1)),
    ((1, 2, 3, 4, 5), (1, 1, 2, 0, 0, 2)),
]


def _np_pad(x: np.ndarray, pad, mode: str, value: float = 0.0) -> np.ndarray:
    n = len(pad) // 2
    widths = [(0, 0)] * (x.ndim - n) + [(pad[2 * i], pad[2 * i + 1]) for i in reversed(range(n))]
    kw = {"constant_values": value} if mode == "constant" else {}
    return np.pad(x, widths, mode=NP_MODE[mode], **kw)


@pytest.mark.parametrize("mode", list(NP_MODE))
@pytest.mark.parametrize("shape, pad", CASES)
def test_pad_against_numpy(device, mode, shape, pad):
    x = torch.randn(shape, device=device)
    kw = {"value": 2.5} if mode == "constant" else {}
    got = F.pad(x, pad, mode=mode, **kw)
    want = _np_pad(x.cpu().numpy(), pad, mode, 2.5)
    np.testing.assert_array_equal(got.cpu().numpy(), want)
    strided = torch.randn(shape[::-1], device=device).permute(*reversed(range(len(shape))))
    np.testing.assert_array_equal(
        F.pad(strided, pad, mode=mode, **kw).cpu().numpy(), _np_pad(strided.cpu().numpy(), pad, mode, 2.5)
    )


@pytest.mark.parametrize("mode", list(NP_MODE))
@pytest.mark.parametrize("shape, pad", CASES[:4])
def test_pad_gradients(device, mode, shape, pad):
    x = torch.randn(shape, dtype=torch.float64, device=device, requires_grad=True)
    f = lambda t: F.pad(t, pad, mode=mode)  # noqa: E731
    assert torch.autograd.gradcheck(f, (x,))
    assert torch.autograd.gradgradcheck(f, (x,))


def test_constant_pad_crops_and_other_dtypes(device):
    x = torch.arange(24, device=device).reshape(2, 3, 4)
    got = F.pad(x, (-1, 2, 1, -2), value=7)
    assert got.dtype == torch.int64
    np.testing.assert_array_equal(
        got.cpu().numpy(), np.pad(x.cpu().numpy()[:, :1, 1:], [(0, 0), (1, 0), (0, 2)], constant_values=7)
    )
    h = torch.randn(2, 3, 4, device=device).half()
    torch.testing.assert_close(F.pad(h, (1, 1), mode="reflect").float(), F.pad(h.float(), (1, 1), mode="reflect"))
    g = torch.randn(2, 3, 4, device=device, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: F.pad(t, (-1, 2, 1, -2)), (g,))
    c = F.pad(torch.arange(5.0, device=device).reshape(1, 1, 5), (-1, 2), mode="circular")
    assert c.flatten().tolist() == [1.0, 2.0, 3.0, 4.0, 1.0, 2.0], "circular crops first, then wraps what is left"
    g = torch.randn(2, 4, 5, device=device, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: F.pad(t, (-1, 2, 2, -1), mode="circular"), (g,))


def test_pad_errors(device):
    x = torch.randn(1, 2, 3, device=device)
    with pytest.raises(RuntimeError, match="Padding size should be less than the corresponding input dimension"):
        F.pad(x, (3, 0), mode="reflect")
    with pytest.raises(RuntimeError, match="Padding value causes wrapping around more than once"):
        F.pad(x, (4, 0), mode="circular")
    with pytest.raises(NotImplementedError, match="Unrecognised padding mode"):
        F.pad(x, (1, 1), mode="wrap")
    with pytest.raises(RuntimeError, match="Padding length must be divisible by 2"):
        F.pad(x, (1, 1, 1))
