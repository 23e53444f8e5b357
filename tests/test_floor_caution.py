"""A call whose posterior counted the models' own noise as 0 says so beside the decision, with the measured rate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import script

from textbcv import defaults
from textbcv.comparison.call_cautions import with_cautions
from textbcv.report.conclusion import conclusion
from textbcv.report.model import CompareReport, CountsReport
from textbcv.report.terminal import answer_text, counts_text
from textbcv.stats.paired import PairedDifference

ROOT = Path(__file__).resolve().parents[1]


def _report(var_model: float, m: int = 3, estimate: float = 0.01, names=("A", "B")) -> CompareReport:
    p = PairedDifference(estimate, 0.003 ** 2, var_model, 2.0 * m - 1, m, 800, 0.8)
    lo, hi = p.interval()
    p_b = p.prob_better()["p_b_better"]
    systems = {n: {k: {"estimate": 0.80 + i * estimate, "ci": [0.78, 0.82]} for k in ("precision", "recall", "f1")}
               for i, n in enumerate(names)}
    comps = [{"a": names[0], "b": names[1], "metric": "f1", "p_b_better": p_b, "p_a_better": 1 - p_b,
              "decision": "B better" if p_b >= 0.95 else "no clear difference",
              "difference": {"estimate": estimate, "ci": [lo, hi], "basis": "paired", **p.to_dict()}}]
    # the cautions are made once, where a report is assembled; rendering only words them
    return with_cautions(CompareReport.from_dict({"m": m, "alpha": 0.05, "threshold": 0.95, "rope": None,
                                                  "systems": systems, "comparisons": comps, "sequential": []}))


def test_call_with_floored_model_noise_is_flagged_with_the_measured_rate():
    text = conclusion(_report(0.0))
    assert "B is better than A" in text
    assert "too small to measure on these 6 folds" in text
    measured = defaults.floor_calls(3)
    assert measured is not None and measured in text
    assert "--m 7" in text
    # the short terminal answer carries it beside the decision, and so does `textbcv test`'s answer
    assert "too small to measure" in answer_text(_report(0.0))
    assert "too small to measure" in counts_text(CountsReport(_report(0.0)))
    assert "too small to measure" not in counts_text(CountsReport(_report(0.002 ** 2)))
    # at the call, not after it: the sentence names the caution before its figures and P
    call = text[text.index("B is better than A"):]
    assert call.index("too small to measure") < call.index("P(B better)")
    # report.json carries it beside the decision, and a report read back renders it without recomputing
    d = _report(0.0).to_dict()["comparisons"][0]
    assert list(d)[list(d).index("decision") + 1] == "cautions"
    assert [x["kind"] for x in d["cautions"]] == ["model-noise"]
    assert d["cautions"][0]["mark"] == "model noise not measured"
    assert "B better (model noise not measured)" in counts_text(CountsReport(CompareReport.from_dict(
        _report(0.0).to_dict())))


def test_no_flag_when_the_noise_was_measured_or_nothing_is_called():
    assert "too small to measure" not in conclusion(_report(0.002 ** 2))
    assert "too small to measure" not in conclusion(_report(0.0, estimate=0.001))  # no call
    assert "measured 0" not in conclusion(_report(0.002 ** 2, m=7))


def test_a_call_on_noise_measured_0_at_7_splits_is_flagged_too():
    # 13 degrees of freedom are not enough either: null pairs floored at m = 7 were still called more often on some
    # corpora, so the call carries that rate, not the m = 3 remedy
    r = _report(0.0, m=7)
    (caution,) = r.comparisons[0].cautions
    assert caution.mark == "model noise measured 0" and "on these 14 folds" in caution.text
    assert "--m 7" not in caution.text and "--m 15" in caution.text
    measured = defaults.floor_calls(7)
    assert measured is None or measured in caution.text
    text = conclusion(r)
    assert "B is better than A" in text and "measured 0 on these 14 folds" in text


def test_a_calibrate_folder_run_at_m_7_is_its_corpus_m_7_evidence():
    mns = script("model_noise_study")
    w = {"k": 1, "n": 20, "rate": 0.05, "lo": 0.01, "hi": 0.2}
    rows = [{"candidate": "present", "pair": "null", "corpus": c, "label": "X", "m": m, "R": 40, "floored": w,
             "calls_floored": w, "calls_other": w} for c, m in (("x", 3), ("x-m7", 7))]
    assert set(mns.floor_evidence(rows)["corpora"]) == {"x"}
    assert set(mns.floor_evidence(rows)["corpora"]["x"]) == {"label", "m3", "m7"}


def test_quoted_rate_is_the_committed_evidence():
    ev = defaults.evidence()["model_noise_floor"]
    rows = [(r, r["m3"]) for r in ev["corpora"].values() if "m3" in r and r["m3"]["calls_floored"]["n"] >= 20]
    corpus, worst = max(rows, key=lambda rx: rx[1]["calls_floored"]["lo"])
    line = defaults.floor_calls(3)
    assert f"{100 * worst['calls_floored']['rate']:.1f}%" in line and corpus["label"] in line
    assert defaults.floor_calls(3, threshold=0.9) is None


def test_model_noise_study_smoke(tmp_path):
    (tmp_path / "RESULTS.md").write_text("# Results\n", encoding="utf-8")
    subprocess.run([sys.executable, str(ROOT / "scripts" / "model_noise_study.py"), "--smoke", "--out", str(tmp_path)],
                   check=True, capture_output=True, cwd=tmp_path)
    out = json.loads((tmp_path / "model_noise.json").read_text(encoding="utf-8"))
    cands = {r["candidate"] for r in out["rows"]}
    assert cands == {"present", "mixture", "mixture-hn", "upper-0.8"}
    null = [r for r in out["rows"] if r["pair"] == "null"]
    assert null and all(r["calls_floored"]["n"] + r["calls_other"]["n"] == r["R"] for r in null)
    assert "BEGIN model-noise" in (tmp_path / "RESULTS.md").read_text(encoding="utf-8")


def test_the_caution_names_the_export_that_measures_the_noise_of_imported_predictions():
    # `evaluate` cannot train more splits: the remedy names an export with 7 splits for the user's tagger, in one
    # text whatever read the folds (the run's report and `textbcv test RUN/folds.jsonl` agree)
    d = _report(0.0).to_dict()
    d["meta"] = {"imported": {"splits": {"path": "splits.jsonl"}, "systems": {}}}
    text = with_cautions(CompareReport.from_dict(d)).comparisons[0].cautions[0].text
    assert "`textbcv split --m 7 --export`" in text and "14 halves" in text and "`--m 7` measures" in text
    assert text == _report(0.0).comparisons[0].cautions[0].text
