"""How good a set of splits is: overlap φ_ij and χ²/J between halves (METHOD.md §1, §3)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = ["chi2_per_df", "overlap_matrix", "overlap_max_deviation", "split_quality", "max_chi2_per_df"]


def chi2_per_df(train_counts: np.ndarray, valid_counts: np.ndarray, min_expected: float = 5.0) -> tuple[float, int]:
    """Pearson's homogeneity χ² between two halves divided by J, and J (after pooling).

    Categories whose expected count in either half is below ``min_expected``
    are pooled into one "rare" category first; if that pool is still below it,
    it is merged into the smallest kept category. Equals
    ``scipy.stats.chi2_contingency(table, correction=False)[0] / J`` on the
    pooled table.

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
    T, V = np.array(T), np.array(V)
    J = len(T)
    if J < 2:
        return 0.0, J
    C = T + V
    Et, Ev = C * ft, C * fv
    chi2 = float((((T - Et) ** 2) / Et).sum() + (((V - Ev) ** 2) / Ev).sum())
    return chi2 / J, J


def overlap_matrix(train: np.ndarray) -> np.ndarray:
    """φ_ij = |I_t,i ∩ I_t,j| for a boolean (m, n) matrix of training halves.

    Examples
    --------
    >>> overlap_matrix(np.array([[1, 1, 0, 0], [1, 0, 1, 0]], bool)).tolist()
    [[2, 1], [1, 2]]
    """
    A = np.asarray(train, dtype=np.int64)
    return A @ A.T


def overlap_max_deviation(train: np.ndarray) -> float:
    """max over i < j of |φ_ij − n/4| (0 for m = 1)."""
    m, n = np.shape(train)
    if m < 2:
        return 0.0
    phi = overlap_matrix(train)
    iu = np.triu_indices(m, 1)
    return float(np.abs(phi[iu] - n / 4).max())


def split_quality(train: np.ndarray, measures: dict[str, sp.csr_matrix]) -> dict:
    """The ``quality`` block of a split manifest.

    Parameters
    ----------
    train : (m, n) bool
        Training-half membership of every sentence for every split.
    measures : dict of sparse (n, J)
        Category counts per sentence.
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
    return q


def max_chi2_per_df(train: np.ndarray, measures: dict[str, sp.csr_matrix]) -> float:
    """Largest χ²/J over all halves and measures (the thesis's selection criterion).

    Examples
    --------
    >>> M = sp.csr_matrix(np.eye(2).repeat(20, axis=0))
    >>> max_chi2_per_df(np.array([[True] * 10 + [False] * 10 + [True] * 10 + [False] * 10]), {"x": M})
    0.0
    """
    q = split_quality(train, measures)["chi2_per_df"]
    return max((max(v) for v in q.values() if v), default=0.0)
