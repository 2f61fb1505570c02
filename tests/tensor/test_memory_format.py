"""torch.memory_format: the objects, preserve_format's layout rules for clone / *_like / to / flip
and pointwise results, channels_last(_3d) layouts, is_contiguous(memory_format=), and PyTorch's
errors. Strides are compared with what upstream PyTorch gives (this file also runs against it)."""

from __future__ import annotations

import numpy as np
import pytest

import torch

FORMATS = ("contiguous_format", "preserve_format", "channels_last", "channels_last_3d")


def test_objects():
    for name in FORMATS:
        f = getattr(torch, name)
        assert isinstance(f, torch.memory_format)
        assert repr(f) == str(f) == f"torch.{name}"
    assert torch.channels_last is torch.channels_last
    assert torch.channels_last != torch.contiguous_format


def _base():
    return torch.arange(24.0).reshape(2, 3, 4)


# (view, strides PyTorch's preserve_format gives its copies)
PRESERVED = {
    "contiguous": (lambda b: b, (12, 4, 1)),
    "transposed": (lambda b: b.transpose(0, 2), (1, 4, 12)),  # dense: the same strides
    "permuted": (lambda b: b.permute(1, 0, 2), (4, 12, 1)),
    "stepped": (lambda b: b[:, ::2], (8, 4, 1)),  # not dense: dense strides in its dim order
    "transposed_stepped": (lambda b: b.transpose(0, 2)[::2], (1, 2, 6)),
    "expanded": (lambda b: b[0].expand(5, 3, 4), (12, 4, 1)),  # stride-0 dims keep their place
}

MAKERS = {
    "clone": lambda t: t.clone(),
    "clone_preserve": lambda t: torch.clone(t, memory_format=torch.preserve_format),
    "empty_like": torch.empty_like,
    "zeros_like": torch.zeros_like,
    "ones_like": torch.ones_like,
    "full_like": lambda t: torch.full_like(t, 7.0),
    "rand_like": torch.rand_like,
    "randn_like": torch.randn_like,
    "to_float64": lambda t: t.to(torch.float64),
    "flip": lambda t: t.flip(0),
    "neg": lambda t: -t,
}


@pytest.mark.parametrize("maker", MAKERS)
@pytest.mark.parametrize("layout", PRESERVED)
def test_preserve_format(maker, layout):
    view_of, strides = PRESERVED[layout]
    t = view_of(_base())
    out = MAKERS[maker](t)
    assert out.shape == t.shape
    assert out.stride() == strides
    if maker.startswith(("clone", "to_")):
        np.testing.assert_array_equal(out.numpy(), t.numpy())


@pytest.mark.parametrize("maker", ["clone", "empty_like", "zeros_like", "ones_like", "full_like", "rand_like"])
def test_contiguous_format_asked_for(maker):
    kw = {"memory_format": torch.contiguous_format}
    t = _base().transpose(0, 2)
    out = {
        "clone": lambda: t.clone(**kw),
        "empty_like": lambda: torch.empty_like(t, **kw),
        "zeros_like": lambda: torch.zeros_like(t, **kw),
        "ones_like": lambda: torch.ones_like(t, **kw),
        "full_like": lambda: torch.full_like(t, 2, **kw),
        "rand_like": lambda: torch.rand_like(t, **kw),
    }[maker]()
    assert out.is_contiguous() and out.stride() == (6, 2, 1)


def test_channels_last():
    x = torch.arange(120.0).reshape(2, 3, 4, 5)
    y = x.contiguous(memory_format=torch.channels_last)
    assert y.stride() == (60, 1, 15, 3)
    assert y.is_contiguous(memory_format=torch.channels_last) and not y.is_contiguous()
    assert not x.is_contiguous(memory_format=torch.channels_last)
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    assert y.contiguous(memory_format=torch.channels_last) is y
    assert y.contiguous().stride() == (60, 20, 5, 1)
    assert torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert torch.empty(2, 3, 1, 1, memory_format=torch.channels_last).stride() == (3, 1, 3, 3)
    assert torch.empty(0, 3, 2, 2).contiguous(memory_format=torch.channels_last).stride() == (12, 1, 6, 3)
    assert torch.ones(2, 3, 1, 1).contiguous(memory_format=torch.channels_last).is_contiguous()
    # results of pointwise ops and copies keep the layout; a stepped view gets dense channels-last
    assert (y + 1).stride() == torch.zeros_like(y).stride() == y.clone().stride() == (60, 1, 15, 3)
    assert y[:, :, ::2].clone().stride() == (30, 1, 15, 3)
    assert not y[:, :, ::2].is_contiguous(memory_format=torch.channels_last)
    z = torch.rand(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last_3d)
    assert z.stride() == (360, 1, 90, 18, 3) and z.is_contiguous(memory_format=torch.channels_last_3d)
    assert not z.is_contiguous(memory_format=torch.channels_last)


def test_to_memory_format():
    x = torch.arange(120.0).reshape(2, 3, 4, 5)
    y = x.to(memory_format=torch.channels_last)
    assert y.stride() == (60, 1, 15, 3) and y is not x
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    # nothing to change: self itself, as upstream's to() returns
    assert y.to(memory_format=torch.channels_last) is y
    assert x.to() is x and x.to(memory_format=torch.preserve_format) is x
    assert y.to(memory_format=torch.contiguous_format).stride() == (60, 20, 5, 1)
    # with a dtype, a device or another tensor
    assert x.to(torch.float64, memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert x.to("cpu", torch.float16, memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert x.to(x, memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert x.to(dtype=torch.float64).dtype == torch.float64 and x.to(device="cpu") is x
    # copy=True copies even when the layout already matches; preserve_format keeps it
    c = y.to(memory_format=torch.preserve_format, copy=True)
    assert c is not y and c.stride() == (60, 1, 15, 3)
    # row-major and channels-last at once ([N, C, 1, 1]): counts as row-major, so it is copied
    t = torch.randn(2, 3, 1, 1)
    assert t.to(memory_format=torch.channels_last) is not t
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
        torch.randn(2, 3, 4).to(memory_format=torch.channels_last)


def test_to_memory_format_gradient():
    a = torch.randn(2, 3, 4, 5, dtype=torch.float64, requires_grad=True)
    w = torch.arange(120.0, dtype=torch.float64).reshape(2, 3, 4, 5)
    (a.to(memory_format=torch.channels_last) * w).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), w.numpy())


def test_module_to_memory_format():
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.Linear(2, 2))
    weight = net[0].weight
    assert net.to(memory_format=torch.channels_last) is net
    # only 4-D (and 5-D) tensors change layout; the Parameter object stays the same
    assert net[0].weight is weight and weight.stride() == (27, 1, 9, 3)
    assert net[0].bias.stride() == (1,) and net[2].weight.stride() == (2, 1)
    net.to(torch.float64, memory_format=torch.contiguous_format)
    assert net[0].weight.stride() == (27, 9, 3, 1) and net[0].weight.dtype == torch.float64
    assert net[1].num_batches_tracked.dtype == torch.int64
    out = net.to(torch.float32, memory_format=torch.channels_last)(torch.randn(1, 3, 4, 4))
    assert out.shape == (1, 4, 2, 2)


def test_preserve_format_on_contiguous_calls():
    x = _base()
    assert x.contiguous(memory_format=torch.preserve_format) is x  # PyTorch returns self here
    assert x.is_contiguous(memory_format=torch.preserve_format)
    assert x.is_contiguous(memory_format=torch.contiguous_format)


def test_errors():
    x = _base()
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
        x.contiguous(memory_format=torch.channels_last)
    with pytest.raises(RuntimeError, match="required rank 5 tensor to use channels_last_3d format"):
        torch.empty(2, 3, 4, memory_format=torch.channels_last_3d)
    with pytest.raises(RuntimeError, match="unsupported memory format Preserve"):
        torch.empty(2, 3, memory_format=torch.preserve_format)
    with pytest.raises(RuntimeError, match="preserve memory format is unsupported by the contiguous operator"):
        x.transpose(0, 1).contiguous(memory_format=torch.preserve_format)
    with pytest.raises(TypeError):
        x.clone(memory_format="channels_last")


def test_autograd_through_layouts():
    x = torch.rand(2, 3, 4, 5, dtype=torch.float64, requires_grad=True)
    y = x.contiguous(memory_format=torch.channels_last)
    (y * y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy())
    w = x.transpose(1, 3).clone()
    assert w.stride() == x.transpose(1, 3).stride()
    assert w.requires_grad


def test_elementwise_results_are_laid_out_as_upstreams_tensoriterator_lays_them():
    t = torch.arange(8.0, dtype=torch.float64).reshape(4, 2).T  # strides (1, 2)
    # a number operand decides nothing: the tensor's layout is kept, whichever side the number is on
    assert (2.0 / t).stride() == torch.div(2.0, t).stride() == (t * 2).stride() == (1, 2)
    # the first operand whose strides tell two dims apart decides; a broadcast (expanded) one does not
    c = torch.zeros(2, 4, dtype=torch.float64)
    assert (c + t).stride() == (4, 1) and (t + c).stride() == (1, 2)
    e = torch.zeros(1, 1, dtype=torch.int8).expand(3, 3)
    assert (e & torch.zeros(3, 5, dtype=torch.int8)[:, 2:].T).stride() == (1, 3)
    # a lower-rank operand decides its own dims; the new leading dim goes outside
    h = torch.zeros(2, 4, dtype=torch.float16).permute(1, 0)
    assert (h + torch.zeros(1, 4, 2, dtype=torch.float64)).stride() == (8, 1, 4)
    # an out= that has to be resized takes that layout too
    out = torch.empty(0, dtype=torch.bool)
    assert torch.ge(t, 0, out=out).stride() == (1, 2)
    out = torch.empty(0, dtype=torch.float64)
    assert torch.add(t, 1, out=out).stride() == (1, 2)
    np.testing.assert_array_equal(out.numpy(), t.numpy() + 1)


def test_an_input_of_another_dtype_lays_out_as_its_dense_copy():
    # upstream's CPU iterator casts such an input first, into a dense copy: its own strides where it is
    # dense, else the order its strides give (an expanded tensor's copy is row-major); the copy's decide
    t = torch.zeros(3, 4).T  # float32, strides (1, 4): dense
    assert (t + torch.ones(4, 3, dtype=torch.float64)).stride() == (1, 4)
    expanded = torch.tensor([[9, 1, 3]], dtype=torch.uint8).expand(4, 3)
    assert (expanded + torch.zeros(3, 5, dtype=torch.int16)[:, 1:].T).stride() == (3, 1)
    assert (torch.tensor([4, 1, 5], dtype=torch.int64).expand(2, 3) + torch.zeros(3, 2).T).stride() == (3, 1)
    sliced = torch.arange(20).view(4, 5)[:, 1:].T  # int64, strides (1, 5): not dense, its copy (1, 4)
    assert (sliced + torch.zeros(4, 4)).stride() == (1, 4)
    assert sliced.exp().stride() == (1, 4)
    # an input of the result's dtype is read in place: its strides
    assert (torch.zeros(4, 4) + sliced).stride() == (4, 1)


def test_where_reads_its_condition_as_given_and_casts_self_and_other_into_dense_copies():
    # upstream converts self and other into the result dtype itself (dense copies) and never copies a bool
    # condition: an expanded mask decides nothing, a transposed self does
    m = torch.tensor([True, False, True, False]).expand(3, 4)
    y = torch.rand(4, 3)
    assert torch.where(m, y.T, 0.0).stride() == (1, 3)
    assert torch.where(m, y.T, torch.zeros(3, 4, dtype=torch.float64)).stride() == (1, 3)
    ints = torch.arange(20).view(4, 5)[:, 1:].T  # int64, not dense: its float64 copy is (1, 4)
    c = torch.ones(1, 4, dtype=torch.bool).expand(4, 4)
    assert torch.where(c, ints, torch.zeros(4, 4, dtype=torch.float64)).stride() == (1, 4)
    np.testing.assert_array_equal(torch.where(m, y.T, 0.0).numpy(), np.where(m.numpy(), y.T.numpy(), 0.0))


def test_masked_fill_and_a_number_to_a_tensors_power_are_row_major():
    t = torch.zeros(3, 2).T
    assert t.masked_fill(torch.tensor([[True, False, True]]), 1.0).stride() == (3, 1)
    assert t.masked_fill(torch.tensor(True), 1.0).stride() == (3, 1)
    for base in (3.0, -5, 1):
        assert (base**t).stride() == torch.pow(base, t).stride() == (3, 1)
    assert (t**2.0).stride() == (1, 2)  # a tensor base keeps its layout


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_round_with_decimals_keeps_a_dense_inputs_layout(dtype):
    # upstream's round.decimals is one unary kernel (16-bit computed in float32): its output follows the input
    x = torch.linspace(-3, 3, 48, dtype=torch.float64).reshape(3, 4, 2, 2).to(dtype)
    for view in (x.transpose(0, 1), x.permute(3, 0, 2, 1)):
        got = torch.round(view, decimals=1)
        assert got.stride() == torch.empty_like(view).stride()
        assert torch.equal(got, torch.round(view.contiguous(), decimals=1))


def test_layout_of_sort_and_of_the_ops_that_return_row_major():
    t = torch.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]]).T  # strides (1, 3)
    values, indices = torch.sort(t, 0)
    assert values.stride() == indices.stride() == (1, 3)  # sort keeps its input's layout
    np.testing.assert_array_equal(values.numpy(), np.sort(t.numpy(), 0))
    for out in (
        torch.scatter(t, 0, torch.tensor([[1, 0]]), torch.ones(1, 2)),
        torch.index_add(t, 0, torch.tensor([1]), torch.ones(1, 2)),
        t.tril(),
        t.triu(),
    ):
        assert out.is_contiguous()


def test_cat_keeps_the_inputs_common_channels_last_layout():
    a = torch.arange(16.0).reshape(2, 2, 2, 2).contiguous(memory_format=torch.channels_last)
    b = torch.arange(16.0, 32.0).reshape(2, 2, 2, 2).contiguous(memory_format=torch.channels_last)
    r = torch.cat([a, b], 1)
    assert r.is_contiguous(memory_format=torch.channels_last) and not r.is_contiguous()
    assert torch.equal(r, torch.cat([a.contiguous(), b.contiguous()], 1))
    assert torch.cat([a, b.contiguous()], 0).is_contiguous()  # one row-major input: row-major
    v = torch.arange(32.0).reshape(2, 2, 2, 2, 2).contiguous(memory_format=torch.channels_last_3d)
    assert torch.cat([v, v], 2).is_contiguous(memory_format=torch.channels_last_3d)


def test_cat_and_stack_name_the_layout_by_upstreams_stride_rules():
    # a channels-last input with gaps is still channels-last; a permuted input whose size-1 dims only make it
    # look channels-last (stack of one transposed 3-D tensor: [3, 3, 2, 1] @ [6, 1, 3, 1]) is row-major
    c = torch.rand(2, 3, 4, 6).contiguous(memory_format=torch.channels_last)[:, :, :, ::2]
    assert torch.cat([c]).is_contiguous(memory_format=torch.channels_last)
    x = torch.zeros(3, 2, 3, dtype=torch.bool).transpose(1, 2)
    assert torch.stack([x], -1).stride() == (6, 2, 1, 1)
    assert torch.stack([torch.arange(8, dtype=torch.int32).reshape(4, 2, 1).transpose(0, 2)], -2).is_contiguous()
    n111 = torch.zeros(4, 1, 1, 1)
    assert torch.cat([n111, n111]).is_contiguous()


def test_stack_inside_the_dims_keeps_the_inputs_layout_as_upstreams_cat_and_view():
    x = torch.arange(16).reshape(2, 2, 4).permute(0, 2, 1)  # [2, 4, 2] @ [8, 1, 4]
    assert torch.stack([x], 2).stride() == (8, 2, 2, 1)  # cat along dim 2 (row-major), split in two
    assert torch.stack([x, x], 0).is_contiguous()
    c = torch.rand(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
    r = torch.stack([c, c], 1)  # cat of channels-last inputs along dim 1, split
    assert r.shape == (2, 2, 3, 4, 5) and torch.equal(r[:, 1], c)
    assert r.stride() == torch.cat([c, c], 1).view(2, 2, 3, 4, 5).stride()


@pytest.mark.parametrize(
    "make, key, strides",
    [
        (lambda: torch.zeros(3, 3, 2, dtype=torch.uint8).transpose(2, 1), torch.tensor([True, True, True]), (6, 1, 2)),
        (lambda: torch.zeros(4, 3).T, (slice(None), [0, 2, 1]), (3, 1)),
        (lambda: torch.zeros(2, 3, 4).permute(2, 0, 1), ([0, 1], slice(None), [1, 2]), (2, 1)),
        (lambda: torch.zeros(4, 3).T, (None, torch.tensor([2, 0, 2])), (12, 4, 1)),
        (lambda: torch.zeros(2, 3, 4).transpose(0, 2), (slice(None), torch.tensor([[0, 1], [2, 0]])), (1, 8, 4, 16)),
    ],
)
def test_advanced_indexing_results_are_laid_out_as_upstreams_index_kernel(make, key, strides):
    # upstream's index runs a TensorIterator over self restrided (stride 0 in the indexed dims) and the
    # indices: the dims self keeps are laid out as in self
    x = make()
    items = key if isinstance(key, tuple) else (key,)
    got = x[key]
    np.testing.assert_array_equal(
        got.numpy(), x.numpy()[tuple(k.numpy() if isinstance(k, torch.Tensor) else k for k in items)]
    )
    assert got.stride() == strides


def test_nonzero_is_column_major_and_ravel_contiguous():
    m = torch.tensor([[True, False, True], [False, True, True]])
    nz = torch.nonzero(m)
    assert nz.tolist() == [[0, 0], [0, 2], [1, 1], [1, 2]] and nz.stride() == (1, 4)
    rows, cols = torch.nonzero(m, as_tuple=True)
    assert rows.stride() == (1,) and cols.tolist() == [0, 2, 1, 2]
    assert torch.argwhere(m).stride() == (1, 4)
    flat = torch.arange(10)[::2].ravel()
    assert flat.stride() == (1,) and flat.tolist() == [0, 2, 4, 6, 8]
