"""Rank tests on per-fold scores: Wilcoxon's signed-rank test of a pair; Friedman, Nemenyi and Bonferroni–Dunn
over many systems (Demšar 2006).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy
from scipy import stats

from .classic_result import (
    ClassicResult,
    _alpha,
    _count,
    _numbers,
    _paired,
    _result,
    _undefined,
)

__all__ = ["wilcoxon", "FriedmanResult", "friedman", "nemenyi_cd", "bonferroni_dunn_cd"]


#: scipy 1.13 renamed wilcoxon's method "approx" to "asymptotic".
_SCIPY = tuple(int(x) for x in scipy.__version__.split(".")[:2])
_ASYMPTOTIC = "asymptotic" if _SCIPY >= (1, 13) else "approx"


def _signed_rank_enumerated(nz: np.ndarray) -> tuple[float, float]:
    """min(R+, R−) and its exact two-sided p-value over all 2^n sign assignments of the mid-ranks of |nz|."""
    n = nz.size
    r = stats.rankdata(np.abs(nz))
    signs = (np.arange(2 ** n)[:, None] >> np.arange(n)) & 1
    r_plus = signs @ r
    observed = float(r[nz > 0].sum())
    center = float(r.sum()) / 2
    p = float(np.mean(np.abs(r_plus - center) >= abs(observed - center) - 1e-9))
    return min(observed, float(r.sum()) - observed), min(1.0, p)


def wilcoxon(values_a: Sequence[float] | np.ndarray, values_b: Sequence[float] | np.ndarray,
             **kwargs: Any) -> ClassicResult:
    """Wilcoxon signed-rank test of B − A (scipy.stats.wilcoxon); zero differences are dropped.

    Without a ``method`` keyword the p-value is exact up to 50 differences without ties and 13 with ties, else the
    normal approximation; ``form`` says which.

    Parameters
    ----------
    values_a, values_b : sequence of float
        Paired scores of A and B.
    **kwargs
        Passed to ``scipy.stats.wilcoxon`` (e.g. ``method``, ``alternative``).

    Returns
    -------
    ClassicResult
        Statistic min(R+, R−) (scipy's R+ when one-sided), ``n_nonzero`` in the details; undefined when every
        difference is 0.

    Examples
    --------
    >>> r = wilcoxon([0.8, 0.7, 0.9, 0.6, 0.75, 0.85], [0.82, 0.74, 0.89, 0.67, 0.81, 0.88])
    >>> r.statistic, round(r.p_value, 4), r.form
    (1.0, 0.0625, 'exact signed-rank distribution, 6 non-zero differences; two-sided')
    """
    a, b = _paired(values_a, values_b)
    d = b - a
    name = "Wilcoxon signed-rank"
    assumption = "the paired differences are independent and symmetric about their median"
    nz = d[d != 0]
    n = int(nz.size)
    if n == 0:
        return _undefined("wilcoxon", name, None, "signed-rank sum; two-sided", assumption,
                          "identical systems: every paired difference is 0")
    ties = np.unique(np.abs(nz)).size < n
    sided = str(kwargs.get("alternative", "two-sided"))
    sided = "two-sided" if sided == "two-sided" else f"one-sided ({sided})"
    if "method" in kwargs:
        r = stats.wilcoxon(d, **kwargs)
        form = f"scipy.stats.wilcoxon({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"
    elif not ties and n <= 50:
        r = stats.wilcoxon(nz, method="exact", **kwargs)
        form = f"exact signed-rank distribution, {n} non-zero differences; {sided}"
    elif ties and n <= 13 and not kwargs:
        statistic, p = _signed_rank_enumerated(nz)
        form = f"exact: all 2^{n} sign assignments of the mid-ranks ({n} non-zero differences, tied); two-sided"
        return _result("wilcoxon", name, statistic, None, p, form, assumption, n_nonzero=n)
    else:
        r = stats.wilcoxon(nz, method=_ASYMPTOTIC, **kwargs)
        form = f"normal approximation, tie-corrected variance, {n} non-zero differences; {sided}"
    return _result("wilcoxon", name, r.statistic, None, r.pvalue, form, assumption, n_nonzero=n)


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman test over N data sets × k systems, with Nemenyi and Bonferroni–Dunn critical differences.

    Attributes
    ----------
    average_ranks : tuple of float
        Of each system (1 = best; ties share the mean rank).
    n, k : int
        Data sets and systems.
    chi2 : ClassicResult
        Friedman's χ² (tie-corrected), k − 1 df.
    iman_davenport : ClassicResult
        F = (N−1)χ²/(N(k−1) − χ²) from the uncorrected χ², ~ F(k−1, (k−1)(N−1)).
    chi2_uncorrected : float
    alpha : float
        Level of the critical differences.
    nemenyi_cd, bonferroni_dunn_cd : float
    """

    average_ranks: tuple[float, ...]
    n: int
    k: int
    chi2: ClassicResult
    iman_davenport: ClassicResult
    chi2_uncorrected: float
    alpha: float
    nemenyi_cd: float
    bonferroni_dunn_cd: float

    def differing_pairs(self) -> list[tuple[int, int]]:
        """Pairs (i, j), i < j, of system columns whose average ranks differ by more than the Nemenyi CD.

        Returns
        -------
        list of (int, int)
        """
        r = self.average_ranks
        return [(i, j) for i in range(self.k) for j in range(i + 1, self.k) if abs(r[i] - r[j]) > self.nemenyi_cd]

    def to_dict(self) -> dict:
        """JSON-ready form, with ``nemenyi_differing_pairs``.

        Returns
        -------
        dict
        """
        return {"average_ranks": list(self.average_ranks), "n": self.n, "k": self.k, "chi2": self.chi2.to_dict(),
                "iman_davenport": self.iman_davenport.to_dict(), "chi2_uncorrected": self.chi2_uncorrected,
                "alpha": self.alpha, "nemenyi_cd": self.nemenyi_cd, "bonferroni_dunn_cd": self.bonferroni_dunn_cd,
                "nemenyi_differing_pairs": [list(p) for p in self.differing_pairs()]}


def friedman(values: Any, higher_is_better: bool = True, alpha: float = 0.05) -> FriedmanResult:
    """Friedman test, Iman–Davenport F, Nemenyi and Bonferroni–Dunn CDs over N data sets × k systems (Demšar 2006).

    Parameters
    ----------
    values : array_like, shape (N, k)
        ``values[i, j]``: score of system j on data set i; k ≥ 3, N ≥ 2.
    higher_is_better : bool
        False for losses such as error rates.
    alpha : float
        Level of the critical differences.

    Returns
    -------
    FriedmanResult

    Examples
    --------
    >>> r = friedman([[3, 2, 1], [3, 1.5, 1.5], [3, 2, 1], [3, 2, 1]])  # watermelon book table 2.5
    >>> r.average_ranks, round(r.iman_davenport.statistic, 3), round(r.nemenyi_cd, 3)
    ((1.0, 2.125, 2.875), 24.429, 1.657)
    """
    v = _numbers(values, "values")
    alpha = _alpha(alpha)
    if v.ndim != 2:
        raise ValueError("values must be a 2-D array, one row per data set and one column per system (N × k), "
                         f"got shape {v.shape}")
    N, k = v.shape
    if N < 2 or k < 3:
        raise ValueError(f"Friedman needs N >= 2 data sets (rows) and k >= 3 systems (columns), got N={N}, k={k}")
    ranks = stats.rankdata(-v if higher_is_better else v, axis=1)
    R = ranks.mean(axis=0)
    chi2_plain = float(12 * N / (k * (k + 1)) * (np.sum(R ** 2) - k * (k + 1) ** 2 / 4))
    assumption = "the N data sets are independent blocks and, under H0, the k systems' ranks exchangeable"
    form_chi2 = f"Friedman χ² (tie-corrected), k − 1 = {k - 1} df; upper tail"
    df1, df2 = k - 1, (k - 1) * (N - 1)
    form_f = f"Iman–Davenport F = (N−1)χ² / (N(k−1) − χ²) ~ F({df1}, {df2}); upper tail"
    all_tied = bool(np.all(ranks == (k + 1) / 2))
    if all_tied:
        reason = "identical systems: every data set ranks all systems equal"
        chi2 = _undefined("friedman_chi2", "Friedman χ²", df1, form_chi2, assumption, reason)
        f = _undefined("iman_davenport", "Friedman, Iman–Davenport F", (df1, df2), form_f, assumption, reason)
    else:
        sc = stats.friedmanchisquare(*v.T)
        chi2 = _result("friedman_chi2", "Friedman χ²", sc.statistic, df1, sc.pvalue, form_chi2, assumption)
        denominator = N * (k - 1) - chi2_plain
        if denominator <= 1e-9 * N * (k - 1):
            f = _undefined("iman_davenport", "Friedman, Iman–Davenport F", (df1, df2), form_f, assumption,
                           "every data set ranks the systems in the same order, so N(k−1) − χ² = 0 "
                           "(F is infinite); read the χ² form")
        else:
            fv = (N - 1) * chi2_plain / denominator
            f = _result("iman_davenport", "Friedman, Iman–Davenport F", fv, (df1, df2), stats.f.sf(fv, df1, df2),
                        form_f, assumption)
    return FriedmanResult(tuple(float(x) for x in R), N, k, chi2, f, chi2_plain, alpha,
                          nemenyi_cd(k, N, alpha), bonferroni_dunn_cd(k, N, alpha))


def _k_n(k: Any, N: Any) -> tuple[int, int]:
    k, N = _count(k, "k"), _count(N, "N")
    if k < 2:
        raise ValueError(f"k is {k}; a critical difference compares at least 2 systems")
    if N < 1:
        raise ValueError("N is 0; a critical difference needs at least one data set")
    return k, N


def nemenyi_cd(k: int, N: int, alpha: float = 0.05) -> float:
    """Nemenyi critical difference of average ranks, q_α √(k(k+1)/(6N)), q_α = studentized range quantile / √2.

    Parameters
    ----------
    k : int
        Systems, ≥ 2.
    N : int
        Data sets, ≥ 1.
    alpha : float
        Family-wise level.

    Returns
    -------
    float

    Examples
    --------
    >>> round(nemenyi_cd(3, 4), 3)
    1.657
    """
    k, N = _k_n(k, N)
    alpha = _alpha(alpha)
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    return float(q * math.sqrt(k * (k + 1) / (6 * N)))


def bonferroni_dunn_cd(k: int, N: int, alpha: float = 0.05) -> float:
    """Bonferroni–Dunn critical difference against a control: z_{α/(2(k−1))} √(k(k+1)/(6N)).

    Parameters
    ----------
    k : int
        Systems including the control, ≥ 2.
    N : int
        Data sets, ≥ 1.
    alpha : float
        Family-wise level over the k − 1 comparisons.

    Returns
    -------
    float

    Examples
    --------
    >>> round(bonferroni_dunn_cd(5, 10, 0.05), 3)   # Demšar's q_0.05 = 2.498 for k = 5
    1.766
    """
    k, N = _k_n(k, N)
    alpha = _alpha(alpha)
    q = stats.norm.isf(alpha / (2 * (k - 1)))
    return float(q * math.sqrt(k * (k + 1) / (6 * N)))
