"""A calibration's answer (:class:`Calibration`): the content of ``calibration.json``, its summary and the
sentence to quote."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textbcv.calibration._design import _design_words, _mean_folds
from textbcv.calibration.settings import CalibrationSettings
from textbcv.calibration.summary import CloseSummary, NullSummary
from textbcv.calibration.units import own_how

__all__ = ["Calibration"]

#: the format tag of calibration.json and settings.json
FORMAT = "textbcv-calibration/1"


def _seeds(settings: CalibrationSettings, side: int | None = None) -> str:
    """One side's seeds (``seed 2``, ``seeds 4–6``), or both sides' (``seeds 1 and 2``, ``seeds 1–3 and 4–6``); on
    the fixed split, where each data set has seeds of its own, those of the first with the step to the next."""
    k = int(settings.options.get("train_seeds") or 1)
    one = [str(s) if k == 1 else f"{s}–{s + k - 1}" for s in settings.seeds]
    if settings.design == "fixed-split":
        if side is not None:
            return "B's seeds" if side else "A's seeds"
        return f"seeds {one[0]} and {one[1]} on the first data set, {2 * k} further on each next"
    if side is None:
        return f"seeds {one[0]} and {one[1]}"
    return f"seed{'s' if k > 1 else ''} {one[side]}"


@dataclass(frozen=True)
class Calibration:
    """A calibration's answer; ``to_dict()`` is the content of ``calibration.json``.

    Attributes
    ----------
    settings : CalibrationSettings
    nulls : tuple of NullSummary
        One per system, in the order given.
    corpus_name : str
        The corpus's file names, as the sentence names it.
    close : tuple of CloseSummary
        The close pair's summary (empty without a pair).
    """

    settings: CalibrationSettings
    nulls: tuple[NullSummary, ...]
    corpus_name: str = ""
    close: tuple[CloseSummary, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The calibration as JSON-ready values (fractions, unrounded).

        Returns
        -------
        dict
        """
        return {"format": FORMAT, "corpus_name": self.corpus_name, "settings": self.settings.to_dict(),
                "design": self.design(),
                "nulls": [s.to_dict() for s in self.nulls], "close": [c.to_dict() for c in self.close],
                "sentence": self.sentence()}

    def design(self) -> dict[str, Any]:
        """The design the units were answered with, and the mean folds per system they trained.

        Returns
        -------
        dict
            ``design`` (``"fixed"`` or ``"measured"``), ``m`` (with ``"measured"``: the first m) and ``m_max``;
            ``mean_folds_per_system`` over every summarised unit (None without any), and the data sets per m
            reached (``ms``).
        """
        s = self.settings
        ms: dict[str, int] = {}
        for x in [*(n.ms for n in self.nulls), *(c.ms for c in self.close)]:
            for m, k in (x or {}).items():
                ms[m] = ms.get(m, 0) + k
        return {"design": s.design, "m": s.m, "m_max": s.m_max, "mean_folds_per_system": _mean_folds(ms),
                "ms": dict(sorted(ms.items(), key=lambda t: int(t[0])))}

    def sentence(self) -> str:
        """One sentence per system and one for the close pair, for a paper to quote.

        Returns
        -------
        str
        """
        s = self.settings
        out = []
        for x in self.nulls:
            how = (own_how((s.own_systems or {})[x.system]) if x.system in (s.own_systems or {}) else
                   f"trained with {s.options['algorithm']} (the stochastic proxy of its deterministic lbfgs training)"
                   if s.proxy else f"trained with {s.options.get('algorithm', 'its algorithm')}")
            ratio = "" if x.sd_over_rms is None else (
                f"; the posterior's median SD was {x.sd_over_rms:.2f} times the null estimates' RMS")
            out.append(
                f"On {x.calls.n} data sets of about {s.size} sentences drawn from {self.corpus_name or 'the corpus'}, "
                f"{x.system} {how} with {_seeds(s)} and compared with itself {_design_words(s, x.ms)} "
                f"got a false call from textbcv's decision rule (P ≥ {s.threshold:g}) on {_pct(x.calls)} data sets "
                f"({_seeds(s, 1)} called better on {x.calls_b.k}, {_seeds(s, 0)} on {x.calls_a.k}){ratio}.")
        for c in self.close:
            algorithm = (s.pair_options or {}).get("algorithm") or "lbfgs"
            truth = "" if c.mean_truth is None else (
                f" (its truth, measured per data set by training both on {s.truth_halvings} halvings of it and "
                f"testing on the corpus's other sentences, averaged {100 * c.mean_truth:+.2f} F1 points, SD "
                + ("—" if c.sd_truth is None else f"{100 * c.sd_truth:.2f}") + " over data sets)")
            ratio = "" if c.sd_over_rmse_net is None else (
                f"; the posterior's median SD was {c.sd_over_rmse_net:.2f} times the estimates' RMSE net of the "
                "truth's noise")
            out.append(
                f"On {c.coverage.n} data sets of about {s.size} sentences drawn from "
                f"{self.corpus_name or 'the corpus'}, {c.b} against {c.a} trained with {algorithm} "
                f"{_design_words(s, c.ms)}"
                f"{truth}: the 95% credible interval of ΔF1, widened by the truth's noise, held the truth on "
                f"{_pct(c.coverage)} data sets, and textbcv's decision rule (P ≥ {s.threshold:g}) called {c.b} "
                f"better on {_pct(c.calls_b)} data sets and {c.a} on {_pct(c.calls_a)} data sets{ratio}.")
        return " ".join(out)

    def text(self) -> str:
        """The short terminal summary, then the sentence to quote.

        Returns
        -------
        str
        """
        lines = []
        for x in self.nulls:
            st = self.settings
            lines += [f"{x.system} against itself ({_seeds(st)}), {x.calls.n} data sets:",
                      f"  design: {_design_line(st, x.ms)}",
                      f"  false calls, either way: {x.calls.words()}",
                      f"  {_seeds(st, 1)} called better: {x.calls_b.words()}; {_seeds(st, 0)}: {x.calls_a.words()}",
                      f"  null ΔF1 RMS {100 * x.rms_estimate:.2f} points, median posterior SD "
                      f"{100 * x.median_sd:.2f}" + ("" if x.sd_over_rms is None else f" ({x.sd_over_rms:.2f} × RMS)")]
            if st.design != "fixed-split":  # one training set measures no model noise: nothing floored there
                lines += [f"  model-noise part estimated at zero in {x.floored.words()}; calls there "
                          f"{x.calls_floored.words()}, elsewhere {x.calls_other.words()}"]
        for c in self.close:
            lines += [f"{c.b} against {c.a} (close pair, truth from {self.settings.truth_halvings} halvings), "
                      f"{c.coverage.n} data sets:",
                      f"  design: {_design_line(self.settings, c.ms)}",
                      f"  {c.b} called better: {c.calls_b.words()}; {c.a}: {c.calls_a.words()}",
                      f"  95% interval (widened by the truth's noise) held the truth: {c.coverage.words()}"]
            if c.mean_truth is not None and c.median_sd is not None and c.rmse is not None:
                lines += [f"  true ΔF1 {100 * c.mean_truth:+.2f} points on average"
                          + ("" if c.sd_truth is None else f" (SD {100 * c.sd_truth:.2f} over data sets)")
                          + f"; median posterior SD {100 * c.median_sd:.2f}, RMSE {100 * c.rmse:.2f}"
                          + ("" if c.rmse_net is None else f", net of the truth's noise {100 * c.rmse_net:.2f}")
                          + ("" if c.sd_over_rmse_net is None else f" ({c.sd_over_rmse_net:.2f} × RMSE net)")]
        return "\n".join(lines + ["", self.sentence()]) + "\n"


def _pct(c) -> str:
    """A rate as the sentence quotes it: ``'2.0% [1.1, 3.8] of the'``, or ``'no'``."""
    return "no" if c.rate is None or c.lo is None or c.hi is None else (
        f"{100 * c.rate:.1f}% [{100 * c.lo:.1f}, {100 * c.hi:.1f}] of the")


def _design_line(settings: CalibrationSettings, ms: dict[str, int] | None) -> str:
    """The design in the terminal summary: ``fixed m = 3``, or ``measured m = 3→7 (m = 3 on 8, m = 7 on 2; ...)``,
    or ``one fixed split (20% test, 2 seeds per side)``."""
    if settings.design == "fixed-split":
        k = int(settings.options.get("train_seeds") or 1)
        return f"one fixed split ({100 * (settings.test_share or 0):g}% test, {k} seeds per side)"
    if settings.design != "measured":
        return f"fixed m = {settings.m}"
    at = ", ".join(f"m = {m} on {k}" for m, k in (ms or {}).items())
    mean = _mean_folds(ms)
    return (f"measured m = {settings.m}→{settings.m_max} ({at or 'none yet'}"
            + ("" if mean is None else f"; {mean:.2f} folds per system on average") + ")")
