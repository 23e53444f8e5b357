"""The lazily stacked objective (:class:`textbcv.split.balance.StackedCounts`) changes no result.

``objective`` no longer builds the stacked count matrix X up front: its rows,
column totals and row minima come from the per-measure pieces, and the
entries are stacked only when a step (refinement, polish) reads them. These
tests pin that down against the straightforward path:

* X itself (once stacked), its rows, totals and weights are bit-identical to
  the one-pass build of main (frozen here as ``_objective_one_pass``), on
  random measures with pooled and zero-total columns, explicit zeros, empty
  rows, integer and non-integer counts;
* the rarity order is the one of main's lexsort on the full X;
* the radix-sort helpers equal ``np.argsort(kind="stable")`` / ``np.lexsort``;
* ``split_units`` gives the same blocks with the lazy X as with a fully built
  plain CSR X, both with the default budgets (refinement and polish run) and
  with budgets as at 10^6 sentences (no refinement, greedy truncated) — where
  X must then never be stacked whole.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textbcv.split import split_units
from textbcv.split.balance import (
    DEFAULT_WEIGHTS,
    MIN_COUNT,
    StackedCounts,
    dealing,
    descent,
    objective,
    rarity_order,
    search,
)

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _objective_one_pass(measures, weights=None, min_count=MIN_COUNT):
    """main's objective (commit 55a8ad0), verbatim: the whole matrix in one pass."""
    weights = {**DEFAULT_WEIGHTS, **(weights or {})}
    n = next(iter(measures.values())).shape[0] if measures else 0
    parts, ws, K0 = [], [], 0
    for name, M in measures.items():
        M = sp.csr_matrix(M)
        if M.shape[1] == 0 or M.nnz == 0:
            continue
        M.sum_duplicates()
        tot = np.bincount(M.indices, weights=M.data, minlength=M.shape[1])
        keep = tot >= min_count
        rare = (~keep) & (tot > 0)
        C = np.r_[tot[keep], tot[rare].sum()] if rare.any() else tot[keep]
        J = len(C)
        if J < 2:
            continue
        newcol = np.full(M.shape[1], -1, dtype=np.int32)
        newcol[keep] = np.arange(int(keep.sum()), dtype=np.int32)
        kc = newcol[M.indices]
        k = kc >= 0
        ptr = M.indptr.astype(np.int64)
        lens = np.diff(np.r_[0, np.cumsum(k)][ptr])
        rsum = None
        if rare.any():
            cs = np.r_[0.0, np.cumsum(np.where(k, 0.0, M.data))]
            rsum = cs[ptr[1:]] - cs[ptr[:-1]]
        parts.append((lens, kc[k] + K0, M.data[k], rsum, K0 + J - 1))
        ws.append(weights.get(name, 1.0) / (np.maximum(C, 1) * J))
        K0 += J
    if not parts:
        return sp.csr_matrix((n, 0)), np.zeros(0)
    rowlen = np.zeros(n, dtype=np.int64)
    for lens, _, _, rsum, _ in parts:
        rowlen += lens
        if rsum is not None:
            rowlen += rsum > 0
    indptr = np.r_[0, np.cumsum(rowlen)]
    nnz = int(indptr[-1])
    indices = np.empty(nnz, dtype=np.int32)
    data = np.empty(nnz, dtype=np.float64)
    offset = indptr[:-1].copy()
    for lens, cols, d, rsum, pooled in parts:
        dest = np.arange(len(cols), dtype=np.int64) + np.repeat(offset - np.r_[0, np.cumsum(lens)[:-1]], lens)
        indices[dest] = cols
        data[dest] = d
        offset += lens
        if rsum is not None:
            has = np.flatnonzero(rsum > 0)
            indices[offset[has]] = pooled
            data[offset[has]] = rsum[has]
            offset[has] += 1
    X = sp.csr_matrix((data, indices, indptr.astype(np.int32 if nnz < 2**31 else np.int64)), shape=(n, K0))
    return X, np.concatenate(ws)


def _rarity_order_full(X, weight, rng):
    """main's rarity_order (commit 55a8ad0), verbatim: lexsort on the full X."""
    X = sp.csr_matrix(X)
    n, K = X.shape
    key = np.full(n, K, dtype=np.int64)
    if X.nnz:
        tot = np.asarray(X.sum(axis=0)).ravel()
        crank = np.empty(K, dtype=np.int64)
        crank[np.lexsort((np.arange(K), tot))] = np.arange(K)
        has = np.diff(X.indptr) > 0
        key[has] = np.minimum.reduceat(crank[X.indices], X.indptr[:-1][has])
    return np.lexsort((rng.random(n), key, -np.asarray(weight)))


def _measures(rng: np.random.Generator, n: int, fractional: bool = False, empty_rows: float = 0.1) -> dict:
    """Label, lemma and length counts with rare (pooled) and zero-total columns, explicit zeros and empty rows."""
    L = rng.integers(0, 25, n)
    L[rng.random(n) < empty_rows] = 0  # sentences without any lemma
    rows = np.repeat(np.arange(n), L)
    V = int(rng.integers(5, 400))
    p = 1.0 / np.arange(1, V + 1) ** rng.uniform(0.8, 1.6)
    lem = rng.choice(V, size=len(rows), p=p / p.sum())
    vals = rng.random(len(rows)) * 3 if fractional else np.ones(len(rows), dtype=np.int64)
    vals[rng.random(len(rows)) < 0.02] = 0  # explicit zeros stay in the input
    lemma = sp.coo_matrix((vals, (rows, lem)), shape=(n, V + 3)).tocsr()  # duplicates summed; 3 empty columns
    nl = rng.poisson(rng.uniform(0.2, 2.0), n)
    lr = np.repeat(np.arange(n), nl)
    label = sp.csr_matrix((np.ones(len(lr)), (lr, rng.integers(0, int(rng.integers(1, 10)), len(lr)))), shape=(n, 9))
    bins = np.minimum(L // 4, 6)
    length = sp.csr_matrix((np.ones(n, dtype=np.int32), (np.arange(n), bins)), shape=(n, 7))
    out = {"label": label, "lemma": lemma, "length": length}
    keys = list(out)
    rng.shuffle(keys)  # the measures' order is the segments' order
    return {k: out[k] for k in keys[: int(rng.integers(1, 4))]}


def _same_csr(A: sp.csr_matrix, B: sp.csr_matrix) -> None:
    assert A.shape == B.shape
    np.testing.assert_array_equal(A.indptr, B.indptr)
    np.testing.assert_array_equal(A.indices, B.indices)
    assert A.data.dtype == B.data.dtype == np.float64
    assert A.data.tobytes() == B.data.tobytes()  # bit for bit


@settings(max_examples=60, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 400), fractional=st.booleans(),
       min_count=st.sampled_from([1, MIN_COUNT, 40]))
def test_stacked_counts_equal_one_pass_build(seed, n, fractional, min_count):
    rng = np.random.default_rng(seed)
    measures = _measures(rng, n, fractional)
    ref, W_ref = _objective_one_pass({k: v.copy() for k, v in measures.items()}, min_count=min_count)
    X, W = objective({k: v.copy() for k, v in measures.items()}, min_count=min_count)
    assert W.tobytes() == W_ref.tobytes()
    assert X.shape == ref.shape
    if not isinstance(X, StackedCounts):  # nothing to balance
        _same_csr(X, ref)
        return
    assert X.nnz == ref.nnz and not X.stacked
    np.testing.assert_array_equal(X.indptr, ref.indptr)
    assert X.column_totals().tobytes() == np.asarray(ref.sum(axis=0)).ravel().tobytes()
    items = rng.integers(0, n, int(rng.integers(0, 2 * n)))  # repeats and any order
    _same_csr(X.rows(items), ref[items])
    _same_csr(X.rows(np.arange(0)), ref[np.arange(0)])
    crank = rng.permutation(X.shape[1]).astype(np.int32)
    has, low = X.row_min(crank)
    full = np.diff(ref.indptr) > 0
    np.testing.assert_array_equal(has, full)
    if full.any():
        np.testing.assert_array_equal(low, np.minimum.reduceat(crank[ref.indices], ref.indptr[:-1][full]))
    assert not X.stacked  # none of the above stacked X
    _same_csr(X.csr(), ref)  # first use of the entries stacks them
    assert X.stacked and X.csr() is X.csr()
    _same_csr(X.rows(items), ref[items])
    assert X.column_totals().tobytes() == np.asarray(ref.sum(axis=0)).ravel().tobytes()


@settings(max_examples=40, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), fractional=st.booleans())
def test_rarity_order_equals_lexsort_on_full_matrix(seed, n, fractional):
    rng = np.random.default_rng(seed)
    measures = _measures(rng, n, fractional)
    X, _ = objective({k: v.copy() for k, v in measures.items()})
    ref, _ = _objective_one_pass({k: v.copy() for k, v in measures.items()})
    weight = rng.choice([1, 1, 1, 2, 5], size=n) if rng.random() < 0.5 else np.ones(n, dtype=np.int64)
    got = rarity_order(X, weight, np.random.default_rng(seed + 1))
    np.testing.assert_array_equal(got, _rarity_order_full(ref, weight, np.random.default_rng(seed + 1)))
    assert not isinstance(X, StackedCounts) or not X.stacked


@given(key=st.lists(st.one_of(st.integers(0, 5), st.integers(0, 2**16 + 3), st.integers(-3, 2**33)), max_size=200))
@settings(max_examples=200, **SETTINGS)
def test_radix_argsort_equals_stable_argsort(key):
    key = np.array(key, dtype=np.int64)
    np.testing.assert_array_equal(dealing._argsort_int(key), np.argsort(key, kind="stable"))
    rng = np.random.default_rng(len(key))
    for r in (rng.random(len(key)), rng.choice([0.0, 0.25, 0.5, 0.75], size=len(key))):  # ties in r or not
        np.testing.assert_array_equal(dealing._lexsort_random(r, key), np.lexsort((r, key)))
        small = np.abs(key) % 7
        np.testing.assert_array_equal(dealing._lexsort_random(r, small), np.lexsort((r, small)))


CASES = [  # n, m, with groups (duplicates / documents: item weights > 1), seed
    (7, 3, False, 0), (40, 3, True, 1), (150, 7, False, 2), (300, 15, True, 3), (600, 7, True, 4),
    (1000, 15, False, 5), (2500, 31, True, 6)]


@pytest.mark.parametrize("budgets", ["default", "as-at-10^6"])
@pytest.mark.parametrize("n, m, grouped, seed", CASES)
def test_split_units_same_blocks_as_full_matrix(monkeypatch, budgets, n, m, grouped, seed):
    rng = np.random.default_rng(seed)
    measures = _measures(rng, n, fractional=False, empty_rows=0.2)
    groups = rng.integers(0, max(4, (3 * n) // 4), n) if grouped else None
    if budgets == "as-at-10^6":  # no refinement, no polish, greedy re-dealing only the first (rarest) rounds
        nnz = objective({k: v.copy() for k, v in measures.items()})[0].nnz
        monkeypatch.setattr(descent, "WORK_BUDGET", 0.5)
        monkeypatch.setattr(search, "POLISH_BUDGET", 7.5)
        monkeypatch.setattr(dealing, "GREEDY_BUDGET", nnz / 4)
    seen = []
    lazy_objective = objective

    def spy(*a, **kw):
        X, W = lazy_objective(*a, **kw)
        seen.append(X)
        return X, W

    monkeypatch.setattr("textbcv.split.designs.objective", spy)
    lazy = split_units(n, m, measures={k: v.copy() for k, v in measures.items()}, groups=groups, seed=seed,
                       quality=False)
    assert isinstance(seen[0], StackedCounts) or (n < 100 and seen[0].shape[1] == 0)
    if budgets == "as-at-10^6" and n >= 100:
        assert not seen[0].stacked  # the whole X was never stacked
    monkeypatch.setattr("textbcv.split.designs.objective", _objective_one_pass)  # plain CSR, built whole
    full = split_units(n, m, measures={k: v.copy() for k, v in measures.items()}, groups=groups, seed=seed,
                       quality=False)
    for (t1, v1), (t2, v2) in zip(lazy.splits, full.splits, strict=True):
        np.testing.assert_array_equal(t1, t2)
        np.testing.assert_array_equal(v1, v2)
