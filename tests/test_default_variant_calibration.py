"""The default interval variant covers the truth in the thesis's Example 6.1, checked independently.

Written here without the calibration study's simulation engine (``scripts/_simulate.py``) or
``scripts/calibrate.py``: n = 600, P(Y = 1) = ½ (``iid``) or exactly 300 per class (``balanced``),
X | Y ~ N(μ_Y, I₂) with μ₀ = (0, 0), μ₁ = (½, ½); unpenalised logistic regression; 3×2 BCV from a
4 × 4 Hadamard matrix over 4 random blocks. The truth is what the pooled m×2 estimate of F1
estimates: the F1 of the expected population rates of rules fitted on n/2 points, computed
exactly for each rule (normal CDF of the signed distance) and averaged over many such rules. Only
the interval itself comes from textbcv (the variant under test). With a fixed seed the result is
deterministic.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats

from textbcv import defaults
from textbcv.stats.clustering import design_effect, pooled_design_effect
from textbcv.stats.compare import system_posteriors

MU = (np.zeros(2), np.full(2, 0.5))
N = 600


def _data(rng, design):
    y = rng.integers(0, 2, N) if design == "iid" else rng.permutation(np.repeat([0, 1], N // 2))
    X = rng.standard_normal((N, 2)) + np.where(y[:, None] == 1, MU[1], MU[0])
    return X, y


def _fit(X, y):
    from sklearn.linear_model import LogisticRegression

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = LogisticRegression(penalty=None).fit(X, y)
    return c.coef_[0], float(c.intercept_[0])


def _rates(w, b):
    """(TP, FP, FN) per example in the population for the rule w·x + b > 0."""
    s = np.linalg.norm(w)
    p1 = stats.norm.sf(-(MU[1] @ w + b) / s)  # P(predict 1 | Y = 1)
    p0 = stats.norm.sf(-(MU[0] @ w + b) / s)
    return np.array([0.5 * p1, 0.5 * p0, 0.5 * (1 - p1)])


def _truth(design, k=3000):
    rng = np.random.default_rng(99)
    r = np.zeros(3)
    for _ in range(k):
        X, y = _data(rng, design)
        half = rng.permutation(N)[: N // 2]
        r += _rates(*_fit(X[half], y[half]))
    tp, fp, fn = r / k
    return 2 * tp / (2 * tp + fp + fn)


def _bcv_folds(rng):
    H = np.array([[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]])
    blocks = np.array_split(rng.permutation(N), 4)
    for col in H[:, 1:].T:
        a = np.concatenate([blocks[j] for j in range(4) if col[j] > 0])
        b = np.concatenate([blocks[j] for j in range(4) if col[j] < 0])
        yield a, b
        yield b, a


@pytest.mark.slow
@pytest.mark.parametrize("design", ["iid", "balanced"])
def test_default_variant_covers_f1_in_example_6_1(design):
    truth = _truth(design)
    rng = np.random.default_rng(2026)
    hits = 0
    R = 500
    for _ in range(R):
        X, y = _data(rng, design)
        counts, effects = [], []
        for tr, te in _bcv_folds(rng):
            w, b = _fit(X[tr], y[tr])
            pred = X[te] @ w + b > 0
            yt = y[te] == 1
            per_example = np.stack([pred & yt, pred & ~yt, ~pred & yt], axis=1).astype(float)
            counts.append(per_example.sum(axis=0))
            effects.append(design_effect(per_example))  # each example its own cluster (it is one here)
        post, _ = system_posteriors(np.array(counts, dtype=float), 3, defaults.VARIANT,
                                    deff=pooled_design_effect(effects))
        lo, hi = post["f1"].interval(0.05)
        hits += lo <= truth <= hi
    assert hits / R >= 0.93, (design, defaults.VARIANT, hits / R)
