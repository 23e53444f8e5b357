"""Textbook tests on stored per-fold values (METHOD.md §6) — no model is re-fitted.

Each function returns a dict with at least ``statistic``, ``df`` (where it
applies) and ``p_value``. m×2 tests take an (m, 2) array of per-fold
differences d_k^(j) = metric_B − metric_A (or error_A − error_B; p_i^(j) in
Dietterich's notation), fold k of split j. scipy's distributions and tests
are used wherever scipy has them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import stats

__all__ = [
    "binomial_test", "t_test", "paired_t_test", "paired_t_5x2cv", "combined_f_5x2cv", "combined_t_5x2cv",
    "blocked_t_3x2", "corrected_resampled_t", "mcnemar_table", "mcnemar", "wilcoxon", "friedman",
    "nemenyi_cd", "bonferroni_dunn_cd",
]


def _two_sided(t: float, df: float) -> float:
    return float(2 * stats.t.sf(abs(t), df))


def _pairs(differences) -> np.ndarray:
    d = np.asarray(differences, dtype=float)
    if d.ndim != 2 or d.shape[1] != 2 or d.shape[0] < 1:
        raise ValueError(f"per-fold differences must have shape (m, 2), got {d.shape}")
    return d


def binomial_test(errors: int, n: int, eps0: float, alternative: str = "greater") -> dict:
    """Binomial test of one error rate: H0 ε ≤ ε0 (``greater``) from ``errors`` of ``n`` test examples.

    Examples
    --------
    >>> round(binomial_test(40, 100, 0.3)["p_value"], 4)
    0.021
    """
    r = stats.binomtest(int(errors), int(n), eps0, alternative=alternative)
    return {"statistic": errors / n, "p_value": float(r.pvalue), "n": n, "eps0": eps0}


def t_test(values: Sequence[float], mu0: float = 0.0, alpha: float = 0.05) -> dict:
    """t-test over k hold-out estimates: H0 μ = μ0, k − 1 df (scipy.stats.ttest_1samp) and its 1 − α CI.

    Examples
    --------
    >>> r = t_test([0.1, 0.12, 0.09, 0.11, 0.13], mu0=0.1)
    >>> round(r["statistic"], 4), r["df"]
    (1.4142, 4)
    """
    v = np.asarray(values, dtype=float)
    r = stats.ttest_1samp(v, mu0)
    half = float(stats.t.isf(alpha / 2, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v)))
    return {"statistic": float(r.statistic), "df": len(v) - 1, "p_value": float(r.pvalue),
            "mean": float(v.mean()), "ci": [float(v.mean()) - half, float(v.mean()) + half]}


def paired_t_test(values_a: Sequence[float], values_b: Sequence[float]) -> dict:
    """Paired k-fold t-test on per-fold values of A and B (scipy.stats.ttest_rel; statistic for B − A).

    Examples
    --------
    >>> round(paired_t_test([0.8, 0.82, 0.79], [0.81, 0.84, 0.80])["statistic"], 4)
    4.0
    """
    a, b = np.asarray(values_a, float), np.asarray(values_b, float)
    r = stats.ttest_rel(b, a)
    return {"statistic": float(r.statistic), "df": len(a) - 1, "p_value": float(r.pvalue)}


def _s2(d: np.ndarray) -> np.ndarray:
    # s_i² = (p_i1 − p̄_i)² + (p_i2 − p̄_i)² per split
    return ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)


def paired_t_5x2cv(differences) -> dict:
    """Dietterich's 5×2cv paired t-test (m×2 in general): t = p_1^(1) / √(Σ s_i²/m), m df.

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.015, 0.03], [0.0, 0.02], [0.01, 0.01], [0.025, 0.005]]
    >>> round(paired_t_5x2cv(d)["statistic"], 4)
    1.8856
    """
    d = _pairs(differences)
    m = d.shape[0]
    t = float(d[0, 0] / math.sqrt(_s2(d).sum() / m))
    return {"statistic": t, "df": m, "p_value": _two_sided(t, m)}


def combined_f_5x2cv(differences) -> dict:
    """Alpaydin's combined 5×2cv F-test: F = ΣΣ p² / (2 Σ s_i²) ~ F(2m, m).

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.015, 0.03], [0.0, 0.02], [0.01, 0.01], [0.025, 0.005]]
    >>> round(combined_f_5x2cv(d)["statistic"], 4)
    2.5556
    """
    d = _pairs(differences)
    m = d.shape[0]
    f = float((d ** 2).sum() / (2 * _s2(d).sum()))
    return {"statistic": f, "df": [2 * m, m], "p_value": float(stats.f.sf(f, 2 * m, m))}


def combined_t_5x2cv(differences) -> dict:
    """Yildiz's combined 5×2cv t-test: t = μ̂_m×2 / √(Σ s_i² / (2m·m)), m df (thesis eq. 5.50–5.51).

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.015, 0.03], [0.0, 0.02], [0.01, 0.01], [0.025, 0.005]]
    >>> round(combined_t_5x2cv(d)["statistic"], 4)
    4.3231
    """
    d = _pairs(differences)
    m = d.shape[0]
    t = float(d.mean() / math.sqrt(_s2(d).sum() / (2 * m * m)))
    return {"statistic": t, "df": m, "p_value": _two_sided(t, m)}


def blocked_t_3x2(differences) -> dict:
    """Blocked 3×2 cv t-test (Wang et al. 2014; m×2 in general): t = μ̂_m×2 / √Var2, Ĉ = 1, 2m − 1 df.

    Examples
    --------
    >>> round(blocked_t_3x2([[0.02, 0.01], [0.015, 0.03], [0.0, 0.02]])["statistic"], 4)
    1.6994
    """
    d = _pairs(differences)
    v = d.ravel()
    t = float(v.mean() / math.sqrt(np.mean((v - v.mean()) ** 2)))
    return {"statistic": t, "df": v.size - 1, "p_value": _two_sided(t, v.size - 1)}


def corrected_resampled_t(differences: Sequence[float], n_train: int, n_test: int) -> dict:
    """Nadeau & Bengio's corrected resampled t-test over J train/test repetitions.

    t = mean / √((1/J + n_test/n_train) s²), s² the sample variance (ddof 1), J − 1 df.

    Examples
    --------
    >>> round(corrected_resampled_t([0.01, 0.02, 0.015, 0.0, 0.01], 90, 10)["statistic"], 4)
    2.6592
    """
    d = np.asarray(differences, dtype=float).ravel()
    J = d.size
    t = float(d.mean() / math.sqrt((1 / J + n_test / n_train) * d.var(ddof=1)))
    return {"statistic": t, "df": J - 1, "p_value": _two_sided(t, J - 1)}


def mcnemar_table(correct_a: Sequence[bool], correct_b: Sequence[bool]) -> np.ndarray:
    """2×2 table [[both right, A right B wrong], [A wrong B right, both wrong]] (mlxtend's layout).

    Examples
    --------
    >>> mcnemar_table([1, 1, 0, 0, 1], [1, 0, 1, 0, 1]).tolist()
    [[2, 1], [1, 1]]
    """
    a, b = np.asarray(correct_a, bool), np.asarray(correct_b, bool)
    return np.array([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]])


def mcnemar(table, exact: bool = False, corrected: bool = True) -> dict:
    """McNemar's test on the discordant counts b = table[0][1], c = table[1][0].

    χ² = (|b − c| − 1)² / (b + c) with 1 df (``corrected``), or the exact
    two-sided binomial test of b out of b + c at ½.

    Examples
    --------
    >>> r = mcnemar([[50, 12], [4, 34]])
    >>> round(r["statistic"], 4), round(r["p_value"], 4)
    (3.0625, 0.0801)
    """
    t = np.asarray(table)
    b, c = int(t[0, 1]), int(t[1, 0])
    if exact:
        p = float(stats.binomtest(b, b + c, 0.5).pvalue) if b + c > 0 else 1.0
        return {"statistic": float(min(b, c)), "p_value": p, "b": b, "c": c}
    if b + c == 0:
        return {"statistic": 0.0, "df": 1, "p_value": 1.0, "b": b, "c": c}
    num = (abs(b - c) - 1) ** 2 if corrected else (b - c) ** 2
    chi2 = num / (b + c)
    return {"statistic": float(chi2), "df": 1, "p_value": float(stats.chi2.sf(chi2, 1)), "b": b, "c": c}


def wilcoxon(values_a: Sequence[float], values_b: Sequence[float], **kwargs) -> dict:
    """Wilcoxon signed-rank test of B − A (scipy.stats.wilcoxon; extra keywords go to scipy).

    Examples
    --------
    >>> r = wilcoxon([0.8, 0.7, 0.9, 0.6, 0.75, 0.85], [0.82, 0.74, 0.89, 0.65, 0.8, 0.9])
    >>> r["statistic"], round(r["p_value"], 4)
    (1.0, 0.0625)
    """
    r = stats.wilcoxon(np.asarray(values_b, float) - np.asarray(values_a, float), **kwargs)
    return {"statistic": float(r.statistic), "p_value": float(r.pvalue)}


def friedman(values, higher_is_better: bool = True, alpha: float = 0.05) -> dict:
    """Friedman test over N data sets × k systems, Iman–Davenport F, Nemenyi and Bonferroni–Dunn CDs (Demšar 2006).

    Ranks 1 = best, ties share the mean rank. ``chi2`` is scipy's
    ``friedmanchisquare`` (tie-corrected); ``chi2_uncorrected`` is the
    textbook 12N/(k(k+1)) [Σ R_j² − k(k+1)²/4]; F = (N−1)χ²/(N(k−1) − χ²)
    from the uncorrected χ² ~ F(k−1, (k−1)(N−1)).

    Examples
    --------
    >>> r = friedman([[3, 2, 1], [3, 1.5, 1.5], [3, 2, 1], [3, 2, 1]])  # watermelon book table 2.5
    >>> r["average_ranks"], round(r["F"], 3), round(r["nemenyi_cd"], 3)
    ([1.0, 2.125, 2.875], 24.429, 1.657)
    """
    v = np.asarray(values, dtype=float)
    N, k = v.shape
    if N < 2 or k < 3:
        raise ValueError(f"Friedman needs N >= 2 data sets and k >= 3 systems, got N={N}, k={k}")
    ranks = stats.rankdata(-v if higher_is_better else v, axis=1)
    R = ranks.mean(axis=0)
    chi2_plain = 12 * N / (k * (k + 1)) * (np.sum(R ** 2) - k * (k + 1) ** 2 / 4)
    sc = stats.friedmanchisquare(*v.T)
    f = (N - 1) * chi2_plain / (N * (k - 1) - chi2_plain) if N * (k - 1) > chi2_plain else math.inf
    df1, df2 = k - 1, (k - 1) * (N - 1)
    return {
        "average_ranks": R.tolist(),
        "chi2": float(sc.statistic), "chi2_p_value": float(sc.pvalue),
        "chi2_uncorrected": float(chi2_plain),
        "F": float(f), "F_df": [df1, df2], "F_p_value": float(stats.f.sf(f, df1, df2)),
        "nemenyi_cd": nemenyi_cd(k, N, alpha), "bonferroni_dunn_cd": bonferroni_dunn_cd(k, N, alpha),
    }


def nemenyi_cd(k: int, N: int, alpha: float = 0.05) -> float:
    """Nemenyi critical difference q_α √(k(k+1)/(6N)), q_α = studentized range quantile / √2.

    Examples
    --------
    >>> round(nemenyi_cd(3, 4), 3)
    1.657
    """
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    return float(q * math.sqrt(k * (k + 1) / (6 * N)))


def bonferroni_dunn_cd(k: int, N: int, alpha: float = 0.05) -> float:
    """Bonferroni–Dunn critical difference against a control: z_{α/(2(k−1))} √(k(k+1)/(6N)).

    Examples
    --------
    >>> round(bonferroni_dunn_cd(5, 10, 0.05), 3)   # Demšar's q_0.05 = 2.498 for k = 5
    1.766
    """
    q = stats.norm.isf(alpha / (2 * (k - 1)))
    return float(q * math.sqrt(k * (k + 1) / (6 * N)))
