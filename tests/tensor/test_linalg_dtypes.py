"""The dtypes torch.linalg takes and how it refuses the others, as upstream: matrix_power of integer, 16-bit and
bool matrices (its sequence of products, no multiplication by the identity), eigh's kernel refusal, cross's single
dtype and its deprecated default dim; the positive-(semi)definite constraints of torch.distributions per matrix."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import torch

LA = torch.linalg
A = [[1, 2], [3, 4]]


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("fn", [LA.matrix_power, torch.matrix_power])
def test_matrix_power_of_any_dtype_matmul_takes(fn, dtype):
    a = torch.tensor(A).to(dtype)
    for n in (0, 1, 2, 3, 5):
        expected = np.linalg.matrix_power(np.array(A, dtype=np.float64), n)
        got = fn(a, n)
        assert got.dtype == dtype and got.shape == (2, 2)
        rtol = {torch.float16: 1e-3, torch.bfloat16: 8e-3}.get(dtype, 0)  # products past 2048 (256) round
        np.testing.assert_allclose(got.double().numpy(), expected % 256 if dtype == torch.uint8 else expected, rtol)
    with pytest.raises(RuntimeError, match="linalg.inv"):  # a negative power inverts: floats only
        fn(a, -1)


def test_matrix_power_of_bool_and_the_shape_checks():
    b = torch.tensor([[True, False], [True, True]])
    assert LA.matrix_power(b, 0).tolist() == [[True, False], [False, True]]
    assert LA.matrix_power(b, 1).tolist() == b.tolist()
    with pytest.raises(RuntimeError, match="addmm_impl_cpu_"):
        LA.matrix_power(b, 3)
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        LA.matrix_power(torch.ones(3, dtype=torch.int64), 2)
    with pytest.raises(RuntimeError, match="batches of square matrices, but they are 2 by 3"):
        LA.matrix_power(torch.ones(2, 3, dtype=torch.int64), 2)


def test_matrix_power_does_not_multiply_by_the_identity():
    a = torch.tensor([[float("inf"), 1.0], [0.0, 1.0]])
    assert torch.equal(LA.matrix_power(a, 1), a)  # eye @ a would put inf * 0 = nan beside the inf
    for n in (2, 3):  # products of a alone, as upstream (one more nan where the identity multiplied in)
        expected = a @ a if n == 2 else (a @ a) @ a
        torch.testing.assert_close(LA.matrix_power(a, n), expected, equal_nan=True, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.int64, torch.bool])
@pytest.mark.parametrize("fn", [LA.eigh, LA.eigvalsh])
def test_eigh_refuses_other_dtypes_in_its_kernel(fn, dtype):
    with pytest.raises(NotImplementedError, match=r"\"linalg_eigh_cpu\" not implemented for"):
        fn(torch.eye(3).to(dtype))
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):  # the shape is checked before the dtype
        fn(torch.ones(3).to(dtype))
    empty = fn(torch.zeros(0, 3, 3).to(dtype))  # nothing to dispatch: upstream returns the empty result
    assert (empty[0] if isinstance(empty, tuple) else empty).shape == (0, 3)


def test_cross_takes_one_dtype():
    v = torch.tensor([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="expected scalar type Long but found Float"):
        LA.cross(v.long(), v)
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        torch.cross(v, v.double(), dim=0)
    with pytest.raises(NotImplementedError, match="\"cross\" not implemented for 'Bool'"):
        LA.cross(v.bool(), v.bool())
    assert LA.cross(v.long(), v.flip(0).long()).tolist() == np.cross([1, 2, 3], [3, 2, 1]).tolist()


def test_cross_without_dim_warns_at_the_caller():
    v = torch.tensor([[1.0, 2.0, 3.0]])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = torch.cross(v, v.flip(1))
    assert out.shape == (1, 3)
    msgs = [w for w in caught if "without specifying the dim arg is deprecated" in str(w.message)]
    assert msgs and msgs[0].filename == __file__


@pytest.mark.skipif(
    "TORCH_REFERENCE" in os.environ, reason="upstream returns the symmetry check when one matrix is not symmetric"
)
@pytest.mark.parametrize("name", ["positive_definite", "positive_semidefinite"])
def test_definite_constraints_answer_per_matrix(name):
    check = getattr(torch.distributions.constraints, name).check
    batch = torch.tensor(
        [
            [[1.0, 0.0, 0.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]],  # not symmetric
            [[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [1.0, 0.0, 1.0]],  # symmetric, an eigenvalue below 0
            [[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        ]
    )
    assert check(batch).tolist() == [False, False, True]  # the second is neither, whatever the first is
    assert check(torch.zeros(0, 3, 3)).shape == (0,)
    assert check(torch.eye(3)).item() is True
    assert check(batch[:1].long()).tolist() == [False]
