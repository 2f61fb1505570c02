"""torch: a tensor library in the shape of PyTorch, built from the TH/THNN/THC/THCUNN libraries.

`import torch` loads the compiled extension torch._C (refusing a stale build with a clear
ImportError) and exposes its dtypes, Tensor class and generated op functions.
"""

from torch._loader import load_extension

_C = load_extension()

from torch._C import (  # noqa: E402
    Tensor,
    can_cast,
    device,
    dtype,
    from_numpy,
    get_default_dtype,
    get_num_threads,
    promote_types,
    set_default_dtype,
    set_num_threads,
)
from torch._size import Size  # noqa: E402

_C._register_size_type(Size)

# dtypes (torch.float32, torch.float, ...) and the generated op functions (torch.add, ...)
for _name in (
    "bool",
    "uint8",
    "int8",
    "int16",
    "short",
    "int32",
    "int",
    "int64",
    "long",
    "float32",
    "float",
    "float64",
    "double",
    "float16",
    "half",
    "bfloat16",
    "memory_format",
    "contiguous_format",
    "preserve_format",
    "channels_last",
    "channels_last_3d",
    *_C._function_names,
):
    globals()[_name] = getattr(_C, _name)
del _name

from torch import _shift, _tensor  # noqa: E402

_tensor.install()
_shift.install()

from torch import autograd  # noqa: E402
from torch.autograd import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: E402
from torch.autograd import tensor_api as _tensor_api  # noqa: E402
from torch.autograd.graph import install as _install_autograd  # noqa: E402

_tensor_api.install()
_install_autograd()
is_grad_enabled = _C.is_grad_enabled

from torch import _math_composites, _order_statistics, _stacking, _unique, backends, cuda, nn  # noqa: E402
from torch._clamp import clamp, clamp_  # noqa: E402
from torch._creation import as_tensor, tensor  # noqa: E402
from torch._math_composites import (  # noqa: E402
    addcdiv,
    addcmul,
    aminmax,
    count_nonzero,
    deg2rad,
    diff,
    isneginf,
    isposinf,
    logaddexp,
    nanmean,
    nansum,
    rad2deg,
    signbit,
    square,
    std_mean,
    trace,
    var_mean,
)
from torch._order_statistics import kthvalue, median, msort, nanmedian  # noqa: E402
from torch._stacking import (  # noqa: E402
    atleast_1d,
    atleast_2d,
    atleast_3d,
    cartesian_prod,
    column_stack,
    dsplit,
    dstack,
    fliplr,
    flipud,
    hsplit,
    hstack,
    meshgrid,
    rot90,
    tensor_split,
    vsplit,
    vstack,
)
from torch._unique import unique, unique_consecutive  # noqa: E402
from torch.functional import (  # noqa: E402
    broadcast_shapes,
    broadcast_tensors,
    broadcast_to,
    diagonal,
    einsum,
    finfo,
    from_dlpack,
    iinfo,
    is_floating_point,
    is_tensor,
    log_softmax,
    movedim,
    nonzero,
    norm,
    numel,
    softmax,
    split,
    where,
)
from torch.serialization import load, save  # noqa: E402

concat = concatenate = cat  # noqa: F821  (cat comes from torch._C above)
clip, clip_ = clamp, clamp_
row_stack = vstack
moveaxis = movedim
swapaxes = swapdims = transpose  # noqa: F821
from torch.random import (  # noqa: E402
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from torch.version import __version__  # noqa: E402

__all__ = [
    "Tensor",
    "Size",
    "dtype",
    "memory_format",
    "contiguous_format",
    "preserve_format",
    "channels_last",
    "channels_last_3d",
    "device",
    "tensor",
    "as_tensor",
    "from_numpy",
    "backends",
    "cuda",
    "nn",
    "autograd",
    "broadcast_shapes",
    "einsum",
    "finfo",
    "iinfo",
    "from_dlpack",
    "norm",
    "softmax",
    "log_softmax",
    "nonzero",
    "where",
    "split",
    "broadcast_to",
    "broadcast_tensors",
    "movedim",
    "moveaxis",
    "swapaxes",
    "swapdims",
    "diagonal",
    "is_tensor",
    "numel",
    "is_floating_point",
    "concat",
    "concatenate",
    "Generator",
    "manual_seed",
    "seed",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
    "default_generator",
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "is_grad_enabled",
    "get_default_dtype",
    "set_default_dtype",
    "promote_types",
    "can_cast",
    "get_num_threads",
    "set_num_threads",
    *_C._function_names,
    *_math_composites.__all__,
    *_stacking.__all__,
    *_order_statistics.__all__,
    *_unique.__all__,
    "row_stack",
    "save",
    "load",
    "clip",
    "clip_",
]
