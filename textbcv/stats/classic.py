"""Textbook tests on stored per-fold values (docs/method.md §10) — no model is re-fitted.

Every test returns a :class:`ClassicResult`: the statistic, its degrees of
freedom, the p-value, the form used (the formula, one- or two-sided, exact or
approximate) and the assumption the test makes. One validation layer serves
them all: NaN or infinite values, negative or non-integer counts, arrays of
the wrong shape, an impossible ``alpha`` or a zero training size raise a
``ValueError`` naming the argument and the value. A *degenerate* input (zero
variance, identical systems) is not an error but has no test: the result has
``statistic`` and ``p_value`` ``None`` and ``undefined`` says why — never
p = 0 or a huge finite statistic.

m×2 tests take an (m, 2) array of per-fold differences d_k^(j) = metric_B −
metric_A (p_i^(j) in Dietterich's notation), fold k of split j.
:func:`mx2_tests` runs every test that per-fold scores of two systems on the
2m folds of an m×2 design support. scipy's distributions and tests are used
wherever scipy has them.

This module holds the t-tests (one sample, paired, and the m×2 designs'); the
result type and the validation are in :mod:`.classic_result`, McNemar's test in
:mod:`.mcnemar` and the rank tests in :mod:`.ranks`, all importable from here.

Examples
--------
>>> r = paired_t_5x2cv([[0.02, 0.01], [0.015, 0.03], [0.0, 0.02], [0.01, 0.01], [0.025, 0.005]])
>>> round(r.statistic, 4), r.df, round(r.p_value, 4)
(1.8856, 5, 0.118)
>>> paired_t_5x2cv([[0.01, 0.01]] * 5).undefined
'zero variance: in every split both folds give the same difference, so Σ s_i² = 0'
>>> mcnemar([[10, -3], [5, 2]])
Traceback (most recent call last):
...
ValueError: table[0, 1] is -3; McNemar's table holds counts, non-negative integers
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
    "binomial_test", "t_test", "paired_t_test", "paired_t_5x2cv", "combined_f_5x2cv", "combined_t_5x2cv",
    "blocked_t_3x2", "corrected_resampled_t", "mcnemar_table", "mcnemar", "wilcoxon", "friedman",
    "nemenyi_cd", "bonferroni_dunn_cd", "mx2_tests",
]



# ----------------------------------------------------------------------------- single estimates


def binomial_test(errors: int, n: int, eps0: float, alternative: str = "greater") -> ClassicResult:
    """Binomial test of one error rate ε from ``errors`` of ``n`` test examples (H0 ε ≤ ε0 for ``greater``).

    Parameters
    ----------
    errors : int
        Misclassified test examples, 0 ≤ ``errors`` ≤ ``n``.
    n : int
        Test examples, at least 1.
    eps0 : float
        The error rate ε0 of H0, strictly between 0 and 1.
    alternative : {"greater", "less", "two-sided"}
        H1: ε > ε0 (default), ε < ε0, or ε ≠ ε0.

    Returns
    -------
    ClassicResult
        Statistic the observed error rate ``errors / n``, the exact binomial p-value; ``n`` and ``eps0`` in the
        details.

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
    """t-test over k hold-out estimates: H0 μ = μ0, k − 1 df (scipy.stats.ttest_1samp); ``ci``: its 1 − α interval.

    Parameters
    ----------
    values : sequence of float
        The k ≥ 2 estimates (e.g. error rates or scores of repeated hold-out runs).
    mu0 : float
        The mean μ0 of H0, in the units of ``values`` (default 0).
    alpha : float
        The interval ``ci`` is the 1 − alpha t interval of the mean (default 0.05).

    Returns
    -------
    ClassicResult
        Two-sided t with k − 1 df; ``mean`` and ``ci`` in the details (only ``mean`` when every estimate is equal
        and the test is undefined).

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
    """Paired k-fold t-test on per-fold values of A and B (scipy.stats.ttest_rel; statistic for B − A).

    Parameters
    ----------
    values_a, values_b : sequence of float
        The k ≥ 2 per-fold scores of systems A and B, in the same fold order.

    Returns
    -------
    ClassicResult
        Two-sided t of the differences B − A with k − 1 df; undefined when they do not vary.

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
    """Dietterich's 5×2cv paired t-test: t = p_1^(1) / √(Σ s_i²/5), 5 df (m×2 in general: m df).

    Parameters
    ----------
    differences : array_like, shape (m, 2)
        Per-fold differences metric_B − metric_A: ``differences[j, k]`` of fold k of split j.
        p_1^(1) is ``differences[0, 0]``.

    Returns
    -------
    ClassicResult
        Two-sided t with m df; undefined when every difference is 0 or no split has within-split spread.

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
    """Alpaydin's combined 5×2cv F-test: F = ΣΣ p² / (2 Σ s_i²) ~ F(10, 5) (m×2: F(2m, m)).

    Parameters
    ----------
    differences : array_like, shape (m, 2)
        Per-fold differences metric_B − metric_A: ``differences[j, k]`` of fold k of split j.

    Returns
    -------
    ClassicResult
        F with df (2m, m) and its upper-tail p-value; undefined as for :func:`paired_t_5x2cv`.

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
        Per-fold differences metric_B − metric_A: ``differences[j, k]`` of fold k of split j.

    Returns
    -------
    ClassicResult
        Two-sided t with m df; undefined as for :func:`paired_t_5x2cv`.

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
    """Blocked 3×2 cv t-test (Wang et al. 2014): t = μ̂_3×2 / √Var2, Ĉ = 1, 5 df (m×2: 2m − 1 df).

    Var2 is the 1/(2m) variance of the 2m fold differences.

    Parameters
    ----------
    differences : array_like, shape (m, 2)
        Per-fold differences metric_B − metric_A: ``differences[j, k]`` of fold k of split j.

    Returns
    -------
    ClassicResult
        Two-sided t with 2m − 1 df; undefined when the 2m differences do not vary.

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
    """Nadeau & Bengio's corrected resampled t-test over J train/test repetitions.

    t = mean / √((1/J + n_test/n_train) s²), s² the sample variance (ddof 1),
    J − 1 df. ``differences`` may be any shape (it is flattened: one value per
    repetition); ``n_train``, ``n_test`` are the sizes of a training and a test
    set (only their ratio matters).

    Parameters
    ----------
    differences : array_like
        The J ≥ 2 differences B − A, one per train/test repetition (any shape; flattened).
    n_train, n_test : float
        Examples in one training set and in one test set; positive.

    Returns
    -------
    ClassicResult
        Two-sided t with J − 1 df; ``ratio`` = n_test/n_train in the details.

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
        Number of splits (2m folds).
    tests : tuple of ClassicResult
        In a fixed order: the 5×2cv tests (m = 5), the blocked 3×2 t (m = 3),
        Nadeau–Bengio's corrected t, Wilcoxon.
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
            ``{"m", "tests": [ClassicResult.to_dict(), ...], "not_applicable": [{"test", "reason"}, ...]}``.
        """
        return {"m": self.m, "tests": [t.to_dict() for t in self.tests],
                "not_applicable": [{"test": t, "reason": r} for t, r in self.not_applicable]}


_FIVE = ("5×2cv paired t (Dietterich 1998)", "combined 5×2cv F (Alpaydin 1999)", "combined 5×2cv t (Yildiz 2013)")


def mx2_tests(values_a: Any, values_b: Any) -> PairTests:
    """Every textbook test that per-fold scores of A and B on the 2m folds of an m×2 design support.

    ``values_a``, ``values_b``: 2m values each in fold order (split 0
    direction 0, split 0 direction 1, split 1 direction 0, ...), or (m, 2)
    arrays. Differences are B − A. The 5×2cv t, combined F and combined t
    need m = 5 and the blocked 3×2 t m = 3 (the designs they were published
    for); Nadeau–Bengio's corrected t (n_test/n_train = 1: two-fold halves)
    and Wilcoxon run on the 2m differences for any m.

    Parameters
    ----------
    values_a, values_b : array_like
        The 2m per-fold scores of systems A and B (m ≥ 1), flat in fold order or of shape (m, 2).

    Returns
    -------
    PairTests
        The tests this m supports and the names of the others with the reason.

    Examples
    --------
    >>> a = [0.80, 0.81, 0.79, 0.82, 0.80, 0.78]
    >>> b = [0.82, 0.82, 0.80, 0.85, 0.81, 0.80]
    >>> r = mx2_tests(a, b)
    >>> [t.test for t in r.tests]
    ['blocked_t_3x2', 'corrected_resampled_t', 'wilcoxon']
    >>> r.not_applicable[0]
    ('5×2cv paired t (Dietterich 1998)', 'needs m = 5 (the 5×2cv design); this input has m = 3')
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
