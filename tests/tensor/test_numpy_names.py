"""NumPy's argument names that PyTorch also accepts: axis= for dim=, keepdims= for keepdim=, for the generated
ops and the Python composites alike (also run on upstream 2.13)."""

from __future__ import annotations

import numpy as np
import pytest

import torch


def test_reductions_take_axis_and_keepdims():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = torch.tensor(a)
    np.testing.assert_array_equal(x.sum(axis=(0, 2)).numpy(), a.sum(axis=(0, 2)))
    assert torch.sum(x, axis=1, keepdims=True).shape == (2, 1, 4)
    np.testing.assert_allclose(x.mean(axis=-1).numpy(), a.mean(axis=-1))
    np.testing.assert_array_equal(x.amax(axis=1).numpy(), a.max(axis=1))
    np.testing.assert_array_equal(x.max(axis=0).values.numpy(), a.max(axis=0))
    np.testing.assert_array_equal(torch.argmax(x, axis=2).numpy(), a.argmax(axis=2))
    np.testing.assert_allclose(x.std(axis=0).numpy(), a.std(axis=0, ddof=1))
    np.testing.assert_array_equal(x.prod(axis=2).numpy(), a.prod(axis=2))
    np.testing.assert_array_equal(torch.cumsum(x, axis=0).numpy(), a.cumsum(axis=0))


def test_composites_take_them_too():
    x = torch.arange(12.0).reshape(3, 4)
    assert torch.equal(x.softmax(axis=1), x.softmax(dim=1))
    assert torch.equal(torch.logsumexp(x, axis=0, keepdims=True), torch.logsumexp(x, dim=0, keepdim=True))


def test_a_name_and_its_alias_together_are_refused():
    with pytest.raises(TypeError):
        torch.arange(4.0).sum(axis=0, dim=0)
