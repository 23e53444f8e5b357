"""Command systems, one task at a time: files written, the command run, its predictions read as evaluate reads them."""

from __future__ import annotations

import json
import shutil
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

import textbcv
from textbcv.corpus import read_corpus
from textbcv.errors import InputError
from textbcv.schemes import encode
from textbcv.tagging.command import CommandSpec, device_slot, run_command_task, task_folder, write_fold_files

MEMORISER = Path(__file__).resolve().parent / "data" / "memoriser.py"
COMMAND = f"{sys.executable} {MEMORISER} --train {{train}} --test {{test}} --out {{pred}} --seed {{seed}}"


@pytest.fixture(scope="module")
def halves():
    c = read_corpus(str(textbcv.bundled_corpora()["ner"]))
    train, test = c.sentences[:120], c.sentences[120:180]
    return train, [encode(s.chunks, len(s), "iob2") for s in train], test


def _memorised(train, tags, test) -> list[list[str]]:
    counts: dict[str, Counter] = defaultdict(Counter)
    for s, t in zip(train, tags):
        for tok, tag in zip(s.tokens, t):
            counts[tok][tag] += 1
    return [[counts[t].most_common(1)[0][0] if t in counts else "O" for t in s.tokens] for s in test]


def _task(tmp_path, halves, spec=None, seed=0, fmt="conll"):
    train, tags, test = halves
    spec = spec or CommandSpec(COMMAND + ("" if fmt == "conll" else " --format jsonl"), format=fmt)
    fold = tmp_path / "memo" / "fold-0-0"
    write_fold_files(fold, train, tags, test, fmt)
    task = task_folder(tmp_path, "memo", 0, 0, seed)
    return run_command_task(spec, "memo", fold, task, test, 0, 0, seed), task


@pytest.mark.parametrize("fmt", ["conll", "jsonl"])
def test_a_task_gives_the_commands_predictions(tmp_path, halves, fmt):
    tags, task = _task(tmp_path, halves, fmt=fmt)
    assert tags == _memorised(*halves)
    assert sorted(p.name for p in task.iterdir()) == ["done.json", "pred.conll", "stderr.log", "stdout.log"]


def test_a_finished_task_is_not_run_again(tmp_path, halves):
    first, task = _task(tmp_path, halves, seed=1)
    marker = tmp_path / "runs"
    spec = CommandSpec(f"echo run >> {marker}; " + COMMAND)
    again, _ = _task(tmp_path, halves, spec=spec, seed=1)
    assert again == first and not marker.exists()


def test_seeds_reach_the_command(tmp_path, halves):
    one, _ = _task(tmp_path, halves, seed=1)
    two, _ = _task(tmp_path, halves, seed=2)
    assert one != two  # the memoriser tags unknown tokens by its seed


def test_a_failing_command_is_one_line_with_its_stderr(tmp_path, halves, monkeypatch):
    monkeypatch.setenv("TAGGER_FAIL", "fold-0-0")
    with pytest.raises(InputError) as e:
        _task(tmp_path, halves)
    msg = str(e.value)
    assert "\n" not in msg and "fold 0,0, seed 0" in msg and "status 3" in msg and "RuntimeError: cannot tag" in msg
    task = task_folder(tmp_path, "memo", 0, 0, 0)
    assert "RuntimeError" in (task / "stderr.log").read_text() and not (task / "done.json").exists()
    monkeypatch.delenv("TAGGER_FAIL")  # the user fixes the script: the same task now runs
    tags, _ = _task(tmp_path, halves)
    assert tags == _memorised(*halves)


def test_a_hanging_command_is_stopped_with_everything_it_started(tmp_path, halves):
    pidfile = tmp_path / "child.pid"
    spec = CommandSpec(f"sleep 60 & echo $! > {pidfile}; wait; " + COMMAND, timeout=1)
    with pytest.raises(InputError, match="ran past --task-timeout 1 s"):
        _task(tmp_path, halves, spec=spec)
    pid = int(pidfile.read_text())
    time.sleep(0.2)
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]


def test_malformed_predictions_name_the_file_and_line(tmp_path, halves, monkeypatch):
    monkeypatch.setenv("TAGGER_GARBAGE", "1")
    with pytest.raises(InputError) as e:
        _task(tmp_path, halves)
    assert e.value.file.endswith("pred.conll") and e.value.line == 1 and "fold 0,0" in str(e.value)
    assert not (task_folder(tmp_path, "memo", 0, 0, 0) / "done.json").exists()


@pytest.mark.parametrize("command, words", [
    ("tag {train} {test}", "must name {pred}"),
    ("tag {train} {test} {pred} {gpu}", "unknown placeholder {gpu}"),
    ("tag {train} {test} {pred} {", "literal brace"),
    ("", "needs a command line"),
])
def test_bad_commands_are_refused_before_any_task(command, words):
    with pytest.raises(InputError, match=words.replace("{", r"\{").replace("}", r"\}")):
        CommandSpec(command)


def test_concurrent_tasks_get_different_devices(tmp_path):
    got, barrier = [], threading.Barrier(3)

    def task():
        with device_slot(tmp_path, ("cuda:0", "cuda:1", "cuda:2"), 3) as d:
            got.append(d)
            barrier.wait(timeout=10)

    threads = [threading.Thread(target=task) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == ["cuda:0", "cuda:1", "cuda:2"]


# ----------------------------------------------------------------------------- command systems in compare

NER = str(textbcv.bundled_corpora()["ner"])


def _memo(seed_word: str = "{seed}") -> str:
    return f"{sys.executable} {MEMORISER} --train {{train}} --test {{test}} --out {{pred}} --seed {seed_word}"


def _compare(out: Path, *extra: str, systems=("a", "b")) -> dict:
    from textbcv.cli import main

    argv = ["compare", NER, "--task", "ner", "--m", "2", "--quiet", "--no-plots", "--out", str(out)]
    for name in systems:
        argv += ["--system", f"{name}={_memo()}"]
    assert main([*argv, "--train-seed", "1", *extra]) == 0
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


def _answer(report: dict) -> dict:
    return {k: report[k] for k in ("systems", "comparisons", "fold_counts", "counts", "sequential")}


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory) -> Path:
    """``_compare`` with its defaults (8 command tasks), made once: the tests that need it only read its folder."""
    out = tmp_path_factory.mktemp("plain") / "run"
    _compare(out)
    return out


def _report(run: Path) -> dict:
    return json.loads((run / "report.json").read_text(encoding="utf-8"))


def test_a_command_system_answers_as_its_predictions_imported_with_evaluate(tmp_path, plain_run):
    from textbcv.cli import main

    report = _report(plain_run)
    preds = tmp_path / "preds"
    for name in ("a", "b"):
        (preds / name).mkdir(parents=True)
        for task in (plain_run / "commands" / name).glob("fold-*/seed-1"):
            shutil.copy(task / "pred.conll", preds / name / f"{task.parent.name}.txt")
    argv = ["evaluate", str(plain_run / "splits.json"), NER, "--task", "ner", "--quiet", "--no-plots",
            "--out", str(tmp_path / "imported")]
    for name in ("a", "b"):
        argv += ["--system", f"{name}={preds / name}"]
    assert main(argv) == 0
    imported = json.loads((tmp_path / "imported" / "report.json").read_text(encoding="utf-8"))
    assert _answer(report) == _answer(imported)


def test_two_jobs_two_seeds_and_a_fixed_failure_give_the_same_report(tmp_path, monkeypatch):
    one = _answer(_compare(tmp_path / "one", "--train-seeds", "2"))
    assert sorted(p.name for p in (tmp_path / "one" / "commands" / "a" / "fold-0-0").iterdir()) == \
        ["seed-1", "seed-2", "test.conll", "train.conll"]
    assert one == _answer(_compare(tmp_path / "two", "--train-seeds", "2", "--jobs", "2"))
    from textbcv.cli import main

    # in this process: a reused pool of workers would not see the variable set here
    monkeypatch.setenv("TAGGER_FAIL", "fold-1-0")  # the script fails on one fold: every other task is kept
    argv = ["compare", NER, "--task", "ner", "--m", "2", "--quiet", "--no-plots", "--out", str(tmp_path / "fix"),
            "--train-seed", "1", "--train-seeds", "2", "--system", f"a={_memo()}", "--system", f"b={_memo()}"]
    assert main(argv) == 2
    done = sorted(str(p.relative_to(tmp_path / "fix")) for p in (tmp_path / "fix").rglob("done.json"))
    assert done and not any("fold-1-0" in d for d in done)
    monkeypatch.delenv("TAGGER_FAIL")  # fixed: the run resumes, running only what is missing
    assert main([*argv, "--resume"]) == 0
    assert _answer(json.loads((tmp_path / "fix" / "report.json").read_text(encoding="utf-8"))) == one


def test_command_systems_on_a_dask_local_cluster_give_the_same_answer(tmp_path, plain_run):
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    one = _answer(_report(plain_run))
    assert one == _answer(_compare(tmp_path / "dask", "--backend", "dask", "--jobs", "2"))


def test_kill_9_mid_run_then_resume_runs_only_the_unfinished_tasks(tmp_path, plain_run):
    import signal
    import subprocess
    import time

    whole = _answer(_report(plain_run))
    run = tmp_path / "killed"
    argv = [sys.executable, "-m", "textbcv", "compare", NER, "--task", "ner", "--m", "2", "--quiet", "--no-plots",
            "--out", str(run), "--train-seed", "1", "--system", f"a={_memo()}", "--system", f"b={_memo()}"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(run.rglob("done.json"))) < 3 and proc.poll() is None:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = {p: p.stat().st_mtime_ns for p in run.rglob("done.json")}
    assert done and len(done) < 8  # killed mid-run
    from textbcv.cli import main

    assert main([*argv[3:], "--resume"]) == 0
    assert all(p.stat().st_mtime_ns == t for p, t in done.items())  # finished tasks were not run again
    assert len(list(run.rglob("done.json"))) == 8
    resumed = json.loads((run / "report.json").read_text(encoding="utf-8"))
    uninterrupted = _report(plain_run)
    assert _answer(resumed) == whole
    # the whole report.json but how long and where it ran (timings, run folders, the command lines' paths)
    differ = {k for k in resumed if resumed[k] != uninterrupted[k]}
    assert differ <= {"run", "meta"}, differ


def test_a_command_system_tags_held_out_files_in_its_fold_task(tmp_path):
    """With --heldout the command tags the held-out sentences after the test half, in the same task (trained once
    per fold); the held-out answer equals the same predictions imported with evaluate --heldout."""
    from textbcv.cli import main

    blocks = [b for b in Path(NER).read_text(encoding="utf-8").split("\n\n") if b.strip() and "-DOCSTART-" not in b]
    # new sentences of the corpus's kind: its last 40 with every token changed (unknown to every fold's memory)
    held = tmp_path / "held.conll"
    held.write_text("\n\n".join("\n".join(f"{ln.split()[0]}x {' '.join(ln.split()[1:])}" for ln in b.splitlines())
                                for b in blocks[-40:]) + "\n", encoding="utf-8")
    report = _compare(tmp_path / "run", "--heldout", str(held))
    assert set(report["heldout"]["systems"]) == {"a", "b"}
    splits = json.loads((tmp_path / "run" / "splits.json").read_text(encoding="utf-8"))
    preds = tmp_path / "preds"
    for name in ("a", "b"):
        (preds / name / "heldout" / "held").mkdir(parents=True)
        for task in sorted((tmp_path / "run" / "commands" / name).glob("fold-*/seed-1")):
            test = (task.parent / "test.conll").read_text(encoding="utf-8").strip().split("\n\n")
            pred = (task / "pred.conll").read_text(encoding="utf-8").strip().split("\n\n")
            n_held = 40
            assert len(test) == len(pred) and len(pred) > n_held  # one file: the test half, then the held-out
            fold = task.parent.name
            (preds / name / f"{fold}.txt").write_text("\n\n".join(pred[:-n_held]) + "\n", encoding="utf-8")
            (preds / name / "heldout" / "held" / f"{fold}.txt").write_text("\n\n".join(pred[-n_held:]) + "\n",
                                                                           encoding="utf-8")
    assert splits  # the same splits file is given to evaluate
    argv = ["evaluate", str(tmp_path / "run" / "splits.json"), NER, "--task", "ner", "--quiet", "--no-plots",
            "--heldout", str(held), "--out", str(tmp_path / "imported")]
    for name in ("a", "b"):
        argv += ["--system", f"{name}={preds / name}"]
    assert main(argv) == 0
    imported = json.loads((tmp_path / "imported" / "report.json").read_text(encoding="utf-8"))
    assert _answer(report) == _answer(imported)
    assert report["heldout"]["systems"] == imported["heldout"]["systems"]
    # trained once per fold and seed: one task folder each, none for the held-out file on its own
    assert len(list((tmp_path / "run" / "commands" / "a").glob("fold-*/seed-1"))) == 4
