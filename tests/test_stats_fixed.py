"""The fixed-split posterior (textbcv.stats.paired.fixed): hand-derived parts, symmetry, and calls on null pairs."""

import numpy as np
import pytest
from scipy import stats as sst

from textbcv.stats.metrics import linear_weights, ratios
from textbcv.stats.paired import FIXED, PairedDifference, fixed_difference, fixed_score


def _system(rng, gold, hard, K, shift=0.0, seed_sd=0.04):
    out = []
    for _ in range(K):
        p = np.clip(0.85 - 0.1 * hard + rng.normal(0, seed_sd) + shift + rng.normal(0, 0.03, len(gold)), 0.01, 0.99)
        tp = rng.binomial(gold, p)
        fn = gold - tp
        out.append(np.stack([tp, rng.binomial(fn + 1, 0.5), fn], axis=1))
    return np.stack(out)


def _test_set(rng, docs=80):
    g = np.repeat(np.arange(docs), rng.integers(5, 25, docs))
    hard = rng.gamma(2, 0.5, docs)[g] * rng.gamma(2, 0.5, len(g))
    return g, rng.poisson(2, len(g)) + 1, hard


def test_one_seed_each_of_deterministic_trainers_is_the_hand_cluster_variance():
    rng = np.random.default_rng(0)
    g, gold, hard = _test_set(rng)
    a, b = _system(rng, gold, hard, 1), _system(rng, gold, hard, 1)
    p = fixed_difference(a, b, g, deterministic=True)
    wa, wb = linear_weights("f1", a[0].sum(0)), linear_weights("f1", b[0].sum(0))
    z = np.array([b[0][g == c].sum(0) @ wb - a[0][g == c].sum(0) @ wa for c in np.unique(g)])
    k = len(z)
    assert p.var_test == pytest.approx(k / (k - 1) * np.sum(z ** 2), rel=1e-9)
    assert p.estimate == pytest.approx(ratios(b[0].sum(0))["f1"] - ratios(a[0].sum(0))["f1"])
    assert (p.var_seed, p.seeds, p.df, p.design) == (0.0, (1, 1), k - 1.0, FIXED)


def test_one_seed_of_a_stochastic_trainer_leaves_the_seeds_unmeasured():
    rng = np.random.default_rng(1)
    g, gold, hard = _test_set(rng)
    p = fixed_difference(_system(rng, gold, hard, 1), _system(rng, gold, hard, 3), g)
    assert p.seeds is None and p.var_seed is None


def test_the_seeds_part_is_each_systems_spread_of_its_linearised_seed_totals():
    rng = np.random.default_rng(2)
    g, gold, hard = _test_set(rng)
    a, b = _system(rng, gold, hard, 4), _system(rng, gold, hard, 3)
    p = fixed_difference(a, b, g)
    hand = sum(len(x) * np.var(x.sum(1) @ linear_weights("f1", x.sum((0, 1))), ddof=1) for x in (a, b))
    assert p.var_seed == pytest.approx(hand, rel=1e-9)
    assert p.seeds == (4, 3) and p.var_model == 0.0 and not p.floored
    assert p.var_test >= 0 and np.isfinite(p.df) and p.df < p.clusters  # the seeds hold the sentences' noise here


def test_swapping_the_systems_negates_the_difference_and_keeps_its_variance():
    rng = np.random.default_rng(3)
    g, gold, hard = _test_set(rng)
    a, b = _system(rng, gold, hard, 3), _system(rng, gold, hard, 5, shift=0.01)
    p, q = fixed_difference(a, b, g), fixed_difference(b, a, g)
    assert q.estimate == pytest.approx(-p.estimate)
    assert (q.var_test, q.var_seed, q.df) == pytest.approx((p.var_test, p.var_seed, p.df))
    assert q.prob_better()["p_b_better"] == pytest.approx(p.prob_better()["p_a_better"])
    assert PairedDifference.from_dict(p.to_dict()) == p and p.to_dict()["design"] == FIXED
    with pytest.raises(ValueError, match="no splits"):
        p.at_m(3)


def test_other_gold_is_refused():
    rng = np.random.default_rng(4)
    g, gold, hard = _test_set(rng)
    a = _system(rng, gold, hard, 2)
    with pytest.raises(ValueError, match="gold"):
        fixed_difference(a, _system(rng, gold + 1, hard, 2), g)


@pytest.mark.parametrize("K", [2, 5])
def test_null_pairs_are_called_at_most_at_the_rule_rate_each_way(K):
    """A system against itself with other seeds: P(better) ≥ 0.95 about 5% of the time each way, no more."""
    rng = np.random.default_rng(10 + K)
    R, calls, covered = 300, [0, 0], 0
    for _ in range(R):
        g, gold, hard = _test_set(rng, docs=60)
        p = fixed_difference(_system(rng, gold, hard, K), _system(rng, gold, hard, K), g)
        pb = p.prob_better()["p_b_better"]
        calls[0] += pb >= 0.95
        calls[1] += pb <= 0.05
        lo, hi = p.interval(0.1)
        covered += lo <= 0 <= hi
    upper = sst.binom.ppf(0.999, R, 0.05) / R  # a rate above 5% by more than chance
    assert max(calls) / R <= upper, calls
    assert covered / R >= 0.85


def test_a_systems_score_has_both_parts():
    rng = np.random.default_rng(5)
    g, gold, hard = _test_set(rng)
    x = _system(rng, gold, hard, 5)
    s = fixed_score(x, g)
    one = fixed_score(x[:1], g)
    assert s.seeds == 5 and s.var_seed > 0 and s.var_test > 0 and one.var_seed == 0.0
    assert s.var_seed == pytest.approx(5 * np.var(x.sum(1) @ linear_weights("f1", x.sum((0, 1))), ddof=1))
    lo, hi = s.interval(0.05)
    assert lo < s.estimate < hi
