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
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy
from scipy import stats

__all__ = [
    "ClassicResult", "FriedmanResult", "PairTests",
    "binomial_test", "t_test", "paired_t_test", "paired_t_5x2cv", "combined_f_5x2cv", "combined_t_5x2cv",
    "blocked_t_3x2", "corrected_resampled_t", "mcnemar_table", "mcnemar", "wilcoxon", "friedman",
    "nemenyi_cd", "bonferroni_dunn_cd", "mx2_tests",
]

_EPS = float(np.finfo(float).eps)


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True)
class ClassicResult:
    """The outcome of one textbook test.

    Attributes
    ----------
    test : str
        Short identifier, e.g. ``"paired_t_5x2cv"``.
    name : str
        The test's name with its source, e.g. ``"5×2cv paired t (Dietterich 1998)"``.
    statistic : float or None
        None when the test is undefined for this input.
    df : int, float, tuple of int, or None
        Degrees of freedom (a pair for an F statistic), None where none apply.
    p_value : float or None
        None when the test is undefined.
    form : str
        The formula and variant used (sidedness, exact or approximate).
    assumption : str
        What the test assumes of the data.
    undefined : str or None
        Why the test has no answer for this input (zero variance, identical systems).
    details : dict
        Further numbers of the test (e.g. McNemar's ``b`` and ``c``).
    """

    test: str
    name: str
    statistic: float | None
    df: Any
    p_value: float | None
    form: str
    assumption: str
    undefined: str | None = None
    details: dict = field(default_factory=dict)

    @property
    def defined(self) -> bool:
        """Whether the test gives a statistic and p-value for this input."""
        return self.undefined is None

    def to_dict(self) -> dict:
        """JSON-ready form (``df`` pairs as lists).

        Examples
        --------
        >>> combined_f_5x2cv([[0.02, 0.01], [0.015, 0.03], [0.0, 0.02], [0.01, 0.01], [0.025, 0.005]]).to_dict()["df"]
        [10, 5]
        """
        df = list(self.df) if isinstance(self.df, tuple) else self.df
        return {"test": self.test, "name": self.name, "statistic": self.statistic, "df": df,
                "p_value": self.p_value, "form": self.form, "assumption": self.assumption,
                "undefined": self.undefined, **self.details}


def _result(test: str, name: str, statistic: float, df: Any, p_value: float, form: str, assumption: str,
            **details: Any) -> ClassicResult:
    return ClassicResult(test, name, float(statistic), df, float(p_value), form, assumption, None, details)


def _undefined(test: str, name: str, df: Any, form: str, assumption: str, reason: str, **details: Any) -> ClassicResult:
    return ClassicResult(test, name, None, df, None, form, assumption, reason, details)


# ----------------------------------------------------------------------------- validation


def _index(idx: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(int(i)) for i in idx) + "]"


def _numbers(x: Any, name: str) -> np.ndarray:
    """``x`` as a float array of finite numbers; ValueError naming ``name`` and the bad value otherwise."""
    if isinstance(x, (str, bytes)):
        raise ValueError(f"{name} must be numbers, got the string {x!r}")
    try:
        a = np.asarray(x)
    except ValueError:
        raise ValueError(f"{name} must be a rectangular array of numbers; its rows have different lengths") from None
    if a.dtype == bool:
        raise ValueError(f"{name} must be numbers, got booleans")
    if a.dtype.kind not in "iuf":
        try:
            a = a.astype(float)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be numbers, got {_short(x)}") from None
    a = a.astype(float)
    bad = ~np.isfinite(a)
    if bad.any():
        idx = tuple(np.argwhere(bad)[0])
        where = _index(idx) if a.ndim else ""
        raise ValueError(f"{name}{where} is {a[idx]}; every value must be a finite number")
    return a


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _paired(values_a: Any, values_b: Any, minimum: int = 1) -> tuple[np.ndarray, np.ndarray]:
    a, b = _numbers(values_a, "values_a"), _numbers(values_b, "values_b")
    for name, v in (("values_a", a), ("values_b", b)):
        if v.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional (one value per fold), got shape {v.shape}")
    if a.size != b.size:
        raise ValueError(f"values_a has {a.size} values and values_b has {b.size}; the test pairs them, so they "
                         "must be as many")
    if a.size < minimum:
        raise ValueError(f"the test needs at least {minimum} pairs of values, got {a.size}")
    return a, b


def _pairs(differences: Any) -> np.ndarray:
    d = _numbers(differences, "differences")
    if d.ndim != 2 or d.shape[1] != 2 or d.shape[0] < 1:
        raise ValueError(f"differences must have shape (m, 2): two fold differences per split, got shape {d.shape}")
    return d


def _count(v: Any, name: str) -> int:
    """A non-negative integer count; ValueError naming ``name`` and ``v`` otherwise."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a non-negative integer, got {_short(v)}")
    if not math.isfinite(v) or v < 0 or float(v) != int(v):
        raise ValueError(f"{name} is {v}; it must be a non-negative integer")
    return int(v)


def _alpha(alpha: Any, name: str = "alpha") -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.integer, np.floating)) \
            or not (math.isfinite(alpha) and 0 < alpha < 1):
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {_short(alpha)}")
    return float(alpha)


def _positive(v: Any, name: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) \
            or not (math.isfinite(v) and v > 0):
        raise ValueError(f"{name} must be a positive number (a number of examples), got {_short(v)}")
    return float(v)


def _no_spread(sum_squares: float, values: np.ndarray) -> bool:
    """Whether a sum of squared deviations is zero up to the rounding of ``values``' mean."""
    scale = float(np.max(np.abs(values))) if values.size else 0.0
    return sum_squares <= (4 * values.size * _EPS * scale) ** 2


def _zero_reason(values: np.ndarray, what: str = "per-fold difference") -> str:
    if not np.any(values):
        return f"identical systems: every {what} is 0"
    return f"zero variance: every {what} equals {float(values.flat[0]):.6g}"


def _two_sided(t: float, df: float) -> float:
    return float(2 * stats.t.sf(abs(t), df))


# ----------------------------------------------------------------------------- single estimates


def binomial_test(errors: int, n: int, eps0: float, alternative: str = "greater") -> ClassicResult:
    """Binomial test of one error rate ε from ``errors`` of ``n`` test examples (H0 ε ≤ ε0 for ``greater``).

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

    Examples
    --------
    >>> round(blocked_t_3x2([[0.02, 0.01], [0.015, 0.03], [0.0, 0.02]]).statistic, 4)
    1.6994
    """
    d = _pairs(differences)
    v = d.ravel()
    m = d.shape[0]
    name = "blocked 3×2 t (Wang et al. 2014)" if m == 3 else f"blocked {m}×2 t (Wang et al.'s form)"
    form = f"t = mean / √Var2 (Var2: 1/{v.size} variance of the {v.size} differences, Ĉ = 1), {v.size - 1} df; two-sided"
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


# ----------------------------------------------------------------------------- McNemar


def mcnemar_table(correct_a: Sequence[bool], correct_b: Sequence[bool]) -> np.ndarray:
    """2×2 table [[both right, A right B wrong], [A wrong B right, both wrong]] (mlxtend's layout).

    Examples
    --------
    >>> mcnemar_table([1, 1, 0, 0, 1], [1, 0, 1, 0, 1]).tolist()
    [[2, 1], [1, 1]]
    """
    a, b = np.asarray(correct_a), np.asarray(correct_b)
    for name, v in (("correct_a", a), ("correct_b", b)):
        if v.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional (one decision per unit), got shape {v.shape}")
        if v.size and not np.isin(v, (0, 1)).all():
            raise ValueError(f"{name} must hold right/wrong decisions (True/False or 1/0), got {v[~np.isin(v, (0, 1))][0]!r}")
    if a.size != b.size:
        raise ValueError(f"correct_a has {a.size} decisions and correct_b has {b.size}; they must judge the same units")
    a, b = a.astype(bool), b.astype(bool)
    return np.array([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]])


def mcnemar(table: Any, exact: bool = False, corrected: bool = True) -> ClassicResult:
    """McNemar's test on the discordant counts b = table[0][1] (A right, B wrong) and c = table[1][0].

    χ² = (|b − c| − 1)² / (b + c) with 1 df (``corrected``; without the −1
    otherwise), or the exact two-sided binomial test of b out of b + c at ½
    (statistic min(b, c)). With no discordant unit (b + c = 0) the systems
    never disagree and the test is undefined.

    Examples
    --------
    >>> r = mcnemar([[50, 12], [4, 34]])
    >>> round(r.statistic, 4), round(r.p_value, 4)
    (3.0625, 0.0801)
    >>> round(mcnemar([[50, 12], [4, 34]], exact=True).p_value, 4)
    0.0768
    """
    t = _numbers(table, "table")
    if t.shape != (2, 2):
        raise ValueError(f"table must be a 2×2 table of counts [[both right, A right B wrong], "
                         f"[A wrong B right, both wrong]], got shape {t.shape}")
    for idx in np.ndindex(2, 2):
        v = t[idx]
        if v < 0 or v != int(v):
            shown = int(v) if v == int(v) else float(v)
            raise ValueError(f"table{_index(idx)} is {shown}; McNemar's table holds counts, non-negative integers")
    b, c = int(t[0, 1]), int(t[1, 0])
    assumption = "the units are independent and both systems judged on the same units of one test set"
    if exact:
        name, form = "McNemar, exact", f"two-sided binomial test of b = {b} of b + c = {b + c} discordant units at ½"
    elif corrected:
        name, form = "McNemar, χ²", "χ² = (|b − c| − 1)² / (b + c), 1 df (continuity-corrected)"
    else:
        name, form = "McNemar, χ²", "χ² = (b − c)² / (b + c), 1 df (no continuity correction)"
    key = "mcnemar_exact" if exact else "mcnemar_chi2"
    if b + c == 0:
        return _undefined(key, name, None if exact else 1, form, assumption,
                          "identical decisions: the systems disagree on no unit (b = c = 0)", b=b, c=c)
    if exact:
        return _result(key, name, min(b, c), None, stats.binomtest(b, b + c, 0.5).pvalue, form, assumption, b=b, c=c)
    chi2 = ((abs(b - c) - 1) ** 2 if corrected else (b - c) ** 2) / (b + c)
    return _result(key, name, chi2, 1, stats.chi2.sf(chi2, 1), form, assumption, b=b, c=c)


# ----------------------------------------------------------------------------- rank tests


#: scipy 1.13 renamed wilcoxon's method "approx" to "asymptotic".
_SCIPY = tuple(int(x) for x in scipy.__version__.split(".")[:2])
_ASYMPTOTIC = "asymptotic" if _SCIPY >= (1, 13) else "approx"


def _signed_rank_enumerated(nz: np.ndarray) -> tuple[float, float]:
    """min(R+, R−) and its two-sided p-value over all 2^n sign assignments of the mid-ranks of |nz|.

    The exact null distribution with ties (what scipy's default computes, by
    permutation, for n ≤ 13), enumerated at once.
    """
    n = nz.size
    r = stats.rankdata(np.abs(nz))
    signs = (np.arange(2 ** n)[:, None] >> np.arange(n)) & 1
    r_plus = signs @ r
    observed = float(r[nz > 0].sum())
    center = float(r.sum()) / 2
    p = float(np.mean(np.abs(r_plus - center) >= abs(observed - center) - 1e-9))
    return min(observed, float(r.sum()) - observed), min(1.0, p)


def wilcoxon(values_a: Sequence[float], values_b: Sequence[float], **kwargs: Any) -> ClassicResult:
    """Wilcoxon signed-rank test of B − A (scipy.stats.wilcoxon; extra keywords go to scipy).

    Zero differences are dropped (Wilcoxon's method). Without a ``method``
    keyword the p-value is exact: from the signed-rank distribution when the
    absolute differences have no ties, from all 2^n sign assignments of the
    mid-ranks when they do (n ≤ 13); beyond that (n > 50 without ties, n > 13
    with) it is the normal approximation. ``form`` says which.

    Examples
    --------
    >>> r = wilcoxon([0.8, 0.7, 0.9, 0.6, 0.75, 0.85], [0.82, 0.74, 0.89, 0.67, 0.81, 0.88])
    >>> r.statistic, round(r.p_value, 4), r.form
    (1.0, 0.0625, 'exact signed-rank distribution, 6 non-zero differences; two-sided')
    >>> wilcoxon([0.8, 0.7], [0.8, 0.7]).undefined
    'identical systems: every paired difference is 0'
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
    if "method" in kwargs:
        r = stats.wilcoxon(d, **kwargs)
        form = f"scipy.stats.wilcoxon({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"
    elif not ties and n <= 50:
        r = stats.wilcoxon(nz, method="exact", **kwargs)
        form = f"exact signed-rank distribution, {n} non-zero differences; two-sided"
    elif ties and n <= 13 and not kwargs:
        statistic, p = _signed_rank_enumerated(nz)
        form = f"exact: all 2^{n} sign assignments of the mid-ranks ({n} non-zero differences, tied); two-sided"
        return _result("wilcoxon", name, statistic, None, p, form, assumption, n_nonzero=n)
    else:
        r = stats.wilcoxon(nz, method=_ASYMPTOTIC, **kwargs)
        form = f"normal approximation, tie-corrected variance, {n} non-zero differences; two-sided"
    return _result("wilcoxon", name, r.statistic, None, r.pvalue, form, assumption, n_nonzero=n)


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman test over N data sets (blocks) × k systems, with Nemenyi and Bonferroni–Dunn critical differences.

    Attributes
    ----------
    average_ranks : tuple of float
        Average rank of each system (1 = best; ties share the mean rank).
    n, k : int
        Data sets (blocks) and systems.
    chi2 : ClassicResult
        Friedman's χ² (scipy's ``friedmanchisquare``, tie-corrected), k − 1 df.
    iman_davenport : ClassicResult
        F = (N−1)χ²/(N(k−1) − χ²) from the uncorrected χ², ~ F(k−1, (k−1)(N−1)).
    chi2_uncorrected : float
        12N/(k(k+1)) [Σ R_j² − k(k+1)²/4].
    alpha : float
    nemenyi_cd, bonferroni_dunn_cd : float
        Critical differences of average ranks at ``alpha``.
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
        """Pairs (i, j), i < j, whose average ranks differ by more than the Nemenyi CD."""
        r = self.average_ranks
        return [(i, j) for i in range(self.k) for j in range(i + 1, self.k) if abs(r[i] - r[j]) > self.nemenyi_cd]

    def to_dict(self) -> dict:
        return {"average_ranks": list(self.average_ranks), "n": self.n, "k": self.k, "chi2": self.chi2.to_dict(),
                "iman_davenport": self.iman_davenport.to_dict(), "chi2_uncorrected": self.chi2_uncorrected,
                "alpha": self.alpha, "nemenyi_cd": self.nemenyi_cd, "bonferroni_dunn_cd": self.bonferroni_dunn_cd,
                "nemenyi_differing_pairs": [list(p) for p in self.differing_pairs()]}


def friedman(values: Any, higher_is_better: bool = True, alpha: float = 0.05) -> FriedmanResult:
    """Friedman test over N data sets × k systems, Iman–Davenport F, Nemenyi and Bonferroni–Dunn CDs (Demšar 2006).

    ``values[i, j]`` is the score of system j on data set (block) i.

    Examples
    --------
    >>> r = friedman([[3, 2, 1], [3, 1.5, 1.5], [3, 2, 1], [3, 2, 1]])  # watermelon book table 2.5
    >>> r.average_ranks, round(r.iman_davenport.statistic, 3), round(r.nemenyi_cd, 3)
    ((1.0, 2.125, 2.875), 24.429, 1.657)
    >>> friedman([1, 2, 3])
    Traceback (most recent call last):
    ...
    ValueError: values must be a 2-D array, one row per data set and one column per system (N × k), got shape (3,)
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
    """Nemenyi critical difference q_α √(k(k+1)/(6N)), q_α = studentized range quantile / √2.

    Examples
    --------
    >>> round(nemenyi_cd(3, 4), 3)
    1.657
    >>> nemenyi_cd(3, 4, alpha=1.5)
    Traceback (most recent call last):
    ...
    ValueError: alpha must lie strictly between 0 and 1, got 1.5
    """
    k, N = _k_n(k, N)
    alpha = _alpha(alpha)
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    return float(q * math.sqrt(k * (k + 1) / (6 * N)))


def bonferroni_dunn_cd(k: int, N: int, alpha: float = 0.05) -> float:
    """Bonferroni–Dunn critical difference against a control: z_{α/(2(k−1))} √(k(k+1)/(6N)).

    Examples
    --------
    >>> round(bonferroni_dunn_cd(5, 10, 0.05), 3)   # Demšar's q_0.05 = 2.498 for k = 5
    1.766
    """
    k, N = _k_n(k, N)
    alpha = _alpha(alpha)
    q = stats.norm.isf(alpha / (2 * (k - 1)))
    return float(q * math.sqrt(k * (k + 1) / (6 * N)))


# ----------------------------------------------------------------------------- m×2 designs, all at once


@dataclass(frozen=True)
class PairTests:
    """Every textbook test per-fold scores of two systems on an m×2 design support.

    Attributes
    ----------
    m : int
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
