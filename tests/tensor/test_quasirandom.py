"""torch.quasirandom.SobolEngine against SciPy's unscrambled Sobol sequence (the same Joe-Kuo direction numbers,
30 bits), and the properties of scrambled ones (a scrambled Sobol net keeps its balance)."""

import warnings

import numpy as np
import pytest
from scipy.stats import qmc

import torch
from torch.quasirandom import SobolEngine


def _scipy(dimension, n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # SciPy warns when n is not a power of 2
        return qmc.Sobol(dimension, scramble=False, bits=30).random(n)


@pytest.mark.parametrize("dimension", [1, 2, 3, 10, 37, 1111, 21201])
def test_unscrambled_equals_scipy(dimension):
    got = SobolEngine(dimension).draw(129, dtype=torch.float64)
    assert got.shape == (129, dimension) and got.dtype == torch.float64
    np.testing.assert_array_equal(got.numpy(), _scipy(dimension, 129))


def test_first_points_and_default_dtype():
    engine = SobolEngine(5)
    first = engine.draw(3)
    assert first.dtype == torch.get_default_dtype()
    expected = [[0.0] * 5, [0.5] * 5, [0.75, 0.25, 0.25, 0.25, 0.75]]
    np.testing.assert_array_equal(first.numpy(), np.array(expected, dtype=np.float32))
    assert engine.num_generated == 3


def test_consecutive_draws_continue_the_sequence():
    engine = SobolEngine(7)
    parts = [
        engine.draw(1, dtype=torch.float64),
        engine.draw(4, dtype=torch.float64),
        engine.draw(11, dtype=torch.float64),
    ]
    np.testing.assert_array_equal(torch.cat(parts).numpy(), _scipy(7, 16))
    assert engine.num_generated == 16


def test_float32_rounds_the_30_bit_integers():
    got = SobolEngine(20).draw(300, dtype=torch.float32)
    np.testing.assert_array_equal(got.numpy(), _scipy(20, 300).astype(np.float32))


def test_fast_forward_equals_drawing():
    reference = _scipy(6, 40)
    engine = SobolEngine(6).fast_forward(10)
    np.testing.assert_array_equal(engine.draw(5, dtype=torch.float64).numpy(), reference[10:15])
    engine.fast_forward(7)
    assert engine.num_generated == 22
    np.testing.assert_array_equal(engine.draw(3, dtype=torch.float64).numpy(), reference[22:25])
    engine = SobolEngine(6)
    engine.draw(1)
    engine.fast_forward(1)
    np.testing.assert_array_equal(engine.draw(2, dtype=torch.float64).numpy(), reference[2:4])


def test_reset():
    engine = SobolEngine(4, scramble=True, seed=3)
    first = engine.draw(8, dtype=torch.float64)
    engine.draw(5)
    assert engine.reset() is engine and engine.num_generated == 0
    torch.testing.assert_close(engine.draw(8, dtype=torch.float64), first, rtol=0, atol=0)


def test_draw_base2_and_its_balance_check():
    engine = SobolEngine(3)
    np.testing.assert_array_equal(engine.draw_base2(3, dtype=torch.float64).numpy(), _scipy(3, 8))
    engine.draw_base2(3)
    assert engine.num_generated == 16
    engine.draw(1)
    with pytest.raises(ValueError, match="require n to be a power of 2"):
        engine.draw_base2(2)


def test_out_argument():
    out = torch.empty(0)
    result = SobolEngine(3).draw(4, out=out)
    assert result is out and out.shape == (4, 3)
    np.testing.assert_array_equal(out.numpy(), _scipy(3, 4).astype(np.float32))


@pytest.mark.parametrize("m", [4, 7])
def test_scrambled_net_is_balanced(m):
    points = SobolEngine(8, scramble=True, seed=123).draw_base2(m, dtype=torch.float64).numpy()
    assert ((points >= 0) & (points < 1)).all()
    # each coordinate of a scrambled (0, m, 1)-net puts one point in each interval [k / 2^m, (k + 1) / 2^m)
    cells = np.floor(points * 2**m).astype(np.int64)
    for column in cells.T:
        np.testing.assert_array_equal(np.sort(column), np.arange(2**m))
    # and in two dimensions, every 2^a x 2^b box with a + b = m holds one point (dimensions 1 and 2: a (0, m, 2)-net)
    for a in range(m + 1):
        b = m - a
        boxes = np.floor(points[:, 0] * 2**a).astype(np.int64) * 2**b + np.floor(points[:, 1] * 2**b).astype(np.int64)
        assert np.unique(boxes).size == 2**m


def test_scramble_is_seeded_and_changes_the_points():
    a = SobolEngine(5, scramble=True, seed=7).draw(16)
    b = SobolEngine(5, scramble=True, seed=7).draw(16)
    c = SobolEngine(5, scramble=True, seed=8).draw(16)
    torch.testing.assert_close(a, b, rtol=0, atol=0)
    assert not torch.equal(a, c)
    assert not torch.equal(a, SobolEngine(5).draw(16))


def test_scrambled_mean_estimates_an_integral():
    # the mean of prod(x_i) over [0, 1)^4 is 1/16; a scrambled Sobol estimate with 2^12 points is far closer than
    # Monte Carlo's standard error (about 0.002)
    points = SobolEngine(4, scramble=True, seed=0).draw_base2(12, dtype=torch.float64)
    assert abs(points.prod(dim=1).mean().item() - 1 / 16) < 2e-4


def test_errors_and_repr():
    with pytest.raises(ValueError, match=r"Supported range of dimensionality for SobolEngine is \[1, 21201\]"):
        SobolEngine(0)
    with pytest.raises(ValueError, match="Supported range"):
        SobolEngine(21202)
    with pytest.raises(NotImplementedError, match="not implemented for 'Half'"):
        SobolEngine(2).draw(3, dtype=torch.float16)
    with pytest.raises(RuntimeError, match="negative dimension"):
        SobolEngine(2).draw(0)
    assert repr(SobolEngine(3)) == "SobolEngine(dimension=3)"
    assert repr(SobolEngine(3, scramble=True, seed=5)) == "SobolEngine(dimension=3, scramble=True, seed=5)"
    assert SobolEngine.MAXBIT == 30 and SobolEngine.MAXDIM == 21201


def test_fast_forward_far_ahead_is_one_step():
    # a fast-forward computes the state it lands on, not the points it skips (which were 2^26 x 9 int64, 4.8 GB,
    # plus their intermediates: out of memory here)
    n = 2**26 + 3
    engine = SobolEngine(9).fast_forward(n)
    sampler = qmc.Sobol(9, scramble=False, bits=30)
    sampler.fast_forward(n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        expected = sampler.random(5)
    np.testing.assert_array_equal(engine.draw(5, dtype=torch.float64).numpy(), expected)
