"""scripts/design_study.py: candidate designs evaluated offline on the committed units (issue 57)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import script

from textbcv.calibration.summary import summarize_close, summarize_null

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _rows(d: dict) -> dict:
    return {(r["source"], r["pair"], r["design"]): r for r in d["rows"]}


def _section(text: str, name: str) -> str:
    begin, end = f"<!-- BEGIN {name} -->\n", f"\n<!-- END {name} -->"
    return text[text.index(begin) + len(begin): text.index(end)]


def _entry(p_b: float, var_model: float = 1e-5, estimate: float = 0.0) -> dict:
    return {"estimate": estimate, "sd": 0.01, "df": 5.0, "var_model": var_model, "p_b": p_b}


def test_designs_decide_hand_made_data_sets_as_documented():
    ds = script("design_study")
    # floored at m = 3 (model noise 0), P(B better) 0.97 at m = 3, 0.90 at m = 4..6, 0.93 at m = 7
    rec = {"m": {"3": _entry(0.97, 0.0), **{str(m): _entry(0.90) for m in (4, 5, 6)}, "7": _entry(0.93)},
           "t_test": {"3": None, "4": "B", "5": None, "6": None, "7": None}, "truth": (0.0, 0.0)}
    assert ds.run_design("m3", rec) == (3, "B better")
    assert ds.run_design("m7", rec) == (7, "no clear difference")
    assert ds.run_design("extend-floored", rec) == (7, "no clear difference")
    assert ds.run_design("abstain-floored", rec) == (3, ds.ABSTAIN)
    assert ds.run_design("sequential-t-test", rec) == (4, "no clear difference")  # stops where the t-test decides
    assert ds.run_design("sequential-bayes", rec) == (7, "no clear difference")  # never reaches 0.99
    measured = {**rec, "m": {**rec["m"], "3": _entry(0.97)}}
    assert ds.run_design("extend-floored", measured) == (3, "B better")
    assert ds.run_design("abstain-floored", measured) == (3, "B better")
    # the bands: [0.80, 0.95) extends P = 0.90 and its mirror 0.10, not 0.97; [0.90, 0.99) extends 0.97
    near = {**rec, "m": {**rec["m"], "3": _entry(0.10)}}
    assert ds.run_design("extend-floored-0.80-0.95", near)[0] == 7
    assert ds.run_design("extend-floored-0.80-0.95", measured) == (3, "B better")
    assert ds.run_design("extend-floored-0.90-0.99", measured) == (7, "no clear difference")
    # the corrected looks: 1 − 0.05/5 = 0.99 stops early; the strict rule calls at 0.99 at m = 7 as well
    early = {**rec, "m": {**rec["m"], "4": _entry(0.995)}}
    assert ds.run_design("sequential-bayes", early) == (4, "B better")
    late = {**rec, "m": {**rec["m"], "7": _entry(0.97)}}
    assert ds.run_design("sequential-bayes", late) == (7, "B better")
    assert ds.run_design("sequential-bayes-strict", late) == (7, "no clear difference")
    assert ds.evaluable("m7", 3, False) is False and ds.evaluable("abstain-floored", 3, False) is True
    assert ds.evaluable("sequential-t-test", 7, False) is False and ds.evaluable("sequential-t-test", 7, True)


def test_targets_are_checked_on_both_sides_of_every_limit():
    ds = script("design_study")
    from textbcv.calibration.summary import rate

    def r(k, n):
        return rate(k, n).to_dict()

    def null(design, kb, ka, fb, n=450, nf=60):
        return {"design": design, "source": "p", "pair": "null", "kind": "pool", "R": n, "folds_mean": 6.0,
                "calls_b": r(kb, n), "calls_a": r(ka, n), "floored_calls_b": r(fb, nf), "floored_calls_a": r(0, nf)}

    def close(design, cov, power, folds):
        return {"design": design, "source": "p", "pair": "scheme", "kind": "pool", "R": 400, "folds_mean": folds,
                "coverage": r(cov, 400), "power": r(power, 400)}

    rows = [null("m3", 22, 40, 3), close("m3", 380, 100, 6.0),  # 40/450 = 8.9% [6.6, 11.9] A; 3/60 = 5.0% floored
            null("m7", 22, 10, 4), close("m7", 390, 120, 14.0),  # 4/60 = 6.7% [2.6, 15.9] floored; 97.5% coverage
            # 97.75% [95.8, 98.8] coverage; power 99 < 100
            null("extend-floored", 10, 10, 0), close("extend-floored", 391, 99, 8.0)]

    def kind(target: str) -> str:
        w = target.split(" ")
        return f"floored {w[2]}" if "floored" in target else (f"null {w[2]}" if w[0] == "null" else w[0])

    t = ds.targets(rows)
    held = {(x["design"], kind(x["target"])): (x["holds"], x["near"]) for x in t}
    assert len(held) == len(t) == 18
    assert held[("m3", "null B")] == (True, True) and held[("m3", "null A")] == (False, False)
    assert held[("m3", "floored B")] == (True, True)  # 3 of 60 = 5.0%: at the limit
    assert held[("m7", "floored B")] == (False, True) and held[("m7", "coverage")] == (True, True)
    assert held[("extend-floored", "coverage")] == (False, True) and held[("extend-floored", "power")] == (False, True)
    ch = ds.choose(rows, t)
    assert ch["chosen"] is None and ch["designs"]["m7"]["folds_mean"] == 10.0
    assert ch["designs"]["m3"]["clear_misses"] == 1
    # every miss of extend-floored and m7 within its row's noise: the cheaper (7 folds on average against 10) first
    assert ch["closest"] == "extend-floored" and ch["within_noise"] == ["extend-floored", "m7"]
    rows[-2] = null("extend-floored", 10, 10, 3)
    rows[-1] = close("extend-floored", 385, 100, 8.0)
    ch = ds.choose(rows, ds.targets(rows))
    assert ch["chosen"] == "extend-floored" and ch["meeting_all"] == ["extend-floored"]


def test_smoke_matches_the_existing_summaries_and_resumes(tmp_path):
    """--smoke on the first 12 data sets of each source: the m = 3 and m = 7 designs' calls are those of the pairs
    summary (its `paired` candidate) on the same data sets, the sequential designs are its sequential runs, the
    calibrate folders' m = 3 calls are `textbcv calibrate`'s own summary of the same units; a second run resumes."""
    ds = script("design_study")
    rts = script("real_text_study")
    summ = script("real_text_pairs_summary")
    rtp = script("real_text_pairs")
    assert ds.main(["--smoke", "--out", str(tmp_path)]) == 0
    d = json.loads((tmp_path / "design_study.json").read_text(encoding="utf-8"))
    rows = _rows(d)
    n = ds.SMOKE_LIMIT
    pools = {p: [x for _, x in sorted(rts.merge_lines(rts.load_lines(DOCS / "real_text_study" /
                                                                     f"pairs-{p}.jsonl")).items())[:n]]
             for p in ("conll", "msr")}
    ref = summ.summarize(pools, {}, rtp.PAIRS, rtp.PAIR_TEXT)
    cal = {(c["pool"], c["pair"], c["m"]): c for c in ref["calibration"] if c["candidate"] == "paired"}
    seq = {(r["pool"], r["pair"]): r["sequential"] for r in ref["pairs"]}
    assert len(cal) == 16
    for (pool, pair, m), c in cal.items():
        mine = rows[(pool, pair, f"m{m}")]
        assert (mine["R"], mine["calls_b"]["k"], mine["calls_a"]["k"]) == (c["R"], c["calls_b"]["k"],
                                                                          c["calls_a"]["k"])
        assert mine["folds_mean"] == 2 * m
        for rule in ("bayes", "t-test"):
            s, q = seq[(pool, pair)][rule], rows[(pool, pair, f"sequential-{rule}")]
            assert (q["calls_b"]["k"], q["calls_a"]["k"]) == (s["b_better"]["k"], s["a_better"]["k"])
            assert q["folds_mean"] == pytest.approx(2 * s["m_mean"])
    for pool in pools:
        r3, r7, ext = (rows[(pool, "null", x)] for x in ("m3", "m7", "extend-floored"))
        ab = rows[(pool, "null", "abstain-floored")]
        assert ext["folds_mean"] == pytest.approx(6 + 8 * r3["floored"]["rate"])
        for side in ("b", "a"):  # the floored runs are m = 7's runs under extension, never called when abstaining
            assert ext[f"floored_calls_{side}"] == r7[f"floored_calls_{side}"]
            assert ab[f"floored_calls_{side}"]["k"] == 0
        assert ab["abstained"]["k"] == r3["floored"]["k"]
    # the calibrate folders: at m = 3 only the designs that stay at m = 3, their calls calibrate's own summary of the
    # same units; a folder run at m = 7 (nested) gives the other designs too, and its m = 3 the m = 3 folder's runs
    for name, src in d["sources"].items():
        if name in ("conll", "msr"):
            continue
        units = [json.loads(x) for x in (DOCS / "calibrate" / name / "units.jsonl").read_text(
            encoding="utf-8").splitlines()[:n]]
        pair = "null" if units[0].get("kind") != "close" else " vs ".join(units[0]["pair"])
        mine = rows[(name, pair, f"m{src['m']}")]
        designs = {x for (s, _, x) in rows if s == name}
        assert designs == (set(ds.M3_ONLY) if src["m"] == 3 else set(ds.DESIGNS))
        if pair == "null":
            s = summarize_null(units[0]["system"], units)
            assert (mine["calls_b"]["k"], mine["calls_a"]["k"]) == (s.calls_b.k, s.calls_a.k)
            if src["m"] == 3:
                assert mine["floored"]["k"] == s.floored.k
                assert mine["floored_calls_b"]["k"] + mine["floored_calls_a"]["k"] == s.calls_floored.k
        else:
            s = summarize_close(*units[0]["pair"], units)
            assert (mine["calls_b"]["k"], mine["calls_a"]["k"], mine["coverage"]["k"]) == \
                (s.calls_b.k, s.calls_a.k, s.coverage.k)
        base = DOCS / "calibrate" / name.removesuffix(f"-m{src['m']}") / "units.jsonl"
        if src["m"] > 3 and base.exists():  # nested: its first 3 splits are the m = 3 run of the same data set
            first = {json.loads(x)["r"]: json.loads(x) for x in base.read_text(encoding="utf-8").splitlines()}
            for u in units:
                p = ds.posterior_from_moments(u["moments"], 3)
                assert (p.estimate, p.sd) == pytest.approx((first[u["r"]]["estimate"], first[u["r"]]["sd"]), rel=1e-9)
    assert "<!-- BEGIN design-study -->" in (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
    # resumed: nothing evaluated again, the same outputs; a torn last line is made again, the outputs unchanged
    work = tmp_path / "work" / "pool-msr.jsonl"
    before, out = work.read_bytes(), (tmp_path / "design_study.json").read_bytes()
    assert ds.main(["--smoke", "--out", str(tmp_path)]) == 0
    assert work.read_bytes() == before and (tmp_path / "design_study.json").read_bytes() == out
    lines = before.decode().splitlines(keepends=True)
    work.write_text("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2], encoding="utf-8")
    assert ds.main(["--smoke", "--out", str(tmp_path)]) == 0
    assert work.read_text(encoding="utf-8").splitlines(keepends=True) == lines[:-1] + lines[-1:]
    assert (tmp_path / "design_study.json").read_bytes() == out
    with pytest.raises(SystemExit):
        ds.main(["--smoke"])  # a smoke run never replaces the committed summary


def test_committed_design_study_is_the_committed_units_summary():
    """docs/design_study.json agrees with the studies whose units it reads (the pairs summary's `paired` calls at
    m = 3 and 7; each calibrate folder's own summary), its targets and choice are those its rows give, and the
    RESULTS.md section is its rendering."""
    ds = script("design_study")
    d = json.loads((DOCS / "design_study.json").read_text(encoding="utf-8"))
    rows = _rows(d)
    assert d["targets"] == json.loads(json.dumps(ds.targets(d["rows"])))
    assert d["choice"] == json.loads(json.dumps(ds.choose(d["rows"], d["targets"])))
    assert _section((DOCS / "RESULTS.md").read_text(encoding="utf-8"), "design-study") == \
        ds.render(d, d["command"]).rstrip()
    pairs = json.loads((DOCS / "real_text_pairs.json").read_text(encoding="utf-8"))
    checked = 0
    for c in pairs["calibration"]:
        if c["candidate"] == "paired":
            mine = rows[(c["pool"], c["pair"], f"m{c['m']}")]
            assert (mine["R"], mine["calls_b"], mine["calls_a"]) == (c["R"], c["calls_b"], c["calls_a"])
            if c["pair"] != "null":  # the 95% interval widened by the truth's noise, over the data sets with a truth
                assert mine["coverage"] == c["coverage"]
            checked += 1
    assert checked == 16
    for name in d["sources"]:
        folder = DOCS / "calibrate" / name
        if not folder.is_dir():
            continue
        summary = json.loads((folder / "calibration.json").read_text(encoding="utf-8"))
        design = f"m{d['sources'][name]['m']}"  # the design the folder ran
        for x in summary["nulls"]:
            mine = rows[(name, "null", design)]
            assert (mine["calls_b"], mine["calls_a"]) == (x["calls_b"], x["calls_a"])
            assert design != "m3" or mine["floored"] == x["floored"]
        for x in summary.get("close", []):
            mine = rows[(name, f"{x['a']} vs {x['b']}", design)]
            assert (mine["calls_b"], mine["calls_a"], mine["coverage"]) == (x["calls_b"], x["calls_a"], x["coverage"])


@pytest.mark.slow
def test_committed_design_study_is_what_the_script_writes(tmp_path):
    """The committed JSON and RESULTS.md section are what the script writes from the committed units (minutes)."""
    ds = script("design_study")
    assert ds.main(["--out", str(tmp_path), "--work", str(tmp_path / "work")]) == 0
    assert (tmp_path / "design_study.json").read_bytes() == (DOCS / "design_study.json").read_bytes()
    assert _section((tmp_path / "RESULTS.md").read_text(encoding="utf-8"), "design-study") == \
        _section((DOCS / "RESULTS.md").read_text(encoding="utf-8"), "design-study")
