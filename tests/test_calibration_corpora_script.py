"""scripts/calibration_corpora.py: the project's null pairs on every corpus go through ``textbcv calibrate``."""

from __future__ import annotations

import json

from conftest import ROOT, script


def test_smoke_runs_resumes_and_summarizes(tmp_path):
    cc = script("calibration_corpora")
    assert cc.main(["--smoke", "--out", str(tmp_path)]) == 0
    units = tmp_path / "calibrate" / "bundled_ner" / "units.jsonl"
    before = units.read_bytes()
    assert [json.loads(x)["r"] for x in before.decode().splitlines()] == [0, 1]
    assert cc.main(["--smoke", "--out", str(tmp_path)]) == 0  # resumed: nothing trained again
    assert units.read_bytes() == before
    summary = json.loads((tmp_path / "calibration_corpora.json").read_text(encoding="utf-8"))
    assert [r["corpus"] for r in summary["rows"]] == ["bundled_ner", "bundled_cws"]
    for r in summary["rows"]:
        s = r["summary"]
        assert s["calls"]["n"] == 2 and s["calls"]["k"] == s["calls_a"]["k"] + s["calls_b"]["k"]
    section = (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
    assert "| bundled English NER | iob2 (ap, 2 iterations) | 120 | 2 |" in section
    assert cc.main(["--smoke", "--out", str(tmp_path), "--summarize-only"]) == 0
    assert json.loads((tmp_path / "calibration_corpora.json").read_text(encoding="utf-8")) == summary


def test_smoke_close_pairs_run_into_their_own_folders(tmp_path):
    """``--smoke --close``: a bundled corpus's close pair alone, in NAME-close; its row joins the table with
    coverage and SD / RMSE net, never the package's evidence. (One corpus: the script is the same for each.)"""
    cc = script("calibration_corpora")
    close = ["--smoke", "--close", "--corpora", "bundled_ner", "--out", str(tmp_path)]
    assert cc.main(close) == 0
    folders = sorted(p.name for p in (tmp_path / "calibrate").iterdir())
    assert folders == ["bundled_ner-close"]  # no null pair ran
    units = tmp_path / "calibrate" / "bundled_ner-close" / "units.jsonl"
    before = units.read_bytes()
    lines = [json.loads(x) for x in before.decode().splitlines()]
    assert [(u["kind"], u["r"], u["pair"]) for u in lines] == [("close", 0, ["iob2", "iobes"]),
                                                               ("close", 1, ["iob2", "iobes"])]
    assert all(len(u["truth_models"]) == 4 for u in lines)  # two halvings in the smoke run
    assert cc.main(close) == 0  # resumed: nothing trained again
    assert units.read_bytes() == before
    summary = json.loads((tmp_path / "calibration_corpora.json").read_text(encoding="utf-8"))
    assert [(r["corpus"], r["kind"]) for r in summary["rows"]] == [("bundled_ner-close", "close")]
    for r in summary["rows"]:
        s = r["summary"]
        assert s["coverage"]["n"] == 2 and r["settings"]["pair_options"]["algorithm"] == "ap"
    assert cc.evidence_rows(summary["rows"]) == {}
    section = (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
    row = next(x for x in section.splitlines() if x.startswith("| bundled English NER | iob2 vs iobes"))
    assert row.startswith("| bundled English NER | iob2 vs iobes (ap, 2 iterations) | 120 | 2 |")
    cov = summary["rows"][0]["summary"]["coverage"]
    assert row.split(" | ")[-2] == f"{100 * cov['rate']:.1f}% [{100 * cov['lo']:.1f}, {100 * cov['hi']:.1f}]"


def test_smoke_several_seed_null_pairs_run_into_their_own_folder(tmp_path):
    """``--train-seeds 2``: the null pair with two seeds per side, in NAME-seeds2, counted as compare counts
    several seeds; its row joins the table, never the package's one-seed evidence."""
    cc = script("calibration_corpora")
    assert cc.main(["--smoke", "--corpora", "bundled_ner", "--train-seeds", "2", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in (tmp_path / "calibrate").iterdir()) == ["bundled_ner-seeds2"]
    settings = json.loads((tmp_path / "calibrate" / "bundled_ner-seeds2" / "settings.json").read_text("utf-8"))
    assert settings["settings"]["options"]["train_seeds"] == 2 and settings["settings"]["seeds"] == [1, 3]
    summary = json.loads((tmp_path / "calibration_corpora.json").read_text(encoding="utf-8"))
    assert [(r["corpus"], r["kind"], r["train_seeds"]) for r in summary["rows"]] == [
        ("bundled_ner-seeds2", "seeds", 2)]
    assert summary["rows"][0]["summary"]["calls"]["n"] == 2
    assert cc.evidence_rows(summary["rows"]) == {}
    section = (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
    assert "| bundled English NER | iob2 (ap, 2 iterations; 2 seeds per side) | 120 | 2 |" in section


def test_smoke_null_pairs_at_another_m_run_into_their_own_folder(tmp_path):
    """``--m 7``: nested null pairs in NAME-m7 for the design study; the m = 3 summary leaves them out."""
    cc = script("calibration_corpora")
    assert cc.main(["--smoke", "--corpora", "bundled_ner", "--m", "7", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in (tmp_path / "calibrate").iterdir()) == ["bundled_ner-m7"]
    settings = json.loads((tmp_path / "calibrate" / "bundled_ner-m7" / "settings.json").read_text("utf-8"))
    assert settings["settings"]["m"] == 7
    units = (tmp_path / "calibrate" / "bundled_ner-m7" / "units.jsonl").read_text("utf-8").splitlines()
    assert [json.loads(x)["r"] for x in units] == [0, 1]
    summary = json.loads((tmp_path / "calibration_corpora.json").read_text(encoding="utf-8"))
    assert summary["rows"] == []


def test_the_decision_rule_quotes_the_committed_calibrations():
    """The package's evidence is the committed summary's rows (one seed, and several seeds where run), and the decision
    rule's sentence quotes their range over corpora, each in its own case."""
    from textbcv import defaults

    cc = script("calibration_corpora")
    summary = json.loads((ROOT / "docs" / "calibration_corpora.json").read_text(encoding="utf-8"))
    ev = defaults.evidence()
    for key, kind, seeds in (("calibration_corpora", "null", False), ("calibration_corpora_seeds", "seeds", True)):
        rows = cc.evidence_rows(summary["rows"], kind)
        assert ev.get(key, {}) == json.loads(json.dumps(rows))
        line = defaults.false_calls(0.95, seeds=seeds) or ""
        if not rows:
            assert "Through `textbcv calibrate" not in line
            continue
        rates = [100 * r[side]["rate"] for r in rows.values() for side in ("calls_b", "calls_a")]
        assert f"on {len(rows)} corpora (" in line and f"in {min(rates):.1f}% to {max(rates):.1f}% of the" in line
        assert ("--train-seeds" in line) == seeds


def test_the_decision_rule_quotes_the_committed_close_pairs():
    """The close pairs' coverage is the committed summary's, and the one-seed decision rule quotes it (with what it
    means when every interval of coverage lies above 95%); the several-seed rule does not."""
    from textbcv import defaults

    cc = script("calibration_corpora")
    summary = json.loads((ROOT / "docs" / "calibration_corpora.json").read_text(encoding="utf-8"))
    rows = cc.evidence_rows(summary["rows"], "close")
    assert defaults.evidence().get("calibration_corpora_close", {}) == json.loads(json.dumps(rows))
    line = defaults.false_calls(0.95) or ""
    quoted = [r for r in rows.values() if r["R"] >= 100]
    for r in quoted:
        assert f"{100 * r['coverage']['rate']:.1f}% ({r['label']}, {r['R']} data sets)" in line
    assert ("wider than its 95% says" in line) == bool(quoted and all(r["coverage"]["lo"] > 0.95 for r in quoted))
    assert "close pairs" not in (defaults.false_calls(0.95, seeds=True) or "")
