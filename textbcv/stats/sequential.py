"""Sequential t-test on m×2 BCV per-fold differences (thesis chapter 5, Algorithm 5.1).

H0: μ ≤ Δ vs H1: μ > Δ, μ = E[metric_B − metric_A]. :class:`SequentialTTest` takes one split at a time, so a
pipeline trains split j only when the test asks for it. See docs/method.md, "9. The sequential t-test".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from .correlation import C_hat, f_hat

__all__ = ["SequentialTTest", "SequentialState", "SequentialPair", "sequential_t_test",
           "sequential_pairs", "stop_reason", "look_threshold", "STOP_RULES", "MEASURED_BAND", "var2", "Q_CHOICES"]

#: ``"alpha/2"``: t quantile at upper α/2 as printed (eq. 5.40); ``"alpha"``: the one-sided textbook choice.
Q_CHOICES = ("alpha/2", "alpha")


def var2(values: Sequence[float] | np.ndarray) -> float:
    """Var2 = (1/2m) Σ_j Σ_k (μ̂_k^(j) − μ̂_m×2)² (eq. 5.12): the 1/N variance of the 2m values.

    Parameters
    ----------
    values : array_like
        The 2m per-fold values (flattened).

    Returns
    -------
    float

    Examples
    --------
    >>> var2([0.1, 0.3, 0.2, 0.2, 0.0, 0.4])
    0.01666...
    """
    v = np.asarray(values, dtype=float).ravel()
    return float(np.mean((v - v.mean()) ** 2))


@dataclass(frozen=True)
class SequentialState:
    """The test after m splits.

    Attributes
    ----------
    m : int
    mean : float
        μ̂_m×2, the mean of the 2m fold differences.
    var2, sigma : float
        Var2 (eq. 5.12) and σ̂_m = √Var2.
    C_hat : float
        Ĉ_m (eq. 5.32).
    f_hat : int
        f̂_m = 2m − 1 (eq. 5.33).
    t_q : float
        The upper t quantile of the boundary (at α/2 or α), f̂_m df.
    boundary : float
        I_U = Δ + Ĉ_m σ̂_m t_q (eq. 5.40); H0 is rejected when ``mean`` exceeds it (from m_start on).
    ci : (float, float)
        μ̂_m×2 ± Ĉ_m σ̂_m t_{α/2}(f̂_m), the two-sided 1 − α interval (eq. 5.36).
    decision : {"reject H0", "do not reject H0", "continue"}
    """

    m: int
    mean: float
    var2: float
    sigma: float
    C_hat: float
    f_hat: int
    t_q: float
    boundary: float
    ci: tuple[float, float]
    decision: str  # "reject H0", "do not reject H0" or "continue"

    @property
    def done(self) -> bool:
        """Whether the test has stopped (``decision`` is not "continue")."""
        return self.decision != "continue"

    def as_dict(self) -> dict:
        """JSON-ready form (also named ``to_dict``).

        Returns
        -------
        dict
        """
        return {"m": self.m, "mean": self.mean, "var2": self.var2, "sigma": self.sigma, "C_hat": self.C_hat,
                "f_hat": self.f_hat, "t_q": self.t_q, "boundary": self.boundary, "ci": list(self.ci),
                "decision": self.decision}

    to_dict = as_dict

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SequentialState:
        """Read :meth:`as_dict`'s JSON back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        SequentialState
        """
        return cls(d["m"], d["mean"], d["var2"], d["sigma"], d["C_hat"], d["f_hat"], d["t_q"], d["boundary"],
                   (d["ci"][0], d["ci"][1]), d["decision"])


@dataclass
class SequentialTTest:
    """Algorithm 5.1, one split at a time.

    Parameters
    ----------
    alpha : float
    delta : float
        Δ of H0: μ ≤ Δ.
    m_start : int
        First m at which the test may reject.
    M : int
        Last m (thesis: 12 at α = 0.05; see :func:`textbcv.stats.correlation.choose_max_m`).
    q : {"alpha/2", "alpha"}
        Quantile in the boundary: t_{α/2} as the thesis prints, or the one-sided t_α.
    values, history : list
        Filled by :meth:`update` (the fold differences, the state after each split); leave empty.

    Examples
    --------
    >>> test = SequentialTTest(alpha=0.05, m_start=3, M=5)
    >>> for d in [(0.02, 0.03), (0.025, 0.02), (0.03, 0.028)]:
    ...     state = test.update(d)
    >>> state.m, state.decision, round(state.boundary, 4)
    (3, 'reject H0', 0.0129)
    >>> SequentialTTest(M=4).run(lambda j: (0.01, -0.01)).decision  # pulls splits 0..3
    'do not reject H0'
    """

    alpha: float = 0.05
    delta: float = 0.0
    m_start: int = 3
    M: int = 12
    q: str = "alpha/2"
    values: list = field(default_factory=list)
    history: list = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must lie in (0, 1), got {self.alpha}")
        if self.q not in Q_CHOICES:
            raise ValueError(f"q must be one of {Q_CHOICES}, got {self.q!r}")
        if not 1 <= self.m_start <= self.M:
            raise ValueError(f"need 1 <= m_start <= M, got m_start={self.m_start}, M={self.M}")

    @property
    def state(self) -> SequentialState | None:
        """The state after the last split, or None before the first."""
        return self.history[-1] if self.history else None

    def update(self, split_differences: Sequence[float]) -> SequentialState:
        """Add the next split's two fold differences (d_j1, d_j2); return the new state (also kept in ``history``).

        Parameters
        ----------
        split_differences : sequence of 2 float
            metric_B − metric_A, finite; ValueError once the test has stopped.

        Returns
        -------
        SequentialState
        """
        if self.history and self.history[-1].done:
            raise ValueError(f"the test has already stopped ({self.history[-1].decision}) at m = {self.history[-1].m}")
        d = [float(x) for x in split_differences]
        if len(d) != 2 or not all(math.isfinite(x) for x in d):
            raise ValueError(f"a split gives two finite fold differences, got {split_differences!r}")
        self.values.extend(d)
        m = len(self.values) // 2
        v = np.asarray(self.values)
        mean = float(v.mean())
        s2 = var2(v)
        sigma = math.sqrt(s2)
        ch, fh = C_hat(m), f_hat(m)
        level = self.alpha / 2 if self.q == "alpha/2" else self.alpha
        tq = float(stats.t.isf(level, fh))
        boundary = self.delta + ch * sigma * tq
        half = ch * sigma * float(stats.t.isf(self.alpha / 2, fh))
        if m >= self.m_start and mean > boundary:
            decision = "reject H0"
        elif m >= self.M:
            decision = "do not reject H0"
        else:
            decision = "continue"
        state = SequentialState(m, mean, s2, sigma, ch, fh, tq, boundary, (mean - half, mean + half), decision)
        self.history.append(state)
        return state

    def run(self, next_split: Callable[[int], Sequence[float]]) -> SequentialState:
        """Call ``next_split(j)`` for j = current m, m+1, ... until the test stops (at M at the latest).

        Parameters
        ----------
        next_split : callable
            ``next_split(j)`` gives the two fold differences of split j (0-based).

        Returns
        -------
        SequentialState
        """
        state = self.state
        while state is None or not state.done:
            state = self.update(next_split(len(self.values) // 2))
        return state


def sequential_t_test(differences: np.ndarray | Sequence[Sequence[float]], alpha: float = 0.05, delta: float = 0.0,
                      m_start: int = 3, M: int | None = None, q: str = "alpha/2") -> dict:
    """Run Algorithm 5.1 over stored per-fold differences; "continue" if fewer than M splits and not stopped.

    Parameters
    ----------
    differences : array_like, shape (m, 2)
        Per-fold differences metric_B − metric_A, one row per split.
    alpha : float
    delta : float
        Δ of H0: μ ≤ Δ, in the differences' units.
    m_start : int
        First m at which the test may reject (capped at the number of rows).
    M : int, optional
        Last m; default the number of rows.
    q : {"alpha/2", "alpha"}
        See :class:`SequentialTTest`.

    Returns
    -------
    dict
        :meth:`SequentialState.as_dict` of the final state, plus ``m_stop`` and ``history`` (every m's state).

    Examples
    --------
    >>> r = sequential_t_test([[0.01, 0.02], [0.0, 0.015], [0.012, 0.01]])
    >>> r["m_stop"], r["decision"]
    (3, 'do not reject H0')
    """
    d = np.asarray(differences, dtype=float)
    if d.ndim != 2 or d.shape[1] != 2:
        raise ValueError(f"differences must have shape (m, 2), got {d.shape}")
    test = SequentialTTest(alpha=alpha, delta=delta, m_start=min(m_start, d.shape[0]),
                           M=d.shape[0] if M is None else M, q=q)
    state = None
    for row in d:
        state = test.update(row)
        if state.done:
            break
    assert state is not None  # d has at least one split
    out = state.as_dict()
    out["m_stop"] = state.m
    out["history"] = [s.as_dict() for s in test.history]
    return out


#: ``t_test`` of a :class:`SequentialPair` when one direction rejected equality
REJECTS = "rejects equality"


@dataclass(frozen=True)
class SequentialPair:
    """The sequential t-test of one pair in both directions, with the pair's names.

    Attributes
    ----------
    a, b : str
        The systems; the differences are b − a.
    metric : str
        The per-fold score tested.
    b_better, a_better : SequentialState
        Where the test of "B better" (on the differences) and of "A better" (on their negatives) stopped.
    t_test : {"rejects equality", "does not reject equality"}
    ahead : {"A", "B"} or None
        The side a rejection favours.
    estimate : float
        μ̂_m×2 over all m splits.
    ci : (float, float)
        The interval where the "B better" test stopped.

    Examples
    --------
    >>> s = SequentialPair.of("iob2", "iobes", [[0.02, 0.03], [0.025, 0.02], [0.03, 0.028]])
    >>> s.t_test, s.ahead, s.ahead_name
    ('rejects equality', 'B', 'iobes')
    >>> SequentialPair.from_dict(s.to_dict()) == s
    True
    """

    a: str
    b: str
    metric: str
    b_better: SequentialState
    a_better: SequentialState
    t_test: str
    ahead: str | None
    estimate: float
    ci: tuple[float, float]

    @classmethod
    def of(cls, a: str, b: str, differences: np.ndarray | Sequence[Sequence[float]], metric: str = "f1",
           alpha: float = 0.05, m_start: int = 3, M: int | None = None) -> SequentialPair:
        """Run the test in both directions on the per-fold differences ``b − a``.

        Parameters
        ----------
        a, b : str
        differences : array_like, shape (m, 2)
            Per-fold differences of ``metric``, b − a, one row per split.
        metric : str
            Recorded only.
        alpha : float
            Significance level of each direction.
        m_start : int
            First m at which a direction may reject (capped at m).
        M : int, optional
            Last m of each direction (default m; a value below m is raised to m).

        Returns
        -------
        SequentialPair
        """
        d = np.asarray(differences, dtype=float)
        if d.ndim != 2 or d.shape[1] != 2 or d.shape[0] < 1:
            raise ValueError(f"differences must have shape (m, 2), got {d.shape}")
        m = d.shape[0]
        states: dict[str, SequentialState] = {}
        for label, sign in (("b_better", 1.0), ("a_better", -1.0)):
            test = SequentialTTest(alpha=alpha, m_start=min(m_start, m), M=max(m, m if M is None else M))
            for row in sign * d:
                states[label] = test.update(tuple(row))
                if states[label].done:
                    break
        if states["b_better"].decision == "reject H0":
            t_test, ahead = REJECTS, "B"
        elif states["a_better"].decision == "reject H0":
            t_test, ahead = REJECTS, "A"
        else:
            t_test, ahead = "does not reject equality", None
        return cls(a, b, metric, states["b_better"], states["a_better"], t_test, ahead, float(d.mean()),
                   states["b_better"].ci)

    @property
    def ahead_name(self) -> str | None:
        """The system a rejection favours, or None."""
        return {"A": self.a, "B": self.b}.get(self.ahead or "")

    def to_dict(self) -> dict:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {"a": self.a, "b": self.b, "metric": self.metric, "b_better": self.b_better.as_dict(),
                "a_better": self.a_better.as_dict(), "t_test": self.t_test, "ahead": self.ahead,
                "estimate": self.estimate, "ci": list(self.ci)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SequentialPair:
        """Read :meth:`to_dict`'s JSON back (``metric`` defaults to ``"f1"``, ``ahead`` to None).

        Parameters
        ----------
        d : mapping

        Returns
        -------
        SequentialPair
        """
        ci = d["ci"]
        return cls(d["a"], d["b"], d.get("metric", "f1"), SequentialState.from_dict(d["b_better"]),
                   SequentialState.from_dict(d["a_better"]), d["t_test"], d.get("ahead"), d["estimate"],
                   (ci[0], ci[1]))


def sequential_pairs(values: Mapping[str, Sequence[float]], m: int, alpha: float = 0.05, metric: str = "f1",
                     m_start: int = 3, M: int | None = None) -> list[SequentialPair]:
    """The sequential t-test of every pair (a before b, in the order of ``values``).

    Parameters
    ----------
    values : mapping of str to sequence of float
        System name → its 2m per-fold scores, in fold order.
    m : int
    alpha : float
        Significance level of each direction.
    metric : str
        Recorded in each result.
    m_start : int
        First m at which a direction may reject.
    M : int, optional
        Last m (default m).

    Returns
    -------
    list of SequentialPair

    Examples
    --------
    >>> v = {"A": [0.80, 0.81, 0.79, 0.80, 0.81, 0.80], "B": [0.83, 0.84, 0.82, 0.83, 0.85, 0.83]}
    >>> [(s.a, s.b, s.t_test, s.ahead) for s in sequential_pairs(v, 3)]
    [('A', 'B', 'rejects equality', 'B')]
    """
    arrays = {n: np.asarray(v, dtype=float).reshape(m, 2) for n, v in values.items()}
    names = list(arrays)
    return [SequentialPair.of(a, b, arrays[b] - arrays[a], metric=metric, alpha=alpha, m_start=m_start, M=M)
            for i, a in enumerate(names) for b in names[i + 1:]]


#: Stopping rules of a sequential comparison: the sequential t-test, the Bayes test's P(better) at a level
#: corrected for the looks, or ``measured``: stop at the first m only where the models' noise was measured and P is
#: outside :data:`MEASURED_BAND`, else go straight to the last m (nested: the first m's folds are kept).
STOP_RULES = ("t-test", "bayes", "measured")
#: P(better) at the first m that sends a ``measured`` run on to its last m: near the threshold, where a call at m = 3
#: rests on 5 degrees of freedom. Chosen by scripts/design_study.py on the committed units (docs/RESULTS.md,
#: "Designs that decide only on measured model noise").
MEASURED_BAND = (0.90, 0.99)


def look_threshold(threshold: float, looks: int) -> float:
    """The level P(better) must reach to stop a run early under ``--stop bayes``: 1 − (1 − τ)/L for L looks.

    Parameters
    ----------
    threshold : float
        The report's decision threshold τ.
    looks : int
        The number of m at which the run may stop, M − m_start + 1 (≥ 1).

    Returns
    -------
    float

    Examples
    --------
    >>> round(look_threshold(0.95, 10), 4)   # m = 3 … 12
    0.995
    """
    if looks < 1:
        raise ValueError("a sequential run looks at least once")
    return 1.0 - (1.0 - threshold) / looks


def stop_reason(rule: str, pairs: Sequence[SequentialPair], probabilities: Sequence[float | None],
                threshold: float, looks: int = 1, floored: Sequence[bool] = ()) -> str | None:
    """Why a sequential comparison stops at this m under ``rule``, or None when it goes on.

    ``"t-test"``: the sequential t-test rejected equality for every pair; ``"bayes"``: every pair's larger
    P(better) for F1 reached :func:`look_threshold` (never where F1 is undefined); ``"measured"``: no pair's
    model-noise part is floored at 0 and no pair's larger P(better) lies in :data:`MEASURED_BAND` (a run that goes on
    goes to its last m).

    Parameters
    ----------
    rule : {"t-test", "bayes"}
    pairs : sequence of SequentialPair
        Every pair's test at this m (read by ``"t-test"``).
    probabilities : sequence of float or None
        Every pair's larger P(better) for F1 at this m (read by ``"bayes"`` and ``"measured"``).
    threshold : float
        The decision threshold τ.
    looks : int
        The number of m at which the run may stop.
    floored : sequence of bool
        Whether each pair's model-noise part for F1 is floored at 0 at this m (read by ``"measured"``).

    Returns
    -------
    str or None

    Examples
    --------
    >>> stop_reason("bayes", [], [0.99, 0.999], 0.95, looks=10) is None
    True
    >>> stop_reason("measured", [], [0.97], 0.95, floored=[False]) is None  # near the threshold: on to the last m
    True
    """
    if rule not in STOP_RULES:
        raise ValueError(f"unknown stopping rule {rule!r} (rules: {', '.join(STOP_RULES)})")
    if rule == "t-test":
        if all(s.t_test == REJECTS for s in pairs):
            return "the sequential t-test on per-fold F1 differences decided every pair"
        return None
    if rule == "measured":
        lo, hi = MEASURED_BAND
        if any(floored):
            return None
        if any(p is not None and lo <= p < hi for p in probabilities):
            return None
        return (f"the models' noise was measured for every pair and no P(better) for F1 lay in [{lo:g}, {hi:g})")
    level = look_threshold(threshold, looks)
    if probabilities and all(p is not None and p >= level for p in probabilities):
        return (f"the Bayes test's P(better) for F1 reached {level:.4g} ({threshold:g} over {looks} looks) for every "
                "pair")
    return None
