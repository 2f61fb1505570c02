"""torch-namespace names that real code calls and that upstream's API list showed missing: asarray,
frombuffer, to_dlpack, kaiser_window, gradient, histogram, frobenius_norm / nuclear_norm, set_printoptions,
the global switches (deterministic algorithms, matmul precision, interop threads, warn_always), and the
torch.* forms of NN losses with their integer reduction; each against NumPy or torch.nn.functional."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def test_asarray_shares_or_copies_as_asked():
    a = np.arange(6, dtype=np.float32)
    t = torch.asarray(a)
    a[0] = 42
    assert t[0].item() == 42  # shared
    c = torch.asarray(a, copy=True)
    a[1] = 7
    assert c[1].item() == 1
    assert torch.asarray([1, 2, 3]).dtype == torch.int64
    assert torch.asarray([1.5], dtype=torch.float64).dtype == torch.float64
    x = torch.ones(3)
    assert torch.asarray(x) is x or torch.asarray(x).data_ptr() == x.data_ptr()
    assert torch.asarray(x, dtype=torch.float64).dtype == torch.float64
    with pytest.raises(ValueError):
        torch.asarray(x, dtype=torch.float64, copy=False)
    assert torch.asarray(3.0, requires_grad=True).requires_grad


def test_frombuffer_views_the_bytes():
    buf = bytearray(np.arange(5, dtype=np.int32).tobytes())
    t = torch.frombuffer(buf, dtype=torch.int32)
    assert t.tolist() == [0, 1, 2, 3, 4]
    buf[0] = 9
    assert t[0].item() == 9  # no copy
    assert torch.frombuffer(buf, dtype=torch.int32, count=2, offset=8).tolist() == [2, 3]
    with pytest.raises(ValueError):
        torch.frombuffer(buf, dtype=torch.int32, count=9)


def test_to_dlpack_round_trip():
    x = torch.arange(4.0)
    y = torch.from_dlpack(torch.to_dlpack(x))
    assert y.data_ptr() == x.data_ptr() and y.tolist() == x.tolist()


@pytest.mark.parametrize("periodic", [True, False])
def test_kaiser_window_against_numpy(periodic):
    n, beta = 9, 6.5
    want = np.kaiser(n + 1, beta)[:n] if periodic else np.kaiser(n, beta)
    got = torch.kaiser_window(n, periodic, beta, dtype=torch.float64)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    assert torch.kaiser_window(1).tolist() == [1.0] and torch.kaiser_window(0).numel() == 0


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_against_numpy(edge_order):
    rng = np.random.default_rng(0)
    f = rng.standard_normal((5, 7))
    coords = np.cumsum(rng.uniform(0.5, 2, 7))
    got = torch.gradient(torch.from_numpy(f), spacing=[2.0, 0.5], edge_order=edge_order)
    for g, w in zip(got, np.gradient(f, 2.0, 0.5, edge_order=edge_order)):
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-12)
    (got,) = torch.gradient(torch.from_numpy(f), spacing=(torch.from_numpy(coords),), dim=1, edge_order=edge_order)
    np.testing.assert_allclose(got.numpy(), np.gradient(f, coords, axis=1, edge_order=edge_order), rtol=1e-12)
    with pytest.raises(RuntimeError, match="at least edge_order"):
        torch.gradient(torch.ones(2), edge_order=2)


def test_histogram_against_numpy():
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal(200), rng.uniform(size=200)
    hist, edges = torch.histogram(torch.from_numpy(x), 7)
    want_hist, want_edges = np.histogram(x, 7)
    np.testing.assert_allclose(hist.numpy(), want_hist)
    np.testing.assert_allclose(edges.numpy(), want_edges, rtol=1e-12)
    hist, _ = torch.histogram(torch.from_numpy(x), 5, range=(-1.0, 1.0), weight=torch.from_numpy(w), density=True)
    np.testing.assert_allclose(hist.numpy(), np.histogram(x, 5, range=(-1, 1), weights=w, density=True)[0], rtol=1e-12)
    bins = torch.tensor([-3.0, 0.0, 0.5, 3.0], dtype=torch.float64)
    np.testing.assert_allclose(
        torch.histogram(torch.from_numpy(x), bins).hist.numpy(), np.histogram(x, bins.numpy())[0]
    )


def test_frobenius_and_nuclear_norms():
    a = torch.randn(3, 4, dtype=torch.float64)
    np.testing.assert_allclose(torch.frobenius_norm(a, (0, 1)).item(), np.linalg.norm(a.numpy()), rtol=1e-12)
    np.testing.assert_allclose(torch.nuclear_norm(a).item(), np.linalg.norm(a.numpy(), "nuc"), rtol=1e-12)
    assert torch.nuclear_norm(a, keepdim=True).shape == (1, 1)


def test_set_printoptions():
    x = torch.tensor([1.23456, 2.5])
    try:
        torch.set_printoptions(precision=2)
        assert repr(x) == "tensor([1.23, 2.50])"
        torch.set_printoptions(sci_mode=True)
        assert "e+00" in repr(x)
        torch.set_printoptions(profile="default", threshold=5, edgeitems=1)
        assert repr(torch.arange(10)) == "tensor([0,  ..., 9])"
    finally:
        torch.set_printoptions(profile="default")
    assert repr(x) == "tensor([1.2346, 2.5000])"


def test_global_switches():
    try:
        assert not torch.are_deterministic_algorithms_enabled()
        torch.use_deterministic_algorithms(True, warn_only=True)
        assert torch.are_deterministic_algorithms_enabled() and torch.is_deterministic_algorithms_warn_only_enabled()
        assert torch.get_deterministic_debug_mode() == 1
        torch.set_deterministic_debug_mode("error")
        assert torch.get_deterministic_debug_mode() == 2
        with pytest.raises(RuntimeError, match="invalid value of debug_mode"):
            torch.set_deterministic_debug_mode("x")
    finally:
        torch.use_deterministic_algorithms(False)
    assert torch.get_deterministic_debug_mode() == 0
    try:
        torch.set_float32_matmul_precision("high")
        assert torch.get_float32_matmul_precision() == "high"
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            torch.set_float32_matmul_precision("foo")
        assert torch.get_float32_matmul_precision() == "high"
    finally:
        torch.set_float32_matmul_precision("highest")
    assert torch.get_num_interop_threads() >= 1
    with pytest.raises(RuntimeError, match="positive integer"):
        torch.set_num_interop_threads(0)
    assert torch.get_default_device() == torch.device("cpu")
    assert torch.legacy_contiguous_format == torch.contiguous_format


def test_losses_in_the_torch_namespace_take_an_integer_reduction():
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(4, 3, generator=g), torch.rand(4, 3, generator=g)
    lp, p = x.log_softmax(1), y.softmax(1)
    for r, name in enumerate(("none", "mean", "sum")):
        torch.testing.assert_close(torch.kl_div(lp, p, r), F.kl_div(lp, p, reduction=name))
        torch.testing.assert_close(
            torch.binary_cross_entropy_with_logits(x, y, None, None, r),
            F.binary_cross_entropy_with_logits(x, y, reduction=name),
        )
        t = torch.tensor([1.0, -1.0, 1.0, -1.0])
        torch.testing.assert_close(
            torch.cosine_embedding_loss(x, y, t, 0.1, r), F.cosine_embedding_loss(x, y, t, 0.1, reduction=name)
        )
        torch.testing.assert_close(
            torch.margin_ranking_loss(x[:, 0], y[:, 0], t, 0.2, r),
            F.margin_ranking_loss(x[:, 0], y[:, 0], t, 0.2, reduction=name),
        )
        torch.testing.assert_close(
            torch.triplet_margin_loss(x, y, -x, 1.0, 2.0, 1e-6, False, r),
            F.triplet_margin_loss(x, y, -x, reduction=name),
        )
        torch.testing.assert_close(
            torch.poisson_nll_loss(x, y, True, False, 1e-8, r), F.poisson_nll_loss(x, y, reduction=name)
        )
    w = torch.randn(2, 3, 3, 3, generator=g)
    img = torch.randn(1, 3, 5, 5, generator=g)
    torch.testing.assert_close(
        torch.convolution(img, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), F.conv2d(img, w, padding=1)
    )
    z = torch.tensor([-1.0, 0.5, 2.0])
    assert torch.threshold_(z, 1.0, 0.0) is z and z.tolist() == [0.0, 0.0, 2.0]
    assert torch.dropout_(z, 0.5, False) is z


def test_tensor_methods_put_map2_new_empty_strided_is_set_to():
    y = torch.zeros(5)
    z = y.put(torch.tensor([0, 4]), torch.tensor([9.0, 8.0]))
    assert z.tolist() == [9.0, 0.0, 0.0, 0.0, 8.0] and y.tolist() == [0.0] * 5
    x = torch.arange(6.0)
    assert x.map2_(torch.ones(6), torch.full((6,), 2.0), lambda a, b, c: a + b * c).tolist() == [2, 3, 4, 5, 6, 7]
    e = x.new_empty_strided((2, 3), (1, 2))
    assert e.shape == (2, 3) and e.stride() == (1, 2) and e.dtype == x.dtype
    assert x.is_set_to(x) and not x.is_set_to(x.clone()) and not x.is_set_to(x[1:])
    assert not x.is_pinned()


def test_histogram_refuses_a_non_finite_range_and_defaults_to_100_bins():
    with pytest.raises(RuntimeError, match="is not finite"):
        torch.histogram(torch.tensor([1.0, float("nan"), 2.0]), bins=2)
    assert torch.histogram(torch.arange(10.0)).hist.shape == (100,)


def test_put_index_put_as_strided_scatter_empty_permuted():
    x = torch.zeros(3, 4)
    out = torch.put(x, torch.tensor([1, 5]), torch.tensor([7.0, 8.0]))
    assert out.reshape(-1)[[1, 5]].tolist() == [7.0, 8.0] and x.sum().item() == 0
    assert torch.index_put(x, (torch.tensor([0]),), torch.tensor(2.0)).sum().item() == 8.0
    y = x.clone()
    assert torch.index_put_(y, (torch.tensor([1]),), torch.tensor(1.0)) is y and y.sum().item() == 4.0
    assert torch.as_strided_scatter(torch.zeros(4), torch.ones(2), (2,), (2,)).tolist() == [1.0, 0.0, 1.0, 0.0]
    e = torch.empty_permuted((2, 3, 4), (0, 2, 1))
    assert e.shape == (2, 3, 4) and e.stride() == (12, 1, 3)
    z = torch.zeros(6)
    assert torch.as_strided_(z, (2, 2), (2, 1)) is z and z.shape == (2, 2)


def test_set_default_device():
    assert torch.get_default_device() == torch.device("cpu")
    try:
        torch.set_default_device("cpu")
        assert torch.get_default_device() == torch.device("cpu")
        for t in (torch.zeros(2), torch.arange(3), torch.rand(2), torch.tensor([1.0]), torch.as_tensor([1])):
            assert t.device == torch.device("cpu")
    finally:
        torch.set_default_device(None)
    assert torch.get_default_device() == torch.device("cpu")


@pytest.mark.parametrize("shape", [(50, 1), (200, 2), (7, 5, 3)])
def test_histogramdd_matches_numpy(shape):
    rng = np.random.default_rng(3)
    a = rng.normal(size=shape)
    pts = a.reshape(-1, shape[-1])
    d = shape[-1]
    w = rng.random(pts.shape[0])
    for bins in (4, [3 + k for k in range(d)]):
        for density in (False, True):
            weight = torch.from_numpy(w).reshape(shape[:-1])
            got = torch.histogramdd(torch.from_numpy(a), bins=bins, weight=weight, density=density)
            want, edges = np.histogramdd(pts, bins=bins, weights=w, density=density)
            np.testing.assert_allclose(got.hist.numpy(), want, rtol=1e-12, atol=1e-12)
            assert len(got.bin_edges) == d
            for e, ref in zip(got.bin_edges, edges):
                np.testing.assert_allclose(e.numpy(), ref, rtol=1e-12)
    rng_list = [v for k in range(d) for v in (-1.0 - k, 1.0 + k)]
    got = torch.histogramdd(torch.from_numpy(a), bins=5, range=rng_list)
    want, _ = np.histogramdd(pts, bins=5, range=[(-1.0 - k, 1.0 + k) for k in range(d)])
    np.testing.assert_array_equal(got.hist.numpy(), want)
    edges = [torch.tensor([-3.0, -0.5, 0.0, 2.0], dtype=torch.float64)] * d
    got = torch.histogramdd(torch.from_numpy(a), bins=edges)
    want, _ = np.histogramdd(pts, bins=[e.numpy() for e in edges])
    np.testing.assert_array_equal(got.hist.numpy(), want)


def test_histogramdd_errors():
    x = torch.rand(4, 2)
    with pytest.raises(RuntimeError, match="size of bins must be equal to the innermost dimension"):
        torch.histogramdd(x, bins=[2])
    with pytest.raises(RuntimeError, match="range should have 4 elements, but got 2"):
        torch.histogramdd(x, bins=2, range=[0.0, 1.0])
    with pytest.raises(RuntimeError, match="min should not exceed max, but got min 1 max 0 for dimension 0"):
        torch.histogramdd(x, bins=2, range=[1.0, 0.0, 0.0, 1.0])
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        torch.histogramdd(x.long(), bins=2)
    with pytest.raises(RuntimeError, match="same shape as the input tensor excluding its innermost dimension"):
        torch.histogramdd(x, bins=2, weight=torch.ones(8))


def test_pairwise_distance_of_complex_inputs_is_real():
    a, b = torch.tensor([[1 + 1j, 2j]]), torch.tensor([[0j, 0j]])
    d = torch.nn.functional.pairwise_distance(a, b, eps=0.0)
    assert not d.is_complex()
    torch.testing.assert_close(d, torch.tensor([6.0**0.5]))
