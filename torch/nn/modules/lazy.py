"""Lazy modules: layers that take their input size from the first input they see (LazyLinear, LazyConv*d,
LazyConvTranspose*d, LazyBatchNorm*d, LazyInstanceNorm*d). Until then their parameters are uninitialized
(nn.UninitializedParameter); the first forward gives them their shapes, initializes them as the eager layer
would, and turns the module into that layer (LazyLinear becomes Linear), as PyTorch does."""

from __future__ import annotations

from torch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from torch.nn.modules.conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from torch.nn.modules.instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from torch.nn.modules.linear import Linear
from torch.nn.parameter import UninitializedBuffer, UninitializedParameter, is_lazy, materialize

__all__ = [
    "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyConv1d", "LazyConv2d", "LazyConv3d",
    "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d", "LazyInstanceNorm1d",
    "LazyInstanceNorm2d", "LazyInstanceNorm3d", "LazyLinear", "LazyModuleMixin",
]  # fmt: skip


class LazyModuleMixin:
    """Infers a module's parameter shapes from its first input: initialize_parameters(*args) runs in a forward
    pre-hook until no parameter or buffer is uninitialized, then the module becomes cls_to_become."""

    cls_to_become = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._lazy_hook = self.register_forward_pre_hook(_infer_parameters)

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer is still uninitialized."""
        return any(is_lazy(t) for t in list(self._parameters.values()) + list(self._buffers.values()))

    def initialize_parameters(self, *args, **kwargs) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement initialize_parameters")


def _infer_parameters(module, args):
    module.initialize_parameters(*args)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {type(module).__name__} has not been fully initialized")
    module._lazy_hook.remove()
    del module._lazy_hook
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become


class LazyLinear(LazyModuleMixin, Linear):
    """Linear whose in_features is the last dim of its first input."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(0, out_features, False, device, dtype)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if self.has_uninitialized_params():
            self.in_features = input.shape[-1]
            materialize(self.weight, (self.out_features, self.in_features))
            if self.bias is not None:
                materialize(self.bias, (self.out_features,))
            self.reset_parameters()


class _LazyConvMixin(LazyModuleMixin):
    """A convolution whose in_channels is the channel dim of its first input."""

    def __init__(self, out_channels, kernel_size, *args, bias: bool = True, device=None, dtype=None, **kwargs):
        super().__init__(0, 0, kernel_size, *args, bias=False, device=device, dtype=dtype, **kwargs)
        self.out_channels = out_channels
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args) -> None:
        if self.has_uninitialized_params():
            batched = input.dim() == self.cls_to_become._n + 2
            self.in_channels = input.shape[1 if batched else 0]
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            if self.transposed:
                shape = (self.in_channels, self.out_channels // self.groups, *self.kernel_size)
            else:
                shape = (self.out_channels, self.in_channels // self.groups, *self.kernel_size)
            materialize(self.weight, shape)
            if self.bias is not None:
                materialize(self.bias, (self.out_channels,))
            self.reset_parameters()


def _lazy_conv(name: str, eager):
    doc = f"{eager.__name__} whose in_channels is the channel dim of its first input."
    return type(name, (_LazyConvMixin, eager), {"cls_to_become": eager, "__doc__": doc, "__module__": __name__})


LazyConv1d = _lazy_conv("LazyConv1d", Conv1d)
LazyConv2d = _lazy_conv("LazyConv2d", Conv2d)
LazyConv3d = _lazy_conv("LazyConv3d", Conv3d)
LazyConvTranspose1d = _lazy_conv("LazyConvTranspose1d", ConvTranspose1d)
LazyConvTranspose2d = _lazy_conv("LazyConvTranspose2d", ConvTranspose2d)
LazyConvTranspose3d = _lazy_conv("LazyConvTranspose3d", ConvTranspose3d)


class _LazyNormMixin(LazyModuleMixin):
    """A batch or instance norm whose num_features is the channel dim of its first input."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        super().__init__(0, eps, momentum, affine, track_running_stats, device, dtype)
        if self.affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        if self.track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if self.has_uninitialized_params():
            self.num_features = input.shape[1] if input.dim() > 1 else input.shape[0]
            for name in ("weight", "bias", "running_mean", "running_var"):
                t = getattr(self, name, None)
                if t is not None and is_lazy(t):
                    materialize(t, (self.num_features,))
            self.reset_parameters()


def _lazy_norm(name: str, eager, affine: bool, track: bool):
    def __init__(self, eps=1e-5, momentum=0.1, affine=affine, track_running_stats=track, device=None, dtype=None):
        _LazyNormMixin.__init__(self, eps, momentum, affine, track_running_stats, device, dtype)

    doc = f"{eager.__name__} whose num_features is the channel dim of its first input."
    attrs = {"cls_to_become": eager, "__doc__": doc, "__module__": __name__, "__init__": __init__}
    return type(name, (_LazyNormMixin, eager), attrs)


LazyBatchNorm1d = _lazy_norm("LazyBatchNorm1d", BatchNorm1d, True, True)
LazyBatchNorm2d = _lazy_norm("LazyBatchNorm2d", BatchNorm2d, True, True)
LazyBatchNorm3d = _lazy_norm("LazyBatchNorm3d", BatchNorm3d, True, True)
LazyInstanceNorm1d = _lazy_norm("LazyInstanceNorm1d", InstanceNorm1d, True, True)  # affine and tracked, as upstream
LazyInstanceNorm2d = _lazy_norm("LazyInstanceNorm2d", InstanceNorm2d, True, True)
LazyInstanceNorm3d = _lazy_norm("LazyInstanceNorm3d", InstanceNorm3d, True, True)
