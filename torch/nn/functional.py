"""torch.nn.functional: stateless NN ops. Each family lives in torch/nn/_functional/<family>.py as a composite
of torch ops (with PyTorch's signature and input checks) until a THNN/THCUNN kernel replaces it."""

from __future__ import annotations

from torch._C import Tensor  # noqa: F401  (upstream's module has it: annotations written F.Tensor)
from torch.nn._functional._utils import assert_int_or_pair  # noqa: F401  (upstream's F has this helper)
from torch.nn._functional.activation import *  # noqa: F403
from torch.nn._functional.activation import __all__ as _activation
from torch.nn._functional.attention import *  # noqa: F403
from torch.nn._functional.attention import __all__ as _attention
from torch.nn._functional.conv import *  # noqa: F403
from torch.nn._functional.conv import __all__ as _conv
from torch.nn._functional.distance import *  # noqa: F403
from torch.nn._functional.distance import __all__ as _distance
from torch.nn._functional.dropout import *  # noqa: F403
from torch.nn._functional.dropout import __all__ as _dropout
from torch.nn._functional.grouped_mm import *  # noqa: F403
from torch.nn._functional.grouped_mm import __all__ as _grouped_mm
from torch.nn._functional.linear import *  # noqa: F403
from torch.nn._functional.linear import __all__ as _linear
from torch.nn._functional.linear_cross_entropy import *  # noqa: F403
from torch.nn._functional.linear_cross_entropy import __all__ as _linear_cross_entropy
from torch.nn._functional.loss import *  # noqa: F403
from torch.nn._functional.loss import __all__ as _loss
from torch.nn._functional.normalization import *  # noqa: F403
from torch.nn._functional.normalization import __all__ as _normalization
from torch.nn._functional.padding import *  # noqa: F403
from torch.nn._functional.padding import __all__ as _padding
from torch.nn._functional.pooling import *  # noqa: F403
from torch.nn._functional.pooling import __all__ as _pooling
from torch.nn._functional.scaled_mm import *  # noqa: F403
from torch.nn._functional.scaled_mm import __all__ as _scaled_mm
from torch.nn._functional.scaled_mm import _ScalingType, _SwizzleType  # noqa: F401  (upstream's names too)
from torch.nn._functional.sparse import *  # noqa: F403
from torch.nn._functional.sparse import __all__ as _sparse
from torch.nn._functional.vision import *  # noqa: F403
from torch.nn._functional.vision import __all__ as _vision

__all__ = sorted(
    _activation + _attention + _conv + _distance + _dropout + _grouped_mm + _linear + _linear_cross_entropy + _loss
    + _normalization + _padding + _pooling + _scaled_mm + _sparse + _vision
)  # fmt: skip
