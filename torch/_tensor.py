"""The Python-level part of torch.Tensor: operators, conversions, printing.

The class itself is torch._C.Tensor (ops are generated bindings); this module adds what is
simplest in Python.
"""

from __future__ import annotations

import torch
from torch._C import Tensor
from torch._tensor_str import tensor_repr


def _reflected(op: str):
    """`other <op> self` for a Python number on the left (torch.<op>(other, self))."""
    fn = getattr(torch, op)

    def method(self, other):
        return fn(other, self)

    method.__name__ = f"__r{op}__"
    return method


def _comparison(op: str):
    """`self <op> other`; anything that is not a tensor or a number compares as NotImplemented
    (so `t == None` is False, as in PyTorch)."""
    fn = getattr(Tensor, op)

    def method(self, other):
        if isinstance(other, (Tensor, int, float, bool)):
            return fn(self, other)
        return NotImplemented

    method.__name__ = f"__{op}__"
    return method


def host_values(t: Tensor):
    """The values of `t` as a NumPy array in host memory (bfloat16, which NumPy lacks, as float32)."""
    t = t.detach().cpu()
    return (t.float() if t.dtype == torch.bfloat16 else t).numpy()


def _item(self: Tensor):
    """The value of a one-element tensor as a Python number."""
    if self.numel() != 1:
        raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
    return host_values(self).reshape(()).item()


def _tolist(self: Tensor):
    """The tensor as (nested) Python lists."""
    return host_values(self).tolist()


_TYPE_NAMES = {
    "torch.float32": "FloatTensor",
    "torch.float64": "DoubleTensor",
    "torch.float16": "HalfTensor",
    "torch.bfloat16": "BFloat16Tensor",
    "torch.int64": "LongTensor",
    "torch.int32": "IntTensor",
    "torch.int16": "ShortTensor",
    "torch.int8": "CharTensor",
    "torch.uint8": "ByteTensor",
    "torch.bool": "BoolTensor",
}
_DTYPE_OF_TYPE_NAME = {name: dtype.replace("torch.", "") for dtype, name in _TYPE_NAMES.items()}


def _type(self: Tensor, dtype=None, non_blocking: bool = False):
    """With no dtype, the legacy type name ('torch.FloatTensor', 'torch.cuda.HalfTensor'); else
    the tensor converted to `dtype` (a torch.dtype or such a name)."""
    if dtype is None:
        name = _TYPE_NAMES[str(self.dtype)]
        return f"torch.cuda.{name}" if self.device.type == "cuda" else f"torch.{name}"
    if isinstance(dtype, str):
        name = dtype.rsplit(".", 1)[-1]
        if name not in _DTYPE_OF_TYPE_NAME:
            raise ValueError(f"invalid type: '{dtype}'")
        device = "cuda" if ".cuda." in dtype else "cpu"
        return self.to(device, getattr(torch, _DTYPE_OF_TYPE_NAME[name]), non_blocking)
    return self.to(dtype, non_blocking=non_blocking)


def _cpu(self: Tensor) -> Tensor:
    """This tensor in CPU memory (itself if already there)."""
    return self.to("cpu")


def _cuda(self: Tensor, device=None) -> Tensor:
    """This tensor in GPU memory."""
    return self.to(torch.device("cuda", device) if isinstance(device, int) else device or "cuda")


def _array(self: Tensor, dtype=None):
    arr = self.cpu().numpy()
    return arr if dtype is None else arr.astype(dtype)


def _iter(self: Tensor):
    """Iterates over the first dimension (views), like PyTorch."""
    if self.dim() == 0:
        raise TypeError("iteration over a 0-d tensor")
    return (self[i] for i in range(len(self)))


def _bool(self: Tensor) -> bool:
    if self.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(_item(self))


# Python operator -> (op, reflected form); the C++ methods take tensors and Python numbers
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
    "matmul": ("matmul", None),
}


def _index_put_(self: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    """self[indices] = values (+= with accumulate) for a tuple of index tensors."""
    from torch import _indexing  # noqa: PLC0415

    return _indexing.index_put_(self, tuple(indices), values, accumulate)


def _dlpack(self: Tensor, *, stream=None, max_version=None, dl_device=None, copy=None):
    """DLPack export: a capsule over this tensor's memory (any dtype, CPU or CUDA), made by
    nanobind's ndarray. A CUDA tensor's pending kernels finish first unless stream is -1."""
    if self.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    if self.is_cuda and stream != -1:
        torch.cuda.synchronize(self.device)
    given = {"max_version": max_version, "dl_device": dl_device, "copy": copy}
    return torch._C._dlpack_view(self).__dlpack__(**{k: v for k, v in given.items() if v is not None})


def _dlpack_device(self: Tensor) -> tuple:
    return (1, 0) if self.device.type == "cpu" else (2, self.device.index or 0)


def _new_tensor(self: Tensor, data, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of `data` with this tensor's dtype and device unless given."""
    return torch.tensor(
        data,
        dtype=self.dtype if dtype is None else dtype,
        device=self.device if device is None else device,
        requires_grad=requires_grad,
    )


def _new_factory(factory):
    def method(self: Tensor, *size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
        return factory(
            *size,
            dtype=self.dtype if dtype is None else dtype,
            device=self.device if device is None else device,
            requires_grad=requires_grad,
        )

    method.__doc__ = f"torch.{factory.__name__}(size) with this tensor's dtype and device unless given."
    return method


def _new_full(self: Tensor, size, fill_value, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """torch.full(size, fill_value) with this tensor's dtype and device unless given."""
    return torch.full(
        size,
        fill_value,
        dtype=self.dtype if dtype is None else dtype,
        device=self.device if device is None else device,
        requires_grad=requires_grad,
    )


def _inplace_view(view, name: str):
    """The in-place form of a view op (t_, transpose_, ...): self takes the view's sizes, strides
    and offset, as PyTorch's in-place view ops do."""

    def method(self, *args, **kwargs):
        v = view(self, *args, **kwargs)
        return self.as_strided_(v.shape, v.stride(), v.storage_offset())

    method.__name__ = name
    method.__doc__ = f"{view.__name__} in place: self becomes that view of its storage."
    return method


def _contains(self: Tensor, element) -> bool:
    """`element in t`: whether any element of t equals element (a number or a tensor), as PyTorch."""
    if isinstance(element, (Tensor, int, float, bool)):
        return bool((self == element).any().item())
    raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}.")


def _index(self: Tensor) -> int:
    """operator.index(t) for a one-element integer (or bool) tensor (list indexing, range(), slices)."""
    if self.dtype.is_floating_point or self.numel() != 1:
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return int(_item(self))


def _format(self: Tensor, spec: str) -> str:
    """format(t, spec): a 0-dim tensor formats as its value (f"{loss:.3f}"), others as object does."""
    if self.dim() == 0:
        return _item(self).__format__(spec)
    return object.__format__(self, spec)


def _rebuild(data: bytes, dtype: torch.dtype, shape: tuple, requires_grad: bool, device: str) -> Tensor:
    """Unpickles a tensor written by _reduce_ex."""
    import numpy as np  # noqa: PLC0415

    flat = torch.from_numpy(np.frombuffer(bytearray(data), dtype=np.uint8)).view(dtype)
    t = flat.reshape(shape).to(device)
    return t.requires_grad_() if requires_grad else t


def _reduce_ex(self: Tensor, protocol):
    """Pickles the values (as bytes), dtype, shape, device and requires_grad; views are pickled as
    copies (storage sharing between pickled tensors is not kept)."""
    flat = self.detach().cpu().contiguous().reshape(-1)
    data = flat.view(torch.uint8).numpy().tobytes()
    return (_rebuild, (data, self.dtype, tuple(self.shape), self.requires_grad, str(self.device)))


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


def install() -> None:
    """Adds the methods above to torch.Tensor (called once by torch/__init__.py)."""
    for dunder, (op, commutative) in _OPERATORS.items():
        setattr(Tensor, f"__{dunder}__", getattr(Tensor, op))
        setattr(Tensor, f"__r{dunder}__", getattr(Tensor, commutative) if commutative else _reflected(op))
        if hasattr(Tensor, op + "_"):  # `a @= b` falls back to `a = a @ b`, as in PyTorch
            setattr(Tensor, f"__i{dunder}__", getattr(Tensor, op + "_"))
    for op in ("eq", "ne", "lt", "le", "gt", "ge"):
        setattr(Tensor, f"__{op}__", _comparison(op))
    Tensor.__hash__ = object.__hash__  # defining __eq__ would otherwise make tensors unhashable
    Tensor.__neg__ = Tensor.neg
    Tensor.__abs__ = Tensor.abs
    Tensor.__pos__ = lambda self: self
    conversions = {
        "float": torch.float32,
        "double": torch.float64,
        "half": torch.float16,
        "bfloat16": torch.bfloat16,
        "long": torch.int64,
        "int": torch.int32,
        "short": torch.int16,
        "char": torch.int8,
        "byte": torch.uint8,
        "bool": torch.bool,
    }
    for name, dtype in conversions.items():
        setattr(Tensor, name, lambda self, _d=dtype: self.to(_d))
    Tensor.norm = lambda self, p="fro", dim=None, keepdim=False, dtype=None: torch.norm(self, p, dim, keepdim, dtype)
    Tensor.nonzero = lambda self, *, as_tuple=False: torch.nonzero(self, as_tuple=as_tuple)
    Tensor.softmax = lambda self, dim, dtype=None: torch.softmax(self, dim, dtype)
    Tensor.log_softmax = lambda self, dim, dtype=None: torch.log_softmax(self, dim, dtype)
    Tensor.split = lambda self, split_size, dim=0: torch.split(self, split_size, dim)
    Tensor.zero_ = lambda self: self.fill_(0)
    Tensor.type_as = lambda self, other: self.to(other.dtype)
    Tensor.expand_as = lambda self, other: self.expand(other.shape)
    Tensor.view_as = lambda self, other: self.view(other.shape)
    Tensor.reshape_as = lambda self, other: self.reshape(other.shape)
    Tensor.movedim = Tensor.moveaxis = lambda self, source, destination: torch.movedim(self, source, destination)
    Tensor.swapaxes = Tensor.swapdims = lambda self, dim0, dim1: self.transpose(dim0, dim1)
    Tensor.diagonal = lambda self, offset=0, dim1=0, dim2=1: torch.diagonal(self, offset, dim1, dim2)
    from torch._clamp import clamp, clamp_

    Tensor.clamp = Tensor.clip = lambda self, min=None, max=None: clamp(self, min, max)
    Tensor.clamp_ = Tensor.clip_ = lambda self, min=None, max=None: clamp_(self, min, max)
    Tensor.clamp_min = lambda self, min: clamp(self, min=min)
    Tensor.clamp_max = lambda self, max: clamp(self, max=max)
    Tensor.is_floating_point = lambda self: self.dtype.is_floating_point
    Tensor.is_complex = lambda self: False  # no complex dtypes here
    Tensor.nelement = Tensor.numel
    Tensor.ndimension = Tensor.dim
    Tensor.itemsize = property(lambda self: self.element_size(), doc="Bytes per element.")
    Tensor.nbytes = property(lambda self: self.numel() * self.element_size(), doc="Bytes of the elements.")
    Tensor.new_tensor = _new_tensor
    Tensor.new_full = _new_full
    for factory in (torch.empty, torch.zeros, torch.ones):
        setattr(Tensor, f"new_{factory.__name__}", _new_factory(factory))
    Tensor.__invert__ = Tensor.bitwise_not
    Tensor.__contains__ = _contains
    Tensor.__index__ = _index
    Tensor.__format__ = _format
    Tensor.__array_priority__ = 1000  # NumPy defers to the tensor: np.float64(2) * t is a tensor
    Tensor.__reduce_ex__ = _reduce_ex
    Tensor.__deepcopy__ = _deepcopy
    for view in ("t", "transpose", "squeeze", "unsqueeze", "swapaxes", "swapdims"):
        setattr(Tensor, view + "_", _inplace_view(getattr(Tensor, view), view + "_"))
    resize = Tensor.resize_

    def resize_(self, *size):
        """Contiguous with the new sizes; the storage grows (keeping its bytes) when too small."""
        if self.requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        return resize(self, *size)

    Tensor.resize_ = resize_
    Tensor.resize_as_ = lambda self, other: self.resize_(other.shape)
    from torch import _math_composites, _order_statistics, _stacking, _unique  # noqa: PLC0415

    for module, names in (
        (
            _math_composites,
            "square addcmul addcdiv logaddexp deg2rad rad2deg signbit isposinf isneginf trace "
            "count_nonzero aminmax nansum nanmean diff",
        ),
        (_stacking, "tensor_split hsplit vsplit dsplit fliplr flipud rot90"),
        (_order_statistics, "median nanmedian kthvalue msort"),
        (_unique, "unique unique_consecutive"),
    ):
        for name in names.split():
            setattr(Tensor, name, getattr(module, name))
    Tensor.__dlpack__ = _dlpack
    Tensor.__dlpack_device__ = _dlpack_device
    Tensor.index_put_ = _index_put_
    Tensor.index_put = lambda self, indices, values, accumulate=False: _index_put_(
        self.clone(), indices, values, accumulate
    )
    Tensor.__repr__ = tensor_repr
    Tensor.__str__ = tensor_repr
    Tensor.item = _item
    Tensor.tolist = _tolist
    Tensor.cpu = _cpu
    Tensor.cuda = _cuda
    Tensor.__array__ = _array
    Tensor.type = _type
    Tensor.__bool__ = _bool
    Tensor.__iter__ = _iter
    Tensor.T = property(lambda self: self.permute(*reversed(range(self.dim()))), doc="Dims reversed.")
    Tensor.mT = property(lambda self: self.transpose(-2, -1), doc="The last two dims swapped.")
    Tensor.__float__ = lambda self: float(_item(self))
    Tensor.__int__ = lambda self: int(_item(self))
