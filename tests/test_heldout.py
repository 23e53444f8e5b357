"""compare --heldout: held-out counts exact, kept on resume, checked files, repeated sentences; evaluate --heldout."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from test_byo_evaluate import conlleval_chunks, fold_counts, read_blocks

import textbcv
from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.schemes import convert


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("heldout")
    c = read_corpus(bundled_corpora()["ner"])
    write_conll(c[:300], d / "corpus.conll")
    write_conll(list(c[300:380]) + list(c[5:12]), d / "h1.conll")  # 7 sentences repeated from the corpus
    write_conll(c[400:450], d / "h2.conll")
    return d


def compare_args(d: Path, out: Path, *extra):
    return ["compare", str(d / "corpus.conll"), "--task", "ner", "--systems", "iob2,iobes", "--m", "3",
            "--max-iterations", "5", "--quiet", "--no-plots", "--out", str(out),
            "--heldout", str(d / "h1.conll"), str(d / "h2.conll"), *extra]


@pytest.fixture(scope="module")
def run(files):
    out = files / "run"
    assert main(compare_args(files, out, "--save-predictions")) == 0
    return out


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "folds.jsonl").read_text().splitlines()]


def test_heldout_counts_equal_an_independent_count_of_the_saved_predictions(files, run):
    recs = records(run)
    assert len(recs) == 12
    for r in recs:
        assert set(r["heldout"]) == {str(files / "h1.conll"), str(files / "h2.conll")}
        for name, part in r["heldout"].items():
            stem = Path(name).stem
            saved = run / "predictions" / "heldout" / stem / f"{r['system']}-split{r['split']}-dir{r['direction']}.txt"
            blocks = read_blocks(saved)  # token gold pred, both in the corpus's scheme (IOB1)
            assert [[row[0] for row in s] for s in blocks] == [[row[0] for row in s] for s in read_blocks(Path(name))]
            gold = [[row[1] for row in s] for s in blocks]
            assert gold == [[row[-1] for row in s] for s in read_blocks(Path(name))]  # the file's own gold tags
            pred = [[row[2] for row in s] for s in blocks]
            assert part["counts"] == fold_counts(gold, pred, conlleval_chunks)
            per = np.array(part["sentences"])
            assert per.shape == (len(blocks), 3)
            assert per.sum(axis=0).tolist() == [part["counts"]["overall"][k] for k in ("tp", "fp", "fn")]


def test_report_heldout_section(files, run):
    report = json.loads((run / "report.json").read_text())
    h = report["heldout"]
    h1, h2 = str(files / "h1.conll"), str(files / "h2.conll")
    corpus_tokens = {s.tokens for s in read_corpus(files / "corpus.conll")}
    dup = [s.tokens in corpus_tokens for s in read_corpus(files / "h1.conll")]
    assert h["files"][h1]["duplicates"] == sum(dup) >= 7 and h["files"][h1]["sentences"] == 87
    assert h["files"][h2]["duplicates"] == sum(s.tokens in corpus_tokens for s in read_corpus(files / "h2.conll"))
    recs = records(run)
    for n in ("iob2", "iobes"):
        for f in (h1, h2):
            mine = [r["heldout"][f] for r in recs if r["system"] == n]
            tot = Counter()
            for p in mine:
                tot.update(p["counts"]["overall"])
            s = h["systems"][n][f]
            assert {k: s["pooled"][k] for k in ("tp", "fp", "fn")} == dict(tot)
            f1s = [2 * p["counts"]["overall"]["tp"] / (2 * p["counts"]["overall"]["tp"] + p["counts"]["overall"]["fp"]
                                                      + p["counts"]["overall"]["fn"]) for p in mine]
            assert s["models_f1"]["mean"] == pytest.approx(np.mean(f1s))
            assert s["models_f1"]["sd"] == pytest.approx(np.std(f1s, ddof=1))
            assert s["gap"] == pytest.approx(report["systems"][n]["f1"]["estimate"] - s["pooled"]["f1"])
            lo, hi = report["systems"][n]["f1"]["ci"]
            assert s["outside_interval"] == (not lo <= s["pooled"]["f1"] <= hi)
            # without the repeated sentences: the per-sentence counts of the others
            keep = ~np.array(dup if f == h1 else [False] * h["files"][f]["sentences"])
            per = sum(np.array(p["sentences"]) for p in mine)
            tp, fp, fn = per[keep].sum(axis=0)
            assert s["pooled_without_duplicates"]["f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn))
    for pair in h["pairs"]:
        assert pair["ci"][0] <= pair["ci"][1] and 0 <= pair["p_b_better"] <= 1
        assert pair["delta_f1"] == pytest.approx(h["systems"]["iobes"][pair["file"]]["pooled"]["f1"]
                                                 - h["systems"]["iob2"][pair["file"]]["pooled"]["f1"])
    md = (run / "report.md").read_text()
    assert "## Held-out test sets" in md and f"of the 87 sentences of `{h1}` also occur in the corpus" in md


def test_bootstrap_is_a_paired_resampling_of_sentences():
    from textbcv.comparison.heldout import heldout_gaps, heldout_section
    from textbcv.stats.answer import BayesAnswer

    rng = np.random.default_rng(5)
    n = 40
    recs = {}
    for name, bias in (("A", 0), ("B", 1)):
        for j in range(1):
            for k in (0, 1):
                sent = np.column_stack([rng.integers(0, 4, n) + bias, rng.integers(0, 2, n), rng.integers(0, 2, n)])
                recs[(name, j, k)] = {"heldout": {"f": {"sentences": sent.tolist()}}}
    answer = {"systems": {s: {"f1": {"estimate": 0.8, "ci": [0.7, 0.9]}} for s in ("A", "B")}}
    sec = heldout_gaps(heldout_section(recs, ["A", "B"], 1, {"f": {"sentences": n, "duplicate": []}}, seed=3,
                                       resamples=400), BayesAnswer.from_dict(answer))
    # the same computation written out: 400 resamples of sentence indices, counts of both systems summed alike
    pa = sum(np.array(recs[("A", 0, k)]["heldout"]["f"]["sentences"]) for k in (0, 1))
    pb = sum(np.array(recs[("B", 0, k)]["heldout"]["f"]["sentences"]) for k in (0, 1))

    def f1(c):
        return 2 * c[..., 0] / (2 * c[..., 0] + c[..., 1] + c[..., 2])

    g = np.random.default_rng([3, 0])
    w = np.concatenate([g.multinomial(n, np.full(n, 1 / n), size=100) for _ in range(4)])
    d = f1(w @ pb) - f1(w @ pa)
    pair = sec["pairs"][0]
    assert pair["ci"] == pytest.approx(np.quantile(d, [0.025, 0.975]).tolist())
    assert pair["p_b_better"] == pytest.approx(np.mean(d > 0)) and pair["p_b_better"] > 0.9


def test_resume_keeps_heldout_and_trains_only_missing_folds(files, run, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(run, out)
    lines = (out / "folds.jsonl").read_text().splitlines()
    kept = [line for line in lines if '"split": 2' not in line]
    (out / "folds.jsonl").write_text("\n".join(kept) + "\n")
    for f in ("report.json", "report.md"):
        (out / f).unlink()
    assert main(compare_args(files, out, "--resume")) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["run"]["folds_trained"] == 4 and report["run"]["folds_resumed"] == 8
    new = records(out)
    assert [r["heldout"] for r in new] == [r["heldout"] for r in records(run)]


def test_resume_with_other_heldout_files_refused(files, run, tmp_path, capsys):
    out = tmp_path / "run"
    shutil.copytree(run, out)
    args = compare_args(files, out, "--resume")[:-3] + [str(files / "h1.conll"), "--resume"]
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the finished folds were made with other held-out files" in err


def _refused(capsys, code, out, where, what):
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("textbcv: error:")]
    assert code == 2 and len(lines) == 1 and lines[0].startswith(f"textbcv: error: {where}") and what in lines[0], err
    assert not out.exists()


def test_heldout_in_another_scheme_refused(files, tmp_path, capsys):
    c = read_corpus(files / "h2.conll")
    other = tmp_path / "h2-iob2.conll"
    rows = [zip(s.tokens, s.pos, s.columns["chunk"], convert(s.tags, "iob1", "iob2")) for s in c]
    text = "".join("\n".join(f"{t} {p} {ch} {g}" for t, p, ch, g in r) + "\n\n" for r in rows)
    other.write_text(text)
    capsys.readouterr()
    code = main(["compare", str(files / "corpus.conll"), "--task", "ner", "--systems", "iob2,iobes", "--quiet",
                 "--out", str(tmp_path / "run"), "--heldout", str(other)])
    _refused(capsys, code, tmp_path / "run", f"{other}:", "its tags are in IOB2, the corpus's in IOB1")


def test_heldout_with_another_chunk_type_refused(files, tmp_path, capsys):
    text = (files / "h2.conll").read_text()
    lines = text.splitlines()
    k = next(i for i, x in enumerate(lines) if x.endswith("-PER"))
    lines[k] = lines[k][: -len("PER")] + "PERSON"
    other = tmp_path / "h2-person.conll"
    other.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    code = main(["compare", str(files / "corpus.conll"), "--task", "ner", "--systems", "iob2,iobes", "--quiet",
                 "--out", str(tmp_path / "run"), "--heldout", str(other)])
    _refused(capsys, code, tmp_path / "run", f"{other}:", "chunk type 'PERSON' is not a type of the corpus")


def test_repeated_sentences_warned_not_refused(files, run, capsys):
    # the run fixture printed the warning; read_heldout prints it again here
    from textbcv.comparison.heldout import read_heldout
    from textbcv.comparison.pipeline import CompareOptions

    capsys.readouterr()
    sets = read_heldout([files / "h1.conll"], read_corpus(files / "corpus.conll"), CompareOptions())
    err = capsys.readouterr().err
    assert err.startswith(f"textbcv: warning: {files / 'h1.conll'}: {int(sets[0].duplicate.sum())} of its 87 sentences "
                          "also occur in the corpus")


def test_evaluate_heldout_equals_compare(files, run, tmp_path):
    """The saved predictions of the compare run, brought back through evaluate, give the same records and report."""
    pred = tmp_path / "pred"
    for s in ("iob2", "iobes"):
        for j in range(3):
            for k in (0, 1):
                (pred / s / "heldout" / "h1").mkdir(parents=True, exist_ok=True)
                (pred / s / "heldout" / "h2").mkdir(parents=True, exist_ok=True)
                shutil.copy(run / "predictions" / f"{s}-split{j}-dir{k}.txt", pred / s / f"fold-{j}-{k}.txt")
                for h in ("h1", "h2"):
                    shutil.copy(run / "predictions" / "heldout" / h / f"{s}-split{j}-dir{k}.txt",
                                pred / s / "heldout" / h / f"fold-{j}-{k}.txt")
    out = tmp_path / "ev"
    assert main(["evaluate", str(run / "splits.json"), str(files / "corpus.conll"), "--task", "ner", "--quiet",
                 "--no-plots", "--system", f"iob2={pred / 'iob2'}", "--system", f"iobes={pred / 'iobes'}", "--out",
                 str(out), "--heldout", str(files / "h1.conll"), str(files / "h2.conll")]) == 0
    a, b = records(run), records(out)
    assert [(r["counts"], r["heldout"]) for r in a] == [(r["counts"], r["heldout"]) for r in b]
    def heldout_of(d):
        return json.loads((d / "report.json").read_text())["heldout"]

    assert heldout_of(run) == heldout_of(out)
    # a missing held-out prediction file is named
    (pred / "iobes" / "heldout" / "h2" / "fold-1-0.txt").unlink()
    assert main(["evaluate", str(run / "splits.json"), str(files / "corpus.conll"), "--task", "ner", "--quiet",
                 "--system", f"iob2={pred / 'iob2'}", "--system", f"iobes={pred / 'iobes'}", "--out",
                 str(tmp_path / "ev2"), "--heldout", str(files / "h1.conll"), str(files / "h2.conll")]) == 2
    assert not (tmp_path / "ev2").exists()


def test_python_compare_heldout(files):
    from textbcv.tagging import LexiconTagger

    systems = [textbcv.System("lex", "iob2", tagger=LexiconTagger()),
               textbcv.System("lower", "iob2", tagger=LexiconTagger(True))]
    r = textbcv.compare(files / "corpus.conll", systems, m=1, heldout=[files / "h2.conll"], progress=False)
    h = r.report.heldout
    assert list(h["files"]) == [str(files / "h2.conll")] and len(h["pairs"]) == 1
    assert all("heldout" in f for f in r.folds)


def test_python_compare_heldout_predictions_of_a_corpus_without_scheme(files, tmp_path):
    """A Corpus object that names no scheme: held-out predictions are saved in the held-out file's own scheme.

    (The corpus's scheme, None here, used to reach the tag encoder after training: "unknown tagging scheme None".)
    """
    import dataclasses

    from textbcv.tagging import LexiconTagger

    corpus = dataclasses.replace(read_corpus(files / "corpus.conll"), scheme=None)
    systems = [textbcv.System("lex", "iob2", tagger=LexiconTagger()),
               textbcv.System("lower", "iobes", tagger=LexiconTagger(True))]
    out = tmp_path / "run"
    textbcv.compare(corpus, systems, m=1, heldout=[files / "h2.conll"], progress=False, out=out,
                    save_predictions=True, plots=False)
    own = read_blocks(files / "h2.conll")
    saved = sorted((out / "predictions" / "heldout" / "h2").iterdir())
    assert len(saved) == 4
    for path in saved:
        blocks = read_blocks(path)
        assert [[row[1] for row in s] for s in blocks] == [[row[-1] for row in s] for s in own]  # IOB1, as the file


def test_posterior_legend_never_covers_the_heldout_lines(tmp_path, monkeypatch):
    """posteriors.png of a run with held-out files: the F1 panel's legend lies below the panel, so none of the
    held-out F1 lines drawn inside it is hidden."""
    import matplotlib.pyplot as plt

    from textbcv.report.model import CompareReport
    from textbcv.report.plots import write_plots

    report = json.loads((Path(__file__).parent / "data" / "golden" / "heldout" / "report.json.golden").read_text())
    assert report["heldout"]
    figures = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: figures.append(fig))
    write_plots(CompareReport.from_dict(report), tmp_path)
    fig = figures[0]  # posteriors.png
    fig.canvas.draw()
    ax = fig.axes[2]
    assert ax.get_xlabel().startswith("F1")
    lines = [ln for ln in ax.get_lines() if " on " in ln.get_label()]
    assert len(lines) == len(report["systems"]) * len(report["heldout"]["files"])
    legend = ax.get_legend().get_window_extent()
    assert legend.y1 <= ax.get_window_extent().y0 + 1e-6  # wholly below the axes, where the lines are
    for f in figures:
        real_close(f)
