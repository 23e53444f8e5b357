"""What a finished comparison can detect, and what more splits or more text would (``textbcv plan``).

The run's paired posterior of ΔF1 is the pilot. With more splits the model noise and the test part's unshared
share fall as 1/m, its shared share does not; with more text every part falls as 1/n (assumed, not measured,
for the related documents' part). Gains are fractions of F1.

Examples
--------
>>> from textbcv.stats.paired import PairedDifference
>>> p = PairedDifference(0.004, 0.002 ** 2, 0.0011 ** 2, 5.0, 3, 900, 0.8, test_shared=0.6)
>>> pp = pair_plan("A", "B", p, power=0.8, threshold=0.95, target=0.005)
>>> round(100 * pp.detectable, 2), pp.m_for_target, round(pp.data_factor, 2)
(0.65, 7, 1.7)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from textbcv.comparison.from_folds import stored_paired
from textbcv.errors import InputError
from textbcv.stats.bayes import THRESHOLD
from textbcv.stats.paired import PairedDifference

__all__ = ["PairPlan", "Plan", "pair_plan", "plan_report", "M_STEPS", "SEED_STEPS"]

#: the numbers of training seeds per fold a plan looks at (those above the run's)
SEED_STEPS = (2, 3, 5, 10, 20)

#: The numbers of splits a plan looks at (those above the run's own m).
M_STEPS = (2, 3, 4, 5, 7, 10, 15, 20, 31)


@dataclass(frozen=True)
class PairPlan:
    """What one pair's comparison detects (F1, fractions).

    Attributes
    ----------
    a, b : str
        The pair's systems (differences are B − A).
    estimate : float
        ΔF1 of the run.
    m : int
        The run's number of splits.
    detectable, detectable_50 : float
        The smallest true gain called with the plan's power, and with power ½.
    by_m : tuple of (int, float)
        (m', detectable gain at m') for m' in :data:`M_STEPS` above m.
    target : float or None
        The gain planned for.
    power_at_target : float or None
        The probability of calling a true gain of ``target``.
    m_for_target : int or None
        The smallest m' that detects ``target``; None if more splits alone never get there.
    data_factor : float or None
        How many times the text (same m) would detect ``target``.
    seeds : tuple of int or None
        (S_A, S_B), the run's seeds per fold when the seeds' part was measured on its own; None otherwise.
    by_seeds : tuple of (int, float)
        (S', detectable gain with S' seeds per fold, same m) for S' in :data:`SEED_STEPS` above the run's.
    seeds_for_target : int or None
        The smallest S' that detects ``target``; None if more seeds alone never get there.
    floored : bool
        The models' own noise measured 0 on the run's folds: every gain above counts it as 0.
    design : {"mx2", "fixed"}
        ``"fixed"``: one training and one test set (``m`` 1, no splits to add; seeds and test text plan it).
    """

    a: str
    b: str
    estimate: float
    m: int
    detectable: float
    detectable_50: float
    by_m: tuple[tuple[int, float], ...]
    target: float | None = None
    power_at_target: float | None = None
    m_for_target: int | None = None
    data_factor: float | None = None
    seeds: tuple[int, int] | None = None
    by_seeds: tuple[tuple[int, float], ...] = ()
    seeds_for_target: int | None = None
    floored: bool = False
    design: str = "mx2"

    def to_dict(self) -> dict:
        """JSON-ready form (``textbcv plan --json``); ``by_m`` as a list of ``[m', gain]``.

        Returns
        -------
        dict
        """
        return {"a": self.a, "b": self.b, "estimate": self.estimate, "m": self.m, "detectable": self.detectable,
                "detectable_50": self.detectable_50, "by_m": [list(x) for x in self.by_m], "target": self.target,
                "power_at_target": self.power_at_target, "m_for_target": self.m_for_target,
                "data_factor": self.data_factor, "seeds": None if self.seeds is None else list(self.seeds),
                "by_seeds": [list(x) for x in self.by_seeds], "seeds_for_target": self.seeds_for_target,
                "floored": self.floored, "design": self.design}


@dataclass(frozen=True)
class Plan:
    """The plan of every pair of a run (:func:`plan_report`).

    Attributes
    ----------
    power, threshold : float
        The power the gains are quoted for, and the decision threshold.
    target : float or None
        The gain planned for, as a fraction of F1.
    pairs : tuple of PairPlan
        The plan of every F1 pair with a paired posterior.
    unpaired : tuple of str
        Pairs ("A vs B") without a paired posterior, left out.
    identical : tuple of str
        Pairs with the same counts on every test sentence (nothing to plan from), left out.
    """

    power: float
    threshold: float
    target: float | None
    pairs: tuple[PairPlan, ...]
    unpaired: tuple[str, ...] = ()
    identical: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """JSON-ready form of the whole plan.

        Returns
        -------
        dict
        """
        return {"power": self.power, "threshold": self.threshold, "target": self.target,
                "pairs": [p.to_dict() for p in self.pairs], "unpaired": list(self.unpaired),
                "identical": list(self.identical)}


def pair_plan(a: str, b: str, p: PairedDifference, power: float = 0.8, threshold: float = THRESHOLD,
              target: float | None = None, steps: Sequence[int] = M_STEPS) -> PairPlan:
    """The :class:`PairPlan` of one pair's paired posterior ``p``.

    Parameters
    ----------
    a, b : str
        The pair's systems (the difference is B − A).
    p : PairedDifference
        The paired posterior of the pair's ΔF1.
    power : float
        The probability of calling a true gain that ``detectable`` is quoted for.
    threshold : float
        The decision threshold on P(better).
    target : float or None
        A true gain to plan for, as a fraction of F1 (0.005 is half a point).
    steps : sequence of int
        The numbers of splits to look at (those above the run's m).

    Returns
    -------
    PairPlan
    """
    fixed = p.design == "fixed"  # one training set: no splits to add
    by_m = () if fixed else tuple((k, p.at_m(k).detectable(power, threshold)) for k in steps if k > p.m)
    now = p.detectable(power, threshold)
    extra: dict[str, Any] = {}
    if p.seeds is not None:
        s_now = max(p.seeds)
        by_seeds = tuple((k, p.at_seeds(k).detectable(power, threshold)) for k in SEED_STEPS if k > s_now)
        extra = {"seeds": p.seeds, "by_seeds": by_seeds}
        if target is not None:
            reach_s = [k for k, d in ((s_now, now), *by_seeds) if d <= target]
            extra["seeds_for_target"] = reach_s[0] if reach_s else None
    if target is not None:
        reach = [k for k, d in ((p.m, now), *by_m) if d <= target]
        extra.update({"target": target, "power_at_target": p.power(target, threshold),
                      "m_for_target": None if fixed else reach[0] if reach else None,
                      "data_factor": (now / target) ** 2 if target > 0 else None})
    return PairPlan(a, b, p.estimate, p.m, now, p.detectable(0.5, threshold), by_m, **extra, floored=p.floored,
                    design=p.design)


def plan_report(report: Mapping, power: float = 0.8, threshold: float | None = None,
                target: float | None = None) -> Plan:
    """The plan of a finished run from its ``report.json`` content (F1 of every pair).

    Parameters
    ----------
    report : mapping
        ``report.json``'s content.
    power : float
        The probability of calling a true gain, in (0, 1).
    threshold : float or None
        The decision threshold, in [0.5, 1); None takes the report's (0.95 when it has none).
    target : float or None
        A gain to detect, as a fraction in (0, 1) (0.005 is half a point).

    Returns
    -------
    Plan

    Raises
    ------
    InputError
        When ``power``, the threshold or ``target`` is out of range.
    """
    if not 0 < power < 1:
        raise InputError(f"power must lie in (0, 1), got {power}", param="power")
    tau = float(report.get("threshold") or THRESHOLD) if threshold is None else threshold
    if not 0.5 <= tau < 1:
        raise InputError(f"threshold must lie in [0.5, 1), got {tau}", param="threshold")
    if target is not None and not 0 < target < 1:
        raise InputError(f"target-delta must lie in (0, 100) points, got {100 * target:g}", param="target_delta")
    stored = stored_paired(report)
    pairs, unpaired, identical = [], [], []
    for c in report.get("comparisons") or ():
        if c.get("metric") != "f1":
            continue
        p = stored.get((c["a"], c["b"]), {}).get("f1")
        if p is None:
            unpaired.append(f"{c['a']} vs {c['b']}")
        elif p.sd < 1e-12:  # the same counts on every sentence (0 but for rounding): any gain would be "detected"
            identical.append(f"{c['a']} vs {c['b']}")
        else:
            pairs.append(pair_plan(c["a"], c["b"], p, power, tau, target))
    return Plan(power, tau, target, tuple(pairs), tuple(unpaired), tuple(identical))
