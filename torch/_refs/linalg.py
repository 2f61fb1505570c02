"""Linear algebra made of views, reductions and bmm: einsum (with '...' broadcast dims and repeated
subscripts for diagonals) and norm."""

from __future__ import annotations

import math

from torch._C import Tensor
from torch._registry import register
from torch.amp.autocast_mode import autocast_policy

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
    """a (labels la) times b (labels lb), summed over the shared labels not in `out`, via bmm (a broadcast
    product when nothing is summed)."""
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
    # nothing summed: a broadcast product (as upstream's, so that bool operands work: bmm has no bool kernel)
    r = pa * pb if not summed else pa.bmm(pb)
    return r.reshape([sizes[c] for c in batch + left + right]), "".join(batch + left + right)


@register
@autocast_policy(cuda="lower_precision_fp")
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


@register(method=True, out="castable")
def norm(input: Tensor, p="fro", dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    """The p-norm of input (over all elements, or over dim): p = 'fro' or 2, 1, inf, -inf, 0 or any
    positive number (torch.linalg.vector_norm), or 'nuc' (the nuclear norm of the matrices over the two dims
    dim, the last two by default: torch.linalg.matrix_norm)."""
    import torch

    x = input if dtype is None else input.to(dtype)
    if isinstance(p, str):  # 'fro' over at most two dims is a vector norm; else a matrix norm (which checks dim)
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return torch.linalg.vector_norm(x, 2, dim, keepdim)
        dims = tuple(range(x.dim())) if dim is None else (dim,) if isinstance(dim, int) else dim
        return torch.linalg.matrix_norm(x, p, dims, keepdim)
    return torch.linalg.vector_norm(x, 2 if p is None else p, dim, keepdim)


@register(out="castable")
def frobenius_norm(input: Tensor, dim=(-2, -1), keepdim: bool = False) -> Tensor:
    """sqrt(sum(x ** 2)) over dim (torch.linalg.vector_norm of order 2)."""
    import torch

    return torch.linalg.vector_norm(input, 2, dim=dim, keepdim=keepdim)


@register(out="castable")
def nuclear_norm(input: Tensor, dim=(-2, -1), keepdim: bool = False) -> Tensor:
    """The sum of the singular values of the matrices over dim (torch.linalg.matrix_norm 'nuc')."""
    import torch

    if isinstance(dim, bool):  # nuclear_norm(input, keepdim)
        dim, keepdim = (-2, -1), dim
    return torch.linalg.matrix_norm(input, "nuc", dim=dim, keepdim=keepdim)
