"""The result of a textbook test (:class:`ClassicResult`) and the one validation of their inputs.

Bad input raises ``ValueError`` naming the argument and the value; a degenerate one gives a result whose
``undefined`` says why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

__all__ = ["ClassicResult"]

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
    statistic, p_value : float or None
        None when the test is undefined for this input.
    df : int, float, tuple of int, or None
        Degrees of freedom (a pair for F).
    form : str
        The formula and variant used (sidedness, exact or approximate).
    assumption : str
        What the test assumes of the data.
    undefined : str or None
        Why the test has no answer for this input.
    details : dict
        Further numbers (e.g. McNemar's ``b`` and ``c``).
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
        """JSON-ready form: the fields (``df`` pairs as lists), then the entries of ``details``.

        Returns
        -------
        dict

        Examples
        --------
        >>> from textbcv.stats.classic import combined_f_5x2cv
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


#: Deviations below this share of the values' scale are no spread: F1 differences carry no information at 10⁻¹²
#: of a point, and a statistic divided by such a spread would only measure rounding.
_REL_SPREAD = 1e-12


def _no_spread(sum_squares: float, values: np.ndarray) -> bool:
    """Whether a sum of squared deviations is zero up to rounding, or below :data:`_REL_SPREAD` of the scale."""
    scale = float(np.max(np.abs(values))) if values.size else 0.0
    return sum_squares <= max((4 * values.size * _EPS * scale) ** 2, values.size * (_REL_SPREAD * scale) ** 2)


def _zero_reason(values: np.ndarray, what: str = "per-fold difference") -> str:
    if not np.any(values):
        return f"identical systems: every {what} is 0"
    return f"zero variance: every {what} equals {float(values.flat[0]):.6g}"


def _two_sided(t: float, df: float) -> float:
    return float(2 * stats.t.sf(abs(t), df))
