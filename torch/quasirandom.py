"""torch.quasirandom: low-discrepancy (Sobol) sequences, as upstream's ``SobolEngine``.

The direction numbers are Joe and Kuo's D(6) set up to dimension 21201 (https://web.maths.unsw.edu.au/~fkuo/sobol/,
the ``new-joe-kuo-6.21201`` file that upstream PyTorch and SciPy also ship), stored in
``torch/_data/sobol_direction_numbers.npz`` (``poly``: the primitive polynomials, ``vinit``: the initial direction
numbers). The state and the draws are computed with int64 tensor ops; a point is its Gray-code index's XOR of the
direction numbers, so that a draw of ``n`` points is 30 vectorized XORs instead of ``n`` sequential steps. Unscrambled
sequences equal upstream's bit for bit; scrambled ones use the same method (Owen's linear matrix scrambling and a
random digital shift) on this library's random stream, so they differ from upstream's for the same seed.
"""

import functools
import os

from torch.autograd.grad_mode import no_grad

__all__ = ["SobolEngine"]

_MAXBIT = 30
_DATA = os.path.join(os.path.dirname(__file__), "_data", "sobol_direction_numbers.npz")


@functools.lru_cache(maxsize=1)
def _direction_numbers():
    """The primitive polynomials (MAXDIM,) and initial direction numbers (MAXDIM, 18), as int64 tensors."""
    import numpy as np

    import torch

    with np.load(_DATA) as data:
        poly = torch.from_numpy(data["poly"].astype(np.int64))
        vinit = torch.from_numpy(data["vinit"].astype(np.int64))
    return poly, vinit


def _initialize_state(dimension):
    """The (dimension, MAXBIT) direction numbers, each scaled to a 30-bit fraction (Bratley and Fox's recursion)."""
    import torch

    poly, vinit = _direction_numbers()
    p = poly[:dimension]
    degree = torch.zeros_like(p)  # bit_length(p) - 1
    for b in range(1, 20):
        degree += (p >> b) > 0
    ncols = vinit.shape[1]
    cols = torch.arange(ncols)
    state = torch.zeros(dimension, _MAXBIT, dtype=torch.long)
    state[:, :ncols] = torch.where(cols < degree[:, None], vinit[:dimension], 0)
    state[0] = 1  # the first dimension is the van der Corput sequence
    for j in range(1, _MAXBIT):
        active = (degree <= j) & (degree > 0)
        if not bool(active.any()):
            continue
        newv = state.gather(1, (j - degree).clamp(min=0)[:, None])[:, 0]
        for k in range(min(j, int(degree.max()))):
            taps = active & (k < degree) & (((p >> (degree - 1 - k).clamp(min=0)) & 1) == 1)
            newv = newv ^ torch.where(taps, state[:, j - k - 1] << (k + 1), 0)
        state[:, j] = torch.where(active, newv, state[:, j])
    return state * (2 ** torch.arange(_MAXBIT - 1, -1, -1))


def _scramble_state(state, ltm):
    """Owen's linear matrix scrambling: bit (MAXBIT-1-p) of each new direction number is the parity of row p of
    that dimension's lower-triangular matrix (unit diagonal) AND the old number's bits."""
    import torch

    ltm = ltm.clone()
    ltm.diagonal(0, -2, -1).fill_(1)
    rows = (ltm * (2 ** torch.arange(_MAXBIT - 1, -1, -1))).sum(-1)  # (dimension, MAXBIT) bit masks
    out = torch.zeros_like(state)
    for p in range(_MAXBIT):
        bits = rows[:, p, None] & state
        for shift in (16, 8, 4, 2, 1):
            bits = bits ^ (bits >> shift)
        out |= (bits & 1) << (_MAXBIT - 1 - p)
    state.copy_(out)


def _combine(state, index):
    """XOR of the direction numbers selected by each index's bits: an (len(index), dimension) int64 tensor.

    The bits are taken k at a time through a table of the 2^k XORs of k direction numbers (built by doubling),
    so that n points cost about 30 / k gathers of (n, dimension) instead of 30 masked XORs; k is chosen so
    that no table is larger than the result."""
    import torch

    n, dimension = index.shape[0], state.shape[0]
    out = torch.zeros(n, dimension, dtype=torch.long)
    if n == 0:
        return out
    nbits = max(int(index.max()).bit_length(), 1)
    k = max(1, min(15, n.bit_length() - 1))
    columns = state.t()  # (MAXBIT, dimension): one row per bit
    for start in range(0, nbits, k):
        width = min(k, nbits - start)
        table = torch.zeros(1, dimension, dtype=torch.long)
        for b in range(width):
            table = torch.cat((table, table ^ columns[start + b]))
        out ^= table.index_select(0, (index >> start) & ((1 << width) - 1))
    return out


def _gray(index):
    return index ^ (index >> 1)


def _advance(quasi, n, state, position, last_only=False):
    """The n points after the one at Gray-code position ``position`` (whose value is ``quasi``), as integers
    (only the last of them with ``last_only``: a fast-forward)."""
    import torch

    index = torch.tensor([position + n]) if last_only else torch.arange(position + 1, position + n + 1)
    return quasi ^ _combine(state, _gray(index) ^ _gray(position))


class SobolEngine:
    r"""An engine for (scrambled) Sobol sequences, low-discrepancy quasi-random points in :math:`[0, 1)^d`.

    Up to 21201 dimensions, with Joe and Kuo's direction numbers (search criterion D(6)).

    Args:
        dimension (int): the dimensionality of the sequence.
        scramble (bool, optional): scramble the sequence (Owen's linear matrix scrambling plus a digital shift).
            Default: ``False``.
        seed (int, optional): the seed of the scrambling's random numbers; ``None`` draws from the global
            generator. Default: ``None``.

    Example::

        >>> engine = torch.quasirandom.SobolEngine(dimension=5)
        >>> engine.draw(3)
        tensor([[0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
                [0.5000, 0.5000, 0.5000, 0.5000, 0.5000],
                [0.7500, 0.2500, 0.2500, 0.2500, 0.7500]])
    """

    MAXBIT = _MAXBIT
    MAXDIM = 21201

    def __init__(self, dimension, scramble=False, seed=None):
        """Build the direction numbers (scrambled if asked) and start at the first point."""
        import torch

        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError(f"Supported range of dimensionality for SobolEngine is [1, {self.MAXDIM}]")
        self.seed = seed
        self.scramble = scramble
        self.dimension = dimension
        with no_grad():
            self.sobolstate = _initialize_state(dimension)
            if not self.scramble:
                self.shift = torch.zeros(self.dimension, dtype=torch.long)
            else:
                self._scramble()
            self.quasi = self.shift.clone(memory_format=torch.contiguous_format)
            self._first_point = (self.quasi / 2**self.MAXBIT).reshape(1, -1)
        self.num_generated = 0

    def _points(self, n, dtype):
        import torch

        if dtype not in (torch.float32, torch.float64):
            raise NotImplementedError(f"\"_sobol_engine_draw\" not implemented for '{_dtype_name(dtype)}'")
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}, {self.dimension}]")
        if n == 0:
            return torch.empty(0, self.dimension, dtype=dtype)
        position = self.num_generated - 1 if self.num_generated else 0
        ints = _advance(self.quasi, n, self.sobolstate, position)
        self.quasi = ints[-1].clone()
        return ints.to(dtype) * (1.0 / 2**self.MAXBIT)

    def draw(self, n=1, out=None, dtype=None):
        r"""Draw the next :attr:`n` points of the sequence, an ``(n, dimension)`` tensor.

        Args:
            n (int, optional): how many points. Default: 1.
            out (Tensor, optional): the output tensor (resized to the result).
            dtype (:class:`torch.dtype`, optional): float32 or float64. Default: the default dtype.
        """
        import torch

        if dtype is None:
            dtype = torch.get_default_dtype()
        with no_grad():
            if self.num_generated == 0:
                if n == 1:
                    result = self._first_point.to(dtype)
                else:
                    rest = self._points(n - 1, dtype)
                    result = torch.cat((self._first_point.to(dtype), rest), dim=-2)
            else:
                result = self._points(n, dtype)
        self.num_generated += n
        if out is not None:
            out.resize_as_(result).copy_(result)
            return out
        return result

    def draw_base2(self, m, out=None, dtype=None):
        r"""Draw the next :math:`2^m` points; the total drawn must stay a power of 2 (the net's balance).

        Args:
            m (int): the base-2 exponent of the number of points.
            out (Tensor, optional): the output tensor.
            dtype (:class:`torch.dtype`, optional): float32 or float64. Default: the default dtype.
        """
        n = 2**m
        total_n = self.num_generated + n
        if not (total_n & (total_n - 1) == 0):
            raise ValueError(
                "The balance properties of Sobol' points require "
                f"n to be a power of 2. {self.num_generated} points have been "
                f"previously generated, then: n={self.num_generated}+2**{m}={total_n}. "
                "If you still want to do this, please use "
                "'SobolEngine.draw()' instead."
            )
        return self.draw(n=n, out=out, dtype=dtype)

    def reset(self):
        r"""Reset the engine to its first point; returns ``self``."""
        self.quasi.copy_(self.shift)
        self.num_generated = 0
        return self

    def fast_forward(self, n):
        r"""Skip the next :attr:`n` points (as if drawn and discarded); returns ``self``.

        Args:
            n (int): the number of points to skip.
        """
        with no_grad():
            skip = n - 1 if self.num_generated == 0 else n
            if skip > 0:
                position = self.num_generated - 1 if self.num_generated else 0
                self.quasi = _advance(self.quasi, skip, self.sobolstate, position, last_only=True)[0]
        self.num_generated += n
        return self

    def _scramble(self):
        import torch

        g = None
        if self.seed is not None:
            g = torch.Generator()
            g.manual_seed(self.seed)
        shift_ints = torch.randint(2, (self.dimension, self.MAXBIT), generator=g)
        self.shift = torch.mv(shift_ints, torch.pow(2, torch.arange(0, self.MAXBIT)))
        ltm = torch.randint(2, (self.dimension, self.MAXBIT, self.MAXBIT), generator=g).tril()
        _scramble_state(self.sobolstate, ltm)

    def __repr__(self):
        fmt_string = [f"dimension={self.dimension}"]
        if self.scramble:
            fmt_string += ["scramble=True"]
        if self.seed is not None:
            fmt_string += [f"seed={self.seed}"]
        return self.__class__.__name__ + "(" + ", ".join(fmt_string) + ")"


def _dtype_name(dtype):
    names = {"float16": "Half", "bfloat16": "BFloat16", "int64": "Long", "int32": "Int", "int16": "Short"}
    short = str(dtype).replace("torch.", "")
    return names.get(short, short.capitalize())
