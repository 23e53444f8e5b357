"""How good a set of splits is: overlap φ_ij and χ²/J between halves (docs/method.md §3)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from textbcv.split.profiles import group_rows

__all__ = ["chi2_per_df", "chi2_floor", "overlap_matrix", "overlap_max_deviation", "split_quality", "max_chi2_per_df"]


def chi2_per_df(train_counts: np.ndarray, valid_counts: np.ndarray, min_expected: float = 5.0) -> tuple[float, int]:
    """Pearson's homogeneity χ² between two halves divided by J, and J, after pooling rare categories.

    Categories expected fewer than ``min_expected`` times in a half are pooled; a pool still below it
    joins the smallest kept category. χ²/J is 0.0 when a half is empty or fewer than 2 categories remain.

    Parameters
    ----------
    train_counts, valid_counts : array_like
        Counts of every category in the two halves.
    min_expected : float
        Pooling threshold (default 5.0).

    Returns
    -------
    chi2_per_df : float
    J : int

    Examples
    --------
    >>> chi2_per_df(np.array([10, 20]), np.array([20, 10]))
    (3.3333333333333335, 2)
    """
    t = np.asarray(train_counts, dtype=np.float64)
    v = np.asarray(valid_counts, dtype=np.float64)
    col = t + v
    nz = col > 0
    t, v, col = t[nz], v[nz], col[nz]
    total = col.sum()
    if total == 0 or t.sum() == 0 or v.sum() == 0:
        return 0.0, int(nz.sum())
    ft, fv = t.sum() / total, v.sum() / total
    keep = np.minimum(col * ft, col * fv) >= min_expected
    T, V = list(t[keep]), list(v[keep])
    if (~keep).any():
        rt, rv = t[~keep].sum(), v[~keep].sum()
        if min((rt + rv) * ft, (rt + rv) * fv) >= min_expected or not T:
            T.append(rt)
            V.append(rv)
        else:
            k = int(np.argmin(np.array(T) + np.array(V)))
            T[k] += rt
            V[k] += rv
    Ta, Va = np.array(T), np.array(V)
    J = len(Ta)
    if J < 2:
        return 0.0, J
    C = Ta + Va
    Et, Ev = C * ft, C * fv
    chi2 = float((((Ta - Et) ** 2) / Et).sum() + (((Va - Ev) ** 2) / Ev).sum())
    return chi2 / J, J


def chi2_floor(counts, n_blocks: int, max_share: float | None = None, min_expected: float = 5.0) -> float:
    """Lower bound on the mean χ²/J over the N − 1 halves of any m = N − 1 BCV split of these whole units.

    Parameters
    ----------
    counts : sparse or dense (n_units, J)
        Category counts of the units that stay whole.
    n_blocks : int
        N.
    max_share : float, optional
        Largest share of the measure's total any block holds (default 1/N).
    min_expected : float
        The pooling rule of :func:`chi2_per_df`.

    Returns
    -------
    float

    Examples
    --------
    >>> X = np.array([[8, 0]] + [[0, 10]] * 6 + [[1, 2]] * 2)   # one unit holds 8 of 10
    >>> round(chi2_floor(X, 4), 3)
    2.689
    """
    M = sp.csc_matrix(counts, dtype=np.float64)
    M.sum_duplicates()
    N = int(n_blocks)
    tot = np.asarray(M.sum(axis=0)).ravel()
    share = 1.0 / N if max_share is None else max(float(max_share), 1.0 / N)
    fmin = 0.5 - (N / 2) * (share - 1.0 / N)  # the smallest share a half can then hold
    J = int((tot >= 2 * min_expected).sum()) + int(((tot > 0) & (tot < 2 * min_expected)).any())
    if fmin <= 0 or J < 2:
        return 0.0
    sure = np.flatnonzero(tot >= min_expected / fmin - 1e-9)
    def bound(a: np.ndarray, C: float) -> float:
        t = C * share
        x = a[a > t] - t
        return (float((x * x).sum()) + float(x.sum()) ** 2 / (N - 1)) / C

    vals = [bound(M.data[M.indptr[j]: M.indptr[j + 1]], tot[j]) for j in sure]
    pooled = np.flatnonzero((tot > 0) & (tot < min_expected / fmin))
    if len(sure) and len(pooled):  # a small pool may be merged into the smallest kept category
        k = int(np.argmin(tot[sure]))
        merged = np.asarray(M[:, np.r_[sure[k], pooled]].sum(axis=1)).ravel()
        vals[k] = min(vals[k], bound(merged[merged > 0], float(merged.sum())))
    return N / (N - 1) * float(np.sum(vals)) / J


def overlap_matrix(train: np.ndarray) -> np.ndarray:
    """φ_ij = |I_t,i ∩ I_t,j| for a boolean (m, n) matrix of training halves; the diagonal holds the half sizes.

    Parameters
    ----------
    train : (m, n) bool array

    Returns
    -------
    (m, m) int64 array

    Examples
    --------
    >>> overlap_matrix(np.array([[1, 1, 0, 0], [1, 0, 1, 0]], bool)).tolist()
    [[2, 1], [1, 2]]
    """
    A = np.asarray(train, dtype=np.int64)
    return A @ A.T


def overlap_max_deviation(train: np.ndarray) -> float:
    """max over i < j of |φ_ij − n/4| (0 for m = 1).

    Parameters
    ----------
    train : (m, n) bool array

    Returns
    -------
    float
    """
    m, n = np.shape(train)
    if m < 2:
        return 0.0
    phi = overlap_matrix(train)
    iu = np.triu_indices(m, 1)
    return float(np.abs(phi[iu] - n / 4).max())


def split_quality(train: np.ndarray, measures: dict[str, sp.csr_matrix], floor: bool = False,
                  groups: np.ndarray | None = None) -> dict:
    """The ``quality`` block of a split manifest (docs/formats.md).

    Parameters
    ----------
    train : (m, n) bool array
        Training-half membership of every sentence for every split.
    measures : dict of sparse (n, J)
        Category counts per sentence.
    floor : bool
        Add ``chi2_floor`` per measure (block designs with m = 3, 7, 15, ... only).
    groups : (n,) int array, optional
        Units that stay whole, for the floor (default sentences).

    Returns
    -------
    dict
    """
    train = np.asarray(train, dtype=bool)
    m, n = train.shape
    phi = overlap_matrix(train)
    sizes = train.sum(axis=1)
    q: dict = {
        "overlap_max_deviation": overlap_max_deviation(train),
        "overlap": {"n_over_4": n / 4,
                    "min": int(phi[np.triu_indices(m, 1)].min()) if m > 1 else None,
                    "max": int(phi[np.triu_indices(m, 1)].max()) if m > 1 else None},
        "half_sizes": [[int(s), int(n - s)] for s in sizes],
        "chi2_per_df": {},
        "categories": {},
    }
    for name, M in measures.items():
        M = sp.csr_matrix(M)
        total = np.asarray(M.sum(axis=0)).ravel()
        tr = np.asarray((sp.csr_matrix(train.astype(np.float64)) @ M).todense())
        vals, Js = [], []
        for i in range(m):
            c, J = chi2_per_df(tr[i], total - tr[i])
            vals.append(round(c, 6))
            Js.append(J)
        q["chi2_per_df"][name] = vals
        q["categories"][name] = Js
    blocks = _blocks_of(train) if floor else None
    if blocks is not None:
        N = m + 1
        g = np.arange(n) if groups is None else np.asarray(groups)
        q["chi2_floor"] = {}
        for name, M in measures.items():
            M = sp.csr_matrix(M)
            per_block = np.bincount(blocks, weights=np.asarray(M.sum(axis=1)).ravel(), minlength=N)
            share = per_block.max() / per_block.sum() if per_block.sum() > 0 else 1.0 / N
            q["chi2_floor"][name] = round(chi2_floor(group_rows(M, g), N, max_share=share), 6)
    return q


def _blocks_of(train: np.ndarray) -> np.ndarray | None:
    """Block id of every unit when the m halves are the N − 1 = m non-trivial Hadamard columns on N blocks."""
    m, n = train.shape
    N = m + 1
    if N < 4 or N & (N - 1) or m > 62:
        return None
    code = (train.astype(np.int64) << np.arange(m, dtype=np.int64)[:, None]).sum(axis=0)
    uniq, blocks = np.unique(code, return_inverse=True)
    return blocks.ravel() if len(uniq) == N else None


def max_chi2_per_df(train: np.ndarray, measures: dict[str, sp.csr_matrix]) -> float:
    """Largest χ²/J over all halves and measures (the thesis's selection criterion); 0.0 without measures.

    Parameters
    ----------
    train : (m, n) bool array
    measures : dict of str to (n, J) sparse matrix

    Returns
    -------
    float

    Examples
    --------
    >>> M = sp.csr_matrix(np.eye(2).repeat(20, axis=0))
    >>> max_chi2_per_df(np.array([[True] * 10 + [False] * 10 + [True] * 10 + [False] * 10]), {"x": M})
    0.0
    """
    q = split_quality(train, measures)["chi2_per_df"]
    return max((max(v) for v in q.values() if v), default=0.0)
