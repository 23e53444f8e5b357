"""Textbook tests on stored per-fold values; no model is re-fitted. See docs/method.md, "10. Textbook tests".

Every test returns a :class:`ClassicResult`. Bad input (NaN, negative or non-integer counts, a wrong shape, an
impossible ``alpha``) raises ``ValueError`` naming the argument; a degenerate one (zero variance, identical
systems) gives ``statistic`` and ``p_value`` None and ``undefined`` the reason. m×2 tests take an (m, 2) array
of per-fold differences metric_B − metric_A, fold k of split j at ``[j, k]``. McNemar's and the rank tests
(:mod:`.mcnemar`, :mod:`.ranks`) are importable from here.

Examples
--------
>>> r = paired_t_5x2cv([[0.02, 0.01], [0.015, 0.03], [0.0, 0.02], [0.01, 0.01], [0.025, 0.005]])
>>> round(r.statistic, 4), r.df, round(r.p_value, 4)
(1.8856, 5, 0.118)
>>> paired_t_5x2cv([[0.01, 0.01]] * 5).undefined
'zero variance: in every split both folds give the same difference, so Σ s_i² = 0'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .classic_result import (
    ClassicResult,
    _alpha,
    _count,
    _no_spread,
    _numbers,
    _paired,
    _pairs,
    _positive,
    _result,
    _two_sided,
    _undefined,
    _zero_reason,
)
from .mcnemar import mcnemar, mcnemar_table
from .ranks import FriedmanResult, bonferroni_dunn_cd, friedman, nemenyi_cd, wilcoxon

__all__ = [
    "ClassicResult", "FriedmanResult", "PairTests",
    "binomial_test", "t_test", "paired_t_test", "welch_t_test", "paired_t_5x2cv", "combined_f_5x2cv",
    "combined_t_5x2cv",
    "blocked_t_3x2", "corrected_resampled_t", "mcnemar_table", "mcnemar", "wilcoxon", "friedman",
    "nemenyi_cd", "bonferroni_dunn_cd", "mx2_tests",
]



# ----------------------------------------------------------------------------- single estimates


def binomial_test(errors: int, n: int, eps0: float, alternative: str = "greater") -> ClassicResult:
    """Exact binomial test of one error rate ε from ``errors`` of ``n`` test examples.

    Parameters
    ----------
    errors : int
        Misclassified test examples, 0 ≤ ``errors`` ≤ ``n``.
    n : int
        Test examples, ≥ 1.
    eps0 : float
        ε0 of H0, in (0, 1).
    alternative : {"greater", "less", "two-sided"}
        H1: ε > ε0, ε < ε0, or ε ≠ ε0.

    Returns
    -------
    ClassicResult
        Statistic ``errors / n``.

    Examples
    --------
    >>> round(binomial_test(40, 100, 0.3).p_value, 4)
    0.021
    """
    n = _count(n, "n")
    errors = _count(errors, "errors")
    if n < 1:
        raise ValueError("n is 0; the test needs at least one test example")
    if errors > n:
        raise ValueError(f"errors is {errors}, more than n = {n}")
    eps0 = _alpha(eps0, "eps0")
    if alternative not in ("greater", "less", "two-sided"):
        raise ValueError(f"alternative must be 'greater', 'less' or 'two-sided', got {alternative!r}")
    r = stats.binomtest(errors, n, eps0, alternative=alternative)
    return _result("binomial", "binomial test of an error rate", errors / n, None, r.pvalue,
                   f"exact binomial, {alternative}, ε0 = {eps0:g}",
                   "the n test examples are independent and share one error probability", n=n, eps0=eps0)


def t_test(values: Sequence[float], mu0: float = 0.0, alpha: float = 0.05) -> ClassicResult:
    """Two-sided t-test of H0 μ = μ0 over k hold-out estimates, k − 1 df; ``mean`` and ``ci`` in the details.

    Parameters
    ----------
    values : sequence of float
        The k ≥ 2 estimates.
    mu0 : float
        In the units of ``values``.
    alpha : float
        ``ci`` is the 1 − alpha t interval of the mean.

    Returns
    -------
    ClassicResult

    Examples
    --------
    >>> r = t_test([0.1, 0.12, 0.09, 0.11, 0.13], mu0=0.1)
    >>> round(r.statistic, 4), r.df
    (1.4142, 4)
    """
    v = _numbers(values, "values")
    if v.ndim != 1 or v.size < 2:
        raise ValueError(f"values must be a one-dimensional sequence of at least 2 estimates, got shape {v.shape}")
    mu0 = float(_numbers(mu0, "mu0"))
    alpha = _alpha(alpha)
    name, k = "t-test over k hold-out estimates", v.size
    form = f"t = (mean − μ0) / (s / √k), k − 1 = {k - 1} df; two-sided"
    assumption = "the k estimates are independent and normal (repeated hold-out sets overlap: optimistic)"
    if _no_spread(float(((v - v.mean()) ** 2).sum()), v):
        return _undefined("t", name, k - 1, form, assumption, f"zero variance: every estimate equals {v[0]:.6g}",
                          mean=float(v.mean()))
    r = stats.ttest_1samp(v, mu0)
    half = float(stats.t.isf(alpha / 2, k - 1) * v.std(ddof=1) / math.sqrt(k))
    return _result("t", name, r.statistic, k - 1, r.pvalue, form, assumption,
                   mean=float(v.mean()), ci=[float(v.mean()) - half, float(v.mean()) + half])


def paired_t_test(values_a: Sequence[float], values_b: Sequence[float]) -> ClassicResult:
    """Two-sided paired k-fold t-test of the differences B − A, k − 1 df.

    Parameters
    ----------
    values_a, values_b : sequence of float
        The k ≥ 2 per-fold scores of A and B, in the same fold order.

    Returns
    -------
    ClassicResult

    Examples
    --------
    >>> round(paired_t_test([0.8, 0.82, 0.79], [0.81, 0.84, 0.80]).statistic, 4)
    4.0
    """
    a, b = _paired(values_a, values_b, minimum=2)
    d = b - a
    name, form = "paired k-fold t", f"t = mean(d) / (s_d / √k), k − 1 = {a.size - 1} df; two-sided"
    assumption = "the k differences are independent and normal (k-fold training sets overlap: optimistic)"
    if _no_spread(float(((d - d.mean()) ** 2).sum()), d):
        return _undefined("paired_t", name, a.size - 1, form, assumption, _zero_reason(d))
    r = stats.ttest_rel(b, a)
    return _result("paired_t", name, r.statistic, a.size - 1, r.pvalue, form, assumption)


def welch_t_test(values_a: Sequence[float], values_b: Sequence[float]) -> ClassicResult:
    """Two-sided Welch t-test of mean(B) = mean(A) over two systems' independent scores (e.g. one per seed).

    Parameters
    ----------
    values_a, values_b : sequence of float
        At least 2 scores each (any lengths).

    Returns
    -------
    ClassicResult
        ``mean_difference`` (B − A) in the details.

    Examples
    --------
    >>> r = welch_t_test([0.80, 0.82, 0.79], [0.81, 0.84, 0.83])
    >>> round(r.statistic, 3), round(r.p_value, 3)
    (1.871, 0.135)
    """
    a, b = _numbers(values_a, "values_a"), _numbers(values_b, "values_b")
    if a.ndim != 1 or b.ndim != 1 or a.size < 2 or b.size < 2:
        raise ValueError("values_a and values_b must each hold at least 2 scores")
    name = "Welch t-test over the seeds' scores"
    form = "t = (mean_B − mean_A) / √(s_A²/k_A + s_B²/k_B), Welch–Satterthwaite df; two-sided"
    assumption = "each seed's score is an independent draw; the test set's own noise, shared by every seed, is left out"
    d = float(b.mean() - a.mean())
    spread = float(((a - a.mean()) ** 2).sum() + ((b - b.mean()) ** 2).sum())
    if _no_spread(spread, np.concatenate([a, b])):
        return _undefined("welch_t", name, None, form, assumption, "zero variance: every seed scores the same",
                          mean_difference=d)
    r = stats.ttest_ind(b, a, equal_var=False)
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    df = (va + vb) ** 2 / (va ** 2 / (a.size - 1) + vb ** 2 / (b.size - 1))
    return _result("welch_t", name, r.statistic, float(df), r.pvalue, form, assumption, mean_difference=d)


# ----------------------------------------------------------------------------- m×2 designs


def _s2(d: np.ndarray) -> np.ndarray:
    # s_i² = (p_i1 − p̄_i)² + (p_i2 − p̄_i)² per split
    return ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)


_WITHIN_ZERO = "zero variance: in every split both folds give the same difference, so Σ s_i² = 0"


def _within_zero(d: np.ndarray) -> str | None:
    if not np.any(d):
        return "identical systems: every per-fold difference is 0"
    if _no_spread(float(_s2(d).sum()), d):
        return _WITHIN_ZERO
    return None


def paired_t_5x2cv(differences: Any) -> ClassicResult:
    """Dietterich's 5×2cv paired t-test: t = p_1^(1) / √(Σ s_i²/5), 5 df (m×2: m df); two-sided.

    Parameters
    ----------
    differences : array_like, shape (m, 2)
        Per-fold differences B − A; p_1^(1) is ``differences[0, 0]``.

    Returns
    -------
    ClassicResult
        Undefined when every difference is 0 or no split has within-split spread.

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.015, 0.03], [0.0, 0.02], [0.01, 0.01], [0.025, 0.005]]
    >>> round(paired_t_5x2cv(d).statistic, 4)
    1.8856
    """
    d = _pairs(differences)
    m = d.shape[0]
    name = "5×2cv paired t (Dietterich 1998)" if m == 5 else f"{m}×2cv paired t (Dietterich's 5×2cv form)"
    form = f"t = p₁⁽¹⁾ / √(Σ s_i² / {m}), {m} df; two-sided"
    assumption = ("the fold differences are normal, the splits independent random halvings, and p₁⁽¹⁾ "
                  "independent of the s_i²")
    why = _within_zero(d)
    if why:
        return _undefined("paired_t_5x2cv", name, m, form, assumption, why)
    t = float(d[0, 0] / math.sqrt(_s2(d).sum() / m))
    return _result("paired_t_5x2cv", name, t, m, _two_sided(t, m), form, assumption)


def combined_f_5x2cv(differences: Any) -> ClassicResult:
    """Alpaydin's combined 5×2cv F-test: F = ΣΣ p² / (2 Σ s_i²) ~ F(10, 5) (m×2: F(2m, m)); upper tail.

    Parameters
    ----------
    differences : array_like, shape (m, 2)
        Per-fold differences B − A.

    Returns
    -------
    ClassicResult
        Undefined as for :func:`paired_t_5x2cv`.

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.015, 0.03], [0.0, 0.02], [0.01, 0.01], [0.025, 0.005]]
    >>> round(combined_f_5x2cv(d).statistic, 4)
    2.5556
    """
    d = _pairs(differences)
    m = d.shape[0]
    name = "combined 5×2cv F (Alpaydin 1999)" if m == 5 else f"combined {m}×2cv F (Alpaydin's form)"
    form = f"F = Σ Σ (p_i⁽ʲ⁾)² / (2 Σ s_i²) ~ F({2 * m}, {m}); H0 mean difference 0, upper tail"
    assumption = "the 2m fold differences are normal and independent with equal variance (folds overlap in fact)"
    why = _within_zero(d)
    if why:
        return _undefined("combined_f_5x2cv", name, (2 * m, m), form, assumption, why)
    f = float((d ** 2).sum() / (2 * _s2(d).sum()))
    return _result("combined_f_5x2cv", name, f, (2 * m, m), stats.f.sf(f, 2 * m, m), form, assumption)


def combined_t_5x2cv(differences: Any) -> ClassicResult:
    """Yildiz's combined 5×2cv t-test: t = p̄ / √(Σ s_i² / 50), 5 df (m×2: p̄ / √(Σ s_i² / (2m·m)), m df).

    Parameters
    ----------
    differences : array_like, shape (m, 2)
        Per-fold differences B − A.

    Returns
    -------
    ClassicResult
        Two-sided; undefined as for :func:`paired_t_5x2cv`.

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.015, 0.03], [0.0, 0.02], [0.01, 0.01], [0.025, 0.005]]
    >>> round(combined_t_5x2cv(d).statistic, 4)
    4.3231
    """
    d = _pairs(differences)
    m = d.shape[0]
    name = "combined 5×2cv t (Yildiz 2013)" if m == 5 else f"combined {m}×2cv t (Yildiz's form)"
    form = f"t = mean of the {2 * m} differences / √(Σ s_i² / {2 * m * m}), {m} df; two-sided"
    assumption = "the 2m fold differences are normal and independent with equal variance (folds overlap in fact)"
    why = _within_zero(d)
    if why:
        return _undefined("combined_t_5x2cv", name, m, form, assumption, why)
    t = float(d.mean() / math.sqrt(_s2(d).sum() / (2 * m * m)))
    return _result("combined_t_5x2cv", name, t, m, _two_sided(t, m), form, assumption)


def blocked_t_3x2(differences: Any) -> ClassicResult:
    """Blocked 3×2 cv t-test (Wang et al. 2014): t = μ̂ / √Var2 (1/(2m) variance), 5 df (m×2: 2m − 1); two-sided.

    Parameters
    ----------
    differences : array_like, shape (m, 2)
        Per-fold differences B − A.

    Returns
    -------
    ClassicResult
        Undefined when the 2m differences do not vary.

    Examples
    --------
    >>> round(blocked_t_3x2([[0.02, 0.01], [0.015, 0.03], [0.0, 0.02]]).statistic, 4)
    1.6994
    """
    d = _pairs(differences)
    v = d.ravel()
    m = d.shape[0]
    name = "blocked 3×2 t (Wang et al. 2014)" if m == 3 else f"blocked {m}×2 t (Wang et al.'s form)"
    form = (f"t = mean / √Var2 (Var2: 1/{v.size} variance of the {v.size} differences, Ĉ = 1), {v.size - 1} df; "
            "two-sided")
    assumption = "the fold differences are normal with the correlation of a balanced (blocked) m×2 design"
    ss = float(((v - v.mean()) ** 2).sum())
    if _no_spread(ss, v):
        return _undefined("blocked_t_3x2", name, v.size - 1, form, assumption, _zero_reason(v))
    t = float(v.mean() / math.sqrt(ss / v.size))
    return _result("blocked_t_3x2", name, t, v.size - 1, _two_sided(t, v.size - 1), form, assumption)


def corrected_resampled_t(differences: Any, n_train: float, n_test: float) -> ClassicResult:
    """Nadeau & Bengio's corrected resampled t-test: t = mean / √((1/J + n_test/n_train) s²), J − 1 df; two-sided.

    Parameters
    ----------
    differences : array_like
        The J ≥ 2 differences B − A, one per train/test repetition (flattened).
    n_train, n_test : float
        Sizes of one training and one test set, positive (only their ratio matters).

    Returns
    -------
    ClassicResult
        ``ratio`` = n_test/n_train in the details.

    Examples
    --------
    >>> round(corrected_resampled_t([0.01, 0.02, 0.015, 0.0, 0.01], 90, 10).statistic, 4)
    2.6592
    """
    d = _numbers(differences, "differences").ravel()
    n_train = _positive(n_train, "n_train")
    n_test = _positive(n_test, "n_test")
    J = d.size
    if J < 2:
        raise ValueError(f"differences holds {J} value(s); the test needs at least 2 repetitions")
    ratio = n_test / n_train
    name = "corrected resampled t (Nadeau & Bengio 2003)"
    form = f"t = mean / √((1/J + n_test/n_train) s²), J = {J}, n_test/n_train = {ratio:.4g}, {J - 1} df; two-sided"
    assumption = ("the differences are normal and correlated only through overlapping training sets, "
                  "which n_test/n_train corrects for")
    ss = float(((d - d.mean()) ** 2).sum())
    if _no_spread(ss, d):
        return _undefined("corrected_resampled_t", name, J - 1, form, assumption, _zero_reason(d), ratio=ratio)
    t = float(d.mean() / math.sqrt((1 / J + ratio) * ss / (J - 1)))
    return _result("corrected_resampled_t", name, t, J - 1, _two_sided(t, J - 1), form, assumption, ratio=ratio)


# ----------------------------------------------------------------------------- m×2 designs, all at once


@dataclass(frozen=True)
class PairTests:
    """Every textbook test per-fold scores of two systems on an m×2 design support.

    Attributes
    ----------
    m : int
    tests : tuple of ClassicResult
        In a fixed order: the 5×2cv tests (m = 5), the blocked 3×2 t (m = 3), the corrected t, Wilcoxon.
    not_applicable : tuple of (str, str)
        Tests this design does not support, with the reason.
    """

    m: int
    tests: tuple[ClassicResult, ...]
    not_applicable: tuple[tuple[str, str], ...]

    def to_dict(self) -> dict:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {"m": self.m, "tests": [t.to_dict() for t in self.tests],
                "not_applicable": [{"test": t, "reason": r} for t, r in self.not_applicable]}


_FIVE = ("5×2cv paired t (Dietterich 1998)", "combined 5×2cv F (Alpaydin 1999)", "combined 5×2cv t (Yildiz 2013)")


def mx2_tests(values_a: Any, values_b: Any) -> PairTests:
    """Every textbook test that per-fold scores of A and B on an m×2 design support (differences B − A).

    The 5×2cv tests need m = 5 and the blocked t m = 3; the corrected t (n_test/n_train = 1) and Wilcoxon run
    for any m.

    Parameters
    ----------
    values_a, values_b : array_like
        The 2m per-fold scores (m ≥ 1), flat in fold order or of shape (m, 2).

    Returns
    -------
    PairTests

    Examples
    --------
    >>> r = mx2_tests([0.80, 0.81, 0.79, 0.82, 0.80, 0.78], [0.82, 0.82, 0.80, 0.85, 0.81, 0.80])
    >>> [t.test for t in r.tests]
    ['blocked_t_3x2', 'corrected_resampled_t', 'wilcoxon']
    """
    a, b = _numbers(values_a, "values_a").ravel(), _numbers(values_b, "values_b").ravel()
    a, b = _paired(a, b, minimum=2)
    if a.size % 2:
        raise ValueError(f"values_a holds {a.size} values; an m×2 design gives an even number, 2m, per system")
    m = a.size // 2
    d = (b - a).reshape(m, 2)
    tests, missing = [], []
    if m == 5:
        tests += [paired_t_5x2cv(d), combined_f_5x2cv(d), combined_t_5x2cv(d)]
    else:
        missing += [(name, f"needs m = 5 (the 5×2cv design); this input has m = {m}") for name in _FIVE]
    if m == 3:
        tests.append(blocked_t_3x2(d))
    else:
        missing.append(("blocked 3×2 t (Wang et al. 2014)", f"needs m = 3; this input has m = {m}"))
    tests.append(corrected_resampled_t(d, 1, 1))
    tests.append(wilcoxon(a, b))
    return PairTests(m, tuple(tests), tuple(missing))
