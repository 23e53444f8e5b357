"""scripts/floor_reference.py: the reference an exactly calibrated test gives for calls in floored runs."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import ROOT, script
from scipy import stats


def _simulate(ratio: float, nu: int, threshold: float, floored: bool, n: int = 400_000) -> tuple[float, float]:
    """The idealised test by simulation: calls among floored runs and among the others."""
    rng = np.random.default_rng(1)
    t_, m_ = 1.0, ratio
    z = rng.standard_normal(n) * np.sqrt(t_ + m_)
    s2 = (t_ + m_) * rng.chisquare(nu, n) / nu
    width = np.sqrt(np.maximum(t_, s2) if floored else s2)
    call = np.abs(z) / width > stats.t.ppf(threshold, nu)
    low = s2 <= t_
    return float(call[low].mean()), float(call[~low].mean())


@pytest.mark.parametrize("ratio, nu, floored", [(0.3, 5, True), (2.0, 5, True), (0.5, 13, True), (0.3, 5, False)])
def test_the_closed_form_equals_a_simulation(ratio, nu, floored):
    fr = script("floor_reference")
    ref = fr.reference_rates(ratio, nu, 0.95, floored=floored)
    there, elsewhere = _simulate(ratio, nu, 0.95, floored)
    assert ref["calls_floored"] == pytest.approx(there, abs=0.004)
    assert ref["calls_other"] == pytest.approx(elsewhere, abs=0.002)
    assert ref["floored_share"] == pytest.approx(stats.chi2.cdf(nu / (1 + ratio), nu))


def test_an_exact_test_calls_more_where_the_spread_came_out_low():
    """The textbook t-test is exact (10% calls in all at P >= 0.95 each side) and still calls several times more
    often in the runs that a floor would mark: the criterion "no more there than elsewhere" fails for it."""
    fr = script("floor_reference")
    ratio = fr.ratio_for_share(0.4, 5)
    t = fr.reference_rates(ratio, 5, 0.95, floored=False)
    assert t["floored_share"] == pytest.approx(0.4)
    assert t["calls"] == pytest.approx(0.10, abs=1e-6)
    assert t["calls_floored"] > 5 * t["calls_other"]
    ref = fr.reference_rates(ratio, 5, 0.95)
    assert ref["calls"] < 0.10 and ref["calls_floored"] > 2 * ref["calls_other"]
    assert fr.fisher_fails(0.4, ref["calls_floored"], ref["calls_other"], 200, 400) > 0.2


def test_smoke_writes_the_rows_of_the_committed_study(tmp_path):
    fr = script("floor_reference")
    assert fr.main(["--smoke", "--out", str(tmp_path)]) == 0
    out = json.loads((tmp_path / "floor_reference.json").read_text(encoding="utf-8"))
    source = json.loads((ROOT / "docs" / "model_noise.json").read_text(encoding="utf-8"))
    present = [r for r in source["rows"] if r["candidate"] == "present" and r["pair"] == "null"
               and 0 < r["floored"]["k"] < r["floored"]["n"]]  # both classes: a reference to compare with
    assert [(r["corpus"], r["m"]) for r in out["rows"]] == [(r["label"], r["m"]) for r in present]
    for r in out["rows"]:
        ref = r["reference"]
        assert ref["calls_floored"] > ref["calls_other"] and 0 <= ref["fisher_fails"] <= 1
        k = r["calls_floored"]["k"] + r["calls_other"]["k"]
        assert r["p_more_than_reference"] == pytest.approx(
            stats.binom.sf(r["calls_floored"]["k"] - 1, k, ref["share_of_calls_floored"]))
    conll = next(r for r in present if r["corpus"] == "conll2003_en")
    assert f"| {conll['label']} | 3 | {conll['R']} |" in (tmp_path / "RESULTS.md").read_text("utf-8")


def test_the_degrees_of_freedom_table_recomputes_the_committed_calibrations():
    """The t on 2m − 1 degrees of freedom gives back every committed null unit's decision, and the close pairs'
    coverage is their calibration summary's (an independent recount); Satterthwaite's never calls less."""
    fr = script("floor_reference")
    calibrate = ROOT / "docs" / "calibrate"
    rows = {r["folder"]: r for r in fr.df_rows(fr.standardised(calibrate), 0.95)}
    assert rows
    for name, r in rows.items():
        units = [json.loads(x) for x in (calibrate / name / "units.jsonl").read_text(encoding="utf-8").splitlines()]
        if r["kind"] == "null":
            called = np.mean([u["decision"] != "no clear difference" for u in units if u["sd"] > 0])
            assert r["t"]["calls"] == pytest.approx(called)
            assert r["satterthwaite"]["calls"] >= r["t"]["calls"]
        else:
            summary = json.loads((calibrate / name / "calibration.json").read_text(encoding="utf-8"))
            cov = summary["close"][0]["coverage"]
            assert r["coverage_t"] == pytest.approx(cov["k"] / cov["n"]) and r["R"] == cov["n"]
            assert r["coverage_normal"] <= r["coverage_t"]


def test_scaling_the_degrees_of_freedom_trades_one_target_for_the_other():
    """More degrees of freedom: never fewer null calls, never a higher close-pair coverage; at 1 the first row of
    the scaled table is the t's own."""
    fr = script("floor_reference")
    rows = fr.df_scale_rows(fr.standardised(ROOT / "docs" / "calibrate"), 0.95)
    assert [r["scale"] for r in rows] == list(fr.SCALES) and rows[0]["scale"] == 1
    for a, b in zip(rows, rows[1:]):
        assert b["null_calls_one_way_max"] >= a["null_calls_one_way_max"]
        assert b["close_coverage_max"] <= a["close_coverage_max"]


def test_a_folder_without_floored_runs_has_no_rate_there_not_a_nan(tmp_path):
    """A null folder none of whose runs is floored (common at m = 7) gives None for the floored class, and the
    section prints "—" there; json.dumps(allow_nan=False) accepts the rows."""
    fr = script("floor_reference")
    folder = tmp_path / "cal" / "x-m7"
    folder.mkdir(parents=True)
    units = [{"kind": "null", "estimate": e, "sd": 0.01, "df": 13, "var_model": 1e-5, "decision": "no clear difference"}
             for e in (0.001, -0.002, 0.0005)]
    (folder / "units.jsonl").write_text("".join(json.dumps(u) + "\n" for u in units), encoding="utf-8")
    rows = fr.df_rows(fr.standardised(tmp_path / "cal"), 0.95)
    assert rows[0]["t"]["calls_floored"] is None and rows[0]["t"]["calls_other"] == 0.0
    json.dumps(rows, allow_nan=False)
    assert "0.0% (— / 0.0%)" in fr.render_df(rows, 0.95)
