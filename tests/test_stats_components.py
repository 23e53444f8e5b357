"""Variance components of the m×2 estimate: hand-checked values, recovery of known σ², ω, γ, invariants."""

from __future__ import annotations

import json
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from textbcv.stats import VarianceComponents, fold_covariance, variance_components
from textbcv.stats.components import QUANTITIES

# R = 3 runs of m = 2 splits, worked out by hand below
TINY = np.array([[[1, 2], [3, 4]],
                 [[2, 2], [2, 2]],
                 [[3, 0], [1, 0]]], dtype=float)


def test_tiny_array_by_hand():
    # columns (folds) over runs: means 2, 4/3, 2, 2; sample covariances (ddof = 1):
    # var = 1, 4/3, 1, 4 -> σ² = 11/6; within pairs cov(0,1) = -1, cov(2,3) = 2 -> ω = 1/2;
    # across pairs cov(0,2) = -1, cov(0,3) = -2, cov(1,2) = 1, cov(1,3) = 2 -> γ = 0.
    # run means 5/2, 2, 1 -> var_mx2 = 7/12 = (σ² + ω + 2γ)/4.
    # per-run estimators (run 0 | run 1 | run 2):
    #   S²/4                  5/12 | 0 | 1/2   -> mean 11/36
    #   var(pair means)/2     1    | 0 | 1/4   -> mean 5/12
    #   mean s_j² / 4         1/8  | 0 | 5/8   -> mean 1/4
    #   (5/3) · var_ddof0     25/12| 0 | 5/2   -> mean 55/36
    # 3 runs: some bootstrap resamples repeat one run; their undefined ratios are left out of the intervals
    vc = variance_components(TINY, n_resamples=200, seed=0)
    var = F(7, 12)
    expected = {
        "mean": F(11, 6), "sigma2": F(11, 6), "omega": F(1, 2), "gamma": F(0), "rho1": F(3, 11), "rho2": F(0),
        "var_mx2": var, "count_factor": F(11, 14), "lambda_independent": F(11, 36) / var,
        "lambda_pairs": F(5, 12) / var, "lambda_5x2cv": F(1, 4) / var, "lambda_corrected": F(55, 36) / var,
    }
    for q, v in expected.items():
        assert getattr(vc, q).value == pytest.approx(float(v), abs=1e-12), q
    assert (vc.R, vc.m) == (3, 2)
    assert float(expected["lambda_independent"]) == pytest.approx(11 / 21)
    assert float(expected["lambda_corrected"]) == pytest.approx(55 / 21)


@pytest.mark.parametrize("m,sigma2,omega,gamma", [
    (3, 1.0, 0.1, 0.3),     # the thesis's picture: small ρ1, larger ρ2
    (3, 2e-3, -4e-4, 6e-4),  # F1-sized variances, negative ρ1 (as the seed reports for naive Bayes)
    (7, 1.0, 0.3, 0.1),
])
def test_known_components_recovered_within_intervals(m, sigma2, omega, gamma):
    """Draws from a multivariate normal with the Lemma 1 covariance: intervals cover the truth ~95% of the time."""
    truth = {"sigma2": sigma2, "omega": omega, "gamma": gamma, "rho1": omega / sigma2, "rho2": gamma / sigma2,
             "var_mx2": (sigma2 + omega + (2 * m - 2) * gamma) / (2 * m),
             "count_factor": sigma2 / (sigma2 + omega + (2 * m - 2) * gamma)}
    cov = fold_covariance(m, sigma2, omega, gamma)
    S, R = 30, 200
    hits = {q: 0 for q in truth}
    est = {q: [] for q in truth}
    for s in range(S):
        x = np.random.default_rng([19, m, s]).multivariate_normal(np.full(2 * m, 0.7), cov, size=R)
        vc = variance_components(x.reshape(R, m, 2), n_resamples=300, seed=s)
        for q, t in truth.items():
            e = getattr(vc, q)
            hits[q] += t in e
            est[q].append(e.value)
    for q, t in truth.items():
        # 95% intervals: fewer than 25 of 30 covering has probability < 0.002
        assert hits[q] >= 25, (q, hits[q])
        # and the estimators are unbiased (or nearly, for the ratios): mean within 4 standard errors
        v = np.array(est[q])
        assert abs(v.mean() - t) <= 4 * v.std(ddof=1) / np.sqrt(S) + 1e-12, (q, v.mean(), t)


def test_lambda_ratios_match_their_expectations_on_normal_draws():
    """E[V̂]/Var from the moments of the Lemma 1 covariance, against the measured λ (large R)."""
    m, s2, w, g = 3, 1.0, 0.1, 0.3
    R = 20000
    x = np.random.default_rng(5).multivariate_normal(np.zeros(2 * m), fold_covariance(m, s2, w, g), size=R)
    vc = variance_components(x.reshape(R, m, 2), n_resamples=100, seed=0, method="percentile")
    var = (s2 + w + (2 * m - 2) * g) / (2 * m)
    e_s2 = s2 - (w + (2 * m - 2) * g) / (2 * m - 1)       # E[S²] of exchangeable-within-blocks values
    e_pairs = ((s2 + w) / 2 - g) / m                      # E[var of pair means] / m
    e_5x2 = (s2 - w) / (2 * m)                            # E[(x1 − x2)²/2] / 2m
    e_corr = (2 * m + 1) / (2 * m - 1) * (2 * m - 1) / (2 * m) * e_s2
    for q, e in (("lambda_independent", e_s2 / (2 * m)), ("lambda_pairs", e_pairs), ("lambda_5x2cv", e_5x2),
                 ("lambda_corrected", e_corr)):
        assert getattr(vc, q).value == pytest.approx(e / var, rel=0.05), q


def test_same_seed_same_intervals_and_json():
    x = np.random.default_rng(0).normal(size=(50, 3, 2))
    a = variance_components(x, n_resamples=200, seed=3)
    b = variance_components(x, n_resamples=200, seed=3)
    assert a == b
    c = variance_components(x, n_resamples=200, seed=4)
    assert c.rho1.value == a.rho1.value and c.rho1.low != a.rho1.low
    d = json.loads(json.dumps(a.to_dict()))
    assert set(QUANTITIES) <= set(d) and d["m"] == 3 and d["R"] == 50
    assert isinstance(a, VarianceComponents)


@pytest.mark.parametrize("bad,msg", [
    (np.zeros((5, 3)), "shape"), (np.zeros((5, 3, 3)), "shape"), (np.ones((5, 1, 2)), "m >= 2"),
    (np.ones((2, 3, 2)), "R >= 3"), (np.full((5, 3, 2), np.nan), "finite"), (np.ones((5, 3, 2)), "do not vary"),
])
def test_bad_input(bad, msg):
    with pytest.raises(ValueError, match=msg):
        variance_components(bad, n_resamples=10)


finite = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)


@settings(max_examples=25, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(4, 9), st.integers(2, 4), st.just(2)), elements=finite),
       st.floats(-5, 5), st.floats(0.1, 10), st.randoms(use_true_random=False))
def test_invariants(x, shift, scale, rnd):
    x = x + np.random.default_rng(0).normal(scale=1e-3, size=x.shape)  # never constant
    vc = variance_components(x, n_resamples=20, seed=1, method="percentile")
    R, m, _ = x.shape
    means = x.reshape(R, -1).mean(axis=1)
    # Var of the m×2 estimate: the sample variance of the run means, and Lemma 1's sum
    assert vc.var_mx2.value == pytest.approx(np.var(means, ddof=1), rel=1e-9, abs=1e-15)
    assert vc.var_mx2.value == pytest.approx(
        (vc.sigma2.value + vc.omega.value + (2 * m - 2) * vc.gamma.value) / (2 * m), rel=1e-9, abs=1e-15)
    assert vc.count_factor.value == pytest.approx(1 / (1 + vc.rho1.value + (2 * m - 2) * vc.rho2.value), rel=1e-9)
    # location and scale: variances scale by a², correlations and λ do not move
    vt = variance_components(scale * x + shift, n_resamples=20, seed=1, method="percentile")
    for q in QUANTITIES:
        a, b = getattr(vc, q).value, getattr(vt, q).value
        if q == "mean":
            assert b == pytest.approx(scale * a + shift, rel=1e-9, abs=1e-9)
        elif q in ("sigma2", "omega", "gamma", "var_mx2"):
            assert b == pytest.approx(scale ** 2 * a, rel=1e-7, abs=1e-12)
        else:
            assert b == pytest.approx(a, rel=1e-7, abs=1e-9)
    # relabelling: splits in any order, folds of a pair swapped, give the same figures
    order = list(range(m))
    rnd.shuffle(order)
    y = x[:, order, :]
    flip = [rnd.random() < 0.5 for _ in range(m)]
    y = np.stack([y[:, j, ::-1] if f else y[:, j, :] for j, f in enumerate(flip)], axis=1)
    vp = variance_components(y, n_resamples=20, seed=1, method="percentile")
    for q in QUANTITIES:
        assert getattr(vp, q).value == pytest.approx(getattr(vc, q).value, rel=1e-7, abs=1e-12)
        assert getattr(vp, q).low == pytest.approx(getattr(vc, q).low, rel=1e-6, abs=1e-12)


def test_undefined_intervals_fall_back_to_the_percentiles_of_the_defined_resamples():
    # with R = 3 runs, resamples that repeat one run make ρ1 = ω/σ² a 0/0; the interval is then the
    # percentile interval of the resamples where ρ1 is defined, and the quantity is named
    x = np.random.default_rng(0).multivariate_normal(np.zeros(6), fold_covariance(3, 1.0, 0.1, 0.3),
                                                     size=3).reshape(3, 3, 2)
    vc = variance_components(x, n_resamples=400, seed=5)
    assert set(vc.percentile_fallback) == {"rho1", "rho2", "count_factor"}
    assert vc.to_dict()["percentile_fallback"] == list(vc.percentile_fallback)
    # the same resamples by hand: 400 draws of 3 runs with the generator scipy uses
    flat = x.reshape(3, 6)
    idx = np.random.default_rng(5).integers(0, 3, size=(400, 3))
    from textbcv.stats.components import _statistics
    with np.errstate(divide="ignore", invalid="ignore"):
        rho1 = np.array([_statistics(flat[i], 3)[QUANTITIES.index("rho1")] for i in idx])
    rho1 = rho1[np.isfinite(rho1)]
    assert len(rho1) < 400  # some were undefined
    lo, hi = np.percentile(rho1, [2.5, 97.5])
    assert (vc.rho1.low, vc.rho1.high) == pytest.approx((lo, hi))
    # enough runs: no fallback
    y = np.random.default_rng(1).multivariate_normal(np.zeros(6), fold_covariance(3, 1.0, 0.1, 0.3),
                                                     size=60).reshape(60, 3, 2)
    assert variance_components(y, n_resamples=200, seed=0).percentile_fallback == ()
