"""textbcv.stats.paired: cluster cross-products against a direct computation."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.stats.paired import cluster_cross_products, paired_variances


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 3), st.integers(0, 10_000))
def test_cross_products_equal_the_sum_over_clusters(folds, k, seed):
    rng = np.random.default_rng(seed)
    counts, clusters = [], []
    for _ in range(folds):
        n = int(rng.integers(1, 12))
        counts.append(rng.integers(0, 5, size=(n, k)))
        clusters.append(rng.integers(0, 6, size=n) * 7)  # ids need not be 0..K-1
    S, n_clusters = cluster_cross_products(counts, clusters)
    ids = sorted(set(np.concatenate(clusters).tolist()))
    assert n_clusters == len(ids)
    want = np.zeros((folds * k, folds * k))
    for g in ids:
        x = np.concatenate([c[cl == g].sum(axis=0) for c, cl in zip(counts, clusters)])
        want += np.outer(x, x)
    assert np.array_equal(S, want)


def _direct(counts_a, counts_b, groups):
    """Cluster variance of ΔF1 linearised directly from per-sentence counts (no cross products)."""
    def lin(c):
        a, b = 2.0 * c[:, 0], 2.0 * c[:, 0] + c[:, 1] + c[:, 2]
        return a - a.sum() / b.sum() * b, b.sum()

    za, ba = lin(counts_a)
    zb, bb = lin(counts_b)
    ids, g = np.unique(groups, return_inverse=True)
    z = np.bincount(g, weights=zb / bb - za / ba)
    k = len(ids)
    return k / (k - 1) * float(np.sum(z * z))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["tp,fp,fn", "tp,fp+fn"]))
def test_paired_variances_equal_direct_computations(seed, layout):
    from textbcv.stats.clustering import _ratio_var

    rng = np.random.default_rng(seed)
    F = 4
    folds_a, folds_b, groups = [], [], []
    for _f in range(F):
        n = int(rng.integers(5, 25))
        a = rng.integers(0, 5, size=(n, 3))
        b = np.clip(a + rng.integers(-1, 2, size=(n, 3)), 0, None)  # correlated with A
        a[0, 0] += 1
        b[0, 0] += 1
        folds_a.append(a)
        folds_b.append(b)
        groups.append(rng.integers(0, 9, size=n))

    def cols(c):
        return c if layout == "tp,fp,fn" else np.stack([c[:, 0], c[:, 1] + c[:, 2]], axis=1)

    S, k = cluster_cross_products([np.hstack([cols(a), cols(b)]) for a, b in zip(folds_a, folds_b)], groups)
    kf = [len(np.unique(g)) for g in groups]
    v = paired_variances(S, k, np.array([a.sum(0) for a in folds_a]), np.array([b.sum(0) for b in folds_b]),
                         layout=layout, fold_clusters=kf)
    for f in range(F):
        a, b, g = folds_a[f], folds_b[f], groups[f]
        g = np.unique(g, return_inverse=True)[1]
        want_a = _ratio_var(2.0 * a[:, 0], 2.0 * a[:, 0] + a[:, 1] + a[:, 2], g)  # textbcv.stats.clustering's
        assert np.isclose(v.fold_a[f], want_a, rtol=1e-9, atol=1e-15)
        assert np.isclose(v.fold_delta[f], _direct(a, b, g), rtol=1e-9, atol=1e-15)
    # pooled: each cluster's sentences over all folds, at the pooled counts
    pa, pb, pg = np.vstack(folds_a), np.vstack(folds_b), np.concatenate(groups)
    assert np.isclose(v.pooled_delta, _direct(pa, pb, pg), rtol=1e-9, atol=1e-15)
    assert np.isclose(v.pooled_a, _ratio_var(2.0 * pa[:, 0], 2.0 * pa[:, 0] + pa[:, 1] + pa[:, 2],
                                            np.unique(pg, return_inverse=True)[1]), rtol=1e-9, atol=1e-15)


def _sim_folds(seed, m, n=200, fix=0.1, docs=4):
    """Per-sentence counts of A and of B = A with a share ``fix`` of its hard sentences repaired."""
    rng = np.random.default_rng(seed)
    fa, fb, groups = [], [], []
    for f in range(2 * m):
        hard = rng.random(n) < 0.3
        a = np.stack([np.where(hard, 1, 3), np.where(hard, 2, 0), np.where(hard, 2, 0)], axis=1)
        b = a.copy()
        b[hard & (rng.random(n) < fix)] = [2, 1, 1]
        fa.append(a)
        fb.append(b)
        groups.append((f % 2) * 10_000 + np.arange(n) // docs)  # a split's two halves test other documents
    return fa, fb, groups


def test_paired_difference_of_identical_systems_is_zero():
    from textbcv.stats.paired import paired_difference

    fa, _, groups = _sim_folds(0, 3)
    p = paired_difference(fa, fa, groups, m=3)
    assert p.estimate == 0 and p.sd < 1e-15
    assert p.prob_better()["p_b_better"] == 0.5


def test_paired_difference_probabilities_are_the_normal_closed_form():
    from scipy.stats import norm

    from textbcv.stats.paired import PairedDifference

    p = PairedDifference(0.004, 0.003 ** 2, 0.002 ** 2, 3, 100, 0.9)
    sd = np.sqrt(0.003 ** 2 + 0.002 ** 2)
    assert np.isclose(p.prob_better()["p_b_better"], norm.cdf(0.004 / sd))
    r = p.prob_better(rope=0.005)
    assert np.isclose(r["p_b_better"], norm.sf((0.005 - 0.004) / sd))
    assert np.isclose(r["p_a_better"], norm.cdf((-0.005 - 0.004) / sd))
    assert np.isclose(r["p_b_better"] + r["p_a_better"] + r["p_equivalent"], 1)
    lo, hi = p.interval(0.05)
    assert np.isclose(hi - lo, 2 * 1.959963984540054 * sd)


def test_paired_difference_learns_from_m_and_from_the_pairing():
    from textbcv.stats.paired import paired_difference

    sd = {m: np.mean([paired_difference(*_sim_folds(s, m), m=m).sd for s in range(10)]) for m in (1, 3, 7)}
    assert sd[7] < sd[3] < sd[1]  # every sentence tested m times by other models: the test noise averages
    fa, fb, groups = _sim_folds(3, 3)
    p = paired_difference(fa, fb, groups, m=3)
    assert p.correlation > 0.5  # B fails where A fails
    shuffled = [b[np.random.default_rng(f).permutation(len(b))] for f, b in enumerate(fb)]
    q = paired_difference(fa, shuffled, groups, m=3)  # the same systems, their errors made independent
    assert abs(q.correlation) < 0.3 and q.var_test > 3 * p.var_test
