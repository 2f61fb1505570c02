"""torch.cuda.memory: the caching allocator's figures (PyTorch's names and keys) and its controls. Bytes
are counted in the allocator's blocks (each request rounded up to 512 bytes); 'reserved' is what it took
from the driver and keeps (live blocks and its cache), which empty_cache() gives back."""

from __future__ import annotations

from torch import _C

__all__ = [
    "OutOfMemoryError",
    "empty_cache",
    "max_memory_allocated",
    "max_memory_reserved",
    "memory_allocated",
    "memory_reserved",
    "memory_stats",
    "memory_summary",
    "reset_max_memory_allocated",
    "reset_peak_memory_stats",
]

OutOfMemoryError = _C._OutOfMemoryError
OutOfMemoryError.__doc__ = """A GPU allocation failed even after the allocator gave its cache back (a RuntimeError);
the message says what was asked for, the GPU's capacity and free memory, and what this process holds."""
OutOfMemoryError.__module__ = "torch"  # torch.OutOfMemoryError too, as upstream


def _index(device) -> int:
    from torch.cuda import _device_index

    return _device_index(device)


def empty_cache() -> None:
    """Releases cached, unused GPU memory held by the caching allocator."""
    _C._cuda_empty_cache()


def memory_stats(device=None) -> dict:
    """The allocator's figures for `device` under PyTorch's keys: allocated_bytes / active_bytes /
    reserved_bytes (.all.current, .all.peak, .all.allocated, .all.freed), allocation.all.*, num_alloc_retries,
    num_ooms. Empty without a CUDA build."""
    if not _C._cuda_is_compiled():
        return {}
    s = _C._cuda_memory_stats(_index(device))
    out = {}
    for key in ("allocated_bytes", "active_bytes"):
        out[f"{key}.all.current"] = s["allocated"]
        out[f"{key}.all.peak"] = s["allocated_peak"]
    out["reserved_bytes.all.current"] = s["reserved"]
    out["reserved_bytes.all.peak"] = s["reserved_peak"]
    out["allocation.all.current"] = s["allocations"] - s["frees"]
    out["allocation.all.allocated"] = s["allocations"]
    out["allocation.all.freed"] = s["frees"]
    out["num_alloc_retries"] = s["alloc_retries"]
    out["num_ooms"] = s["ooms"]
    return dict(sorted(out.items()))


def memory_allocated(device=None) -> int:
    """Bytes of GPU memory held by live tensors on `device`."""
    return memory_stats(device).get("allocated_bytes.all.current", 0)


def max_memory_allocated(device=None) -> int:
    """The most bytes live tensors held on `device` since the start or reset_peak_memory_stats()."""
    return memory_stats(device).get("allocated_bytes.all.peak", 0)


def memory_reserved(device=None) -> int:
    """Bytes the allocator holds on `device` (live tensors and its cache)."""
    return memory_stats(device).get("reserved_bytes.all.current", 0)


def max_memory_reserved(device=None) -> int:
    """The most bytes the allocator held on `device` since the start or reset_peak_memory_stats()."""
    return memory_stats(device).get("reserved_bytes.all.peak", 0)


def reset_peak_memory_stats(device=None) -> None:
    """Sets the peaks of `device` (max_memory_allocated, max_memory_reserved) to the current figures."""
    if _C._cuda_is_compiled():
        _C._cuda_reset_peak_memory_stats(_index(device))


def reset_max_memory_allocated(device=None) -> None:
    """reset_peak_memory_stats (PyTorch's older name)."""
    reset_peak_memory_stats(device)


def _size(n: int) -> str:
    for unit in ("B  ", "KiB", "MiB", "GiB"):
        if abs(n) < 768 * 1024 or unit == "GiB":
            return f"{n:6d} {unit}"
        n //= 1024
    return f"{n:6d} TiB"


def memory_summary(device=None, abbreviated: bool = False) -> str:
    """A table of the allocator's figures for `device`, in the layout of PyTorch's memory_summary."""
    s = memory_stats(device)
    index = _index(device)
    rule, line = "=" * 75, "-" * 75
    rows = [
        rule,
        f" {'':16} PyTorch CUDA memory summary, device ID {index:<17d} ",
        line,
        f"  {'':9} CUDA OOMs: {s.get('num_ooms', 0):<12d} | {'':6} cudaMalloc retries: "
        f"{s.get('num_alloc_retries', 0):<8d}  ",
        rule,
        "        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ",
    ]
    for key, name in (("allocated_bytes", "Allocated memory"), ("reserved_bytes", "GPU reserved memory")):
        cur, peak = s.get(f"{key}.all.current", 0), s.get(f"{key}.all.peak", 0)
        rows += [line, f" {name:<21} | {_size(cur)} | {_size(peak)} | {'':10} | {'':10} "]
    n_all, n_freed = s.get("allocation.all.allocated", 0), s.get("allocation.all.freed", 0)
    rows += [
        line,
        f" {'Allocations':<21} | {n_all - n_freed:7d}    | {'':10} | {n_all:7d}    | {n_freed:7d}    ",
        rule,
        "",
    ]
    return "\n".join(rows)
