"""Integer (and bool) inputs of kernels upstream dispatches on floats only refuse as upstream does, instead of
returning a silently promoted (or wrapped) result: lerp, igamma/igammac, round(decimals=), the pointwise losses
(l1 stays a composite on integers, as upstream). Found by the fuzz's OpInfo samples cast to dtypes their entries
do not claim (python -m tools.fuzz --opinfo --opinfo-dtypes as-int64)."""

from __future__ import annotations

import pytest

import torch
import torch.nn.functional as F

A, B = torch.tensor([1, 2, 3]), torch.tensor([3, 1, 0])


@pytest.mark.parametrize("dtype", [torch.int64, torch.uint8, torch.bool])
def test_lerp_takes_floats_only(dtype):
    with pytest.raises(NotImplementedError, match='"lerp_kernel_scalar" not implemented for'):
        torch.lerp(A.to(dtype), B.to(dtype), 0.5)
    with pytest.raises(NotImplementedError, match='"lerp_kernel_tensor" not implemented for'):
        torch.lerp(A.to(dtype), B.to(dtype), A.to(dtype))


def test_lerp_weight_and_end_of_selfs_dtype():
    x = A.float()
    with pytest.raises(RuntimeError, match="expected dtype float for `weight` but got dtype long int"):
        torch.lerp(x, B.float(), A)
    with pytest.raises(RuntimeError, match="expected dtype float for `end` but got dtype double"):
        torch.lerp(x, B.double(), 0.5)
    assert torch.lerp(x, B.float(), 0.5).tolist() == [2.0, 1.5, 1.5]


@pytest.mark.parametrize("fn", [torch.igamma, torch.igammac])
def test_igamma_of_integers_refuses(fn):
    with pytest.raises(NotImplementedError, match=r"\"igammac?_cpu\" not implemented for 'Long'"):
        fn(A, B)
    assert fn(A.float(), B).dtype == torch.float32  # one float operand: promoted, computed


def test_round_with_decimals_takes_floats_only():
    assert torch.round(A).tolist() == [1, 2, 3]  # plain round of integers is the identity
    with pytest.raises(NotImplementedError, match="\"round_vml_cpu\" not implemented for 'Long'"):
        torch.round(A, decimals=0)
    with pytest.raises(NotImplementedError, match="\"round_cpu\" not implemented for 'Byte'"):
        torch.round(A.byte(), decimals=2)


def test_l1_loss_of_integers_is_the_composite():
    assert F.l1_loss(A, B, reduction="none").tolist() == [2, 1, 3]
    total = F.l1_loss(A, B, reduction="sum")
    assert total.dtype == torch.int64 and total.item() == 6
    assert F.l1_loss(A.byte(), B.byte(), reduction="none").tolist() == [254, 1, 3]  # 1 - 3 wraps, as upstream
    with pytest.raises(RuntimeError, match="mean\\(\\): could not infer output dtype"):
        F.l1_loss(A, B)


@pytest.mark.parametrize(
    "fn, message",
    [
        (lambda a, b: F.mse_loss(a, b), "\"mse_cpu\" not implemented for 'Long'"),
        (lambda a, b: F.smooth_l1_loss(a, b), "\"smooth_l1_cpu\" not implemented for 'Long'"),
        (lambda a, b: F.huber_loss(a, b), "\"huber_cpu\" not implemented for 'Long'"),
        (lambda a, b: F.binary_cross_entropy(a, b), "\"binary_cross_entropy\" not implemented for 'Long'"),
        (lambda a, b: F.binary_cross_entropy_with_logits(a, b), "\"log_sigmoid_cpu\" not implemented for 'Long'"),
        (lambda a, b: F.mse_loss(a.cfloat(), b.cfloat()), "\"mse_cpu\" not implemented for 'ComplexFloat'"),
    ],
)
def test_other_pointwise_losses_refuse_integers(fn, message):
    with pytest.raises(NotImplementedError, match=message):
        fn(A, B)


def test_kl_div_refuses_integers():
    for log_target in (False, True):
        with pytest.raises(RuntimeError, match="kl_div: Integral inputs not supported."):
            F.kl_div(A, B, reduction="sum", log_target=log_target)


T, IDX = torch.tensor([True, False, True]), torch.tensor([0, 0, 1])


def test_bool_powers_with_a_tensor_exponent_refuse():
    for fn in (lambda: torch.pow(T, T), lambda: torch.pow(True, T), lambda: T.clone().pow_(T)):
        with pytest.raises(NotImplementedError, match="\"pow\" not implemented for 'Bool'"):
            fn()
    assert torch.pow(T, 2).tolist() == [True, False, True]  # a Python-number exponent is computed
    assert torch.pow(T, torch.tensor(2)).tolist() == [1, 0, 1]  # promoted to int64


def test_bool_mean_and_index_reductions_refuse():
    with pytest.raises(NotImplementedError, match="scatter_gather_tensor_cpu_reduce_mean"):
        torch.zeros(2, dtype=torch.bool).scatter_reduce(0, IDX, T, "mean")
    assert torch.zeros(2, dtype=torch.bool).scatter_reduce(0, IDX, T, "amax").tolist() == [True, True]
    for reduce in ("prod", "mean", "amax", "amin"):
        with pytest.raises(NotImplementedError, match="\"index_func_\" not implemented for 'Bool'"):
            torch.zeros(2, dtype=torch.bool).index_reduce(0, IDX, T, reduce)


Z = torch.tensor([1 + 2j, 3 - 1j, -2 + 0j])


def test_complex_scatter_mean_divides_and_orderings_refuse():
    out = torch.zeros(2, dtype=torch.cfloat).scatter_reduce(0, IDX, Z, "mean")
    torch.testing.assert_close(out, torch.tensor([(0 + 1 + 2j + 3 - 1j) / 3, (0 - 2 + 0j) / 2], dtype=torch.cfloat))
    for reduce in ("amax", "amin"):
        with pytest.raises(NotImplementedError, match=f"scatter_gather_tensor_cpu_reduce_{reduce}"):
            torch.zeros(2, dtype=torch.cfloat).scatter_reduce(0, IDX, Z, reduce)
    with pytest.raises(NotImplementedError, match="\"index_func_\" not implemented for 'ComplexFloat'"):
        torch.zeros(2, dtype=torch.cfloat).index_reduce(0, IDX, Z, "prod")


def test_complex_unique_consecutive_and_cdist_refuse():
    with pytest.raises(NotImplementedError, match="\"unique\" not implemented for 'ComplexFloat'"):
        torch.unique_consecutive(Z)
    with pytest.raises(NotImplementedError, match="\"unique_dim\" not implemented for 'ComplexFloat'"):
        torch.unique_consecutive(Z[None], dim=1)
    x = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="cdist only supports floating-point dtypes, X1 got: ComplexFloat"):
        torch.cdist(x.cfloat(), x.cfloat())
    with pytest.raises(RuntimeError, match="cdist only supports floating-point dtypes, X2 got: Long"):
        torch.cdist(x, x.long())
