"""A report section added in a test file alone: computed, written, read back and shown in every output.

A throwaway :class:`textbcv.report.sections.Section` (the folds' count and each system's mean per-fold F1)
is put into :data:`textbcv.report.sections.SECTIONS` by a fixture and taken out after. A real compare run
then holds its block in ``report.json`` (equal to the per-fold F1 the report also writes), its lines in
``report.md``, ``report.tex``, ``textbcv report`` and ``textbcv test``'s text, and ``CompareReport.from_dict``
reads it back to the same value — with no package file edited.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from textbcv import bundled_corpora
from textbcv.cli import main
from textbcv.report.model import CompareReport
from textbcv.report.sections import SECTIONS, Section, SectionInput
from textbcv.stats.answer import BayesAnswer


@dataclass(frozen=True)
class _Throwaway(Section):
    key = "throwaway_mean_f1"
    folds: int
    mean_f1: dict

    @classmethod
    def from_folds(cls, folds: SectionInput) -> _Throwaway:
        return cls(2 * folds.m, {n: float(np.mean(v)) for n, v in folds.scores("f1").items()})

    def to_dict(self) -> Any:
        return {"folds": self.folds, "mean_f1": self.mean_f1}

    @classmethod
    def from_dict(cls, block: Any) -> _Throwaway | None:
        return None if block is None else cls(block["folds"], block["mean_f1"])

    def _line(self, tag: str, answer: BayesAnswer) -> str:
        means = ", ".join(f"{n} {100 * v:.2f}" for n, v in self.mean_f1.items())
        return f"THROWAWAY-{tag}: {self.folds} folds, level {1 - answer.alpha:g}, mean per-fold F1 {means}"

    def markdown(self, answer: BayesAnswer) -> list[str]:
        return ["", "## Throwaway section", "", self._line("MD", answer)]

    def latex(self, answer: BayesAnswer) -> list[str]:
        return [r"\paragraph{Throwaway.} " + self._line("TEX", answer), ""]

    def terminal(self, answer: BayesAnswer) -> list[str]:
        return ["", self._line("TERM", answer)]


@pytest.fixture
def registered():
    SECTIONS.append(_Throwaway)
    yield _Throwaway
    SECTIONS.remove(_Throwaway)


@pytest.fixture
def run(tmp_path, registered):
    out = tmp_path / "run"
    assert main(["compare", str(bundled_corpora()["ner"]), "--task", "ner", "--systems", "iob2,iobes", "--m", "2",
                 "--max-iterations", "5", "--quiet", "--no-plots", "--out", str(out)]) == 0
    return out


def test_a_section_in_a_test_file_reaches_every_output(run, capsys):
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    block = report["throwaway_mean_f1"]
    want = {n: sum(v) / len(v) for n, v in report["fold_f1"].items()}  # the per-fold F1 the report writes
    assert block["folds"] == 4 and block["mean_f1"] == pytest.approx(want, abs=1e-12)
    keys = [kind.key for kind in SECTIONS]
    assert keys[-1] == "throwaway_mean_f1" and [k for k in report if k in keys] == keys  # the registry's order

    line = _Throwaway(4, block["mean_f1"])._line("{}", BayesAnswer.from_dict(report))
    md = (run / "report.md").read_text(encoding="utf-8").splitlines()
    assert line.format("MD") in md and md.index("## Throwaway section") > md.index(
        "## Sequential t-test (per-fold F1 differences, B − A, points)")
    assert r"\paragraph{Throwaway.} " + line.format("TEX") in (run / "report.tex").read_text(encoding="utf-8")

    read = CompareReport.from_dict(report)
    assert read.section(_Throwaway) == _Throwaway(4, block["mean_f1"])
    assert read.to_dict()["throwaway_mean_f1"] == block

    capsys.readouterr()
    assert main(["report", str(run), "--full"]) == 0  # read back from report.json and rendered again
    assert line.format("MD") in capsys.readouterr().out.splitlines()
    assert main(["test", str(run / "folds.jsonl")]) == 0
    assert line.format("TERM") in capsys.readouterr().out.splitlines()
    assert main(["test", str(run / "folds.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["throwaway_mean_f1"] == block


def test_a_section_taken_out_of_the_registry_is_neither_read_nor_shown(registered):
    counts = {"A": [{"tp": 8, "fp": 2, "fn": 1}] * 4, "B": [{"tp": 9, "fp": 1, "fn": 1}] * 4}
    assert _Throwaway.from_folds(SectionInput(2, counts)).to_dict() == {
        "folds": 4, "mean_f1": pytest.approx({"A": 16 / 19, "B": 18 / 20})}
    SECTIONS.remove(_Throwaway)
    try:
        f1 = {"estimate": .8, "ci": [.78, .82], "interval": "equal-tailed"}
        d = {"m": 2, "systems": {n: {"f1": f1} for n in "AB"}, "comparisons": [],
             "throwaway_mean_f1": {"folds": 4, "mean_f1": {"A": 0.8, "B": 0.9}}}
        assert CompareReport.from_dict(d).section(_Throwaway) is None
    finally:
        SECTIONS.append(_Throwaway)
