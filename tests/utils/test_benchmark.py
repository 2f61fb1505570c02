"""torch.utils.benchmark.Timer, Measurement and Compare as tutorials use them: the statistics of a Measurement,
the block sizes of blocked_autorange, the thread count restored, Compare's table. No timing thresholds (these
machines are noisy). Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import statistics

import pytest

import torch
import torch.utils.benchmark as benchmark


def _timer(**kwargs):
    return benchmark.Timer(
        stmt="x + y", globals={"x": torch.ones(8), "y": torch.ones(8)}, label="add", sub_label="8", **kwargs
    )


def test_timeit_measurement():
    m = _timer(description="f32").timeit(50)
    assert m.number_per_run == 50 and len(m.raw_times) == 1
    assert m.times == [m.raw_times[0] / 50]
    assert m.mean == m.median == m.times[0] > 0
    assert m.task_spec.stmt == "x + y" and m.title == "add: 8" and m.description == "f32"
    text = repr(m)
    assert "add: 8" in text and "1 measurement, 50 runs" in text


def test_blocked_autorange_statistics():
    m = _timer().blocked_autorange(min_run_time=0.05)
    assert len(m.times) >= 3 and m.number_per_run >= 1
    assert m.median == pytest.approx(statistics.median(m.times))
    assert m.iqr >= 0 and 1 <= m.significant_figures <= 4
    assert sum(m.raw_times) >= 0.05


def test_num_threads_is_pinned_for_the_run_and_restored():
    before = torch.get_num_threads()
    seen = []
    benchmark.Timer(stmt="seen.append(torch.get_num_threads())", globals={"seen": seen}, num_threads=1).timeit(3)
    assert set(seen) == {1}
    assert torch.get_num_threads() == before


def test_setup_runs_and_torch_is_in_the_namespace():
    m = benchmark.Timer(stmt="z.sum()", setup="z = torch.arange(10.0)").timeit(5)
    assert m.median > 0


def test_compare_table():
    results = [_timer(description=d).timeit(100) for d in ("f32", "again")]
    table = str(benchmark.Compare(results))
    assert "add" in table and "f32" in table and "again" in table and "Times are in" in table
