"""torch: a tensor library in the shape of PyTorch, built from the TH/THNN/THC/THCUNN libraries.

`import torch` loads the compiled extension torch._C (refusing a stale build with a clear
ImportError) and exposes its dtypes, Tensor class and generated op functions; then the Python
functions and methods, each registered next to its definition (torch/_registry.py): composites by
family in torch/_refs/, Tensor's protocols in _tensor.py and _tensor_str.py, dtype limits in
_type_info.py, the autograd API in autograd/tensor_api.py.
"""

from types import ModuleType as _ModuleType

from torch._loader import load_extension

_C = load_extension()

from torch._C import (  # noqa: E402
    Tensor,
    can_cast,
    channels_last,
    channels_last_3d,
    contiguous_format,
    device,
    dtype,
    from_numpy,
    get_default_dtype,
    get_num_threads,
    is_grad_enabled,
    memory_format,
    preserve_format,
    promote_types,
    set_default_dtype,
    set_num_threads,
)
from torch._dtypes import ATTRIBUTES as _DTYPES  # noqa: E402
from torch._size import Size  # noqa: E402

_C._register_size_type(Size)
globals().update(_DTYPES)  # torch.float32, torch.float, ...
globals().update((name, getattr(_C, name)) for name in _C._function_names)  # the generated ops: torch.add, ...

# the modules that register torch's Python functions and Tensor's Python methods
from torch import _lobpcg, _lowrank, _refs, _registry, _tensor, _tensor_str, _type_info, storage  # noqa: E402, F401
from torch.autograd import _recording  # noqa: E402
from torch.autograd import tensor_api as _tensor_api  # noqa: E402, F401
from torch.linalg import _legacy  # noqa: E402, F401

_registry.install(globals(), Tensor)
_recording.install()
_refs.deterministic_fill.install(globals(), Tensor)  # torch.empty & co. fill under use_deterministic_algorithms

from torch import (  # noqa: E402
    __config__,
    amp,
    autograd,
    backends,
    compiler,
    cpu,
    cuda,
    distributed,
    distributions,
    fft,
    func,
    functional,
    hub,
    jit,
    linalg,
    multiprocessing,
    nn,
    optim,
    profiler,
    quasirandom,
    signal,
    special,
    testing,
    types,
    utils,
)
from torch.amp._scaling import _amp_foreach_non_finite_check_and_unscale_, _amp_update_scale_  # noqa: E402, F401
from torch.amp.autocast_mode import (  # noqa: E402
    autocast,
    autocast_decrement_nesting,
    autocast_increment_nesting,
    clear_autocast_cache,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    get_autocast_gpu_dtype,
    is_autocast_cache_enabled,
    is_autocast_cpu_enabled,
    is_autocast_enabled,
    set_autocast_cache_enabled,
    set_autocast_cpu_dtype,
    set_autocast_cpu_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
    set_autocast_gpu_dtype,
)
from torch.autograd import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: E402
from torch.autograd.anomaly_mode import (  # noqa: E402
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
)
from torch.compiler import compile  # noqa: E402
from torch.cuda.memory import OutOfMemoryError  # noqa: E402
from torch.func import vmap  # noqa: E402
from torch.random import (  # noqa: E402
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from torch.serialization import STORAGE_CLASSES as _STORAGE_CLASSES  # noqa: E402
from torch.serialization import load, save  # noqa: E402
from torch.signal import windows as windows  # noqa: E402  (upstream has torch.windows too)
from torch.utils import _pytree  # noqa: F401
from torch.utils import checkpoint as _checkpoint  # noqa: E402, F401  (torch.utils.data, .checkpoint)
from torch.utils import data as _data
from torch.utils import dlpack as _dlpack  # noqa: F401  (torch.utils.dlpack, torch.utils._pytree)

globals().update(_STORAGE_CLASSES)  # torch.FloatStorage, ...: the storage types checkpoints name
from torch.storage import TypedStorage, UntypedStorage  # noqa: E402
from torch.torch_version import __version__  # noqa: E402  (a TorchVersion: compares as a version)

# torch's API is every public name above, but the dtypes (`from torch import *` would shadow the builtins
# float, int and bool), the loader and the submodules (as upstream's: `from torch import *` binds no `nn`, and no
# `types` over the standard library's)
__all__ = [
    name
    for name in globals()
    if not name.startswith("_")
    and name not in _DTYPES
    and name != "load_extension"
    and not isinstance(globals()[name], _ModuleType)
]
