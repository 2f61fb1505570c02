"""torch.utils.deterministic: ``fill_uninitialized_memory``, whether the memory that ``torch.empty`` and its kin
return (and that ``resize_`` adds) is filled with a known value (NaN, or an integer dtype's largest value) while
``torch.use_deterministic_algorithms(True)`` is in force. True by default, as upstream."""

import sys
import types

from torch._refs import settings as _settings


class _Deterministic(types.ModuleType):
    @property
    def fill_uninitialized_memory(self):
        """Whether uninitialized memory is filled with a known value under use_deterministic_algorithms(True)."""
        return _settings._get_fill_uninitialized_memory()

    @fill_uninitialized_memory.setter
    def fill_uninitialized_memory(self, mode):
        _settings._set_fill_uninitialized_memory(mode)


sys.modules[__name__].__class__ = _Deterministic
