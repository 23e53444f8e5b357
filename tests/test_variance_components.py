"""scripts/variance_components.py: smoke run, resumption, external fold scores, and an independent check.

The independent check re-simulates Gaussian naive Bayes under blocked 3×2 CV
with nothing from textbcv or scikit-learn: its own data draws, its own
block design (4 random blocks, the 3 columns of a 4×4 Hadamard matrix), its
own naive Bayes and its own covariance arithmetic; its ρ1 and ρ2 must fall
in the intervals of the script's committed rows for the same design.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import script

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"


def load():
    return script("variance_components")


# --------------------------------------------------------------------------- independent naive Bayes simulation

H4 = np.array([[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]])


def independent_nb_fold_f1(n: int, R: int, seed: int, chunk: int = 1000) -> np.ndarray:
    """R × 3 × 2 fold F1 of class 1 for Gaussian naive Bayes on the seed's design, fully vectorised."""
    rng = np.random.default_rng(seed)
    out = []
    for c0 in range(0, R, chunk):
        c = min(chunk, R - c0)
        y = (rng.random((c, n)) < 0.5).astype(float)
        X = rng.standard_normal((c, n, 30))
        X = np.where(y[..., None] == 1, 1 + np.sqrt(2) * X, X)
        # 4 blocks of n/4 units at random; split j trains on the blocks where column j+1 of H4 is +1
        block = np.argsort(rng.random((c, n)), axis=1).argsort(axis=1) % 4
        X2 = X ** 2
        f1 = np.empty((c, 3, 2))
        for j in range(3):
            plus = H4[block, j + 1] == 1
            for k, train in enumerate((plus, ~plus)):
                tr, te = train.astype(float), (~train).astype(float)
                # epsilon of the variances: 1e-9 × the largest feature variance of the training half
                wn = tr.sum(1)
                mu_all = np.einsum("cn,cnp->cp", tr, X) / wn[:, None]
                var_all = np.einsum("cn,cnp->cp", tr, X2) / wn[:, None] - mu_all ** 2
                eps = 1e-9 * var_all.max(axis=1)
                ll = []
                for cls in (0, 1):
                    w = tr * (y == cls)
                    cnt = w.sum(1)
                    mu = np.einsum("cn,cnp->cp", w, X) / cnt[:, None]
                    var = np.einsum("cn,cnp->cp", w, X2) / cnt[:, None] - mu ** 2 + eps[:, None]
                    # Σ_p (x − μ)²/var = Σ x²/var − 2 Σ x μ/var + Σ μ²/var
                    quad = (np.einsum("cnp,cp->cn", X2, 1 / var) - 2 * np.einsum("cnp,cp->cn", X, mu / var)
                            + (mu ** 2 / var).sum(1)[:, None])
                    ll.append((np.log(cnt / wn) - 0.5 * np.log(2 * np.pi * var).sum(1))[:, None] - 0.5 * quad)
                pred = (ll[1] > ll[0]).astype(float)
                tp = (te * pred * y).sum(1)
                fp = (te * pred * (1 - y)).sum(1)
                fn = (te * (1 - pred) * y).sum(1)
                f1[:, j, k] = 2 * tp / (2 * tp + fp + fn)
        out.append(f1)
    return np.concatenate(out)


def rho_by_hand(f1: np.ndarray) -> tuple[float, float]:
    cov = np.cov(f1.reshape(len(f1), -1), rowvar=False)
    s2 = np.mean(np.diag(cov))
    within = np.mean([cov[0, 1], cov[2, 3], cov[4, 5]])
    across = np.mean([cov[a, b] for a in range(6) for b in range(6) if a // 2 != b // 2])
    return within / s2, across / s2


def test_independent_naive_bayes_agrees_with_the_script_rows():
    rows = json.loads((ROOT / "docs" / "variance_components.json").read_text())["rows"]
    by = {(r["classifier"], r["n"], r["m"]): r for r in rows if r.get("source") == "simulation"}
    checked = 0
    for n in (40, 80):
        row = by.get(("naive_bayes", n, 3))
        assert row is not None, f"docs/variance_components.json has no naive Bayes row for n = {n}, m = 3"
        rho1, rho2 = rho_by_hand(independent_nb_fold_f1(n, R=8000, seed=2016 + n))
        assert row["rho1"]["low"] <= rho1 <= row["rho1"]["high"], (n, rho1, row["rho1"])
        assert row["rho2"]["low"] <= rho2 <= row["rho2"]["high"], (n, rho2, row["rho2"])
        checked += 1
    assert checked == 2


def test_independent_nb_matches_sklearn_on_one_fold():
    """The hand-written naive Bayes is scikit-learn's GaussianNB (same predictions on a data set)."""
    from sklearn.naive_bayes import GaussianNB

    vc = load()
    X, y = vc.draw_data(80, 7)
    s = vc.bcv_splits(80, 7, 3)
    train, test = s.splits[0]
    pred = GaussianNB().fit(X[train], y[train]).predict(X[test])
    tp, fp, fn = vc.fold_counts("naive_bayes", X, y, train, test)
    assert (tp, fp, fn) == (int(((pred == 1) & (y[test] == 1)).sum()), int(((pred == 1) & (y[test] == 0)).sum()),
                            int(((pred == 0) & (y[test] == 1)).sum()))
    # the independent simulation's F1 lies in [0, 1] and varies
    f1 = independent_nb_fold_f1(40, R=50, seed=1)
    assert f1.shape == (50, 3, 2) and 0 < f1.min() and f1.max() <= 1 and f1.std() > 0


# --------------------------------------------------------------------------- the script


def test_splits_nested_and_units_deterministic():
    vc = load()
    for n in (40, 200, 2000):
        for r in (0, 5):
            vc.check_nesting(n, r)  # raises SystemExit if m = 3, 5 are not the head of m = 7
    a, b = vc.run_unit(40, 3), vc.run_unit(40, 3)
    assert a == b and len(a["counts"]["svm"]) == 7 * 2 * 3
    X, y = vc.draw_data(40, 3)
    # every fold's TP + FN is the number of class-1 units in its test half
    s = vc.bcv_splits(40, 3)
    for i, (_, _, train, test) in enumerate(s.folds()):
        tp, fp, fn = a["counts"]["naive_bayes"][3 * i: 3 * i + 3]
        assert tp + fn == int(y[test].sum()) and tp + fp <= len(test)
    f1 = vc.f1_from_counts(a["counts"]["naive_bayes"])
    c = np.array(a["counts"]["naive_bayes"]).reshape(7, 2, 3)
    assert f1[2, 1] == pytest.approx(2 * c[2, 1, 0] / (2 * c[2, 1, 0] + c[2, 1, 1] + c[2, 1, 2]))


def test_smoke_resume_and_external(tmp_path):
    vc = load()
    work, out_json, md = tmp_path / "units", tmp_path / "vc.json", tmp_path / "R.md"
    argv = ["--smoke", "--reps", "8", "--work", str(work), "--json", str(out_json), "--results", str(md),
            "--plot-dir", str(tmp_path)]
    assert vc.main(argv) == 0
    res = json.loads(out_json.read_text())
    rows = res["rows"]
    assert len(rows) == 2 * 4 * 3 and {r["n"] for r in rows} == {40, 80} and {r["m"] for r in rows} == {3, 5, 7}
    for r in rows:
        assert r["R"] == 8 and r["classifier"] in vc.CLASSIFIERS
        for q in ("sigma2", "omega", "gamma", "rho1", "rho2", "var_mx2", "lambda_independent", "lambda_pairs",
                  "lambda_5x2cv", "lambda_corrected"):
            assert set(r[q]) == {"value", "low", "high"}
        assert r["var_mx2"]["value"] == pytest.approx(
            (r["sigma2"]["value"] + r["omega"]["value"] + (2 * r["m"] - 2) * r["gamma"]["value"]) / (2 * r["m"]))
    # a row is the estimator applied to the stored units (first m splits of each data set)
    units = vc.load_units(work / "n0080.jsonl")
    assert sorted(units) == list(range(8))
    f1 = np.stack([vc.f1_from_counts(units[r]["counts"]["svm"]) for r in range(8)])
    row = next(r for r in rows if (r["classifier"], r["n"], r["m"]) == ("svm", 80, 5))
    means = f1[:, :5].reshape(8, -1).mean(axis=1)
    assert row["var_mx2"]["value"] == pytest.approx(np.var(means, ddof=1))
    assert row["mean"]["value"] == pytest.approx(means.mean())
    text = md.read_text()
    assert "<!-- BEGIN variance_components -->" in text and "**Smoke run**" in text
    for name in res["meta"]["plots"]:
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(res["meta"]["plots"]) == 4 and res["findings"]
    # resume: nothing is re-run; a torn last line (killed mid-write) is dropped and that data set re-run
    argv += ["--no-plots"]
    before = (work / "n0040.jsonl").read_text()
    assert vc.main(argv) == 0
    assert (work / "n0040.jsonl").read_text() == before
    lines = before.splitlines()
    (work / "n0040.jsonl").write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:40])
    assert vc.main(argv) == 0
    assert (work / "n0040.jsonl").read_text() == before
    assert json.loads((work / "meta.json").read_text())["invocations"] == 3
    # external fold scores: the same data sets as rows per fold give the same figures
    ext = tmp_path / "rows.jsonl"
    units40 = vc.load_units(work / "n0040.jsonl")
    with open(ext, "w") as f:
        for r, u in units40.items():
            c = np.array(u["counts"]["naive_bayes"]).reshape(7, 2, 3)
            for j in range(7):
                for k in (0, 1):
                    f.write(json.dumps({"run": r, "split": j, "fold": k, "tp": int(c[j, k, 0]), "fp": int(c[j, k, 1]),
                                        "fn": int(c[j, k, 2]), "pool": "sim"}) + "\n")
    assert vc.main(argv + ["--external", str(ext), "--where", "pool=sim", "--label", "pool=sim-nb-40"]) == 0
    res2 = json.loads(out_json.read_text())
    ext_rows = [r for r in res2["rows"] if r["source"] == "external:rows.jsonl"]
    assert [r["m"] for r in ext_rows] == [3, 5, 7] and ext_rows[0]["pool"] == "sim-nb-40"
    sim = next(r for r in res2["rows"] if (r.get("classifier"), r.get("n"), r["m"]) == ("naive_bayes", 40, 3))
    for q in ("sigma2", "omega", "gamma", "rho1", "rho2", "var_mx2"):
        assert ext_rows[0][q]["value"] == pytest.approx(sim[q]["value"])
    assert "Fold scores from other sources" in md.read_text()
    # a re-summary keeps the external rows
    assert vc.main(argv + ["--summarize-only"]) == 0
    assert sum(r["source"] != "simulation" for r in json.loads(out_json.read_text())["rows"]) == 3


def test_fold_scores_from_rows_and_stores(tmp_path):
    vc = load()
    rows = [{"run": r, "split": j, "fold": k, "f1": r + j / 10 + k / 100}
            for r in range(4) for j in range(3) for k in (0, 1)]
    x = vc.fold_scores_from_rows(rows)
    assert x.shape == (4, 3, 2) and x[3, 2, 1] == pytest.approx(3.21)
    assert vc.fold_scores_from_rows(rows[:-1]).shape == (4, 2, 2)  # run 3 lacks a fold of split 2
    with pytest.raises(ValueError, match="twice"):
        vc.fold_scores_from_rows(rows + rows[:1])
    with pytest.raises(ValueError, match="no rows"):
        vc.fold_scores_from_rows(rows, where={"pool": "x"})
    from textbcv.tagging import FoldStore

    paths = []
    for r in range(3):
        st = FoldStore(tmp_path / f"r{r:03d}.jsonl")
        for name, tp in (("A", 50), ("B", 60)):
            for j in range(3):
                for k in (0, 1):
                    st.append({"system": name, "split": j, "direction": k,
                               "counts": {"overall": {"tp": tp + r + j, "fp": 10 + k, "fn": 10}},
                               "run": {"seconds": 0}})
        paths.append(st.path)
    b = vc.fold_scores_from_stores(paths, "B")
    d = vc.fold_scores_from_stores(paths, "B", minus="A")
    assert b.shape == (3, 3, 2)
    assert b[1, 2, 0] == pytest.approx(2 * 63 / (2 * 63 + 20))
    a = vc.fold_scores_from_stores(paths, "A")
    assert np.allclose(d, b - a)


def test_real_text_scores_read_the_study_units(tmp_path):
    """Fold F1 of the real-text study's committed pieces, merged across lines, in split-major order."""
    vc = load()
    rng = np.random.default_rng(5)

    def piece():
        return {"counts": {s: rng.integers(1, 50, size=(14, 3)).tolist() for s in ("A", "B")}}

    lines = [{"pool": "msr", "r": r, "digest": str(r), "pieces": {"bcv/sentence": piece(), "label/sentence": piece()}}
             for r in range(3)]
    lines.append({"pool": "msr", "r": 3, "digest": "3", "pieces": {"label/sentence": piece()}})
    lines.append({"pool": "msr", "r": 3, "digest": "3", "pieces": {"bcv/sentence": piece()}})  # a later run's piece
    (tmp_path / "msr.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    # other studies' units in the same folder, in other layouts, are not read
    (tmp_path / "decomposition-msr.jsonl").write_text(json.dumps({"pool": "msr", "r": 0, "folds": []}) + "\n")
    (tmp_path / "pairs-msr.jsonl").write_text(json.dumps({"pool": "msr", "r": 0, "pieces": {"folds": {}}}) + "\n")
    got = {(lab["design"], lab["score"]): (lab, x) for lab, x in vc.real_text_scores(tmp_path)}
    assert set(got) == {("bcv", s) for s in ("A", "B", "B − A")}  # balanced designs are not BCV-as-designed
    lab, a = got[("bcv", "A")]
    assert lab["runs"] == [0, 1, 2, 3] and a.shape == (4, 7, 2)
    c = np.array(lines[4]["pieces"]["bcv/sentence"]["counts"]["A"][5])  # run 3, split 2, fold 1
    assert a[3, 2, 1] == pytest.approx(2 * c[0] / (2 * c[0] + c[1] + c[2]))
    b = got[("bcv", "B")][1]
    assert np.allclose(got[("bcv", "B − A")][1], b - a)


def test_real_text_components_on_the_committed_study():
    """--real-text rows exist for every pool with at least 3 committed data sets, with the pool overlap."""
    vc = load()
    res = json.loads((ROOT / "docs" / "variance_components.json").read_text())
    real = [r for r in res["rows"] if r.get("source") == "real_text"]
    if not real:
        pytest.skip("no real-text rows committed yet")
    for r in real:
        assert r["design"] in ("bcv", "random") and r["score"] in ("A", "B", "B − A") and r["m"] in (3, 7)
        assert r["R"] >= 3 and 0 < r["overlap"]["mean_shared_share"] < 1
        for q in ("sigma2", "omega", "gamma", "rho1", "rho2", "var_mx2"):
            assert set(r[q]) == {"value", "low", "high"}
    # every row is the estimator applied to the committed fold scores
    x = {(lab["pool"], lab["unit"], lab["design"], lab["score"]): v
         for lab, v in vc.real_text_scores(ROOT / "docs" / "real_text_study")}
    r = real[0]
    f = x[(r["pool"], r["unit"], r["design"], r["score"])][: r["R"], : r["m"]]
    means = f.reshape(r["R"], -1).mean(axis=1)
    assert r["var_mx2"]["value"] == pytest.approx(np.var(means, ddof=1))
