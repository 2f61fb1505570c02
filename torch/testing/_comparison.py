"""``assert_close``: PyTorch's comparison of tensors, numbers and containers of them, with its messages.

Inputs are paired up recursively (sequences item by item, mappings key by key); each leaf pair is
compared by the first pair type that accepts it: None, booleans, Python/NumPy numbers, tensor-likes
(tensors of the same type, or two non-tensors ``torch.as_tensor`` accepts). The first mismatch raises
(AssertionError for values and attributes, TypeError/ValueError for bad input), naming the failing item.
"""

from __future__ import annotations

import cmath
import collections.abc
import contextlib

import numpy as np

import torch

__all__ = ["assert_close", "default_tolerances"]


def _dtype_precisions() -> dict:
    """{dtype: (rtol, atol)}; dtypes not listed (integers, bool) compare exactly."""
    out = {
        torch.float16: (0.001, 1e-5),
        torch.bfloat16: (0.016, 1e-5),
        torch.float32: (1.3e-6, 1e-5),
        torch.float64: (1e-7, 1e-7),
    }
    for name, tolerances in (("complex32", (0.001, 1e-5)), ("complex64", (1.3e-6, 1e-5)), ("complex128", (1e-7, 1e-7))):
        if hasattr(torch, name):
            out[getattr(torch, name)] = tolerances
    return out


class ErrorMeta(Exception):
    """A comparison failure to be raised as ``type(msg)``; ``id`` locates it inside nested inputs."""

    def __init__(self, type: type[Exception], msg: str, *, id: tuple = ()) -> None:
        super().__init__(msg)
        self.type = type
        self.msg = msg
        self.id = id

    def to_error(self, msg=None) -> Exception:
        """The exception to raise: ``msg`` if a string, else the generated message (passed through ``msg``
        if callable), with the failing item appended."""
        if not isinstance(msg, str):
            generated_msg = self.msg
            if self.id:
                generated_msg += f"\n\nThe failure occurred for item {''.join(str([item]) for item in self.id)}"
            msg = msg(generated_msg) if callable(msg) else generated_msg
        return self.type(msg)


class UnsupportedInputs(Exception):
    """A pair type does not handle these inputs: the next one is tried."""


def default_tolerances(*inputs) -> tuple[float, float]:
    """The loosest default (rtol, atol) of the inputs' dtypes (tensors or dtypes)."""
    dtypes = []
    for input in inputs:
        if isinstance(input, torch.Tensor):
            dtypes.append(input.dtype)
        elif isinstance(input, torch.dtype):
            dtypes.append(input)
        else:
            raise TypeError(f"Expected a torch.Tensor or a torch.dtype, but got {type(input)} instead.")
    precisions = _dtype_precisions()
    rtols, atols = zip(*[precisions.get(dtype, (0.0, 0.0)) for dtype in dtypes])
    return max(rtols), max(atols)


def get_tolerances(*inputs, rtol, atol, id: tuple = ()) -> tuple[float, float]:
    """``(rtol, atol)`` as given (both or neither), else the defaults of the inputs' dtypes."""
    if (rtol is None) ^ (atol is None):
        raise ErrorMeta(
            ValueError,
            "Both 'rtol' and 'atol' must be either specified or omitted, "
            f"but got no {'rtol' if rtol is None else 'atol'}.",
            id=id,
        )
    if rtol is not None and atol is not None:
        return rtol, atol
    return default_tolerances(*inputs)


def _make_mismatch_msg(
    *,
    default_identifier,
    identifier=None,
    extra=None,
    abs_diff,
    abs_diff_idx=None,
    atol,
    rel_diff,
    rel_diff_idx=None,
    rtol,
) -> str:
    equality = rtol == 0 and atol == 0

    def make_diff_msg(*, type, diff, idx, tol):
        msg = (
            f"{type.title()} difference: {diff}"
            if idx is None
            else f"Greatest {type} difference: {diff} at index {idx}"
        )
        if not equality:
            msg += f" (up to {tol} allowed)"
        return msg + "\n"

    if identifier is None:
        identifier = default_identifier
    elif callable(identifier):
        identifier = identifier(default_identifier)
    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    msg += make_diff_msg(type="absolute", diff=abs_diff, idx=abs_diff_idx, tol=atol)
    msg += make_diff_msg(type="relative", diff=rel_diff, idx=rel_diff_idx, tol=rtol)
    return msg.strip()


def make_scalar_mismatch_msg(actual, expected, *, rtol, atol, identifier=None) -> str:
    """The report for two numbers: ``Scalars are not close!`` with both values and their differences."""
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _make_mismatch_msg(
        default_identifier="Scalars",
        identifier=identifier,
        extra=f"Expected {expected} but got {actual}.",
        abs_diff=abs_diff,
        atol=atol,
        rel_diff=rel_diff,
        rtol=rtol,
    )


def make_tensor_mismatch_msg(actual, expected, matches, *, rtol, atol, identifier=None) -> str:
    """The report for two tensors: how many elements mismatch, and the greatest absolute and relative
    differences among the mismatches with their indices (computed in the tensors' dtype, int64 for
    integers)."""

    def unravel_flat_index(flat_index: int) -> tuple[int, ...]:
        inverse_index = []
        for size in tuple(matches.shape)[::-1]:
            flat_index, mod = divmod(flat_index, size)
            inverse_index.append(mod)
        return tuple(inverse_index[::-1])

    number_of_elements = matches.numel()
    total_mismatches = number_of_elements - int(torch.sum(matches))
    extra = (
        f"Mismatched elements: {total_mismatches} / {number_of_elements} ({total_mismatches / number_of_elements:.1%})"
    )
    actual_flat = actual.flatten()
    expected_flat = expected.flatten()
    matches_flat = matches.flatten()
    if not actual.dtype.is_floating_point and not getattr(actual.dtype, "is_complex", False):
        actual_flat = actual_flat.to(torch.int64)
        expected_flat = expected_flat.to(torch.int64)
    abs_diff = torch.abs(actual_flat - expected_flat)
    abs_diff[matches_flat] = 0
    max_abs_diff, max_abs_diff_flat_idx = torch.max(abs_diff, 0)
    rel_diff = abs_diff / torch.abs(expected_flat)
    rel_diff[matches_flat] = 0
    max_rel_diff, max_rel_diff_flat_idx = torch.max(rel_diff, 0)
    return _make_mismatch_msg(
        default_identifier="Tensor-likes",
        identifier=identifier,
        extra=extra,
        abs_diff=max_abs_diff.item(),
        abs_diff_idx=unravel_flat_index(int(max_abs_diff_flat_idx)),
        atol=atol,
        rel_diff=max_rel_diff.item(),
        rel_diff_idx=unravel_flat_index(int(max_rel_diff_flat_idx)),
        rtol=rtol,
    )


class Pair:
    """A leaf pair of inputs; a subclass raises UnsupportedInputs from ``__init__`` for inputs it does not
    handle, and ErrorMeta from ``compare`` on a mismatch."""

    def __init__(self, actual, expected, *, id: tuple = (), **unknown_parameters) -> None:
        self.actual = actual
        self.expected = expected
        self.id = id

    def _fail(self, type: type[Exception], msg: str):
        raise ErrorMeta(type, msg, id=self.id)

    def compare(self) -> None:
        """Raises ErrorMeta if the inputs mismatch."""
        raise NotImplementedError


class NonePair(Pair):
    """``None`` against anything: equal only to ``None``."""

    def __init__(self, actual, expected, **other_parameters) -> None:
        if not (actual is None or expected is None):
            raise UnsupportedInputs
        super().__init__(actual, expected, **other_parameters)

    def compare(self) -> None:
        if not (self.actual is None and self.expected is None):
            self._fail(AssertionError, f"None mismatch: {self.actual} is not {self.expected}")


class BooleanPair(Pair):
    """Python and NumPy booleans: identical or not."""

    def __init__(self, actual, expected, *, id: tuple = (), **other_parameters) -> None:
        if not all(isinstance(x, (bool, np.bool_)) for x in (actual, expected)):
            raise UnsupportedInputs
        actual, expected = (bool(x) for x in (actual, expected))
        super().__init__(actual, expected, id=id, **other_parameters)

    def compare(self) -> None:
        if self.actual is not self.expected:
            self._fail(AssertionError, f"Booleans mismatch: {self.actual} is not {self.expected}")


class NumberPair(Pair):
    """Python and NumPy numbers, with the tolerances of int64/float64/complex128; their types are compared
    only with ``check_dtype``."""

    def __init__(
        self,
        actual,
        expected,
        *,
        id: tuple = (),
        rtol=None,
        atol=None,
        equal_nan: bool = False,
        check_dtype: bool = False,
        **other_parameters,
    ) -> None:
        types = (int, float, complex, np.number)
        if not all(isinstance(x, types) and not isinstance(x, (bool, np.bool_)) for x in (actual, expected)):
            raise UnsupportedInputs
        actual, expected = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
        super().__init__(actual, expected, id=id, **other_parameters)
        to_dtype = {int: torch.int64, float: torch.float64, complex: getattr(torch, "complex128", torch.float64)}
        self.rtol, self.atol = get_tolerances(
            *[to_dtype[type(x)] for x in (actual, expected)], rtol=rtol, atol=atol, id=id
        )
        self.equal_nan = equal_nan
        self.check_dtype = check_dtype

    def compare(self) -> None:
        if self.check_dtype and type(self.actual) is not type(self.expected):
            self._fail(AssertionError, f"The (d)types do not match: {type(self.actual)} != {type(self.expected)}.")
        if self.actual == self.expected:
            return
        if self.equal_nan and cmath.isnan(self.actual) and cmath.isnan(self.expected):
            return
        abs_diff = abs(self.actual - self.expected)
        tolerance = self.atol + self.rtol * abs(self.expected)
        if cmath.isfinite(abs_diff) and abs_diff <= tolerance:
            return
        self._fail(AssertionError, make_scalar_mismatch_msg(self.actual, self.expected, rtol=self.rtol, atol=self.atol))


class TensorLikePair(Pair):
    """Tensors (or two tensor-likes ``torch.as_tensor`` accepts, e.g. NumPy arrays): shape always, then
    device, dtype and (with ``check_stride``) strides, then values with ``isclose``."""

    def __init__(
        self,
        actual,
        expected,
        *,
        id: tuple = (),
        allow_subclasses: bool = True,
        rtol=None,
        atol=None,
        equal_nan: bool = False,
        check_device: bool = True,
        check_dtype: bool = True,
        check_layout: bool = True,
        check_stride: bool = False,
        **other_parameters,
    ) -> None:
        if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
            raise UnsupportedInputs
        if not allow_subclasses and type(actual) is not type(expected):
            raise UnsupportedInputs
        actual, expected = (self._to_tensor(x) for x in (actual, expected))
        super().__init__(actual, expected, id=id, **other_parameters)
        self.rtol, self.atol = get_tolerances(actual, expected, rtol=rtol, atol=atol, id=self.id)
        self.equal_nan = equal_nan
        self.check_device = check_device
        self.check_dtype = check_dtype
        self.check_stride = check_stride

    @staticmethod
    def _to_tensor(tensor_like):
        if isinstance(tensor_like, torch.Tensor):
            return tensor_like
        try:
            return torch.as_tensor(tensor_like)
        except Exception:
            raise UnsupportedInputs from None

    def compare(self) -> None:
        actual, expected = self.actual, self.expected

        def mismatch(attribute_name, actual_value, expected_value):
            self._fail(
                AssertionError,
                f"The values for attribute '{attribute_name}' do not match: {actual_value} != {expected_value}.",
            )

        if actual.shape != expected.shape:
            mismatch("shape", actual.shape, expected.shape)
        if self.check_stride and actual.stride() != expected.stride():
            mismatch("stride()", actual.stride(), expected.stride())
        if self.check_device and actual.device != expected.device:
            mismatch("device", actual.device, expected.device)
        if self.check_dtype and actual.dtype != expected.dtype:
            mismatch("dtype", actual.dtype, expected.dtype)
        if actual.device != expected.device:
            actual, expected = actual.cpu(), expected.cpu()
        if actual.dtype != expected.dtype:
            dtype = torch.promote_types(actual.dtype, expected.dtype)
            actual, expected = actual.to(dtype), expected.to(dtype)
        actual, expected = actual.detach(), expected.detach()
        matches = torch.isclose(actual, expected, rtol=self.rtol, atol=self.atol, equal_nan=self.equal_nan)
        if torch.all(matches):
            return
        if actual.shape == torch.Size([]):
            msg = make_scalar_mismatch_msg(actual.item(), expected.item(), rtol=self.rtol, atol=self.atol)
        else:
            msg = make_tensor_mismatch_msg(actual, expected, matches, rtol=self.rtol, atol=self.atol)
        self._fail(AssertionError, msg)


def originate_pairs(actual, expected, *, pair_types, id: tuple = (), **options) -> list[Pair]:
    """The leaf pairs of two possibly nested inputs (sequences but strings, and mappings, are recursed)."""
    sequence, mapping = collections.abc.Sequence, collections.abc.Mapping
    if isinstance(actual, sequence) and not isinstance(actual, str) and isinstance(expected, sequence):
        if not isinstance(expected, str):
            if len(actual) != len(expected):
                raise ErrorMeta(
                    AssertionError, f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", id=id
                )
            pairs = []
            for idx in range(len(actual)):
                pairs.extend(
                    originate_pairs(actual[idx], expected[idx], pair_types=pair_types, id=(*id, idx), **options)
                )
            return pairs
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        actual_keys, expected_keys = set(actual.keys()), set(expected.keys())
        if actual_keys != expected_keys:
            raise ErrorMeta(
                AssertionError,
                "The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(expected_keys - actual_keys)}\n"
                f"Additional keys in the actual mapping: {sorted(actual_keys - expected_keys)}",
                id=id,
            )
        keys = actual_keys
        with contextlib.suppress(Exception):
            keys = sorted(keys)
        pairs = []
        for key in keys:
            pairs.extend(originate_pairs(actual[key], expected[key], pair_types=pair_types, id=(*id, key), **options))
        return pairs
    for pair_type in pair_types:
        try:
            return [pair_type(actual, expected, id=id, **options)]
        except UnsupportedInputs:
            continue
    raise ErrorMeta(
        TypeError, f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.", id=id
    )


def assert_close(
    actual,
    expected,
    *,
    allow_subclasses: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = False,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    msg=None,
):
    """Asserts that ``actual`` and ``expected`` are close: ``|actual - expected| <= atol + rtol * |expected|``
    elementwise (NaNs equal only with ``equal_nan``), after checking shape and (by default) device and
    dtype; strides only with ``check_stride``. Inputs may be tensors, NumPy arrays, Python or NumPy numbers,
    booleans, None, and sequences or mappings of them (compared item by item). Omitted ``rtol``/``atol``
    default per dtype: float16 (1e-3, 1e-5), bfloat16 (1.6e-2, 1e-5), float32 (1.3e-6, 1e-5), float64
    (1e-7, 1e-7), others exact; give both or neither. Raises AssertionError with PyTorch's report (or
    ``msg``; a callable ``msg`` gets the report and returns the message)."""
    __tracebackhide__ = True
    try:
        pairs = originate_pairs(
            actual,
            expected,
            pair_types=(NonePair, BooleanPair, NumberPair, TensorLikePair),
            allow_subclasses=allow_subclasses,
            rtol=rtol,
            atol=atol,
            equal_nan=equal_nan,
            check_device=check_device,
            check_dtype=check_dtype,
            check_layout=check_layout,
            check_stride=check_stride,
        )
    except ErrorMeta as error_meta:
        raise error_meta.to_error() from None
    for pair in pairs:
        try:
            pair.compare()
        except ErrorMeta as error_meta:
            raise error_meta.to_error(msg) from None
