"""The almost-stochastic-order test (textbcv.stats.aso) against hand-derived values and its invariants.

References computed here without the module: the continuous violation ratio of two-point distributions
(ε_W2 = ∫ over the violation set of (G⁻¹ − F⁻¹)² / W2²), and deep-significance's conventions (identical
lists give 0.5; a dominating A gives 0; ε_min ≥ ε_W2 at confidence > ½; Bonferroni raises the bound).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from textbcv.stats.aso import ASO_THRESHOLD, almost_stochastic_order, aso_call, violation_ratio

SCORES = st.lists(st.floats(0.5, 0.99, allow_nan=False), min_size=2, max_size=12)


def test_identical_lists_have_no_order():
    x = [0.81, 0.83, 0.80, 0.86, 0.84, 0.82]
    r = almost_stochastic_order(x, list(x), seed=3)
    assert r.violation_ratio == 0.5  # deep-significance's value when the W2 distance is 0
    assert r.eps_min >= 0.5 > 0 and r.eps_min >= ASO_THRESHOLD  # never a call


def test_a_dominating_system_has_eps_min_zero():
    a = [0.90, 0.91, 0.93, 0.92, 0.95, 0.94]
    b = [0.80, 0.82, 0.81, 0.85, 0.84, 0.83]
    r = almost_stochastic_order(a, b)
    assert (r.violation_ratio, r.sd, r.eps_min) == (0.0, 0.0, 0.0)  # every bootstrap draw is ordered too
    other = almost_stochastic_order(b, a)
    assert other.violation_ratio == pytest.approx(1 - 1 / 199)  # the grid's first point left out, as deep-significance
    assert other.violation_ratio <= other.eps_min < 1


@pytest.mark.parametrize(("a", "b", "want"), [
    ([1.0, 3.0], [2.0, 2.0], 0.5),    # |diff| = 1 on both halves, violated on the lower one
    ([0.0, 4.0], [1.0, 1.0], 0.1),    # violated: 1² on the lower half; W2² = (1 + 9) / 2
    ([0.0, 4.0], [3.0, 3.0], 0.9),    # violated: 3² on the lower half; W2² = (9 + 1) / 2
])
def test_violation_ratio_equals_the_continuous_integral(a, b, want):
    assert violation_ratio(a, b) == pytest.approx(want, abs=0.01)  # the grid step is 0.005


def test_eps_min_is_the_ratio_plus_z_times_the_bootstrap_sd():
    a = [0.84, 0.80, 0.86, 0.83, 0.81, 0.85]
    b = [0.82, 0.83, 0.80, 0.84, 0.79, 0.81]
    r = almost_stochastic_order(a, b, confidence=0.95, seed=7)
    assert 0 < r.sd and r.violation_ratio < r.eps_min < 1
    assert r.eps_min == pytest.approx(r.violation_ratio + norm.ppf(0.95) * r.sd)
    two = almost_stochastic_order(a, b, confidence=0.95, comparisons=2, seed=7)
    assert two.confidence == pytest.approx(0.975) and two.eps_min == pytest.approx(r.violation_ratio
                                                                                    + norm.ppf(0.975) * r.sd)


def test_the_same_seed_gives_the_same_bound_and_another_seed_another():
    a, b = [0.84, 0.80, 0.86, 0.83], [0.82, 0.83, 0.80, 0.84]
    assert almost_stochastic_order(a, b, seed=1) == almost_stochastic_order(a, b, seed=1)
    assert almost_stochastic_order(a, b, seed=1).sd != almost_stochastic_order(a, b, seed=2).sd


@settings(max_examples=60, deadline=None)
@given(SCORES, SCORES, st.floats(-0.3, 0.3), st.floats(0.2, 5.0))
def test_the_ratio_ignores_a_common_shift_and_scale(a, b, shift, scale):
    got = violation_ratio(a, b)
    moved = violation_ratio(np.asarray(a) * scale + shift, np.asarray(b) * scale + shift)
    assert moved == pytest.approx(got, abs=1e-9) or {got, moved} <= {0.5} | {got}


@settings(max_examples=60, deadline=None)
@given(SCORES, SCORES)
def test_the_two_directions_split_the_distance(a, b):
    """With a common lowest score (the grid's first point, left out, then adds nothing) ε(A, B) + ε(B, A) = 1."""
    a, b = [0.4, *a], [0.4, *b]
    ab, ba = violation_ratio(a, b), violation_ratio(b, a)
    assert 0 <= ab <= 1 and 0 <= ba <= 1
    assert ab + ba == pytest.approx(1, abs=1e-9)


def test_the_call_of_a_pair():
    low, high = [0.80, 0.82, 0.81, 0.83], [0.90, 0.92, 0.91, 0.93]
    assert aso_call(low, high)[2] == "B" and aso_call(high, low)[2] == "A"
    b_over_a, a_over_b, ahead = aso_call(low, list(low))
    assert ahead is None and b_over_a.eps_min >= 0.5 and a_over_b.eps_min >= 0.5
    assert aso_call(low, high, threshold=0.0)[2] is None  # ε_min is never below 0


def test_bad_scores_are_refused():
    with pytest.raises(ValueError, match="non-empty"):
        almost_stochastic_order([], [0.5])
    with pytest.raises(ValueError, match="confidence"):
        almost_stochastic_order([0.5], [0.5], confidence=1)
