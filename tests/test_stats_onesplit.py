"""textbcv.stats.onesplit against independent references written here.

* the paired bootstrap against a plain loop that draws the resamples as sacrebleu does
  (``rng.choice(n, size=(R, n), replace=True)``), sums the counts sentence by sentence and applies
  sacrebleu's p-value (ties counted): the same draws, so the same p-value, difference and interval;
* approximate randomization against the exact permutation p-value (all 2^k swaps enumerated) and
  against a plain loop flipping one coin per sentence with Python's own generator: agreement within
  Monte Carlo error;
* invariants (hypothesis): exchanging A and B changes the sign of ΔF1 and no p-value; identical
  systems get ΔF1 = 0 and p = 1; p lies in [1/(R+1), 1];
* the same seed gives the same result, whatever the chunk size; bad input is refused by name.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.stats import onesplit
from textbcv.stats.onesplit import approximate_randomization, one_split_tests, paired_bootstrap


def _f1(tp: int, fp: int, fn: int) -> float:
    den = 2 * tp + fp + fn
    return 2 * tp / den if den else 0.0


def _total(rows, idx=None) -> list[int]:
    t = [0, 0, 0]
    for i in (range(len(rows)) if idx is None else idx):
        for j in range(3):
            t[j] += int(rows[i][j])
    return t


def _delta(a, b, idx=None) -> float:
    return _f1(*_total(b, idx)) - _f1(*_total(a, idx))


def ref_bootstrap(a, b, resamples: int, seed: int, alpha: float = 0.05):
    """sacrebleu's _paired_bs_test, written out: the same index draws, loops instead of arrays."""
    rng = np.random.default_rng(seed)
    idxs = rng.choice(len(a), size=(resamples, len(a)), replace=True)
    deltas = [_delta(a, b, row.tolist()) for row in idxs]
    observed = abs(_delta(a, b))
    d = np.abs(np.array(deltas))
    shifted = d - d.mean()
    c = sum(1 for x in shifted if x >= observed)
    lo, hi = np.quantile(deltas, [alpha / 2, 1 - alpha / 2])
    return _delta(a, b), (c + 1) / (resamples + 1), (lo, hi)


def ref_exact_randomization(a, b) -> float:
    """The exact permutation p-value: every swap pattern of the sentences whose counts differ."""
    moved = [i for i in range(len(a)) if list(a[i]) != list(b[i])]
    observed = abs(_delta(a, b))
    hits = 0
    for pattern in itertools.product((0, 1), repeat=len(moved)):
        aa, bb = [list(r) for r in a], [list(r) for r in b]
        for i, swap in zip(moved, pattern):
            if swap:
                aa[i], bb[i] = bb[i], aa[i]
        hits += abs(_delta(aa, bb)) >= observed
    return hits / 2 ** len(moved)


def ref_randomization_loop(a, b, shuffles: int, seed: int) -> float:
    """A plain AR loop: one coin per sentence from Python's Mersenne Twister, (c + 1) / (R + 1)."""
    rnd = random.Random(seed)
    observed = abs(_delta(a, b))
    c = 0
    for _ in range(shuffles):
        ta, tb = [0, 0, 0], [0, 0, 0]
        for ra, rb in zip(a, b):
            if rnd.random() < 0.5:
                ra, rb = rb, ra
            for j in range(3):
                ta[j] += int(ra[j])
                tb[j] += int(rb[j])
        c += abs(_f1(*tb) - _f1(*ta)) >= observed
    return (c + 1) / (shuffles + 1)


def _pair(n: int, changed: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two systems' per-sentence (tp, fp, fn) on the same gold: B differs from A on a share of sentences."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 4, size=n)

    def system(rows):
        tp = np.minimum(gold[rows], rng.integers(0, 4, size=len(rows)))
        return np.stack([tp, rng.integers(0, 3, size=len(rows)), gold[rows] - tp], axis=1)

    a = system(np.arange(n))
    b = a.copy()
    ch = np.flatnonzero(rng.random(n) < changed)
    b[ch] = system(ch)
    return a, b


def _mc_tolerance(p: float, *shuffles: int) -> float:
    p = min(max(p, 0.01), 0.99)
    return 4.5 * math.sqrt(p * (1 - p) * sum(1 / r for r in shuffles)) + 2 / min(shuffles)


# ----------------------------------------------------------------------------- bootstrap: same draws as sacrebleu


@pytest.mark.parametrize("n,changed,seed", [(40, 0.5, 1), (120, 0.3, 2), (300, 0.15, 3), (7, 1.0, 4)])
def test_bootstrap_equals_the_sacrebleu_loop(n, changed, seed):
    a, b = _pair(n, changed, seed)
    delta, p, (lo, hi) = ref_bootstrap(a.tolist(), b.tolist(), 400, seed=seed + 10)
    r = paired_bootstrap(a, b, resamples=400, seed=seed + 10)
    assert r.delta == delta
    assert r.p_value == p
    assert r.ci == pytest.approx((lo, hi), abs=1e-12)
    assert (r.resamples, r.seed, r.level) == (400, seed + 10, 0.95)


def test_bootstrap_p_reacts_to_the_size_of_the_difference():
    a, b = _pair(400, 0.3, 5)
    better = a.copy()
    better[:, 0] += better[:, 2]  # B finds every gold chunk A missed
    better[:, 2] = 0
    assert paired_bootstrap(a, better).p_value == 1 / 1001
    assert paired_bootstrap(a, b).p_value > 0.05


# ----------------------------------------------------------------------------- randomization: exact and plain loop


@pytest.mark.parametrize("seed", range(6))
def test_randomization_matches_the_exact_permutation_p(seed):
    a, b = _pair(24, 0.45, 100 + seed)
    moved = int((a != b).any(axis=1).sum())
    assert 3 <= moved <= 16, moved
    exact = ref_exact_randomization(a.tolist(), b.tolist())
    r = approximate_randomization(a, b, shuffles=20000, seed=seed)
    expected = (20000 * exact + 1) / 20001
    assert abs(r.p_value - expected) <= _mc_tolerance(exact, 20000), (r.p_value, exact)


def test_randomization_agrees_with_a_plain_loop():
    a, b = _pair(60, 0.4, 7)
    ref = ref_randomization_loop(a.tolist(), b.tolist(), 3000, seed=1)
    ours = approximate_randomization(a, b, shuffles=10000, seed=1).p_value
    assert 0.02 < ref < 0.98  # an informative case, not a p-value pinned at an end
    assert abs(ours - ref) <= _mc_tolerance(ref, 3000, 10000), (ours, ref)


# ----------------------------------------------------------------------------- invariants

_rows = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
                           st.integers(0, 3)), min_size=1, max_size=40)


def _systems(rows):
    """(a, b) sharing per-sentence gold from (gold, tp_a, fp_a, tp_b, fp_b) draws."""
    a = [(min(t1, g), f1, g - min(t1, g)) for g, t1, f1, _, _ in rows]
    b = [(min(t2, g), f2, g - min(t2, g)) for g, _, _, t2, f2 in rows]
    return np.array(a), np.array(b)


@settings(max_examples=40, deadline=None)
@given(_rows, st.integers(0, 2**32 - 1))
def test_exchanging_a_and_b_changes_only_the_sign(rows, seed):
    a, b = _systems(rows)
    ab, ba = one_split_tests(a, b, resamples=200, shuffles=500, seed=seed), \
        one_split_tests(b, a, resamples=200, shuffles=500, seed=seed)
    assert ba.delta == -ab.delta and (ba.f1_a, ba.f1_b) == (ab.f1_b, ab.f1_a)
    assert ba.bootstrap.p_value == ab.bootstrap.p_value
    assert ba.randomization.p_value == ab.randomization.p_value
    assert ba.bootstrap.ci == pytest.approx((-ab.bootstrap.ci[1], -ab.bootstrap.ci[0]), abs=1e-12)
    for r in (ab.bootstrap, ab.randomization):
        assert 1 / 501 - 1e-15 <= r.p_value <= 1


@settings(max_examples=30, deadline=None)
@given(_rows, st.integers(0, 2**32 - 1))
def test_identical_systems_differ_by_zero_with_p_one(rows, seed):
    a, _ = _systems(rows)
    r = one_split_tests(a, a.copy(), resamples=100, shuffles=300, seed=seed)
    assert r.delta == 0.0 and r.f1_a == r.f1_b
    assert r.randomization.p_value == 1.0
    assert r.bootstrap.p_value == 1.0
    assert r.bootstrap.ci == (0.0, 0.0)


def test_f1_is_tallys():
    from textbcv.scoring import Tally

    a, b = _pair(50, 0.5, 9)
    r = one_split_tests(a, b, resamples=10, shuffles=10)
    assert r.f1_a == Tally(*_total(a.tolist())).f1 and r.f1_b == Tally(*_total(b.tolist())).f1
    assert r.sentences == 50


# ----------------------------------------------------------------------------- reproducibility


def test_same_seed_same_result_whatever_the_chunks(monkeypatch):
    a, b = _pair(500, 0.3, 11)
    first = one_split_tests(a, b, seed=4).to_dict()
    assert one_split_tests(a.tolist(), b.tolist(), seed=4).to_dict() == first
    monkeypatch.setattr(onesplit, "_CELLS", 997)  # chunks of one or two resamples / shuffles
    assert one_split_tests(a, b, seed=4).to_dict() == first
    assert one_split_tests(a, b, seed=5).to_dict() != first


def test_popcount_without_numpy_2():
    words = np.random.default_rng(0).integers(0, 2**63, size=(7, 5), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    expected = [[int(w).bit_count() for w in row] for row in words]
    assert onesplit._popcount_bytes(words).tolist() == expected == onesplit._popcount(words).tolist()


def test_to_dict_is_json_ready():
    import json

    a, b = _pair(30, 0.5, 12)
    d = one_split_tests(a, b, resamples=50, shuffles=50, seed=1).to_dict()
    assert json.loads(json.dumps(d)) == d
    assert set(d) == {"sentences", "f1_a", "f1_b", "delta_f1", "bootstrap", "randomization"}


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("a,b,message", [
    ([[1, 0, 0]], [[1, 0, 0], [0, 0, 0]], "a has 1 sentences and b 2"),
    ([[1, 0, 0]], [[0, 0, 0]], "sentence 0: a has 1 gold chunks (tp + fn) and b 0"),
    ([[1, -1, 0]], [[1, 0, 0]], "a[0, 1] is -1"),
    ([[1, 0.5, 0]], [[1, 0, 0]], "a[0, 1] is 0.5"),
    ([[1, 0]], [[1, 0]], "must have shape (n, 3)"),
    (np.zeros((0, 3)), np.zeros((0, 3)), "no sentences"),
    ("abc", [[1, 0, 0]], "got a string"),
])
def test_bad_counts_are_refused(a, b, message):
    with pytest.raises(ValueError) as e:
        one_split_tests(a, b)
    assert message in str(e.value)


@pytest.mark.parametrize("kw,message", [
    ({"seed": -1}, "seed must be a non-negative integer"),
    ({"seed": 1.5}, "seed must be a non-negative integer"),
    ({"resamples": 0}, "resamples must be a positive integer"),
    ({"shuffles": True}, "shuffles must be a positive integer"),
    ({"alpha": 1.0}, "alpha must lie strictly between 0 and 1"),
])
def test_bad_settings_are_refused(kw, message):
    with pytest.raises(ValueError, match=message):
        one_split_tests([[1, 0, 0]], [[1, 0, 0]], **kw)
