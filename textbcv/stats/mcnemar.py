"""McNemar's test on one fold: do two systems err on different units (chunks or tokens) of one test half?"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats

from .classic_result import ClassicResult, _index, _numbers, _result, _undefined

__all__ = ["mcnemar_table", "mcnemar"]


def mcnemar_table(correct_a: Sequence[bool], correct_b: Sequence[bool]) -> np.ndarray:
    """2×2 table [[both right, A right B wrong], [A wrong B right, both wrong]] (mlxtend's layout).

    Parameters
    ----------
    correct_a, correct_b : sequence of bool
        Whether A, resp. B, got each unit right (True/False or 1/0), over the same units in the same order.

    Returns
    -------
    ndarray of shape (2, 2), int

    Raises
    ------
    ValueError
        If an input is not one-dimensional or not 0/1, or the lengths differ.

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
            raise ValueError(f"{name} must hold right/wrong decisions (True/False or 1/0), got "
                             f"{v[~np.isin(v, (0, 1))][0]!r}")
    if a.size != b.size:
        raise ValueError(f"correct_a has {a.size} decisions and correct_b has {b.size}; they must judge the same units")
    a, b = a.astype(bool), b.astype(bool)
    return np.array([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]])


def mcnemar(table: Any, exact: bool = False, corrected: bool = True) -> ClassicResult:
    """McNemar's test on the discordant counts b = table[0][1] (A right, B wrong) and c = table[1][0].

    χ² = (|b − c| − 1)² / (b + c), 1 df (without the −1 if not ``corrected``), or the exact two-sided binomial test
    of b of b + c at ½ (statistic min(b, c)). Undefined when b + c = 0.

    Parameters
    ----------
    table : array_like, shape (2, 2)
        Counts in :func:`mcnemar_table`'s layout.
    exact : bool
        The exact binomial test instead of χ².
    corrected : bool
        Continuity correction of the χ² form.

    Returns
    -------
    ClassicResult
        ``b`` and ``c`` in the details.

    Examples
    --------
    >>> r = mcnemar([[50, 12], [4, 34]])
    >>> round(r.statistic, 4), round(r.p_value, 4)
    (3.0625, 0.0801)
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
