"""Smoke tests of the evidence scripts (reproduce_thesis, variance_study, bench_all) on tiny slices."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import script

from textbcv.defaults import PAIRED_POSTERIOR

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
ROOT = SCRIPTS.parent


def load(name: str):
    return script(name)


def test_update_section_replaces_only_its_own_section(tmp_path):
    res = load("_results")
    p = tmp_path / "RESULTS.md"
    res.update_section(p, "benchmarks", "B1")
    res.update_section(p, "reproduce", "R1")
    res.update_section(p, "variance", "V1")
    text = p.read_text()
    # canonical order whatever the order of writing
    assert text.index("R1") < text.index("V1") < text.index("B1")
    res.update_section(p, "variance", "V2\nsecond line")
    new = p.read_text()
    assert "V1" not in new and "V2\nsecond line" in new
    assert new.replace("V2\nsecond line", "V1") == text
    assert new.count("<!-- BEGIN variance -->") == 1 and new.count("<!-- END variance -->") == 1


def test_slice_file_keeps_exactly_n_sentences(shared, tmp_path):
    rep = load("reproduce_thesis")
    from textbcv.corpus import read_conll, read_conllu, read_segmented

    conll = rep.slice_file(shared("conll2003_en", "eng.train"), "conll", 57, tmp_path / "a.txt")
    assert len(read_conll(conll)) == 57
    ud = rep.slice_file(shared("ud_chinese_v1.4", "zh-ud-train.conllu"), "conllu", 31, tmp_path / "b.conllu")
    assert len(read_conllu(ud)) == 31
    seg = rep.slice_file(shared("sighan2005_cws", "pku_test_gold.utf8"), "segmented", 12, tmp_path / "c.utf8")
    full = read_segmented(shared("sighan2005_cws", "pku_test_gold.utf8"))
    part = read_segmented(seg)
    assert [s.tokens for s in part] == [s.tokens for s in full[:12]]


def test_reproduce_smoke(shared, tmp_path):
    shared("conll2003_en", "eng.train")
    rep = load("reproduce_thesis")
    out_json, out_md = tmp_path / "r.json", tmp_path / "R.md"
    argv = ["--work", str(tmp_path / "w"), "--only", "ner,ner-org", "--sentences", "150", "--max-iterations", "3",
            "--jobs", "1", "--no-plots", "--json", str(out_json), "--results", str(out_md)]
    assert rep.main(argv) == 0
    r = json.loads(out_json.read_text())
    assert [e["key"] for e in r["experiments"]] == ["ner", "ner-org"]
    ner = r["experiments"][0]
    assert ner["corpus"]["sentences"] == 150
    assert ner["options"]["untyped"] is True and r["experiments"][1]["options"]["chunk_types"] == ["ORG"]
    assert ner["options"]["threshold"] == 0.5  # the thesis's rule, passed explicitly
    # thesis table 6.3 values carried through unchanged
    assert [ner["metrics"][m]["thesis"]["p_h0"] for m in ("precision", "recall", "f1")] == [0.320, 0.373, 0.300]
    for e in r["experiments"]:
        for m, x in e["metrics"].items():
            if x["decision"] == "undefined":  # 3 CRF iterations on 150 sentences: a system may predict no chunk
                assert x["p_h1"] is None and x["undefined"] and not x["agrees_with_thesis"]
                continue
            assert x["p_h0"] + x["p_h1"] == pytest.approx(1, abs=1e-6)
            assert x["decision"] == ("H1" if x["p_h1"] > x["p_h0"] else "H0")
            assert x["agrees_with_thesis"] == (x["decision"] == x["thesis"]["decision"])
            assert len(x["fold_differences"]) == 6
            assert x["folds_a_better"] + x["folds_b_better"] <= 6
    # untyped gold chunks: NER boundaries count all 4 entity types, ORG only a subset
    assert ner["corpus"]["gold_chunks"] > r["experiments"][1]["corpus"]["gold_chunks"] > 0
    md = out_md.read_text()
    assert "<!-- BEGIN reproduce -->" in md and "| ner (IOB2 vs IOBES) | F1 | [89.21, 89.77]" in md
    assert "PKU training set" in md
    # resumable: a second call reuses the finished runs (no new invocation recorded)
    folds_before = (tmp_path / "w" / "ner" / "folds.jsonl").read_text()
    assert rep.main(argv) == 0
    r2 = json.loads(out_json.read_text())
    assert r2["experiments"][0]["timing"]["invocations"] == 1
    assert (tmp_path / "w" / "ner" / "folds.jsonl").read_text() == folds_before


@pytest.mark.slow  # the longest smoke runs: CI runs them (.ci/run), the fast suite does not
def test_variance_smoke(shared, tmp_path):
    vs = load("variance_study")
    out_json, out_md, png = tmp_path / "v.json", tmp_path / "R.md", tmp_path / "v.png"
    argv = ["--train", str(shared("conll2003_en", "eng.train")), "--sentences", "100", "--reps", "2",
            "--max-iterations", "2", "--jobs", "1", "--work", str(tmp_path / "w"), "--json", str(out_json),
            "--plot", str(png), "--results", str(out_md)]
    assert vs.main(argv) == 0
    v = json.loads(out_json.read_text())
    assert v["meta"]["smoke"] is True and v["meta"]["folds"] == 3 * 2 * 28
    assert v["meta"]["reps_done"] == {"3": 2, "7": 2} and v["meta"]["seeds"]["7"] == [0, 1]
    for d in vs.DESIGNS:
        for m in ("3", "7"):
            assert len(v["per_rep"][d][m]) == 2
            x = np.array([e["f1_mean_folds"] for e in v["per_rep"][d][m]])
            s = v["summary"][d][m]["f1_mean_folds"]
            assert s["mean"] == pytest.approx(x.mean()) and s["sd"] == pytest.approx(x.std(ddof=1))
            assert 0 < s["mean"] < 1
    # balancing lowers the label χ²/df of the halves against no balancing
    assert v["split_chi2_label_mean"]["bcv-balanced"]["3"] < v["split_chi2_label_mean"]["random"]["3"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<!-- BEGIN variance -->" in out_md.read_text()
    # m = 3 figures from the first 3 splits of m = 7: recompute one rep from its fold store
    from textbcv.tagging import FoldStore

    st = FoldStore(tmp_path / "w" / "folds" / "bcv" / "r001.jsonl")
    f1 = [vs.fold_f1(st.records[("B", j, k)]["counts"]["overall"]) for j in range(3) for k in (0, 1)]
    assert v["per_rep"]["bcv"]["3"][1]["f1_mean_folds"] == pytest.approx(np.mean(f1))
    # resume: nothing retrained; a study cut short after m = 3 summarizes its m = 3 seeds
    before = st.path.read_text()
    assert vs.main(argv) == 0
    assert st.path.read_text() == before
    for d in vs.DESIGNS:
        p = tmp_path / "w" / "folds" / d / "r001.jsonl"
        p.write_text("".join(x + "\n" for x in p.read_text().splitlines() if json.loads(x)["split"] < 3))
    assert vs.main(argv + ["--summarize-only"]) == 0
    v = json.loads(out_json.read_text())
    assert v["meta"]["reps_done"] == {"3": 2, "7": 1} and v["summary"]["bcv"]["7"]["f1_mean_folds"]["sd"] is None


def test_bench_all_split_only(tmp_path):
    ba = load("bench_all")
    out_json, out_md = tmp_path / "b.json", tmp_path / "R.md"
    assert ba.main(["--only", "split", "--split-n", "300", "--json", str(out_json), "--results", str(out_md)]) == 0
    b = json.loads(out_json.read_text())
    o = b["benchmarks"]["split"]["output"]
    assert o["n"] == 300 and o["m"] == 15
    row = b["benchmarks"]["split"]["rows"][0]
    assert row["ratio"] == pytest.approx(o["bcv_seconds"] / o["repeatedkfold_seconds"])
    assert b["machine_before"]["nproc"] >= 1
    assert "| split | split: balanced BCV m = 15, n = 300" in out_md.read_text()


def test_bench_all_reports_a_failing_benchmark(tmp_path, monkeypatch):
    ba = load("bench_all")
    monkeypatch.setattr(ba, "commands", lambda args: {"split": [sys.executable, "-c", "import sys; sys.exit('boom')"]})
    out_json = tmp_path / "b.json"
    assert ba.main(["--only", "split", "--json", str(out_json), "--results", str(tmp_path / "R.md")]) == 1
    b = json.loads(out_json.read_text())
    assert b["benchmarks"]["split"]["exit_code"] == 1 and b["benchmarks"]["split"]["rows"][0]["figure"] == "failed"


@pytest.mark.slow  # the longest smoke runs: CI runs them (.ci/run), the fast suite does not
def test_real_text_study_smoke_resumes_and_reports(shared, tmp_path, monkeypatch):
    shared("conll2003_en", "eng.train")
    shared("sighan2005_cws", "msr_test_gold.utf8")
    rts = load("real_text_study")
    out, work = tmp_path / "out", tmp_path / "work"
    argv = ["--smoke", "--out", str(out), "--work", str(work)]
    # interrupted after three pieces of the first data set: the pieces done are kept in --work
    real, calls = rts.piece_design, []

    def flaky(*a, **k):
        calls.append(a[3:5])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(rts, "piece_design", flaky)
    with pytest.raises(KeyboardInterrupt):
        rts.main(argv)
    assert not (out / "real_text_study" / "conll.jsonl").exists()
    saved = [json.loads(x) for x in (work / "conll" / "r0000.jsonl").read_text().splitlines()]
    # head, 2 truths, 2 designs, and the design effects of the bcv folds from the bcv piece's own training
    assert [x["piece"] for x in saved] == ["head", "truth/document", "truth/sentence", "random/document",
                                           "deff/document", "bcv/document"]
    bcv, deff = saved[5]["result"], saved[4]["result"]
    assert deff["digest"] == bcv["digest"] and deff["counts"] == bcv["counts"]
    assert all(len(v) == 2 * rts.M_MAX for v in deff["deff_document"].values())
    calls.clear()
    monkeypatch.setattr(rts, "piece_design", lambda *a, **k: (calls.append(a[3:5]), real(*a, **k))[1])
    assert rts.main(argv) == 0
    # resumed: the two finished designs were not run again
    assert len(calls) == 4 * 2 - 2 + 4 and ("random", "document") not in calls
    lines = (out / "real_text_study" / "conll.jsonl").read_text().splitlines()
    assert len(lines) == 1 and not (work / "conll" / "r0000.jsonl").exists()
    d = json.loads((out / "real_text_study.json").read_text())
    rows = d["summary"]["bias"]
    assert {r["metric"] for r in rows} == {"f1", "delta_f1"}
    assert {(r["pool"], r["unit"]) for r in rows} == {("conll", "document"), ("conll", "sentence"), ("msr", "sentence")}
    assert all({"bias", "bias_se", "sd", "rmse", "design", "m"} <= set(r) for r in rows)
    cov = d["summary"]["coverage"]
    assert {c["variant"] for c in cov} == {"thesis", "independent", "averaged-counts", "adaptive", "nadeau-bengio",
                                           "clustered"}
    assert all(0 <= c["coverage_f1"] <= 1 and 0 <= c["coverage_delta"] <= 1 and "false_decisions" in c for c in cov)
    assert set(d["defaults"]) >= {"balance", "group_by", "variant"}
    assert "<!-- BEGIN real-text -->" in (out / "RESULTS.md").read_text()
    # a second run trains nothing and writes the same summary rows
    calls.clear()
    assert rts.main(argv) == 0 and calls == []
    assert json.loads((out / "real_text_study.json").read_text())["summary"] == d["summary"]


def test_real_text_study_interval_helpers_match_independent_references():
    rts = load("real_text_study")
    from scipy import stats as st

    from textbcv.stats.posterior import posteriors

    # Nadeau–Bengio corrected t with n_test / n_train = 1 (2-fold halves), by the textbook formula
    v = np.array([0.80, 0.82, 0.79, 0.85, 0.81, 0.83])
    k = len(v)
    half = st.t.ppf(0.975, k - 1) * np.sqrt((1 / k + 1) * v.var(ddof=1))
    assert np.allclose(rts.nb_interval(v), (v.mean() - half, v.mean() + half))
    # quantiles of ν_B − ν_A against Monte Carlo draws of the two posteriors
    pa, pb = posteriors(300, 40, 60, c=0.5)["f1"], posteriors(330, 35, 50, c=0.5)["f1"]
    rng = np.random.default_rng(0)
    d = pb.sample(rng, 400_000) - pa.sample(rng, 400_000)
    for q in (0.025, 0.5, 0.975):
        assert abs(rts.diff_quantile(pa, pb, q) - np.quantile(d, q)) < 2e-3


def test_committed_real_text_study_defaults_are_the_cli_defaults():
    # docs/real_text_study.json records the CLI defaults beside what the evidence rule chooses; where the
    # rule has chosen, the two must agree (a study that chooses otherwise fails this test until the code follows)
    from textbcv import defaults

    d = json.loads((SCRIPTS.parent / "docs" / "real_text_study.json").read_text(encoding="utf-8"))["defaults"]
    assert (d["balance"], d["group_by"], d["variant"]) == (list(defaults.BALANCE), defaults.GROUP_BY, defaults.VARIANT)
    for key, chosen in d["rule"].items():
        assert chosen is None or chosen == d[key], (key, chosen, d[key], d["status"])


def test_option_notes_quote_the_committed_real_text_study():
    # textbcv/data/evidence.json (what the option notes quote; package data) is the committed study summary's figures
    from textbcv import defaults

    ev_all = defaults.evidence()
    rts = load("real_text_study")
    d = json.loads((SCRIPTS.parent / "docs" / "real_text_study.json").read_text(encoding="utf-8"))
    assert ev_all["real_text"] == rts.evidence_figures(d["summary"], list(rts.POOLS))
    r = ev_all["real_text"]["averaged-counts"]["msr"]
    quoted = f"{100 * r['coverage_f1']:.0f}% (SIGHAN 2005 MSR, {r['R']} data sets)"
    assert quoted in defaults.EVIDENCE["averaged-counts"]
    assert defaults.real_text_coverage("no-such-variant") is None
    # balancing a measure the rule rejected prints its largest shift beyond the family-wise bound
    assert ev_all["real_text_balance"] == json.loads(json.dumps(rts.balance_evidence(d["defaults_evidence"])))
    for measure, ev in ev_all["real_text_balance"].items():
        line = defaults.real_text_shift(measure)
        if ev["ok"]:
            assert line is None
        else:
            w = ev["worst"]
            assert f"by {w['shift']:+.2f} ± {w['se']:.2f} points".replace("-", "−") in line
            assert w["shift"] / w["se"] >= ev["z_star"]
    assert not ev_all["real_text_balance"]["label"]["ok"]
    assert defaults.option_notes(["label"]) == [f"--balance label: {defaults.real_text_shift('label')}"]
    w = ev_all["real_text_balance"]["label"]["worst"]
    assert f"label balancing moved F1 {w['shift']:+.2f} points at m = {w['m']}".replace("-", "−") in \
        defaults.balance_help()


def test_decision_rule_quotes_the_committed_null_pairs():
    # the false-call rates the report's decision rule quotes are the committed pairs study's null pairs (m = 3)
    from textbcv import defaults

    summ = load("real_text_pairs_summary")
    d = json.loads((SCRIPTS.parent / "docs" / "real_text_pairs.json").read_text(encoding="utf-8"))
    ev = defaults.evidence()["real_text_pairs_null"]
    assert ev == json.loads(json.dumps(summ.null_evidence(d)))
    line = defaults.false_calls(0.95)
    for pool, row in ev.items():
        m3 = row["m3"]
        # the data sets that give textbcv's present posterior (all of them once the study's pieces are run)
        null = next(r for r in d["pairs"] if (r["pool"], r["pair"]) == (pool, "null"))
        assert m3["R"] == null["R_present"] <= d["meta"]["done"][pool]
        assert row["onesplit_bootstrap"]["b_better"]["n"] == m3["R"]  # on the same data sets
        assert f"{100 * m3['calls_b']['rate']:.1f}% / {100 * m3['calls_a']['rate']:.1f}% of {m3['R']} " in line
    assert defaults.false_calls(0.9) is None  # measured at 0.95 only


def test_pairs_targets_are_checked_row_by_row():
    # the summary checks each target of the study on textbcv's posterior's rows: hand-made rows on both sides of
    # every limit, then the committed summary (every row of it checked, none invented)
    summ = load("real_text_pairs_summary")

    def rate(k, n):
        return summ._binom(k, n)

    cal = [
        {"pool": "p", "pair": "null", "m": 3, "candidate": "paired", "calls_b": rate(22, 450),
         "calls_a": rate(23, 450)},
        {"pool": "p", "pair": "scheme", "m": 3, "candidate": "paired", "R_truth": 400, "sd_over_rmse_net": 0.84,
         "sd_over_rmse_net_ci": [0.8, 0.9], "coverage_196": rate(380, 400)},
        {"pool": "p", "pair": "scheme", "m": 7, "candidate": "paired", "R_truth": 399, "sd_over_rmse_net": 1.15,
         "sd_over_rmse_net_ci": [1.0, 1.3], "coverage_196": rate(360, 399)},
        {"pool": "p", "pair": "scheme", "m": 3, "candidate": "pooled", "R_truth": 400, "sd_over_rmse_net": 1.0,
         "coverage_196": rate(380, 400)},
    ]
    power = [{"pool": "p", "pair": "default", "m": 3, "R": 100, "observed": rate(100, 100), "predicted": 0.999,
              "within_2se": True}]
    t = summ.targets({"calibration": cal, "power": power})
    got = [(x["pair"], x["m"], x["target"].split()[0], x["holds"], x["enough"]) for x in t]
    assert got == [("null", 3, "null", True, True),  # 22/450 = 4.9%
                   ("null", 3, "null", False, True),  # 23/450 = 5.1%
                   ("scheme", 3, "SD/RMSE", False, True), ("scheme", 3, "coverage", True, True),
                   ("scheme", 7, "SD/RMSE", True, False), ("scheme", 7, "coverage", False, False),  # 90.2% [87, 93]
                   ("default", 3, "observed", True, True)]
    d = json.loads((SCRIPTS.parent / "docs" / "real_text_pairs.json").read_text(encoding="utf-8"))
    assert d["targets"] == json.loads(json.dumps(summ.targets(d)))
    paired = [c for c in d["calibration"] if c["candidate"] == "paired"]
    assert len(d["targets"]) == sum(2 for c in paired if c["pair"] == "null" or "R_truth" in c) + len(d["power"])


def test_compare_check_says_when_the_study_is_not_textbcvs_answer():
    # a data set whose answer through textbcv.compare differs from the study's is reported as such, never as equal
    summ = load("real_text_pairs_summary")
    row = {"pair": "null", "m": 3, "counts_equal": True, "estimate": [0.001, 0.001], "sd": [0.002, 0.002],
           "df": [5.0, 5.0]}
    same = summ.compare_check([{"pool": "conll", "r": 4, "rows": [row]}])
    assert same == {"data_sets": {"conll": [4]}, "answers": 1, "counts_equal": True, "max_estimate_diff": 0.0,
                    "max_sd_diff": 0.0, "df_equal": True}
    assert "what a user of `textbcv compare` gets" in summ._check_text(same)
    off = summ.compare_check([{"pool": "msr", "r": 0, "rows": [row, {**row, "sd": [0.002, 0.0025]}]}])
    assert off["max_sd_diff"] == pytest.approx(0.05) and off["answers"] == 2
    assert "not textbcv's present answers" in summ._check_text(off)
    assert summ.compare_check([]) is None and "Not yet checked" in summ._check_text(None)


def test_power_is_predicted_at_the_true_gains_net_of_the_truths_noise():
    # a measured truth is the gain plus its own noise: the gains keep their mean and lose the noise's share of the
    # spread (none left when the noise is all of it; unchanged without noise)
    summ = load("real_text_pairs_summary")
    rng = np.random.default_rng(3)
    t = 0.002 + 0.003 * rng.standard_normal(400)
    g, k = summ.true_gains(t, np.full(400, 0.002 ** 2))
    assert np.mean(g) == pytest.approx(np.mean(t))
    assert np.var(g, ddof=1) == pytest.approx(np.var(t, ddof=1) - 0.002 ** 2)
    assert 0 < k < 1
    g, k = summ.true_gains(t, np.full(400, 0.01 ** 2))
    assert k == 0 and np.allclose(g, np.mean(t))
    g, k = summ.true_gains(t, np.zeros(400))
    assert k == 1 and np.allclose(g, t)


def test_decision_rule_quotes_the_committed_seed_null_pairs():
    # with several seeds on both sides the rule quotes the committed seed null study (the posterior with seeds, m = 3)
    # when it measured textbcv's present posterior model, and nothing when it measured another
    from textbcv import defaults

    sn = load("seed_null_study")
    d = json.loads((SCRIPTS.parent / "docs" / "seed_null.json").read_text(encoding="utf-8"))
    ev = defaults.evidence()["seed_null"]
    assert ev == json.loads(json.dumps(sn.null_evidence(d)))
    line = defaults.false_calls(0.95, seeds=True)
    if d.get("posterior") != PAIRED_POSTERIOR:
        assert line is None and all(row.get("posterior") != PAIRED_POSTERIOR for row in ev.values())
        return
    assert line != defaults.false_calls(0.95) and f"{d['pools']['msr']['k']} training seeds per fold" in line
    for pool, row in ev.items():
        m3, with_seeds = row["m3"], d["pools"][pool]["with_seeds"]
        assert m3["R"] == d["pools"][pool]["R"] and m3["calls_b"]["k"] == with_seeds["calls_b"]["k"]
        assert f"{100 * m3['calls_b']['rate']:.1f}% / {100 * m3['calls_a']['rate']:.1f}% of {m3['R']} " in line
    assert defaults.false_calls(0.9, seeds=True) is None


def test_unit_leakage_smoke_sees_sentence_halves_easier(shared, tmp_path):
    shared("conll2003_en", "eng.train")
    ul = load("unit_leakage")
    out = tmp_path / "u.json"
    argv = ["--halvings", "2", "--corpora", "conll", "--json", str(out), "--results", str(tmp_path / "R.md")]
    assert ul.main(argv) == 0
    r = json.loads(out.read_text())["corpora"][0]
    assert r["sentences"] == 14041 and r["documents"] == 946
    assert r["sentence"]["oov_mean"] < r["document"]["oov_mean"]
    assert r["sentence"]["memorising_f1_mean"] > r["document"]["memorising_f1_mean"]
    assert "<!-- BEGIN unit-leakage -->" in (tmp_path / "R.md").read_text()


def test_block_stratification_smoke(shared, tmp_path):
    """Three data sets: the script runs, reproduces the study's draws, and its sorted design is the old splitter's."""
    shared("conll2003_en", "eng.train")
    bs = load("block_stratification")
    out, md = tmp_path / "b.json", tmp_path / "R.md"
    assert bs.main(["--reps", "3", "--json", str(out), "--results", str(md)]) == 0
    res = json.loads(out.read_text())
    rows = {(r["design"], r["m"]): r for r in res["rows"]}
    assert set(rows) == {(d, m) for d in ("random", "bcv", "bcv-sorted") for m in (3, 7)}
    assert all(r["R"] == 3 for r in rows.values())
    assert "f1_shift" not in rows[("random", 3)] and rows[("bcv", 3)]["f1_shift_se"] > 0
    # the draws are the real-text study's (its data set 0 has this digest in docs/real_text_study/conll.jsonl)
    pool = bs.Pool()
    D = pool.draw(0)
    first = json.loads((ROOT / "docs" / "real_text_study" / "conll.jsonl").read_text().splitlines()[0])
    assert first["r"] == 0 and first["n_sentences"] == len(D)
    # sorted dealing spreads the biggest documents over the 16 leaves (at random, 16 of them would meet about 10
    # leaves: 16 (1 − (15/16)^16) = 10.3); size-blind blocks do not
    docs = np.array([pool.corpus[int(i)].document for i in D])
    _, size = np.unique(docs, return_counts=True)
    big = np.argsort(-size, kind="stable")[:16]
    assert len(set(bs.sorted_blocks(size.astype(np.int64), 0)[big].tolist())) >= 14
    from textbcv.split.bcv import NestedBlocks

    blind = [len(set(NestedBlocks(size, sp.csr_matrix((len(size), 0)), np.zeros(0), seed=s).blocks(16)[big].tolist()))
             for s in range(20)]
    assert 8 < np.mean(blind) < 12.5
    assert "<!-- BEGIN block-stratification -->" in md.read_text()


def _rule_summary(R=50, shifts=None, sentence_bias=10.0, mse=None):
    """A synthetic study summary: bias rows for both pools, loss rows, and coverage rows of unbalanced BCV."""
    rts = load("real_text_study")
    shifts = shifts or {}
    mse = mse or {}
    bias, loss, cov = [], [], []
    for pool in ("conll", "msr"):
        units = rts.POOLS[pool]["units"]
        for unit in units:
            for design in rts.DESIGNS:
                for m in rts.MS:
                    for metric, system in (("f1", "A"), ("f1", "B"), ("delta_f1", "B-A")):
                        b = sentence_bias if (unit == "sentence" and "document" in units) else 0.2
                        row = {"pool": pool, "design": design, "unit": unit, "m": m, "truth": units[0],
                               "metric": metric, "system": system, "estimator": "pooled", "R": R,
                               "bias": b, "bias_se": 0.3, "sd": 0.3 * R ** 0.5, "rmse": 2.0}
                        if design != "random":
                            row.update(shift_vs_random=shifts.get((pool, design), 0.0), shift_se=0.15)
                        bias.append(row)
                lr = {"pool": pool, "design": design, "unit": unit, "truth": units[0], "R": R, "rmse": 2.0}
                if design != "bcv":
                    lr.update(mse_vs_bcv=mse.get((pool, design), 0.0), mse_vs_bcv_se=0.1)
                loss.append(lr)
            for m in rts.MS:
                for v, c in (("thesis", 0.5), ("adaptive", 0.95), ("clustered", 0.96)):
                    cov.append({"pool": pool, "design": "bcv", "unit": unit, "m": m, "truth": units[0], "variant": v,
                                "R": R, "coverage_f1": c if unit == units[0] else 0.0, "coverage_delta": c,
                                "width_f1": 3.0 if v == "clustered" else 4.0, "width_delta": 4.0})
    return {"bias": bias, "loss": loss, "coverage": cov}


def test_real_text_rule_keeps_documents_whole_and_rejects_shifting_balance():
    rts = load("real_text_study")
    pools = ["conll", "msr"]
    ev = rts.choose_defaults(_rule_summary(shifts={("conll", "label"): 0.45}), pools)
    assert ev["enough"] and ev["group_by"] == "auto"
    ok = {x["design"]: x["ok"] for x in ev["ranked"]}
    assert ok["label"] is False and ok["bcv"] is True and ok["length"] is True
    assert ev["chosen"]["design"] == "bcv"  # nothing beats unbalanced BCV in paired MSE
    assert ev["chosen"]["units"] == {"conll": "document", "msr": "sentence"}
    # within 0.1 points a significant shift is tolerated (MSR resolves shifts of a few hundredths)
    ev = rts.choose_defaults(_rule_summary(shifts={("msr", "bcv"): 0.08}), pools)
    assert {x["design"]: x["ok"] for x in ev["ranked"]}["bcv"] is True
    # unbiased sentence halves: sentences are the unit
    assert rts.choose_defaults(_rule_summary(sentence_bias=0.1), pools)["group_by"] == "sentence"
    # too few data sets: nothing is chosen, and the text says how many the rule needs
    ev = rts.choose_defaults(_rule_summary(R=rts.MIN_R - 1), pools)
    assert ev["chosen"] is None and ev["group_by"] is None
    assert f"needs {rts.MIN_R} per pool" in rts.rule_text(ev)


def test_real_text_rule_prefers_balance_only_when_it_beats_unbalanced_bcv_everywhere():
    rts = load("real_text_study")
    pools = ["conll", "msr"]
    ev = rts.choose_defaults(_rule_summary(mse={("conll", "length"): -0.5, ("msr", "length"): -0.3}), pools)
    assert ev["chosen"]["design"] == "length" and ev["chosen"]["beats_bcv"]
    ev = rts.choose_defaults(_rule_summary(mse={("conll", "length"): -0.5, ("msr", "length"): -0.1}), pools)
    assert ev["chosen"]["design"] == "bcv"  # not better by 2 SE on MSR


def test_real_text_variant_rule_judges_the_chosen_unit_only():
    rts = load("real_text_study")
    s = _rule_summary()
    # sentence halves of CoNLL cover 0% of the document truth; judged at the chosen unit, clustered is shortest
    v, text = rts.choose_variant(s, "bcv", {"conll": "document", "msr": "sentence"})
    assert v == "clustered" and "adaptive, clustered" in text
    assert rts.choose_variant(s, "bcv")[0] is None  # every unit at once: none covers


def test_bench_all_tables_the_score_and_read_targets(tmp_path, monkeypatch):
    # bench_score's and bench_read's JSON (their current shapes) become table rows that state each target
    ba = load("bench_all")
    score = {"benchmark": "score", "tokens": 1000, "noise": 0.1, "seed": 0, "results_equal": True,
             "cli": {"seconds": 0.5, "reference_seconds": 12.0, "ratio": 24.0, "target": 30.0, "met": False},
             "in_memory": {"textbcv_score_tags_seconds": 0.2, "seqeval_classification_report_seconds": 10.0},
             "memory": {"tokens": 10000, "file_mb": 1.5, "seconds": 2.0, "peak_rss_mb": 400.0, "target_mb": 1024,
                        "met": True},
             "modes": [{"noise": 0.1, "chunk_f1": 0.65, "sentences": 20, "strict_seconds": 0.04,
                        "with_modes_seconds": 0.068, "ratio": 1.7, "target": 1.5, "met": False}]}
    read = {"benchmark": "read", "results": {"conll": {"file": "x/eng.train", "tokens": 10, "seconds": 0.2,
                                                       "reference": "line.split() loop", "reference_seconds": 0.1,
                                                       "ratio": 2.0, "cpu_seconds": 0.15,
                                                       "reference_cpu_seconds": 0.05},
                                             "conllu": {"file": "y.conllu", "skipped": "needs y.conllu (not found)"}},
            "targets": {"conll": {"ratio": 2.0, "limit": 4.0, "met": True}}}
    monkeypatch.setattr(ba, "commands", lambda args: {
        n: [sys.executable, "-c", f"import json; print(json.dumps({o!r}))"] for n, o in (("score", score),
                                                                                          ("read", read))})
    out_json, out_md = tmp_path / "b.json", tmp_path / "R.md"
    assert ba.main(["--only", "read,score", "--json", str(out_json), "--results", str(out_md)]) == 0
    md = out_md.read_text()
    assert "| ≥ 30× faster: NOT met (24×) |" in md
    assert "peak RSS 400 MB | 2 | – | – | – | – | – | – | < 1024 MB: met |" in md
    assert "| 2 | 0.15 | 0.05 | 3 | ≤ 4: met |" in md  # wall and CPU ratios side by side
    assert "| read conllu: skipped | – | needs y.conllu (not found) |" in md  # tabled, not dropped
    assert "tag noise 0.1 (chunk F1 0.65)" in md and "≤ 1.5×: NOT met |" in md


def test_benchmarks_say_what_they_skip_in_a_checkout_without_the_shared_corpora(tmp_path):
    import subprocess

    none = tmp_path / "no-shared"
    runs = {"bench_score.py": ["--corpus-dir", str(none / "conll2003_en")], "bench_tag.py": ["--train", str(none)],
            "bench_read.py": ["--shared", str(none), "--repeat", "1"]}
    out = {}
    for name, extra in runs.items():
        p = subprocess.run([sys.executable, str(SCRIPTS / name), *extra], capture_output=True, text=True, cwd=ROOT)
        assert p.returncode == 0, p.stderr
        out[name] = json.loads(p.stdout)
    assert "needs CoNLL-2003" in out["bench_score.py"]["skipped"]
    assert "--conlleval" in out["bench_score.py"]["startup"]["skipped"]
    assert str(none) in out["bench_tag.py"]["skipped"]
    read = out["bench_read.py"]["results"]
    assert {k for k, v in read.items() if "skipped" in v} == {"conll", "conllu", "segmented"}
    assert read["conll-bundled"]["tokens"] == 31_076 and read["conll-bundled"]["cpu_seconds"] > 0


def test_real_text_rule_judges_shifts_family_wise():
    # a 2.5-SE shift in one of a design's twelve rows: rejected at the per-row 2 SE, kept at the design's
    # family-wise critical value (here 2.9), which the study computes from its data (max_z_threshold)
    rts = load("real_text_study")
    pools = ["conll", "msr"]
    s = _rule_summary(shifts={("conll", "bcv"): 0.375})
    assert {x["design"]: x["ok"] for x in rts.choose_defaults(s, pools)["ranked"]}["bcv"] is False
    s["shift_thresholds"] = {"bcv|auto": 2.9}
    ev = rts.choose_defaults(s, pools)
    assert {x["design"]: x["ok"] for x in ev["ranked"]}["bcv"] is True and ev["chosen"]["design"] == "bcv"
    assert "BCV, not balanced 2.90" in rts.rule_text(ev)


@pytest.mark.slow  # the longest smoke runs: CI runs them (.ci/run), the fast suite does not
def test_real_text_pairs_smoke_resumes_and_summarizes(shared, tmp_path, monkeypatch):
    shared("conll2003_en", "eng.train")
    shared("sighan2005_cws", "msr_test_gold.utf8")
    rp = load("real_text_pairs")
    out, work = tmp_path / "out", tmp_path / "work"
    argv = ["--smoke", "--out", str(out), "--work", str(work)]
    real, calls = rp.piece_truth, []

    def flaky(*a, **k):  # killed in the first data set's truth: its folds piece is kept
        calls.append(a[1])
        raise KeyboardInterrupt

    monkeypatch.setattr(rp, "piece_truth", flaky)
    with pytest.raises(KeyboardInterrupt):
        rp.main(argv)
    saved = [json.loads(x)["piece"] for x in (work / "conll" / "r0000.jsonl").read_text().splitlines()]
    assert saved == ["head", "folds"]
    folds_calls = []
    real_folds = rp.piece_folds
    monkeypatch.setattr(rp, "piece_truth", real)
    monkeypatch.setattr(rp, "piece_folds", lambda *a, **k: (folds_calls.append(a[1]), real_folds(*a, **k))[1])
    assert rp.main(argv) == 0
    assert folds_calls.count(0) == 1  # conll r=0's folds were not trained again (msr's r=0 was)
    recs = [json.loads(x) for x in (out / "real_text_study" / "pairs-conll.jsonl").read_text().splitlines()]
    assert [r["r"] for r in recs] == [0, 1]
    f = recs[0]["pieces"]["folds"]
    assert set(f["xprod"]) == {"null", "scheme", "feature", "default"}
    k = 4 * 2 * rp.M_MAX  # (TP, FP + FN) of two systems over 14 folds
    assert all(len(v) == k * (k + 1) // 2 for v in f["xprod"].values())
    assert set(recs[0]["pieces"]) == {"folds", "truth", "truth2", "related"}
    assert set(recs[1]["pieces"]) == {"folds", "truth", "related"}
    # the related piece trained the fold models again (their counts checked against the folds piece) and holds,
    # per pair, the cross products of the clusters that share a rare name, as textbcv finds them
    rel = recs[0]["pieces"]["related"]
    assert rel["most"] == rp.RELATED_MOST and rel["pairs"] > 0 and set(rel["xprod"]) == set(f["xprod"])
    assert all(len(v) == k * (k + 1) // 2 for v in rel["xprod"].values())
    kept = np.load(work / "conll" / "clusters" / "r0000.npz")
    assert kept["X_base"].shape == (f["clusters"], 2 * rp.M_MAX, 3)
    assert kept["X_base"].sum(axis=0).tolist() == f["counts"]["base"]
    # a related piece of another rule is rewritten from the kept sums, without training, to what a run would write
    units = out / "real_text_study" / "pairs-conll.jsonl"
    before = units.read_text()
    units.write_text(before.replace(f'"most":{rp.RELATED_MOST}', '"most":99', 1))
    assert rp.main(argv + ["--recompute-related", "--pools", "conll"]) == 0
    assert units.read_text() == before
    d = json.loads((out / "real_text_pairs.json").read_text())
    assert {(r["pool"], r["pair"]) for r in d["pairs"]} == {(p, q) for p in ("conll", "msr")
                                                            for q in ("null", "scheme", "feature", "default")}
    assert "<!-- BEGIN real-text-pairs -->" in (out / "RESULTS.md").read_text()
    assert {c["candidate"] for c in d["calibration"]} >= {"independent", "paired"}
    for r in d["pairs"]:  # a sequential run's calls under both stopping rules, on the same data sets
        assert set(r["sequential"]) == {"t-test", "bayes"} and r["sequential"]["bayes"]["b_better"]["n"] == r["R"]
    assert {(x["pool"], x["pair"], x["m"]) for x in d["power"]} >= {("conll", "scheme", 3), ("msr", "default", 7)}
    assert all(0 <= x["predicted"] <= 1 and len(x["curve"]) == len(rp.summ.POWER_GRID) for x in d["power"])
    assert (out / "real_text_pairs_power.png").stat().st_size > 1000
    # the study's answers are textbcv.compare's: its first data set of each pool answered again through compare
    assert d["compare_check"] is None
    assert rp.main(argv + ["--check-compare", "1"]) == 0
    check = json.loads((out / "real_text_pairs.json").read_text())["compare_check"]
    assert check["data_sets"] == {"conll": [0], "msr": [0]} and check["answers"] == 2 * 2 * 4
    assert check["counts_equal"] and check["df_equal"]
    assert check["max_estimate_diff"] < 1e-9 and check["max_sd_diff"] < 1e-9
    assert "so these rows are what a user of `textbcv compare` gets" in (out / "RESULTS.md").read_text()
    assert rp.main(argv + ["--check-compare", "1"]) == 0  # a checked data set is not answered again
    assert (out / "real_text_study" / "pairs-check-conll.jsonl").read_text().count("\n") == 1
    # the decomposition of the default pair's error, on the same smoke study: its fold models are trained again
    # (their counts must equal the study's, or it stops) and tested on the truth's held-out text as well
    dc = load("pairs_decomposition")
    dargv = ["--smoke", "--out", str(out), "--pools", "conll"]
    assert dc.main(dargv) == 0
    units_path = out / "real_text_study" / "decomposition-conll.jsonl"
    units = [json.loads(x) for x in units_path.read_text().splitlines()]
    assert [(u["pair"], u["r"]) for u in units] == [("default", 0), ("default", 1)]
    assert all(len(u["folds"]) == 2 * dc.M and u["rest_var_pooled"] > 0 for u in units)
    assert all(f["v_lin"] > 0 and f["v_jk"] > 0 and f["rest_var"] > 0 for u in units for f in u["folds"])
    assert all(u["v_jk_pooled"] > 0 and u["v_lin_pooled"] > 0 for u in units)
    assert all(f["iid"]["draws"] == dc.IID_DRAWS and f["iid"]["e2"] > 0 and f["iid"]["v_jk"] > 0
               for u in units for f in u["folds"])
    assert dc.main(dargv) == 0 and units_path.read_text().count("\n") == 2  # finished data sets are not run again
    # a line written before the pooled jackknife is run again; the data set's new (last) line counts
    old = dict(units[1])
    del old["v_jk_pooled"]
    units_path.write_text(json.dumps(units[0]) + "\n" + json.dumps(old) + "\n")
    assert dc.main(dargv) == 0
    lines = [json.loads(x) for x in units_path.read_text().splitlines()]
    assert [u["r"] for u in lines] == [0, 1, 1] and lines[2]["v_jk_pooled"] == units[1]["v_jk_pooled"]
    assert [u["r"] for u in dc._units(units_path)] == [0, 1]
    s = json.loads((out / "pairs_decomposition.json").read_text())
    row = s["rows"][0]
    assert (row["pool"], row["pair"], row["R"]) == ("conll", "default", 2)
    assert row["pooled_jackknife"]["R"] == 2 and row["pooled_jackknife"]["jackknife_over_linearised"] > 0
    assert row["iid_halves"]["ratio_linearised"] > 0 and -1 <= row["fold_covariance"]["same_split_corr"] <= 1
    for part in ("total", "new_text", "models"):
        assert row[part]["mse"] >= 0 and row[part]["predicted"] > 0
        assert row[part]["ratio"] == pytest.approx(row[part]["mse"] / row[part]["predicted"])
    assert "<!-- BEGIN pairs-decomposition -->" in (out / "RESULTS.md").read_text()


def test_words_template_smoke_writes_units_and_resumes(tmp_path):
    """scripts/words_template.py --smoke: one finished corpus is one unit line; a second run reuses it."""
    wt = load("words_template")
    out, work = tmp_path / "out", tmp_path / "work"
    argv = ["--smoke", "--out", str(out), "--work", str(work)]
    assert wt.main(argv) == 0
    units = [json.loads(x) for x in (out / "words_template" / "units.jsonl").read_text().splitlines()]
    assert [u["corpus"] for u in units] == ["bundled"]
    u = units[0]
    assert set(u["f1"]) == {"ner-words", "ner-rich-words"} and u["difference"]["basis"] == "paired"
    assert 0 < u["baseline_f1"] < 1 and u["sentences"] >= 300
    # the corpus fed to textbcv has tokens and NER tags only
    first = (work / "bundled.conll").read_text(encoding="utf-8").splitlines()
    assert all(len(line.split()) == 2 for line in first if line.strip() and not line.startswith("-DOCSTART-"))
    s = json.loads((out / "words_template.json").read_text())
    assert s["best"]["bundled"] in ("ner-words", "ner-rich-words") and "not_covered" in s
    assert "<!-- BEGIN words-template -->" in (out / "RESULTS.md").read_text()
    assert wt.main(argv) == 0  # resumes: nothing is run again
    assert len((out / "words_template" / "units.jsonl").read_text().splitlines()) == 1


def test_seed_null_units_keep_what_their_posteriors_are_made_from():
    """A seed null unit keeps the cluster cross-products, fold totals and seed moments (small), and the posteriors
    made from them equal textbcv's own from the per-sentence counts: a later posterior model re-summarises the
    units without training."""
    from textbcv.stats.paired import paired_differences

    sn = load("seed_null_study")
    rng = np.random.default_rng(5)
    m = sn.M
    per, clusters = {"A": [], "B": []}, []
    for f in range(2 * m):
        n = 40
        hard = rng.random(n) < 0.3
        base = np.stack([np.where(hard, 1, 3), np.where(hard, 2, 0), np.where(hard, 2, 0)], axis=1)
        for name in ("A", "B"):
            seeds = []
            for _s in range(2):
                x = base.copy()
                x[hard & (rng.random(n) < 0.3)] = [2, 1, 1]
                seeds.append(x)
            per[name].append(np.stack(seeds))
        clusters.append(rng.integers(0, 12, size=n) + 100 * (f // 2))
    summed = {k: [x.sum(axis=0) for x in v] for k, v in per.items()}
    ids = np.unique(np.concatenate(clusters))
    related = np.sort(rng.choice(ids, size=(15, 2)), axis=1)
    related = np.unique(related[related[:, 0] < related[:, 1]], axis=0)
    unit = sn.with_posteriors({"raw": sn.raw_moments(summed, per, clusters, related)})
    assert json.loads(json.dumps(unit["raw"])) == unit["raw"]
    kw = {"related": related} if sn.summ.PRESENT_RELATED else {}
    want = paired_differences(summed, clusters, m, metrics=("f1",), seed_sentence_counts=per, **kw)[("A", "B")]["f1"]
    plain = paired_differences(summed, clusters, m, metrics=("f1",), **kw)[("A", "B")]["f1"]
    for got, p in ((unit["with_seeds"], want), (unit["summed"], plain)):
        for key in ("estimate", "sd", "var_test", "var_model", "p_b_better"):
            assert got[key] == pytest.approx(getattr(p, key) if key != "p_b_better" else p.prob_better()[key],
                                             rel=1e-9, abs=1e-15), key
    assert unit["posterior"] == PAIRED_POSTERIOR and unit["seeds"]
    assert sn.current([{"posterior": "paired/1", "r": 0}, unit]) == [unit]  # an old unit without raw: run again
    if sn.summ.PRESENT_RELATED:  # a unit without the related clusters' cross products is of another model
        old = {**unit, "posterior": "paired/2", "raw": {k: v for k, v in unit["raw"].items() if k != "related"}}
        assert sn.current([old]) == []


def test_seed_null_study_smoke_writes_units_resumes_and_summarizes(shared, tmp_path):
    """scripts/seed_null_study.py --smoke: one unit line per data set, with the seeds as a part of their own (both
    systems have two seeds); a second run finds every unit done and only re-summarises."""
    shared("sighan2005_cws", "msr_test_gold.utf8")
    sn = load("seed_null_study")
    out = tmp_path / "out"
    assert sn.main(["--smoke", "--pools", "msr", "--out", str(out)]) == 0
    units = [json.loads(x) for x in (out / "seed_null" / "units-msr.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [u["r"] for u in units] == [0, 1]
    for u in units:
        assert u["seeds"] and u["k"] == 2 and u["posterior"] == PAIRED_POSTERIOR and "xprod" in u["raw"]
        w = u["with_seeds"]
        assert w["sd"] ** 2 == pytest.approx(w["var_test"] + w["var_model"] + w["var_seed"])
    before = (out / "seed_null" / "units-msr.jsonl").read_bytes()
    assert sn.main(["--smoke", "--pools", "msr", "--out", str(out)]) == 0
    assert (out / "seed_null" / "units-msr.jsonl").read_bytes() == before
    summary = json.loads((out / "seed_null.json").read_text(encoding="utf-8"))
    row = summary["pools"]["msr"]
    assert row["R"] == 2 and set(row) >= {"with_seeds", "summed", "onesplit_bootstrap"}
    assert "## Seed null pairs" in (out / "RESULTS.md").read_text(encoding="utf-8")
    with pytest.raises(SystemExit):
        sn.main(["--smoke", "--pools", "msr", "--out", str(out), "--seeds", "3"])  # other settings: refused


def test_corpora_null_check_reads_the_committed_null_pairs(tmp_path):
    """scripts/corpora_null_check.py: groups of three committed null pairs get the hierarchical answer; its
    figures (calls each way, P(equivalent) >= 0.9) are written to its JSON and its RESULTS section."""
    cn = load("corpora_null_check")
    assert cn.main(["--out", str(tmp_path)]) == 0
    r = json.loads((tmp_path / "corpora_null.json").read_text(encoding="utf-8"))
    assert r["groups"] == sum(r["by_kind"].values()) > 0
    assert r["calls_b"]["n"] == r["calls_a"]["n"] == r["groups"]
    assert "## Null pairs across corpora (interim)" in (tmp_path / "RESULTS.md").read_text(encoding="utf-8")


def test_corpora_null_study_smoke_resumes_and_summarizes(shared, tmp_path):
    """scripts/corpora_null_study.py --smoke: one unit line per repetition with each corpus's paired posterior; a
    second run resumes (nothing run again) and summarises; other settings in the same folder are refused."""
    shared("conll2003_en", "eng.train")
    shared("conll2002_es", "esp.train")
    cn = load("corpora_null_study")
    assert cn.main(["--smoke", "--out", str(tmp_path)]) == 0
    path = tmp_path / "corpora_null" / "units.jsonl"
    units = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert [u["r"] for u in units] == [0, 1]
    assert all(set(u["corpora"]) == {"bundled", "conll2003", "conll2002"} for u in units)
    assert all(x["basis"] == "paired" and x["sd"] > 0 for u in units for x in u["corpora"].values())
    before = path.read_bytes()
    assert cn.main(["--smoke", "--out", str(tmp_path)]) == 0
    assert path.read_bytes() == before
    summary = json.loads((tmp_path / "corpora_null_study.json").read_text(encoding="utf-8"))
    assert summary["R"] == 2 and summary["calls_b"]["n"] == 2
    assert all(u["posterior"] == cn.PAIRED_POSTERIOR for u in units) and summary["posterior"] == cn.PAIRED_POSTERIOR
    # units of an older posterior model (no name: paired/1) are run again under the present one; the summary is of
    # the model with the most repetitions, the present one once it has as many
    old = [{k: v for k, v in u.items() if k != "posterior"} for u in units]
    path.write_text("".join(json.dumps(u) + "\n" for u in old + old[:1]), encoding="utf-8")
    assert cn.summarized_model(cn.units_by_model(path)) == "paired/1"
    assert cn.main(["--smoke", "--out", str(tmp_path)]) == 0
    assert [u.get("posterior") for u in map(json.loads, path.read_text(encoding="utf-8").splitlines())] == \
        [None, None, None, cn.PAIRED_POSTERIOR, cn.PAIRED_POSTERIOR]
    assert json.loads((tmp_path / "corpora_null_study.json").read_text(encoding="utf-8"))["posterior"] == \
        cn.PAIRED_POSTERIOR
    assert "textbcv's present one" in (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
    with pytest.raises(SystemExit):
        cn.main(["--out", str(tmp_path), "--summarize-only"])  # a full study in the smoke folder


def test_corpora_null_equivalence_bound_by_hand():
    """The equivalence bound pools the corpora's posteriors by inverse variance (tau = 0); its SD thresholds are
    those at which P(|delta| <= 0.5 points) = 0.9, at an estimate of 0 and at 1.96 SD."""
    from scipy import stats as sst

    cn = load("corpora_null_study")
    units = [{"r": 0, "corpora": {"a": {"estimate": 0.002, "sd": 0.004}, "b": {"estimate": -0.001, "sd": 0.003}}},
             {"r": 1, "corpora": {"a": {"estimate": 0.0, "sd": 0.006}, "b": {"estimate": 0.003, "sd": 0.006}}}]
    b = cn.equivalence_bound(units)
    w0 = np.array([1 / 0.004 ** 2, 1 / 0.003 ** 2])
    mu0, sd0 = (w0 @ [0.002, -0.001]) / w0.sum(), w0.sum() ** -0.5
    mu1, sd1 = 0.0015, 0.006 / np.sqrt(2)
    assert b["median_sd_points"] == pytest.approx(100 * (sd0 + sd1) / 2)
    assert b["rms_estimate_points"] == pytest.approx(100 * np.sqrt((mu0 ** 2 + mu1 ** 2) / 2))
    p = [sst.norm.cdf((0.005 - mu) / s) - sst.norm.cdf((-0.005 - mu) / s) for mu, s in ((mu0, sd0), (mu1, sd1))]
    assert b["median_p_equivalent"] == pytest.approx(np.median(p))
    assert b["equivalent_at_0.9"]["k"] == sum(x >= 0.9 for x in p)
    assert b["sd_needed_best_points"] == pytest.approx(0.5 / sst.norm.ppf(0.95))
    s = b["sd_needed_95_points"] / 100
    assert sst.norm.cdf((0.005 - 1.96 * s) / s) - sst.norm.cdf((-0.005 - 1.96 * s) / s) == pytest.approx(0.9, abs=1e-4)
