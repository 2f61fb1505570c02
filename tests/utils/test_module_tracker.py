"""torch.utils.module_tracker.ModuleTracker: the running modules' names in forward and in backward."""

from copy import copy

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint
from torch.utils.module_tracker import ModuleTracker


def test_module_hierarchy_in_forward_and_backward():
    seen_fw = []
    seen_bw = []

    class Foo(nn.Module):
        def forward(self, x):
            x = x["a"].relu_()
            seen_fw.append((copy(tracker.parents), tracker.is_bw))
            x.register_hook(lambda grad: seen_bw.append((copy(tracker.parents), tracker.is_bw)))
            return {"a": torch.mm(x, x)}

    class Mod(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = Foo()
            self.b = nn.ModuleDict({"nest": Foo()})
            self.c = nn.ModuleList([Foo()])

        def forward(self, x):
            x = self.c[0](x)
            return self.b["nest"](self.a(x))

    mod = Mod()
    with ModuleTracker() as tracker:
        for _ in range(2):
            mod({"a": torch.randn(10, 10, requires_grad=True).clone()})["a"].sum().backward()
    forward = [{"Global", "Mod", "Mod.c.0"}, {"Global", "Mod", "Mod.a"}, {"Global", "Mod", "Mod.b.nest"}]
    assert seen_fw == [(names, False) for names in forward * 2]
    backward = forward[::-1]
    assert seen_bw == [(names, True) for names in backward * 2]
    assert tracker.parents == {"Global"}


def test_confused_hierarchy_does_not_fail():
    class MyMod(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = nn.Linear(2, 2)
            self.ran = False

        def forward(self, inp):
            if not self.ran:
                self.ran = True
                return self(inp)
            self.ran = False
            return self.inner(inp)

    mod = MyMod()
    inp = torch.rand(1, 2, requires_grad=True)
    with ModuleTracker():
        mod(inp).sum().backward()
    with ModuleTracker():
        checkpoint(lambda inp: mod(inp), inp, use_reentrant=False).sum().backward()


def test_is_bw_and_hooks_removed_on_exit():
    mod = nn.Linear(2, 2)
    flags = []
    with ModuleTracker() as tracker:
        out = mod(torch.rand(2, requires_grad=True))
        assert not tracker.is_bw
        out.register_hook(lambda g: flags.append(tracker.is_bw))
        out.sum().backward()
        assert not tracker.is_bw
    assert flags == [True]
    # after exit, no global hook is left: forward runs without touching the tracker
    parents = set(tracker.parents)
    mod(torch.rand(2))
    assert tracker.parents == parents
