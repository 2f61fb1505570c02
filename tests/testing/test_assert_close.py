"""torch.testing.assert_close: default tolerances per dtype, options, containers and PyTorch's reports."""

import re

import numpy as np
import pytest

import torch
from torch.testing import assert_close, make_tensor


def raises(exc, message, actual, expected, **kwargs):
    with pytest.raises(exc) as info:
        assert_close(actual, expected, **kwargs)
    assert str(info.value) == message
    return info


def test_tensor_report():
    raises(
        AssertionError,
        "Tensor-likes are not close!\n\n"
        "Mismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)",
        torch.tensor([1.0, 2.0, 3.0]),
        torch.tensor([1.0, 2.5, 3.0]),
    )
    raises(
        AssertionError,
        "Tensor-likes are not close!\n\n"
        "Mismatched elements: 1 / 4 (25.0%)\n"
        "Greatest absolute difference: 1.0 at index (1, 1) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.20000000298023224 at index (1, 1) (up to 1.3e-06 allowed)",
        torch.tensor([[1.0, 2.0], [3.0, 4.0]]),
        torch.tensor([[1.0, 2.0], [3.0, 5.0]]),
    )


def test_integers_are_compared_exactly():
    assert_close(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 3]))
    raises(
        AssertionError,
        "Tensor-likes are not equal!\n\n"
        "Mismatched elements: 2 / 3 (66.7%)\n"
        "Greatest absolute difference: 4 at index (0,)\n"
        "Greatest relative difference: 4.0 at index (0,)",
        torch.tensor([5, 2, 3]),
        torch.tensor([1, 2, 4]),
    )
    raises(
        AssertionError,
        "Tensor-likes are not equal!\n\n"
        "Mismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: 1 at index (1,)\n"
        "Greatest relative difference: 1.0 at index (1,)",
        torch.tensor([True, False]),
        torch.tensor([True, True]),
    )


@pytest.mark.parametrize(
    "dtype, rtol, atol",
    [
        (torch.float16, 1e-3, 1e-5),
        (torch.bfloat16, 1.6e-2, 1e-5),
        (torch.float32, 1.3e-6, 1e-5),
        (torch.float64, 1e-7, 1e-7),
    ],
)
def test_default_tolerances(dtype, rtol, atol):
    expected = torch.tensor([0.0, 4.0], dtype=torch.float64)
    inside = expected + torch.tensor([atol * 0.5, 4.0 * rtol * 0.5], dtype=torch.float64)
    outside = expected + torch.tensor([0.0, 4.0 * rtol * 4 + atol * 4], dtype=torch.float64)
    assert_close(inside.to(dtype), expected.to(dtype))
    with pytest.raises(AssertionError, match=rf"\(up to {re.escape(str(rtol))} allowed\)"):
        assert_close(outside.to(dtype), expected.to(dtype))


def test_explicit_tolerances():
    assert_close(torch.tensor([1.0]), torch.tensor([1.1]), rtol=0.2, atol=0.0)
    assert_close(torch.tensor([1.0]), torch.tensor([1.1]), rtol=0.0, atol=0.2)
    raises(
        ValueError,
        "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol.",
        torch.tensor([1.0]),
        torch.tensor([1.0]),
        rtol=1e-3,
    )
    raises(
        ValueError,
        "Both 'rtol' and 'atol' must be either specified or omitted, but got no rtol.",
        torch.tensor([1.0]),
        torch.tensor([1.0]),
        atol=1e-3,
    )


def test_nan_and_inf():
    nan = torch.tensor(float("nan"))
    raises(
        AssertionError,
        "Scalars are not close!\n\nExpected nan but got nan.\n"
        "Absolute difference: nan (up to 1e-05 allowed)\nRelative difference: nan (up to 1.3e-06 allowed)",
        nan,
        nan.clone(),
    )
    assert_close(nan, nan.clone(), equal_nan=True)
    assert_close(torch.tensor([1.0, float("inf")]), torch.tensor([1.0, float("inf")]))
    with pytest.raises(AssertionError, match="Greatest absolute difference: inf at index"):
        assert_close(torch.tensor([1.0, float("inf")]), torch.tensor([1.0, float("-inf")]))


def test_attributes():
    raises(
        AssertionError,
        "The values for attribute 'dtype' do not match: torch.float32 != torch.float64.",
        torch.tensor([1.0, 2.0]),
        torch.tensor([1.0, 2.0], dtype=torch.float64),
    )
    assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64), check_dtype=False)
    raises(
        AssertionError,
        "The values for attribute 'shape' do not match: torch.Size([2]) != torch.Size([3]).",
        torch.tensor([1.0, 2.0]),
        torch.tensor([1.0, 2.0, 3.0]),
    )
    transposed = torch.ones(2, 2).t().contiguous().t()
    assert_close(torch.ones(2, 2), transposed)  # strides are not checked by default
    raises(
        AssertionError,
        "The values for attribute 'stride()' do not match: (2, 1) != (1, 2).",
        torch.ones(2, 2),
        transposed,
        check_stride=True,
    )
    assert_close(torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([1.0, 2.0]))
    assert_close(torch.zeros(0), torch.zeros(0))


def test_python_scalars():
    assert_close(1.0, 1.0 + 1e-8)
    raises(
        AssertionError,
        "Scalars are not close!\n\nExpected 1.1 but got 1.0.\n"
        "Absolute difference: 0.10000000000000009 (up to 1e-07 allowed)\n"
        "Relative difference: 0.09090909090909098 (up to 1e-07 allowed)",
        1.0,
        1.1,
    )
    raises(
        AssertionError,
        "Scalars are not equal!\n\nExpected 2 but got 1.\nAbsolute difference: 1\nRelative difference: 0.5",
        1,
        2,
    )
    raises(AssertionError, "The (d)types do not match: <class 'int'> != <class 'float'>.", 1, 1.0)
    assert_close(1, 1.0, check_dtype=False)
    assert_close(np.float32(1.5), 1.5, check_dtype=False)
    raises(
        AssertionError,
        "Scalars are not close!\n\nExpected 2.0 but got 1.0.\n"
        "Absolute difference: 1.0 (up to 1e-05 allowed)\nRelative difference: 0.5 (up to 1.3e-06 allowed)",
        torch.tensor(1.0),
        torch.tensor(2.0),
    )
    raises(AssertionError, "Booleans mismatch: True is not False", True, False)
    raises(AssertionError, "None mismatch: None is not 1", None, 1)
    assert_close(None, None)


def test_sequences_and_mappings():
    assert_close([torch.tensor(1.0), (2, 3.0)], [torch.tensor(1.0), (2, 3.0)])
    raises(
        AssertionError,
        "Scalars are not close!\n\nExpected 3.0 but got 2.0.\n"
        "Absolute difference: 1.0 (up to 1e-07 allowed)\nRelative difference: 0.3333333333333333 (up to 1e-07 allowed)"
        "\n\nThe failure occurred for item [1]",
        [1.0, 2.0],
        [1.0, 3.0],
    )
    info = raises(
        AssertionError,
        "Scalars are not close!\n\nExpected 2.0 but got 1.0.\n"
        "Absolute difference: 1.0 (up to 1e-07 allowed)\nRelative difference: 0.5 (up to 1e-07 allowed)"
        "\n\nThe failure occurred for item ['a'][0]",
        {"a": [1.0]},
        {"a": [2.0]},
    )
    assert info.type is AssertionError
    raises(AssertionError, "The length of the sequences mismatch: 2 != 3", (1, 2), (1, 2, 3))
    raises(
        AssertionError,
        "The keys of the mappings do not match:\nMissing keys in the actual mapping: ['b']\n"
        "Additional keys in the actual mapping: ['a']",
        {"a": 1},
        {"b": 1},
    )


def test_unsupported_pairs():
    with pytest.raises(
        TypeError, match=r"No comparison pair was able to handle inputs of type .*Tensor'> and <class 'list'>"
    ):
        assert_close(torch.tensor([1.0]), [1.0])
    with pytest.raises(TypeError, match="No comparison pair was able to handle inputs of type <class 'float'> and"):
        assert_close(1.0, torch.tensor(1.0))
    assert_close(np.array([1.0, 2.0]), np.array([1.0, 2.0]))  # two tensor-likes


def test_msg():
    assert_close(torch.tensor([1.0]), torch.tensor([1.0]), msg="custom")
    raises(AssertionError, "custom", torch.tensor([1.0, 2.0]), torch.tensor([1.0, 3.0]), msg="custom")
    info = raises(
        AssertionError,
        "Header\n\nTensor-likes are not close!\n\nMismatched elements: 2 / 3 (66.7%)\n"
        "Greatest absolute difference: 2.0 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 1.0 at index (1,) (up to 1.3e-06 allowed)\n\nFooter",
        torch.tensor([1.0, 4.0, 5.0]),
        torch.tensor([1.0, 2.0, 3.0]),
        msg=lambda m: f"Header\n\n{m}\n\nFooter",
    )
    assert info.type is AssertionError


def test_make_tensor():
    t = make_tensor(3, 4, dtype=torch.float32, device="cpu", low=-1, high=1)
    assert t.shape == (3, 4) and t.dtype == torch.float32 and bool((t >= -1).all()) and bool((t <= 1).all())
    i = make_tensor((50,), dtype=torch.int64, device="cpu", low=0, high=3)
    assert set(i.tolist()) <= {0, 1, 2}
    n = make_tensor(2, 3, dtype=torch.float64, device="cpu", noncontiguous=True)
    assert not n.is_contiguous() and n.shape == (2, 3)
    z = make_tensor(100, dtype=torch.int32, device="cpu", low=-1, high=2, exclude_zero=True)
    assert 0 not in z.tolist()
    assert make_tensor(2, dtype=torch.float32, device="cpu", requires_grad=True).requires_grad
