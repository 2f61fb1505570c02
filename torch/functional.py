"""Functions written with other torch ops (so autograd and every device come for free):
broadcast_shapes, einsum, norm, softmax/log_softmax, and the one-argument forms of nonzero/where."""

from __future__ import annotations

import math

import torch
from torch._C import Tensor

__all__ = [
    "broadcast_shapes",
    "einsum",
    "norm",
    "finfo",
    "iinfo",
    "from_dlpack",
    "nonzero",
    "where",
    "softmax",
    "log_softmax",
    "split",
    "broadcast_to",
    "broadcast_tensors",
    "movedim",
    "diagonal",
    "is_tensor",
    "numel",
    "is_floating_point",
]


def _wrap_dim(dim: int, ndim: int) -> int:
    """dim in [0, ndim) from a possibly negative one, with PyTorch's IndexError (a 0-dim tensor takes
    dim 0 or -1, as in maybe_wrap_dim)."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


_nonzero, _where, _split = torch._C.nonzero, torch._C.where, torch._C.split


def split(tensor: Tensor, split_size_or_sections, dim: int = 0) -> tuple:
    """Views of `tensor` along dim: chunks of split_size_or_sections elements (the last one smaller), or
    one chunk per entry of a list of sizes (which must sum to the size of dim)."""
    if isinstance(split_size_or_sections, int) or (
        type(split_size_or_sections) is Tensor and split_size_or_sections.dim() == 0
    ):
        return _split(tensor, int(split_size_or_sections), dim)
    sizes = [int(s) for s in split_size_or_sections]
    n = tensor.size(dim)
    if sum(sizes) != n or any(s < 0 for s in sizes):
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at dimension "
            f"{dim}), but got split_sizes={sizes}"
        )
    out, start = [], 0
    for s in sizes:
        out.append(tensor.narrow(dim, start, s))
        start += s
    return tuple(out)


def broadcast_to(input: Tensor, size) -> Tensor:
    """input expanded (a view) to `size`, as broadcasting would."""
    return input.expand(size)


def broadcast_tensors(*tensors) -> tuple:
    """The tensors expanded (views) to their common broadcast shape."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t.expand(shape) for t in tensors)


def movedim(input: Tensor, source, destination) -> Tensor:
    """A view with the dims in `source` moved to the positions in `destination` (the others keep their order)."""
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    n = input.dim()
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({src} dims) should contain the same number "
            f"of dims as destination ({dst} dims)"
        )

    src, dst = [_wrap_dim(d, n) for d in src], [_wrap_dim(d, n) for d in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise RuntimeError("movedim: repeated dim in `source` or `destination`")
    order = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    return input.permute([o if o is not None else next(rest) for o in order])


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A view of the diagonal of dims (dim1, dim2), shifted by offset; it becomes the last dim."""
    n = input.dim()
    d1, d2 = _wrap_dim(dim1, n), _wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    size, stride = list(input.shape), list(input.stride())
    start = input.storage_offset()
    if offset >= 0:
        length = max(0, min(size[d1], size[d2] - offset))
        start += offset * stride[d2] if length else 0
    else:
        length = max(0, min(size[d1] + offset, size[d2]))
        start += -offset * stride[d1] if length else 0
    keep = [d for d in range(n) if d not in (d1, d2)]
    return input.as_strided(
        [size[d] for d in keep] + [length], [stride[d] for d in keep] + [stride[d1] + stride[d2]], start
    )


def is_tensor(obj) -> bool:
    """Whether obj is a torch.Tensor."""
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    """The number of elements of input."""
    return input.numel()


def is_floating_point(input: Tensor) -> bool:
    """Whether input's dtype is a floating-point type."""
    return input.dtype.is_floating_point


def nonzero(input: Tensor, *, as_tuple: bool = False):
    """The indices of input's nonzero elements: an [n, input.dim()] int64 tensor, or with
    as_tuple=True a tuple of 1-d index tensors, one per dim (a 0-dim input counts as 1-d)."""
    if not as_tuple:
        return _nonzero(input)
    idx = _nonzero(input.reshape(1) if type(input) is Tensor and input.dim() == 0 else input)
    return tuple(idx.unbind(1))


def where(condition: Tensor, *args, **kwargs):
    """where(condition, input, other): input where condition holds, else other (broadcast);
    where(condition) alone is nonzero(condition, as_tuple=True)."""
    if not args and not kwargs:
        return nonzero(condition, as_tuple=True)
    return _where(condition, *args, **kwargs)


def _floating(input: Tensor, dtype, op: str) -> Tensor:
    x = input if dtype is None else input.to(dtype)
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"{op}(): expected a floating-point input (or dtype=), got {x.dtype}")
    return x


def log_softmax(input: Tensor, dim: int, dtype=None) -> Tensor:
    """input - logsumexp(input) along dim: log-probabilities, stable for large inputs."""
    x = _floating(input, dtype, "log_softmax")
    return x - torch.logsumexp(x, dim, keepdim=True)


def softmax(input: Tensor, dim: int, dtype=None) -> Tensor:
    """exp(input) normalized to sum to 1 along dim (the max is subtracted first, so no overflow)."""
    x = _floating(input, dtype, "softmax")
    e = (x - x.amax(dim, keepdim=True).detach()).exp()  # the shift cancels: no gradient through it
    return e / e.sum(dim, keepdim=True)


def broadcast_shapes(*shapes) -> torch.Size:
    """The shape tensors of these shapes broadcast to (RuntimeError if they cannot)."""
    out: list = []
    for shape in shapes:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if len(shape) > len(out):
            out = [1] * (len(shape) - len(out)) + out
        for i, n in enumerate(shape):
            j = len(out) - len(shape) + i
            if n != out[j] and n != 1 and out[j] != 1:
                raise RuntimeError(
                    f"Shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg "
                    f"and {n} at dimension {i}"
                )
            if out[j] == 1:
                out[j] = n
    return torch.Size(out)


_ELLIPSIS = "*"  # one marker per term while parsing; then one label per broadcast dim (not letters)


def _scan(term: str, where: str) -> tuple[str, bool]:
    """The labels of one term with '...' as one marker, and whether it had an ellipsis."""
    ellipses = term.count("...")
    if ellipses > 1:
        raise RuntimeError(f"einsum(): found '.' for {where} for which an ellipsis was already found")
    if term.count(".") != 3 * ellipses:
        raise RuntimeError(f"einsum(): found '.' for {where} that is not part of any ellipsis")
    labels = term.replace("...", _ELLIPSIS)
    for c in labels:
        if c != _ELLIPSIS and not (c.isascii() and c.isalpha()):
            raise ValueError(f"einsum(): invalid subscript given in the equation string: {term!r}")
    return labels, _ELLIPSIS in labels


def _parse(equation: str, operands) -> tuple[list[str], str]:
    """Per-operand labels and the output labels, each ellipsis dim given a label of its own
    (right-aligned across operands, as broadcasting does); validates the operands' ranks."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise ValueError(
            "einsum(): more operands were provided than specified in the equation"
            if len(terms) < len(operands)
            else "einsum(): fewer operands were provided than specified in the equation"
        )
    parsed = []
    for i, (term, t) in enumerate(zip(terms, operands)):
        labels, has_ellipsis = _scan(term, f"operand {i}")
        n = len(labels) - has_ellipsis
        if has_ellipsis and n > t.dim():
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({n}) is more than the number of "
                f"dimensions ({t.dim()}) for operand {i}"
            )
        if not has_ellipsis and n != t.dim():
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({n}) does not match the number of "
                f"dimensions ({t.dim()}) for operand {i} and no ellipsis was given"
            )
        parsed.append((labels, t.dim() - n if has_ellipsis else 0))
    n_ell = max((k for _, k in parsed), default=0)
    ell = [chr(0x2460 + j) for j in range(n_ell)]  # circled digits: never a subscript
    seen: dict = {}
    inputs = []
    for i, ((labels, k), t) in enumerate(zip(parsed, operands)):
        mine = ell[n_ell - k :]
        at = labels.find(_ELLIPSIS)
        for j, label in enumerate(mine):
            size, prev = t.shape[at + j], seen.get(label)
            if prev is not None and size != prev and 1 not in (size, prev):
                raise RuntimeError(
                    f"einsum(): dimension {at + j} covered by ellipsis in operand {i}has size {size} which does not "
                    f"broadcast with previously seen ellipsis with size {prev} for the respective dimension"
                )
            seen[label] = size if prev in (None, 1) else prev
        inputs.append(labels.replace(_ELLIPSIS, "".join(mine)))
    letters = {c for labels, _ in parsed for c in labels if c != _ELLIPSIS}
    if arrow:
        out, _ = _scan(rhs, "output")
        for c in out:
            if c != _ELLIPSIS and out.count(c) > 1:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
            if c != _ELLIPSIS and c not in letters:
                raise RuntimeError(
                    f"einsum(): output subscript {c} does not appear in the equation for any input operand"
                )
        return inputs, out.replace(_ELLIPSIS, "".join(ell))
    counts: dict = {}  # implicit output: the broadcast dims, then the letters used once, sorted
    for labels, _ in parsed:
        for c in labels:
            counts[c] = counts.get(c, 0) + 1
    return inputs, "".join(ell) + "".join(sorted(c for c in letters if counts[c] == 1))


def _diagonal(t: Tensor, labels: str, index: int) -> tuple[Tensor, str]:
    """The diagonal view of `t` over its repeated labels ('ii->i'): one dim per label, strides summed."""
    if len(set(labels)) == len(labels):
        return t, labels
    t = t.contiguous()  # as_strided's backward wants a dense input
    uniq: list = []
    sizes: list = []
    strides: list = []
    for d, c in enumerate(labels):
        if c in uniq:
            j = uniq.index(c)
            if sizes[j] != t.shape[d]:
                raise RuntimeError(
                    f"einsum(): subscript {c} is repeated for operand {index} but the sizes don't match, "
                    f"{t.shape[d]} != {sizes[j]}"
                )
            strides[j] += t.stride(d)
        else:
            uniq.append(c)
            sizes.append(t.shape[d])
            strides.append(t.stride(d))
    return t.as_strided(sizes, strides, t.storage_offset()), "".join(uniq)


def _prepare(t: Tensor, labels: str, keep: set) -> tuple[Tensor, str]:
    """Sums out the labels of `t` nobody else needs."""
    drop = [i for i, c in enumerate(labels) if c not in keep]
    if drop:
        t = t.sum(drop)
        labels = "".join(c for c in labels if c in keep)
    return t, labels


def _contract(a: Tensor, la: str, b: Tensor, lb: str, out: str) -> tuple[Tensor, str]:
    """a (labels la) times b (labels lb), summed over the shared labels not in `out`, via bmm."""
    sizes = {**dict(zip(la, a.shape)), **dict(zip(lb, b.shape))}
    for c in set(la) & set(lb):
        na, nb = a.shape[la.index(c)], b.shape[lb.index(c)]
        if na != nb and na != 1 and nb != 1:
            raise RuntimeError(
                f"einsum(): operands do not broadcast with remapped shapes (original->remapped): "
                f"label {c!r} has sizes {na} and {nb}"
            )
        sizes[c] = max(na, nb)
    batch = [c for c in la if c in lb and c in out]
    summed = [c for c in la if c in lb and c not in out]
    left = [c for c in la if c not in lb]
    right = [c for c in lb if c not in la]
    pa = a.permute([la.index(c) for c in batch + left + summed])
    pb = b.permute([lb.index(c) for c in batch + summed + right])
    nb_, nl, ns, nr = (math.prod(sizes[c] for c in g) for g in (batch, left, summed, right))
    pa = pa.expand([sizes[c] for c in batch + left + summed]).reshape(nb_, nl, ns)
    pb = pb.expand([sizes[c] for c in batch + summed + right]).reshape(nb_, ns, nr)
    r = pa.bmm(pb).reshape([sizes[c] for c in batch + left + right])
    return r, "".join(batch + left + right)


def einsum(equation: str, *operands) -> Tensor:
    """Einstein summation, e.g. einsum('bij,bjk->bik', a, b), with '...' for broadcast dims and
    repeated subscripts for diagonals ('ii->i'); reduces to diagonal views, permute, sum and bmm."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    inputs, out = _parse(equation, operands)
    terms = [_diagonal(t, labels, i) for i, (t, labels) in enumerate(zip(operands, inputs))]
    needed_later = [set(out).union(*[set(lb) for _, lb in terms[i + 1 :]]) for i in range(len(terms))]
    acc, la = _prepare(terms[0][0], terms[0][1], needed_later[0] | set().union(*[set(lb) for _, lb in terms[1:]]))
    for i in range(1, len(terms)):
        b, lb = _prepare(terms[i][0], terms[i][1], needed_later[i] | set(la))
        keep = needed_later[i]
        acc, la = _contract(acc, la, b, lb, "".join(sorted(keep)))
    acc, la = _prepare(acc, la, set(out))
    return acc.permute([la.index(c) for c in out]) if la != out else acc


def norm(input: Tensor, p="fro", dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    """The p-norm of input (over all elements, or over dim): p = 'fro' or 2, 1, inf, -inf, 0 or any
    positive number."""
    x = input if dtype is None else input.to(dtype)
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got {x.dtype} instead.")
    dims = () if dim is None else dim
    if p is None or p in ("fro", 2, 2.0):
        return (x * x).sum(dims, keepdim=keepdim).sqrt()
    a = x.abs()
    if p == float("inf"):
        return a.amax(dims, keepdim=keepdim)
    if p == float("-inf"):
        return a.amin(dims, keepdim=keepdim)
    if p == 0:
        return (a != 0).to(x.dtype).sum(dims, keepdim=keepdim)
    if p == 1:
        return a.sum(dims, keepdim=keepdim)
    return (a**p).sum(dims, keepdim=keepdim) ** (1.0 / p)


class finfo:
    """Machine limits of a floating-point dtype (torch.finfo)."""

    def __init__(self, type=None) -> None:
        import numpy as np  # noqa: PLC0415

        dtype = torch.get_default_dtype() if type is None else type
        if not dtype.is_floating_point:
            raise TypeError(f"torch.finfo() requires a floating point input type. Use torch.iinfo to handle '{dtype}'")
        self.dtype = str(dtype).replace("torch.", "")
        if dtype == torch.bfloat16:  # NumPy has no bfloat16: float32's range, 8 significant bits
            self.bits, self.eps, self.max = 16, 2.0**-7, float.fromhex("0x1.fep127")
            self.tiny = self.smallest_normal = 2.0**-126
            self.min, self.resolution = -self.max, 0.01
            return
        info = np.finfo({torch.float16: np.float16, torch.float32: np.float32}.get(dtype, np.float64))
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.tiny)
        self.resolution = 10.0 ** -int(info.precision)

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
            f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})"
        )


class iinfo:
    """Limits of an integer dtype (torch.iinfo)."""

    _NP = {"int64": "int64", "int32": "int32", "int16": "int16", "int8": "int8", "uint8": "uint8"}

    def __init__(self, type) -> None:
        import numpy as np  # noqa: PLC0415

        name = str(type).replace("torch.", "")
        if name not in self._NP:
            raise TypeError(f"torch.iinfo() requires an integer input type. Use torch.finfo to handle '{type}'")
        info = np.iinfo(getattr(np, self._NP[name]))
        self.dtype, self.bits, self.max, self.min = name, int(info.bits), int(info.max), int(info.min)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"


def from_dlpack(ext_tensor) -> Tensor:
    """A tensor sharing the memory of an object with __dlpack__ (NumPy, PyTorch, JAX, CuPy, ...) or of a
    DLPack capsule: any of our dtypes, CPU or CUDA memory."""
    try:
        return torch._C._from_dlpack(ext_tensor)
    except TypeError:
        if hasattr(ext_tensor, "__dlpack__"):
            raise
        # anything else is taken for a capsule, as upstream does
        raise RuntimeError(
            "from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed only "
            "once, so you might have already constructed a tensor from it once."
        ) from None
