"""Relabelling the leaf blocks: the mean over all halves is kept (Parseval), the worst half never worsens.

The search scores its candidate exchanges in batches; it must take exactly the exchanges a scan trying
one at a time takes (the same labels, so the same splits as before the batching).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.split import split_units
from textbcv.split.labels import _pool, best_labels, half_ratios


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([4, 8, 16]), st.integers(1, 40))
def test_relabelling_keeps_the_mean_and_improves_the_worst(seed, N, K):
    rng = np.random.default_rng(seed)
    counts = {"a": rng.poisson(rng.uniform(3, 60, K), (N, K)), "b": rng.poisson(20, (N, 3))}
    perm = best_labels(counts, np.random.default_rng(seed))
    assert sorted(perm.tolist()) == list(range(N))
    before = half_ratios(np.arange(N), counts)
    after = half_ratios(perm, counts)
    assert after.max() <= before.max() + 1e-12
    # the χ² numerators summed over all N − 1 halves do not depend on the labels
    from scipy.linalg import hadamard
    for c in counts.values():
        d = c - c.sum(axis=0) / N
        tot = [((hadamard(N)[p][:, 1:].T @ d) ** 2).sum() for p in (np.arange(N), perm)]
        assert np.isclose(tot[0], tot[1])


def _scan(counts, rng, restarts):
    """The exchange search one candidate at a time: first improvement, pairs (a, b), a < b, in order, until none."""
    counts = {k: _pool(np.asarray(c, dtype=np.float64)) for k, c in counts.items()}

    def key(p):
        r = half_ratios(p, counts)
        return round(float(r.max()), 12), round(float(r[:3].max()), 12), round(float(r[:7].max()), 12)

    N, best = len(next(iter(counts.values()))), None
    for s in range(restarts):
        perm = np.arange(N) if s == 0 else rng.permutation(N)
        cur, improved = key(perm), True
        while improved:
            improved = False
            for a in range(N):
                for b in range(a + 1, N):
                    p2 = perm.copy()
                    p2[a], p2[b] = p2[b], p2[a]
                    if (k2 := key(p2)) < cur:
                        perm, cur, improved = p2, k2, True
        if best is None or cur < best[0]:
            best = (cur, perm)
    return best[1]


@pytest.mark.parametrize("N", [4, 8, 16])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), K=st.integers(1, 30), restarts=st.integers(1, 2))
def test_batched_search_takes_the_exchanges_of_a_one_at_a_time_scan(seed, N, K, restarts):
    rng = np.random.default_rng(seed)
    counts = {"a": rng.poisson(rng.uniform(0.2, 40, K), (N, K)), "b": rng.poisson(rng.uniform(1, 9, 3), (N, 3))}
    want = _scan(counts, np.random.default_rng(seed), restarts)
    assert best_labels(counts, np.random.default_rng(seed), restarts=restarts).tolist() == want.tolist()


@pytest.mark.slow  # seconds of balancing: CI runs it (.ci/run); the fast suite keeps this file's quicker tests
def test_split_units_worst_half_not_worse_than_unlabelled():
    rng = np.random.default_rng(3)
    n = 3000
    lab = sp.csr_matrix((np.ones(n), (np.arange(n), rng.integers(0, 6, n))), shape=(n, 6))
    lem = sp.csr_matrix(rng.poisson(0.05, (n, 300)).astype(float))
    s = split_units(n, 15, measures={"label": lab, "lemma": lem}, seed=0)
    q = s.quality["chi2_per_df"]
    # the same splits without the relabelling: effort keeps the balancing, the labels are the identity then
    import textbcv.split.labels as labels
    old = labels.LABEL_BUDGET
    try:
        labels.LABEL_BUDGET = 0
        s0 = split_units(n, 15, measures={"label": lab, "lemma": lem}, seed=0)
    finally:
        labels.LABEL_BUDGET = old
    q0 = s0.quality["chi2_per_df"]
    worst = max(max(q["label"]) / 0.05, max(q["lemma"]) / 0.3)
    worst0 = max(max(q0["label"]) / 0.05, max(q0["lemma"]) / 0.3)
    assert worst <= worst0 + 1e-9
    assert np.isclose(np.mean(q["lemma"]), np.mean(q0["lemma"]), rtol=0.02)


@pytest.mark.slow  # seconds of balancing: CI runs it (.ci/run); the fast suite keeps this file's quicker tests
def test_effort_recorded_and_noising_only_lowers_the_objective():
    from textbcv.split.balance import objective, perturb, polish
    from textbcv.split.balance.search import _value
    from textbcv.split.balance.stacking import as_csr

    rng = np.random.default_rng(5)
    n = 1008
    lem = sp.csr_matrix(rng.poisson(0.08, (n, 400)).astype(float))
    X, W = objective({"lemma": lem})
    X = as_csr(X)
    out = np.repeat(np.arange(16), n // 16)
    t = np.full(16, n / 16)
    polish(X, W, np.ones(n, int), out, t, np.random.default_rng(0))
    before = _value(X, W, out, t)
    assert perturb(X, W, np.ones(n, int), out, t, np.random.default_rng(1)) > 0
    assert _value(X, W, out, t) < before  # a local optimum of the swaps, left by noising
    assert np.bincount(out).tolist() == [n // 16] * 16
    # effort 0 = dealing only; an effort other than 1 is written into the manifest
    s0 = split_units(n, 3, measures={"lemma": lem}, seed=0, effort=0)
    s1 = split_units(n, 3, measures={"lemma": lem}, seed=0)
    assert np.mean(s1.quality["chi2_per_df"]["lemma"]) < np.mean(s0.quality["chi2_per_df"]["lemma"])


def test_make_splits_records_effort():
    from textbcv.corpus.model import Corpus, Sentence
    from textbcv.split import make_splits

    c = Corpus([Sentence((w, "x"), ("O", "O"), "iob2") for w in "abcdefghijklmnop"], ["x"], "conll", "iob2")
    assert "effort" not in make_splits(c, m=3, seed=0).options
    assert make_splits(c, m=3, seed=0, effort=0).options["effort"] == 0.0
