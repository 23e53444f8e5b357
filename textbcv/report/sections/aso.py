"""The almost stochastic order test (Dror et al. 2019; deep-significance's ``aso``) on every pair's per-fold scores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textbcv import defaults
from textbcv.report.escape import tex_escape
from textbcv.report.sections.base import Section, SectionInput
from textbcv.stats.answer import BayesAnswer
from textbcv.stats.aso import ASO_THRESHOLD, AlmostStochasticOrder, aso_call

__all__ = ["AsoSection"]

_LABEL = {"f1": "F1", "precision": "precision", "recall": "recall"}
_ITERATIONS = 1000


def _null_calls() -> str:
    """The sentence on the test's calls on the committed null pairs (package data), or "" without figures."""
    found = (defaults.evidence().get("aso_null") or {}).values()
    shares = [(r["calls_a"]["k"] + r["calls_b"]["k"]) / r["R"] for r in found if r["R"]]
    if not shares:
        return ""
    return (" On the null pairs of `textbcv calibrate` (a system against itself with another training seed, m = 3) "
            f"it called a side ahead on {100 * min(shares):.1f}% to {100 * max(shares):.1f}% of the data sets, by "
            "corpus and seeds (docs/RESULTS.md, “Almost stochastic order on null pairs”).")


def _test(d: dict) -> AlmostStochasticOrder:
    """One direction's test from its block."""
    return AlmostStochasticOrder(d["eps_min"], d["violation_ratio"], d["sd"], d["confidence"], d["n_a"], d["n_b"])


@dataclass(frozen=True)
class _Pair:
    """One pair's test in both directions and its call (``"A"``, ``"B"`` or None)."""

    a: str
    b: str
    b_over_a: AlmostStochasticOrder
    a_over_b: AlmostStochasticOrder
    ahead: str | None

    def words(self) -> str:
        """``X ahead`` or ``no order``."""
        return "no order" if self.ahead is None else f"{self.b if self.ahead == 'B' else self.a} ahead"


@dataclass(frozen=True)
class AsoSection(Section):
    """ε_min of every pair (a before b, input order) on the per-fold scores, in both directions.

    Attributes
    ----------
    metric : str
        The per-fold score.
    confidence : float
        The bound's confidence before the Bonferroni correction over the pairs (1 − α).
    seed : int
        Seed of the bootstrap draws.
    pairs : tuple
        Each pair's two tests and its call.

    Examples
    --------
    >>> c = {"A": [{"tp": 80 + k, "fp": 20, "fn": 10} for k in range(6)],
    ...      "B": [{"tp": 90 + k, "fp": 10, "fn": 10} for k in range(6)]}
    >>> s = AsoSection.from_folds(SectionInput(3, c))
    >>> [(p.a, p.b, p.b_over_a.eps_min, p.ahead) for p in s.pairs]
    [('A', 'B', 0.0, 'B')]
    >>> AsoSection.from_dict(s.to_dict()) == s
    True
    """

    key = "almost_stochastic_order"
    metric: str
    confidence: float
    seed: int
    pairs: tuple[_Pair, ...] = ()

    @classmethod
    def from_folds(cls, folds: SectionInput) -> AsoSection | None:
        """Each pair's test on ``folds.metric``, Bonferroni-corrected over the pairs; None for fewer than 2 systems."""
        scores, names = folds.scores(), folds.names
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
        if not pairs:
            return None
        out = [_Pair(a, b, *aso_call(scores[a], scores[b], 1 - folds.alpha, len(pairs), seed=folds.seed))
               for a, b in pairs]
        return cls(folds.metric, 1 - folds.alpha, folds.seed, tuple(out))

    def to_dict(self) -> dict:
        """The metric, the confidence, the seed and one entry per pair."""
        return {"metric": self.metric, "confidence": self.confidence, "seed": self.seed, "threshold": ASO_THRESHOLD,
                "iterations": _ITERATIONS,
                "pairs": [{"a": p.a, "b": p.b, "b_over_a": p.b_over_a.to_dict(), "a_over_b": p.a_over_b.to_dict(),
                           "ahead": p.ahead} for p in self.pairs]}

    @classmethod
    def from_dict(cls, block: Any) -> AsoSection | None:
        """The section of ``block``; None without one."""
        if block is None:
            return None
        return cls(block["metric"], block["confidence"], block["seed"],
                   tuple(_Pair(p["a"], p["b"], _test(p["b_over_a"]), _test(p["a_over_b"]), p["ahead"])
                         for p in block["pairs"]))

    def _sentence(self, eps: str = "ε_min") -> str:
        """What ε_min (written ``eps``) is and how it was computed."""
        k = len(self.pairs)
        level = f"{100 * self.confidence:g}%" + (f" (Bonferroni over {k} pairs)" if k > 1 else "")
        return (f"{eps} is the {level} upper bound of the violation ratio: the share of the distance between the "
                f"two systems' per-fold {_LABEL[self.metric]} distributions where the first one's quantiles fall below "
                f"the other's (Dror et al. 2019, as deep-significance's `aso`: {_ITERATIONS} bootstrap draws, seed "
                f"{self.seed}). Below {ASO_THRESHOLD:g}, that system is called stochastically ahead; 0.5 and above "
                "is no order. It reads the folds as independent scores, which the folds of one corpus are not."
                + _null_calls())

    def markdown(self, answer: BayesAnswer) -> list[str]:
        """``## Almost stochastic order``: per pair, ε_min in both directions and the call."""
        out = ["", f"## Almost stochastic order (per-fold {_LABEL[self.metric]}, ε_min)", "",
               f"| A | B | ε_min (B over A) | ε_min (A over B) | ASO (ε_min < {ASO_THRESHOLD:g}) |",
               "|---|---|---|---|---|"]
        for p in self.pairs:
            out.append(f"| {p.a} | {p.b} | {p.b_over_a.eps_min:.3f} | {p.a_over_b.eps_min:.3f} | {p.words()} |")
        return out + ["", self._sentence()]

    def latex(self, answer: BayesAnswer) -> list[str]:
        """A booktabs table, one row per pair (as report.md's section)."""
        lines = [r"\begin{table}[ht]", r"\centering", r"\small",
                 r"\caption{Almost stochastic order on the per-fold " + tex_escape(_LABEL[self.metric]) + ". "
                 + tex_escape(self._sentence("EPSMIN").replace("`", "")).replace("EPSMIN", r"$\varepsilon_{\min}$")
                 + "}",
                 r"\label{tab:textbcv-aso}", r"\begin{tabular}{llccl}", r"\toprule",
                 r"A & B & $\varepsilon_{\min}$ (B over A) & $\varepsilon_{\min}$ (A over B) & ASO \\", r"\midrule"]
        for p in self.pairs:
            lines.append(f"{tex_escape(p.a)} & {tex_escape(p.b)} & ${p.b_over_a.eps_min:.3f}$ & "
                         f"${p.a_over_b.eps_min:.3f}$ & {tex_escape(p.words())} \\\\")
        return lines + [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]

    def terminal(self, answer: BayesAnswer) -> list[str]:
        """The pairs as an aligned table under a one-line title."""
        rows = [["A", "B", "ε_min (B over A)", "ε_min (A over B)", f"ASO (ε_min < {ASO_THRESHOLD:g})"]]
        rows += [[p.a, p.b, f"{p.b_over_a.eps_min:.3f}", f"{p.a_over_b.eps_min:.3f}", p.words()] for p in self.pairs]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        table = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
        return ["", f"Almost stochastic order on per-fold {_LABEL[self.metric]} (ε_min, {_ITERATIONS} bootstrap "
                f"draws, seed {self.seed}):", *table]
