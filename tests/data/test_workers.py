"""DataLoader with worker processes: same batches as in-process, worker info and seeds, persistent workers,
iterable sharding, errors (exceptions, killed workers, timeouts) and no leftover processes.

Workers are forked (Linux's default start method); each test keeps its datasets tiny.
"""

import gc
import glob
import os
import random
import signal
import time

import numpy as np
import pytest

import torch
from torch.utils.data import DataLoader, IterableDataset, TensorDataset, get_worker_info

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def alive(pid):
    """Whether process `pid` still exists (a zombie counts: it was not reaped)."""
    return os.path.exists(f"/proc/{pid}")


class WhoAmI:
    """Sample i: (i, the worker's pid, id, num_workers, seed, torch/random/numpy draws)."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        return {
            "i": i,
            "pid": os.getpid(),
            "id": info.id,
            "num_workers": info.num_workers,
            "seed": info.seed,
            "initial_seed": torch.initial_seed(),
            "random": random.random(),
            "numpy": float(np.random.rand()),
            "dataset": type(info.dataset).__name__,
            "init": os.environ.get("DL_TEST_INIT", "-"),
        }


def mark_init(worker_id):
    os.environ["DL_TEST_INIT"] = str(worker_id)


class Failing:
    def __len__(self):
        return 6

    def __getitem__(self, i):
        if i == 3:
            raise ValueError(f"bad sample {i}")
        return i


class Dying:
    def __len__(self):
        return 6

    def __getitem__(self, i):
        if i == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return i


class Slow:
    def __len__(self):
        return 2

    def __getitem__(self, i):
        time.sleep(0.5)
        return i


class Shards(IterableDataset):
    """range(start, end), split between the workers in contiguous shards (PyTorch's documented recipe)."""

    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return iter(range(self.start, self.end))
        per_worker = -(-(self.end - self.start) // info.num_workers)
        lo = self.start + info.id * per_worker
        return iter(range(lo, min(lo + per_worker, self.end)))


def test_two_workers_give_the_batches_of_zero_workers():
    ds = TensorDataset(torch.randn(37, 3, 4), torch.arange(37))

    def batches(num_workers):
        g = torch.Generator().manual_seed(11)
        loader = DataLoader(ds, batch_size=5, shuffle=True, generator=g, num_workers=num_workers)
        return list(loader)

    serial, parallel = batches(0), batches(2)
    assert len(serial) == len(parallel) == 8
    for (x0, y0), (x2, y2) in zip(serial, parallel):
        assert torch.equal(x0, x2) and torch.equal(y0, y2)
        assert x2.dtype == torch.float32 and x2.shape[1:] == (3, 4)
    shm = "/dev/shm"
    if os.path.isdir(shm):  # the batches' shared memory is not left behind
        assert not [p for p in glob.glob(f"{shm}/torch_*") if str(os.getpid()) in p]


def test_worker_info_seeds_and_no_leftover_processes():
    assert get_worker_info() is None
    loader = DataLoader(WhoAmI(), batch_size=None, num_workers=2, worker_init_fn=mark_init)
    samples = list(loader)
    assert [s["i"] for s in samples] == list(range(8))
    by_id = {s["id"]: s for s in samples}
    assert sorted(by_id) == [0, 1] and all(s["num_workers"] == 2 and s["dataset"] == "WhoAmI" for s in samples)
    assert [s["id"] for s in samples] == [0, 1] * 4  # tasks are dealt round-robin
    assert by_id[1]["seed"] == by_id[0]["seed"] + 1  # base_seed + worker id
    assert all(s["initial_seed"] == s["seed"] for s in samples)  # torch is seeded with it
    assert by_id[0]["random"] != by_id[1]["random"] and by_id[0]["numpy"] != by_id[1]["numpy"]
    assert all(s["init"] == str(s["id"]) for s in samples)  # worker_init_fn ran in each worker
    pids = {s["pid"] for s in samples}
    assert len(pids) == 2 and os.getpid() not in pids
    assert not any(alive(pid) for pid in pids)  # an epoch that ran out shuts its workers down


def test_iterator_deleted_mid_epoch_leaves_no_process():
    it = iter(DataLoader(WhoAmI(), batch_size=None, num_workers=2))
    pid = next(it)["pid"]
    del it
    gc.collect()
    deadline = time.time() + 10
    while alive(pid) and time.time() < deadline:
        time.sleep(0.05)
    assert not alive(pid)


def test_persistent_workers_across_epochs():
    loader = DataLoader(WhoAmI(), batch_size=4, num_workers=2, persistent_workers=True)
    first = list(loader)
    second = list(loader)
    assert [b["i"].tolist() for b in first] == [[0, 1, 2, 3], [4, 5, 6, 7]] == [b["i"].tolist() for b in second]
    pids = {p for b in first for p in b["pid"].tolist()}
    assert pids == {p for b in second for p in b["pid"].tolist()} and len(pids) == 2
    assert all(alive(pid) for pid in pids)
    half = iter(loader)  # an epoch abandoned halfway, then a full one
    next(half)
    assert [b["i"].tolist() for b in loader] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    del loader, half
    gc.collect()
    deadline = time.time() + 10
    while any(alive(pid) for pid in pids) and time.time() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in pids)


def test_iterable_dataset_sharded_by_worker_info():
    loader = DataLoader(Shards(0, 10), batch_size=2, num_workers=2)
    batches = [b.tolist() for b in loader]
    assert sorted(i for b in batches for i in b) == list(range(10))
    assert batches[:2] == [[0, 1], [5, 6]]  # one batch from each worker in turn
    assert list(DataLoader(Shards(0, 3), batch_size=None, num_workers=2)) == [0, 2, 1]


def test_worker_exception_is_reraised_with_its_traceback():
    loader = DataLoader(Failing(), batch_size=None, num_workers=2)
    got = []
    with pytest.raises(ValueError) as info:
        for x in loader:
            got.append(x)
    message = str(info.value)
    assert message.startswith("Caught ValueError in DataLoader worker process 1.\nOriginal Traceback")
    assert "bad sample 3" in message and "__getitem__" in message
    assert got == [0, 1, 2]


def test_killed_worker_raises_instead_of_hanging():
    loader = DataLoader(Dying(), batch_size=None, num_workers=2, prefetch_factor=1)
    start = time.time()
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid\(s\) \d+\) exited unexpectedly"):
        list(loader)
    assert time.time() - start < 25  # upstream polls every 5 s; ours wakes on the worker's exit


def test_timeout():
    it = iter(DataLoader(Slow(), batch_size=None, num_workers=1, timeout=0.2))
    try:
        next(it)
    except RuntimeError as e:
        message = str(e)
    else:
        message = "no error"
    del it
    assert message == "DataLoader timed out after 0.2 seconds"


def test_multiprocessing_context_by_name():
    loader = DataLoader(list(range(4)), batch_size=2, num_workers=1, multiprocessing_context="fork")
    assert [b.tolist() for b in loader] == [[0, 1], [2, 3]]
