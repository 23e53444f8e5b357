"""The design a comparison runs when the user chooses none: m = 3, extended to 7 by the measured rule."""

from __future__ import annotations

import json

import pytest

import textbcv
from textbcv.cli import build_parser, main
from textbcv.cli.compare import compare_arguments
from textbcv.comparison.options import MEASURED_DESIGN, CompareOptions, default_design


def _design(*argv: str) -> dict:
    args = build_parser().parse_args(["compare", "c.conll", "--task", "ner", "--out", "o", "--systems", "iob2,iobes",
                                      *argv])
    kw = compare_arguments(args)
    given = {k: kw[k] for k in ("sequential", "stop", "m_max") if k in kw}
    return {"m": kw["m"], **default_design(kw["m"], kw["splits"] is not None, given)}


@pytest.mark.parametrize("argv, want", [
    ((), {"m": None, **MEASURED_DESIGN}),
    (("--m", "3"), {"m": 3}),
    (("--m", "7"), {"m": 7}),
    (("--sequential",), {"m": None, "sequential": True}),
    (("--sequential", "--stop", "measured"), {"m": None, **MEASURED_DESIGN}),
    (("--stop", "bayes"), {"m": None, "sequential": True, "stop": "bayes"}),
    (("--m-max", "5"), {"m": None, **MEASURED_DESIGN, "m_max": 5}),
])
def test_the_command_line_design_is_the_measured_one_unless_chosen(argv, want):
    assert _design(*argv) == want


def test_an_explicit_sequential_run_keeps_the_thesis_defaults():
    opts = CompareOptions(**default_design(None, False, {"sequential": True}))
    assert (opts.stop, opts.m_max) == ("t-test", 12)


def test_given_splits_are_a_fixed_design():
    assert default_design(None, True, {}) == {}


def test_compare_without_m_runs_the_measured_design_and_reports_it(tmp_path):
    """Through the API as a user calls it: the report's stopping block names the measured rule, its first m is 3
    and the m it used is 3 or 7; m = 3 asked for is a fixed run."""
    ner = textbcv.bundled_corpora()["ner"]
    r = textbcv.compare(ner, ["iob2", "iobes"], max_iterations=3, progress=False)
    stopping = r.to_dict()["stopping"]
    assert stopping["rule"] == "measured" and stopping["m_max"] == MEASURED_DESIGN["m_max"]
    assert r.report.m in (MEASURED_DESIGN["m_start"], MEASURED_DESIGN["m_max"])
    fixed = textbcv.compare(ner, ["iob2", "iobes"], m=3, max_iterations=3, progress=False)
    assert fixed.to_dict()["stopping"]["rule"] is None and fixed.report.m == 3


def test_the_cli_default_is_written_into_report_json(tmp_path, capsys):
    ner = textbcv.bundled_corpora()["ner"]
    out = tmp_path / "run"
    assert main(["compare", str(ner), "--task", "ner", "--systems", "iob2,iobes", "--max-iterations", "3",
                 "--no-plots", "--quiet", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["stopping"]["rule"] == "measured"
    assert report["meta"]["options"]["sequential"] is True
