"""The hierarchical answer across corpora against an independent computation: the joint posterior of (μ, τ)
integrated numerically (scipy's dblquad over the likelihood itself, none of the closed-form steps)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from textbcv.stats.hierarchical import hierarchical


def _brute(y, s, scale, rope=0.0, n_tau=2001, n_mu=8001):
    """P(μ > rope), E μ and P(θ_new > 0) by integrating the joint posterior of (μ, τ) numerically — the likelihood
    itself, none of the closed-form steps (m_τ, v_τ) of the code under test: trapezoids over τ, and for each τ
    over a μ grid wide enough for that τ (centred on the data, ±12 SD of the widest run's marginal)."""
    y, s = np.asarray(y), np.asarray(s)
    top = max(50 * scale, 10 * float(np.ptp(y)), 10 * float(s.max()))
    tau = np.linspace(0, top, n_tau)
    wtau = np.full(n_tau, tau[1] - tau[0])
    wtau[0] = wtau[-1] = wtau[0] / 2
    total = above = first = new = 0.0
    for t, wt in zip(tau, wtau):
        half = 12 * np.sqrt(float(s.max()) ** 2 + t ** 2) + float(np.ptp(y))
        mu = np.linspace(float(y.mean()) - half, float(y.mean()) + half, n_mu)
        logp = np.log(2 / np.pi / scale) - np.log1p((t / scale) ** 2) + sum(
            stats.norm.logpdf(yi, mu, np.sqrt(si ** 2 + t ** 2)) for yi, si in zip(y, s))
        p = np.exp(logp)
        total += wt * np.trapezoid(p, mu)
        above += wt * np.trapezoid(np.where(mu > rope, p, 0.0), mu)
        first += wt * np.trapezoid(p * mu, mu)
        new += wt * np.trapezoid(p * (stats.norm.sf(-mu / t) if t > 0 else (mu > 0)), mu)
    return {"p_b": above / total, "mu": first / total, "p_new": new / total}


@pytest.mark.parametrize("y,s", [([0.010, 0.006, 0.012], [0.003, 0.004, 0.005]),
                                 ([0.004, -0.006, 0.001], [0.002, 0.003, 0.004]),
                                 ([0.02, 0.0], [0.005, 0.005])])
def test_equals_a_numerical_integration_of_the_joint_posterior(y, s):
    h = hierarchical(y, s, [f"c{i}" for i in range(len(y))], rope=0.0)
    b = _brute(y, s, 0.01)
    assert h.p_b_better == pytest.approx(b["p_b"], abs=5e-5)
    assert h.mu == pytest.approx(b["mu"], abs=2e-6)
    assert h.p_new_b_better == pytest.approx(b["p_new"], abs=5e-5)
    r = hierarchical(y, s, [f"c{i}" for i in range(len(y))], rope=0.005)
    assert r.p_b_better == pytest.approx(_brute(y, s, 0.01, rope=0.005)["p_b"], abs=5e-5)
    assert r.p_equivalent == pytest.approx(1 - r.p_b_better - r.p_a_better)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(-0.03, 0.03), st.floats(0.001, 0.02)), min_size=2, max_size=6))
def test_invariants(runs):
    y, s = [r[0] for r in runs], [r[1] for r in runs]
    h = hierarchical(y, s, [str(i) for i in range(len(y))], rope=0.005)
    assert h.mu_interval[0] <= h.mu <= h.mu_interval[1]
    assert 0 <= h.p_b_better <= 1 and 0 <= h.p_equivalent <= 1
    assert h.p_b_better + h.p_a_better + h.p_equivalent == pytest.approx(1)
    flipped = hierarchical([-x for x in y], s, [str(i) for i in range(len(y))], rope=0.005)
    assert flipped.p_b_better == pytest.approx(h.p_a_better, abs=1e-9)  # symmetric in A and B
    for c in h.per_corpus:  # each corpus's mean is a weighted mean of the runs' estimates (shrinkage)
        assert min(y) - 1e-9 <= c["mean"] <= max(y) + 1e-9
    assert min(y) - 1e-9 <= h.mu <= max(y) + 1e-9


def test_identical_runs_and_refusals():
    h = hierarchical([0.01, 0.01, 0.01], [0.002] * 3, ["a", "b", "c"])
    assert h.mu == pytest.approx(0.01) and h.p_b_better > 0.99
    with pytest.raises(ValueError, match="at least two runs"):
        hierarchical([0.01], [0.002], ["a"])
    with pytest.raises(ValueError, match="positive"):
        hierarchical([0.01, 0.0], [0.002, 0.0], ["a", "b"])
