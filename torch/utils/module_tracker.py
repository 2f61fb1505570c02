"""torch.utils.module_tracker: which nn.Modules are running, in forward and in backward (upstream's ModuleTracker).

Global forward pre/post hooks add and remove each module's fully qualified name; multi-grad hooks on the
module's inputs and outputs do the same while backward runs through it.
"""

from __future__ import annotations

import logging
import weakref

from torch._C import Tensor
from torch.autograd.graph import current_pass, register_multi_grad_hook
from torch.autograd.variable import Variable
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
from torch.utils._pytree import tree_flatten

logger = logging.getLogger(__name__)

__all__ = ["ModuleTracker"]


class ModuleTracker:
    """A context manager that tracks the nn.Module hierarchy while it runs.

    ``parents`` is the set of the fully qualified names (as in ``state_dict``, rooted at the outermost module's
    class name) of every module whose forward (or backward) is running; it always holds ``"Global"``.
    ``is_bw`` tells whether a backward pass is running.

    Example::

        >>> mod = torch.nn.Sequential(torch.nn.Linear(2, 2))
        >>> with ModuleTracker() as tracker:
        ...     mod.register_forward_pre_hook(lambda m, args: print(tracker.parents))
        ...     out = mod(torch.rand(2, 2))
    """

    parents: set

    def __init__(self) -> None:
        """A tracker; enter it (``with``) to start tracking."""
        self.parents = {"Global"}
        self._known_modules: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._seen_modules: weakref.WeakSet = weakref.WeakSet()
        self._has_callback = False
        self._hooks: list = []

    def _maybe_set_engine_callback(self) -> None:
        # this assumes no concurrent calls to backward
        if self._has_callback:
            return

        def callback() -> None:
            self.parents = {"Global"}
            self._has_callback = False

        Variable._execution_engine.queue_callback(callback)
        self._has_callback = True

    @property
    def is_bw(self) -> bool:
        """Whether a backward pass is running (on this thread)."""
        return current_pass() is not None

    def _get_mod_name(self, mod) -> str:
        if mod not in self._known_modules:
            self._known_modules[mod] = type(mod).__name__
        mod_name = self._known_modules[mod]
        if mod not in self._seen_modules:
            for name, submod in mod.named_children():
                self._known_modules[submod] = f"{mod_name}.{name}"
                self._get_mod_name(submod)
            self._seen_modules.add(mod)
        return mod_name

    def _get_append_fn(self, name: str, is_bw: bool):
        def fn(*args) -> None:
            if is_bw:
                self._maybe_set_engine_callback()
            if name in self.parents:
                logger.info(
                    "The module hierarchy tracking seems to be broken as this Module was already entered. %s during %s",
                    name,
                    "backward" if is_bw else "forward",
                )
            self.parents.add(name)

        return fn

    def _get_pop_fn(self, name: str, is_bw: bool):
        def fn(*args) -> None:
            if name in self.parents:
                self.parents.remove(name)
            else:
                logger.info(
                    "The Module hierarchy tracking is confused as we're exiting a Module that was never entered. "
                    "%s during %s",
                    name,
                    "backward" if is_bw else "forward",
                )

        return fn

    def _fw_pre_hook(self, mod, input) -> None:
        name = self._get_mod_name(mod)
        self._get_append_fn(name, False)()
        args, _ = tree_flatten(input)
        tensors = [a for a in args if isinstance(a, Tensor) and a.requires_grad]
        if tensors:
            self._hooks.append(register_multi_grad_hook(tensors, self._get_pop_fn(name, True)))

    def _fw_post_hook(self, mod, input, output) -> None:
        name = self._get_mod_name(mod)
        self._get_pop_fn(name, False)()
        args, _ = tree_flatten(output)
        tensors = [a for a in args if isinstance(a, Tensor) and a.requires_grad]
        if tensors:
            self._hooks.append(register_multi_grad_hook(tensors, self._get_append_fn(name, True)))

    def __enter__(self):
        """Starts tracking: registers the global module hooks."""
        self._fw_pre_handle = register_module_forward_pre_hook(self._fw_pre_hook)
        self._fw_post_handle = register_module_forward_hook(self._fw_post_hook)
        return self

    def __exit__(self, *args) -> None:
        """Stops tracking: removes every hook it registered."""
        self._fw_pre_handle.remove()
        self._fw_post_handle.remove()
        for hook in self._hooks:
            hook.remove()
        self._hooks.clear()
