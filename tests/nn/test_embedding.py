"""F.embedding / nn.Embedding on the embedding kernels (torch.embedding, embedding_dense_backward): values,
the weight gradient against NumPy's scatter-add with padding_idx and scale_grad_by_freq, gradcheck, 16-bit
weights, a CPU result independent of the thread count, and PyTorch's errors."""

from __future__ import annotations

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def _np_grad(indices, grad, num, padding_idx, scale):
    """The weight gradient in float64: np.add.at of the gradient rows, the padding row zero, / counts."""
    idx = indices.reshape(-1)
    g = grad.reshape(len(idx), -1).astype(np.float64)
    out = np.zeros((num, g.shape[1]))
    np.add.at(out, idx, g)
    if scale:
        counts = np.bincount(idx, minlength=num)
        out /= np.maximum(counts, 1)[:, None]
    if padding_idx is not None:
        out[padding_idx] = 0
    return out


@pytest.mark.parametrize("padding_idx", [None, 3, -2])
@pytest.mark.parametrize("scale", [False, True])
@pytest.mark.parametrize("index_dtype", [torch.int64, torch.int32])
def test_embedding_values_and_weight_gradient(device, padding_idx, scale, index_dtype):
    g = torch.Generator().manual_seed(0)
    w = torch.randn(10, 6, generator=g).to(device).requires_grad_()
    idx = torch.randint(0, 10, (4, 7), generator=g).to(device=device, dtype=index_dtype)
    out = F.embedding(idx, w, padding_idx=padding_idx, scale_grad_by_freq=scale)
    assert out.shape == (4, 7, 6)
    torch.testing.assert_close(out, w.detach()[idx.long()])
    grad = torch.randn(out.shape, generator=g).to(device)
    (gw,) = torch.autograd.grad(out, w, grad)
    pad = None if padding_idx is None else padding_idx % 10
    want = _np_grad(idx.long().cpu().numpy(), grad.cpu().numpy(), 10, pad, scale)
    np.testing.assert_allclose(gw.cpu().numpy(), want, rtol=1e-5, atol=1e-5)


def test_embedding_gradcheck(device):
    w = torch.randn(6, 3, dtype=torch.float64, device=device, requires_grad=True)
    idx = torch.tensor([[0, 2, 2, 5], [1, 2, 0, 0]], device=device)
    assert torch.autograd.gradcheck(lambda w: F.embedding(idx, w), (w,))  # padding and scaling are not derivatives


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_embedding_16bit_weights(device, dtype):
    w = torch.randn(50, 8, device=device).to(dtype).requires_grad_()
    idx = torch.randint(0, 50, (300,), device=device)
    out = F.embedding(idx, w)
    assert out.dtype == dtype
    grad = torch.ones(300, 8, device=device, dtype=dtype)
    (gw,) = torch.autograd.grad(out, w, grad)
    counts = np.bincount(idx.cpu().numpy(), minlength=50).astype(np.float32)
    np.testing.assert_array_equal(gw.float().cpu().numpy(), np.repeat(counts[:, None], 8, axis=1))


def test_embedding_backward_is_deterministic_on_the_cpu():
    g = torch.Generator().manual_seed(1)
    w = torch.randn(100, 33, requires_grad=True)
    idx = torch.randint(0, 100, (20000,), generator=g)
    grad = torch.randn(20000, 33, generator=g)
    before = torch.get_num_threads()
    results = []
    try:
        for threads in (1, 2):
            torch.set_num_threads(threads)
            results.append(torch.autograd.grad(F.embedding(idx, w), w, grad)[0])
    finally:
        torch.set_num_threads(before)
    assert torch.equal(results[0], results[1])


def test_embedding_errors(device):
    w = torch.randn(5, 2, device=device)
    with pytest.raises(IndexError, match="index out of range in self"):
        F.embedding(torch.tensor([5], device=device), w)
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices' to have one of the following"):
        F.embedding(torch.tensor([1.0], device=device), w)
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        F.embedding(torch.tensor([1], device=device), w, padding_idx=5)


def _np_bags(w, idx, offsets, mode, psw=None, padding_idx=None, include_last_offset=False):
    bounds = list(offsets) if include_last_offset else list(offsets) + [len(idx)]
    out = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        rows = [
            w[i] * (psw[k] if psw is not None else 1.0) for k, i in enumerate(idx) if a <= k < b and i != padding_idx
        ]
        if not rows:
            out.append(np.zeros(w.shape[1]))
        else:
            out.append({"sum": np.sum, "mean": np.mean, "max": np.max}[mode](np.stack(rows), 0))
    return np.stack(out)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [None, 2])
@pytest.mark.parametrize("include_last_offset", [False, True])
def test_embedding_bag_against_numpy(device, mode, padding_idx, include_last_offset):
    rng = np.random.default_rng(5)
    w = torch.from_numpy(rng.normal(size=(8, 5))).to(device).requires_grad_()
    idx = torch.tensor([1, 2, 4, 4, 2, 7, 0, 3, 2, 6], device=device)
    offsets = torch.tensor([0, 3, 3, 6, 9] if not include_last_offset else [0, 3, 3, 6, 10], device=device)
    out = F.embedding_bag(idx, w, offsets, mode=mode, padding_idx=padding_idx, include_last_offset=include_last_offset)
    want = _np_bags(
        w.detach().cpu().numpy(), idx.tolist(), offsets.tolist(), mode, None, padding_idx, include_last_offset
    )
    np.testing.assert_allclose(out.detach().cpu().numpy(), want, rtol=1e-12)
    assert torch.autograd.gradcheck(
        lambda t: F.embedding_bag(
            idx, t, offsets, mode=mode, padding_idx=padding_idx, include_last_offset=include_last_offset
        ),
        (w,),
    )


def test_embedding_bag_per_sample_weights_and_2d_input(device):
    rng = np.random.default_rng(6)
    w = torch.from_numpy(rng.normal(size=(6, 3))).to(device).requires_grad_()
    idx = torch.tensor([[0, 5, 2], [3, 3, 1]], device=device)
    psw = torch.from_numpy(rng.uniform(size=(2, 3))).to(device).requires_grad_()
    out = F.embedding_bag(idx, w, mode="sum", per_sample_weights=psw)
    want = _np_bags(
        w.detach().cpu().numpy(), idx.flatten().tolist(), [0, 3], "sum", psw.detach().cpu().numpy().flatten()
    )
    np.testing.assert_allclose(out.detach().cpu().numpy(), want, rtol=1e-12)
    assert torch.autograd.gradcheck(lambda t, p: F.embedding_bag(idx, t, mode="sum", per_sample_weights=p), (w, psw))
    assert F.embedding_bag(idx, w, mode="mean").shape == (2, 3)


def test_embedding_bag_max_refuses_frequency_scaling_and_sparse():
    with pytest.raises(ValueError, match="max mode does not support scaling the gradient by the frequency"):
        F.embedding_bag(torch.tensor([0, 1]), torch.randn(3, 2), torch.tensor([0]), mode="max", scale_grad_by_freq=True)
    with pytest.raises(ValueError, match="max mode does not support sparse weights"):
        F.embedding_bag(torch.tensor([0, 1]), torch.randn(3, 2), torch.tensor([0]), mode="max", sparse=True)
