"""The keyword names upstream's functions take, where they differ from the schema's: a torch function's first
tensor is `input`, torch.linalg's are `input` or `A` as upstream's bindings name them, torch.special's
polynomials take `x` and `n`; and the factory keywords code forwards from a tensor (layout=, pin_memory=,
memory_format=, requires_grad=). Also runs against upstream 2.13 (`nox -s tests-reference`)."""

from __future__ import annotations

import pytest

import torch


def _x():
    return torch.arange(6.0).reshape(2, 3)


def test_input_is_the_keyword_of_a_functions_first_tensor():
    x = _x()
    assert torch.add(input=x, other=x).tolist() == (2 * x).tolist()
    assert torch.sum(input=x, dim=0).tolist() == [3.0, 5.0, 7.0]
    assert torch.reshape(input=x, shape=(6,)).shape == (6,)
    assert torch.clamp(input=x, min=1.0, max=4.0).min().item() == 1.0
    assert torch.where(x > 2, input=x, other=torch.zeros(())).tolist() == [[0.0, 0.0, 0.0], [3.0, 4.0, 5.0]]
    with pytest.raises(TypeError):
        torch.add(self=x, other=x)

    assert torch.put(input=torch.zeros(3), index=torch.tensor([1]), source=torch.ones(1)).tolist() == [0.0, 1.0, 0.0]
    assert torch.index_put(input=torch.zeros(3), indices=(torch.tensor([1]),), values=torch.ones(1)).sum() == 1


def test_linalg_keywords_are_upstreams():
    a = torch.tensor([[4.0, 1.0], [1.0, 3.0]], dtype=torch.float64)
    assert torch.allclose(torch.linalg.cholesky(input=a) @ torch.linalg.cholesky(input=a).T, a)
    assert torch.linalg.eigvalsh(input=a).shape == (2,) and torch.linalg.matrix_rank(input=a).item() == 2
    assert torch.linalg.norm(input=a).item() == pytest.approx(27**0.5)
    assert torch.linalg.vector_norm(input=torch.tensor([3.0, 4.0])).item() == 5.0
    assert torch.allclose(torch.linalg.lstsq(a, b=a).solution, torch.eye(2, dtype=torch.float64))
    ones = torch.ones(2, dtype=torch.float64)
    assert torch.allclose(a @ torch.linalg.tensorsolve(a, other=ones), ones)
    assert torch.equal(torch.linalg.matrix_exp(input=torch.zeros(2, 2)), torch.eye(2))
    assert torch.linalg.inv(A=a).shape == (2, 2)  # upstream's inv, solve, det, svd, lu name it A
    with pytest.raises(TypeError):
        torch.linalg.matrix_exp(torch.zeros(2, 2), out=torch.empty(0))  # upstream's takes no out=


def test_special_polynomials_take_x_and_n():
    x = torch.tensor([0.5, 1.0])
    assert torch.special.chebyshev_polynomial_t(x=x, n=2).tolist() == [-0.5, 1.0]  # T2 = 2x^2 - 1
    assert torch.special.hermite_polynomial_h(x, n=torch.tensor(1)).tolist() == [1.0, 2.0]  # H1 = 2x
    assert torch.special.spherical_bessel_j0(x=torch.tensor([0.0])).tolist() == [1.0]
    assert torch.special.zeta(input=torch.tensor([2.0]), other=1.0).item() == pytest.approx(1.6449340668)
    with pytest.raises(TypeError):
        torch.special.chebyshev_polynomial_t(x)


def test_factories_take_layout_strided():
    x = torch.ones(2, 3)
    assert torch.empty(2, dtype=x.dtype, layout=x.layout, device=x.device).shape == (2,)
    assert torch.zeros(2, layout=torch.strided).tolist() == [0.0, 0.0]
    assert torch.zeros_like(x, layout=torch.strided).shape == (2, 3)
    assert torch.arange(3, layout=torch.strided).tolist() == [0, 1, 2]
    assert torch.full((2,), 1.0, layout=None).tolist() == [1.0, 1.0]
    assert torch.eye(2, layout=torch.strided).shape == (2, 2)
    assert torch.empty_strided((2,), (1,), layout=torch.strided).shape == (2,)
    with pytest.raises(TypeError, match="argument 'layout' must be torch.layout, not int"):
        torch.zeros(2, layout=3)


def test_new_factories_and_likes_take_the_forwarded_keywords():
    x = torch.ones(2, 3, dtype=torch.float64)
    assert x.new_zeros(2, layout=torch.strided, pin_memory=False).dtype == torch.float64
    assert x.new_full((2,), 3.0, layout=x.layout).tolist() == [3.0, 3.0]
    assert x.new_empty_strided((2,), (1,), layout=torch.strided).shape == (2,)
    assert torch.scalar_tensor(3, layout=torch.strided, pin_memory=False).item() == 3.0
    r = torch.randint_like(x, 5, requires_grad=False, memory_format=torch.preserve_format)
    assert r.dtype == torch.float64 and r.shape == (2, 3) and bool(((r >= 0) & (r < 5)).all())
    cl = torch.randint_like(torch.ones(1, 2, 3, 3).to(memory_format=torch.channels_last), 5)
    assert cl.is_contiguous(memory_format=torch.channels_last)
    assert torch.normal(0.0, 1.0, (3,), requires_grad=True).requires_grad


def test_upstreams_names_of_positional_arguments():
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    assert torch.pow(x, exponent=2).tolist() == [4.0, 9.0] and x.pow(exponent=2).tolist() == [4.0, 9.0]
    torch.pow(input=x, exponent=torch.tensor(2.0)).sum().backward()
    assert x.grad.tolist() == [4.0, 6.0]
    y = torch.zeros(2, 3)
    assert torch.swapaxes(y, axis0=0, axis1=1).shape == (3, 2) and y.swapaxes(axis0=1, axis1=0).shape == (3, 2)
    assert torch.swapdims(y, dim0=0, dim1=1).shape == (3, 2)
    assert y.swapaxes_(axis0=0, axis1=1).shape == (3, 2)
    assert torch.tril_indices(3, 3, requires_grad=False).shape == (2, 6)
    state = torch.get_rng_state()
    first = torch.rand(2)
    torch.set_rng_state(new_state=state)
    assert torch.equal(torch.rand(2), first)
    shared = torch.nn.Linear(1, 1)
    net = torch.nn.Sequential(shared, shared)
    assert len(list(net.modules())) == 2 and len(list(net.modules(remove_duplicate=False))) == 3


def test_numpy_refuses_a_tensor_that_requires_grad_unless_forced():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
        x.numpy()
    assert x.numpy(force=True).tolist() == [1.0, 1.0] and x.detach().numpy().tolist() == [1.0, 1.0]
    y = torch.zeros(2)
    y.numpy()[0] = 5.0  # a view of the memory
    assert y.tolist() == [5.0, 0.0]


def test_split_specs_take_upstreams_keywords():
    x = torch.arange(6.0)
    assert [p.tolist() for p in torch.tensor_split(x, sections=3)] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    assert [p.numel() for p in x.tensor_split(indices=[1, 4])] == [1, 3, 2]
    assert len(torch.tensor_split(x, tensor_indices_or_sections=torch.tensor(2))) == 2
    assert len(torch.hsplit(x, sections=2)) == 2 and len(torch.vsplit(x.reshape(2, 3), indices=[1])) == 2
    assert torch.dsplit(x.reshape(1, 1, 6), 3)[0].shape == (1, 1, 2)
    with pytest.raises(TypeError):
        torch.tensor_split(x)


@pytest.mark.parametrize("name", ["rand_like", "randn_like"])
def test_random_likes_take_a_generator(name):
    x = torch.zeros(5)
    g = torch.Generator().manual_seed(3)
    first = getattr(torch, name)(x, generator=g)
    g.manual_seed(3)
    assert torch.equal(getattr(torch, name)(x, generator=g), first)
    assert not torch.equal(getattr(torch, name)(x, generator=g), first)


def test_more_of_upstreams_keywords():
    a = torch.ones(3, 3)
    assert torch.linalg.pinv(a, rcond=1e-5).shape == (3, 3) and torch.linalg.pinv(a, 1e-5, True).shape == (3, 3)
    assert torch.isin(element=2, test_elements=torch.tensor([2])).item()
    assert torch.isin(torch.tensor([1, 2]), test_element=2).tolist() == [False, True]
    y = torch.zeros(2)
    assert y.map_(other=torch.ones(2), callable=lambda p, q: p + q).tolist() == [1.0, 1.0]
    assert torch.ones(2).where(torch.tensor([True, False]), other=torch.zeros(2)).tolist() == [1.0, 0.0]
    x = torch.tensor([1.234, 5.678])
    assert x.round_(decimals=1) is x and x.tolist() == pytest.approx([1.2, 5.7])
    assert torch.round_(torch.tensor([2.5, 3.5])).tolist() == [2.0, 4.0]


def test_tensor_method_keywords():
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    torch.gather(x, 1, torch.tensor([[0], [2]]), sparse_grad=False).sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    assert x.gather(1, torch.tensor([[1]]), sparse_grad=False).item() == 1.0
    y = torch.zeros(2)
    assert y.copy_(other=torch.ones(2)) is y and y.tolist() == [1.0, 1.0]
    z = torch.zeros(2)
    assert z.resize_(2, 3, 4, 5, memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert z.resize_(2, 3, 4, 5).stride() == (60, 1, 15, 3)  # the same shape: the layout is kept
    assert z.resize_(2, 3, 4, 5, memory_format=torch.contiguous_format).stride() == (60, 20, 5, 1)
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
        torch.zeros(1).resize_(2, 3, memory_format=torch.channels_last)
    t = torch.zeros(2, 3, 4, 5).to(memory_format=torch.channels_last)
    assert torch.zeros(1).resize_as_(t, memory_format=torch.preserve_format).stride() == (60, 1, 15, 3)
    assert torch.zeros(1).resize_as_(the_template=t).stride() == (60, 20, 5, 1)
    assert torch.zeros(2, 3, 4, 5).cpu(memory_format=torch.channels_last).stride() == (60, 1, 15, 3)


def test_size_keywords_and_factory_keywords_of_python_ops():
    x = torch.ones(2, 3)
    assert x.new_zeros(size=(2,)).tolist() == [0.0, 0.0] and x.new_ones(3).shape == (3,)
    assert x.broadcast_to(size=(4, 2, 3)).shape == (4, 2, 3) and x.sum_to_size(size=(1, 3)).tolist() == [[2.0] * 3]
    assert torch.zeros(1).resize_(size=(2, 2)).shape == (2, 2)
    for window in (torch.hann_window, torch.hamming_window, torch.blackman_window, torch.bartlett_window):
        assert window(4, pin_memory=False, requires_grad=True).requires_grad
    assert torch.kaiser_window(4, pin_memory=False).shape == (4,)
    assert torch.fft.fftfreq(4, pin_memory=False).tolist() == [0.0, 0.25, -0.5, -0.25]
    assert torch.fft.rfftfreq(4, pin_memory=False).tolist() == [0.0, 0.25, 0.5]


def test_rrelu_takes_a_generator():
    g = torch.Generator().manual_seed(1)
    first = torch.rrelu(-torch.ones(3), training=True, generator=g)
    g.manual_seed(1)
    assert torch.equal(torch.nn.functional.rrelu_(-torch.ones(3), training=True, generator=g), first)
    g.manual_seed(1)
    assert torch.equal(torch.rrelu_(-torch.ones(3), training=True, generator=g), first)
    assert bool(((first <= -1 / 8) & (first >= -1 / 3)).all())


def test_result_type_takes_upstreams_keywords():
    x, i = torch.ones(2), torch.ones(2, dtype=torch.int32)
    assert torch.result_type(tensor=x, other=i) == torch.float32
    assert torch.result_type(scalar=1.0, tensor=i) == torch.float32
    assert torch.result_type(scalar1=1, scalar2=2) == torch.int64 and torch.result_type(i, 2) == torch.int32
    with pytest.raises(TypeError):
        torch.result_type(x)


def test_from_dlpack_takes_device_and_copy():
    np = pytest.importorskip("numpy")
    a = np.arange(3.0)
    shared = torch.from_dlpack(a)
    shared[0] = 5.0
    assert a[0] == 5.0
    assert torch.from_dlpack(a, device="cpu").data_ptr() == shared.data_ptr()
    copied = torch.from_dlpack(a, copy=True)
    copied[1] = 7.0
    assert a[1] == 1.0 and copied.tolist() == [5.0, 7.0, 2.0]
