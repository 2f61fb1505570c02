"""F.ctc_loss / nn.CTCLoss on the loss family's CTC kernel: each sample's loss against a brute-force sum over every
alignment (paths collapsed: repeats merged, blanks dropped), padded and concatenated targets, the reductions,
zero_infinity, gradcheck through log_softmax, and PyTorch's errors."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def _brute_force_nll(lp: np.ndarray, target: list[int], blank: int = 0) -> float:
    """-log of the summed probability of every path over lp (T, C) that collapses to target."""
    T, C = lp.shape
    total = 0.0
    for path in itertools.product(range(C), repeat=T):
        collapsed = [c for i, c in enumerate(path) if (i == 0 or c != path[i - 1]) and c != blank]
        if collapsed == target:
            total += math.exp(sum(lp[t, c] for t, c in enumerate(path)))
    return -math.log(total) if total > 0 else math.inf


def _case():
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.normal(size=(5, 3, 4)))
    targets = torch.tensor([[1, 2, 2], [3, 3, 0], [2, 0, 0]])
    return x, targets, [5, 4, 3], [3, 2, 1]


def test_ctc_loss_against_brute_force(device):
    x, targets, il, tl = _case()
    lp = torch.log_softmax(x, 2).to(device)
    got = F.ctc_loss(lp, targets.to(device), il, tl, reduction="none")
    want = [_brute_force_nll(lp[: il[n], n].cpu().numpy(), targets[n, : tl[n]].tolist()) for n in range(3)]
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-10)
    flat = torch.cat([targets[n, : tl[n]] for n in range(3)]).to(device)
    np.testing.assert_allclose(F.ctc_loss(lp, flat, il, tl, reduction="none").cpu().numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(
        F.ctc_loss(lp, targets.to(device), il, tl).item(), np.mean(np.array(want) / tl), rtol=1e-10
    )
    np.testing.assert_allclose(
        nn_loss := torch.nn.CTCLoss(reduction="sum")(lp, targets.to(device), il, tl).item(), sum(want), rtol=1e-10
    )
    assert nn_loss > 0


def test_ctc_loss_gradients_and_zero_infinity(device):
    x, targets, il, tl = _case()
    x = x.to(device).requires_grad_()
    assert torch.autograd.gradcheck(lambda t: F.ctc_loss(torch.log_softmax(t, 2), targets.to(device), il, tl), (x,))
    lp = torch.log_softmax(x, 2)
    impossible = torch.tensor([[1, 1, 1, 1]] * 3, device=device)  # needs 7 steps, has 3
    assert math.isinf(F.ctc_loss(lp, impossible, [3, 3, 3], [4, 4, 4], reduction="sum").item())
    loss = F.ctc_loss(lp, impossible, [3, 3, 3], [4, 4, 4], reduction="sum", zero_infinity=True)
    assert loss.item() == 0.0
    (g,) = torch.autograd.grad(loss, x)
    assert torch.equal(g, torch.zeros_like(g))


def test_ctc_loss_unbatched_and_errors():
    x, targets, il, tl = _case()
    lp = torch.log_softmax(x, 2)
    single = F.ctc_loss(lp[:, 0], targets[0], [il[0]], [tl[0]], reduction="none")
    torch.testing.assert_close(single, F.ctc_loss(lp, targets, il, tl, reduction="none")[0])
    with pytest.raises(RuntimeError, match="blank must be in label range"):
        F.ctc_loss(lp, targets, il, tl, blank=4)
    with pytest.raises(RuntimeError, match="input_lengths must be of size batch_size"):
        F.ctc_loss(lp, targets, il[:2], tl)
