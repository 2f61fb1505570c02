"""torch.autograd.profiler_legacy: the pre-Kineto ``profile`` (deprecated upstream in favour of torch.profiler).

Here it is the one profiler of torch.autograd.profiler with the legacy constructor's arguments: the same events,
``key_averages()``, ``table()`` and Chrome traces.
"""

from __future__ import annotations

from torch.autograd import profiler as _profiler

__all__ = ["profile"]


class profile(_profiler.profile):  # noqa: N801  (upstream's name)
    """DEPRECATED: use torch.profiler instead. Records the ops called while it is entered."""

    def __init__(
        self,
        enabled=True,
        *,
        use_cuda=False,
        record_shapes=False,
        with_flops=False,
        profile_memory=False,
        with_stack=False,
        with_modules=False,
    ):
        """The legacy profiler's arguments (no use_device, use_kineto or experimental_config)."""
        super().__init__(
            enabled,
            use_cuda=use_cuda,
            record_shapes=record_shapes,
            with_flops=with_flops,
            profile_memory=profile_memory,
            with_stack=with_stack,
            with_modules=with_modules,
        )
