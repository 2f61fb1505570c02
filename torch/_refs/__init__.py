"""Composites: torch functions and Tensor methods written with other torch ops, so that autograd and
every device come from the ops they are made of. One module per family, named after the math:

    pointwise    clamp/clip (tensor bounds), square, addcmul, addcdiv, logaddexp, deg2rad, signbit, ...
    promotion    result_type
    products     kron, tensordot, inner, addmv, addr, addbmm, baddbmm, vander, trapezoid
    grouped_mm   torch._grouped_mm: one matrix product per group of a jagged operand (Mixture-of-Experts)
    scaled_mm    torch._scaled_mm, torch._scaled_grouped_mm: products of float8 operands decoded by scales
    structure    block_diag, diag_embed, diagflat, triu_indices, tril_indices, combinations
    counting     bincount, histc
    scans        cummax, cummin, logcumsumexp (log-step scans), searchsorted, bucketize (binary search)
    aliases      NumPy's spellings (arccos, divide, greater, ...), positive, argwhere, index_fill/index_copy, ...
    statistics   quantile, nanquantile, cov, corrcoef, mode
    conjugation  conj, resolve_conj, isreal, real/imag, adjoint/mH for the real dtypes
    sampling     bernoulli, multinomial, normal, exponential_/cauchy_/log_normal_/geometric_/random_
    misc         constants, torch.strided, torch.<op>_ forms, windows, isin, unravel_index, cumulative_trapezoid, ...
    nn_ops       torch.conv2d, torch.layer_norm, torch.dropout, torch.embedding_bag, ...: the NN ops in torch
    rnn          lstm, gru, rnn_tanh, rnn_relu and their cells: the recurrences nn.LSTM/GRU/RNN call
    binary_math  copysign, hypot, fmax/fmin, xlogy, heaviside, ldexp, float_power, logaddexp2, logit, ...
    reductions   trace, count_nonzero, aminmax, var_mean, nansum, nanmean, diff, softmax, log_softmax
    linalg       einsum, norm
    joins        atleast_*d, hstack/vstack/dstack, tensor_split/hsplit/..., split, meshgrid, concat
    rearrange    fliplr, flipud, rot90
    views        movedim, swapaxes, diagonal, broadcast_to/broadcast_tensors, T/mT, t_/transpose_/...
    order        median, nanmedian, kthvalue, msort, unique, unique_consecutive
    indexing     advanced indexing (torch._C's __getitem__/__setitem__ call it), index_put_, nonzero, where
    creation     tensor, as_tensor, asarray, frombuffer, from_dlpack/to_dlpack, Tensor.new_*
    settings     use_deterministic_algorithms, float32 matmul precision, interop threads, warn_always, ...
    spectral     stft, istft

Each function says where it goes (torch, Tensor, aliases) with torch._registry.register, next to its
definition; importing this package registers them all (torch/__init__.py installs them).
"""

from torch._refs import (  # noqa: F401
    aliases,
    binary_math,
    conjugation,
    counting,
    creation,
    grouped_mm,
    indexing,
    joins,
    linalg,
    misc,
    nn_ops,
    order,
    pointwise,
    products,
    promotion,
    rearrange,
    reductions,
    rnn,
    sampling,
    scaled_mm,
    scans,
    settings,
    spectral,
    statistics,
    structure,
    views,
)
