"""Creating tensors from data: torch.tensor and torch.as_tensor from Python data or NumPy arrays
(NumPy does the parsing), torch.from_dlpack, and the Tensor.new_* factories."""

from __future__ import annotations

import numpy as np

import torch
from torch import _C
from torch._C import Tensor, empty, ones, zeros
from torch._dtypes import BY_LEGACY_TYPE, FROM_NUMPY, TO_NUMPY
from torch._refs.promotion import dtype_of_number
from torch._registry import register

_FROM_NUMPY_KINDS = "biufc"
_SEQUENCES = (list, tuple, range)


def _leaf_dtype(x) -> torch.dtype:
    """The dtype PyTorch infers for one non-sequence element (a Python or NumPy scalar, an ndarray,
    a tensor)."""
    if isinstance(x, (np.generic, np.ndarray)):  # before float: np.float64 is a float subclass
        if x.dtype.type not in FROM_NUMPY:
            raise TypeError(f"Could not infer dtype of {type(x).__name__}")
        return FROM_NUMPY[x.dtype.type]
    number = dtype_of_number(x)
    if number is not None:
        return number
    if isinstance(x, torch.Tensor):
        return x.dtype
    if isinstance(x, str):
        raise TypeError("new(): invalid data type 'str'")
    raise TypeError(f"Could not infer dtype of {type(x).__name__}")


def _infer_dtype(seq) -> torch.dtype | None:
    """The dtype of a nested sequence: its elements' dtypes promoted (PyTorch's infer_scalar_type);
    None when it holds no element."""
    kinds = set(map(type, seq))
    out = None
    if kinds <= {bool, int, float, complex} and complex in kinds:
        return torch.get_default_dtype().to_complex()
    if kinds <= {bool, int, float}:  # the common case, without a Python-level loop over elements
        if float in kinds:
            return torch.get_default_dtype()
        return torch.int64 if int in kinds else (torch.bool if kinds else None)
    for x in seq:
        d = _infer_dtype(x) if isinstance(x, _SEQUENCES) else _leaf_dtype(x)
        if d is not None:
            out = d if out is None else torch.promote_types(out, d)
    return out


def _first_elements(data) -> tuple[list, object]:
    """The sizes PyTorch gives a nested sequence (from its first elements down) and the first leaf."""
    sizes, first = [], data
    while isinstance(first, _SEQUENCES):
        sizes.append(len(first))
        first = first[0] if len(first) else None
    return sizes, first


def _ragged_error(data) -> ValueError | None:
    """PyTorch's message for the first sequence whose length differs from its siblings'."""
    sizes, _ = _first_elements(data)

    def walk(seq, dim):
        if len(seq) != sizes[dim]:
            return ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(seq)})")
        for x in seq:
            if isinstance(x, _SEQUENCES) and dim + 1 < len(sizes):
                err = walk(x, dim + 1)
                if err:
                    return err
        return None

    return walk(data, 0) if sizes else None


def _checked_astype(arr: np.ndarray, want: torch.dtype) -> np.ndarray:
    """arr (parsed from Python data) as `want`, as PyTorch converts Python numbers: floats round once,
    to inf past the range; integers refuse values out of range (NaN too) and truncate floats; unsigned
    types let negatives wrap down to -max (c10's checked_convert)."""
    target = TO_NUMPY[want]
    if arr.dtype.kind == "c" and not want.is_complex:  # complex numbers to a real dtype: real ones only
        if want == torch.bool:
            return arr != 0
        if np.any(arr.imag != 0):
            raise RuntimeError(f"value cannot be converted to type {np.dtype(target).name} without overflow")
        arr = arr.real
    if want.is_floating_point or want.is_complex or want == torch.bool:
        with np.errstate(over="ignore", invalid="ignore"):
            return arr.astype(target)
    info = np.iinfo(target)
    low = -int(info.max) if info.min == 0 else int(info.min)
    if arr.dtype == object:  # Python ints exactly; the floats among them as a float array is converted
        flat = arr.ravel()
        ints = [isinstance(x, int) for x in flat]
        for x, i in zip(flat, ints):  # upstream converts in order: the first bad number decides the error
            error = _conversion_error(x, i, info, low, np.dtype(target).name)
            if error is not None:
                raise error
        out = np.empty(len(flat), dtype=target)
        unsigned = info.min == 0  # negatives wrap into an unsigned type (down to -max, checked above)
        out[ints] = [x % (int(info.max) + 1) if unsigned and x < 0 else x for x, i in zip(flat, ints) if i]
        floats = [not i for i in ints]
        out[floats] = _checked_astype(np.array([x for x, i in zip(flat, ints) if not i], np.float64), want)
        return out.reshape(arr.shape)
    if arr.dtype.kind == "f" and info.min == 0:  # a float has no wrap into an unsigned type: -1.0 is refused
        low = 0
    with np.errstate(invalid="ignore"):
        inside = (arr >= low) & (arr <= int(info.max))
    if not np.all(inside):
        raise RuntimeError(f"value cannot be converted to type {np.dtype(target).name} without overflow")
    if arr.dtype.kind == "f":
        with np.errstate(invalid="ignore"):  # 2**63 as a float wraps to int64's lowest, as in PyTorch
            arr = np.trunc(arr).astype(np.int64)
    return arr.astype(target)


def _conversion_error(x, is_int: bool, info, low: int, name: str) -> Exception | None:
    """The error upstream raises converting the Python number x into an integer dtype (None if it fits): an
    int past int64 is a ValueError (uint64: ints up to 2**64 - 1 and no negative one, an OverflowError), one
    outside the dtype and a float outside it (compared with its bounds rounded to double, as c10) a
    RuntimeError."""
    if is_int:
        if info.max == 2**64 - 1:
            if x < 0:
                return OverflowError("can't convert negative int to unsigned")
            if x >= 2**64:
                return OverflowError("int too big to convert")
        elif not -(2**63) <= x < 2**63:
            return ValueError("Overflow when unpacking long long")
        inside = low <= x <= int(info.max)
    else:  # NaN fails both comparisons; a float has no wrap into an unsigned type (-1.0 is refused)
        inside = (0.0 if info.min == 0 else float(low)) <= x <= float(info.max)
    return None if inside else RuntimeError(f"value cannot be converted to type {name} without overflow")


def _infer(data, want: torch.dtype | None = None) -> tuple[np.ndarray, torch.dtype | None]:
    """A new C-contiguous ndarray holding `data`, and the dtype PyTorch infers for it when NumPy has
    none like it (bfloat16 as a default dtype: the array is float32 then). With a wanted dtype, Python
    numbers convert straight to it (never through the inferred type: 0.1 as float64 is 0.1)."""
    if isinstance(data, np.ndarray):
        return np.array(data, copy=True, order="C"), None
    if isinstance(data, _SEQUENCES):
        if isinstance(_first_elements(data)[1], str):  # sized by its first elements, a str is one more dim
            raise ValueError("too many dimensions 'str'")
        dtype = _infer_dtype(data) or torch.get_default_dtype()
    else:
        dtype = _leaf_dtype(data)
    parse_as = TO_NUMPY.get(dtype, np.float32)  # bfloat16 travels as float32
    if want is not None and want != dtype:  # parse exactly, then convert once
        parse_as = (
            np.complex128
            if (want.is_complex or dtype.is_complex)
            else np.float64
            if (want.is_floating_point or dtype.is_floating_point)
            else object
            if want in (_C.uint64, _C.bool)  # Python ints past int64 parse exactly, then convert once
            else TO_NUMPY.get(dtype)
        )
    try:
        with np.errstate(over="ignore"):  # floats past the range are inf, as in PyTorch
            arr = np.array(data, dtype=parse_as)
    except OverflowError:
        if want is None or want.is_floating_point or want.is_complex or want not in TO_NUMPY:
            raise ValueError("Overflow when unpacking long long") from None
        # an int past int64 into an integer dtype: each number converts in order, and the first one that
        # does not fit decides the error (an int8 overflow before it is a RuntimeError, as upstream's)
        exact = np.array(data, dtype=object)
        return _checked_astype(exact, want).reshape(exact.shape), None
    except ValueError:
        raise (_ragged_error(data) or TypeError("not a sequence")) from None
    if want is not None and want != dtype and want in TO_NUMPY:
        if dtype.is_floating_point and not (want.is_floating_point or want == torch.bool):
            # ints mixed with floats into an integer dtype: each number converts exactly, never through a
            # double (2**63 - 1 would round up to 2**63 and wrap); the float parse above checked the shape
            exact = np.array(data, dtype=object)
            return _checked_astype(exact, want).reshape(arr.shape), None
        return _checked_astype(arr, want), None
    return arr, (None if dtype in TO_NUMPY else dtype)


@register
def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> torch.Tensor:
    """A new tensor copying `data` (nested lists, scalars, NumPy arrays, tensors); a leaf."""
    if device is None:
        device = _C._get_default_device()  # None unless set_default_device was called
    if isinstance(data, torch.Tensor):  # one copy, already in the wanted dtype and device
        t = data.detach().to(device if device is not None else data.device, dtype, copy=True)
    else:
        arr, inferred = _infer(data, dtype)  # already a copy of its own
        t = torch.from_numpy(arr)
        dtype = dtype if dtype is not None else inferred
        if dtype is not None or device is not None:
            t = t.to(device if device is not None else t.device, dtype)
    if pin_memory:
        t = t.pin_memory()
    if requires_grad:
        t.requires_grad_(True)
    return t


@register
def as_tensor(data, dtype=None, device=None) -> torch.Tensor:
    """Like tensor(), but shares memory with a NumPy array or tensor when it can."""
    if device is None:
        device = _C._get_default_device()  # None unless set_default_device was called
    if isinstance(data, torch.Tensor):
        t = data
    elif isinstance(data, np.ndarray) and data.dtype.kind in _FROM_NUMPY_KINDS:
        t = torch.from_numpy(data)
    else:
        return tensor(data, dtype=dtype, device=device)
    return t.to(device if device is not None else t.device, dtype)


@register
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad: bool = False) -> Tensor:
    """`obj` (a tensor, NumPy array, buffer, DLPack object, number or nested sequence) as a tensor: sharing its
    memory where dtype and device allow it and copy is not True; copy=False refuses to copy."""
    if isinstance(obj, Tensor):
        t = obj
    elif isinstance(obj, np.ndarray) and obj.dtype.kind in _FROM_NUMPY_KINDS:
        t = torch.from_numpy(obj)
    elif hasattr(obj, "__dlpack__") and not isinstance(obj, np.ndarray):
        t = from_dlpack(obj)
    elif isinstance(obj, (bytes, bytearray, memoryview)):
        if dtype is None:
            raise TypeError("asarray(): a buffer needs a dtype")
        t = frombuffer(obj, dtype=dtype)
    else:
        if copy is False:
            raise ValueError(f"can't alias {type(obj).__name__} without copying: pass copy=None or True")
        t = tensor(obj, dtype=dtype, device=device)
        return t.requires_grad_(requires_grad) if requires_grad else t
    converted = t.to(device if device is not None else t.device, dtype if dtype is not None else t.dtype)
    if copy is False and converted is not t:
        raise ValueError(f"can't alias a {t.dtype} tensor on {t.device} as {dtype} on {device} without copying")
    if copy and converted is t:
        converted = t.clone()
    if requires_grad and not converted.requires_grad:
        converted.requires_grad_(True)
    return converted


@register
def frombuffer(buffer, *, dtype, count: int = -1, offset: int = 0, requires_grad: bool = False) -> Tensor:
    """A 1-D tensor over the bytes of an object with the buffer protocol (no copy): `count` elements of dtype
    from byte `offset` on (all that fit for count=-1)."""
    view = memoryview(buffer).cast("B")
    itemsize = torch.empty((), dtype=dtype).element_size()
    length = len(view) - offset
    if offset < 0 or length < 0 or (length == 0 and count != 0):
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
                         f"({len(view)} bytes) minus 1")  # fmt: skip
    if count == -1:
        if length % itemsize:
            raise ValueError(f"buffer length ({length} bytes) after offset ({offset} bytes) must be a multiple of "
                             f"element size ({itemsize})")  # fmt: skip
        count = length // itemsize
    elif count <= 0 or count * itemsize > length:
        raise ValueError(f"requested buffer length ({count} * {itemsize} bytes) after offset ({offset} bytes) must "
                         f"not be greater than actual buffer length ({length} bytes)")  # fmt: skip
    raw = torch.from_numpy(np.frombuffer(view, dtype=np.uint8, count=count * itemsize, offset=offset))
    t = raw.view(dtype)
    return t.requires_grad_(requires_grad) if requires_grad else t


@register
def to_dlpack(tensor: Tensor):
    """A DLPack capsule of the tensor (its __dlpack__()): another library takes the memory without a copy."""
    return tensor.__dlpack__()


def factory_result(t: Tensor, pin_memory: bool, requires_grad: bool) -> Tensor:
    """A factory's result in pinned memory if asked, then a leaf that requires grad if asked (the last steps of
    the Python factories: windows, tril/triu_indices, fftfreq)."""
    return (t.pin_memory() if pin_memory else t).requires_grad_(requires_grad)


@register
def from_dlpack(ext_tensor, *, device=None, copy=None) -> Tensor:
    """A tensor sharing the memory of an object with __dlpack__ (NumPy, PyTorch, JAX, CuPy, ...) or of a
    DLPack capsule: any of our dtypes, CPU or CUDA memory. device= moves it there (a copy); copy=True always
    copies, copy=False refuses to."""
    t = _from_dlpack(ext_tensor)
    moved = device is not None and torch.device(device) != t.device
    if copy is False and moved:
        raise BufferError(f"from_dlpack: copy=False, but the tensor is on {t.device}, not {torch.device(device)}")
    if moved:
        return t.to(device)
    return t.clone() if copy else t


def _from_dlpack(ext_tensor) -> Tensor:
    """The tensor over ext_tensor's memory, with upstream's error for something that is not a capsule."""
    try:
        return torch._C._from_dlpack(ext_tensor)
    except TypeError:
        if hasattr(ext_tensor, "__dlpack__"):
            raise
        # anything else is taken for a capsule, as upstream does
        raise RuntimeError(
            "from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed only "
            "once, so you might have already constructed a tensor from it once."
        ) from None


@register(name="new_tensor", function=False, method=True)
def _new_tensor(self: Tensor, data, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of `data` with this tensor's dtype and device unless given."""
    return tensor(
        data,
        dtype=self.dtype if dtype is None else dtype,
        device=self.device if device is None else device,
        requires_grad=requires_grad,
    )


def _new_factory(factory):
    def method(
        self: Tensor, *sizes, size=None, dtype=None, device=None, requires_grad: bool = False, layout=None,
        pin_memory: bool = False,
    ) -> Tensor:  # fmt: skip
        return factory(
            *((size,) if size is not None else sizes),
            dtype=self.dtype if dtype is None else dtype,
            layout=layout,
            device=self.device if device is None else device,
            requires_grad=requires_grad,
            pin_memory=pin_memory,
        )

    method.__doc__ = f"torch.{factory.__name__}(size) with this tensor's dtype and device unless given."
    return method


for _factory in (empty, zeros, ones):
    register(_new_factory(_factory), name=f"new_{_factory.__name__}", function=False, method=True)


@register(name="new_full", function=False, method=True)
def _new_full(
    self: Tensor, size, fill_value, *, dtype=None, device=None, requires_grad: bool = False, layout=None,
    pin_memory: bool = False,
) -> Tensor:  # fmt: skip
    """torch.full(size, fill_value) with this tensor's dtype and device unless given."""
    return torch.full(
        size,
        fill_value,
        dtype=self.dtype if dtype is None else dtype,
        layout=layout,
        device=self.device if device is None else device,
        requires_grad=requires_grad,
        pin_memory=pin_memory,
    )


def _legacy_tensor(*args, dtype=None, device=None) -> Tensor:
    """PyTorch's legacy constructor (torch.Tensor(...), torch.FloatTensor(...)): no argument, an empty tensor;
    ints or a torch.Size, an uninitialized tensor of that size; a tensor, an alias of it (of `dtype` only, if
    given); anything else, its data. `dtype` defaults to the default dtype."""
    if len(args) == 1 and isinstance(args[0], Tensor):  # torch.Tensor(t) aliases any t; FloatTensor(t) a float t
        if dtype is not None and args[0].dtype != dtype:
            raise TypeError(f"expected {dtype} (got {args[0].dtype})")
        return args[0].detach()
    dtype = dtype or torch.get_default_dtype()
    if not args:
        return empty(0, dtype=dtype, device=device)
    if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return empty(list(args), dtype=dtype, device=device)
    if len(args) == 1 and isinstance(args[0], torch.Size):
        return empty(list(args[0]), dtype=dtype, device=device)
    if len(args) != 1:
        raise TypeError(f"new(): invalid data type '{type(args[0]).__name__}'")
    return tensor(args[0], dtype=dtype, device=device)


class _LegacyTensorType(type):
    """The type of torch.FloatTensor, torch.LongTensor ...: calling one is the legacy constructor of its dtype,
    and isinstance(t, torch.FloatTensor) asks whether t is a CPU float32 tensor, as in PyTorch."""

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.dtype == cls.dtype and obj.device.type == "cpu"

    def __call__(cls, *args, device=None):
        return _legacy_tensor(*args, dtype=cls.dtype, device=device)


for _row in BY_LEGACY_TYPE.values():
    if _row.dtype.is_complex:  # t.type() names them, but torch has no such classes
        continue
    register(
        _LegacyTensorType(
            _row.legacy_type, (), {"dtype": _row.dtype, "__doc__": f"PyTorch's legacy {_row.legacy_type} type."}
        )
    )
del _row
