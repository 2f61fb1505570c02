"""Second (and third) derivatives through torch.nn's kernels: gradgradcheck (float64 central differences of
the create_graph=True gradient) on the NN ops whose backward is a kernel of its own (convolutions, losses,
normalizations, pools, prelu), a WGAN-GP gradient penalty, and the regressions found on the way.

The activations, conv2d, pools, batch/layer norm and prod/cumprod with zeros are in the op table
(tests/opinfo.py, test_ops_grad.py's gradgradcheck). Runs against upstream PyTorch too.
"""

from __future__ import annotations

import os

import pytest

import torch
import torch.nn.functional as F
from torch.autograd import grad, gradcheck, gradgradcheck

D = torch.float64


def r(*shape, positive=False):
    """A float64 leaf that requires grad (in (0.1, 0.9) when positive)."""
    t = torch.rand(*shape, dtype=D) * 0.8 + 0.1 if positive else torch.randn(*shape, dtype=D)
    return t.requires_grad_()


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


def _tanh_conv(x, w, which: int):
    """tanh(conv2d(x, w)) as a function of x (which=0) or of w (which=1), the other one fixed."""
    if which == 0:
        return (lambda x: torch.tanh(F.conv2d(x, w, stride=2))), (x,)
    return (lambda w: torch.tanh(F.conv2d(x, w, padding=1))), (w,)


CONVOLUTIONS = {
    "conv1d_stride": lambda: (lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1), (r(2, 3, 7), r(4, 3, 2), r(4))),
    "conv2d_groups_stride": lambda: (
        lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1, groups=2),
        (r(2, 4, 5, 5), r(6, 2, 3, 3), r(6)),
    ),
    "conv2d_dilation_no_bias": lambda: (lambda x, w: F.conv2d(x, w, dilation=2), (r(1, 2, 6, 6), r(3, 2, 2, 2))),
    "conv3d": lambda: (lambda x, w: F.conv3d(x, w, padding=1), (r(1, 2, 3, 3, 3), r(2, 2, 2, 2, 2))),
    "conv_transpose1d": lambda: (lambda x, w: F.conv_transpose1d(x, w, stride=3), (r(1, 2, 4), r(2, 3, 2))),
    "conv_transpose2d": lambda: (
        lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1, groups=2),
        (r(2, 4, 3, 3), r(4, 3, 3, 3), r(6)),
    ),
    # one input needing a gradient (a tanh after it, so that the first gradient depends on that input)
    "conv_input_only": lambda: _tanh_conv(r(1, 2, 5, 5), torch.randn(3, 2, 2, 2, dtype=D), 0),
    "conv_weight_only": lambda: _tanh_conv(torch.randn(1, 2, 5, 5, dtype=D), r(3, 2, 2, 2), 1),
}


@pytest.mark.parametrize("name", CONVOLUTIONS)
def test_convolution_gradgrad(name):
    fn, args = CONVOLUTIONS[name]()
    assert gradgradcheck(fn, args)


def _losses():
    t, w, pw = torch.rand(3, 4, dtype=D), torch.rand(4, dtype=D), torch.rand(4, dtype=D) + 0.5
    return {
        "mse_mean": (lambda x, y: F.mse_loss(x, y), (r(3, 4), r(3, 4))),
        "mse_none": (lambda x, y: F.mse_loss(x, y, reduction="none"), (r(3, 4), r(3, 4))),
        "l1_sum": (lambda x, y: F.l1_loss(x, y, reduction="sum"), (r(3, 4), r(3, 4))),
        "huber": (lambda x, y: F.huber_loss(x, y, delta=0.7), (r(3, 4), r(3, 4))),
        "smooth_l1": (lambda x, y: F.smooth_l1_loss(x, y, beta=0.8, reduction="sum"), (r(3, 4), r(3, 4))),
        "smooth_l1_beta0": (lambda x, y: F.smooth_l1_loss(x, y, beta=0.0), (r(3, 4), r(3, 4))),
        "bce": (lambda x, y: F.binary_cross_entropy(x, y), (r(3, 4, positive=True), r(3, 4, positive=True))),
        "bce_weight": (lambda x: F.binary_cross_entropy(x, t, weight=w), (r(3, 4, positive=True),)),
        "bce_logits": (lambda x, y: F.binary_cross_entropy_with_logits(x, y), (r(3, 4), r(3, 4, positive=True))),
        "bce_logits_pos_weight": (
            lambda x, y: F.binary_cross_entropy_with_logits(x, y, pos_weight=pw),
            (r(3, 4), r(3, 4, positive=True)),
        ),
        "kl_div": (lambda x, y: F.kl_div(x, y, reduction="batchmean"), (r(3, 4), r(3, 4, positive=True))),
        "kl_div_log_target": (lambda x, y: F.kl_div(x, y, reduction="sum", log_target=True), (r(3, 4), r(3, 4))),
        "nll": (lambda x: F.nll_loss(F.log_softmax(x, 1), torch.tensor([0, 2, 1])), (r(3, 4),)),
        "cross_entropy_smoothing": (
            lambda x: F.cross_entropy(x, torch.tensor([0, 2, 1]), label_smoothing=0.1),
            (r(3, 4),),
        ),
    }


@pytest.mark.parametrize("name", list(_losses()))
def test_loss_gradgrad(name):
    fn, args = _losses()[name]
    assert gradgradcheck(fn, args)


def _norms_and_pools():
    rm, rv = torch.randn(3, dtype=D), torch.rand(3, dtype=D) + 0.5
    return {
        "batch_norm_training_no_affine": (lambda x: F.batch_norm(x, None, None, training=True), (r(4, 3, 2, 2),)),
        "batch_norm_eval": (lambda x, w, b: F.batch_norm(x, rm, rv, w, b, training=False), (r(4, 3, 5), r(3), r(3))),
        "layer_norm_2d_shape": (lambda x, w, b: F.layer_norm(x, (4, 5), w, b), (r(3, 4, 5), r(4, 5), r(4, 5))),
        "layer_norm_whole_input": (lambda x, w, b: F.layer_norm(x, (2, 3), w, b), (r(2, 3), r(2, 3), r(2, 3))),
        "layer_norm_no_affine": (lambda x: F.layer_norm(x, (5,)), (r(3, 4, 5),)),
        "group_norm": (lambda x, w, b: F.group_norm(x, 2, w, b), (r(2, 4, 3), r(4), r(4))),
        "instance_norm": (lambda x: F.instance_norm(x), (r(2, 3, 6),)),
        "adaptive_avg_pool1d": (lambda x: F.adaptive_avg_pool1d(x, 3), (r(2, 3, 7),)),
        "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (2, 3)), (r(2, 3, 5, 7),)),
        "adaptive_max_pool2d": (lambda x: F.adaptive_max_pool2d(x, (2, 3)), (r(2, 3, 5, 7),)),
        "prelu_per_channel": (lambda x, w: F.prelu(x, w), (r(2, 3, 4), torch.tensor([0.2, -0.3, 0.5], dtype=D))),
        "prelu_shared": (lambda x, w: F.prelu(x, w), (r(2, 3, 4), torch.tensor([0.2], dtype=D))),
    }


@pytest.mark.parametrize("name", list(_norms_and_pools()))
def test_norm_and_pool_gradgrad(name):
    fn, args = _norms_and_pools()[name]
    args = tuple(a if a.requires_grad else a.requires_grad_() for a in args)
    assert gradgradcheck(fn, args)


@pytest.mark.parametrize("act", ["gelu", "gelu_tanh", "silu", "softplus", "mish", "elu"])
def test_activation_third_derivative(act):
    """The second derivatives are made of differentiable ops: the third is right too."""
    f = {
        "gelu": F.gelu,
        "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
        "silu": F.silu,
        "softplus": lambda x: F.softplus(x, 2.0, 3.0),
        "mish": F.mish,
        "elu": lambda x: F.elu(x, 1.5),
    }[act]

    def first(x):
        return grad(f(x).sum(), x, create_graph=True)[0]

    x = torch.tensor([-2.1, -0.7, 0.3, 1.2, 2.5], dtype=D, requires_grad=True)
    assert gradgradcheck(first, (x,))


def test_wgan_gp_gradient_penalty():
    """The penalty (|d critic / d x| - 1)^2 of a conv critic, differentiated with respect to its weights,
    against central differences of the penalty itself."""
    critic = torch.nn.Sequential(
        torch.nn.Conv2d(1, 3, 3, stride=2, padding=1),
        torch.nn.LeakyReLU(0.2),
        torch.nn.Conv2d(3, 2, 2),
        torch.nn.GELU(),
        torch.nn.Flatten(),
        torch.nn.Linear(8, 1, bias=False),  # (a bias would not reach the penalty: d critic / d x ignores it)
    ).double()
    x = torch.randn(2, 1, 6, 6, dtype=D)
    params = list(critic.parameters())

    def penalty(*ps):
        for p, v in zip(params, ps):
            p.data = v.detach()
        xi = x.clone().requires_grad_()
        (gx,) = grad(critic(xi).sum(), xi, create_graph=True)
        return ((gx.flatten(1).norm(dim=1) - 1) ** 2).mean()

    def penalty_fn(*ps):  # as a function of the parameters themselves (functional_call by hand)
        xi = x.clone().requires_grad_()
        h = F.conv2d(xi, ps[0], ps[1], stride=2, padding=1)
        h = F.conv2d(F.leaky_relu(h, 0.2), ps[2], ps[3])
        out = F.linear(F.gelu(h).flatten(1), ps[4])
        (gx,) = grad(out.sum(), xi, create_graph=True)
        return ((gx.flatten(1).norm(dim=1) - 1) ** 2).mean()

    leaves = tuple(p.detach().clone().requires_grad_() for p in params)
    assert gradcheck(penalty_fn, leaves)
    # the module's own path gives the same value and gradient
    for p in params:
        p.grad = None
    xi = x.clone().requires_grad_()
    (gx,) = grad(critic(xi).sum(), xi, create_graph=True)
    gp = ((gx.flatten(1).norm(dim=1) - 1) ** 2).mean()
    gp.backward()
    expected = grad(penalty_fn(*leaves), leaves)
    for p, e in zip(params, expected):
        torch.testing.assert_close(p.grad, e)
    assert penalty(*leaves).item() == pytest.approx(gp.item())


def test_second_derivative_of_prod_through_two_zeros():
    """d2 prod / dx_i dx_j is the product of the others: 6 at the two zeros of [2, 3, 0, 0] (it was 0)."""
    x = torch.tensor([2.0, 3.0, 0.0, 0.0], dtype=D, requires_grad=True)
    (g,) = grad(x.prod(), x, create_graph=True)
    (h,) = grad(g[2], x)
    torch.testing.assert_close(h, torch.tensor([0.0, 0.0, 0.0, 6.0], dtype=D))


@pytest.mark.parametrize("pool", ["max_pool2d", "adaptive_max_pool2d", "avg_pool2d"])
def test_pool_gradient_is_differentiable(pool):
    """A pool's input gradient joins the graph (its derivative with respect to the input is 0, as upstream),
    so a penalty on it can be differentiated."""
    f = {
        "max_pool2d": lambda x: F.max_pool2d(x, 2),
        "adaptive_max_pool2d": lambda x: F.adaptive_max_pool2d(x, 2),
        "avg_pool2d": lambda x: F.avg_pool2d(x, 2),
    }[pool]
    x = torch.randn(1, 2, 4, 4, dtype=D, requires_grad=True)
    (g,) = grad(f(x).sum(), x, create_graph=True)
    assert g.requires_grad
    (h,) = grad((g * g).sum(), x)
    torch.testing.assert_close(h, torch.zeros_like(x))


def test_eval_batch_norm_leaves_running_stats_out_of_the_graph():
    """The running statistics of an eval-mode batch norm never require grad (they joined the graph as the
    op's saved outputs, aliased)."""
    bn = torch.nn.BatchNorm1d(3).double().eval()
    x = torch.randn(4, 3, dtype=D, requires_grad=True)
    bn(x).sum().backward()
    assert not bn.running_mean.requires_grad and bn.running_mean.grad_fn is None
    assert not bn.running_var.requires_grad
    rm, rv = torch.zeros(3, dtype=D), torch.ones(3, dtype=D)
    F.batch_norm(x, rm, rv, training=False)
    assert not rm.requires_grad and not rv.requires_grad


@pytest.mark.parametrize("fn", ["logaddexp", "logaddexp2"])
def test_logaddexp_second_derivative_at_a_tie(fn):
    """At a == b the second derivative is 1/4 (ln 2 / 4 in base 2), not 0: each side of the tie is smooth."""
    f = getattr(torch, fn)
    a = torch.tensor([0.3, 1.0, -2.0, 5.0], dtype=D, requires_grad=True)
    b = torch.tensor([0.3, 1.0, -1.0, 5.0], dtype=D, requires_grad=True)
    assert gradgradcheck(f, (a, b))


def test_logcumsumexp_second_derivative_of_a_constant_row():
    """logcumsumexp combines pairwise with logaddexp: equal elements are ties at every step."""
    x = torch.tensor([[2.0, 2.0, 2.0, 2.0], [0.3, 0.3, -2.0, 1.5]], dtype=D, requires_grad=True)
    assert gradgradcheck(lambda t: torch.logcumsumexp(t, 1), (x,))


@pytest.mark.parametrize("loss, kwargs", [("l1_loss", {}), ("smooth_l1_loss", {"beta": 0.0})])
def test_piecewise_linear_loss_second_derivative_is_zero(loss, kwargs):
    """The loss's gradient depends on its input only piecewise-constantly: the second derivative is a zero
    tensor (as upstream), not an unused input."""
    x, t = r(3, 4), r(3, 4)
    (g,) = grad(getattr(F, loss)(x, t, reduction="sum", **kwargs), x, create_graph=True)
    (h,) = grad((g * torch.randn(3, 4, dtype=D)).sum(), x)
    torch.testing.assert_close(h, torch.zeros_like(x))


def test_second_derivative_through_an_in_place_write_to_a_view():
    """A slice written in place (CopySlices) and differentiated twice: the first backward writes its own
    buffers in place, which a saved tensor of its graph must not see (as_strided's backward keeps only its
    input's geometry). ormqr builds its matrix so."""

    def f(a):
        full = torch.zeros(3, 3, dtype=D)
        full[:, :2] = a
        return (full @ full.T).sin()

    assert gradgradcheck(f, (r(3, 2),))
    a, tau, c = r(3, 2), torch.rand(2, dtype=D).requires_grad_(), r(3, 2)
    assert gradgradcheck(torch.ormqr, (a, tau, c))


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream has no derivative of hardsigmoid_backward")
def test_hardsigmoid_second_derivative():
    """hardsigmoid is piecewise linear: its second derivative is 0 (upstream raises instead)."""
    x = torch.tensor([-4.0, -1.0, 0.5, 2.0, 5.0], dtype=D, requires_grad=True)
    assert gradgradcheck(F.hardsigmoid, (x,))


@pytest.mark.parametrize("padding_idx", [None, 2])
def test_embedding_gradgrad(padding_idx):
    """embedding_dense_backward's own derivative: the incoming rows gathered back at the indices (0 at
    padding_idx), so a second derivative through an embedding (a Hessian-vector product) runs."""
    idx = torch.tensor([[0, 2, 1], [2, 2, 3]])
    assert gradgradcheck(lambda w: torch.tanh(F.embedding(idx, w, padding_idx=padding_idx)), (r(5, 3),))


def test_embedding_scale_grad_by_freq_second_derivative_of_the_weights():
    """With scale_grad_by_freq the weights' second derivative through tanh(embedding) is the true one (central
    differences of the first gradient), as upstream's: the scaled backward is divided once, not twice."""
    idx = torch.tensor([[0, 2, 1], [2, 2, 3]])
    w0, g_out, h = torch.randn(5, 3, dtype=D), torch.randn(2, 3, 3, dtype=D), torch.randn(5, 3, dtype=D)

    def first(w):
        y = torch.tanh(F.embedding(idx, w, scale_grad_by_freq=True))
        return grad(y, w, g_out, create_graph=True)[0]

    w = w0.clone().requires_grad_()
    (analytical,) = grad((first(w) * h).sum(), w)
    numerical = torch.zeros_like(w0)
    for i in range(5):
        for j in range(3):
            step = torch.zeros_like(w0)
            step[i, j] = 1e-6
            up, down = (w0 + step).requires_grad_(), (w0 - step).requires_grad_()
            numerical[i, j] = ((first(up) - first(down)) * h).sum().detach() / 2e-6
    torch.testing.assert_close(analytical, numerical, rtol=1e-5, atol=1e-7)


GRID_CASES = [
    (vol, mode, pad, ac)
    for vol in (False, True)
    for mode in ("bilinear", "nearest", "bicubic")
    for pad in ("zeros", "border", "reflection")
    for ac in (False, True)
    if not (vol and mode == "bicubic")
]


@pytest.mark.parametrize("volumetric, mode, padding_mode, align_corners", GRID_CASES)
def test_grid_sample_gradgrad(volumetric, mode, padding_mode, align_corners):
    """grid_sample's recorded gradient (its first derivative in torch ops) is differentiable again, in the
    input and the grid (nearest: the input only, its grid gradient is 0), grid points outside included."""
    x = r(1, 2, *((3, 3, 4) if volumetric else (3, 4)))
    g = (torch.rand(1, *((2, 2, 1, 3) if volumetric else (2, 2, 2)), dtype=D) * 2.6 - 1.3).requires_grad_()

    def f(x, g):
        return F.grid_sample(x, g, mode=mode, padding_mode=padding_mode, align_corners=align_corners)

    if mode == "nearest":
        assert gradgradcheck(lambda x: f(x, g.detach()), (x,))
    else:
        assert gradgradcheck(f, (x, g))


def test_gelu_second_derivative_far_out_is_zero_in_float16():
    """x^3 overflowed float16 beyond |x| = 40 (sech^2 = 0 times inf: NaN)."""
    for approximate in ("tanh", "none"):
        x = torch.tensor([45.0, -45.0, 60.0], dtype=torch.float16, requires_grad=True)
        (g,) = grad(F.gelu(x, approximate=approximate).sum(), x, create_graph=True)
        (h,) = grad(g.sum(), x)
        assert torch.equal(h.abs(), torch.zeros_like(h)), approximate


def test_elu_third_derivative_at_large_positive_inputs():
    """The negative side's exp is taken of the negative part only: exp(100) = inf gave 0 * inf = NaN."""
    x = torch.tensor([100.0, -1.0])
    x.requires_grad_()
    (g1,) = grad(F.elu(x).sum(), x, create_graph=True)
    (g2,) = grad(g1.sum(), x, create_graph=True)
    (g3,) = grad(g2.sum(), x)
    torch.testing.assert_close(g3, torch.tensor([0.0, torch.exp(torch.tensor(-1.0)).item()]))


def test_cumprod_gradient_of_a_0_dim_zero_and_its_float32_accuracy():
    x = torch.zeros((), dtype=D, requires_grad=True)
    (g,) = grad(x.cumprod(0), x, create_graph=True)
    assert g.item() == 1.0
    # the sum over k >= j as a flipped cumsum: total - cumsum + w gave 1.0 for 1.0101 next to 1e4
    t = torch.tensor([1e4, 1e-2, 1e-2, 1e-2, 1e-2], requires_grad=True)
    (g,) = grad(t.cumprod(0).sum(), t)
    torch.testing.assert_close(g[3], torch.tensor(1.0100), rtol=1e-4, atol=0)


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream's logaddexp gradient at equal infinities is NaN")
def test_logaddexp_gradient_at_equal_infinities_is_split():
    for f in (torch.logaddexp, torch.logaddexp2):
        a = torch.tensor([-float("inf"), float("inf")], dtype=D, requires_grad=True)
        b = a.detach().clone().requires_grad_()
        ga, gb = grad(f(a, b).sum(), [a, b])
        torch.testing.assert_close(ga, torch.full((2,), 0.5, dtype=D))
        torch.testing.assert_close(gb, torch.full((2,), 0.5, dtype=D))


_BAG_INDICES = torch.tensor([1, 2, 4, 5, 4, 3, 2, 0])
_BAG_OFFSETS = torch.tensor([0, 2, 2, 5])  # bag 1 is empty


def _bag_cases():
    for mode in ("sum", "mean", "max"):
        for padding_idx in (None, 2):
            for freq in (False, True) if mode != "max" else (False,):
                yield mode, padding_idx, freq


@pytest.mark.parametrize("mode, padding_idx, freq", list(_bag_cases()))
def test_embedding_bag_first_derivative_recorded_equals_the_kernels(mode, padding_idx, freq):
    # under create_graph the gradient is computed in torch ops: it must equal the kernel's
    weight = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
    out = F.embedding_bag(
        _BAG_INDICES, weight, _BAG_OFFSETS, mode=mode, padding_idx=padding_idx, scale_grad_by_freq=freq
    )
    g = torch.randn_like(out)
    (kernel,) = torch.autograd.grad(out, weight, g, retain_graph=True)
    (recorded,) = torch.autograd.grad(out, weight, g, create_graph=True)
    torch.testing.assert_close(recorded, kernel, rtol=1e-12, atol=1e-12)


def test_embedding_bag_per_sample_weights_recorded_equals_the_kernels():
    weight = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
    psw = torch.randn(8, dtype=torch.float64, requires_grad=True)
    out = F.embedding_bag(_BAG_INDICES, weight, _BAG_OFFSETS, mode="sum", per_sample_weights=psw, padding_idx=2)
    g = torch.randn_like(out)
    kernel = torch.autograd.grad(out, (weight, psw), g, retain_graph=True)
    recorded = torch.autograd.grad(out, (weight, psw), g, create_graph=True)
    for r, k in zip(recorded, kernel):
        torch.testing.assert_close(r, k, rtol=1e-12, atol=1e-12)


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream has no derivative of _embedding_bag_backward")
@pytest.mark.parametrize("mode, padding_idx, freq", list(_bag_cases()))
def test_embedding_bag_gradgradcheck(mode, padding_idx, freq):
    weight = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
    assert gradgradcheck(
        lambda w: F.embedding_bag(
            _BAG_INDICES, w, _BAG_OFFSETS, mode=mode, padding_idx=padding_idx, scale_grad_by_freq=freq
        ),
        (weight,),
    )


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream has no derivative of _embedding_bag_backward")
def test_embedding_bag_per_sample_weights_gradgradcheck():
    weight = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
    psw = torch.randn(8, dtype=torch.float64, requires_grad=True)
    assert gradgradcheck(
        lambda w, p: F.embedding_bag(_BAG_INDICES, w, _BAG_OFFSETS, mode="sum", per_sample_weights=p, padding_idx=2),
        (weight, psw),
    )


_CTC_TARGETS = torch.tensor([[1, 2, 2], [3, 1, 0], [2, 0, 0]])  # lengths 3, 2, 0 (an empty target)
_CTC_INPUT_LENGTHS, _CTC_TARGET_LENGTHS = [6, 5, 4], [3, 2, 0]


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("flat_targets", [False, True])
def test_ctc_loss_first_derivative_recorded_equals_the_kernels(reduction, flat_targets):
    log_probs = torch.randn(6, 3, 4, dtype=torch.float64).log_softmax(2).detach().requires_grad_()
    targets = torch.tensor([1, 2, 2, 3, 1]) if flat_targets else _CTC_TARGETS
    out = F.ctc_loss(log_probs, targets, _CTC_INPUT_LENGTHS, _CTC_TARGET_LENGTHS, reduction=reduction)
    g = torch.randn_like(out)
    (kernel,) = torch.autograd.grad(out, log_probs, g, retain_graph=True)
    (recorded,) = torch.autograd.grad(out, log_probs, g, create_graph=True)
    torch.testing.assert_close(recorded, kernel, rtol=1e-10, atol=1e-12)


def test_ctc_loss_zero_infinity_recorded_equals_the_kernels():
    # the first sample cannot align (2 frames for 3 labels): its loss and gradient are zeroed
    log_probs = torch.randn(6, 3, 4, dtype=torch.float64).log_softmax(2).detach().requires_grad_()
    out = F.ctc_loss(log_probs, _CTC_TARGETS, [2, 5, 4], _CTC_TARGET_LENGTHS, reduction="sum", zero_infinity=True)
    (kernel,) = torch.autograd.grad(out, log_probs, retain_graph=True)
    (recorded,) = torch.autograd.grad(out, log_probs, create_graph=True)
    torch.testing.assert_close(recorded, kernel, rtol=1e-10, atol=1e-12)
    assert kernel[:, 0].abs().max() == 0


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream has no derivative of _ctc_loss_backward")
def test_ctc_loss_gradgradcheck_through_log_softmax():
    logits = torch.randn(6, 3, 4, dtype=torch.float64, requires_grad=True)
    assert gradgradcheck(
        lambda x: F.ctc_loss(x.log_softmax(2), _CTC_TARGETS, _CTC_INPUT_LENGTHS, _CTC_TARGET_LENGTHS, reduction="sum"),
        (logits,),
    )


def test_ctc_loss_impossible_alignment_recorded_gradient_is_nan_as_the_kernels():
    log_probs = torch.randn(1, 1, 4, dtype=torch.float64).log_softmax(2).requires_grad_()
    out = F.ctc_loss(log_probs, torch.tensor([[1, 0, 2]]), [1], [3], blank=3, reduction="sum")
    (kernel,) = torch.autograd.grad(out, log_probs, retain_graph=True)
    (recorded,) = torch.autograd.grad(out, log_probs, create_graph=True)
    assert kernel.isnan().all() and recorded.isnan().all()
