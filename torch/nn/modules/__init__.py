"""The layers of torch.nn, one file per concept as in PyTorch."""

from torch.nn.modules.activation import *  # noqa: F403
from torch.nn.modules.adaptive import *  # noqa: F403
from torch.nn.modules.batchnorm import *  # noqa: F403
from torch.nn.modules.container import *  # noqa: F403
from torch.nn.modules.conv import *  # noqa: F403
from torch.nn.modules.distance import *  # noqa: F403
from torch.nn.modules.dropout import *  # noqa: F403
from torch.nn.modules.flatten import *  # noqa: F403
from torch.nn.modules.fold import *  # noqa: F403
from torch.nn.modules.instancenorm import *  # noqa: F403
from torch.nn.modules.lazy import *  # noqa: F403
from torch.nn.modules.linear import *  # noqa: F403
from torch.nn.modules.linear_cross_entropy import *  # noqa: F403
from torch.nn.modules.loss import *  # noqa: F403
from torch.nn.modules.module import Module
from torch.nn.modules.normalization import *  # noqa: F403
from torch.nn.modules.padding import *  # noqa: F403
from torch.nn.modules.pixelshuffle import *  # noqa: F403
from torch.nn.modules.pooling import *  # noqa: F403
from torch.nn.modules.sparse import *  # noqa: F403
from torch.nn.modules.upsampling import *  # noqa: F403

try:  # the sequence models, when present
    from torch.nn.modules.rnn import *  # noqa: F403
    from torch.nn.modules.transformer import *  # noqa: F403
except ImportError:  # pragma: no cover
    pass

__all__ = [name for name in dir() if name[0].isupper()] + ["Module"]
