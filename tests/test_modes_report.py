"""Reports in a matching mode: ``compare --mode M`` and ``report RUN --mode M`` (a redraw of a strict run, nothing
trained) give the same report; strict redrawn is the run's own; what cannot be honoured is refused in one line."""

from __future__ import annotations

import json
import shutil

import pytest

from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora

FAST = ["--task", "ner", "--systems", "iob2,iobes", "--m", "2", "--max-iterations", "5", "--quiet", "--no-plots"]


def _same(a: dict, b: dict) -> None:
    a, b = dict(a), dict(b)
    for d in (a, b):
        d.pop("run", None)
    assert a == b


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("modes")
    corpus = d / "ner.conll"
    write_conll(read_corpus(bundled_corpora()["ner"])[:600], corpus)
    assert main(["compare", str(corpus), *FAST, "--out", str(d / "strict")]) == 0
    assert main(["compare", str(corpus), *FAST, "--mode", "partial", "--out", str(d / "partial")]) == 0
    return d, corpus


def test_report_mode_redraws_what_compare_mode_reports(runs, capsys):
    d, _ = runs
    assert main(["report", str(d / "strict"), "--mode", "partial", "--no-plots"]) == 0
    assert "matching mode partial is in" in capsys.readouterr().err
    redrawn = json.loads((d / "strict" / "what-if-mode-partial" / "report.json").read_text(encoding="utf-8"))
    direct = json.loads((d / "partial" / "report.json").read_text(encoding="utf-8"))
    _same(redrawn, direct)
    assert direct["meta"]["options"]["mode"] == "partial"
    assert "--mode partial" in (d / "partial" / "report.md").read_text(encoding="utf-8")
    # half credits: partial F1 is above strict's, and no fewer chunks are right
    strict = json.loads((d / "strict" / "report.json").read_text(encoding="utf-8"))
    for n in ("iob2", "iobes"):
        assert direct["systems"][n]["f1"]["mean"] >= strict["systems"][n]["f1"]["mean"]
    # the run's own report is untouched; strict redrawn is the run's own report
    assert main(["report", str(d / "strict"), "--mode", "strict", "--no-plots"]) == 0
    again = json.loads((d / "strict" / "what-if-mode-strict" / "report.json").read_text(encoding="utf-8"))
    _same(again, strict)


@pytest.mark.parametrize("mode", ["exact", "type"])
def test_every_mode_redraws(runs, mode):
    d, _ = runs
    assert main(["report", str(d / "strict"), "--mode", mode, "--no-plots"]) == 0
    r = json.loads((d / "strict" / f"what-if-mode-{mode}" / "report.json").read_text(encoding="utf-8"))
    assert r["meta"]["options"]["mode"] == mode and r["per_type"] == {n: {} for n in ("iob2", "iobes")}


def test_a_moved_corpus_is_named_or_given(runs, tmp_path, capsys):
    d, corpus = runs
    run = tmp_path / "run"
    shutil.copytree(d / "strict", run, ignore=shutil.ignore_patterns("what-if-*"))
    moved = tmp_path / "moved.conll"
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    report["meta"]["corpus"]["files"][0]["path"] = str(tmp_path / "gone.conll")
    (run / "report.json").write_text(json.dumps(report), encoding="utf-8")
    capsys.readouterr()
    assert main(["report", str(run), "--mode", "exact", "--no-plots"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "give it with --corpus FILE" in err
    shutil.copy(corpus, moved)
    assert main(["report", str(run), "--mode", "exact", "--no-plots", "--corpus", str(moved)]) == 0
    other = tmp_path / "other.conll"
    write_conll(read_corpus(bundled_corpora()["ner"])[1:601], other)
    assert main(["report", str(run), "--mode", "type", "--no-plots", "--corpus", str(other)]) == 2


def test_refusals_before_any_work(runs, tmp_path, capsys):
    d, corpus = runs
    assert main(["compare", str(corpus), *FAST, "--mode", "partial", "--variant", "thesis",
                 "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--mode partial" in err and "--variant clustered" in err
    assert not (tmp_path / "x").exists()
    assert main(["report", str(d / "strict"), "--corpus", str(corpus)]) == 2
    assert "--corpus applies with --mode" in capsys.readouterr().err


def test_doubled_counts_leave_the_clustered_answer_as_it_is(runs):
    """Partial mode counts half credits as whole units of doubled counts; the claim that this changes nothing
    but the units: the same strict folds with every count doubled give the same paired differences and P(B better),
    and per-system intervals that move only by the prior's weight (one pseudo-count against doubled counts: here
    under 1% of the interval's bounds, on a small, poorly trained run where the prior weighs most)."""
    import copy

    from textbcv.comparison.design_effects import fold_clusters
    from textbcv.comparison.from_folds import folds_of_store, report_from_folds
    from textbcv.comparison.options import CompareOptions
    from textbcv.corpus.transform import prepare_corpus
    from textbcv.folds.store import FoldStore
    from textbcv.split import load_splits

    d, corpus = runs
    store = FoldStore(d / "strict" / "folds.jsonl")
    clusters = fold_clusters(load_splits(d / "strict" / "splits.json"), prepare_corpus(read_corpus(corpus), "ner"))
    doubled = FoldStore.__new__(FoldStore)
    doubled.path, doubled.records = store.path, {}
    for key, rec in store.records.items():
        rec = copy.deepcopy(rec)
        rec["counts"]["overall"] = {k: 2 * v for k, v in rec["counts"]["overall"].items()}
        rec["sentence_counts"] = [[2 * v for v in row] for row in rec["sentence_counts"]]
        doubled.records[key] = rec
    options = CompareOptions(systems=("iob2", "iobes"), m=2)
    a, b = (report_from_folds(folds_of_store(s, ["iob2", "iobes"], 2, clusters=clusters), options.answer()).answer
            .to_dict() for s in (store, doubled))
    for n in ("iob2", "iobes"):
        assert b["systems"][n]["f1"]["ci"] == pytest.approx(a["systems"][n]["f1"]["ci"], rel=0.01)
    for ca, cb in zip(a["comparisons"], b["comparisons"]):
        assert cb["p_b_better"] == pytest.approx(ca["p_b_better"], abs=1e-9)
        assert cb["difference"]["ci"] == pytest.approx(ca["difference"]["ci"], abs=1e-12)


def test_test_mode_reads_the_folds_records(runs, tmp_path, capsys):
    d, _ = runs
    capsys.readouterr()
    assert main(["test", str(d / "strict"), "--mode", "partial", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    want = json.loads((d / "partial" / "report.json").read_text(encoding="utf-8"))
    # the same counts; the paired posteriors here take sentences as clusters (documents are not in the folds)
    for n in ("iob2", "iobes"):
        assert got["systems"][n]["f1"]["estimate"] == pytest.approx(want["systems"][n]["f1"]["estimate"])
    for a, b in zip(got["comparisons"], want["comparisons"]):
        assert a["difference"]["estimate"] == pytest.approx(b["difference"]["estimate"])
    assert main(["test", str(d / "strict"), "--mode", "exact", "--per-type"]) == 2
    assert "strict only" in capsys.readouterr().err
    counts = tmp_path / "c.json"
    counts.write_text(json.dumps({"m": 1, "systems": {"A": [{"tp": 1, "fp": 0, "fn": 0}] * 2,
                                                      "B": [{"tp": 1, "fp": 1, "fn": 0}] * 2}}), encoding="utf-8")
    assert main(["test", str(counts), "--mode", "type"]) == 2
    assert "needs a run's folds.jsonl" in capsys.readouterr().err


def test_a_mode_view_is_taken_once(runs):
    """``FoldStore.in_mode`` gives a view of the stored folds; asked again for its own mode it is itself (the report
    takes the view once and hands it on), and a view is never re-scored in another mode (that would count the first
    mode's credits as if they were strict counts)."""
    from textbcv.folds.store import FoldStore

    d, _ = runs
    store = FoldStore(d / "strict" / "folds.jsonl")
    assert store.in_mode("strict") is store and store.mode == "strict"
    partial = store.in_mode("partial")
    assert partial.mode == "partial" and partial.in_mode("partial") is partial
    assert partial.records != store.records
    with pytest.raises(ValueError, match="view in mode 'partial'"):
        partial.in_mode("exact")
