"""``textbcv components``: ρ1 and ρ2 of a user's own runs on independently drawn data sets."""

from __future__ import annotations

import json

import numpy as np
import pytest

from textbcv.cli import main
from textbcv.comparison.components import run_components
from textbcv.stats.components import variance_components

BUNDLED_NER = __import__("pathlib").Path(__file__).resolve().parents[1] / "corpora" / "ner_en.conll"


def _write_run(d, counts: dict[str, np.ndarray]) -> None:
    """A run directory holding only a folds.jsonl: counts[system] is (m, 2, 3) TP, FP, FN."""
    d.mkdir(parents=True)
    with open(d / "folds.jsonl", "w", encoding="utf-8") as f:
        for system, c in counts.items():
            for j in range(c.shape[0]):
                for k in range(2):
                    tp, fp, fn = (int(x) for x in c[j, k])
                    f.write(json.dumps({"system": system, "split": j, "direction": k,
                                        "counts": {"overall": {"tp": tp, "fp": fp, "fn": fn},
                                                   "types": {"X": {"tp": tp, "fp": fp, "fn": fn}}}}) + "\n")


def _runs(tmp_path, R=6, m=3, seed=0):
    rng = np.random.default_rng(seed)
    runs, counts = [], []
    for r in range(R):
        c = {s: rng.integers(50, 400, size=(m, 2, 3)) for s in ("A", "B")}
        _write_run(tmp_path / f"run{r}", c)
        runs.append(tmp_path / f"run{r}")
        counts.append(c)
    return runs, counts


def _f1(c: np.ndarray) -> np.ndarray:
    tp, fp, fn = c[..., 0], c[..., 1], c[..., 2]
    return 2 * tp / (2 * tp + fp + fn)


def test_components_equal_the_estimator_on_hand_computed_fold_scores(tmp_path):
    runs, counts = _runs(tmp_path)
    res = run_components(runs, "B", n_resamples=300)
    ref = variance_components(np.stack([_f1(c["B"]) for c in counts]), n_resamples=300)
    assert res.components.to_dict() == ref.to_dict()
    assert res.score == "f1(B)" and res.shared_share is None  # no splits.json: no overlap known
    diff = run_components(runs, "B", minus="A", metric="recall", n_resamples=300)
    rec = [c["B"][..., 0] / (c["B"][..., 0] + c["B"][..., 2]) - c["A"][..., 0] / (c["A"][..., 0] + c["A"][..., 2])
           for c in counts]
    assert diff.components.to_dict() == variance_components(np.stack(rec), n_resamples=300).to_dict()
    assert diff.score == "recall(B) − recall(A)"
    r1, r2 = res.rho_options()
    assert 0 <= r1 <= 1 and 0 <= r2 <= 1 and r1 == min(1, max(0, res.components.rho1.value))


def test_components_cli_prints_the_options_for_test(tmp_path, capsys):
    runs, _ = _runs(tmp_path)
    assert main(["components", *map(str, runs), "--system", "B", "--resamples", "300"]) == 0
    out = capsys.readouterr().out
    res = run_components(runs, "B", n_resamples=300)
    r1, r2 = res.rho_options()
    assert f"--variant rho --rho1 {r1:.3f} --rho2 {r2:.3f}" in out
    assert "R = 6 runs (m = 3;" in out and "ρ2 = γ/σ²" in out
    assert main(["components", *map(str, runs), "--system", "B", "--resamples", "300", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["rho_options"] == {"rho1": r1, "rho2": r2} and d["R"] == 6 and set(d["rho1"]) == {"value", "low", "high"}


@pytest.mark.parametrize("case, message", [
    ("two", "need at least 3 runs"),
    ("system", "no system 'C' in this run"),
    ("m", "m = 5 but this run has 3 splits"),
    ("twice", "the same run is given twice"),
    ("empty", "no folds.jsonl here"),
])
def test_components_refusals(tmp_path, capsys, case, message):
    runs, _ = _runs(tmp_path, R=3)
    args = [*map(str, runs), "--system", "B"]
    if case == "two":
        args = [*map(str, runs[:2]), "--system", "B"]
    elif case == "system":
        args[-1] = "C"
    elif case == "m":
        args += ["--m", "5"]
    elif case == "twice":
        args = [str(runs[0]), *map(str, runs), "--system", "B"]
    elif case == "empty":
        (tmp_path / "nothing").mkdir()
        args = [str(tmp_path / "nothing"), *args]
    assert main(["components", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("textbcv: error: ") and message in err and "Traceback" not in err


def test_components_refuses_runs_on_one_corpus(tmp_path, capsys):
    # other seeds on the same corpus measure split noise, not the variance across data sets
    from textbcv.corpus import read_conll
    from textbcv.split import make_splits

    corpus = read_conll(BUNDLED_NER)[:300]
    runs, _ = _runs(tmp_path, R=3)
    for seed, run in enumerate(runs):
        make_splits(corpus, m=3, seed=seed).save(run / "splits.json")
    assert main(["components", *map(str, runs), "--system", "B"]) == 2
    assert "split the same corpus" in capsys.readouterr().err
    # disjoint corpora are accepted, and their overlap (none here) is reported
    for i, run in enumerate(runs):
        make_splits(read_conll(BUNDLED_NER)[300 * i: 300 * (i + 1)], m=3).save(run / "splits.json")
    res = run_components(runs, "B", n_resamples=200)
    assert res.shared_share is not None and res.shared_share < 0.05


@pytest.mark.slow
def test_components_of_real_runs_feed_test_variant_rho(tmp_path, capsys):
    """Three compare runs on disjoint document samples of the bundled corpus, then test --variant rho."""
    from textbcv.corpus import read_conll, write_conll

    corpus = read_conll(BUNDLED_NER)
    docs = corpus.documents
    runs = []
    for r in range(3):
        idx = sorted(i for d in range(r, len(docs), 3) for i in docs[d])
        write_conll(corpus.subset(idx), tmp_path / f"d{r}.conll")
        out = tmp_path / f"run{r}"
        assert main(["compare", str(tmp_path / f"d{r}.conll"), "--task", "ner", "--systems", "iob2,iobes", "--m", "3",
                     "--max-iterations", "5", "--quiet", "--out", str(out)]) == 0
        runs.append(out)
    capsys.readouterr()
    assert main(["components", *map(str, runs), "--system", "iob2", "--resamples", "300", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["R"] == 3 and d["m"] == 3 and 0 <= d["shared_share"] < 0.1
    rho1, rho2 = d["rho_options"]["rho1"], d["rho_options"]["rho2"]
    assert main(["test", str(runs[0]), "--variant", "rho", "--rho1", f"{rho1:.3f}", "--rho2", f"{rho2:.3f}",
                 "--json"]) == 0
    t = json.loads(capsys.readouterr().out)
    assert t["variant"] == "rho"
