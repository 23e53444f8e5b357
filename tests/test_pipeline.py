"""textbcv compare end to end on a slice of the bundled NER corpus (cheap CRF settings)."""

from __future__ import annotations

import atexit
import json
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from textbcv.cli import main
from textbcv.corpus import read_conll, write_conll
from textbcv.corpus.bundled import bundled_corpora

#: The first 1,000 sentences (68 documents) of the bundled NER corpus, written once per session.
_SLICE_DIR = Path(tempfile.mkdtemp(prefix="textbcv-test-"))
atexit.register(shutil.rmtree, _SLICE_DIR, True)
NER = str(_SLICE_DIR / "ner_slice.conll")
write_conll(read_conll(bundled_corpora()["ner"])[:1000], NER)
CWS = str(bundled_corpora()["cws"])
TEXTBCV = [sys.executable, "-m", "textbcv"]


def compare_args(out, *extra, systems="iob2,iobes", iters=8):
    return ["compare", NER, "--task", "ner", "--systems", systems, "--max-iterations", str(iters),
            "--quiet", "--out", str(out), *extra]


def load_folds(path: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(x).items() if k != "run"} for x in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def run_m3(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp") / "run"
    assert main(compare_args(out, "--m", "3")) == 0
    return out


def test_run_directory_contents(run_m3):
    names = sorted(p.name for p in run_m3.iterdir())
    assert names == ["f1_difference.png", "fold_f1.png", "folds.jsonl", "posteriors.png", "report.json", "report.md",
                     "report.tex", "splits.json", "textbcv-run.json"]
    for png in ("posteriors.png", "f1_difference.png", "fold_f1.png"):
        assert (run_m3 / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    splits = json.loads((run_m3 / "splits.json").read_text())
    assert splits["format"] == "textbcv-splits/1" and splits["m"] == 3 and len(splits["splits"]) == 3
    folds = [json.loads(x) for x in (run_m3 / "folds.jsonl").read_text().splitlines()]
    assert [(f["system"], f["split"], f["direction"]) for f in folds] == [
        (s, j, k) for s in ("iob2", "iobes") for j in range(3) for k in (0, 1)]
    for f in folds:
        assert set(f["counts"]) == {"overall", "types"} and "seconds" in f["run"]
    report = json.loads((run_m3 / "report.json").read_text())
    assert report["m"] == 3 and set(report["systems"]) == {"iob2", "iobes"}
    assert report["meta"]["corpus"]["files"][0]["sha256"] and report["meta"]["corpus"]["sentences"] == 1000
    md = (run_m3 / "report.md").read_text()
    for heading in ("## Conclusion", "## Pooled scores", "## Bayes test", "## Sequential t-test", "## Per-type scores",
                    "## Split"):
        assert heading in md


def test_report_consistent_with_textbcv_test_on_folds(run_m3, capsys):
    report = json.loads((run_m3 / "report.json").read_text())
    capsys.readouterr()
    assert main(["test", str(run_m3 / "folds.jsonl"), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["systems"] == report["systems"]
    assert answer["comparisons"] == report["comparisons"]
    # the conclusion gives the larger P(better) on F1, and names a winner only if the rule does
    from textbcv.report.numbers import p_is

    f1 = next(c for c in report["comparisons"] if c["metric"] == "f1")
    side = f1["b"] if f1["p_b_better"] > f1["p_a_better"] else f1["a"]
    assert f"P({side} better) {p_is(max(f1['p_b_better'], f1['p_a_better']))}" in report["conclusion"]
    assert (f"{side} is better than" in report["conclusion"]) == (f1["decision"] != "no clear difference")
    # pooled counts in the report equal the sums over folds.jsonl
    folds = [json.loads(x) for x in (run_m3 / "folds.jsonl").read_text().splitlines()]
    for name in ("iob2", "iobes"):
        tp = sum(f["counts"]["overall"]["tp"] for f in folds if f["system"] == name)
        assert tp == sum(c["tp"] for c in report["fold_counts"][name])


def test_same_seed_same_outputs(run_m3, tmp_path, monkeypatch):
    """The command report.md gives (every setting explicit) remakes the run exactly."""
    import shlex

    md = (run_m3 / "report.md").read_text(encoding="utf-8")
    words = shlex.split(md.split("To make this report again")[1].split("```\n")[1].split("\n```")[0])
    assert words[:2] == ["textbcv", "compare"] and words[-2:] == ["--out", "rerun"]
    assert "--threshold 0.95" in md and "--max-iterations 8" in md
    monkeypatch.chdir(tmp_path)
    assert main(words[1:] + ["--quiet"]) == 0
    again = tmp_path / "rerun"
    a = json.loads((run_m3 / "report.json").read_text())
    b = json.loads((again / "report.json").read_text())
    a.pop("run"), b.pop("run")  # timings live under "run" only
    assert json.dumps(a) == json.dumps(b)
    assert load_folds(run_m3 / "folds.jsonl") == load_folds(again / "folds.jsonl")
    assert (run_m3 / "splits.json").read_bytes() == (again / "splits.json").read_bytes()


#: runs the CLI in a child process that SIGKILLs itself right after its K-th fold is saved: a kill at a
#: fold boundary, with no timer to race (FoldStore.append is the moment a fold becomes durable)
KILL_AFTER = """
import os, signal, sys
from textbcv.folds.store import FoldStore
from textbcv.cli import main
K = int(sys.argv[1])
_append, _n = FoldStore.append, [0]
def append(self, record):
    _append(self, record)
    _n[0] += 1
    if _n[0] == K:
        os.kill(os.getpid(), signal.SIGKILL)
FoldStore.append = append
sys.exit(main(sys.argv[2:]))
"""


def test_kill_then_resume_trains_only_missing_folds(run_m3, tmp_path):
    out = tmp_path / "killed"
    store = out / "folds.jsonl"
    proc = subprocess.run([sys.executable, "-c", KILL_AFTER, "5", *compare_args(out, "--m", "3")], capture_output=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    before = store.read_text().count("\n")
    assert before == 5
    # without --resume the directory is refused, and nothing is changed
    r = subprocess.run(TEXTBCV + compare_args(out, "--m", "3"), capture_output=True, text=True)
    assert r.returncode == 2 and "add --resume" in r.stderr and r.stderr.count("\n") == 1
    assert store.read_text().count("\n") == before
    assert main(compare_args(out, "--m", "3", "--resume")) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["run"]["folds_trained"] == 12 - before and report["run"]["folds_resumed"] == before
    assert load_folds(store) == load_folds(run_m3 / "folds.jsonl")


def test_sequential_large_difference_stops_at_3(tmp_path):
    weak = tmp_path / "weak.json"
    weak.write_text(json.dumps({"name": "pos-only", "atoms": ["pos"], "window": [0, 0], "ngrams": [1]}))
    out = tmp_path / "seq"
    assert main(compare_args(out, "--sequential", "--m-max", "6", systems=f"iob2,iob2+{weak}")) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["stopping"]["m_used"] == 3 and report["m"] == 3
    assert "stopped at m = 3" in report["stopping"]["reason"]
    assert (report["sequential"][0]["t_test"], report["sequential"][0]["ahead"]) == ("rejects equality", "A")
    assert "decision" not in report["sequential"][0]  # one decision rule: the Bayes test's
    assert len((out / "folds.jsonl").read_text().splitlines()) == 12
    assert len(json.loads((out / "splits.json").read_text())["splits"]) == 3


def test_sequential_identical_systems_run_to_M(tmp_path):
    out = tmp_path / "same"
    assert main(compare_args(out, "--sequential", "--m-max", "4", systems="iob2,iob2+ner-thesis", iters=4)) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["stopping"]["m_used"] == 4 and "without a decision" in report["stopping"]["reason"]
    assert (report["sequential"][0]["t_test"], report["sequential"][0]["ahead"]) == ("does not reject equality", None)
    f1 = next(c for c in report["comparisons"] if c["metric"] == "f1")
    assert f1["p_b_better"] == f1["p_a_better"] == 0.5 and f1["decision"] == "no clear difference"
    assert len((out / "folds.jsonl").read_text().splitlines()) == 16


def test_sequential_bayes_rule(tmp_path):
    out = tmp_path / "bayes"
    weak = tmp_path / "weak.json"
    weak.write_text(json.dumps({"name": "pos-only", "atoms": ["pos"], "window": [0, 0], "ngrams": [1]}))
    assert main(compare_args(out, "--sequential", "--stop", "bayes", "--threshold", "0.99", "--m-max", "5",
                             systems=f"iob2,iob2+{weak}")) == 0
    report = json.loads((out / "report.json").read_text())
    # stopping early needs P(better) ≥ 1 − (1 − 0.99)/3 (three looks: m = 3, 4, 5)
    assert report["stopping"]["m_used"] == 3 and "reached 0.9967 (0.99 over 3 looks)" in report["stopping"]["reason"]


def test_sequential_measured_rule_extends_straight_to_M_exactly_where_m3_could_not_decide(run_m3, tmp_path):
    """--stop measured looks at m = 3 and, where a pair's models' noise was floored there or its P(better) lies in
    [0.90, 0.99), trains straight on to --m-max (the nested splits keep m = 3's folds): m = 4 is never used."""
    from textbcv.stats.sequential import MEASURED_BAND

    m3 = json.loads((run_m3 / "report.json").read_text())
    f1 = next(c for c in m3["comparisons"] if c["metric"] == "f1")
    d = f1["difference"]
    goes_on = (d["var_model"] <= 0 < d["sd"]) or MEASURED_BAND[0] <= max(f1["p_b_better"], f1["p_a_better"]) < \
        MEASURED_BAND[1]
    out = tmp_path / "measured"
    assert main(compare_args(out, "--sequential", "--stop", "measured", "--m-max", "5")) == 0
    report = json.loads((out / "report.json").read_text())
    stopping = report["stopping"]
    assert stopping["rule"] == "measured"
    if goes_on:
        assert stopping["m_used"] == 5 and stopping["reason"] == "m = 3 could not decide: extended to m = 5"
        assert len((out / "folds.jsonl").read_text().splitlines()) == 20
    else:
        assert stopping["m_used"] == 3 and "the models' noise was measured for every pair" in stopping["reason"]
        assert report["comparisons"] == m3["comparisons"]  # the m = 3 answer itself
    # the first 3 splits are m = 3's: its 12 folds are among the run's, unchanged
    assert load_folds(run_m3 / "folds.jsonl") == [r for r in load_folds(out / "folds.jsonl") if r["split"] < 3]


@pytest.mark.parametrize("args, message", [
    (["--systems", "iob2"], "at least two systems"),
    (["--systems", "iob2,iob2"], "named twice"),
    (["--systems", "iob2,iobx"], "unknown tagging scheme 'iobx'"),
    (["--m", "0"], "--m must be at least 1"),
    (["--alpha", "1.5"], "--alpha must lie strictly between 0 and 1"),
    (["--chunk-types", "ANIMAL"], "no chunks of type ANIMAL"),
    (["--balance", "colour"], "unknown property 'colour'"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--m", "5000"], "m"),
])
def test_bad_options_leave_no_output(tmp_path, args, message, capsys):
    out = tmp_path / "out"
    base = ["compare", NER, "--task", "ner", "--systems", "iob2,iobes", "--quiet", "--out", str(out)]
    # later options override the base ones (argparse keeps the last)
    if args == ["--systems", "iob2"]:  # one case through a process, `python -m textbcv` as a user runs it
        r = subprocess.run(TEXTBCV + base + args, capture_output=True, text=True)
        status, stdout, stderr = r.returncode, r.stdout, r.stderr
    else:  # the others in this process: the same main(), without an interpreter start and imports each
        capsys.readouterr()
        status = main(base + args)
        stdout, stderr = capsys.readouterr()
    assert status == 2, stderr
    assert stderr.startswith("textbcv: error: ") and stderr.count("\n") == 1 and "Traceback" not in stderr
    assert message in stderr
    assert not out.exists()


def test_prepare_compare_without_files_or_corpus_is_an_input_error(tmp_path):
    """prepare_compare(None, ...) without corpus=: a worded InputError (None used to reach the corpus reader)."""
    from textbcv.comparison.pipeline import CompareOptions, prepare_compare
    from textbcv.errors import InputError

    out = tmp_path / "out"
    with pytest.raises(InputError, match="^files: give the corpus files, or a Corpus as corpus="):
        prepare_compare(None, out, CompareOptions(task="ner", systems=("iob2", "iobes"), m=1))
    assert not out.exists()


def test_cws_words_from_conllu(shared, tmp_path):
    path = shared("ud_chinese_v1.4", "zh-ud-dev.conllu")
    out = tmp_path / "zh"
    assert main(["compare", str(path), "--format", "conllu", "--task", "cws", "--systems", "bmes,bb2b3mes",
                 "--m", "1", "--max-iterations", "5", "--quiet", "--no-plots", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["meta"]["corpus"]["gold_chunks"] == 12663  # words of zh-ud-dev (SOURCE.md)
    assert list(report["per_type"]["bmes"]) == [""]


def test_demo_starts_afresh_over_a_stale_run_and_resumes_a_current_one(tmp_path, monkeypatch, capsys):
    import textbcv.cli.demo as demo

    small = tmp_path / "corpora"
    small.mkdir()
    write_conll(read_conll(bundled_corpora()["ner"])[:120], small / "ner.conll")
    cws_lines = bundled_corpora()["cws"].read_text(encoding="utf-8").splitlines()[:120]
    (small / "cws.txt").write_text("\n".join(cws_lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(demo, "bundled_corpora", lambda: {"ner": small / "ner.conll", "cws": small / "cws.txt"})
    out = tmp_path / "demo"
    # a run of an earlier textbcv version (no manifest): its files cannot be told from the user's, so it is refused
    assert main(["split", str(small / "ner.conll"), "--format", "conll", "--m", "1", "--seed", "7",
                 "--group-by", "sentence", "--out", str(out / "ner" / "splits.json")]) == 0
    (out / "ner" / "folds.jsonl").write_text("")
    capsys.readouterr()
    assert main(["demo", "--out", str(out), "--m", "1", "--jobs", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "earlier textbcv version" in err and "delete the folder" in err
    assert (out / "ner" / "splits.json").exists() and (out / "ner" / "folds.jsonl").read_text() == ""
    # the demo's own run with other splits: started afresh (only its own files removed)
    import shutil

    shutil.rmtree(out / "ner")
    assert main(["compare", str(small / "ner.conll"), "--task", "ner", "--systems", "iob2,iobes", "--m", "1",
                 "--seed", "7", "--quiet", "--no-plots", "--out", str(out / "ner")]) == 0
    (out / "ner" / "notes.txt").write_text("mine")
    capsys.readouterr()
    assert main(["demo", "--out", str(out), "--m", "1", "--jobs", "1", "--quiet"]) == 0
    assert (out / "ner" / "notes.txt").read_text() == "mine"
    first = capsys.readouterr()
    assert "held a demo run with other splits; starting it afresh" in first.err
    assert (out / "ner" / "report.json").exists() and (out / "cws" / "report.json").exists()
    # rerun: nothing stale, every fold resumed
    assert main(["demo", "--out", str(out), "--m", "1", "--jobs", "1", "--quiet"]) == 0
    second = capsys.readouterr()
    assert "afresh" not in second.err
    assert json.loads((out / "ner" / "report.json").read_text())["run"]["folds_resumed"] == 4
