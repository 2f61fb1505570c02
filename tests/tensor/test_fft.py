"""torch.fft against numpy.fft (values, every function, n/s resizing, the three norm modes, strided and
batched inputs, float32 and float64), its errors, and its gradients: gradcheck in float64 through real
losses, and the complex gradients of fft against central differences. Also run on upstream 2.13."""

from __future__ import annotations

import numpy as np
import pytest

import torch

RNG = np.random.default_rng(0)
NORMS = [None, "backward", "forward", "ortho"]


def crandn(*shape):
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)


def close(got: torch.Tensor, want: np.ndarray, tol=1e-10):
    np.testing.assert_allclose(
        got.resolve_conj().numpy(), want, rtol=tol, atol=tol * max(1.0, float(np.abs(want).max(initial=0)))
    )


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [None, 5, 8, 13])
def test_one_dimensional(norm, n):
    z, x = crandn(3, 8), RNG.standard_normal((3, 8))
    tz, tx = torch.tensor(z), torch.tensor(x)
    close(torch.fft.fft(tz, n=n, norm=norm), np.fft.fft(z, n=n, norm=norm))
    close(torch.fft.ifft(tz, n=n, norm=norm), np.fft.ifft(z, n=n, norm=norm))
    close(torch.fft.fft(tx, n=n, norm=norm), np.fft.fft(x, n=n, norm=norm))
    close(torch.fft.ifft(tx, n=n, norm=norm), np.fft.ifft(x, n=n, norm=norm))
    close(torch.fft.rfft(tx, n=n, norm=norm), np.fft.rfft(x, n=n, norm=norm))
    close(torch.fft.irfft(tz, n=n, norm=norm), np.fft.irfft(z, n=n, norm=norm))
    close(torch.fft.hfft(tz, n=n, norm=norm), np.fft.hfft(z, n=n, norm=norm))
    close(torch.fft.ihfft(tx, n=n, norm=norm), np.fft.ihfft(x, n=n, norm=norm))


def test_dims_strides_and_batches():
    z = crandn(4, 6, 5)
    tz = torch.tensor(z)
    close(torch.fft.fft(tz, dim=1), np.fft.fft(z, axis=1))
    close(torch.fft.fft(tz.transpose(0, 2), dim=0), np.fft.fft(z.transpose(2, 1, 0), axis=0))
    close(torch.fft.fft(tz[:, ::2, 1:]), np.fft.fft(z[:, ::2, 1:]))
    x = RNG.standard_normal((6, 7))
    close(torch.fft.rfft(torch.tensor(x).t(), dim=0), np.fft.rfft(x.T, axis=0))
    close(torch.fft.rfft(torch.arange(8)), np.fft.rfft(np.arange(8.0)), tol=1e-5)  # integers: float32


@pytest.mark.parametrize("norm", NORMS)
def test_n_dimensional(norm):
    z, x = crandn(3, 4, 6), RNG.standard_normal((3, 4, 6))
    tz, tx = torch.tensor(z), torch.tensor(x)
    close(torch.fft.fftn(tz, norm=norm), np.fft.fftn(z, norm=norm))
    close(torch.fft.ifftn(tz, s=(5, 3), norm=norm), np.fft.ifftn(z, s=(5, 3), axes=(1, 2), norm=norm))
    close(torch.fft.fft2(tz, norm=norm), np.fft.fft2(z, norm=norm))
    close(torch.fft.ifft2(tz, dim=(0, 2), norm=norm), np.fft.ifft2(z, axes=(0, 2), norm=norm))
    close(torch.fft.rfftn(tx, norm=norm), np.fft.rfftn(x, norm=norm))
    close(torch.fft.rfft2(tx, s=(3, 9), norm=norm), np.fft.rfft2(x, s=(3, 9), norm=norm))
    close(torch.fft.irfftn(tz, norm=norm), np.fft.irfftn(z, norm=norm))
    close(torch.fft.irfft2(tz, s=(4, 7), norm=norm), np.fft.irfft2(z, s=(4, 7), norm=norm))
    close(torch.fft.fftn(tx, dim=(1,), norm=norm), np.fft.fftn(x, axes=(1,), norm=norm))


def test_hermitian_n_dimensional_roundtrip():
    x = RNG.standard_normal((4, 6))
    half = torch.fft.ihfft2(torch.tensor(x))
    assert half.shape == (4, 4)
    close(torch.fft.hfft2(half, s=(4, 6)), x)
    # ihfftn is the conjugate of rfftn scaled by 1/n
    close(torch.fft.ihfftn(torch.tensor(x)), np.conj(np.fft.rfftn(x)) / x.size)


def test_float32_and_roundtrips():
    x = RNG.standard_normal((5, 64)).astype(np.float32)
    tx = torch.tensor(x)
    spectrum = torch.fft.rfft(tx)
    assert spectrum.dtype == torch.complex64
    np.testing.assert_allclose(torch.fft.irfft(spectrum, n=64).numpy(), x, rtol=1e-5, atol=1e-5)
    z = torch.tensor(crandn(1 << 12).astype(np.complex64))
    np.testing.assert_allclose(torch.fft.ifft(torch.fft.fft(z)).numpy(), z.numpy(), rtol=1e-4, atol=1e-5)


def test_frequencies_and_shifts():
    for n in (7, 8):
        close(torch.fft.fftfreq(n, d=0.5, dtype=torch.float64), np.fft.fftfreq(n, d=0.5))
        close(torch.fft.rfftfreq(n, d=0.1, dtype=torch.float64), np.fft.rfftfreq(n, d=0.1))
        a = np.arange(n * 3.0).reshape(3, n)
        close(torch.fft.fftshift(torch.tensor(a)), np.fft.fftshift(a))
        close(torch.fft.ifftshift(torch.tensor(a), dim=1), np.fft.ifftshift(a, axes=1))
    assert torch.fft.fftfreq(4).dtype == torch.get_default_dtype()


def test_errors():
    with pytest.raises(RuntimeError, match="Invalid number of data points"):
        torch.fft.fft(torch.zeros(4, dtype=torch.cfloat), n=0)
    with pytest.raises(RuntimeError, match="rfft expects a real input tensor"):
        torch.fft.rfft(torch.zeros(4, dtype=torch.cfloat))
    with pytest.raises(RuntimeError, match="Invalid normalization mode"):
        torch.fft.fft(torch.zeros(4), norm="sideways")
    with pytest.raises(IndexError):
        torch.fft.fft(torch.zeros(4), dim=1)
    with pytest.raises(RuntimeError, match="same length"):
        torch.fft.fftn(torch.zeros(4, 4), s=(2, 2), dim=(0,))


@pytest.mark.parametrize(
    "name, f",
    [
        ("fft", lambda x: torch.view_as_real(torch.fft.fft(x, norm="ortho"))),
        ("ifft_n", lambda x: torch.view_as_real(torch.fft.ifft(x, n=9).resolve_conj())),
        ("rfft", lambda x: torch.view_as_real(torch.fft.rfft(x))),
        ("rfft_odd", lambda x: torch.view_as_real(torch.fft.rfft(x, n=7))),
        ("irfft", lambda x: torch.fft.irfft(torch.fft.rfft(x) * torch.arange(4.0, dtype=torch.float64), n=6)),
        ("irfft_odd", lambda x: torch.fft.irfft(torch.fft.rfft(x).exp(), n=5, norm="forward")),
        ("hfft", lambda x: torch.fft.hfft(torch.fft.rfft(x) * 1j)),
        ("fft2", lambda x: torch.view_as_real(torch.fft.fft2(x.reshape(2, 3)))),
        ("rfftn", lambda x: torch.view_as_real(torch.fft.rfftn(x.reshape(2, 3), norm="ortho"))),
        ("irfftn", lambda x: torch.fft.irfftn(torch.fft.rfftn(x.reshape(2, 3)) ** 2, s=(2, 3))),
    ],
)
def test_gradcheck(name, f):
    x = torch.tensor(RNG.standard_normal(6), requires_grad=True)
    assert torch.autograd.gradcheck(f, (x,)), name


def test_complex_input_gradient_convention():
    z = crandn(5)
    zt = torch.tensor(z, requires_grad=True)
    w = torch.tensor(crandn(5))

    def loss(t):
        return (torch.fft.fft(t) * w).real.sum() + torch.fft.ifft(t, norm="ortho").abs().sum()

    loss(zt).backward()
    eps, want = 1e-6, np.zeros(5, dtype=complex)
    for k in range(5):
        for step, unit in ((eps, 1), (eps * 1j, 1j)):
            zp, zm = z.copy(), z.copy()
            zp[k] += step
            zm[k] -= step
            want[k] += unit * (loss(torch.tensor(zp)).item() - loss(torch.tensor(zm)).item()) / (2 * eps)
    np.testing.assert_allclose(zt.grad.numpy(), want, rtol=1e-6, atol=1e-7)


def _frames_reference(x: np.ndarray, n_fft: int, hop: int, window: np.ndarray) -> np.ndarray:
    """stft by hand: reflect-pad n_fft // 2, cut frames, window, rfft, frequencies first."""
    padded = np.pad(x, (n_fft // 2, n_fft // 2), mode="reflect")
    count = 1 + (len(padded) - n_fft) // hop
    frames = np.stack([padded[k * hop : k * hop + n_fft] * window for k in range(count)])
    return np.fft.rfft(frames).T


@pytest.mark.parametrize("n_fft, hop, win_length", [(32, 8, 32), (16, 4, 12), (31, 7, 31)])
def test_stft_against_numpy_and_istft_roundtrip(n_fft, hop, win_length):
    x = RNG.standard_normal((2, 120))
    window = torch.hann_window(win_length, dtype=torch.float64)
    spec = torch.stft(torch.tensor(x), n_fft, hop, win_length, window, return_complex=True)
    padded_window = np.zeros(n_fft)
    left = (n_fft - win_length) // 2
    padded_window[left : left + win_length] = window.numpy()
    for b in range(2):
        close(spec[b], _frames_reference(x[b], n_fft, hop, padded_window))
    back = torch.istft(spec, n_fft, hop, win_length, window, length=120)
    inner = slice(n_fft, 120 - n_fft)  # where the squared windows overlap everywhere
    np.testing.assert_allclose(back[:, inner].numpy(), x[:, inner], atol=1e-10)
    assert torch.stft(torch.tensor(x[0]), 16, return_complex=True).shape == (9, 31)
    with pytest.raises(RuntimeError, match="return_complex"):
        torch.stft(torch.tensor(x), 16)


def test_stft_gradcheck():
    x = torch.tensor(RNG.standard_normal(24), requires_grad=True)
    window = torch.hann_window(8, dtype=torch.float64)
    assert torch.autograd.gradcheck(
        lambda t: torch.view_as_real(torch.stft(t, 8, 2, window=window, return_complex=True)), (x,)
    )
    assert torch.autograd.gradcheck(
        lambda t: torch.istft(torch.stft(t, 8, 2, window=window, return_complex=True) * 2, 8, 2, window=window),
        (x,),
    )


def test_stft_align_to_window_starts_the_windows_at_the_hops():
    # upstream's semantics: the window stays centered in its n_fft frame; the frames move so that each window
    # starts at a multiple of hop_length (1 + (length - win_length) // hop_length of them)
    x = torch.arange(20.0, dtype=torch.float64)
    n_fft, hop, win = 8, 4, 4
    window = torch.hann_window(win, dtype=torch.float64)
    got = torch.stft(x, n_fft, hop, win, window, center=False, return_complex=True, align_to_window=True)
    left = (n_fft - win) // 2
    frames = np.stack([np.pad(x.numpy()[k * hop : k * hop + win] * window.numpy(), (left, n_fft - win - left))
                       for k in range(1 + (20 - win) // hop)])  # fmt: skip
    np.testing.assert_allclose(got.numpy(), np.fft.rfft(frames).T, atol=1e-12)
    plain = torch.stft(x, n_fft, hop, win, window, center=False, return_complex=True, align_to_window=False)
    assert plain.shape == (5, 4)
    with pytest.raises(RuntimeError, match="align_to_window should only be set when center = false"):
        torch.stft(x, n_fft, hop, win, window, center=True, return_complex=True, align_to_window=False)
