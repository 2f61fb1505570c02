"""torch.profiler / torch.autograd.profiler as scripts use them: op events and record_function ranges, their
nesting, key_averages' counts, the table, the Chrome trace, schedules with on_trace_ready. Runs against
upstream PyTorch too (TORCH_REFERENCE): only what both record is asserted (op names as aten::<op>, counts of
ops called from Python)."""

from __future__ import annotations

import json
import warnings

import torch
from torch.profiler import ProfilerAction, ProfilerActivity, profile, record_function, schedule


def _work():
    a = torch.randn(32, 32)
    b = torch.randn(32, 32)
    for _ in range(3):
        a = a + b
    return (a @ b).sum()


def test_ops_and_ranges_are_recorded_with_counts():
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        with record_function("my_block"):
            _work()
    averages = {e.key: e for e in prof.key_averages()}
    assert averages["aten::add"].count == 3
    assert averages["my_block"].count == 1
    assert "aten::sum" in averages
    block = averages["my_block"]
    assert block.cpu_time_total >= block.self_cpu_time_total >= 0
    assert block.cpu_time_total >= averages["aten::add"].cpu_time_total
    events = prof.events()
    (block_event,) = [e for e in events if e.name == "my_block"]
    adds = [e for e in events if e.name == "aten::add"]
    outer = block_event.time_range
    assert all(outer.start <= e.time_range.start <= e.time_range.end <= outer.end for e in adds)
    assert [32, 32] in adds[0].input_shapes


def test_table_and_grouping_by_shapes():
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        torch.ones(2) + torch.ones(2)
        torch.ones(3) + torch.ones(3)
    table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=5)
    for column in ("Name", "Self CPU %", "CPU total", "# of Calls"):
        assert column in table
    assert "Self CPU time total:" in table
    by_shape = [e for e in prof.key_averages(group_by_input_shape=True) if e.key == "aten::add"]
    assert len(by_shape) == 2 and all(e.count == 1 for e in by_shape)


def test_chrome_trace(tmp_path):
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        with record_function("traced"):
            torch.ones(4).mul(2)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    names = {e["name"] for e in trace["traceEvents"]}
    assert "traced" in names and "aten::mul" in names


def test_record_function_outside_a_profile_and_as_decorator():
    with record_function("nothing_running"):
        x = torch.ones(2) * 2
    assert x.sum().item() == 4

    @record_function("decorated")
    def f(t):
        return t + 1

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        f(torch.ones(1))
    assert "decorated" in {e.key for e in prof.key_averages()}


def test_schedule_actions_match_upstreams():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn = schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)
    got = [fn(i) for i in range(7)]
    N, W, R, S = ProfilerAction.NONE, ProfilerAction.WARMUP, ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE
    assert got == [N, N, W, R, S, N, N]


def test_schedule_with_on_trace_ready_saves_each_cycle():
    saved = []
    with profile(
        activities=[ProfilerActivity.CPU],
        schedule=schedule(wait=1, warmup=1, active=1, repeat=2),
        on_trace_ready=lambda p: saved.append({e.key for e in p.key_averages()}),
    ) as prof:
        for step in range(8):
            torch.ones(2).add(step)
            prof.step()
    assert len(saved) == 2 and all("aten::add" in keys for keys in saved)


def test_legacy_autograd_profiler():
    with torch.autograd.profiler.profile() as prof:
        torch.ones(3).neg()
    assert "aten::neg" in {e.key for e in prof.key_averages()}
    assert isinstance(prof.self_cpu_time_total, float)
    assert len(torch.autograd.profiler.profile().key_averages()) == 0  # never run: no events


def test_ops_are_unchanged_after_profiling():
    add = torch.add
    method = torch.Tensor.add
    with profile(activities=[ProfilerActivity.CPU]):
        pass
    assert torch.add is add and torch.Tensor.add is method
    torch.testing.assert_close(torch.ones(1) + 1, torch.full((1,), 2.0))


def test_legacy_profiler_records_the_ops():
    import torch.autograd.profiler_legacy as profiler_legacy

    x = torch.randn(8, 8)
    with profiler_legacy.profile(record_shapes=True) as prof:
        torch.mm(x, x).sum()
    names = {event.key for event in prof.key_averages()}
    assert {"aten::mm", "aten::sum"} <= names
    assert "aten::mm" in prof.key_averages().table()
