"""The answer of the Bayes test as typed values: :class:`Posterior`, :class:`Comparison`, :class:`BayesAnswer`.

:meth:`BayesAnswer.to_dict` is the JSON of ``textbcv test --json`` and the top of ``report.json`` (key for key,
in order); ``from_dict`` reads it back.

Examples
--------
>>> from textbcv.stats.compare import bayes_answer
>>> A = [{"tp": 90, "fp": 10, "fn": 12}] * 6
>>> ans = bayes_answer({"A": A, "B": [{"tp": 93, "fp": 9, "fn": 10}] * 6}, m=3)
>>> c = ans.comparison("A", "B")
>>> c.metric, round(c.p_b_better, 3), c.decision, c.winner
('f1', 0.777, 'no clear difference', None)
>>> BayesAnswer.from_dict(ans.to_dict()) == ans
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .bayes import THRESHOLD
from .paired import PairedDifference
from .posterior import MetricPosterior

__all__ = ["Posterior", "Difference", "Caution", "Comparison", "BayesAnswer"]

@dataclass(frozen=True)
class Posterior:
    """One metric of one system: its pooled estimate, credible interval and posterior summary (fractions).

    Attributes
    ----------
    estimate : float or None
        The pooled score (None where the metric is undefined).
    ci : (float, float) or None
        The credible interval (:func:`textbcv.stats.compare.credible_interval`).
    mode, mean : float or None
    interval : {"equal-tailed", "one-sided"} or None
        Kind of ``ci``; one-sided at a score of 0 or 100%.
    undefined : str or None
        Why the metric does not exist (e.g. ``"no predicted chunks"``).
    distribution : MetricPosterior or None
        The posterior itself when computed in this process; not in the JSON, not compared.

    Examples
    --------
    >>> Posterior.undefined_because("no gold chunks").to_dict()
    {'estimate': None, 'ci': None, 'mode': None, 'mean': None, 'interval': None, 'undefined': 'no gold chunks'}
    """

    estimate: float | None
    ci: tuple[float, float] | None
    mode: float | None
    mean: float | None
    interval: str | None
    undefined: str | None = None
    distribution: MetricPosterior | None = field(default=None, compare=False, repr=False)

    @classmethod
    def undefined_because(cls, reason: str) -> Posterior:
        """The entry of a metric a system cannot have: every number None.

        Parameters
        ----------
        reason : str
            E.g. ``"no predicted chunks"`` (precision) or ``"no gold chunks"`` (recall).

        Returns
        -------
        Posterior
        """
        return cls(None, None, None, None, None, reason)

    @property
    def defined(self) -> bool:
        """Whether the metric exists (has an estimate)."""
        return self.estimate is not None

    def to_dict(self) -> dict:
        """JSON-ready form (``ci`` a list; ``undefined`` only when set; no ``distribution``).

        Returns
        -------
        dict
        """
        out = {"estimate": self.estimate, "ci": None if self.ci is None else list(self.ci), "mode": self.mode,
               "mean": self.mean, "interval": self.interval}
        if self.undefined:
            out["undefined"] = self.undefined
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Posterior:
        """Read :meth:`to_dict`'s JSON back; absent keys read as None.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        Posterior
        """
        ci = d.get("ci")
        return cls(d.get("estimate"), None if ci is None else (ci[0], ci[1]), d.get("mode"), d.get("mean"),
                   d.get("interval"), d.get("undefined"))


@dataclass(frozen=True)
class Difference:
    """The posterior of Δ = metric(B) − metric(A) of one pair: its estimate and credible interval.

    Attributes
    ----------
    estimate : float
        Δ of the pooled counts.
    ci : (float, float)
        Equal-tailed 1 − alpha credible interval.
    basis : {"paired", "independent"}
        ``paired``: from both systems' counts on the same test sentences (``paired``); ``independent``: the two
        systems' posteriors combined as if independent (without per-sentence counts; wider).
    paired : PairedDifference or None
    decisive : (float, float) or None
        The equal-tailed 2·threshold − 1 interval the decision rule decides by: a side is called better exactly
        when it lies beyond 0 (or the rope) on that side.
    level : float or None
        Its probability, 2·threshold − 1.

    Examples
    --------
    >>> d = Difference(0.004, (-0.001, 0.009), "independent")
    >>> Difference.from_dict(d.to_dict()) == d
    True
    """

    estimate: float
    ci: tuple[float, float]
    basis: str
    paired: PairedDifference | None = None
    decisive: tuple[float, float] | None = None
    level: float | None = None

    def to_dict(self) -> dict:
        """JSON-ready form; a paired one adds :meth:`PairedDifference.to_dict`'s entries, less ``estimate``, ``metric``.

        Returns
        -------
        dict
        """
        out: dict = {"basis": self.basis, "estimate": self.estimate}
        if self.decisive is not None:  # the interval the rule decides by comes first; ``ci`` is secondary
            out["decisive"] = {"level": self.level, "interval": list(self.decisive)}
        out["ci"] = list(self.ci)
        if self.paired is not None:
            p = self.paired.to_dict()
            out.update({k: v for k, v in p.items() if k not in ("estimate", "metric")})
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Difference:
        """Read :meth:`to_dict`'s JSON back.

        Parameters
        ----------
        d : mapping
            A paired one may carry the comparison's ``metric`` (default ``"f1"``).

        Returns
        -------
        Difference
        """
        paired = None
        if d.get("basis") == "paired":
            paired = PairedDifference.from_dict({k: v for k, v in d.items() if k != "decisive"}
                                                | {"metric": d.get("metric", "f1")})
        dec = d.get("decisive")
        return cls(d["estimate"], (d["ci"][0], d["ci"][1]), d["basis"], paired,
                   None if dec is None else (dec["interval"][0], dec["interval"][1]),
                   None if dec is None else dec["level"])


@dataclass(frozen=True)
class Caution:
    """A caution that stands beside one call: made once when the report is assembled, worded by every output.

    Attributes
    ----------
    kind : str
        ``model-noise`` (the models' own noise measured 0 on the folds) or ``calibration`` (the user's own
        calibration of the corpus measured more false calls than the rule's rate).
    mark : str
        The short form for a table cell or a plot title (``model noise not measured``).
    text : str
        The clause said at the call in the answer's sentences.
    unsupported : bool
        The calibration's whole Wilson interval lies above the rule's rate: the call is not supported on this corpus.

    Examples
    --------
    >>> c = Caution("model-noise", "model noise not measured", "the models' own noise measured 0")
    >>> Caution.from_dict(c.to_dict()) == c
    True
    """

    kind: str
    mark: str
    text: str
    unsupported: bool = False

    def to_dict(self) -> dict:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {"kind": self.kind, "mark": self.mark, "text": self.text, "unsupported": self.unsupported}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Caution:
        """Read :meth:`to_dict`'s JSON back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        Caution
        """
        return cls(str(d["kind"]), str(d["mark"]), str(d["text"]), bool(d.get("unsupported", False)))


@dataclass(frozen=True)
class Comparison:
    """The Bayes test of one pair on one metric: P(B better), P(A better) and the decision.

    Attributes
    ----------
    a, b : str
        The systems (``b`` after ``a`` in input order).
    metric : {"precision", "recall", "f1"}
    p_b_better, p_a_better : float or None
        With a rope, of being better by more than it; None where the metric is undefined for either system.
    decision : {"B better", "A better", "no clear difference"}
        Made by :func:`textbcv.stats.bayes.decide`.
    p_equivalent : float or None
        P(the two differ by at most the rope).
    equivalent : bool or None
        P(equivalent) ≥ the threshold; None without a rope.
    mc_p_b_better, mc_se : float or None
        The Monte Carlo figures.
    undefined : str or None
        Why the comparison cannot be made.
    difference : Difference or None
    cautions : tuple of Caution
        What stands beside the decision (set when the report is assembled; empty without any).

    Examples
    --------
    >>> c = Comparison("iob2", "iobes", "f1", 0.97, 0.03, "B better")
    >>> c.winner, c.p_better("iob2"), c.to_dict()["decision"]
    (('iobes', 'iob2'), 0.03, 'B better')
    """

    a: str
    b: str
    metric: str
    p_b_better: float | None
    p_a_better: float | None
    decision: str
    p_equivalent: float | None = None
    equivalent: bool | None = None
    mc_p_b_better: float | None = None
    mc_se: float | None = None
    undefined: str | None = None
    difference: Difference | None = None
    cautions: tuple[Caution, ...] = ()

    @property
    def winner(self) -> tuple[str, str] | None:
        """(better, worse) when the decision names a winner, else None."""
        if self.decision == "B better":
            return self.b, self.a
        if self.decision == "A better":
            return self.a, self.b
        return None

    def name(self, side: str) -> str:
        """The system of ``side``.

        Parameters
        ----------
        side : {"a", "b"}
            Anything but ``"a"`` is read as ``"b"``.

        Returns
        -------
        str
        """
        return self.a if side == "a" else self.b

    def p_side(self, side: str) -> float | None:
        """P(side better).

        Parameters
        ----------
        side : {"a", "b"}
            Anything but ``"a"`` is read as ``"b"``.

        Returns
        -------
        float or None
        """
        return self.p_a_better if side == "a" else self.p_b_better

    def p_better(self, system: str) -> float | None:
        """P(``system`` better than the other one of the pair).

        Parameters
        ----------
        system : str
            ``a`` or ``b``; KeyError for any other name.

        Returns
        -------
        float or None
        """
        if system not in (self.a, self.b):
            raise KeyError(f"{system!r} is not in the comparison of {self.a!r} and {self.b!r}")
        return self.p_b_better if system == self.b else self.p_a_better

    def to_dict(self) -> dict:
        """JSON-ready form, one entry of ``comparisons`` in ``textbcv test --json``; unset optionals left out.

        Returns
        -------
        dict
        """
        out: dict = {"a": self.a, "b": self.b, "metric": self.metric, "p_b_better": self.p_b_better,
                     "p_a_better": self.p_a_better, "decision": self.decision}
        if self.cautions:
            out["cautions"] = [x.to_dict() for x in self.cautions]
        if self.equivalent is not None:
            out["p_equivalent"] = self.p_equivalent
        for key in ("mc_p_b_better", "mc_se"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.equivalent is not None:
            out["equivalent"] = self.equivalent
        if self.undefined:
            out["undefined"] = self.undefined
        if self.difference is not None:
            out["difference"] = self.difference.to_dict()
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Comparison:
        """Read :meth:`to_dict`'s JSON back (``a``, ``b``, ``metric``, ``decision`` required).

        Parameters
        ----------
        d : mapping

        Returns
        -------
        Comparison
        """
        diff = d.get("difference")
        return cls(d["a"], d["b"], d["metric"], d.get("p_b_better"), d.get("p_a_better"), d["decision"],
                   d.get("p_equivalent"), d.get("equivalent"), d.get("mc_p_b_better"), d.get("mc_se"),
                   d.get("undefined"), None if diff is None else Difference.from_dict({**diff, "metric": d["metric"]}),
                   tuple(Caution.from_dict(x) for x in d.get("cautions") or ()))


@dataclass(frozen=True)
class BayesAnswer:
    """Posteriors of every system and the Bayes test of every pair: the answer of ``textbcv test``.

    Attributes
    ----------
    m : int
    alpha : float
        Credible intervals are 1 − alpha.
    systems : dict
        name → metric → :class:`Posterior`, in input order.
    comparisons : tuple of Comparison
        Every pair (a before b, input order) on precision, recall, F1.
    variant : str
        The count-factor variant.
    count_factor : dict
        name → the factor (for ``adaptive`` and ``clustered``, metric → factor).
    method : {"exact", "monte-carlo", "both"}
    threshold : float
    rope : float or None
        A fraction of the metric.
    prior : float
        λ of the Beta(λ, λ) priors.
    counts : dict
        name → pooled ``{"tp", "fp", "fn"}``.
    design_effects : dict or None
        name → metric → the design effect ``clustered`` divided by (≥ 1).
    draws, seed : int or None
        Of the Monte Carlo figures.
    family_wise : dict or None
        With three or more systems: the note on judging many pairs.
    """

    m: int
    alpha: float
    systems: dict[str, dict[str, Posterior]]
    comparisons: tuple[Comparison, ...]
    variant: str
    count_factor: dict
    method: str
    threshold: float
    rope: float | None
    prior: float
    counts: dict[str, dict[str, int]]
    design_effects: dict | None = None
    draws: int | None = None
    seed: int | None = None
    family_wise: dict | None = None

    @property
    def names(self) -> list[str]:
        """The systems, in input order."""
        return list(self.systems)

    @property
    def rope_points(self) -> float | None:
        """The rope in points, or None without one (0 is none).

        Examples
        --------
        >>> BayesAnswer(1, 0.05, {}, (), "thesis", {}, "exact", 0.95, 0.005, 1.0, {}).rope_points
        0.5
        """
        return None if not self.rope else round(100 * self.rope, 10)

    def comparisons_of(self, metric: str = "f1") -> list[Comparison]:
        """The comparisons of ``metric``, a before b in input order.

        Parameters
        ----------
        metric : {"precision", "recall", "f1"}

        Returns
        -------
        list of Comparison
        """
        return [c for c in self.comparisons if c.metric == metric]

    def comparison(self, a: str, b: str, metric: str = "f1") -> Comparison:
        """The comparison of ``a`` and ``b`` (either order) on ``metric``, as stored; KeyError if there is none.

        Parameters
        ----------
        a, b : str
        metric : {"precision", "recall", "f1"}

        Returns
        -------
        Comparison
        """
        for c in self.comparisons_of(metric):
            if {c.a, c.b} == {a, b} and a != b:
                return c
        raise KeyError(f"no comparison of {a!r} and {b!r} on {metric!r}")

    def p_better(self, a: str, b: str, metric: str = "f1") -> float | None:
        """P(``b`` better than ``a``) on ``metric``, whichever order they were compared in; None where undefined.

        Parameters
        ----------
        a, b : str
        metric : {"precision", "recall", "f1"}

        Returns
        -------
        float or None
        """
        return self.comparison(a, b, metric).p_better(b)

    def to_dict(self) -> dict:
        """The JSON of ``textbcv test --json`` and the top of ``report.json``; unset optionals left out.

        Returns
        -------
        dict
        """
        out: dict = {
            "m": self.m,
            "alpha": self.alpha,
            "systems": {n: {k: p.to_dict() for k, p in s.items()} for n, s in self.systems.items()},
            "comparisons": [c.to_dict() for c in self.comparisons],
            "variant": self.variant,
            "count_factor": self.count_factor,
            "method": self.method,
            "threshold": self.threshold,
            "rope": self.rope,
            "prior": self.prior,
            "counts": self.counts,
        }
        if self.design_effects is not None:
            out["design_effects"] = self.design_effects
        if self.draws is not None:
            out["draws"] = self.draws
            out["seed"] = self.seed
        if self.family_wise is not None:
            out["family_wise"] = self.family_wise
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BayesAnswer:
        """Read :meth:`to_dict`'s JSON (or a whole ``report.json``) back; absent keys take defaults.

        Parameters
        ----------
        d : mapping
            ``variant`` falls back to ``meta.options.variant``, then ``"thesis"``.

        Returns
        -------
        BayesAnswer
            ``design_effects`` kept only for the ``clustered`` variant.
        """
        variant = d.get("variant") or ((d.get("meta") or {}).get("options") or {}).get("variant", "thesis")
        return cls(
            m=d.get("m", 0), alpha=d.get("alpha", 0.05),
            systems={n: {k: Posterior.from_dict(p) for k, p in s.items()} for n, s in (d.get("systems") or {}).items()},
            comparisons=tuple(Comparison.from_dict(c) for c in d.get("comparisons", ())),
            variant=variant, count_factor=d.get("count_factor") or {}, method=d.get("method", "exact"),
            threshold=THRESHOLD if d.get("threshold") is None else d["threshold"], rope=d.get("rope"),
            prior=d.get("prior", 1.0), counts=d.get("counts") or {},
            # compare_counts writes design_effects for the clustered variant only; a report also holds the
            # effects it measured for the other variants (CompareReport.design_effects)
            design_effects=d.get("design_effects") if variant == "clustered" else None,
            draws=d.get("draws"), seed=d.get("seed") if d.get("draws") is not None else None,
            family_wise=d.get("family_wise"))
