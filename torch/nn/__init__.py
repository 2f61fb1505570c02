"""torch.nn: neural-network building blocks: Module and its layers, Parameter, functional, init, utils."""

from torch.nn import functional, init, utils
from torch.nn.modules import *  # noqa: F403
from torch.nn.modules import __all__ as _modules_all
from torch.nn.parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = [
    "Buffer",
    "Parameter",
    "UninitializedBuffer",
    "UninitializedParameter",
    "functional",
    "init",
    "utils",
] + list(_modules_all)
