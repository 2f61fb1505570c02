"""torch.nn.functional's kernels (THNN/THCUNN): activations, softmax/log_softmax, convolution, pooling,
layer/batch/group norm, nll_loss/cross_entropy, interpolate (antialias too), with random small shapes and
parameters, every float dtype (integers now and then, for the errors), non-contiguous inputs, and bad
parameters (mismatched channels, kernels larger than the input, targets out of range) whose errors must match
upstream's."""

from __future__ import annotations

import math
import random

from . import tensors as T
from . import values as V
from .call import Call

F = "torch.nn.functional"


def _float(rng: random.Random) -> str:
    return V.dtype(rng, V.FLOATS) if rng.random() < 0.95 else rng.choice(("int64", "int32"))


def _extremes(rng: random.Random) -> tuple[float, str]:
    """How often an input element is extreme (inf, nan, the dtype's max, ...) and the signature suffix that
    says so: a convolution, a norm or a loss accumulates, and where inf and nan come out of an overflow
    depends on the order (and, for a padded convolution, on whether the padding is read: ours multiplies
    it by the weights, upstream's direct convolution skips it)."""
    return (0.15, ",ext") if rng.random() < 0.2 else (0.0, "")


def activation(rng: random.Random) -> Call:
    """An activation with its parameters."""
    op, params = rng.choice(
        (
            ("gelu", ["", "approximate='tanh'", "approximate='none'"]),
            ("silu", [""]),
            ("elu", ["", "alpha=0.5", "1.5"]),
            ("selu", [""]),
            ("celu", ["", "alpha=2.0"]),
            ("leaky_relu", ["", "0.2", "negative_slope=-0.1"]),
            ("hardtanh", ["", "-2.0, 1.5", "min_val=0.0, max_val=6.0"]),
            ("relu6", [""]),
            ("hardswish", [""]),
            ("hardsigmoid", [""]),
            ("softplus", ["", "beta=2.0", "beta=0.5, threshold=3.0"]),
            ("mish", [""]),
            ("logsigmoid", [""]),
        )
    )
    x = T.tensor(rng, dt=_float(rng))
    p = rng.choice(params)
    return Call(f"F.{op}", f"{F}.{op}({x.expr}{', ' + p if p else ''})", f"{x.dtype}")


def softmax(rng: random.Random) -> Call:
    """softmax / log_softmax along a dim (rows long enough for the vectorized paths now and then)."""
    op = rng.choice(("softmax", "log_softmax"))
    shp = T.shape(rng, rng.randint(1, 3)) if rng.random() < 0.8 else (rng.randint(1, 3), rng.randint(20, 70))
    special, ext = (0.1, ",ext") if rng.random() < 0.2 else (0.0, "")
    x = T.tensor(rng, shp, dt=_float(rng), special=special)
    dim = rng.randint(-len(shp), len(shp) - 1) if shp else 0
    return Call(op, f"torch.{op}({x.expr}, {dim})", f"{x.dtype}{ext}", accum=True)


def _spatial(rng: random.Random, dims: int, lo: int = 1, hi: int = 7) -> tuple[int, ...]:
    return tuple(rng.randint(lo, hi) for _ in range(dims))


def _ints(rng: random.Random, dims: int, lo: int, hi: int) -> str:
    vals = [rng.randint(lo, hi) for _ in range(dims)]
    return str(vals[0]) if rng.random() < 0.5 else V.fmt(tuple(vals))


def conv(rng: random.Random) -> Call:
    """conv1d/conv2d with groups, stride, padding (numbers, 'same', 'valid'), dilation, bias."""
    dims = rng.choice((1, 2, 2))
    groups = rng.choice((1, 1, 2))
    cin, cout = groups * rng.randint(1, 3), groups * rng.randint(1, 3)
    n = rng.randint(1, 3)
    batched = rng.random() < 0.9
    shp = ((n,) if batched else ()) + (cin,) + _spatial(rng, dims, 2, 7)
    kernel = _spatial(rng, dims, 1, 3)
    dt = _float(rng)
    if rng.random() < 0.05:  # a channel mismatch
        cin += 1
    special, ext = _extremes(rng)
    x = T.tensor(rng, shp, dt=dt, special=special)
    w = T.tensor(rng, (cout, cin // groups) + kernel, dt=dt, special=special)
    args = [x.expr, w.expr]
    if rng.random() < 0.6:
        args.append(T.tensor(rng, (cout,), dt=dt, special=special).expr)
    r = rng.random()
    same = False
    if r < 0.15:
        args.append("padding='same'")
        same = True
    elif r < 0.25:
        args.append("padding='valid'")
    elif r < 0.7:
        args.append(f"padding={_ints(rng, dims, 0, 2)}")
    if rng.random() < 0.5 and not same:
        args.append(f"stride={_ints(rng, dims, 1, 3)}")
    if rng.random() < 0.4:
        args.append(f"dilation={_ints(rng, dims, 1, 2)}")
    if groups > 1:
        args.append(f"groups={groups}")
    return Call(f"F.conv{dims}d", f"{F}.conv{dims}d({', '.join(args)})", f"{dt}{ext}", accum=True)


def pool(rng: random.Random) -> Call:
    """max_pool / avg_pool 1-2-D with kernel, stride, padding, dilation, ceil_mode, count_include_pad."""
    dims = rng.choice((1, 2, 2))
    kind = rng.choice(("max", "avg"))
    batched = rng.random() < 0.85
    shp = ((rng.randint(1, 3),) if batched else ()) + (rng.randint(1, 3),) + _spatial(rng, dims, 1, 8)
    special, ext = _extremes(rng)
    x = T.tensor(rng, shp, dt=_float(rng), special=special)
    k = rng.randint(1, 3)
    args = [x.expr, _ints(rng, dims, 1, 3) if rng.random() < 0.5 else str(k)]
    if rng.random() < 0.6:
        args.append(f"stride={_ints(rng, dims, 1, 3)}")
    if rng.random() < 0.5:
        args.append(f"padding={_ints(rng, dims, 0, 1)}")
    if kind == "max" and rng.random() < 0.3:
        args.append(f"dilation={_ints(rng, dims, 1, 2)}")
    if rng.random() < 0.4:
        args.append("ceil_mode=True")
    if kind == "avg" and rng.random() < 0.4:
        args.append(f"count_include_pad={rng.random() < 0.5}")
    if kind == "max" and rng.random() < 0.4:
        args.append("return_indices=True")
    op = f"{kind}_pool{dims}d"
    return Call(f"F.{op}", f"{F}.{op}({', '.join(args)})", f"{x.dtype}{ext}", accum=kind == "avg")


def norm(rng: random.Random) -> Call:
    """layer_norm over the last dims, batch_norm in training or with running stats, group_norm."""
    op = rng.choice(("layer_norm", "batch_norm", "group_norm"))
    dt = V.dtype(rng, ("float32", "float64", "float32", "bfloat16", "float16"))
    special, ext = _extremes(rng)
    if op == "layer_norm":
        shp = T.shape(rng, rng.randint(1, 3), empty=0.02)
        k = rng.randint(1, max(1, len(shp)))
        x = T.tensor(rng, shp, dt=dt, special=special)
        norm_shape = shp[len(shp) - k :] if rng.random() < 0.95 else (7,)
        args = [x.expr, V.fmt(tuple(norm_shape))]
        if rng.random() < 0.6:
            args += [T.tensor(rng, norm_shape, dt=dt, special=special).expr]
            args += [T.tensor(rng, norm_shape, dt=dt, special=special).expr]
        src = f"{F}.layer_norm({', '.join(args)})"
    elif op == "batch_norm":
        c = rng.randint(1, 4)
        shp = (rng.randint(2, 4), c) + _spatial(rng, rng.randint(0, 2), 1, 4)
        x = T.tensor(rng, shp, dt=dt, special=special)
        w, b = T.tensor(rng, (c,), dt=dt, special=special).expr, T.tensor(rng, (c,), dt=dt, special=special).expr
        if rng.random() < 0.5:
            src = f"{F}.batch_norm({x.expr}, None, None, {w}, {b}, training=True)"
        else:
            rm, rv = f"torch.zeros({c}, dtype=torch.{dt})", f"torch.ones({c}, dtype=torch.{dt})"
            src = f"rm, rv = {rm}, {rv}\n({F}.batch_norm({x.expr}, rm, rv, {w}, {b}, training=True), rm, rv)"
    else:
        g = rng.choice((1, 2))
        shp = (rng.randint(1, 3), g * rng.randint(1, 3)) + _spatial(rng, rng.randint(0, 2), 1, 4)
        x = T.tensor(rng, shp, dt=dt, special=special)
        src = f"{F}.group_norm({x.expr}, {g})"
    return Call(f"F.{op}", src, f"{dt}{ext}", accum=True)


def loss(rng: random.Random) -> Call:
    """nll_loss / cross_entropy: [N, C] or [C] or N-d input, weights, ignore_index, reductions, targets out
    of range now and then."""
    op = rng.choice(("nll_loss", "cross_entropy"))
    dt = V.dtype(rng, ("float32", "float64", "float32", "bfloat16"))
    c = rng.randint(1, 5)
    r = rng.random()
    if r < 0.15:
        shp, tshape = (c,), ()
    elif r < 0.8:
        shp, tshape = (rng.randint(1, 5), c), None
    else:
        n, extra = rng.randint(1, 3), _spatial(rng, rng.randint(1, 2), 1, 3)
        shp, tshape = (n, c) + extra, (n,) + extra
    if tshape is None:
        tshape = (shp[0],)
    special, ext = _extremes(rng)
    x = T.tensor(rng, shp, dt=dt, special=special)
    hi = c if rng.random() < 0.95 else c + 2
    flat = [rng.randint(0, hi - 1) if rng.random() > 0.1 else -100 for _ in range(max(1, math.prod(tshape)))]
    target = f"torch.tensor({flat[0] if tshape == () else T.nested(flat, tshape)})"
    args = [x.expr, target]
    if rng.random() < 0.3:
        args.append(f"weight={T.tensor(rng, (c,), dt=dt, special=special).expr}")
    if rng.random() < 0.5:
        args.append(f"reduction='{rng.choice(('none', 'sum', 'mean'))}'")
    if rng.random() < 0.15:
        args.append(f"ignore_index={rng.randint(0, c - 1)}")
    return Call(f"F.{op}", f"{F}.{op}({', '.join(args)})", f"{dt}{ext}", accum=True)


def interpolate(rng: random.Random) -> Call:
    """interpolate: nearest / nearest-exact / (bi/tri)linear / bicubic / area on 3-5-D input, and antialiased
    bilinear / bicubic / lanczos on 4-D input, by size or scale factor (recompute_scale_factor now and then),
    align_corners both ways, up and down (antialias matters when downsampling)."""
    dims = rng.choice((1, 2, 2, 2, 3))
    antialias = dims == 2 and rng.random() < 0.5
    if antialias:
        mode = rng.choice(("bilinear", "bicubic", "lanczos"))
    else:
        mode = rng.choice(
            ("nearest", "nearest-exact", "area", {1: "linear", 2: "bilinear", 3: "trilinear"}[dims])
            + (("bicubic",) if dims == 2 else ())
        )
    dt = V.dtype(rng, ("float32", "float64", "float32", "float64", "bfloat16", "float16", "uint8"))
    shp = (rng.randint(1, 2), rng.randint(1, 3)) + _spatial(rng, dims, 1, 12)
    special, ext = _extremes(rng)
    x = T.tensor(rng, shp, dt=dt, special=special)
    args = [x.expr]
    if rng.random() < 0.6:
        size = [rng.randint(1, 14) for _ in range(dims)]
        args.append(f"size={tuple(size) if dims > 1 else size[0]}")
    else:
        sf = [round(rng.uniform(0.1, 3.0), 2) for _ in range(dims)]
        size = [math.floor(n * f) for n, f in zip(shp[2:], sf)]
        args.append(f"scale_factor={tuple(sf) if dims > 1 else sf[0]}")
        if rng.random() < 0.3:
            args.append("recompute_scale_factor=True")
    args.append(f"mode='{mode}'")
    if mode not in ("nearest", "nearest-exact", "area", "lanczos") and rng.random() < 0.5:
        args.append(f"align_corners={rng.random() < 0.5}")
    if antialias:
        args.append("antialias=True")
    # the signature says: antialiased (,aa), to one column (,w1: upstream's antialiased kernel gets it wrong), and
    # extreme values (,ext: one dim at a time here, every tap in one sum upstream, so inf and nan differ)
    sig = f"{dt},{mode}" + (",aa" if antialias else "") + (",w1" if antialias and size[-1] == 1 else "") + ext
    return Call("F.interpolate", f"{F}.interpolate({', '.join(args)})", sig, accum=True)


FAMILY = [(4, activation), (2, softmax), (4, conv), (4, pool), (3, norm), (3, loss), (2, interpolate)]
