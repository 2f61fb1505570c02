"""replicate (torch.nn.parallel.replicate): one callable replica of a module per device, whose parameters and
buffers are differentiable copies of the module's (`.to(device)`, so gradients reach the original parameters;
`detach=True` cuts them). Unlike upstream's, a replica is not a copy of the module's class: it calls the module
through torch.func.functional_call with the device's tensors, so the module is never deep-copied. As upstream
documents, in-place updates of buffers in a replica (BatchNorm's running stats) are lost but on the first device,
whose replica uses the module's own tensors."""

from __future__ import annotations

__all__ = ["replicate"]


class _Replica:
    """The module called with one device's copies of its parameters and buffers."""

    def __init__(self, module, tensors: dict | None) -> None:
        self.module = module
        self.tensors = tensors

    def __call__(self, *args, **kwargs):
        if self.tensors is None:
            return self.module(*args, **kwargs)
        import torch

        return torch.func.functional_call(self.module, self.tensors, args, kwargs)


def replicate(network, devices, detach: bool = False) -> list:
    """One replica of `network` per device (see the module's docstring); the first device's is the network."""
    import torch

    replicas = []
    for i, d in enumerate(devices):
        device = d if isinstance(d, torch.device) else torch.device("cuda", int(d))
        if i == 0:
            replicas.append(_Replica(network, None))
            continue
        tensors = {}
        for name, p in network.named_parameters():
            copy = p.to(device)
            tensors[name] = copy.detach() if detach else copy
        for name, b in network.named_buffers():
            tensors[name] = b.to(device)
        replicas.append(_Replica(network, tensors))
    return replicas
