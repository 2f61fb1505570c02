"""torch.utils.dlpack, torch.types, and torch.distributed / DistributedSampler as single-process code uses them.
Runs against upstream PyTorch too (TORCH_REFERENCE), whose CPU wheel has torch.distributed available."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch.utils.data import DistributedSampler
from torch.utils.dlpack import from_dlpack, to_dlpack


def test_dlpack_round_trip_shares_memory():
    t = torch.arange(6.0).reshape(2, 3)[:, 1:]
    back = from_dlpack(to_dlpack(t))
    assert torch.equal(back, t) and back.data_ptr() == t.data_ptr()
    a = np.arange(4, dtype=np.int32)
    shared = from_dlpack(a)
    a[0] = 7
    assert shared[0].item() == 7
    with pytest.raises(TypeError):
        to_dlpack(np.ones(2))


def test_types_aliases():
    import torch.types

    assert torch.types.Tensor is torch.Tensor
    assert torch.types.Number is not None and torch.types.Device is not None


def test_distributed_queries_single_process():
    import torch.distributed as dist

    assert isinstance(dist.is_available(), bool)
    if dist.is_available():
        assert dist.is_initialized() is False


@pytest.mark.parametrize("n, replicas, drop_last", [(10, 3, False), (10, 3, True), (9, 3, False), (2, 4, False)])
def test_distributed_sampler_partitions(n, replicas, drop_last):
    shares = [
        list(DistributedSampler(range(n), num_replicas=replicas, rank=r, shuffle=False, drop_last=drop_last))
        for r in range(replicas)
    ]
    assert len({len(s) for s in shares}) == 1
    assert len(shares[0]) == len(DistributedSampler(range(n), num_replicas=replicas, rank=0, drop_last=drop_last))
    flat = sorted(i for s in shares for i in s)
    if drop_last:
        assert len(flat) == (n // replicas) * replicas and len(set(flat)) == len(flat)
    else:
        assert set(flat) == set(range(n)) and len(flat) == -(-n // replicas) * replicas
    if (n, replicas, drop_last) == (10, 3, False):
        assert shares[1] == [1, 4, 7, 0]  # rank r takes r, r + replicas, ... of the padded indices


def test_distributed_sampler_shuffle_is_shared_across_ranks_and_epochs():
    def shares(epoch):
        out = []
        for r in range(2):
            s = DistributedSampler(range(11), num_replicas=2, rank=r, shuffle=True, seed=5)
            s.set_epoch(epoch)
            out.append(list(s))
        return out

    e0, e0_again, e1 = shares(0), shares(0), shares(1)
    assert e0 == e0_again and e0 != e1
    assert set(e0[0]) | set(e0[1]) == set(range(11))


def test_distributed_sampler_errors():
    with pytest.raises(ValueError, match=r"Invalid rank 2, rank should be in the interval \[0, 1\]"):
        DistributedSampler(range(4), num_replicas=2, rank=2)
    with pytest.raises((RuntimeError, ValueError)):
        DistributedSampler(range(4))  # no process group: upstream's ValueError, or RuntimeError without dist


def test_version_compares_as_a_version_and_is_a_str():
    from torch.torch_version import TorchVersion

    v = torch.__version__
    assert isinstance(v, str) and isinstance(v, TorchVersion)
    assert v >= (0, 1) and v > "0.0.9" and v < (999,) and v != "0.0.1"
    assert TorchVersion("1.10.0") > "1.9" and TorchVersion("1.10.0") > (1, 2, 1)  # not string order
    assert TorchVersion("2.0.0") == (2, 0) and {TorchVersion("1.0"): 1}["1.0"] == 1
