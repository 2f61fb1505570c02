"""torch.testing: ``assert_close`` (PyTorch's tolerances and reports) and ``make_tensor``."""

from torch.testing._comparison import assert_close
from torch.testing._creation import make_tensor
from torch.testing._deprecated import assert_allclose

__all__ = ["assert_allclose", "assert_close", "make_tensor"]
