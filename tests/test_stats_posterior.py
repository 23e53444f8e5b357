"""Posteriors and the exact Bayes test: densities, intervals, quadrature vs references, numerical edges."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from textbcv.stats.bayes import decide, prob_better, prob_better_mc, prob_greater
from textbcv.stats.posterior import BetaPosterior, F1Posterior, posteriors


@pytest.mark.parametrize("tp,fp,fn,c",
                         [(900, 100, 120, 0.3688), (5, 0, 0, 1.0), (0, 7, 3, 1.0), (40000, 3000, 5000, 0.2)])
def test_f1_density_integrates_to_one_and_matches_cdf(tp, fp, fn, c):
    f = posteriors(tp, fp, fn, c)["f1"]
    lo, hi = f.ppf([1e-12, 1 - 1e-12])
    total, _ = integrate.quad(f.pdf, 0, 1, points=[lo, f.mode(), hi], limit=200, epsabs=1e-12)
    assert total == pytest.approx(1.0, abs=1e-8)
    q = f.ppf(0.3)
    part, _ = integrate.quad(f.pdf, 0, q, points=[lo] if lo < q else None, limit=200, epsabs=1e-12)
    assert part == pytest.approx(0.3, abs=1e-8)
    mean, _ = integrate.quad(lambda t: t * f.pdf(t), 0, 1, points=[lo, f.mode(), hi], limit=200)
    assert f.mean() == pytest.approx(mean, abs=1e-8)


@pytest.mark.parametrize("tp,fp,fn", [(900, 100, 120), (60, 30, 45), (3, 1, 2)])
def test_f1_interval_matches_gamma_construction(tp, fp, fn):
    f = posteriors(tp, fp, fn, 0.3688)["f1"]
    rng = np.random.default_rng(7)
    u = rng.standard_gamma(0.3688 * tp + 1, 10**6)
    v = rng.standard_gamma(0.3688 * (fp + fn) + 2, 10**6)
    mc = np.quantile(2 * u / (2 * u + v), [0.025, 0.975])
    assert np.max(np.abs(np.array(f.interval(0.05)) - mc)) < 1e-3


def test_f1_is_not_2pr_over_p_plus_r():
    # METHOD: the product of independent Beta p and r gives a too narrow interval (here 5%)
    post = posteriors(900, 100, 120, 0.3688)
    rng = np.random.default_rng(0)
    p, r = post["precision"].sample(rng, 10**6), post["recall"].sample(rng, 10**6)
    lo, hi = np.quantile(2 * p * r / (p + r), [0.025, 0.975])
    flo, fhi = post["f1"].interval()
    assert 0.9 < (hi - lo) / (fhi - flo) < 0.97


def test_modes_are_pooled_estimates():
    post = posteriors(600, 60, 90, c=0.3688)
    assert post["precision"].mode() == pytest.approx(600 / 660)
    assert post["recall"].mode() == pytest.approx(600 / 690)
    t = np.linspace(0.8, 0.95, 300001)
    assert post["f1"].mode() == pytest.approx(t[np.argmax(post["f1"].pdf(t))], abs=1e-6)


def _quad_reference(x, y, r=0.0):
    # P(X − Y > r) = ∫ P(X > Q_Y(u) + r) du = ∫ P(Y < Q_X(u) − r) du, adaptive quadrature in u over the quantiles
    # of the narrower of the two: over the wider one's, the integrand is a near-step that quadrature misses (off by
    # 1.4e-7 for recall 0/1 against 5932/10, where the closed form equals prob_better to 13 digits)
    pts = [1e-9, 1e-6, 1e-3, 0.5, 1 - 1e-3, 1 - 1e-6, 1 - 1e-9]
    if x.var() <= y.var():
        return integrate.quad(lambda u: float(y.cdf(x.ppf(u) - r)), 0, 1, limit=1000, epsabs=1e-13, points=pts)[0]
    return integrate.quad(lambda u: float(x.sf(y.ppf(u) + r)), 0, 1, limit=1000, epsabs=1e-13, points=pts)[0]


def test_the_reference_quadrature_on_a_closed_form():
    """A ~ Beta(1, β): P(B > A) = 1 − E_B[(1 − x)^β] = 1 − B(α_B, β_B + β)/B(α_B, β_B), in closed form; the case
    where a quadrature over A's quantiles was off by 1.4e-7."""
    from scipy.special import betaln

    a = posteriors(0, 0, 1, 0.3688)["recall"]
    b = posteriors(5932, 0, 10, 0.3688)["recall"]
    exact = 1 - np.exp(betaln(b.alpha, b.beta + a.beta) - betaln(b.alpha, b.beta))
    assert prob_better(a, b)["p_b_better"] == pytest.approx(exact, abs=1e-12)
    assert _quad_reference(b, a) == pytest.approx(exact, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**5), st.integers(0, 10**5), st.integers(0, 10**6),
       st.integers(0, 10**5), st.integers(0, 10**5), st.sampled_from(["precision", "recall", "f1"]))
def test_exact_matches_adaptive_quadrature(tpa, fpa, fna, tpb, fpb, fnb, metric):
    a = posteriors(tpa, fpa, fna, 0.3688)[metric]
    b = posteriors(tpb, fpb, fnb, 0.3688)[metric]
    p = prob_better(a, b)
    assert p["p_b_better"] + p["p_a_better"] == 1.0
    assert p["p_b_better"] == pytest.approx(_quad_reference(b, a), abs=1e-7)
    # swapping the systems swaps the answers
    assert prob_better(b, a)["p_b_better"] == pytest.approx(p["p_a_better"], abs=1e-9)


def test_rope_probabilities():
    a = posteriors(900, 100, 120, 0.3688)["f1"]
    b = posteriors(930, 100, 110, 0.3688)["f1"]
    r = prob_better(a, b, rope=0.01)
    assert r["p_b_better"] == pytest.approx(_quad_reference(b, a, 0.01), abs=1e-8)
    assert r["p_a_better"] == pytest.approx(_quad_reference(a, b, 0.01), abs=1e-8)
    assert r["p_b_better"] + r["p_a_better"] + r["p_equivalent"] == pytest.approx(1.0)
    assert r["p_b_better"] < prob_better(a, b)["p_b_better"]


@pytest.mark.parametrize("metric", ["precision", "recall", "f1"])
def test_exact_and_monte_carlo_agree(metric):
    a = posteriors(2000, 300, 350, 0.3688)[metric]
    b = posteriors(2050, 310, 330, 0.3688)[metric]
    exact = prob_better(a, b)["p_b_better"]
    mc = prob_better_mc(a, b, draws=10**6, seed=3)
    assert abs(mc["p_b_better"] - exact) < 4 * mc["se_b_better"]
    rope = prob_better(a, b, rope=0.005)
    mcr = prob_better_mc(a, b, rope=0.005, draws=10**6, seed=4)
    for k in ("p_b_better", "p_a_better", "p_equivalent"):
        se = np.sqrt(rope[k] * (1 - rope[k]) / 10**6)
        assert abs(mcr[k] - rope[k]) < 4 * se + 1e-12


def test_monte_carlo_is_seeded():
    a, b = BetaPosterior(50, 10), BetaPosterior(55, 10)
    assert prob_better_mc(a, b, draws=1000, seed=5) == prob_better_mc(a, b, draws=1000, seed=5)


@pytest.mark.parametrize("counts", [(0, 10, 10), (10, 0, 0), (0, 0, 0), (10**9, 10**8, 2 * 10**8), (1, 10**9, 10**9)])
def test_numerical_edges(counts):
    post = posteriors(*counts, c=0.3688)
    other = posteriors(*(c + 1 for c in counts), c=0.3688)
    for k in ("precision", "recall", "f1"):
        lo, hi = post[k].interval()
        assert 0 <= lo < hi <= 1
        assert post[k].cdf(lo) == pytest.approx(0.025, abs=1e-9)
        assert prob_better(post[k], post[k]) == {"p_b_better": 0.5, "p_a_better": 0.5}
        p = prob_better(post[k], other[k])["p_b_better"]
        assert 0 <= p <= 1 and np.isfinite(p)
        assert p == pytest.approx(_quad_reference(other[k], post[k]), abs=1e-6)


def test_identical_systems_give_exactly_half_even_with_rope():
    a = posteriors(123, 45, 67, 0.3688)["f1"]
    r = prob_better(a, a, rope=0.01)
    assert r["p_b_better"] == r["p_a_better"]


def test_large_counts_close_to_normal_approximation():
    a, b = BetaPosterior(10**9 * 0.9 + 1, 10**9 * 0.1 + 1), BetaPosterior(10**9 * 0.90001 + 1, 10**9 * 0.09999 + 1)
    ma, mb = a.alpha / (a.alpha + a.beta), b.alpha / (b.alpha + b.beta)
    sd = np.sqrt(ma * (1 - ma) / (a.alpha + a.beta) + mb * (1 - mb) / (b.alpha + b.beta))
    assert prob_greater(b, a) == pytest.approx(stats.norm.cdf((mb - ma) / sd), abs=1e-4)


def test_decide():
    # the default: a side is called better only at P(better) >= 0.95
    assert decide(0.7, 0.3) == "no clear difference"
    assert decide(0.95, 0.05) == "B better" and decide(0.05, 0.95) == "A better"
    assert decide(0.9, 0.1, threshold=0.95) == "no clear difference"
    assert decide(0.96, 0.04, threshold=0.95) == "B better"
    # threshold 0.5 is the thesis's larger-probability rule; a tie at ½ decides nothing
    assert decide(0.7, 0.3, threshold=0.5) == "B better"
    assert decide(0.3, 0.7, threshold=0.5) == "A better"
    assert decide(0.5, 0.5, threshold=0.5) == "no clear difference"
    # with a rope the two sides need not add up to 1: neither reaching the threshold decides nothing
    assert decide(0.3, 0.2, threshold=0.5) == "no clear difference"
    assert decide(None, None) == "no clear difference"
    with pytest.raises(ValueError, match=r"\[0.5, 1\)"):
        decide(0.7, 0.3, threshold=0.4)


def test_prior_below_one_rejected():
    with pytest.raises(ValueError):
        posteriors(1, 1, 1, prior=0.5)
    with pytest.raises(ValueError):
        F1Posterior(0.5, 2)


def test_no_numpy_warning_reaches_the_user_at_the_edges_of_the_latent_density():
    import warnings

    from textbcv.stats.posterior import _log_density_rel

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a RuntimeWarning leaked from here to users (issue 30)
        v = _log_density_rel(np.array([0.0, 0.5, 1.0]), 3.0, 2.0, 1e-9, 1 - 1e-9)
    assert np.isneginf(v[0]) and np.isneginf(v[2]) and np.isfinite(v[1])
