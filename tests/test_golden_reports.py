"""Golden outputs: the reports of three fixed runs, byte for byte (after normalising what may differ).

Restructuring the code must not change what a user reads. Three runs on the bundled corpora — an
NER comparison, a word-segmentation comparison and a run with a held-out file — are made afresh
and their ``report.md``, ``report.tex``, ``report.json`` and ``splits.json`` compared with the
files under ``tests/data/golden/``. Normalised before comparing: the textbcv version, absolute
paths (the checkout, the run folder), the run's timings and start time, JSON floats to 9
significant digits (the last bits of a float may differ between CPUs' vector units), and the real-text
study's measured false-call rates the decision rule quotes (package data that grows as the study runs;
tests/test_evidence_scripts.py ties them to the committed study).

A change meant to alter reports regenerates the goldens in its own commit:
``TEXTBCV_UPDATE_GOLDENS=1 scripts/test tests/test_golden_reports.py``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from textbcv import __version__, bundled_corpora, defaults
from textbcv.cli import main
from textbcv.corpus import read_conll, write_conll

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden"
FILES = ("report.md", "report.tex", "report.json", "splits.json")
FAST = ["--m", "2", "--max-iterations", "5", "--quiet"]


def _runs(tmp: Path) -> dict[str, list[str]]:
    ner, cws = bundled_corpora()["ner"], bundled_corpora()["cws"]
    sents = read_conll(ner)
    write_conll(sents[:-150], tmp / "train.conll")
    write_conll(sents[-150:], tmp / "heldout.conll")
    return {
        "ner": ["compare", str(ner), "--task", "ner", "--systems", "iob2,iobes", *FAST],
        "cws": ["compare", str(cws), "--task", "cws", "--systems", "bmes,bb2b3mes", *FAST],
        "heldout": ["compare", str(tmp / "train.conll"), "--task", "ner", "--systems", "iob2,iobes",
                    "--heldout", str(tmp / "heldout.conll"), *FAST],
    }


def _round(x):
    if isinstance(x, float):
        return float(f"{x:.9g}")
    if isinstance(x, list):
        return [_round(v) for v in x]
    if isinstance(x, dict):
        return {k: _round(v) for k, v in x.items()}
    return x


def normalise(name: str, text: str, tmp: Path) -> str:
    """``text`` of the run file ``name`` with what legitimately varies replaced by placeholders."""
    for path, label in ((str(tmp), "<TMP>"), (str(ROOT), "<ROOT>")):
        text = text.replace(path, label).replace(json.dumps(path)[1:-1], label)
    text = text.replace(f"textbcv {__version__}", "textbcv <VERSION>")
    measured = defaults.false_calls()
    if measured:
        text = text.replace(measured, "<MEASURED FALSE CALLS>")
    if name == "report.json":
        d = json.loads(text)
        if isinstance(d.get("meta"), dict) and "textbcv" in d["meta"]:
            d["meta"]["textbcv"] = "<VERSION>"
        if isinstance(d.get("run"), dict):
            d["run"] = {k: ("<RUN>" if k in ("started", "pid") or k.endswith("seconds") else v)
                        for k, v in d["run"].items()}
        return json.dumps(_round(d), indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    return re.sub(r"Run: [0-9.]+ s,", "Run: <SECONDS> s,", text)


@pytest.mark.parametrize("run", ["ner", "cws", "heldout"])
def test_reports_equal_the_goldens(run, tmp_path):
    args = _runs(tmp_path)[run]
    out = tmp_path / "run"
    assert main([*args, "--out", str(out)]) == 0
    update = os.environ.get("TEXTBCV_UPDATE_GOLDENS") == "1"
    for name in FILES:
        got = normalise(name, (out / name).read_text(encoding="utf-8"), tmp_path)
        gold = GOLDEN / run / (name + ".golden")
        if update:
            gold.parent.mkdir(parents=True, exist_ok=True)
            gold.write_text(got, encoding="utf-8")
            continue
        assert gold.exists(), f"no golden {gold}: TEXTBCV_UPDATE_GOLDENS=1 makes it"
        want = gold.read_text(encoding="utf-8")
        if got != want:
            import difflib

            lines = difflib.unified_diff(want.splitlines(True), got.splitlines(True), "golden", "now")
            diff = "".join(list(lines)[:60])
            pytest.fail(f"{run}/{name} differs from its golden:\n{diff}")
