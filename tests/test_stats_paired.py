"""textbcv.stats.paired: cluster cross-products against a direct computation."""

from __future__ import annotations

import numpy as np
import pytest
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


def test_paired_difference_probabilities_are_the_closed_form():
    from scipy.stats import norm, t

    from textbcv.stats.paired import PairedDifference

    p = PairedDifference(0.004, 0.003 ** 2, 0.002 ** 2, float("inf"), 3, 100, 0.9)
    sd = np.sqrt(0.003 ** 2 + 0.002 ** 2)
    assert np.isclose(p.prob_better()["p_b_better"], norm.cdf(0.004 / sd))
    r = p.prob_better(rope=0.005)
    assert np.isclose(r["p_b_better"], norm.sf((0.005 - 0.004) / sd))
    assert np.isclose(r["p_a_better"], norm.cdf((-0.005 - 0.004) / sd))
    assert np.isclose(r["p_b_better"] + r["p_a_better"] + r["p_equivalent"], 1)
    lo, hi = p.interval(0.05)
    assert np.isclose(hi - lo, 2 * 1.959963984540054 * sd)
    q = PairedDifference(0.004, 0.003 ** 2, 2 * 0.001 ** 2, 4.5, 3, 100, 0.9)  # a Student t
    assert np.isclose(q.prob_better()["p_b_better"], t.cdf(0.004 / q.sd, 4.5))
    assert np.isclose(q.interval(0.1)[1], 0.004 + t.isf(0.05, 4.5) * q.sd)
    assert PairedDifference.from_dict(q.to_dict()) == q


def _sim_data_set(rng, n, m, train, noise, p0=0.3):
    """One data set of n sentences, m random halvings; B repairs A's hard sentences with a probability
    p0 + ``train`` × (the mean value ψ of the fold's training sentences) + ``noise`` × N(0, 1): a training-half
    effect and a model noise of known size. A repair moves F1 by a fixed step, so the true ΔF1 of models
    trained on this data set's halves, on new text, is 0.1 × (p0 + ``train`` × the mean ψ of all n sentences),
    returned last (p0 far enough from 0 that p is almost never clipped)."""
    hard = rng.random(n) < 0.3
    psi = rng.normal(size=n)
    fa, fb, groups = [], [], []
    for _s in range(m):
        perm = rng.permutation(n)
        halves = (perm[: n // 2], perm[n // 2:])
        for k in (0, 1):
            test, trained = halves[k], halves[1 - k]
            p = p0 + train * psi[trained].mean() + noise * rng.normal()
            h = hard[test]
            a = np.stack([np.where(h, 1, 3), np.where(h, 2, 0), np.where(h, 2, 0)], axis=1)
            b = a.copy()
            b[h & (rng.random(len(test)) < np.clip(p, 0, 1))] = [2, 1, 1]
            fa.append(a)
            fb.append(b)
            groups.append(test)
    return fa, fb, groups, 0.1 * (p0 + train * psi.mean())


def test_paired_difference_recovers_known_parts_and_covers_the_truth():
    """Simulated data sets with a known model noise and training-half effect: the model-noise part is found where
    it exists (and not where it does not), the mean variance matches the estimates' own error about the data
    set's true ΔF1, and the 95% interval covers it at least 90% of the time."""
    from textbcv.stats.paired import paired_difference

    rng = np.random.default_rng(7)
    res = {}
    for name, train, noise in (("test only", 0.0, 0.0), ("model noise", 0.0, 0.05), ("training halves", 1.0, 0.0)):
        ps, truth = [], []
        for _ in range(150):
            *folds, t = _sim_data_set(rng, 400, 3, train, noise)
            ps.append(paired_difference(*folds, m=3))
            truth.append(t)
        err = np.array([p.estimate for p in ps]) - truth
        res[name] = {"emp": float(np.mean(err ** 2)), "var": float(np.mean([p.var for p in ps])),
                     "model": float(np.mean([p.var_model for p in ps])),
                     "test": float(np.mean([p.var_test for p in ps])),
                     "cover": float(np.mean([p.interval()[0] <= t <= p.interval()[1] for p, t in zip(ps, truth)]))}
    # the model part is floored at 0, so the variance errs wide where it is absent; a training half's effect is
    # undone by its complement's in the same split, so the folds' spread counts it and the posterior errs wide
    # there too (measured here: 0.87x test only, 1.11x with model noise, 1.67x with the training halves)
    for name, lo, hi in (("test only", 0.7, 1.2), ("model noise", 0.85, 1.4), ("training halves", 1.3, 2.0)):
        assert lo < res[name]["var"] / res[name]["emp"] < hi, res
        assert 0.9 <= res[name]["cover"] <= 1.0, res
    # model noise 0.1 × 0.05 per fold → 2.5e-5 per fold, 2.5e-5 / 6 on the mean of 6 folds
    # (measured 1.38: the floor's bias, 0.37 of it where there is no model noise, comes on top)
    assert 0.8 < res["model noise"]["model"] / (2.5e-5 / 6) < 1.7, res
    assert res["model noise"]["model"] > 3 * res["test only"]["model"], res
    # training halves: a half-difference is 0.1 × (mean ψ of the half − of all), variance 0.01 / n; the folds'
    # pooled mean square takes m of 2m − 1 of it, so the part is 0.01 / n / (2m − 1) (though the error has none)
    assert 0.7 < res["training halves"]["model"] / (0.01 / 400 / 5) < 1.3, res


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


def test_seed_part_is_measured_on_its_own_and_matches_the_model_noise():
    """Folds trained with S seeds each, the seeds the only model noise (B repairs A's hard sentences with a
    probability that moves from seed to seed, and which ones at random): the model-noise part from the splits'
    spread matches the pooled estimate's error beyond new text; the seeds' whole effect, measured on its own from
    each fold's seeds, holds that part and the seeds' sentence-level randomness, which new text's part carries."""
    from textbcv.stats.paired import paired_differences

    rng = np.random.default_rng(11)
    n, m, S, noise = 400, 3, 3, 0.06
    seed_part, model_part, excess, tests_ = [], [], [], []
    for _ in range(120):
        hard = rng.random(n) < 0.3
        sent_a, sent_b, groups, seeds_a, seeds_b = [], [], [], [], []
        for _s in range(m):
            perm = rng.permutation(n)
            for test in (perm[: n // 2], perm[n // 2:]):
                h = hard[test]
                a = np.stack([np.where(h, 1, 3), np.where(h, 2, 0), np.where(h, 2, 0)], axis=1)
                per_seed = []
                for _k in range(S):
                    b = a.copy()
                    b[h & (rng.random(len(test)) < np.clip(0.3 + noise * rng.normal(), 0, 1))] = [2, 1, 1]
                    per_seed.append(b)
                sent_a.append(S * a)  # A's S seeds are identical: its counts summed over them
                sent_b.append(np.sum(per_seed, axis=0))
                groups.append(test)
                seeds_a.append(np.repeat(a.sum(axis=0)[None], S, axis=0))
                seeds_b.append(np.array([x.sum(axis=0) for x in per_seed]))
        p = paired_differences({"A": sent_a, "B": sent_b}, groups, m, metrics=("f1",),
                               seed_counts={"A": seeds_a, "B": seeds_b})[("A", "B")]["f1"]
        seed_part.append(p.var_seed)
        model_part.append(p.var_model)
        excess.append((p.estimate - 0.03) ** 2 - p.var_test)
        tests_.append(p.var_test)
    seed, model, err = np.mean(seed_part), np.mean(model_part), np.mean(excess)
    test = np.mean(tests_)
    assert 0.6 < model / err < 1.6, (model, err)  # the posterior's part: as large as the error beyond new text
    assert model < seed < model + test, (seed, model, test)  # the seeds' whole effect overlaps both


def _seeded_folds(data_rng, seed_rng, n, m, S, train, seed_noise, p0=0.3):
    """Per-seed per-sentence counts of a data set whose sentences and halvings come from ``data_rng`` and whose
    training seeds come from ``seed_rng`` (so the seeds can be drawn again on the same data): A is deterministic
    (its S seeds agree), B repairs A's hard sentences with a probability p0 + ``train`` × (mean ψ of the fold's
    training sentences) + ``seed_noise`` × N(0, 1) drawn per seed (the seed's whole-fold effect), which ones at
    random per seed (its sentence-level effect)."""
    hard = data_rng.random(n) < 0.3
    psi = data_rng.normal(size=n)
    halves = []
    for _s in range(m):
        perm = data_rng.permutation(n)
        halves += [(perm[: n // 2], perm[n // 2:]), (perm[n // 2:], perm[: n // 2])]
    seeds_a, seeds_b, groups = [], [], []
    for test, trained in halves:
        h = hard[test]
        a = np.stack([np.where(h, 1, 3), np.where(h, 2, 0), np.where(h, 2, 0)], axis=1)
        per_seed = []
        for _k in range(S):
            p = p0 + train * psi[trained].mean() + seed_noise * seed_rng.normal()
            b = a.copy()
            b[h & (seed_rng.random(len(test)) < np.clip(p, 0, 1))] = [2, 1, 1]
            per_seed.append(b)
        seeds_a.append(np.repeat(a[None], S, axis=0))
        seeds_b.append(np.stack(per_seed))
        groups.append(test)
    return seeds_a, seeds_b, groups


def _seeded_posterior(seeds_a, seeds_b, groups, m):
    from textbcv.stats.paired import paired_differences

    return paired_differences({"A": [x.sum(axis=0) for x in seeds_a], "B": [x.sum(axis=0) for x in seeds_b]},
                              groups, m, metrics=("f1",),
                              seed_sentence_counts={"A": seeds_a, "B": seeds_b})[("A", "B")]["f1"]


def _seeded_truth(data_seed, n, train, p0=0.3):
    """The true ΔF1 of :func:`_seeded_folds`'s data set (drawn from ``data_seed``): models trained on its halves, on
    new text, 0.1 × (p0 + ``train`` × the mean ψ of its n sentences)."""
    data_rng = np.random.default_rng(data_seed)
    data_rng.random(n)
    return 0.1 * (p0 + train * data_rng.normal(size=n).mean())


def test_seed_training_and_test_parts_are_each_recovered():
    """Several seeds per fold for both systems (A's agree, B's do not): the three parts of the posterior — test
    sample, training half, seed — are each measured on their own, with no remainder. Against values known in the
    simulation: the seed part equals the pooled estimate's variance when only the seeds are drawn again on the same
    data (Monte Carlo, 30 redraws per data set); the training halves' part equals 0.01 × train² / n / (2m − 1) (a
    half's mean ψ against the corpus's moves B's repair rate, ×0.1 in F1, undone by its complement in the same
    split, so the error has none of it and the posterior errs wide by this much); and the test part is what remains
    of the estimate's mean squared error about the data set's true ΔF1, found from the clusters alone. A part that
    is absent is floored at 0 data set by data set, so it errs wide (measured here: the absent training halves'
    part comes out at about a quarter of the test part; the posterior 1.1–1.5 times the error's variance)."""
    n, m, S = 400, 3, 3
    for train, seed_noise in ((0.0, 0.06), (1.0, 0.06), (1.0, 0.0)):
        rng = np.random.default_rng(21)
        parts, mc_seed, err = [], [], []
        for r in range(150):
            data_seed = int(rng.integers(2 ** 31))
            sa, sb, g = _seeded_folds(np.random.default_rng(data_seed), rng, n, m, S, train, seed_noise)
            p = _seeded_posterior(sa, sb, g, m)
            assert p.seeds == (S, S) and p.df == 2 * m - 1
            parts.append((p.var_test, p.var_model, p.var_seed, p.var))
            err.append((p.estimate - _seeded_truth(data_seed, n, train)) ** 2)
            if r < 20:  # the seeds' true part: draw them again on the same sentences and halvings
                est = [_seeded_posterior(*_seeded_folds(np.random.default_rng(data_seed), np.random.default_rng(k),
                                                        n, m, S, train, seed_noise), m).estimate for k in range(30)]
                mc_seed.append(np.var(est, ddof=1))
        test, halves, seed, total = np.mean(parts, axis=0)
        mse = float(np.mean(err))
        known_seed, known_halves = float(np.mean(mc_seed)), 0.01 * train ** 2 / n / (2 * m - 1)
        known_test = mse - known_seed  # what remains of the error
        assert 0.8 < seed / known_seed < 1.25, (train, seed_noise, seed, known_seed)
        assert 0.8 < test / known_test < 1.25, (train, seed_noise, test, known_test)
        if train:
            assert 0.7 < halves / known_halves < 1.4, (train, seed_noise, halves, known_halves)
        else:
            assert halves < 0.4 * test, (halves, test)  # absent, floored: errs wide
        assert 0.85 < total / mse < 1.7, (train, seed_noise, total, mse)
        assert total == pytest.approx(test + halves + seed)  # no remainder


def test_seed_part_needs_two_seeds_of_each_system():
    from textbcv.stats.paired import paired_differences

    rng = np.random.default_rng(3)
    sa, sb, g = _seeded_folds(rng, rng, 200, 2, 2, 0.0, 0.05)
    one_a = [x[:1] for x in sa]  # A with one seed: its seed noise cannot be measured
    p = paired_differences({"A": [x.sum(axis=0) for x in one_a], "B": [x.sum(axis=0) for x in sb]}, g, 2,
                           metrics=("f1",), seed_sentence_counts={"A": one_a, "B": sb})[("A", "B")]["f1"]
    assert p.seeds is None and p.var_seed_part == 0.0
    q = _seeded_posterior(sa, sb, g, 2)
    assert q.seeds == (2, 2) and q.var_seed > 0
    assert q.at_seeds(8).var_seed == pytest.approx(q.var_seed * (q.seed_share_a * 2 / 8 + (1 - q.seed_share_a) / 4))
    assert q.at_m(4).var_seed == pytest.approx(q.var_seed / 2)
    assert type(q).from_dict(q.to_dict()) == q


def test_macro_difference_of_one_type_is_the_f1_difference_and_averages_types():
    from textbcv.stats.paired import macro_difference, paired_difference

    rng = np.random.default_rng(4)
    fa, fb, groups = _sim_folds(2, 3)
    micro = paired_difference(fa, fb, groups, m=3)
    macro = macro_difference(fa, fb, groups, m=3)  # one type: macro-F1 is F1
    assert macro.estimate == pytest.approx(micro.estimate)
    assert macro.var_test == pytest.approx(micro.var_test) and macro.var_model == pytest.approx(micro.var_model)
    # two types side by side: the estimate is the mean of the two types' F1 differences
    fa2 = [np.hstack([a, a[rng.permutation(len(a))]]) for a in fa]
    fb2 = [np.hstack([b, a[rng.permutation(len(a))]]) for a, b in zip(fa, fb)]
    two = macro_difference(fa2, fb2, groups, m=3)

    def f1(c):
        c = np.concatenate(c).sum(axis=0)
        return 2 * c[0] / (2 * c[0] + c[1] + c[2])

    per = [f1([x[:, 3 * t:3 * t + 3] for x in fb2]) - f1([x[:, 3 * t:3 * t + 3] for x in fa2]) for t in (0, 1)]
    assert two.estimate == pytest.approx(np.mean(per))
