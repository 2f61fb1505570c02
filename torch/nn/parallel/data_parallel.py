"""DataParallel and data_parallel (PyTorch's API): a batch split along `dim` over several GPUs, the module run on
each share in parallel (replicas whose parameters are differentiable copies of the module's), the outputs
gathered on `output_device`. Without a GPU the module runs as it is (upstream's behaviour there), and on one GPU
it runs on that GPU; either way the wrapper's state_dict keys carry the `module.` prefix of upstream's."""

from __future__ import annotations

from itertools import chain

from torch.nn.modules.module import Module
from torch.nn.parallel.parallel_apply import parallel_apply
from torch.nn.parallel.replicate import replicate
from torch.nn.parallel.scatter_gather import gather, scatter_kwargs

__all__ = ["DataParallel", "data_parallel"]


def _device_index(d) -> int:
    import torch

    if isinstance(d, torch.device):
        if d.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {d}")
        return d.index if d.index is not None else torch.cuda.current_device()
    if isinstance(d, str):
        return _device_index(torch.device(d))
    return int(d)


class DataParallel(Module):
    """Runs `module` over the GPUs device_ids (default: all), splitting each input batch along `dim`."""

    def __init__(self, module, device_ids=None, output_device=None, dim: int = 0) -> None:
        import torch

        super().__init__()
        if not torch.cuda.is_available():
            self.module = module
            self.device_ids = []
            return
        if device_ids is None:
            device_ids = list(range(torch.cuda.device_count()))
        if not device_ids:
            raise RuntimeError("no available devices were found")
        if output_device is None:
            output_device = device_ids[0]
        self.dim = dim
        self.module = module
        self.device_ids = [_device_index(x) for x in device_ids]
        self.output_device = _device_index(output_device)
        self.src_device_obj = torch.device("cuda", self.device_ids[0])
        if len(self.device_ids) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        """The module on the scattered inputs, outputs gathered on output_device."""
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        for t in chain(self.module.parameters(), self.module.buffers()):
            if t.device != self.src_device_obj:
                raise RuntimeError(
                    "module must have its parameters and buffers "
                    f"on device {self.src_device_obj} (device_ids[0]) but found one of "
                    f"them on device: {t.device}"
                )
        inputs, module_kwargs = self.scatter(inputs, kwargs, self.device_ids)
        if not inputs and not module_kwargs:
            inputs, module_kwargs = ((),), ({},)
        if len(self.device_ids) == 1:
            return self.module(*inputs[0], **module_kwargs[0])
        replicas = self.replicate(self.module, self.device_ids[: len(inputs)])
        outputs = self.parallel_apply(replicas, inputs, module_kwargs)
        return self.gather(outputs, self.output_device)

    def replicate(self, module, device_ids):
        """The module's replicas on device_ids (detached under no_grad)."""
        import torch

        return replicate(module, device_ids, not torch.is_grad_enabled())

    def scatter(self, inputs, kwargs, device_ids):
        """The inputs and kwargs split over device_ids along dim."""
        return scatter_kwargs(inputs, kwargs, device_ids, dim=self.dim)

    def parallel_apply(self, replicas, inputs, kwargs):
        """The replicas run on their inputs in parallel."""
        return parallel_apply(replicas, inputs, kwargs, self.device_ids[: len(replicas)])

    def gather(self, outputs, output_device):
        """The outputs gathered on output_device along dim."""
        return gather(outputs, output_device, dim=self.dim)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim: int = 0, module_kwargs=None):
    """DataParallel's forward as a function: module(inputs) over device_ids, without a wrapper module."""
    import torch

    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    if not torch.cuda.is_available():
        return module(*inputs, **(module_kwargs or {}))
    if device_ids is None:
        device_ids = list(range(torch.cuda.device_count()))
    device_ids = [_device_index(d) for d in device_ids]
    if output_device is None:
        output_device = device_ids[0]
    src = torch.device("cuda", device_ids[0])
    for t in chain(module.parameters(), module.buffers()):
        if t.device != src:
            raise RuntimeError(
                f"module must have its parameters and buffers on device {src} (device_ids[0]) but found one of "
                f"them on device: {t.device}"
            )
    inputs, module_kwargs = scatter_kwargs(inputs, module_kwargs, device_ids, dim)
    if not inputs and not module_kwargs:
        inputs, module_kwargs = ((),), ({},)
    if len(device_ids) == 1:
        return module(*inputs[0], **module_kwargs[0])
    used = device_ids[: len(inputs)]
    replicas = replicate(module, used, not torch.is_grad_enabled())
    outputs = parallel_apply(replicas, inputs, module_kwargs, used)
    return gather(outputs, _device_index(output_device), dim)
