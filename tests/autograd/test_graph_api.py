"""torch.autograd.graph's graph-level API: GradientEdge/get_gradient_edge (in grad and backward),
register_multi_grad_hook ("all" and "any"), increment_version, and the engine's queue_callback."""

import pytest

import torch
from torch.autograd.graph import GradientEdge, get_gradient_edge, increment_version, register_multi_grad_hook


def test_gradient_edge_of_leaf_and_non_leaf():
    x = torch.randn(3, requires_grad=True)
    y = x * 2
    leaf_edge = get_gradient_edge(x)
    assert isinstance(leaf_edge, GradientEdge) and isinstance(leaf_edge, tuple)
    assert leaf_edge.node.name() == "torch::autograd::AccumulateGrad" or "AccumulateGrad" in leaf_edge.node.name()
    assert leaf_edge.output_nr == 0
    edge = get_gradient_edge(y)
    assert edge.node is y.grad_fn and edge.output_nr == 0
    with pytest.raises(RuntimeError, match="does not require gradients"):
        get_gradient_edge(torch.ones(2))


def test_grad_with_gradient_edge_inputs_equals_tensor_inputs():
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)
    h = x.exp()
    loss = (h * h).sum()
    (by_tensor,) = torch.autograd.grad(loss, h, retain_graph=True)
    (by_edge,) = torch.autograd.grad(loss, get_gradient_edge(h), retain_graph=True)
    torch.testing.assert_close(by_edge, by_tensor)
    torch.testing.assert_close(by_edge, 2 * h.detach())
    (gx,) = torch.autograd.grad(loss, get_gradient_edge(x))
    torch.testing.assert_close(gx, 2 * (2 * x).exp().detach())


def test_gradient_edge_outlives_the_tensor():
    # the edge keeps working after the intermediate tensor is gone
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    mid = x.sin()
    edge = get_gradient_edge(mid)
    out = (mid * 3).sum()
    del mid
    (g,) = torch.autograd.grad(out, edge)
    torch.testing.assert_close(g, torch.full((3,), 3.0, dtype=torch.float64))


def test_gradient_edge_as_output_with_grad_outputs():
    # backpropagate a given gradient from an intermediate's edge (a two-stage backward)
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    mid = x * x
    edge = get_gradient_edge(mid)
    (gx,) = torch.autograd.grad(edge, x, grad_outputs=torch.ones(3, dtype=torch.float64))
    torch.testing.assert_close(gx, 2 * x.detach())


def test_backward_with_gradient_edge_inputs_accumulates_into_the_leaf():
    a = torch.randn(2, requires_grad=True)
    b = torch.randn(2, requires_grad=True)
    (a * b).sum().backward(inputs=[get_gradient_edge(a)])
    torch.testing.assert_close(a.grad, b.detach())
    assert b.grad is None


def test_multi_grad_hook_all_upstream_example():
    a = torch.rand(2, 3, requires_grad=True)
    b = torch.rand(2, 3, requires_grad=True)
    c = a * b
    d = a * b
    seen = []
    handle = register_multi_grad_hook((a, b, c, d), lambda grads: seen.append([g is not None for g in grads]))
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    assert seen == [[True, True, True, False], [True, False, True, False]]
    handle.remove()
    c.sum().backward(retain_graph=True)
    assert len(seen) == 2


def test_multi_grad_hook_all_gets_the_gradients_once_per_pass():
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    y = torch.randn(3, dtype=torch.float64, requires_grad=True)
    calls = []
    register_multi_grad_hook([x, y], lambda grads: calls.append(grads))
    (x * y).sum().backward()
    assert len(calls) == 1
    gx, gy = calls[0]
    torch.testing.assert_close(gx, y.detach())
    torch.testing.assert_close(gy, x.detach())
    (x * y).sum().backward(inputs=[x])
    assert len(calls) == 2 and calls[1][1] is None


def test_multi_grad_hook_any_runs_on_the_first_gradient_only():
    x = torch.randn(2, requires_grad=True)
    y = torch.randn(2, requires_grad=True)
    calls = []
    register_multi_grad_hook((x, y, torch.ones(2)), calls.append, mode="any")
    (x * y).sum().backward()
    assert len(calls) == 1 and calls[0].shape == (2,)
    (x * 2).sum().backward()
    assert len(calls) == 2


def test_multi_grad_hook_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="Expects mode to be one of"):
        register_multi_grad_hook([torch.ones(1, requires_grad=True)], print, mode="some")


def test_increment_version_makes_backward_refuse_the_saved_tensor():
    x = torch.randn(3, requires_grad=True)
    y = x.clone()
    z = y * y  # saves y
    version = y._version
    increment_version(y)
    assert y._version == version + 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    increment_version([x, y])
    assert y._version == version + 2


def test_queue_callback_runs_at_the_end_of_backward():
    order = []
    x = torch.randn(2, requires_grad=True)

    def hook(grad):
        order.append("hook")
        torch.autograd.Variable._execution_engine.queue_callback(lambda: order.append("callback"))

    y = x * 2
    y.register_hook(hook)
    z = y * 3
    z.register_hook(lambda g: order.append("first"))
    z.sum().backward()
    assert order == ["first", "hook", "callback"]
    with pytest.raises(RuntimeError, match="Final callbacks can only be installed during backward pass"):
        torch.autograd.Variable._execution_engine.queue_callback(lambda: None)


def test_leaf_hook_runs_once_under_backward_with_inputs():
    # it ran twice (once capturing the input, once accumulating), doubling what a scaling hook did
    x = torch.ones(2, requires_grad=True)
    calls = []
    x.register_hook(lambda g: calls.append(g) or g * 2)
    (x * 3).sum().backward(inputs=[x])
    assert len(calls) == 1
    torch.testing.assert_close(x.grad, torch.full((2,), 6.0))


def test_hooks_run_only_where_the_pass_computes_the_gradient():
    # b's node is not needed for grad(..., a): neither b's hook nor the multi-grad hook's second call runs
    x = torch.tensor([2.0], requires_grad=True)
    a, b = x * 2, x * 3
    calls, b_calls = [], []
    register_multi_grad_hook((a, b), calls.append)
    b.register_hook(b_calls.append)
    torch.autograd.grad((a * b).sum(), a)
    assert len(calls) == 1 and calls[0][1] is None
    torch.testing.assert_close(calls[0][0], torch.tensor([6.0]))
    assert b_calls == []


def test_leaves_run_first_in_their_edges_order():
    x, y, z = (torch.ones(1, requires_grad=True) for _ in range(3))
    order = []
    for t, name in ((x, "x"), (y, "y"), (z, "z")):
        t.register_hook(lambda g, name=name: order.append(name))
    (x * y).sum().backward()
    assert order == ["x", "y"]
    order.clear()
    (x + y + z).sum().backward()
    assert order == ["z", "x", "y"]


def test_gradient_edge_output_checks_its_grad_outputs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        torch.autograd.grad(get_gradient_edge(x.exp()), x, grad_outputs=torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        torch.autograd.grad(get_gradient_edge(x.exp()), x)
    (g,) = torch.autograd.grad(get_gradient_edge(x.sum()), x)
    torch.testing.assert_close(g, torch.ones(2))
    y = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="materialize_grads cannot be used when the given input is a GradientEdge"):
        torch.autograd.grad(x.sum(), [x, get_gradient_edge(y)], materialize_grads=True)


def test_retained_non_leaf_given_as_input_accumulates_once():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    c = a * 2
    c.retain_grad()
    (c * c).sum().backward(inputs=[c])
    torch.testing.assert_close(c.grad, torch.tensor([4.0, 8.0]))  # was counted twice: [8, 16]


def test_non_leaf_grad_keeps_its_graph_under_create_graph():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    c = a * 2
    c.retain_grad()
    (c * c).sum().backward(create_graph=True)
    assert c.grad.requires_grad and c.grad.grad_fn is not None
    d = a * 2
    (d * d).sum().backward(inputs=[d], create_graph=True)
    assert d.grad.requires_grad
