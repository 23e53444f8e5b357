"""`textbcv test` beyond the Bayes answer (issues 16 and 18), checked against independent references.

A real compare run at m = 5 (a slice of the bundled NER corpus, cheap CRF settings, predictions saved):
the 5×2cv t, combined F and Nadeau–Bengio t printed by `test --classic` equal the published formulas
(Dietterich 1998, Alpaydin 1999, Nadeau & Bengio 2003) computed here from the per-fold F1 of folds.jsonl;
McNemar's table equals one counted here from the prediction files with seqeval's chunk decoder, and its
p-values mlxtend's. Also: the gold-total check, --per-type, --type, --plots, the sequential t-test equal
to the report's, percent in text output, and every misuse ending with one line and exit 2.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from textbcv.cli import main
from textbcv.corpus import read_conll, write_conll
from textbcv.corpus.bundled import bundled_corpora


def run_cli(args, capsys):
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture(scope="module")
def run5():
    """A compare run at m = 5 with saved predictions (400 sentences, 20 CRF iterations, no balancing)."""
    tmp = Path(tempfile.mkdtemp(prefix="textbcv-classic-"))
    corpus = tmp / "slice.conll"
    write_conll(read_conll(bundled_corpora()["ner"])[:400], str(corpus))
    out = tmp / "run"
    assert main(["compare", str(corpus), "--task", "ner", "--systems", "iob2,iobes", "--m", "5", "--balance", "none",
                 "--max-iterations", "20", "--save-predictions", "--quiet", "--no-plots", "--out", str(out)]) == 0
    yield out
    shutil.rmtree(tmp, ignore_errors=True)


def fold_f1(folds_jsonl: Path) -> dict[str, list[float]]:
    """Per-fold F1 = 2TP / (2TP + FP + FN) of every system, in fold order, read with plain json."""
    recs = [json.loads(line) for line in folds_jsonl.read_text().splitlines()]
    out: dict[str, dict] = {}
    for r in recs:
        c = r["counts"]["overall"]
        out.setdefault(r["system"], {})[(r["split"], r["direction"])] = 2 * c["tp"] / (2 * c["tp"] + c["fp"] + c["fn"])
    return {s: [v[k] for k in sorted(v)] for s, v in out.items()}


# ----------------------------------------------------------------------------- published formulas, written out


def dietterich(p):
    """5×2cv paired t (Dietterich 1998): t = p_1^(1) / sqrt((1/5) Σ_{i=1..5} s_i²), 5 df."""
    s2 = [(p[i][0] - (p[i][0] + p[i][1]) / 2) ** 2 + (p[i][1] - (p[i][0] + p[i][1]) / 2) ** 2 for i in range(5)]
    t = p[0][0] / math.sqrt(sum(s2) / 5)
    return t, 2 * stats.t.sf(abs(t), 5), s2


def alpaydin(p):
    """Combined 5×2cv F (Alpaydin 1999): F = Σ_i Σ_j (p_i^(j))² / (2 Σ_i s_i²) ~ F(10, 5)."""
    s2 = dietterich(p)[2]
    f = sum(p[i][j] ** 2 for i in range(5) for j in range(2)) / (2 * sum(s2))
    return f, stats.f.sf(f, 10, 5)


def nadeau_bengio(d, ratio=1.0):
    """Corrected resampled t (Nadeau & Bengio 2003): mean / sqrt((1/J + n2/n1) σ̂²), J − 1 df."""
    J = len(d)
    mean = sum(d) / J
    var = sum((x - mean) ** 2 for x in d) / (J - 1)
    t = mean / math.sqrt((1 / J + ratio) * var)
    return t, 2 * stats.t.sf(abs(t), J - 1)


def test_classic_at_m5_equals_published_formulas(run5, capsys):
    rc, out, err = run_cli(["test", run5 / "folds.jsonl", "--classic", "--json"], capsys)
    assert rc == 0 and err == ""
    r = json.loads(out)
    f1 = fold_f1(run5 / "folds.jsonl")
    d = [b - a for a, b in zip(f1["iob2"], f1["iobes"])]
    p = [d[2 * i: 2 * i + 2] for i in range(5)]
    tests = {t["test"]: t for t in r["classic"]["pairs"][0]["tests"]}
    assert list(tests) == ["paired_t_5x2cv", "combined_f_5x2cv", "combined_t_5x2cv", "corrected_resampled_t",
                           "wilcoxon"]
    t, pt, _ = dietterich(p)
    assert tests["paired_t_5x2cv"]["statistic"] == pytest.approx(t, rel=1e-9, abs=1e-12)
    assert tests["paired_t_5x2cv"]["p_value"] == pytest.approx(pt, rel=1e-9) and tests["paired_t_5x2cv"]["df"] == 5
    f, pf = alpaydin(p)
    assert tests["combined_f_5x2cv"]["statistic"] == pytest.approx(f, rel=1e-9)
    assert tests["combined_f_5x2cv"]["p_value"] == pytest.approx(pf, rel=1e-9)
    assert tests["combined_f_5x2cv"]["df"] == [10, 5]
    tn, pn = nadeau_bengio(d)
    assert tests["corrected_resampled_t"]["statistic"] == pytest.approx(tn, rel=1e-9)
    assert tests["corrected_resampled_t"]["p_value"] == pytest.approx(pn, rel=1e-9)
    assert tests["wilcoxon"]["p_value"] == pytest.approx(stats.wilcoxon(d).pvalue, rel=1e-9)
    for k in tests.values():
        assert k["form"] and k["assumption"] and k["undefined"] is None
    # the text output prints the same numbers, and names the forms and assumptions
    rc, text, _ = run_cli(["test", run5, "--classic"], capsys)
    assert rc == 0
    assert f"t(5) = {t:.4g}" in text and f"F(10, 5) = {f:.4g}" in text and f"t(9) = {tn:.4g}" in text
    assert "5×2cv paired t (Dietterich 1998): t = p₁⁽¹⁾ / √(Σ s_i² / 5), 5 df; two-sided." in text
    assert "blocked 3×2 t (Wang et al. 2014): needs m = 3; this input has m = 5" in text
    assert "Why they may disagree with the Bayes test" in text
    # and so does the compare report
    md = (run5 / "report.md").read_text()
    assert "## Textbook tests (per-fold F1 differences, B − A)" in md
    assert f"| iob2 | iobes | 5×2cv paired t (Dietterich 1998) | t(5) = {t:.4g} |" in md
    assert f"| iob2 | iobes | combined 5×2cv F (Alpaydin 1999) | F(10, 5) = {f:.4g} |" in md


def seqeval_chunks(tags):
    from seqeval.metrics.sequence_labeling import get_entities

    return {(s, e + 1, t) for t, s, e in get_entities(list(tags))}


def read_pred(path: Path):
    sents, cur = [], []
    for line in path.read_text().splitlines():
        if not line.strip():
            if cur:
                sents.append(cur)
            cur = []
        else:
            cur.append(line.split())
    if cur:
        sents.append(cur)
    return sents


def test_mcnemar_on_saved_predictions(run5, capsys):
    ev = pytest.importorskip("mlxtend.evaluate")
    for fold, (split, direction) in (("0-0", (0, 0)), ("3-1", (3, 1))):
        rc, out, err = run_cli(["test", run5, "--classic", "--json", "--fold", fold], capsys)
        assert rc == 0, err
        mc = json.loads(out)["classic"]["mcnemar"]
        assert (mc["split"], mc["direction"], mc["decisions"]) == (split, direction, "chunk")
        a = read_pred(run5 / "predictions" / f"iob2-split{split}-dir{direction}.txt")
        b = read_pred(run5 / "predictions" / f"iobes-split{split}-dir{direction}.txt")
        n = [[0, 0], [0, 0]]
        for sa, sb in zip(a, b, strict=True):
            gold = seqeval_chunks([x[1] for x in sa])
            assert gold == seqeval_chunks([x[1] for x in sb])
            pa, pb = seqeval_chunks([x[2] for x in sa]), seqeval_chunks([x[2] for x in sb])
            for c in gold | pa | pb:
                ra, rb = (c in pa) == (c in gold), (c in pb) == (c in gold)
                n[0 if ra else 1][0 if rb else 1] += 1
        pair = mc["pairs"][0]
        assert pair["table"] == n and mc["units"] == sum(map(sum, n))
        exact, chi2 = pair["tests"]
        _, p_exact = ev.mcnemar(ary=np.array(n), exact=True)
        s_chi2, p_chi2 = ev.mcnemar(ary=np.array(n), corrected=True)
        assert exact["p_value"] == pytest.approx(p_exact, rel=1e-9) and exact["b"] == n[0][1] and exact["c"] == n[1][0]
        assert chi2["statistic"] == pytest.approx(s_chi2, rel=1e-9)
        assert chi2["p_value"] == pytest.approx(p_chi2, rel=1e-9)
        assert "exact" in exact["name"] and "continuity-corrected" in chi2["form"]


def test_mcnemar_token_decisions(run5, capsys):
    rc, out, err = run_cli(["test", run5, "--classic", "--json", "--decisions", "token"], capsys)
    assert rc == 0, err
    mc = json.loads(out)["classic"]["mcnemar"]

    def roles(chunks, n):
        r = ["O"] * n
        for s, e, t in chunks:
            for i in range(s, e):
                r[i] = ("S" if e - s == 1 else "B" if i == s else "E" if i == e - 1 else "I", t)
        return r

    a = read_pred(run5 / "predictions" / "iob2-split0-dir0.txt")
    b = read_pred(run5 / "predictions" / "iobes-split0-dir0.txt")
    n = [[0, 0], [0, 0]]
    for sa, sb in zip(a, b):
        k = len(sa)
        g = roles(seqeval_chunks([x[1] for x in sa]), k)
        ra = [x == y for x, y in zip(roles(seqeval_chunks([x[2] for x in sa]), k), g)]
        rb = [x == y for x, y in zip(roles(seqeval_chunks([x[2] for x in sb]), k), g)]
        for x, y in zip(ra, rb):
            n[0 if x else 1][0 if y else 1] += 1
    assert mc["pairs"][0]["table"] == n and mc["units"] == sum(len(s) for s in a)


def test_sequential_and_per_type_equal_the_report(run5, capsys):
    report = json.loads((run5 / "report.json").read_text())
    rc, out, err = run_cli(["test", run5 / "folds.jsonl", "--json", "--per-type"], capsys)
    assert rc == 0
    r = json.loads(out)
    assert r["sequential"] == report["sequential"]
    assert r["per_type"] == report["per_type"]
    assert sorted(r["per_type_comparisons"]) == sorted(report["per_type"]["iob2"])
    rc, out, err = run_cli(["test", run5 / "folds.jsonl", "--json", "--type", "ORG"], capsys)
    typed = json.loads(out)
    assert [c["p_b_better"] for c in typed["comparisons"] if c["metric"] == "f1"] == \
        [c["p_b_better"] for c in r["per_type_comparisons"]["ORG"]]
    # text: P/R/F1 in percent, probabilities as fractions, one per-type row per type
    rc, text, _ = run_cli(["test", run5, "--per-type"], capsys)
    f1 = report["systems"]["iob2"]["f1"]
    lo, hi = f1["ci"]
    assert f"iob2    f1            {100 * f1['estimate']:.2f}  [{100 * lo:.2f}, {100 * hi:.2f}]" in text
    org = report["per_type"]["iob2"]["ORG"]
    assert f"ORG   {100 * org['precision']:.2f} / {100 * org['recall']:.2f} / {100 * org['f1']:.2f}" in text
    assert "Sequential t-test on per-fold F1 differences" in text


def test_plots(run5, tmp_path, capsys):
    rc, out, err = run_cli(["test", run5, "--plots", tmp_path / "p"], capsys)
    assert rc == 0
    # the manifest lists them as textbcv's, so that a later run replaces them and never a user's file
    assert sorted(x.name for x in (tmp_path / "p").iterdir()) == ["f1_difference.png", "fold_f1.png", "posteriors.png",
                                                                 "textbcv-run.json"]
    for png in (tmp_path / "p").glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_mcnemar_refuses_predictions_of_another_run(run5, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(run5, run)
    pred = run / "predictions" / "iobes-split0-dir0.txt"
    lines = pred.read_text().splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if line.strip() and line.split()[2] != "O")
    tok, gold, tag = lines[k].split()
    lines[k] = f"{tok} {gold} O\n"
    pred.write_text("".join(lines))
    rc, out, err = run_cli(["test", run, "--classic"], capsys)
    assert rc == 2 and out == ""
    assert err.startswith(f"textbcv: error: {pred}: these predictions give TP/FP/FN = ")
    assert "not this run's predictions" in err
    pred.unlink()
    rc, out, err = run_cli(["test", run, "--classic", "--fold", "0-0"], capsys)
    assert rc == 2 and err == f"textbcv: error: {pred}: no predictions of system 'iobes' for split 0 direction 0 " \
                              "(needed by McNemar's test; choose another --fold?)\n"
    rc, out, err = run_cli(["test", run, "--classic", "--fold", "5-0"], capsys)
    assert rc == 2 and err == "textbcv: error: --fold 5-0: this run has m = 5 splits (0..4)\n"
    shutil.rmtree(run / "predictions")
    rc, out, err = run_cli(["test", run, "--classic", "--fold", "1-0"], capsys)
    assert rc == 2
    assert "McNemar's test needs the predictions of a run saved with `textbcv compare --save-predictions`" in err
    rc, out, err = run_cli(["test", run, "--classic", "--json"], capsys)
    assert rc == 0 and json.loads(out)["classic"]["not_applicable"] == [
        {"test": "Friedman + Nemenyi critical difference", "reason": "needs 3 or more systems; this input has 2"},
        {"test": "McNemar",
         "reason": "needs a run directory with saved predictions (textbcv compare --save-predictions)"}]


# ----------------------------------------------------------------------------- COUNTS.json inputs

A = [{"tp": 90, "fp": 10, "fn": 12}, {"tp": 88, "fp": 11, "fn": 13}, {"tp": 91, "fp": 9, "fn": 12},
     {"tp": 89, "fp": 10, "fn": 14}, {"tp": 90, "fp": 12, "fn": 11}, {"tp": 92, "fp": 10, "fn": 10}]
B = [{"tp": 93, "fp": 9, "fn": 9}, {"tp": 91, "fp": 10, "fn": 10}, {"tp": 92, "fp": 9, "fn": 11},
     {"tp": 90, "fp": 10, "fn": 13}, {"tp": 93, "fp": 10, "fn": 8}, {"tp": 94, "fp": 8, "fn": 8}]
C = [{"tp": 91, "fp": 12, "fn": 11}, {"tp": 87, "fp": 9, "fn": 14}, {"tp": 93, "fp": 11, "fn": 10},
     {"tp": 88, "fp": 13, "fn": 15}, {"tp": 92, "fp": 10, "fn": 9}, {"tp": 90, "fp": 9, "fn": 12}]


def write(tmp_path, obj, name="counts.json"):
    p = tmp_path / name
    p.write_text(json.dumps(obj, indent=1))
    return p


def f1(folds):
    return np.array([2 * f["tp"] / (2 * f["tp"] + f["fp"] + f["fn"]) for f in folds])


def test_friedman_and_cd_diagram_for_three_systems(tmp_path, capsys):
    p = write(tmp_path, {"m": 3, "systems": {"A": A, "B": B, "C": C}})
    rc, out, err = run_cli(["test", p, "--classic", "--json", "--plots", tmp_path / "plots"], capsys)
    assert rc == 0, err
    fr = json.loads(out)["classic"]["friedman"]
    x = np.column_stack([f1(A), f1(B), f1(C)])
    sc = stats.friedmanchisquare(*x.T)
    assert fr["chi2"]["statistic"] == pytest.approx(sc.statistic, rel=1e-12)
    assert fr["chi2"]["p_value"] == pytest.approx(sc.pvalue, rel=1e-12)
    ranks = np.array([stats.rankdata(-row) for row in x]).mean(axis=0)
    assert fr["average_ranks"] == pytest.approx(ranks.tolist())
    # Demšar: q_0.05 = 2.343, k = 3
    assert fr["nemenyi_cd"] == pytest.approx(2.343 * math.sqrt(3 * 4 / (6 * 6)), abs=1e-3)
    assert len(json.loads(out)["classic"]["pairs"]) == 3
    assert sorted(x.name for x in (tmp_path / "plots").iterdir()) == \
        ["cd_diagram.png", "f1_difference.png", "fold_f1.png", "pairwise.png", "posteriors.png", "textbcv-run.json"]
    rc, text, _ = run_cli(["test", p, "--classic"], capsys)
    assert "Nemenyi critical difference (α = 0.05)" in text and "blocked 3×2 t (Wang et al. 2014)" in text


def test_identical_systems_are_undefined_not_significant(tmp_path, capsys):
    p = write(tmp_path, {"m": 5, "systems": {"A": A + A[:4], "B": A + A[:4]}})
    rc, out, err = run_cli(["test", p, "--classic", "--json"], capsys)
    assert rc == 0
    for t in json.loads(out)["classic"]["pairs"][0]["tests"]:
        assert t["statistic"] is None and t["p_value"] is None and t["undefined"].startswith("identical systems")
    rc, text, _ = run_cli(["test", p, "--classic"], capsys)
    assert "undefined: identical systems: every per-fold difference is 0" in text


def test_different_gold_is_refused_naming_the_fold(tmp_path, capsys):
    bad = [dict(f) for f in B]
    bad[3] = {"tp": 50, "fp": 10, "fn": 5}  # 55 gold chunks against A's 103
    p = write(tmp_path, {"m": 3, "systems": {"A": A, "B": bad}})
    rc, out, err = run_cli(["test", p], capsys)
    assert rc == 2 and out == ""
    line = [x.strip() for x in p.read_text().splitlines()].index('"tp": 50,')  # 1-based: the line of its "{"
    assert err == (f"textbcv: error: {p}:{line}: split 1 direction 1: systems 'A' and 'B' were scored on different "
                   "gold: 103 against 55 gold chunks (TP + FN); add --allow-different-gold to test them anyway\n")
    rc, out, err = run_cli(["test", p, "--allow-different-gold"], capsys)
    assert rc == 0 and err == ""
    assert ("note: the systems were scored on different gold in 1 comparison(s) of a fold (first: split 1 direction 1, "
            "'A' 103 against 'B' 55 gold chunks); tested anyway (--allow-different-gold)") in out
    # folds.jsonl: the line of the second system's record
    lines = [json.dumps({"system": s, "split": i // 2, "direction": i % 2, "counts": {"overall": f, "types": {"X": f}}})
             for s, fs in (("A", A), ("B", bad)) for i, f in enumerate(fs)]
    pl = tmp_path / "folds.jsonl"
    pl.write_text("\n".join(lines) + "\n")
    rc, out, err = run_cli(["test", pl], capsys)
    assert rc == 2 and err.startswith(f"textbcv: error: {pl}:10: split 1 direction 1: systems 'A' and 'B'")


def test_per_type_gold_is_checked_too(tmp_path, capsys):
    lines = []
    for s in ("A", "B"):
        for i, f in enumerate(A):
            types = {"X": f, "Y": {"tp": 0, "fp": 0, "fn": 0}} if s == "A" else {"X": {**f, "fn": f["fn"] - 1},
                                                                               "Y": {"tp": 0, "fp": 0, "fn": 1}}
            lines.append(json.dumps({"system": s, "split": i // 2, "direction": i % 2,
                                     "counts": {"overall": f, "types": types}}))
    pl = tmp_path / "folds.jsonl"
    pl.write_text("\n".join(lines) + "\n")
    rc, out, err = run_cli(["test", pl], capsys)
    assert rc == 0  # overall gold agrees
    rc, out, err = run_cli(["test", pl, "--per-type"], capsys)
    assert rc == 2
    assert (f"{pl}:7: split 0 direction 0: systems 'A' and 'B' were scored on different gold: 102 against 101 gold "
            "chunks of type X") in err


@pytest.mark.parametrize("argv,message", [
    (["--type", "nosuch"], "{pl}: --type nosuch: no chunk of type 'nosuch' in any fold (types: X)"),
    (["--fold", "0-0"], "--fold chooses what McNemar's test judges: it needs --classic"),
    (["--decisions", "token"], "--decisions chooses what McNemar's test judges: it needs --classic"),
    (["--classic", "--fold", "0-2"], "--fold must be SPLIT-DIRECTION, e.g. 0-1 (direction 0 or 1), got '0-2'"),
    (["--classic", "--fold", "0-0"], "{d}: --fold: McNemar's test needs the predictions of a run saved with"),
    (["--variant", "rho", "--rho1", "0.2", "--rho2", "1.5"], "--rho2 must lie in [0, 1], got 1.5"),
    (["--plots", "{pl}"], "{pl}: "),
])
def test_misuse_is_one_line_exit_2(tmp_path, capsys, argv, message):
    lines = [json.dumps({"system": s, "split": i // 2, "direction": i % 2, "counts": {"overall": f, "types": {"X": f}}})
             for s in ("A", "B") for i, f in enumerate(A)]
    pl = tmp_path / "folds.jsonl"
    pl.write_text("\n".join(lines) + "\n")
    argv = [a.format(pl=pl, d=tmp_path) for a in argv]
    rc, out, err = run_cli(["test", pl, *argv], capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("textbcv: error: " + message.format(pl=pl, d=tmp_path)), err


def test_per_type_needs_folds_jsonl(tmp_path, capsys):
    p = write(tmp_path, {"m": 3, "systems": {"A": A, "B": B}})
    rc, out, err = run_cli(["test", p, "--per-type"], capsys)
    assert rc == 2
    assert err == (f"textbcv: error: {p}: --per-type applies to a folds.jsonl only "
                   "(COUNTS.json has no per-type counts)\n")
    rc, out, err = run_cli(["test", tmp_path], capsys)
    assert rc == 2
    assert err == f"textbcv: error: {tmp_path}: no folds.jsonl here: not a `textbcv compare` run directory\n"


def test_variant_lists_every_variant(capsys):
    from textbcv.stats.compare import ALL_VARIANTS

    for command in ("test", "compare"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
        flat = " ".join(text.split())
        assert all(f"{v} (" in flat for v in ALL_VARIANTS), flat
        assert "--rho1" in text and "--rho2" in text
