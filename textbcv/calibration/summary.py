"""What a calibration's pairs say: false calls on null pairs; a close pair's calls and coverage of its truth.

See docs/calibrate.md, "What it prints and writes".
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Sequence

import numpy as np
from scipy import stats as sst

__all__ = ["Rate", "NullSummary", "CloseSummary", "summarize_null", "summarize_close", "rate", "covers", "reached"]


@dataclass(frozen=True)
class Rate:
    """``k`` of ``n`` with its Wilson 95% interval.

    Attributes
    ----------
    k, n : int
    rate, lo, hi : float or None
        ``k / n`` and its interval; None when ``n`` is 0.
    """

    k: int
    n: int
    rate: float | None
    lo: float | None
    hi: float | None

    def to_dict(self) -> dict[str, Any]:
        """The rate as JSON-ready values (fractions, unrounded).

        Returns
        -------
        dict
        """
        return asdict(self)

    def words(self) -> str:
        """The rate in words, e.g. ``'2.0% [1.1, 3.8] (9 of 450)'``.

        Returns
        -------
        str
        """
        if self.n == 0 or self.rate is None or self.lo is None or self.hi is None:
            return "no data sets"
        return f"{100 * self.rate:.1f}% [{100 * self.lo:.1f}, {100 * self.hi:.1f}] ({self.k} of {self.n})"


def rate(k: int, n: int) -> Rate:
    """``k`` of ``n`` with its Wilson 95% interval.

    Parameters
    ----------
    k, n : int

    Returns
    -------
    Rate

    Examples
    --------
    >>> r = rate(9, 450)
    >>> round(r.rate, 3), round(r.lo, 3), round(r.hi, 3)
    (0.02, 0.011, 0.038)
    """
    if n == 0:
        return Rate(0, 0, None, None, None)
    ci = sst.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return Rate(int(k), int(n), k / n, float(ci.low), float(ci.high))


@dataclass(frozen=True)
class NullSummary:
    """The null pairs of one system over R data sets (ΔF1 in fractions).

    Attributes
    ----------
    system : str
    calls_b, calls_a, calls : Rate
        Data sets where the second seed, the first, or either was called better.
    rms_estimate : float
        Root mean square of the ΔF1 estimates (their error: the truth is 0).
    median_sd : float
    sd_over_rms : float or None
        About 1 when the posterior is as wide as its error, below 1 when too narrow.
    floored : Rate
        Data sets whose model-noise part was estimated at zero.
    calls_floored, calls_other : Rate
        Calls among those data sets and among the others.
    floor_p : float or None
        Fisher's exact test of equal call rates in the two groups.
    ms : dict, optional
        Data sets per m their comparison reached (``{"3": 150, "7": 50}``); None where the units do not say.
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
    ms: dict[str, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready values.

        Returns
        -------
        dict
        """
        out: dict[str, Any] = {}
        for k, v in self.__dict__.items():
            out[k] = v.to_dict() if isinstance(v, Rate) else v
        return out


def reached(units: Sequence[dict], m: int | None = None) -> dict[str, int] | None:
    """Data sets per m their comparison reached (a unit's ``m``, else ``m``); None when some unit says none.

    Parameters
    ----------
    units : sequence of dict
    m : int, optional
        The m of units that do not record theirs (made at a fixed m before units recorded it).

    Returns
    -------
    dict or None
        ``str(m)`` → data sets, in increasing m.

    Examples
    --------
    >>> reached([{"m": 7}, {"m": 3}, {}], 3)
    {'3': 2, '7': 1}
    """
    ms: list[int] = []
    for u in units:
        x = u.get("m", m)
        if x is None:
            return None
        ms.append(int(x))
    return {str(x): ms.count(x) for x in sorted(set(ms))}


def summarize_null(system: str, units: Sequence[dict], m: int | None = None) -> NullSummary:
    """The summary of one system's null units.

    Parameters
    ----------
    system : str
    units : sequence of dict
        With ``estimate``, ``sd``, ``var_model``, ``decision`` (and ``m``, the m reached, where recorded).
    m : int, optional
        The m of units that do not record theirs (:func:`reached`).

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
                       rate(nf, n), rate(kf, nf), rate(ko, n - nf), p, reached(units, m))


@dataclass(frozen=True)
class CloseSummary:
    """A close pair over R data sets, against its measured truth (ΔF1 = B − A, fractions).

    Attributes
    ----------
    a, b : str
    calls_b, calls_a, calls : Rate
        Data sets where B, A, or either was called better.
    coverage : Rate
        Data sets whose widened 95% interval held the truth (:func:`covers`).
    median_sd : float or None
    rmse : float or None
        Root mean square of estimate − truth.
    mean_truth_noise : float or None
        In fractions².
    rmse_net : float or None
        The RMSE net of the truth's noise; None when not positive.
    sd_over_rmse_net : float or None
    mean_truth, sd_truth : float or None
    ms : dict, optional
        Data sets per m their comparison reached (:func:`reached`).
    """

    a: str
    b: str
    calls_b: Rate
    calls_a: Rate
    calls: Rate
    coverage: Rate
    median_sd: float | None
    rmse: float | None
    mean_truth_noise: float | None
    rmse_net: float | None
    sd_over_rmse_net: float | None
    mean_truth: float | None
    sd_truth: float | None
    ms: dict[str, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready values.

        Returns
        -------
        dict
        """
        return {k: v.to_dict() if isinstance(v, Rate) else v for k, v in self.__dict__.items()}


def covers(unit: dict, level: float = 0.95) -> bool:
    """Whether estimate ± q·√(sd² + truth_noise) holds the truth (q: the t quantile, normal when ``df`` is None).

    Parameters
    ----------
    unit : dict
        ``estimate``, ``sd``, ``df``, ``truth``, ``truth_noise``.
    level : float

    Returns
    -------
    bool

    Examples
    --------
    >>> covers({"estimate": 0.01, "sd": 0.004, "df": 5, "truth": 0.0, "truth_noise": 0.0})  # q = 2.57
    True
    """
    p = (1 + level) / 2
    q = sst.norm.ppf(p) if unit.get("df") is None else sst.t.ppf(p, unit["df"])
    return bool(abs(unit["estimate"] - unit["truth"]) <= q * np.sqrt(unit["sd"] ** 2 + unit["truth_noise"]))


def summarize_close(a: str, b: str, units: Sequence[dict], m: int | None = None) -> CloseSummary:
    """The summary of a close pair's units.

    Parameters
    ----------
    a, b : str
    units : sequence of dict
        With ``estimate``, ``sd``, ``df``, ``decision``, ``truth``, ``truth_noise`` (and ``m`` where recorded).
    m : int, optional
        The m of units that do not record theirs (:func:`reached`).

    Returns
    -------
    CloseSummary

    Examples
    --------
    >>> u = [{"estimate": e, "sd": 0.004, "df": 5, "decision": d, "truth": 0.005, "truth_noise": 1e-6}
    ...      for e, d in [(0.012, "B better"), (0.004, "no clear difference"), (0.03, "B better")]]
    >>> s = summarize_close("iob2", "iobes", u)
    >>> s.calls_b.k, s.calls_a.k, s.coverage.k, round(s.mean_truth, 3)
    (2, 0, 2, 0.005)
    """
    n = len(units)
    est = np.array([u["estimate"] for u in units], dtype=float)
    truth = np.array([u["truth"] for u in units], dtype=float)
    noise = np.array([u["truth_noise"] for u in units], dtype=float)
    kb = sum(u["decision"] == "B better" for u in units)
    ka = sum(u["decision"] == "A better" for u in units)
    held = sum(covers(u) for u in units)
    if not n:
        return CloseSummary(a, b, rate(0, 0), rate(0, 0), rate(0, 0), rate(0, 0), None, None, None, None, None, None,
                            None, reached(units, m))
    mse = float(np.mean((est - truth) ** 2))
    net = mse - float(noise.mean())
    rmse_net = float(np.sqrt(net)) if net > 0 else None
    med = float(np.median([u["sd"] for u in units]))
    return CloseSummary(a, b, rate(kb, n), rate(ka, n), rate(ka + kb, n), rate(held, n), med, float(np.sqrt(mse)),
                        float(noise.mean()), rmse_net, med / rmse_net if rmse_net else None, float(truth.mean()),
                        float(truth.std(ddof=1)) if n > 1 else None, reached(units, m))
