"""Design effect of clustering (textbcv.stats.clustering) against independent references."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.stats import posteriors
from textbcv.stats.clustering import DesignEffect, design_effect, pooled_design_effect


def f1(c: np.ndarray) -> float:
    tp, fp, fn = c.sum(axis=0)
    return 2 * tp / (2 * tp + fp + fn)


def test_cluster_variance_equals_the_variance_of_f1_over_resampled_clusters():
    """The linearised cluster variance is the variance of F1 when whole clusters are drawn anew
    (a cluster bootstrap written here, 4,000 resamples): within Monte Carlo error."""
    rng = np.random.default_rng(7)
    n_docs = 120
    difficulty = rng.beta(2, 2, size=n_docs)  # documents differ: errors cluster
    rows, groups = [], []
    for d in range(n_docs):
        for _ in range(rng.integers(3, 12)):
            n = rng.integers(1, 6)
            tp = rng.binomial(n, 0.5 + 0.45 * difficulty[d])
            fp = rng.binomial(n - tp, 0.5)
            rows.append((tp, fp, n - tp - fp))
            groups.append(d)
    c, g = np.array(rows, float), np.array(groups)
    de = design_effect(c, g)
    v_post = posteriors(*c.sum(axis=0), c=1.0)["f1"].var()
    per_doc = np.stack([c[g == d].sum(axis=0) for d in range(n_docs)])
    boot = np.array([f1(per_doc[rng.integers(0, n_docs, n_docs)]) for _ in range(4000)])
    v_boot = boot.var(ddof=1)
    assert abs(de.deff["f1"] * v_post / v_boot - 1) < 0.12  # MC error of a variance from 4,000 draws ≈ 2%, plus O(1/k)
    assert de.deff["f1"] > 2  # these documents really cluster their errors
    assert de.clusters == n_docs
    # sentences as clusters: smaller than documents here
    assert design_effect(c).deff["f1"] < de.deff["f1"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 4), st.integers(0, 4)), min_size=3, max_size=60),
       st.randoms(use_true_random=False))
def test_design_effect_ignores_the_order_of_sentences_and_cluster_names(rows, rnd):
    c = np.array(rows, float)
    if (c[:, 0] == 0).all() or (c.sum(axis=1) == 0).all():
        return
    groups = [rnd.randrange(4) for _ in rows]
    perm = list(range(len(rows)))
    rnd.shuffle(perm)
    a = design_effect(c, groups).deff
    b = design_effect(c[perm], [100 + 7 * groups[i] for i in perm]).deff
    for k in a:
        assert (np.isnan(a[k]) and np.isnan(b[k])) or np.isclose(a[k], b[k])


def test_pooled_design_effect_never_narrows():
    e = [DesignEffect({"precision": 0.5, "recall": 0.8, "f1": 0.9}, 5)] * 3
    assert pooled_design_effect(e) == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    assert DesignEffect({"precision": float("nan"), "recall": 1.5, "f1": 2.0}, 3).to_dict() == {
        "deff": {"precision": None, "recall": 1.5, "f1": 2.0}, "clusters": 3}
