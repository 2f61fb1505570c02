"""torch.testing.assert_allclose, deprecated upstream since 1.12 in favour of assert_close, kept with its
semantics for old test suites: no dtype or stride check, equal_nan=True, and tolerances taken as the larger of
the two dtypes' (float16 1e-3/1e-5, bfloat16 1.6e-2/1e-5, float32 1.3e-6/1e-5, float64 1e-7/1e-7; exact
otherwise)."""

from __future__ import annotations

import warnings

__all__ = ["assert_allclose"]

_DTYPE_PRECISIONS = {
    "float16": (0.001, 1e-5),
    "bfloat16": (0.016, 1e-5),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
    "complex64": (1.3e-6, 1e-5),
    "complex128": (1e-7, 1e-7),
}


def _precision(dtype) -> tuple[float, float]:
    return _DTYPE_PRECISIONS.get(str(dtype).removeprefix("torch."), (0.0, 0.0))


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan: bool = True, msg: str = "") -> None:
    """Deprecated: torch.testing.assert_close with the old defaults (see the module's docstring)."""
    import torch
    from torch.testing._comparison import assert_close

    warnings.warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future release. "
        "Please use `torch.testing.assert_close()` instead. You can find detailed upgrade instructions in "
        "https://github.com/pytorch/pytorch/issues/61844.",
        FutureWarning,
        stacklevel=2,
    )
    if not isinstance(actual, torch.Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, torch.Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        (rtol_a, atol_a), (rtol_e, atol_e) = _precision(actual.dtype), _precision(expected.dtype)
        rtol, atol = max(rtol_a, rtol_e), max(atol_a, atol_e)
    assert_close(
        actual,
        expected,
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        check_device=True,
        check_dtype=False,
        check_stride=False,
        msg=msg or None,
    )
