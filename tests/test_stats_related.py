"""Related clusters: which clusters share a rare name (textbcv.corpus.related) and what their covariance adds to
the paired posterior (textbcv.stats.paired), against direct computations."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.corpus import Corpus, Sentence
from textbcv.corpus.related import RELATED_MOST, related_clusters
from textbcv.stats.paired import (
    cluster_cross_products,
    paired_difference,
    paired_difference_from_moments,
    related_cross_products,
)

NAMES = ["Oslo", "Paris", "Rome", "Ann", "Bob", "Cy", "Dee"]


def _corpus(rng: np.random.Generator, n: int) -> Corpus:
    sents = []
    for _ in range(n):
        toks, tags = [], []
        for _ in range(int(rng.integers(1, 5))):
            if rng.random() < 0.5:
                name = NAMES[int(rng.integers(0, len(NAMES)))]
                kind = "PER" if name in ("Ann", "Bob", "Cy", "Dee") else str(rng.choice(["LOC", "ORG"]))
                toks.append(name)
                tags.append(f"B-{kind}")
            else:
                toks.append("the")
                tags.append("O")
        sents.append(Sentence(tuple(toks), tuple(tags), "iob2"))
    return Corpus(sents, [], "conll")


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6))
def test_related_clusters_are_the_pairs_sharing_a_rare_name(seed, most):
    rng = np.random.default_rng(seed)
    corpus = _corpus(rng, int(rng.integers(1, 25)))
    ids = rng.integers(0, 8, size=len(corpus)) * 3  # ids need not be 0..K-1
    got = {tuple(p) for p in related_clusters(corpus, ids, most=most).tolist()}
    holders: dict = {}
    for g, s in zip(ids.tolist(), corpus.sentences):
        for a, b, t in s.chunks:
            holders.setdefault((t, s.tokens[a:b]), set()).add(g)
    want = {p for h in holders.values() if 2 <= len(h) <= most for p in combinations(sorted(h), 2)}
    assert got == want
    assert all(a < b for a, b in got)


def test_related_clusters_default_and_type_matter():
    s = [Sentence(("Jordan",), ("B-PER",), "iob2"), Sentence(("Jordan",), ("B-LOC",), "iob2"),
         Sentence(("Jordan",), ("B-PER",), "iob2")]
    c = Corpus(s, [], "conll")
    # the person links documents 0 and 2; the country is another name
    assert related_clusters(c, [0, 1, 2]).tolist() == [[0, 2]]
    assert RELATED_MOST >= 2
    # a name in more clusters than `most` links none
    assert related_clusters(c, [0, 1, 2], most=1).tolist() == []


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000))
def test_related_cross_products_of_disjoint_pairs_are_what_merging_them_adds(seed):
    """With each cluster in at most one related pair, S + R is the cross product of the pairs merged into one
    cluster each: the related covariance is that of the pair's sum."""
    rng = np.random.default_rng(seed)
    F, K, k = int(rng.integers(1, 4)), 2, 9
    counts, clusters = [], []
    for _ in range(F):
        n = int(rng.integers(1, 15))
        counts.append(rng.integers(0, 5, size=(n, K)))
        clusters.append(rng.integers(0, k, size=n))
    perm = rng.permutation(k)
    pairs = np.sort(perm[: 2 * int(rng.integers(0, 5))].reshape(-1, 2), axis=1)
    S, _ = cluster_cross_products(counts, clusters)
    R = related_cross_products(counts, clusters, pairs)
    merge = np.arange(k)
    for a, b in pairs:
        merge[b] = a
    S_merged, _ = cluster_cross_products(counts, [merge[c] for c in clusters])
    assert np.array_equal(S + R, S_merged)
    assert np.array_equal(R, R.T)


def test_related_pairs_of_untested_clusters_add_nothing():
    c = [np.array([[1, 0], [2, 1]])]
    g = [np.array([4, 5])]
    assert np.array_equal(related_cross_products(c, g, [[4, 9], [1, 5]]), np.zeros((2, 2)))
    # X_4 = (1, 0), X_5 = (2, 1): X_4 X_5ᵀ + X_5 X_4ᵀ
    assert related_cross_products(c, g, [[4, 5]]).tolist() == [[4, 1], [1, 0]]


def _folds(rng, m, n_docs=60, shock=0.0):
    """2m folds of both systems on documents of 4 sentences; with ``shock``, documents 2i and 2i + 1 (related) are
    alike and share a shift of B's errors."""
    docs = np.arange(n_docs)
    hard = rng.random(n_docs) < 0.4
    if shock:
        hard = np.repeat(hard[::2], 2)
    shared = rng.random(n_docs // 2) < 0.5
    fa, fb, groups = [], [], []
    for j in range(m):
        side = rng.permutation(n_docs) < n_docs // 2
        for k in (0, 1):
            test = docs[side == bool(k)]
            sent = np.repeat(test, 4)
            a = np.stack([np.where(hard[sent], 1, 3), np.where(hard[sent], 2, 0), np.where(hard[sent], 2, 0)], 1)
            b = a.copy()
            fix = rng.random(len(sent)) < 0.1 + shock * shared[sent // 2]
            b[fix] = [3, 0, 0]
            fa.append(a)
            fb.append(b)
            groups.append(sent)
    return fa, fb, groups


def test_posterior_with_no_related_pairs_is_the_posterior_without():
    rng = np.random.default_rng(3)
    fa, fb, groups = _folds(rng, 3)
    p0 = paired_difference(fa, fb, groups, 3)
    p1 = paired_difference(fa, fb, groups, 3, related=np.zeros((0, 2), dtype=np.int64))
    assert p1.var_related == 0.0 and p0.var_related is None
    assert np.isclose(p0.var, p1.var, rtol=1e-12)


def test_related_covariance_joins_the_test_part_and_the_round_trip():
    rng = np.random.default_rng(5)
    fa, fb, groups = _folds(rng, 3, shock=0.5)
    pairs = np.array([[2 * i, 2 * i + 1] for i in range(30)])
    p0 = paired_difference(fa, fb, groups, 3)
    p1 = paired_difference(fa, fb, groups, 3, related=pairs)
    assert p1.var_related is not None and p1.var_related > 0
    # the test part is the clusters' own variance plus the related pairs' covariance
    assert np.isclose(p1.var_test, p0.var_test + p1.var_related, rtol=1e-9)
    assert type(p1).from_dict(p1.to_dict()) == p1
    # from moments: the same posterior
    blocks = [np.hstack([a, b]) for a, b in zip(fa, fb)]
    S, k = cluster_cross_products(blocks, groups)
    p2 = paired_difference_from_moments(S, k, np.array([a.sum(0) for a in fa]), np.array([b.sum(0) for b in fb]), 3,
                                        fold_clusters=[len(np.unique(g)) for g in groups],
                                        related=related_cross_products(blocks, groups, pairs))
    assert np.isclose(p2.var, p1.var, rtol=1e-12)
    # projected to more splits, the related part keeps its share of the test part
    p7 = p1.at_m(7)
    assert np.isclose(p7.var_related / p7.var_test, p1.var_related / p1.var_test)


def test_related_part_is_floored_at_zero():
    """Related clusters whose errors move apart would lower the test part; the posterior does not take that."""
    rng = np.random.default_rng(11)
    fa, fb, groups = _folds(rng, 2)
    # pair every document with one of opposite error direction: their products are negative on average
    z = []
    for a, b, g in zip(fa, fb, groups):
        z.append((g, (b[:, 0] - a[:, 0])))
    gain = np.zeros(60)
    for g, d in z:
        np.add.at(gain, g, d)
    order = np.argsort(gain)
    pairs = np.sort(np.stack([order[:30], order[::-1][:30]], axis=1), axis=1)
    p = paired_difference(fa, fb, groups, 2, related=pairs)
    p0 = paired_difference(fa, fb, groups, 2)
    assert p.var_related == 0.0
    assert p.var_test >= p0.var_test - 1e-15
