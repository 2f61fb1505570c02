"""torch.nn.utils: parametrizations (weight_norm, spectral_norm, orthogonal), gradient clipping, parameter/vector
conversion, pruning (prune), variable-length sequences (rnn), BatchNorm folding (fusion), conv weights' memory
format and skip_init."""

from torch.nn.utils import parametrizations, parametrize, prune, rnn, stateless
from torch.nn.utils.clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from torch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, fuse_linear_bn_weights
from torch.nn.utils.init import skip_init
from torch.nn.utils.memory_format import convert_conv2d_weight_memory_format, convert_conv3d_weight_memory_format
from torch.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
from torch.nn.utils.weight_norm import remove_weight_norm, weight_norm

__all__ = [
    "parametrizations",
    "parametrize",
    "prune",
    "remove_spectral_norm",
    "spectral_norm",
    "remove_weight_norm",
    "weight_norm",
    "rnn",
    "stateless",
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "get_total_norm",
    "parameters_to_vector",
    "vector_to_parameters",
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
    "skip_init",
    "convert_conv2d_weight_memory_format",
    "convert_conv3d_weight_memory_format",
]
