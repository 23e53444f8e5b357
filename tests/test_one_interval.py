"""One interval per difference, the one the rule decides by, in every output; cautions stand at the call.

Checked on one run (predictions written outside textbcv, brought in with ``textbcv evaluate``, as in
test_report_decisions.py): report.json's first interval of a difference, report.md's Bayes table, report.tex's,
the difference plot's titles and ``textbcv test``'s table all show the same numbers, those of the 2·threshold − 1
interval; and a constructed calibration of the run's corpus that measured more than 5% false calls is quoted at the
call on the terminal, in report.md and in report.tex, the call marked "not supported on this corpus" where its whole
Wilson interval lies above 5%.
"""

from __future__ import annotations

import json
import re

import pytest
from scipy.stats import binomtest
from test_report_decisions import evaluate, exported, titles  # noqa: F401 (fixtures)

from textbcv.cli import main

LABEL = "90% interval, the rule's"


def _cell(estimate: float, lo: float, hi: float) -> str:
    return f"{100 * estimate:+.2f} [{100 * lo:+.2f}, {100 * hi:+.2f}]"


def test_every_output_shows_the_interval_the_rule_decides_by(exported, tmp_path, titles, capsys):  # noqa: F811
    out = tmp_path / "run"
    report = evaluate(exported, out, ["sysA", "sysStrong", "sysWeak"])
    md = (out / "report.md").read_text(encoding="utf-8")
    tex = (out / "report.tex").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["test", str(out)]) == 0
    test_out = capsys.readouterr().out
    assert f"Δ (B − A), {LABEL}" in md and LABEL in test_out and LABEL.replace("%", "\\%") in tex
    pairs = [c for c in report["comparisons"] if c["metric"] == "f1"]
    assert len(pairs) == 3 and any(c["decision"] != "no clear difference" for c in pairs)
    for c in pairs:
        d = c["difference"]
        keys = list(d)
        assert keys.index("decisive") < keys.index("ci")  # the deciding interval comes first in report.json
        assert d["decisive"]["level"] == pytest.approx(0.9)
        lo, hi = d["decisive"]["interval"]
        # it is the one the rule decides by: a side is called exactly when it lies beyond 0 on that side
        assert (c["decision"] == "B better") == (lo > 0) and (c["decision"] == "A better") == (hi < 0)
        shown, other = _cell(d["estimate"], lo, hi), _cell(d["estimate"], *d["ci"])
        assert shown != other
        a, b = c["a"], c["b"]
        row = next(line for line in md.splitlines() if line.startswith(f"| {a} | {b} | F1 |"))
        assert row.split(" | ")[3] == shown
        tex_row = next(line for line in tex.splitlines() if line.startswith(f"{a} & {b} & "))
        nums = [float(x) for x in re.findall(r"\$([+-]\d+\.\d\d)\$", tex_row)[:3]]
        assert _cell(nums[0] / 100, nums[1] / 100, nums[2] / 100) == shown
        title = next(t for t in titles if t.startswith(f"F1: {a} vs {b}\n"))
        assert title.endswith(f"Δ {shown} points, {LABEL}")
        test_row = next(line for line in test_out.splitlines() if re.match(rf"\s*{a}\s+{b}\s+f1\s", line))
        assert " ".join(test_row.split()[3:6]) == shown
        for text in (row, tex_row, title, test_row):  # the conventional 95% interval stands beside no call
            assert other.split(" ", 1)[1] not in text.replace("$", "")


def _calibration(fingerprint: str, size: int, k: int, n: int, system: str) -> dict:
    """A calibration.json as ``textbcv calibrate`` writes it, with ``k`` of ``n`` null data sets called B better."""
    def rate(j: int) -> dict:
        ci = binomtest(j, n).proportion_ci(0.95, method="wilson")
        return {"k": j, "n": n, "rate": j / n, "lo": ci.low, "hi": ci.high}
    null = {"system": system, "calls": rate(k), "calls_b": rate(k), "calls_a": rate(0)}
    return {"format": "textbcv-calibration/1", "corpus_name": "ner.conll",
            "settings": {"corpus": fingerprint, "m": 3, "threshold": 0.95, "size": size, "seeds": [1, 2],
                         "options": {"algorithm": "ap"}, "proxy": False},
            "nulls": [null], "close": [], "sentence": f"On {n} data sets of about {size} sentences ..."}


def _with_calibration(exported, tmp_path, capsys, k: int, n: int):  # noqa: F811
    out = tmp_path / "run"
    report = evaluate(exported, out, ["sysA", "sysStrong"], "--no-plots")
    c = next(c for c in report["comparisons"] if c["metric"] == "f1")
    assert c["decision"] == "B better"  # sysStrong is called better: the call a calibration can bind
    (out / "calibration").mkdir()
    fp = report["meta"]["corpus"]["fingerprint"]
    cal = _calibration(fp, 200, k, n, "sysStrong")
    (out / "calibration" / "calibration.json").write_text(json.dumps(cal), encoding="utf-8")
    assert main(["report", str(out), "--redraw"]) == 0
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    terminal = " ".join(capsys.readouterr().out.split())
    return out, cal, terminal, report["meta"]["corpus"]["sentences"]


def test_a_calibration_above_5_percent_is_quoted_at_the_call(exported, tmp_path, capsys):  # noqa: F811
    out, cal, terminal, sentences = _with_calibration(exported, tmp_path, capsys, k=2, n=20)
    b = cal["nulls"][0]["calls_b"]
    assert b["lo"] < 0.05 < b["rate"]  # above the rule's 5%, but not its whole interval: marked, not refused
    quote = (f"your calibration of this corpus: seed 2 called better in 10.0% [{100 * b['lo']:.1f}, "
             f"{100 * b['hi']:.1f}] of 20 data sets, above the rule's 5% (data sets of 200 sentences; this run has "
             f"{sentences:,})")
    md = (out / "report.md").read_text(encoding="utf-8")
    tex = " ".join((out / "report.tex").read_text(encoding="utf-8").split())
    for text in (terminal, " ".join(md.split())):
        call = text.index("sysStrong is better than sysA on F1")
        assert text.index(quote) == call + len("sysStrong is better than sysA on F1 (caution: ")
    assert "not supported on this corpus" not in md
    row = next(line for line in md.splitlines() if line.startswith("| sysA | sysStrong | F1 |"))
    assert row.endswith("| sysStrong better (calibration: false calls above 5%) |")
    assert "sysStrong better (calibration: false calls above 5\\%)" in tex and quote.replace("%", "\\%") in tex
    r = json.loads((out / "report.json").read_text(encoding="utf-8"))
    c = next(c for c in r["comparisons"] if c["metric"] == "f1")
    assert [x["kind"] for x in c["cautions"]] == ["calibration"] and not c["cautions"][0]["unsupported"]
    assert quote in r["conclusion"]
    # the headline quotes the same interval as the tables (B − A, as the table's row)
    d = c["difference"]
    lo, hi = d["decisive"]["interval"]
    assert f"the rule's 90% interval [{100 * lo:+.2f}, {100 * hi:+.2f}]" in r["conclusion"]
    assert row.split(" | ")[3] == _cell(d["estimate"], lo, hi)


def test_a_calibration_wholly_above_5_percent_marks_the_call_not_supported(exported, tmp_path, capsys):  # noqa: F811
    out, cal, terminal, _ = _with_calibration(exported, tmp_path, capsys, k=6, n=20)
    assert cal["nulls"][0]["calls_b"]["lo"] > 0.05
    md = (out / "report.md").read_text(encoding="utf-8")
    tex = (out / "report.tex").read_text(encoding="utf-8")
    at_call = "sysStrong is better than sysA on F1 (caution: not supported on this corpus: your calibration"
    assert at_call in terminal and at_call in " ".join(md.split())
    assert "| sysStrong better (not supported on this corpus) |" in md
    assert "sysStrong better (not supported on this corpus)" in tex
    r = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert next(c for c in r["comparisons"] if c["metric"] == "f1")["cautions"][0]["unsupported"] is True
    # a calibration at or below the rule's rate adds no caution
    (out / "calibration" / "calibration.json").write_text(
        json.dumps(_calibration(r["meta"]["corpus"]["fingerprint"], 200, 1, 20, "sysStrong")), encoding="utf-8")
    assert main(["report", str(out), "--redraw"]) == 0
    r = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert "cautions" not in next(c for c in r["comparisons"] if c["metric"] == "f1")
    assert "your calibration of this corpus" not in (out / "report.md").read_text(encoding="utf-8")
