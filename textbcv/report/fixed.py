"""The report of the fixed-split design (one training set, one test set, several training seeds): a typed value.

:class:`FixedReport` is ``report.json`` of ``textbcv compare --train/--test`` and of ``textbcv evaluate --test``;
:meth:`FixedReport.answer_text` is what the command prints, :meth:`FixedReport.markdown` is ``report.md``.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from textbcv.report.numbers import fmt_p, p_is, pct
from textbcv.report.verdicts import better_label, decisive_words, undecided
from textbcv.stats.answer import Comparison

__all__ = ["FIXED_FORMAT", "FixedDesign", "FixedScore", "FieldTests", "FixedReport"]

#: The ``format`` of a fixed-split ``report.json``.
FIXED_FORMAT = "textbcv-fixed-report/1"

#: Width of the printed answer.
WIDTH = 100


def _base(path: str | None) -> str:
    """A file's name without its folders (the report's words; ``report.json`` keeps the path as given)."""
    return "" if path is None else os.path.basename(path) or path


@dataclass(frozen=True)
class FixedDesign:
    """What the fixed split is: its files, sizes, clusters and seeds.

    Attributes
    ----------
    train : str or None
        The training file as given; None where the predictions were imported without naming it.
    test : str
        The test file as given.
    train_sentences, test_sentences, test_tokens : int
    cluster_unit : {"documents", "sentences"}
        What the test set's clusters are.
    clusters : int
    duplicates : int
        Test sentences whose tokens also occur in the training set.
    seeds : dict
        System → its training seeds.
    deterministic : bool
        Every trainer draws no random numbers (one seed is all its seeds).
    note : str or None
        Why the clusters are sentences, where they fell back.
    dev : str or None
        The development file given to the systems (``--dev``), as given; None: none.
    dev_sentences : int

    Examples
    --------
    >>> d = FixedDesign("tr.conll", "te.conll", 900, 300, 4000, "documents", 30, 2, {"A": [1, 2]}, False)
    >>> FixedDesign.from_dict(d.to_dict()) == d
    True
    """

    train: str | None
    test: str
    train_sentences: int
    test_sentences: int
    test_tokens: int
    cluster_unit: str
    clusters: int
    duplicates: int
    seeds: dict
    deterministic: bool
    note: str | None = None
    dev: str | None = None
    dev_sentences: int = 0

    def to_dict(self) -> dict:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {"design": "fixed", "train": self.train, "test": self.test, "train_sentences": self.train_sentences,
                "test_sentences": self.test_sentences, "test_tokens": self.test_tokens,
                "cluster_unit": self.cluster_unit, "clusters": self.clusters, "duplicates": self.duplicates,
                "seeds": {k: list(v) for k, v in self.seeds.items()}, "deterministic": self.deterministic,
                **({} if self.note is None else {"note": self.note}),
                **({} if self.dev is None else {"dev": self.dev, "dev_sentences": self.dev_sentences})}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> FixedDesign:
        """Read :meth:`to_dict` back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        FixedDesign
        """
        return cls(d.get("train"), d["test"], int(d["train_sentences"]), int(d["test_sentences"]),
                   int(d["test_tokens"]), d["cluster_unit"], int(d["clusters"]), int(d["duplicates"]),
                   {k: [int(s) for s in v] for k, v in d["seeds"].items()}, bool(d["deterministic"]), d.get("note"),
                   d.get("dev"), int(d.get("dev_sentences", 0)))

    @property
    def seeds_words(self) -> str:
        """``5 training seeds per system`` (or each system's number)."""
        ks = sorted({len(v) for v in self.seeds.values()})
        if self.deterministic:
            return "deterministic trainers (one model each)"
        return (f"{ks[0]} training seeds per system" if len(ks) == 1 else
                "training seeds: " + ", ".join(f"{n} {len(v)}" for n, v in self.seeds.items()))


@dataclass(frozen=True)
class FixedScore:
    """One system's F1 on the test set over its seeds (fractions).

    Attributes
    ----------
    name : str
    estimate : float
        F1 of the counts summed over seeds.
    ci : (float, float)
        The 1 − alpha interval (test text and seeds).
    sd, var_test, var_seed, df : float
    seed_f1 : tuple of float
        Each seed's F1, in seed order.
    """

    name: str
    estimate: float
    ci: tuple[float, float]
    sd: float
    var_test: float
    var_seed: float
    df: float | None
    seed_f1: tuple[float, ...]

    @property
    def mean_sd(self) -> tuple[float, float | None]:
        """Mean and SD (ddof 1; None for one seed) of the seeds' F1: the field's mean ± SD."""
        k = len(self.seed_f1)
        mean = sum(self.seed_f1) / k
        if k < 2:
            return mean, None
        return mean, (sum((x - mean) ** 2 for x in self.seed_f1) / (k - 1)) ** 0.5

    def to_dict(self) -> dict:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {"name": self.name, "estimate": self.estimate, "ci": list(self.ci), "sd": self.sd,
                "var_test": self.var_test, "var_seed": self.var_seed, "df": self.df, "seed_f1": list(self.seed_f1)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> FixedScore:
        """Read :meth:`to_dict` back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        FixedScore
        """
        return cls(d["name"], float(d["estimate"]), (float(d["ci"][0]), float(d["ci"][1])), float(d["sd"]),
                   float(d["var_test"]), float(d["var_seed"]), None if d.get("df") is None else float(d["df"]),
                   tuple(float(x) for x in d["seed_f1"]))


@dataclass(frozen=True)
class FieldTests:
    """The tests the field uses, on the same predictions of one pair (B − A).

    Attributes
    ----------
    a, b : str
    bootstrap, randomization : dict
        Over the seed pairs (A's i-th seed with B's i-th): ``{"B": k, "A": k, "none": k}`` calls at p < alpha.
    aso : dict
        ``eps_b_over_a``, ``eps_a_over_b`` (ε_min over the seeds' F1) and ``call`` ("B", "A" or None).
    welch : dict
        The Welch t-test on the seeds' F1: ``t``, ``df``, ``p_value`` (None where undefined), ``call``.
    alpha : float
    """

    a: str
    b: str
    bootstrap: dict
    randomization: dict
    aso: dict
    welch: dict
    alpha: float

    def to_dict(self) -> dict:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {"a": self.a, "b": self.b, "bootstrap": dict(self.bootstrap), "randomization": dict(self.randomization),
                "aso": dict(self.aso), "welch": dict(self.welch), "alpha": self.alpha}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> FieldTests:
        """Read :meth:`to_dict` back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        FieldTests
        """
        return cls(d["a"], d["b"], dict(d["bootstrap"]), dict(d["randomization"]), dict(d["aso"]), dict(d["welch"]),
                   float(d["alpha"]))

    def _side(self, call: str | None) -> str:
        return {"B": self.b, "A": self.a}.get(call or "", "neither")

    def lines(self) -> list[str]:
        """The tests' calls in words, one line each.

        Returns
        -------
        list of str
        """
        n = sum(self.bootstrap.values())

        def per_seed(counts: dict) -> str:
            return (f"{self.b} ahead on {counts['B']} of {n} seed pairs, {self.a} on {counts['A']}, neither on "
                    f"{counts['none']}")

        w = self.welch
        welch = (f"t = {w['t']:+.2f}, df {w['df']:.1f}, p = {fmt_p(w['p_value'])}: {self._side(w['call'])} ahead"
                 if w.get("p_value") is not None else f"undefined ({w.get('undefined')})")
        e = self.aso
        return [f"paired bootstrap, per seed (p < {self.alpha:g}): {per_seed(self.bootstrap)}",
                f"approximate randomization, per seed (p < {self.alpha:g}): {per_seed(self.randomization)}",
                f"almost stochastic order over the seeds' F1: ε_min({self.b} over {self.a}) = {e['eps_b_over_a']:.2f}, "
                f"({self.a} over {self.b}) = {e['eps_a_over_b']:.2f}: {self._side(e['call'])} ahead",
                f"Welch t-test on the seeds' F1: {welch}"]


@dataclass(frozen=True)
class TrainingPart:
    """How far the choice of training set moved ΔF1 where it was measured: the part a fixed split leaves out.

    Attributes
    ----------
    sd : float
        The SD of ΔF1 (a fraction) over training sets of one size drawn from one corpus, net of the test text's noise.
    seed_sd : float or None
        Beside it, the SD the seeds' choice gave on the same units.
    where : str
        Where it was measured, in words (corpus, pair, training-set size, data sets).

    Examples
    --------
    >>> TrainingPart(0.009, 0.004, "CoNLL-2003 English NER").words()
    "SD 0.90 points on CoNLL-2003 English NER, beside the seeds' 0.40"
    """

    sd: float
    seed_sd: float | None
    where: str

    def to_dict(self) -> dict:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {"sd": self.sd, "seed_sd": self.seed_sd, "where": self.where}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TrainingPart:
        """Read :meth:`to_dict` back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        TrainingPart
        """
        return cls(float(d["sd"]), None if d.get("seed_sd") is None else float(d["seed_sd"]), str(d["where"]))

    def words(self) -> str:
        """The size and where it was measured, as the conclusion quotes it.

        Returns
        -------
        str
        """
        seeds = "" if self.seed_sd is None else f", beside the seeds' {100 * self.seed_sd:.2f}"
        return f"SD {100 * self.sd:.2f} points on {self.where}{seeds}"


@dataclass(frozen=True)
class FixedReport:
    """``report.json`` of the fixed-split design.

    Attributes
    ----------
    design : FixedDesign
    threshold, alpha : float
    rope : float or None
        A fraction.
    systems : tuple of FixedScore
    comparisons : tuple of Comparison
        F1 of every pair (a before b, input order), each with its paired fixed-split posterior.
    field_tests : tuple of FieldTests
    meta : dict
        The options and system specs, for reproduction.
    format : str
    training_part : TrainingPart or None
        The size of the part the design leaves out, where the project's evidence measured it for the task.
    """

    design: FixedDesign
    threshold: float
    alpha: float
    rope: float | None
    systems: tuple[FixedScore, ...]
    comparisons: tuple[Comparison, ...]
    field_tests: tuple[FieldTests, ...]
    meta: dict = field(default_factory=dict)
    format: str = FIXED_FORMAT
    training_part: TrainingPart | None = None

    def to_dict(self) -> dict:
        """``report.json``'s content.

        Returns
        -------
        dict
        """
        return {"format": self.format, "design": self.design.to_dict(), "threshold": self.threshold,
                "alpha": self.alpha, "rope": self.rope, "systems": [s.to_dict() for s in self.systems],
                "comparisons": [c.to_dict() for c in self.comparisons],
                "field_tests": [t.to_dict() for t in self.field_tests], "conclusion": self.conclusion(),
                "training_part": None if self.training_part is None else self.training_part.to_dict(),
                "meta": self.meta}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> FixedReport:
        """Read :meth:`to_dict` back (the conclusion is worded again from the numbers).

        Parameters
        ----------
        d : mapping

        Returns
        -------
        FixedReport
        """
        return cls(FixedDesign.from_dict(d["design"]), float(d["threshold"]), float(d["alpha"]), d.get("rope"),
                   tuple(FixedScore.from_dict(s) for s in d["systems"]),
                   tuple(Comparison.from_dict(c) for c in d["comparisons"]),
                   tuple(FieldTests.from_dict(t) for t in d["field_tests"]), dict(d.get("meta") or {}),
                   d.get("format", FIXED_FORMAT),
                   None if d.get("training_part") is None else TrainingPart.from_dict(d["training_part"]))

    @property
    def rope_points(self) -> float | None:
        """The rope in points, or None."""
        return None if not self.rope else 100 * self.rope

    def score(self, name: str) -> FixedScore:
        """The system's :class:`FixedScore`.

        Parameters
        ----------
        name : str

        Returns
        -------
        FixedScore
        """
        return next(s for s in self.systems if s.name == name)

    def design_words(self) -> str:
        """The design, named as the first sentence names it.

        Returns
        -------
        str
        """
        d = self.design
        trained = (f"trained on {_base(d.train)}, {d.train_sentences:,} sentences" if d.train is not None else
                   "trained elsewhere")
        if d.dev is not None:
            trained += f", with {_base(d.dev)} for development, {d.dev_sentences:,}"
        return (f"one fixed split ({trained}; tested on {_base(d.test)}, {d.test_sentences:,} sentences in "
                f"{d.clusters:,} {d.cluster_unit}; {d.seeds_words})")

    def conclusion(self) -> str:
        """The answer on F1 in words: the design and rule, each pair's call with the interval that decides, and what
        the answer leaves out.

        Returns
        -------
        str
        """
        tau = self.threshold
        parts = [f"On {self.design_words()}, a system is called better when P(better) ≥ {tau:g}."]
        for c in self.comparisons:
            parts.append(self._pair_sentence(c))
        on = "this training set" if self.design.train is None else _base(self.design.train)
        size = "" if self.training_part is None else f" (the project's measure: {self.training_part.words()})"
        parts.append(f"This answers how models trained on {on} do on new text like {_base(self.design.test)}, "
                     f"over training seeds; it leaves out the choice of training set, which one split cannot "
                     f"measure{size}; m×2 "
                     "cross-validation (`textbcv compare`) measures it.")
        return " ".join(parts)

    def _pair_sentence(self, c: Comparison) -> str:
        fa, fb = self.score(c.a).estimate, self.score(c.b).estimate
        r = self.rope_points
        if c.winner:
            win, lose = c.winner
            side = "b" if win == c.b else "a"
            fw, fl = (fb, fa) if side == "b" else (fa, fb)
            return (f"{win} is better than {lose} on F1: {pct(fw)}% against {pct(fl)}% ({decisive_words(c, r)}); "
                    f"{better_label(c, side, r)} {p_is(c.p_side(side))} ≥ {self.threshold:g}.")
        hi, lo = (c.b, c.a) if fb >= fa else (c.a, c.b)
        return (f"No clear difference on F1 between {hi} ({pct(max(fa, fb))}%) and {lo} ({pct(min(fa, fb))}%): "
                f"{undecided(c, r, self.threshold, 'below')}; {decisive_words(c, r)}.")

    def _score_lines(self) -> list[str]:
        level = f"{100 * (1 - self.alpha):g}%"
        rows = [["system", "F1", f"{level} interval", "seeds' F1: mean ± SD"]]
        for s in self.systems:
            mean, sd = s.mean_sd
            rows.append([s.name, f"{pct(s.estimate)}", f"[{pct(s.ci[0])}, {pct(s.ci[1])}]",
                         f"{pct(mean)} ± {'—' if sd is None else f'{100 * sd:.2f}'} ({len(s.seed_f1)})"])
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        return ["  ".join(x.ljust(w) for x, w in zip(r, widths)).rstrip() for r in rows]

    def _parts_line(self, c: Comparison) -> str:
        p = c.difference.paired if c.difference is not None else None
        if p is None or p.var <= 0:
            return f"{c.b} − {c.a}: no variance measured."
        seed = p.var_seed_part
        df = "∞" if p.df == float("inf") else f"{p.df:.1f}"
        text = (f"{c.b} − {c.a}: SD {100 * p.sd:.2f} points (df {df}), of its variance {100 * p.var_test / p.var:.0f}% "
                f"from the test text ({p.clusters:,} {p.cluster_unit}) and {100 * seed / p.var:.0f}% from the seeds")
        if p.seeds is None or self.design.deterministic or seed <= 0:
            return text + "."
        k = max(p.seeds)
        more = p.at_seeds(2 * k)
        return (text + f"; a true gain of {100 * p.detectable(0.8, self.threshold):.2f} points is called 80% of the "
                f"time with these seeds, {100 * more.detectable(0.8, self.threshold):.2f} with {2 * k} (the test "
                "text's part stays).")

    def answer_text(self, where: str | None = None) -> str:
        """What the command prints: the answer, the scores, the variance's parts, the field's tests.

        Parameters
        ----------
        where : str, optional
            The run directory, named in the last line.

        Returns
        -------
        str
            Ending in a newline.
        """
        lines = textwrap.wrap(self.conclusion(), WIDTH) + [""]
        lines += [f"F1 (%) on {_base(self.design.test)}, with {100 * (1 - self.alpha):g}% intervals "
                  "(test text and seeds):"]
        lines += self._score_lines()
        for c in self.comparisons:
            lines += textwrap.wrap(self._parts_line(c), WIDTH)
        for t in self.field_tests:
            lines += ["", f"The field's tests on the same predictions ({t.b} − {t.a}; each answers a narrower "
                      "question):"]
            lines += ["  " + x for x in t.lines()]
        if where:
            lines += ["", f"The whole report: {where}/report.md."]
        return "\n".join(lines) + "\n"

    def markdown(self) -> str:
        """``report.md``: the answer, the scores, the field's tests and how the posterior is built.

        Returns
        -------
        str
        """
        d = self.design
        out = ["# textbcv: a fixed split", "", self.conclusion(), "", "## Scores", "", "```", *self._score_lines(),
               "```", ""]
        out += [f"- {self._parts_line(c)}" for c in self.comparisons]
        out += ["", "## The field's tests", "",
                "On the same predictions, the tests papers use. Each answers a narrower question than the posterior "
                "above: the bootstrap and randomization tests take one seed's predictions and treat sentences as "
                "independent; almost stochastic order and the t-test take the seeds' scores and leave out the test "
                "text's own noise.", ""]
        for t in self.field_tests:
            out += [f"### {t.b} − {t.a}", "", *[f"- {x}" for x in t.lines()], ""]
        out += ["## How the answer is built", "",
                f"Every system was trained on {_base(d.train) or 'its training set'} once per seed and tested on "
                f"{_base(d.test)}. The posterior of "
                "ΔF1 is a Student t at the F1 of the seeds' summed counts, whose variance has two parts measured on "
                f"this run: the test text's (the cluster variance over the test set's {d.clusters:,} {d.cluster_unit}, "
                "net of the seeds' sentence-level spread) and the seeds' (each system's spread over its seeds); its "
                "degrees of freedom are Satterthwaite's. The choice of training set is not a part: one training set "
                "cannot measure it.", ""]
        if d.note:
            out += [d.note, ""]
        if d.duplicates:
            out += [f"{d.duplicates:,} of the {d.test_sentences:,} test sentences also occur in the training set.", ""]
        return "\n".join(out)
