"""torch.nn: neural-network building blocks: Module and its layers, Parameter, functional, init, utils,
grad (convolution gradients) and parallel (DataParallel)."""

from torch.nn import attention, functional, grad, init, parallel, utils
from torch.nn import common_types as common_types
from torch.nn.modules import *  # noqa: F403
from torch.nn.modules import __all__ as _modules_all
from torch.nn.parallel import DataParallel
from torch.nn.parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = [
    "Buffer",
    "DataParallel",
    "Parameter",
    "UninitializedBuffer",
    "UninitializedParameter",
    "attention",
    "functional",
    "grad",
    "init",
    "parallel",
    "utils",
] + list(_modules_all)
