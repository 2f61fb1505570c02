"""torch._dynamo.eval_frame.OptimizedModule: what torch.compile returns for an nn.Module, as upstream's: the
original module is its submodule `_orig_mod` (so its state_dict keys carry the `_orig_mod.` prefix, as
checkpoints saved from compiled models do), its attributes are the original's, and calling it runs the
compiled forward (here: the original's, as torch.compile runs everything eagerly in this torch)."""

from __future__ import annotations

from torch.nn.modules.module import Module

__all__ = ["OptimizedModule"]


class OptimizedModule(Module):
    """A compiled nn.Module: `_orig_mod` is the module it wraps."""

    def __init__(self, mod: Module, dynamo_ctx=None) -> None:
        super().__init__()
        self._orig_mod = mod
        self.dynamo_ctx = dynamo_ctx

    def forward(self, *args, **kwargs):
        """The wrapped module's call (its hooks run inside it, as upstream's)."""
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name):
        if name == "_orig_mod":
            return self._modules["_orig_mod"]
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._orig_mod, name)
