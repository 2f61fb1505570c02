"""The short-time Fourier transform, torch.stft and torch.istft (and their Tensor methods), as PyTorch's:
frames cut with unfold (the signal reflect-padded by n_fft // 2 when centered), windowed, and transformed by
torch.fft; istft inverts them by overlap-add (fold), divided by the summed squared window. Differentiable
through the ops they are made of."""

from __future__ import annotations

import warnings

import torch
from torch._C import Tensor
from torch._registry import register
from torch.amp.autocast_mode import autocast_policy


def _window(window: Tensor | None, n_fft: int, win_length: int, like: Tensor) -> Tensor:
    """The window (ones by default) zero-padded on both sides to n_fft, centered as PyTorch pads it."""
    if window is None:
        window = torch.ones(win_length, dtype=like.dtype.to_real(), device=like.device)
    elif window.dim() != 1 or window.shape[0] != win_length:
        raise RuntimeError(
            f"stft: expected a 1D window tensor of size equal to win_length={win_length}, but got window with "
            f"size {list(window.shape)}"
        )
    left = (n_fft - win_length) // 2
    if left or n_fft - win_length - left:
        zeros = window.new_zeros(n_fft)
        window = torch.cat([zeros[:left], window, zeros[left + win_length :]])
    return window


def _lengths(n_fft: int, hop_length, win_length, fn: str) -> tuple[int, int]:
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if n_fft <= 0:
        raise RuntimeError(f"{fn}: expected 0 < n_fft, but got n_fft={n_fft}")
    if hop <= 0:
        raise RuntimeError(f"{fn}: expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        raise RuntimeError(f"{fn}: expected 0 < win_length <= n_fft, but got win_length={win}")
    return hop, win


@register(method=True)
@autocast_policy(cpu="fp32")
def stft(
    input: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    pad_mode: str = "reflect",
    normalized: bool = False,
    onesided: bool | None = None,
    return_complex: bool | None = None,
    align_to_window: bool | None = None,
) -> Tensor:
    """The short-time Fourier transform of a 1-D signal or a batch of them: [(B,) n_fft // 2 + 1 (or n_fft),
    frames] complex coefficients of the windowed frames hop_length apart. align_to_window=True (with
    center=False): the windows (centered in their n_fft frames as always) start at multiples of hop_length,
    rather than the frames: 1 + (length - win_length) // hop_length frames."""
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if return_complex is None:
        if not (input.is_complex() or (window is not None and window.is_complex())):
            raise RuntimeError(
                "stft requires the return_complex parameter be given for real inputs, and will further require "
                "that return_complex=True in a future PyTorch release."
            )
        return_complex = True
    if input.dim() not in (1, 2):
        raise RuntimeError(f"stft: expected a 1D or 2D tensor, but got {input.dim()}D tensor")
    hop, win = _lengths(n_fft, hop_length, win_length, "stft")
    x = input.unsqueeze(0) if input.dim() == 1 else input
    if center:
        pad = n_fft // 2
        x = torch.nn.functional.pad(x.unsqueeze(1), (pad, pad), mode=pad_mode).squeeze(1)
    length = x.shape[-1]
    if align_to_window:  # each window starts at a multiple of hop_length: the frames start (n_fft - win) // 2 before
        if not win <= length:
            raise RuntimeError(f"stft: expected 0 < win_length <= {length}, but got win_length={win}")
        left = (n_fft - win) // 2
        x = torch.nn.functional.pad(x, (left, n_fft - win - left))  # samples the (zero) window's ends multiply
        frames = x.unfold(-1, n_fft, hop) * _window(window, n_fft, win, x)
    else:
        if not 0 < n_fft <= length:
            raise RuntimeError(f"stft: expected 0 < n_fft <= {length}, but got n_fft={n_fft}")
        frames = x.unfold(-1, n_fft, hop) * _window(window, n_fft, win, x)  # [B, frames, n_fft]
    complex_input = frames.is_complex()
    if onesided is None:
        onesided = not complex_input
    if onesided and complex_input:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    norm = "ortho" if normalized else "backward"
    spectrum = torch.fft.rfft(frames, norm=norm) if onesided else torch.fft.fft(frames, norm=norm)
    out = spectrum.transpose(-1, -2)
    if input.dim() == 1:
        out = out.squeeze(0)
    if not return_complex:
        warnings.warn("stft with return_complex=False is deprecated", UserWarning, stacklevel=2)
        return torch.view_as_real(out.contiguous())
    return out


@register(method=True)
def istft(
    input: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    normalized: bool = False,
    onesided: bool | None = None,
    length: int | None = None,
    return_complex: bool = False,
) -> Tensor:
    """The inverse of stft: the signal whose short-time transform is input, by windowed overlap-add divided by
    the summed squared window (which must not vanish anywhere inside the signal)."""
    if not input.is_complex():
        raise RuntimeError(
            "istft requires a complex-valued input tensor matching the output from stft with return_complex=True."
        )
    if input.dim() not in (2, 3):
        raise RuntimeError(f"istft: expected a tensor with 2 or 3 dimensions of complex dtype, but got {input.dim()}")
    hop, win = _lengths(n_fft, hop_length, win_length, "istft")
    spec = input.unsqueeze(0) if input.dim() == 2 else input
    n_freq, n_frames = spec.shape[-2], spec.shape[-1]
    if onesided is None:
        onesided = n_freq != n_fft
    if onesided and n_freq != n_fft // 2 + 1:
        raise RuntimeError(f"istft: expected the frequency dimension (2nd last) of the input to equal n_fft / 2 + 1 "
                           f"when onesided=True, but got {n_freq}")  # fmt: skip
    if not onesided and n_freq != n_fft:
        raise RuntimeError(f"istft: expected the frequency dimension (2nd last) of the input to equal n_fft when "
                           f"onesided=False, but got {n_freq}")  # fmt: skip
    norm = "ortho" if normalized else "backward"
    frames = spec.transpose(-1, -2)  # [B, frames, freq]
    if return_complex:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        frames = torch.fft.ifft(frames, n=n_fft, norm=norm)
    else:  # a real signal: the irfft of the first n_fft // 2 + 1 bins (upstream's; the rest are ignored)
        frames = torch.fft.irfft(frames[..., : n_fft // 2 + 1], n=n_fft, norm=norm)
    w = _window(window, n_fft, win, frames)
    frames = frames * w
    total = n_fft + hop * (n_frames - 1)
    fold = torch.nn.functional.fold
    y = fold(frames.transpose(-1, -2), (1, total), (1, n_fft), stride=(1, hop)).reshape(frames.shape[0], total)
    env = fold((w * w).expand(1, n_frames, n_fft).transpose(-1, -2), (1, total), (1, n_fft), stride=(1, hop))
    env = env.reshape(total)
    start = n_fft // 2 if center else 0
    end = total - n_fft // 2 if center else total
    if length is not None:
        end = start + length
    y, env = y[..., start:end], env[start:end]
    if bool((env.abs() < 1e-11).any()):
        raise RuntimeError("istft(...): window overlap add min: 0")
    y = y / env
    if length is not None and y.shape[-1] < length:
        y = torch.cat([y, y.new_zeros(y.shape[0], length - y.shape[-1])], -1)
    return y.squeeze(0) if input.dim() == 2 else y
