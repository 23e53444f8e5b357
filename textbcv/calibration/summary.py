"""What a calibration's null pairs say: how often the decision rule called a difference where there is none.

A null pair is one system against itself trained with another seed, on the same folds: its true
difference is 0, so every call the decision rule makes on it is a false call. Over R data sets the
summary gives the calls each way with Wilson intervals, the posterior's SD against the spread of
the null estimates (a calibrated posterior's SD is about that spread), and whether calls gather in
the runs whose model-noise part was estimated at zero (where a floored variance would make the
posterior too narrow).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Sequence

import numpy as np
from scipy import stats as sst

__all__ = ["Rate", "NullSummary", "summarize_null", "rate"]


@dataclass(frozen=True)
class Rate:
    """``k`` of ``n`` with its Wilson 95% interval.

    Attributes
    ----------
    k, n : int
        Events and trials.
    rate, lo, hi : float or None
        ``k / n`` and its Wilson 95% interval; None when ``n`` is 0.
    """

    k: int
    n: int
    rate: float | None
    lo: float | None
    hi: float | None

    def to_dict(self) -> dict[str, Any]:
        """The rate as JSON-ready values.

        Returns
        -------
        dict
            ``k``, ``n``, ``rate``, ``lo``, ``hi`` (fractions, unrounded).
        """
        return asdict(self)

    def words(self) -> str:
        """The rate in words.

        Returns
        -------
        str
            Percent with its interval and the counts, e.g. ``'2.0% [1.1, 3.8] (9 of 450)'``.
        """
        if self.n == 0 or self.rate is None or self.lo is None or self.hi is None:
            return "no data sets"
        return f"{100 * self.rate:.1f}% [{100 * self.lo:.1f}, {100 * self.hi:.1f}] ({self.k} of {self.n})"


def rate(k: int, n: int) -> Rate:
    """``k`` of ``n`` with its Wilson 95% interval (scipy's ``binomtest``).

    Parameters
    ----------
    k, n : int
        Events and trials.

    Returns
    -------
    Rate

    Examples
    --------
    >>> r = rate(9, 450)
    >>> round(r.rate, 3), round(r.lo, 3), round(r.hi, 3)
    (0.02, 0.011, 0.038)
    >>> rate(0, 0).rate is None
    True
    """
    if n == 0:
        return Rate(0, 0, None, None, None)
    ci = sst.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return Rate(int(k), int(n), k / n, float(ci.low), float(ci.high))


@dataclass(frozen=True)
class NullSummary:
    """The null pairs of one system over R data sets.

    Attributes
    ----------
    system : str
        The system, trained with the two seeds.
    calls_b, calls_a, calls : Rate
        Data sets where the second seed, the first, or either was called better.
    rms_estimate : float
        Root mean square of the ΔF1 estimates (fractions); the truth is 0, so this is their error.
    median_sd : float
        Median posterior SD of ΔF1 (fractions).
    sd_over_rms : float or None
        ``median_sd / rms_estimate``: about 1 when the posterior is as wide as its error, below 1 when too narrow.
    floored : Rate
        Data sets whose model-noise part was estimated at zero.
    calls_floored, calls_other : Rate
        Calls (either way) among those data sets and among the others.
    floor_p : float or None
        Fisher's exact test (two-sided) of equal call rates in the two groups.
    """

    system: str
    calls_b: Rate
    calls_a: Rate
    calls: Rate
    rms_estimate: float
    median_sd: float
    sd_over_rms: float | None
    floored: Rate
    calls_floored: Rate
    calls_other: Rate
    floor_p: float | None

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready values.

        Returns
        -------
        dict
            Every attribute, rates as :meth:`Rate.to_dict` (fractions, unrounded).
        """
        out: dict[str, Any] = {}
        for k, v in self.__dict__.items():
            out[k] = v.to_dict() if isinstance(v, Rate) else v
        return out


def summarize_null(system: str, units: Sequence[dict]) -> NullSummary:
    """The summary of one system's null units.

    Parameters
    ----------
    system : str
        The system's name.
    units : sequence of dict
        Its units, as :func:`textbcv.calibration.study.null_unit` makes them (``estimate``, ``sd``,
        ``var_model``, ``decision``).

    Returns
    -------
    NullSummary

    Examples
    --------
    >>> u = [{"estimate": e, "sd": 0.01, "var_model": v, "decision": d}
    ...      for e, v, d in [(0.001, 0.0, "none"), (-0.02, 1e-5, "A better"), (0.0, 2e-5, "none")]]
    >>> s = summarize_null("iob2", u)
    >>> s.calls_a.k, s.calls_b.k, s.floored.k, s.calls_floored.k, s.calls_other.k
    (1, 0, 1, 0, 1)
    """
    est = np.array([u["estimate"] for u in units], dtype=float)
    sd = np.array([u["sd"] for u in units], dtype=float)
    n = len(units)
    b = sum(u["decision"] == "B better" for u in units)
    a = sum(u["decision"] == "A better" for u in units)
    called = [u["decision"] in ("A better", "B better") for u in units]
    floor = [u.get("var_model") is not None and u["var_model"] <= 0 for u in units]
    kf = sum(c for c, f in zip(called, floor) if f)
    ko = sum(c for c, f in zip(called, floor) if not f)
    nf = sum(floor)
    rms = float(np.sqrt(np.mean(est ** 2))) if n else float("nan")
    med = float(np.median(sd)) if n else float("nan")
    p = None
    if nf and n - nf:
        p = float(sst.fisher_exact([[kf, nf - kf], [ko, n - nf - ko]]).pvalue)
    return NullSummary(system, rate(b, n), rate(a, n), rate(a + b, n), rms, med, med / rms if rms > 0 else None,
                       rate(nf, n), rate(kf, nf), rate(ko, n - nf), p)
