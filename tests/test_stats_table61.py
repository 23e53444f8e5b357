"""P(H0) recomputed from the thesis's table 6.1 intervals (tables 6.2–6.4 of the thesis).

How the Beta parameters are derived: table 6.1 prints each 95% equal-tailed
interval in percent to two decimals. For precision and recall the posterior
is Beta(α, β); for F1 it is the latent Beta(b, a) of eq. 6.33. For each
interval we solve the two equations ppf(0.025) = lo, ppf(0.975) = hi for
(log α, log β) by least squares (started from the normal approximation's
moments), which reproduces both endpoints to 1e-12. The two systems'
posteriors are then compared exactly; P(H0) = P(ν_B ≤ ν_A).
"""

import numpy as np
import pytest
from scipy import optimize

from textbcv.stats.bayes import prob_better
from textbcv.stats.posterior import BetaPosterior, F1Posterior

TABLE_6_1 = {  # (A interval, B interval) in percent; A = BMES / IOB2, B = BB2B3MES / IOBES
    ("CWS", "precision"): ((95.55, 95.62), (95.60, 95.67)),
    ("NER", "f1"): ((89.21, 89.77), (89.32, 89.87)),
    ("NER-ORG", "recall"): ((64.89, 67.11), (64.45, 66.68)),
    ("NER-ORG", "precision"): ((91.37, 92.86), (91.85, 93.31)),
    ("NER-ORG", "f1"): ((76.06, 77.74), (75.93, 77.61)),
}
P_H0 = {("CWS", "precision"): 0.024, ("NER", "f1"): 0.300, ("NER-ORG", "recall"): 0.706,
        ("NER-ORG", "precision"): 0.191, ("NER-ORG", "f1"): 0.587}


def posterior_from_interval(metric, lo, hi):
    cls = F1Posterior if metric == "f1" else BetaPosterior
    mid, sd = (lo + hi) / 2, (hi - lo) / 3.92
    if metric == "f1":  # moments of the latent W = f1/(2 − f1)
        mid, sd = mid / (2 - mid), sd * 2 / (2 - mid) ** 2
    s = mid * (1 - mid) / sd**2 - 1
    x0 = np.log([mid * s, (1 - mid) * s])

    def resid(x):
        return np.array(cls(*np.exp(x)).ppf([0.025, 0.975])) - [lo, hi]

    fit = optimize.least_squares(resid, x0, xtol=1e-15, ftol=1e-15, gtol=1e-15)
    assert np.max(np.abs(fit.fun)) < 1e-10
    return cls(*np.exp(fit.x))


@pytest.mark.parametrize("key", sorted(TABLE_6_1))
def test_p_h0_from_table_6_1(key):
    (alo, ahi), (blo, bhi) = TABLE_6_1[key]
    a = posterior_from_interval(key[1], alo / 100, ahi / 100)
    b = posterior_from_interval(key[1], blo / 100, bhi / 100)
    assert prob_better(a, b)["p_a_better"] == pytest.approx(P_H0[key], abs=0.005)
