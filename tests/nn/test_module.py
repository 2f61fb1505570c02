"""nn.Module semantics: registration, named_* traversal, state_dict round trips and strict errors, hooks,
train/eval, dtype conversion, and the nested repr (equal to upstream's string)."""

from __future__ import annotations

import copy
from collections import OrderedDict

import pytest

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(inplace=True))
        self.head = nn.ModuleDict({"fc": nn.Linear(4, 2), "drop": nn.Dropout(0.1)})
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("cache", torch.zeros(2), persistent=False)

    def forward(self, x):
        x = self.features(x).mean((2, 3))
        return self.head["drop"](self.head["fc"](x)) * self.scale


NET_REPR = """Net(
  (features): Sequential(
    (0): Conv2d(1, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
    (1): BatchNorm2d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    (2): ReLU(inplace=True)
  )
  (head): ModuleDict(
    (fc): Linear(in_features=4, out_features=2, bias=True)
    (drop): Dropout(p=0.1, inplace=False)
  )
)"""


def test_repr_of_nested_model():
    assert repr(Net()) == NET_REPR
    stack = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU()])
    assert repr(stack) == (
        "ModuleList(\n  (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)\n  (3): ReLU()\n)"
    )


def test_named_members():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == [
        "scale", "features.0.weight", "features.0.bias", "features.1.weight", "features.1.bias",
        "head.fc.weight", "head.fc.bias",
    ]  # fmt: skip
    assert [n for n, _ in net.named_buffers()] == [
        "steps", "cache", "features.1.running_mean", "features.1.running_var", "features.1.num_batches_tracked",
    ]  # fmt: skip
    assert [n for n, _ in net.named_children()] == ["features", "head"]
    assert [n for n, _ in net.named_modules()][:3] == ["", "features", "features.0"]
    assert [n for n, _ in net.named_parameters(prefix="m", recurse=False)] == ["m.scale"]
    assert len(list(net.modules())) == 8


def test_shared_parameters_are_deduplicated():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, lin)
    assert len(list(seq.parameters())) == 2
    assert len(list(seq.named_parameters(remove_duplicate=False))) == 4


def test_registration_rules():
    m = nn.Module()
    m.w = nn.Parameter(torch.zeros(2))
    assert "w" in m._parameters
    m.register_buffer("b", torch.ones(1))
    m.sub = nn.Linear(1, 1)
    assert m.sub is m._modules["sub"]
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' as parameter 'w'"):
        m.w = torch.zeros(2)
    with pytest.raises(KeyError, match="attribute 'sub' already exists"):
        m.register_parameter("sub", None)
    with pytest.raises(KeyError, match="parameter name can"):
        m.register_parameter("a.b", None)
    with pytest.raises(TypeError, match="is not a Module subclass"):
        m.add_module("x", 3)
    with pytest.raises(AttributeError, match="'Module' object has no attribute 'nope'"):
        m.nope  # noqa: B018
    del m.w
    assert "w" not in m._parameters
    with pytest.raises(AttributeError, match="cannot assign parameters before Module.__init__\\(\\) call"):

        class Bad(nn.Module):
            def __init__(self):
                self.p = nn.Parameter(torch.zeros(1))

        Bad()


def test_state_dict_round_trip_and_strict_errors():
    a, b = Net(), Net()
    sd = a.state_dict()
    assert "cache" not in sd and "steps" in sd
    assert list(sd)[0] == "scale"
    result = b.load_state_dict(sd)
    assert repr(result) == "<All keys matched successfully>"
    assert torch.equal(a.head["fc"].weight, b.head["fc"].weight)
    sd2 = OrderedDict(sd)
    del sd2["scale"]
    sd2["extra"] = torch.zeros(1)
    with pytest.raises(RuntimeError) as e:
        b.load_state_dict(sd2)
    assert str(e.value) == (
        'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "scale". \n\t'
        'Unexpected key(s) in state_dict: "extra". '
    )
    keys = b.load_state_dict(sd2, strict=False)
    assert keys.missing_keys == ["scale"] and keys.unexpected_keys == ["extra"]
    sd3 = OrderedDict(sd)
    sd3["head.fc.bias"] = torch.zeros(3)
    with pytest.raises(RuntimeError, match="size mismatch for head.fc.bias: copying a param with shape"):
        b.load_state_dict(sd3)


def test_hooks_and_removal():
    lin = nn.Linear(2, 2)
    calls = []
    h1 = lin.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    h2 = lin.register_forward_hook(lambda m, args, out: calls.append(out.shape) or out + 1)
    out = lin(torch.ones(1, 2))
    assert torch.allclose(out, lin.bias.detach() + 1)
    assert calls == [torch.Size([1, 2])]
    h1.remove()
    h2.remove()
    assert torch.allclose(lin(torch.zeros(1, 2)), lin.bias.detach())


def test_train_eval_apply_requires_grad_zero_grad():
    net = Net()
    assert net.training and net.features[1].training
    net.eval()
    assert not net.training and not net.head["drop"].training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train(1)
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen[-1] == "Net"
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())
    net.requires_grad_(True)
    net(torch.randn(2, 1, 4, 4)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(float(p.grad.abs().sum()) == 0 for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_to_dtype_converts_floating_only():
    net = Net().to(torch.float64)
    assert net.features[0].weight.dtype == torch.float64
    assert net.features[1].num_batches_tracked.dtype == torch.int64
    assert isinstance(net.features[0].weight, nn.Parameter)
    assert net.float().scale.dtype == torch.float32
    assert net.half().scale.dtype == torch.float16
    assert net.double()(torch.randn(2, 1, 4, 4, dtype=torch.float64)).dtype == torch.float64
    with pytest.raises(TypeError, match="nn.Module.to only accepts floating point or complex dtypes"):
        net.to(torch.int32)


def test_deepcopy_keeps_parameters():
    net = Net()
    clone = copy.deepcopy(net)
    assert all(isinstance(p, nn.Parameter) for p in clone.parameters())
    assert len(list(clone.parameters())) == len(list(net.parameters()))


def test_containers():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert isinstance(seq[1], nn.ReLU) and isinstance(seq[-1], nn.Linear)
    assert len(seq[1:]) == 2 and isinstance(seq[1:], nn.Sequential)
    seq.append(nn.Sigmoid())
    assert len(seq) == 4
    with pytest.raises(IndexError, match="index 7 is out of range"):
        seq[7]
    named = nn.Sequential(OrderedDict([("a", nn.Linear(1, 1)), ("b", nn.Tanh())]))
    assert list(dict(named.named_children())) == ["a", "b"]
    ml = nn.ModuleList([nn.Linear(1, 1)])
    ml.extend([nn.ReLU()])
    ml.insert(0, nn.Tanh())
    assert [type(m).__name__ for m in ml] == ["Tanh", "Linear", "ReLU"]
    md = nn.ModuleDict({"x": nn.ReLU()})
    md["y"] = nn.Tanh()
    assert list(md.keys()) == ["x", "y"] and "x" in md
    pl = nn.ParameterList([torch.zeros(2), nn.Parameter(torch.ones(3))])
    assert len(list(pl.parameters())) == 2 and isinstance(pl[0], nn.Parameter)
    assert repr(pl) == (
        "ParameterList(\n    (0): Parameter containing: [torch.float32 of size 2]\n"
        "    (1): Parameter containing: [torch.float32 of size 3]\n)"
    )
    pd = nn.ParameterDict({"a": torch.zeros(1)})
    assert isinstance(pd["a"], nn.Parameter) and [n for n, _ in pd.named_parameters()] == ["a"]


def test_parameter_repr_is_pytorchs():
    p = torch.nn.Parameter(torch.ones(2))
    assert repr(p) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"
    assert str(p) == repr(p)
    assert repr(torch.nn.Parameter(torch.ones(2), requires_grad=False)) == "Parameter containing:\ntensor([1., 1.])"
    assert repr(p.detach()) == "tensor([1., 1.])"
