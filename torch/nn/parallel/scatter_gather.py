"""Scatter and gather for data parallelism (PyTorch's torch.nn.parallel.scatter_gather): tensors in nested
tuples, lists and dicts are split into chunks along `dim` and each chunk copied to one device; gather copies
the per-device outputs back to one device and concatenates them. Both are differentiable (chunk and `.to`)."""

from __future__ import annotations

__all__ = ["scatter", "scatter_kwargs", "gather"]


def _device(d):
    import torch

    if isinstance(d, torch.device):
        return d
    if isinstance(d, int):
        return torch.device("cuda", d) if d >= 0 else torch.device("cpu")
    return torch.device(d)


def scatter(inputs, target_gpus, dim: int = 0):
    """Splits each tensor of `inputs` into len(target_gpus) chunks along dim (torch.chunk's sizes) and copies
    chunk i to target_gpus[i]; other objects are repeated; returns one structure per device used."""
    import torch

    def scatter_map(obj):
        if isinstance(obj, torch.Tensor):
            chunks = obj.chunk(len(target_gpus), dim)
            return [c.to(_device(d)) for c, d in zip(chunks, target_gpus)]
        if isinstance(obj, tuple) and len(obj) > 0:
            if hasattr(type(obj), "_fields"):  # a namedtuple
                return [type(obj)(*args) for args in zip(*map(scatter_map, obj))]
            return list(zip(*map(scatter_map, obj)))
        if isinstance(obj, list) and len(obj) > 0:
            return [list(i) for i in zip(*map(scatter_map, obj))]
        if isinstance(obj, dict) and len(obj) > 0:
            return [type(obj)(i) for i in zip(*map(scatter_map, obj.items()))]
        return [obj for _ in target_gpus]

    try:
        return scatter_map(inputs)
    finally:
        scatter_map = None  # noqa: F841  (break the closure's reference cycle, as upstream does)


def scatter_kwargs(inputs, kwargs, target_gpus, dim: int = 0):
    """scatter of the positional and keyword arguments of a call: (inputs per device, kwargs per device),
    padded to the same length."""
    scattered_inputs = scatter(inputs, target_gpus, dim) if inputs else []
    scattered_kwargs = scatter(kwargs, target_gpus, dim) if kwargs else []
    if len(scattered_inputs) < len(scattered_kwargs):
        scattered_inputs.extend(() for _ in range(len(scattered_kwargs) - len(scattered_inputs)))
    elif len(scattered_kwargs) < len(scattered_inputs):
        scattered_kwargs.extend({} for _ in range(len(scattered_inputs) - len(scattered_kwargs)))
    return tuple(scattered_inputs), tuple(scattered_kwargs)


def gather(outputs, target_device, dim: int = 0):
    """The per-device outputs on target_device (-1: the CPU), tensors concatenated along dim (0-dim tensors
    stacked into a vector, as upstream warns), structures gathered element by element."""
    import torch

    def gather_map(outs):
        out = outs[0]
        if isinstance(out, torch.Tensor):
            device = _device(target_device)
            if out.dim() == 0:
                return torch.stack([o.to(device) for o in outs])
            return torch.cat([o.to(device) for o in outs], dim)
        if out is None:
            return None
        if isinstance(out, dict):
            if not all(len(out) == len(d) for d in outs):
                raise ValueError("All dicts must have the same number of keys")
            return type(out)((k, gather_map([d[k] for d in outs])) for k in out)
        if hasattr(type(out), "_fields"):
            return type(out)._make(map(gather_map, zip(*outs)))
        return type(out)(map(gather_map, zip(*outs)))

    try:
        return gather_map(outputs)
    finally:
        gather_map = None  # noqa: F841
