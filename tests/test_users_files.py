"""A user's files are never lost: only files textbcv wrote are replaced, nothing is written outside --out."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from textbcv import bundled_corpora
from textbcv._io import append_line
from textbcv.cli import main
from textbcv.corpus import read_conll, write_conll
from textbcv.errors import InputError
from textbcv.folds.run_dir import RunDir

FAST = ["--task", "ner", "--m", "1", "--max-iterations", "2", "--quiet", "--no-plots"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("corpus") / "c.conll"
    write_conll(read_conll(bundled_corpora()["ner"])[:120], p)
    return p


@pytest.fixture(scope="module")
def finished(corpus, tmp_path_factory) -> Path:
    """``compare corpus --systems iob2,iobes FAST`` run once through the CLI; tests that start from a finished run
    and change it get their own copy (``_finished_copy``)."""
    out = tmp_path_factory.mktemp("finished") / "run"
    r = _cli("compare", corpus, "--systems", "iob2,iobes", *FAST, "--out", out)
    assert r.returncode == 0, r.stderr
    return out


def _finished_copy(finished: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(finished, tmp_path / "run"))


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "textbcv", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})


def _main(*args, cwd=None) -> subprocess.CompletedProcess:
    """``textbcv ARGS`` as ``_cli`` runs it, in this process (no interpreter start and imports, ~1 s each): the
    exit status main() returns, what it printed, and, on stderr after it, each Python warning a process would
    print under the default filters (so a one-line check is as strict as through a process). For the tests whose
    point is not the process boundary; the CLI through `python -m textbcv` stays covered by ``_cli`` here (the
    module's finished run, the locked folder, the killed run) and tests/test_bad_input.py's processes."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        warnings.resetwarnings()
        warnings.simplefilter("default")
        for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
            warnings.simplefilter("ignore", category)
        try:
            if cwd is not None:
                os.chdir(cwd)
            status = main([str(a) for a in args])
        finally:
            os.chdir(here)
    shown = "".join(warnings.formatwarning(w.message, w.category, w.filename, w.lineno) for w in caught)
    return subprocess.CompletedProcess(["textbcv", *map(str, args)], status, out.getvalue(), err.getvalue() + shown)


def _one_line(r, *words):
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("textbcv: error: "), r.stderr
    assert "Traceback" not in r.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def _snapshot(d: Path) -> dict:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_a_users_files_beside_a_split_are_not_a_run(corpus, tmp_path):
    d = tmp_path / "paper"
    d.mkdir()
    assert _main("split", corpus, "--m", "5", "--seed", "42", "--out", d / "splits.json").returncode == 0
    (d / "report.tex").write_text("paper")
    before = _snapshot(d)
    _one_line(_main("compare", corpus, "--systems", "iob2,iobes", *FAST, "--out", d), "holds no textbcv run")
    assert _snapshot(d) == before


def test_a_changed_or_foreign_file_in_a_run_is_never_replaced_or_deleted(corpus, tmp_path, finished):
    out = _finished_copy(finished, tmp_path)
    assert RunDir(out).is_run() and RunDir(out).owns("report.json")
    (out / "report.tex").write_text("my edited report")
    (out / "fold_f1.png").write_bytes(b"my plot")  # a user's file under a name textbcv also uses
    before = _snapshot(out)
    msg = _one_line(_main("compare", corpus, "--systems", "iob2,iobes", *FAST, "--resume", "--out", out),
                    "not written by textbcv")
    assert "report.tex" in msg and "fold_f1.png" in msg
    assert _snapshot(out) == before
    # what textbcv wrote, unchanged, is its own: after the user's files are moved away, --resume works
    (out / "report.tex").unlink()
    (out / "fold_f1.png").unlink()
    assert _main("compare", corpus, "--systems", "iob2,iobes", *FAST, "--resume", "--out", out).returncode == 0


def test_a_run_of_an_earlier_version_is_read_but_never_resumed(corpus, tmp_path, finished):
    out = _finished_copy(finished, tmp_path)
    (out / "textbcv-run.json").unlink()  # as an earlier textbcv wrote it
    before = _snapshot(out)
    msg = _one_line(_main("compare", corpus, "--systems", "iob2,iobes", *FAST, "--resume", "--out", out),
                    "earlier textbcv version", "--splits")
    assert str(out / "splits.json") in msg
    assert _snapshot(out) == before
    assert _main("report", out).returncode == 0 and _main("test", out).returncode == 0
    # how the message says to continue: the same splits into a new folder
    new = tmp_path / "new"
    assert _main("compare", corpus, "--systems", "iob2,iobes", *FAST, "--splits", out / "splits.json",
                "--out", new).returncode == 0
    assert (new / "splits.json").read_bytes() == (out / "splits.json").read_bytes()


def test_a_second_run_into_a_locked_folder_fails_naming_the_holder(corpus, tmp_path, finished):
    out = _finished_copy(finished, tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from textbcv.folds.run_dir import RunDir; "
                               "RunDir(sys.argv[1]).lock(); print('locked', flush=True); time.sleep(60)", str(out)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        before = _snapshot(out)
        _one_line(_cli("compare", corpus, "--systems", "iob2,iobes", *FAST, "--resume", "--out", out),
                  "another textbcv process", f"pid {holder.pid}")
        # without --resume too: the holder is named, not "add --resume"
        _one_line(_cli("compare", corpus, "--systems", "iob2,iobes", *FAST, "--out", out),
                  "another textbcv process", f"pid {holder.pid}")
        assert _snapshot(out) == before
    finally:
        holder.send_signal(signal.SIGKILL)  # kill -9: the OS releases the lock
        holder.wait()
    assert _cli("compare", corpus, "--systems", "iob2,iobes", *FAST, "--resume", "--out", out).returncode == 0


def test_a_run_that_another_one_wrote_into_meanwhile_is_refused(corpus, tmp_path):
    from textbcv.comparison.pipeline import CompareOptions, prepare_compare, run_compare

    out = tmp_path / "run"
    opts = [CompareOptions(task="ner", systems=("iob2", "iobes"), m=1, seed=s, max_iterations=2) for s in (1, 2)]
    first, second = (prepare_compare([str(corpus)], out, o) for o in opts)  # both checked an empty folder
    run_compare(first, progress=False, plots=False)
    before = _snapshot(out)
    with pytest.raises(InputError, match="another textbcv run wrote into this folder"):
        run_compare(second, progress=False, plots=False)
    assert _snapshot(out) == before
    assert json.loads((out / "report.json").read_text())["meta"]["options"]["seed"] == 1


def test_system_names_never_lead_outside_out(corpus, tmp_path):
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    (tmp_path / "x").mkdir()
    tpl = {"name": "t", "atoms": ["w"], "window": [-1, 1], "ngrams": [1]}
    (tmp_path / "x" / "tpl.json").write_text(json.dumps(tpl))
    r = _main("compare", corpus, "--systems", "iob2,iob2+../../x/tpl.json", *FAST, "--save-predictions",
             "--save-models", "--out", "run", cwd=work)
    assert r.returncode == 0, r.stderr
    outside = {p for p in tmp_path.rglob("*") if work / "run" not in p.parents and p != work / "run"}
    assert outside == {tmp_path / "a", work, tmp_path / "x", tmp_path / "x" / "tpl.json"}
    preds = sorted(p.name for p in (work / "run" / "predictions").iterdir())
    assert len(preds) == 4 and all("/" not in p and not p.startswith(".") for p in preds)


def test_split_refuses_to_replace_its_input(corpus, tmp_path):
    copy = tmp_path / "in.conll"
    copy.write_bytes(corpus.read_bytes())
    before = copy.read_bytes()
    _one_line(_main("split", copy, "--m", "2", "--out", copy, "--force"), "--out is an input file")
    _one_line(_main("split", copy, "--m", "2", "--out", tmp_path / "." / "in.conll", "--force"), "input file")
    assert copy.read_bytes() == before


def test_a_failed_append_leaves_no_torn_line(tmp_path, monkeypatch):
    p = tmp_path / "folds.jsonl"
    append_line(p, '{"a": 1}')
    real = os.write

    def short_then_full(fd, data):  # half of the line fits, then the disk is full
        if len(data) > 4:
            return real(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", short_then_full)
    with pytest.raises(InputError, match="No space left on device"):
        append_line(p, '{"a": 2, "long": "' + "x" * 50 + '"}')
    monkeypatch.setattr(os, "write", real)
    append_line(p, '{"a": 3}')
    assert p.read_text() == '{"a": 1}\n{"a": 3}\n'


def test_a_full_disk_while_writing_a_report_is_one_line(corpus, tmp_path, monkeypatch, capsys):
    import textbcv._io as io

    out = tmp_path / "run"
    real = io.os.fsync

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(io.os, "fsync", full)
    assert main(["compare", str(corpus), "--systems", "iob2,iobes", *FAST, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "No space left on device" in err[0]
    monkeypatch.setattr(io.os, "fsync", real)
    assert not list(out.glob(".*.tmp"))


def test_stale_temporary_files_of_killed_writers_are_removed(corpus, tmp_path):
    dead = 999_999_999  # no such process
    out = tmp_path / "run"
    out.mkdir()
    (out / f".report.json.{dead}.abc.tmp").write_text("torn")
    (tmp_path / f".folds.{dead}.xyz.tmp").mkdir()  # a killed `split --export` into tmp_path/folds
    (tmp_path / f".folds.{dead}.xyz.tmp" / "README.md").write_text("partial")
    assert _main("compare", corpus, "--systems", "iob2,iobes", *FAST, "--out", out).returncode == 0
    assert not (out / f".report.json.{dead}.abc.tmp").exists()
    r = _main("split", corpus, "--m", "1", "--out", tmp_path / "s.json", "--export", tmp_path / "folds")
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / f".folds.{dead}.xyz.tmp").exists() and (tmp_path / "folds" / "README.md").exists()


def test_redraw_checks_report_json_against_the_fold_records(corpus, tmp_path, finished):
    out = _finished_copy(finished, tmp_path)
    r = json.loads((out / "report.json").read_text())
    name = next(iter(r["fold_counts"]))
    r["fold_counts"][name][0]["tp"] += 50  # consistent-looking numbers, not the run's
    (out / "report.json").write_text(json.dumps(r))
    _one_line(_main("report", out, "--threshold", "0.9"), "differ from folds.jsonl")
    r["fold_counts"][name][0]["tp"] = -3
    (out / "report.json").write_text(json.dumps(r))
    _one_line(_main("report", out, "--threshold", "0.9"), "non-negative integer")
    assert not (out / "what-if-threshold-0.9").exists()


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_out_a_dangling_link_or_a_loop_is_one_line(corpus, tmp_path):
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    _one_line(_main("compare", corpus, "--systems", "iob2,iobes", *FAST, "--out", tmp_path / "dangling"),
              "symbolic link")
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    _one_line(_main("compare", corpus, "--systems", "iob2,iobes", *FAST, "--out", tmp_path / "loop1"),
              "symbolic link")


def test_an_unwritable_place_is_one_line(corpus, tmp_path, monkeypatch, capsys):
    # as root every folder is writable, so the refusal of the OS is simulated
    real_mkdir = Path.mkdir

    def denied(self, *a, **k):
        if tmp_path in self.parents or self == tmp_path:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_mkdir(self, *a, **k)

    monkeypatch.setattr(Path, "mkdir", denied)
    assert main(["compare", str(corpus), "--systems", "iob2,iobes", *FAST, "--out", str(tmp_path / "p" / "run")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Permission denied" in err[0]
    assert main(["split", str(corpus), "--m", "1", "--out", str(tmp_path / "s.json"),
                 "--export", str(tmp_path / "q" / "folds")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Permission denied" in err[0]


def test_a_kill_during_a_run_then_resume_still_works(corpus, tmp_path):
    out = tmp_path / "run"
    p = subprocess.Popen([sys.executable, "-m", "textbcv", "compare", str(corpus), "--systems", "iob2,iobes",
                          "--task", "ner", "--m", "2", "--quiet", "--no-plots", "--out", str(out)])
    deadline = time.time() + 60
    while time.time() < deadline and not (out / "folds.jsonl").exists():
        time.sleep(0.05)
    p.send_signal(signal.SIGKILL)
    p.wait()
    r = _main("compare", corpus, "--systems", "iob2,iobes", "--task", "ner", "--m", "2", "--quiet", "--no-plots",
             "--resume", "--out", out)
    assert r.returncode == 0, r.stderr
    assert not (out / ".textbcv-run.lock").exists()


def test_a_torn_last_fold_line_is_dropped_with_a_note(tmp_path, capsys):
    from textbcv.tagging import FoldStore

    p = tmp_path / "folds.jsonl"
    st = FoldStore(p)
    st.append({"system": "iob2", "split": 0, "direction": 0, "counts": {"overall": {"tp": 1, "fp": 0, "fn": 2}},
               "run": {}})
    capsys.readouterr()
    assert FoldStore(p).done == {("iob2", 0, 0)}
    assert capsys.readouterr().err == ""  # a whole file: no note
    with open(p, "a") as f:
        f.write('{"system": "iob2", "split": 0, "dir')
    assert FoldStore(p).done == {("iob2", 0, 0)}
    err = capsys.readouterr().err
    assert "cut short" in err and "trained again" in err
    assert p.read_text().endswith("}\n")


def test_bad_template_files_are_refused(tmp_path):
    from textbcv.tagging.features import get_template

    cases = {
        '{"name": "t", "atoms": ["w"],\n "atoms": ["pos"]}': "the key \"atoms\" is given twice",
        '{"name": "t", "atoms": []}': "no features",
        '{"name": "t", "atoms": ["w", "w"]}': "names 'w' twice",
        json.dumps({"name": "t", "atoms": ["w"], "conjunctions": [[["w", 0]]] * 5000}): "at most 1,000",
    }
    for text, message in cases.items():
        p = tmp_path / "t.json"
        p.write_text(text)
        with pytest.raises(InputError, match=message):
            get_template(str(p))


def test_score_refuses_a_file_with_one_tag_column(tmp_path):
    p = tmp_path / "two.txt"
    p.write_text("EU B-ORG\nrejects O\nGerman B-MISC\ncall O\nto O\nboycott O\nBritish B-MISC\nlamb O\n")
    _one_line(_main("score", p), "words, not tags")
    p.write_text("B-ORG B-ORG\nO O\nB-MISC O\n")  # gold and predicted tags without tokens: conlleval's input
    assert _main("score", p).returncode == 0


def test_stats_says_no_document_marks(tmp_path, corpus):
    bare = tmp_path / "bare.conll"
    bare.write_text("".join(line + "\n" for line in corpus.read_text().splitlines()
                            if not line.startswith("-DOCSTART-")))
    r = _main("stats", bare)
    assert r.returncode == 0 and "no document marks" in r.stdout
    r = _main("stats", corpus)
    assert r.returncode == 0 and "no document marks" not in r.stdout
    import re

    assert re.search(r"^documents\s+8$", r.stdout, re.M)


def test_a_mistyped_name_gets_a_suggestion(corpus, tmp_path):
    _one_line(_main("compare", corpus, "--systems", "iob2,iobse", *FAST, "--out", tmp_path / "r"),
              "did you mean 'iobes'?")


def test_every_report_shows_the_most_frequent_tag_baseline_and_flags_systems_below_it(corpus, tmp_path):
    out = tmp_path / "run"
    assert _main("compare", corpus, "--systems", "iob2,iobes", "--task", "ner", "--m", "1", "--max-iterations", "1",
                "--quiet", "--no-plots", "--out", out).returncode == 0
    r = json.loads((out / "report.json").read_text())
    b = r["baseline"]
    assert b["name"] == "most frequent tag" and len(b["fold_counts"]) == 2
    # an independent count: the memoriser by hand on the same folds, scored by seqeval (conlleval's lenient rules:
    # an I- tag after O opens a chunk, as textbcv decodes)
    from seqeval.metrics import f1_score

    from textbcv.corpus import read_corpus
    from textbcv.schemes import encode
    from textbcv.split import load_splits
    from textbcv.tagging.baseline import LexiconTagger

    c = read_corpus(str(corpus))
    tags = [encode(s.chunks, len(s), "iob2") for s in c]
    gold_all, pred_all = [], []
    for _j, _k, train, test in load_splits(out / "splits.json").folds():
        t = LexiconTagger().fit([c[i] for i in train], [tags[i] for i in train])
        pred_all += t.predict([c[i] for i in test])
        gold_all += [tags[i] for i in test]
    assert b["f1"] == pytest.approx(f1_score(gold_all, pred_all), abs=1e-12)
    md = (out / "report.md").read_text()
    assert "Baseline: a most-frequent-tag memoriser" in md
    assert "Below the baseline: iob2" in md  # one training iteration: below a lookup table


def test_questionable_tags_are_refused_or_noted(tmp_path):
    bare = tmp_path / "bare.conll"
    bare.write_text("EU B-ORG\nrejects O\nGerman B\ncall I\n\nPeter B-PER\n")
    _one_line(_main("stats", bare), f"{bare}:3:", "tag 'B' has no chunk type")
    orphan = tmp_path / "orph.conll"
    orphan.write_text("中 M-ORG\n国 E-ORG\n人 O\n\n北 B-LOC\n京 E-LOC\n")
    r = _main("stats", orphan, "--format", "conll")
    assert r.returncode == 0 and "1 chunk starts with M-, which never starts a chunk in BMES" in r.stderr
    pipe = tmp_path / "pipe.conll"
    pipe.write_text("a B-PER|I-LOC\nb O\n\nc B-PER\n")
    r = _main("stats", pipe, "--format", "conll")
    assert r.returncode == 0 and "chunk type 'PER|I-LOC' contains '|'" in r.stderr
    mixed = tmp_path / "mixed.conll"  # IOB1 chunks (I- first) and an IOB2 one (B- after O) in one file
    mixed.write_text("EU I-ORG\nrejects O\nGerman I-MISC\n\nPeter B-PER\nBlackburn I-PER\n\nA I-LOC\nB B-LOC\n")
    r = _main("stats", mixed, "--format", "conll")
    assert r.returncode == 0 and "the tags mix IOB1 and IOB2: 3 chunks start with I- (IOB1) and 1 with B- after O" \
        in r.stderr
    joined = tmp_path / "joined.conll"  # I-PER-LOC: two types run together with '-'
    joined.write_text("a B-PER-LOC\nb O\n\nc B-PER\nd B-LOC\n\ne B-GPE-X\n")
    r = _main("stats", joined, "--format", "conll")
    assert r.returncode == 0 and "chunk type 'PER-LOC' looks like two tags or types joined by '-'" in r.stderr
    assert "GPE-X" not in r.stderr  # a hyphenated type of its own is not questioned
    iob1 = tmp_path / "iob1.conll"  # B- only between two chunks of one type: IOB1 as written, no note
    iob1.write_text("EU I-ORG\nrejects O\n\nA I-LOC\nB B-LOC\n")
    r = _main("stats", iob1, "--format", "conll")
    assert r.returncode == 0 and "mix" not in r.stderr


def test_word_segmentation_on_a_ner_corpus_is_refused(corpus, tmp_path):
    _one_line(_main("compare", corpus, "--task", "cws", "--systems", "bmes,bb2b3mes", "--out", tmp_path / "r"),
              "typed chunks", "did you mean --task ner")
    assert not (tmp_path / "r").exists()


def test_warnings_for_a_system_without_chunks_and_a_corpus_too_small(tmp_path):
    tiny = tmp_path / "tiny.conll"
    write_conll(read_conll(bundled_corpora()["ner"])[:40], tiny)
    r = _main("compare", tiny, "--systems", "iob2,iobes", "--task", "ner", "--m", "1", "--max-iterations", "1",
             "--group-by", "sentence", "--no-plots", "--out", tmp_path / "run")
    assert r.returncode == 0, r.stderr
    rep = json.loads((tmp_path / "run" / "report.json").read_text())
    silent = [n for n, c in rep["counts"].items() if c["tp"] + c["fp"] == 0]
    assert silent  # one training iteration on 20 sentences: nothing predicted
    for n in silent:
        assert f"{n} predicted no chunk on any fold" in r.stderr
    r = _main("compare", tiny, "--systems", "iob2,iobes", "--task", "ner", "--m", "1", "--group-by", "sentence",
             "--no-plots", "--out", tmp_path / "run2")
    assert r.returncode == 0, r.stderr
    widths = [s["f1"]["ci"][1] - s["f1"]["ci"][0] for s in json.loads((tmp_path / "run2" / "report.json").read_text())[
        "systems"].values()]
    assert min(widths) > 0.2 and "F1 interval is wider than 20 points" in r.stderr and "too small" in r.stderr
    r = _main("compare", tiny, "--systems", "iob2,iobes", "--task", "ner", "--m", "1", "--group-by", "sentence",
             "--no-plots", "--quiet", "--resume", "--out", tmp_path / "run2")
    assert r.returncode == 0 and r.stderr == ""  # --quiet: errors only


def test_tex_typesets_rho_with_its_index():
    from textbcv.report.tex import tex_escape

    assert tex_escape("ρ1 = 0.1, ρ2 = 0.4") == r"$\rho_1$ = 0.1, $\rho_2$ = 0.4"


def test_encoding_reaches_held_out_files(tmp_path):
    # a Latin-1 corpus and held-out file: --encoding latin-1 reads both (it was dropped for the held-out file)
    sents = read_conll(bundled_corpora()["ner"])[:200]
    for name, part in (("train", sents[:150]), ("held", sents[150:])):
        p = tmp_path / f"{name}.utf8"
        write_conll(part, p)
        lines = p.read_text(encoding="utf-8").splitlines()
        i = next(k for k, line in enumerate(lines) if line and not line.startswith("-DOCSTART-"))
        lines[i] = "Müller " + lines[i].split(" ", 1)[1]  # ü is one byte in Latin-1, not valid UTF-8
        (tmp_path / f"{name}.conll").write_bytes(("\n".join(lines) + "\n").encode("latin-1"))
    args = ["compare", tmp_path / "train.conll", "--task", "ner", "--systems", "iob2,iobes", "--m", "1",
            "--max-iterations", "2", "--heldout", tmp_path / "held.conll", "--quiet", "--no-plots"]
    _one_line(_main(*args, "--out", tmp_path / "utf8"), "invalid UTF-8")
    r = _main(*args, "--encoding", "latin-1", "--out", tmp_path / "run")
    assert r.returncode == 0, r.stderr
    files = json.loads((tmp_path / "run" / "report.json").read_text())["heldout"]["files"]
    assert [f for f in files if f.endswith("held.conll")]
