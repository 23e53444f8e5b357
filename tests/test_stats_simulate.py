"""The calibration engine of scripts/calibrate.py (scripts/_simulate.py): OA splits are BCV, population rates exact."""

import doctest
from pathlib import Path

import numpy as np
import pytest
from conftest import script

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
simulate = script("_simulate")
bcv_splits, fit_fold_counts, gaussian_data, population_rates = (
    simulate.bcv_splits, simulate.fit_fold_counts, simulate.gaussian_data, simulate.population_rates)


def test_docstring_examples():
    result = doctest.testmod(simulate, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


@pytest.mark.parametrize("n,m", [(600, 3), (600, 12), (601, 7)])
def test_bcv_splits_are_balanced_halvings(n, m):
    splits = bcv_splits(n, m, np.random.default_rng(0))
    N = 4 if m <= 3 else 8 if m <= 7 else 16
    bound = N / 4  # METHOD §1: max |φ − n/4| ≤ N/4 with near-equal blocks
    assert len(splits) == m
    for t, v in splits:
        assert len(np.intersect1d(t, v)) == 0 and len(t) + len(v) == n
        assert abs(len(t) - n / 2) <= bound
    for i in range(m):
        for j in range(i + 1, m):
            assert abs(len(np.intersect1d(splits[i][0], splits[j][0])) - n / 4) <= bound


def test_population_rates_match_a_large_sample():
    rng = np.random.default_rng(1)
    X, y = gaussian_data(400000, rng, "iid")
    w, b = np.array([0.8, 1.1]), -0.4
    pred = X @ w + b > 0
    emp = np.array([np.mean(pred & (y == 1)), np.mean(pred & (y == 0)), np.mean(~pred & (y == 1))])
    assert np.allclose(population_rates(w, b), emp, atol=3e-3)
    pred1 = X[:, [1]] @ w[:1] + b > 0
    emp1 = np.array([np.mean(pred1 & (y == 1)), np.mean(pred1 & (y == 0)), np.mean(~pred1 & (y == 1))])
    assert np.allclose(population_rates(w[:1], b, features=[1]), emp1, atol=3e-3)


def test_fit_fold_counts_cover_each_unit_once_per_split():
    rng = np.random.default_rng(2)
    X, y = gaussian_data(600, rng, "balanced")

    def fit(Xt, yt):  # a fixed rule: the learner is only called
        return np.ones(Xt.shape[1]), -0.5

    counts, rates = fit_fold_counts(X, y, bcv_splits(600, 3, rng), fit)
    assert counts.shape == (6, 3) and rates.shape == (6, 3)
    tp_fn = counts[:, 0] + counts[:, 2]
    assert tp_fn.reshape(3, 2).sum(axis=1).tolist() == [300, 300, 300]  # every positive validated once per split
