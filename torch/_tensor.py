"""The Python-level part of torch.Tensor: operators, conversions, Python protocols (pickle, copy,
DLPack, NumPy), and the torch functions that ask what a tensor is (is_tensor, numel, is_floating_point).

The class itself is torch._C.Tensor (ops are generated bindings); each method here is added with
torch._registry.register. Composites with a method form live in torch/_refs/, printing in
torch/_tensor_str.py, the autograd API in torch/autograd/tensor_api.py.
"""

from __future__ import annotations

import copyreg
import warnings

import torch
from torch import _C
from torch._C import Tensor
from torch._dtypes import BY_DTYPE, BY_LEGACY_TYPE, DTYPES, cpp_type_name
from torch._registry import register


def host_values(t: Tensor):
    """The values of `t` as a NumPy array in host memory (bfloat16, which NumPy lacks, as float32)."""
    t = t.detach().cpu().resolve_conj()
    return (t.float() if BY_DTYPE[t.dtype].numpy is None else t).numpy()


# ---- the bound functions (torch.tanh, torch._C._nn.gelu, Tensor.add) pickle and deep-copy by reference, as
# builtin functions do (a module holding torch.tanh, e.g. a TransformerEncoderLayer's activation, deep-copies)


def _function_by_path(path: str):
    """The torch function or Tensor method named by `path` ("torch._C._nn.gelu", "torch.Tensor.add")."""
    obj = torch
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _reduce_function(f):
    qualname = getattr(f, "__qualname__", f.__name__)
    owner = "torch" if qualname.startswith("Tensor.") else f.__module__
    return _function_by_path, (f"{owner}.{qualname}",)


copyreg.pickle(type(_C.tanh), _reduce_function)
copyreg.pickle(type(Tensor.add), _reduce_function)


# ---- operators: the C++ methods take tensors and Python numbers


def _reflected(op: str, commutative: bool):
    """`other <op> self` for a Python number on the left (torch.<op>(other, self), or self.<op>(other) for a
    commutative op); NotImplemented for an operand the op does not take, so that Python asks the other side
    ((2, 3) * t repeats the tuple t times, as upstream)."""
    fn = getattr(Tensor, op) if commutative else getattr(_C, op)

    def method(self, other):
        try:
            return fn(self, other) if commutative else fn(other, self)
        except TypeError:
            if isinstance(other, (Tensor, int, float, bool, complex)):
                raise
            return NotImplemented

    method.__name__ = f"__r{op}__"
    return method


def _comparison(op: str):
    """`self <op> other`; anything that is not a tensor or a number compares as NotImplemented
    (so `t == None` is False, as in PyTorch)."""
    fn = getattr(Tensor, op)

    def method(self, other):
        if isinstance(other, (Tensor, int, float, bool, complex)):
            return fn(self, other)
        return NotImplemented

    method.__name__ = f"__{op}__"
    return method


# Python operator -> (op, reflected form when the op is commutative)
_OPERATORS = {
    "add": ("add", "add"),
    "sub": ("sub", None),
    "mul": ("mul", "mul"),
    "truediv": ("div", None),
    "floordiv": ("floor_divide", None),
    "mod": ("remainder", None),
    "pow": ("pow", None),
    "and": ("bitwise_and", "bitwise_and"),
    "or": ("bitwise_or", "bitwise_or"),
    "xor": ("bitwise_xor", "bitwise_xor"),
    "lshift": ("bitwise_left_shift", None),
    "rshift": ("bitwise_right_shift", None),
    "matmul": ("matmul", None),
}

for _dunder, (_op, _commutative) in _OPERATORS.items():
    # the op's method, NotImplemented for an operand that is neither a tensor nor a number (torch/csrc/Operators.cpp)
    register(_C._operator(getattr(Tensor, _op), f"__{_dunder}__"), name=f"__{_dunder}__", function=False, method=True)
    register(
        _reflected(_commutative or _op, commutative=_commutative is not None),
        name=f"__r{_dunder}__",
        function=False,
        method=True,
    )
    if hasattr(Tensor, _op + "_"):  # `a @= b` falls back to `a = a @ b`, as in PyTorch
        register(_C._operator(getattr(Tensor, _op + "_"), f"__i{_dunder}__"), name=f"__i{_dunder}__", function=False,
                 method=True)  # fmt: skip
for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    register(_comparison(_op), function=False, method=True)
register(object.__hash__, name="__hash__", function=False, method=True)  # defining __eq__ would drop it
register(Tensor.neg, name="__neg__", function=False, method=True)
register(Tensor.abs, name="__abs__", function=False, method=True)


@register(name="__invert__", function=False, method=True)
def _invert(self: Tensor) -> Tensor:
    """~t: bitwise_not of an integer or bool tensor (upstream's TypeError for the others)."""
    if self.dtype.is_floating_point or self.dtype.is_complex:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return self.bitwise_not()


@register(name="__pos__", function=False, method=True)
def _pos(self: Tensor) -> Tensor:
    """+t is t."""
    return self


# ---- conversions


def _converter(dtype, name: str):
    """The method t.<name>(*, memory_format=torch.preserve_format): t.to(dtype, memory_format=memory_format)."""

    def convert(self: Tensor, *, memory_format=_C.preserve_format) -> Tensor:
        return self.to(dtype, memory_format=memory_format)

    convert.__name__ = convert.__qualname__ = name
    convert.__doc__ = f"self as {dtype} (self itself when it is one), laid out as memory_format asks."
    return convert


for _d in (d for d in DTYPES if not d.barebones):  # t.float(), t.long(), ...
    register(_converter(_d.dtype, _d.method), name=_d.method, function=False, method=True)


@register(name="item", function=False, method=True)
def _item(self: Tensor):
    """The value of a one-element tensor as a Python number."""
    if self.numel() != 1:
        raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
    return host_values(self).reshape(()).item()


@register(function=False, method=True)
def tolist(self: Tensor):
    """The tensor as (nested) Python lists."""
    return host_values(self).tolist()


@register(name="type", function=False, method=True)
def _type(self: Tensor, dtype=None, non_blocking: bool = False):
    """With no dtype, the legacy type name ('torch.FloatTensor', 'torch.cuda.HalfTensor'); else
    the tensor converted to `dtype` (a torch.dtype or such a name)."""
    if dtype is None:
        name = BY_DTYPE[self.dtype].legacy_type
        return f"torch.cuda.{name}" if self.device.type == "cuda" else f"torch.{name}"
    if isinstance(dtype, str):
        name = dtype.rsplit(".", 1)[-1]
        if name not in BY_LEGACY_TYPE:
            raise ValueError(f"invalid type: '{dtype}'")
        device = "cuda" if ".cuda." in dtype else "cpu"
        return self.to(device, BY_LEGACY_TYPE[name].dtype, non_blocking)
    if isinstance(dtype, type) and isinstance(getattr(dtype, "dtype", None), torch.dtype):  # torch.cuda.FloatTensor
        device = "cuda" if getattr(dtype, "is_cuda", False) else "cpu"
        return self.to(device, dtype.dtype, non_blocking)
    return self.to(dtype, non_blocking=non_blocking)


@register(function=False, method=True)
def type_as(self: Tensor, other: Tensor) -> Tensor:
    """self converted to other's dtype."""
    return self.to(other.dtype)


@register(function=False, method=True)
def cpu(self: Tensor, memory_format=None) -> Tensor:
    """This tensor in CPU memory (itself if already there and laid out as memory_format asks)."""
    return self.to("cpu", memory_format=memory_format)


@register(function=False, method=True)
def cuda(self: Tensor, device=None, non_blocking: bool = False, memory_format=None) -> Tensor:
    """This tensor in GPU memory (the current GPU when `device` is None); with `non_blocking`, a copy
    from pinned memory is only queued on the current stream."""
    target = torch.device("cuda", device) if isinstance(device, int) else device or "cuda"
    return self.to(target, non_blocking=non_blocking, memory_format=memory_format)


@register(function=False, method=True)
def pin_memory(self: Tensor, device=None) -> Tensor:
    """A copy of this CPU tensor in pinned (page-locked) memory, itself if it already is: copies from it
    to the GPU run at full speed and, with non_blocking=True, overlap with other work."""
    if self.device.type != "cpu":
        raise RuntimeError(f"cannot pin '{self.type()}' only dense CPU tensors can be pinned")
    if _C._is_pinned(self):
        return self
    # self's very strides (a transposed or channels_last tensor stays so), as upstream's
    out = torch.empty_strided(tuple(self.shape), self.stride(), dtype=self.dtype, pin_memory=True)
    return out.copy_(self)  # differentiable, as a copy


@register(function=False, method=True)
def is_pinned(self: Tensor, device=None) -> bool:
    """Whether this is a CPU tensor in pinned memory."""
    return _C._is_pinned(self)


@register(function=False, method=True)
def record_stream(self: Tensor, s) -> None:
    """Marks this CUDA tensor's memory as used by stream `s`: once freed, it is not reused until the work
    queued on `s` by then has finished (for tensors made on one stream and used on another)."""
    if self.device.type != "cuda":
        raise RuntimeError(f"record_stream expects a CUDA tensor, got one on {self.device}")
    _C._cuda_record_stream(self, s.cuda_stream)


_numpy = Tensor.numpy  # the binding (a view of the memory), before numpy() below replaces it


@register(function=False, method=True)
def numpy(self: Tensor, *, force: bool = False):
    """A NumPy array sharing this tensor's memory. A tensor that requires grad is refused (detach() it first),
    as upstream; force=True detaches and copies to the CPU first (then the memory may not be shared)."""
    if force:
        return _numpy(self.detach().cpu().resolve_conj())
    if self.requires_grad:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    return _numpy(self)


@register(name="__array__", function=False, method=True)
def _array(self: Tensor, dtype=None):
    """np.asarray(t): the values in a NumPy array (of `dtype` if given)."""
    arr = self.cpu().numpy()
    return arr if dtype is None else arr.astype(dtype)


register(1000, name="__array_priority__", function=False, method=True)  # NumPy defers: np.float64(2) * t is a tensor


@register(name="__bool__", function=False, method=True)
def _bool(self: Tensor) -> bool:
    """bool(t) of a one-element tensor."""
    if self.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(_item(self))


@register(name="__float__", function=False, method=True)
def _float(self: Tensor) -> float:
    """float(t) of a one-element tensor."""
    return float(_item(self))


@register(name="__complex__", function=False, method=True)
def _complex(self: Tensor) -> complex:
    """complex(t) of a one-element tensor."""
    return complex(_item(self))


@register(name="__int__", function=False, method=True)
def _int(self: Tensor) -> int:
    """int(t) of a one-element tensor."""
    return int(_item(self))


@register(name="__index__", function=False, method=True)
def _index(self: Tensor) -> int:
    """operator.index(t) for a one-element integer (or bool) tensor (list indexing, range(), slices)."""
    if self.dtype._differentiable or self.numel() != 1:
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return int(_item(self))


@register(name="__format__", function=False, method=True)
def _format(self: Tensor, spec: str) -> str:
    """format(t, spec): a 0-dim tensor formats as its value (f"{loss:.3f}"), others as object does."""
    if self.dim() == 0:
        return _item(self).__format__(spec)
    return object.__format__(self, spec)


# ---- Python protocols


@register(name="__iter__", function=False, method=True)
def _iter(self: Tensor):
    """Iterates over the first dimension (views), like PyTorch."""
    if self.dim() == 0:
        raise TypeError("iteration over a 0-d tensor")
    return (self[i] for i in range(len(self)))


@register(name="__contains__", function=False, method=True)
def _contains(self: Tensor, element) -> bool:
    """`element in t`: whether any element of t equals element (a number or a tensor), as PyTorch."""
    if isinstance(element, (Tensor, int, float, bool, complex)):
        return bool((self == element).any().item())
    raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}.")


def _rebuild(data: bytes, dtype: torch.dtype, shape: tuple, requires_grad: bool, device: str) -> Tensor:
    """Unpickles a tensor written by _reduce_ex (pickles name it: torch._tensor._rebuild)."""
    import numpy as np  # noqa: PLC0415

    flat = torch.from_numpy(np.frombuffer(bytearray(data), dtype=np.uint8)).view(dtype)
    t = flat.reshape(shape).to(device)
    return t.requires_grad_() if requires_grad else t


@register(name="__reduce_ex__", function=False, method=True)
def _reduce_ex(self: Tensor, protocol):
    """Pickles the values (as bytes), dtype, shape, device and requires_grad; views are pickled as
    copies (storage sharing between pickled tensors is not kept)."""
    flat = self.detach().cpu().resolve_conj().contiguous().reshape(-1)
    data = flat.view(torch.uint8).numpy().tobytes()
    return (_rebuild, (data, self.dtype, tuple(self.shape), self.requires_grad, str(self.device)))


@register(name="__deepcopy__", function=False, method=True)
def _deepcopy(self: Tensor, memo) -> Tensor:
    """copy.deepcopy of a graph leaf: new memory, same values, requires_grad and .grad."""
    if not self.is_leaf:
        raise RuntimeError(
            "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  "
            "If you were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm "
            "usage, see https://github.com/pytorch/pytorch/pull/103001"
        )
    if id(self) in memo:
        return memo[id(self)]
    with torch.no_grad():
        new = self.clone()
    if self.requires_grad:
        new.requires_grad_()
    if self.grad is not None:
        new.grad = self.grad.clone()
    memo[id(self)] = new
    return new


@register(name="__dlpack__", function=False, method=True)
def _dlpack(self: Tensor, *, stream=None, max_version=None, dl_device=None, copy=None):
    """DLPack export: a capsule over this tensor's memory (any dtype, CPU or CUDA), made by
    nanobind's ndarray. A CUDA tensor's pending kernels finish first unless stream is -1."""
    if self.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    if self.is_cuda and stream != -1:
        torch.cuda.synchronize(self.device)
    given = {"max_version": max_version, "dl_device": dl_device, "copy": copy}
    return _C._dlpack_view(self).__dlpack__(**{k: v for k, v in given.items() if v is not None})


@register(name="__dlpack_device__", function=False, method=True)
def _dlpack_device(self: Tensor) -> tuple:
    """(device type, index) in DLPack's numbering: (1, 0) for the CPU, (2, i) for GPU i."""
    return (1, 0) if self.device.type == "cpu" else (2, self.device.index or 0)


# ---- size and memory

register(Tensor.numel, name="nelement", function=False, method=True)
register(Tensor.dim, name="ndimension", function=False, method=True)


@register(function=False, method=True)
@property
def itemsize(self: Tensor) -> int:
    """Bytes per element."""
    return self.element_size()


# the flags device-generic code asks of any tensor: this library's tensors are dense and strided, on the CPU or a
# CUDA device, never of another backend, quantized, sparse or nested
for _flag in (
    "is_hpu", "is_ipu", "is_maia", "is_meta", "is_mkldnn", "is_mps", "is_mtia", "is_nested", "is_quantized",
    "is_sparse", "is_sparse_csr", "is_vulkan", "is_xla", "is_xpu",
):  # fmt: skip
    register(property(lambda self: False, doc="False: no tensor here is of that kind."), name=_flag, method=True,
             function=False)  # fmt: skip


@register(function=False, method=True)
@property
def volatile(self: Tensor) -> bool:
    """Removed in PyTorch 0.4 (upstream still answers, with a warning): always False."""
    warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning, stacklevel=2)
    return False


@register(function=False, method=True)
@property
def name(self: Tensor):
    """None: a tensor has no name here (upstream's is None unless a name was given to it)."""
    return None


@register(function=False, method=True)
def reinforce(self: Tensor, reward) -> None:
    """Removed in PyTorch 0.4: raises upstream's RuntimeError, which shows the torch.distributions way."""
    raise RuntimeError(
        "reinforce() was removed.\nUse torch.distributions instead.\nSee "
        "https://pytorch.org/docs/main/distributions.html\n\nInstead of:\n\nprobs = policy_network(state)\n"
        "action = probs.multinomial()\nnext_state, reward = env.step(action)\naction.reinforce(reward)\n"
        "action.backward()\n\nUse:\n\nprobs = policy_network(state)\n# NOTE: categorical is equivalent to what "
        "used to be called multinomial\nm = torch.distributions.Categorical(probs)\naction = m.sample()\n"
        "next_state, reward = env.step(action)\nloss = -m.log_prob(action) * reward\nloss.backward()\n"
    )


@register(function=False, method=True)
@property
def nbytes(self: Tensor) -> int:
    """Bytes of the elements."""
    return self.numel() * self.element_size()


_resize = Tensor.resize_  # the binding, wrapped by resize_ below


@register(function=False, method=True)
def resize_(self: Tensor, *sizes, size=None, memory_format=None) -> Tensor:
    """Contiguous (or laid out as memory_format asks) with the new sizes; the storage grows (keeping its
    bytes) when too small."""
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    _resize(self, *((size,) if size is not None else sizes))
    if memory_format is not None:
        if memory_format == torch.preserve_format:
            raise RuntimeError("Unsupported memory format Preserve")
        self.as_strided_(self.shape, _format_strides(self.shape, memory_format), self.storage_offset())
    return self


def _row_major(shape) -> tuple:
    strides, step = [0] * len(shape), 1
    for d in range(len(shape) - 1, -1, -1):
        strides[d], step = step, step * max(shape[d], 1)
    return tuple(strides)


def _format_strides(shape, memory_format) -> tuple:
    """Dense strides of `shape` in `memory_format`: row-major, or channels-last (channels innermost, then the
    spatial dims from the last, the batch outermost)."""
    if memory_format == torch.contiguous_format:
        return _row_major(shape)
    rank = 4 if memory_format == torch.channels_last else 5
    if len(shape) != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {str(memory_format).removeprefix('torch.')} format")
    strides, step = [0] * rank, 1
    for d in (1, *range(rank - 1, 1, -1), 0):
        strides[d], step = step, step * max(shape[d], 1)
    return tuple(strides)


@register(function=False, method=True)
def resize_as_(self: Tensor, the_template: Tensor, memory_format=None) -> Tensor:
    """resize_ to the_template's shape (laid out as memory_format asks; preserve_format: as the_template is
    when it is channels-last)."""
    if memory_format == torch.preserve_format:
        cl = the_template.dim() == 4 and the_template.is_contiguous(memory_format=torch.channels_last)
        memory_format = torch.channels_last if cl and not the_template.is_contiguous() else None
    return self.resize_(the_template.shape, memory_format=memory_format)


@register(function=False, method=True)
def resize(self: Tensor, *sizes) -> Tensor:
    """Deprecated (upstream too): self reshaped to `sizes`, which must hold as many elements (a differentiable
    view of a contiguous copy where self is not contiguous)."""
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    return _resized(self, sizes[0] if len(sizes) == 1 and not isinstance(sizes[0], int) else sizes)


@register(function=False, method=True)
def resize_as(self: Tensor, tensor: Tensor) -> Tensor:
    """Deprecated (upstream too): self.resize(tensor.size())."""
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    return _resized(self, tensor.shape)


def _resized(self: Tensor, sizes) -> Tensor:
    sizes = torch.Size(sizes)
    if sizes.numel() != self.numel():
        raise RuntimeError(
            f"requested resize to {'x'.join(map(str, sizes))} ({sizes.numel()} elements in total), but the given "
            f"tensor has a size of {'x'.join(map(str, self.shape))} ({self.numel()} elements). autograd's resize can "
            "only change the shape of a given tensor, while preserving the number of elements. "
        )
    return self.contiguous().view(sizes)


@register(function=False, method=True)
def module_load(self: Tensor, other: Tensor, assign: bool = False) -> Tensor:
    """What Module.load_state_dict puts in place of self for `other`: other itself, detached, with
    assign=True, else self with other's values copied in (detached)."""
    if assign:
        return other.detach()
    with torch.no_grad():
        return self.copy_(other).detach()


@register(function=False, method=True)
def set_(self: Tensor, source=None, storage_offset: int = 0, size=None, stride=None) -> Tensor:
    """Makes self a view of source's memory, in place: with source's sizes and strides, or `size`/`stride` at
    `storage_offset` of source's storage (as as_strided reads them); set_() empties self. source is a tensor
    of self's dtype or a storage (torch.UntypedStorage, read as self's dtype: all of it without `size`)."""
    from torch.storage import TypedStorage, UntypedStorage  # noqa: PLC0415

    if self.requires_grad and self.grad_fn is None and torch.is_grad_enabled():
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    if source is None:
        source = torch.empty(0, dtype=self.dtype, device=self.device)
    if isinstance(source, (UntypedStorage, TypedStorage)):
        data = source.untyped()._data
        if size is None:
            size = (data.numel() // self.element_size(),)
        whole = data.numel() // self.element_size() * self.element_size()
        source = data[:whole].view(self.dtype)
    if not isinstance(source, Tensor):
        raise TypeError(f"set_(): source must be a Tensor or a storage, not {type(source).__name__}")
    if source.dtype != self.dtype:
        given, own = cpp_type_name(source.dtype), cpp_type_name(self.dtype)
        raise RuntimeError(f"Could not set tensor of type {given} to a tensor of type {own}")
    if size is not None:
        size = tuple(size)
        if stride is None:  # contiguous
            stride, step = [], 1
            for n in reversed(size):
                stride.insert(0, step)
                step *= max(n, 1)
        source = source.as_strided(size, tuple(stride), storage_offset)
    self._set_data(source.detach())
    return self


@register(function=False, method=True)
def zero_(self: Tensor) -> Tensor:
    """Fills self with zeros."""
    return self.fill_(0)


# ---- what a tensor is


@register
def is_tensor(obj) -> bool:
    """Whether obj is a torch.Tensor."""
    return isinstance(obj, Tensor)


@register
def numel(input: Tensor) -> int:
    """The number of elements of input."""
    return input.numel()


@register(method=True)
def is_floating_point(input: Tensor) -> bool:
    """Whether input's dtype is a floating-point type."""
    return input.dtype.is_floating_point


@register(function=False, method=True)
def share_memory_(self: Tensor) -> Tensor:
    """Moves the storage into shared memory, for every view of it (a no-op if it is there already, or on a
    GPU): processes forked afterwards share it (torch.multiprocessing.reductions.share_memory_)."""
    from torch.multiprocessing import reductions

    return reductions.share_memory_(self)


@register(function=False, method=True)
def is_shared(self: Tensor) -> bool:
    """Whether the storage lies in shared memory (share_memory_, or a tensor received from another process)."""
    from torch.multiprocessing import reductions

    return reductions.is_shared(self)
