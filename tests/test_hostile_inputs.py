"""Hostile inputs, generated: every command on corrupted, odd and special inputs keeps the promise.

Each case runs one command in a folder holding the user's files and asserts: exit 0 (and, where the input is a
faithful re-encoding of a valid file, the same answer as the valid file), or exit 2 with exactly one
``textbcv: error:`` line and no traceback; no file outside the command's output created or changed; the user's
files byte for byte as they were; after an error, no output left behind. The cases are products of input
mutations × commands × option values, not a hand-made list; special files (FIFOs, devices) and signals run in a
subprocess with a time limit, so a blocked read fails the case instead of the suite.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import textbcv
from textbcv.cli import main

NER = textbcv.bundled_corpora()["ner"]
CWS = textbcv.bundled_corpora()["cws"]
ROOT = Path(__file__).resolve().parents[1]


def _first_sentences(path: Path, n: int) -> str:
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    return "\n\n".join(blocks[:n]).rstrip("\n") + "\n"


BASE_CONLL = _first_sentences(NER, 60)
BASE_SEGMENTED = "".join(CWS.read_text(encoding="utf-8").splitlines(keepends=True)[:80])
BASE_COUNTS = (ROOT / "docs" / "example-counts.json").read_text(encoding="utf-8")


def _conlleval_text() -> str:
    out = []
    for line in BASE_CONLL.splitlines():
        parts = line.split()
        out.append(f"{parts[0]} {parts[-1]} {parts[-1]}" if parts else "")
    return "\n".join(out) + "\n"


BASE_CONLLEVAL = _conlleval_text()


# ----------------------------------------------------------------------------- mutations of a text file's bytes
# name -> (function of the valid bytes, whether the result is the same corpus re-encoded)

def _lines(b: bytes) -> list[bytes]:
    return b.split(b"\n")


def _at_line(b: bytes, k: int, f) -> bytes:
    ls = _lines(b)
    i = min(k, len(ls) - 2)
    ls[i] = f(ls[i])
    return b"\n".join(ls)


MUTATIONS = {
    "empty": (lambda b: b"", False),
    "blank-lines": (lambda b: b"\n\n\n", False),
    "truncated-mid-line": (lambda b: b[: len(b) // 3 + 3], False),
    "invalid-utf8": (lambda b: _at_line(b, 7, lambda x: x + b"\xff\xfe"), False),
    "nul-byte": (lambda b: _at_line(b, 5, lambda x: x[:2] + b"\x00" + x[2:]), False),
    "bom": (lambda b: b"\xef\xbb\xbf" + b, True),
    "crlf": (lambda b: b.replace(b"\n", b"\r\n"), True),
    "cr-only": (lambda b: b.replace(b"\n", b"\r"), False),
    "latin1-accents": (lambda b: _at_line(b, 3, lambda x: b"\xe9t\xe9" + x), False),
    "extra-column": (lambda b: _at_line(b, 4, lambda x: x + b" EXTRA") if x_nonblank(b, 4) else b + b"X Y Z W V\n",
                     False),
    "missing-column": (lambda b: _at_line(b, 4, lambda x: x.split(b" ")[0]), False),
    "no-final-newline": (lambda b: b.rstrip(b"\n"), True),
    "long-line": (lambda b: _at_line(b, 2, lambda x: x + b"a" * 300_000), False),
    "binary-garbage": (lambda b: bytes((i * 131 + 7) % 256 for i in range(4096)), False),
    "u2028-in-token": (lambda b: _at_line(b, 4, lambda x: b"a\xe2\x80\xa8b" + x), False),
    "nbsp-in-token": (lambda b: _at_line(b, 4, lambda x: b"a\xc2\xa0b" + x), False),
    "lowercase-tags": (lambda b: b.replace(b"I-PER", b"i-per").replace(b"B-PER", b"b-per"), False),
    "unknown-tag-prefix": (lambda b: b.replace(b"I-LOC", b"X-LOC"), False),
    "only-docstart": (lambda b: b"-DOCSTART- -X- -X- O\n\n", False),
    "one-sentence-repeated": (lambda b: _one_repeated(b), False),
    "tabs": (lambda b: b.replace(b" ", b"\t"), True),
    "control-chars": (lambda b: _at_line(b, 6, lambda x: b"\x1b[31m" + x), False),
}


def _one_repeated(b: bytes) -> bytes:
    """One sentence 40 times: a block of a column file, else a line."""
    blocks = b.split(b"\n\n")
    return (blocks[1] + b"\n\n") * 40 if len(blocks) > 2 else (_lines(b)[1] + b"\n") * 40


def x_nonblank(b: bytes, k: int) -> bool:
    ls = _lines(b)
    return 0 <= k < len(ls) and bool(ls[k].strip())


# ----------------------------------------------------------------------------- the invariants


def _snapshot(root: Path) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_symlink() or p.is_file():
            try:
                out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
            except OSError:
                out[str(p.relative_to(root))] = "unreadable"
        elif p.is_dir():
            out[str(p.relative_to(root)) + "/"] = "dir"
    return out


def _check(root: Path, before: dict, status: int, err: str, outputs: tuple[str, ...] = ()) -> None:
    assert status in (0, 2), f"exit {status}: {err[-2000:]}"
    assert "Traceback" not in err, err[-2000:]
    if status == 2:
        errors = [x for x in err.splitlines() if x.startswith("textbcv: error:")]
        assert len(errors) == 1 and err.strip().splitlines()[-1].startswith("textbcv: error:"), err[-2000:]
    after = _snapshot(root)
    for name, digest in before.items():  # the user's files, byte for byte
        assert after.get(name) == digest, f"{name} changed or removed"
    new = set(after) - set(before)
    allowed = [o for o in outputs]
    stray = [n for n in new if not any(n == o or n.startswith(o.rstrip("/") + "/") or n == o + "/" for o in allowed)]
    assert not stray, f"written outside the outputs: {stray}"
    if status == 2:
        assert not new, f"an error left output behind: {sorted(new)}"


def _run(root: Path, argv: list[str], capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.chdir(root)
    status = main(argv)
    cap = capsys.readouterr()
    return status, cap.out, cap.err


@pytest.fixture()
def home(tmp_path):
    """The user's folder: one valid file of each kind, and a file they care about."""
    (tmp_path / "corpus.conll").write_text(BASE_CONLL, encoding="utf-8")
    (tmp_path / "corpus.txt").write_text(BASE_SEGMENTED, encoding="utf-8")
    (tmp_path / "out.conlleval").write_text(BASE_CONLLEVAL, encoding="utf-8")
    (tmp_path / "counts.json").write_text(BASE_COUNTS, encoding="utf-8")
    (tmp_path / "precious.txt").write_text("the user's own notes\n", encoding="utf-8")
    return tmp_path


# ----------------------------------------------------------------------------- corpora × commands

CORPUS_COMMANDS = {
    "stats": lambda f: ["stats", f],
    "stats-json": lambda f: ["stats", f, "--json"],
    "stats-conll": lambda f: ["stats", f, "--format", "conll"],
    "split": lambda f: ["split", f, "--m", "2", "--out", "splits.json"],
}
SEGMENTED_COMMANDS = {
    "stats": lambda f: ["stats", f],
    "stats-segmented": lambda f: ["stats", f, "--format", "segmented"],
    "split": lambda f: ["split", f, "--m", "2", "--out", "splits.json"],
}


def _valid_answer(home: Path, name: str, command, capsys, monkeypatch, as_name: str | None = None) -> str:
    """The answer on the valid file ``name``, its name in the output written as ``as_name``."""
    status, out, err = _run(home, command(name), capsys, monkeypatch)
    assert status == 0, err
    return out.replace(name, as_name) if as_name else out


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("command", sorted(CORPUS_COMMANDS))
def test_conll_corpus(home, capsys, monkeypatch, mutation, command):
    f, same = MUTATIONS[mutation]
    (home / "bad.conll").write_bytes(f(BASE_CONLL.encode("utf-8")))
    outputs = ("splits.json",) if command == "split" else ()
    before = _snapshot(home)
    status, out, err = _run(home, CORPUS_COMMANDS[command]("bad.conll"), capsys, monkeypatch)
    _check(home, before, status, err, outputs)
    if same and command != "split":
        assert status == 0, err
        assert out == _valid_answer(home, "corpus.conll", CORPUS_COMMANDS[command], capsys, monkeypatch, "bad.conll")


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("command", sorted(SEGMENTED_COMMANDS))
def test_segmented_corpus(home, capsys, monkeypatch, mutation, command):
    f, same = MUTATIONS[mutation]
    (home / "bad.txt").write_bytes(f(BASE_SEGMENTED.encode("utf-8")))
    outputs = ("splits.json",) if command == "split" else ()
    before = _snapshot(home)
    status, out, err = _run(home, SEGMENTED_COMMANDS[command]("bad.txt"), capsys, monkeypatch)
    _check(home, before, status, err, outputs)


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("json_out", [False, True])
def test_conlleval_file(home, capsys, monkeypatch, mutation, json_out):
    f, same = MUTATIONS[mutation]
    (home / "bad.conlleval").write_bytes(f(BASE_CONLLEVAL.encode("utf-8")))
    argv = ["score", "bad.conlleval", *(["--json"] if json_out else [])]
    before = _snapshot(home)
    status, out, err = _run(home, argv, capsys, monkeypatch)
    _check(home, before, status, err)
    if same:
        assert status == 0, err
        assert out == _valid_answer(home, "out.conlleval", lambda n: ["score", n, *(["--json"] if json_out else [])],
                                    capsys, monkeypatch, "bad.conlleval")


def test_gzip_is_the_same_corpus_and_a_truncated_gzip_is_refused(home, capsys, monkeypatch):
    data = gzip.compress(BASE_CONLL.encode("utf-8"), mtime=0)
    (home / "c.conll.gz").write_bytes(data)
    (home / "t.conll.gz").write_bytes(data[: len(data) // 2])
    before = _snapshot(home)
    status, out, err = _run(home, ["stats", "c.conll.gz"], capsys, monkeypatch)
    _check(home, before, status, err)
    assert status == 0 and out == _valid_answer(home, "corpus.conll", CORPUS_COMMANDS["stats"], capsys, monkeypatch,
                                                "c.conll.gz")
    status, out, err = _run(home, ["stats", "t.conll.gz"], capsys, monkeypatch)
    _check(home, before, status, err)
    assert status == 2


# ----------------------------------------------------------------------------- count files


def _counts(edit) -> str:
    d = json.loads(BASE_COUNTS)
    edit(d)
    return json.dumps(d)


def _set_fold(key, value):
    def edit(d):
        d["systems"]["A"][0][key] = value
    return edit


COUNT_FILES = {
    "nan": BASE_COUNTS.replace('"tp": 410', '"tp": NaN', 1),
    "infinity": BASE_COUNTS.replace('"fp": 62', '"fp": Infinity', 1),
    "huge-number": BASE_COUNTS.replace('"fn": 75', '"fn": 1e400', 1),
    "negative": _counts(_set_fold("tp", -3)),
    "float-count": _counts(_set_fold("fp", 2.5)),
    "string-count": _counts(_set_fold("fn", "75")),
    "bool-count": _counts(_set_fold("tp", True)),
    "missing-key": _counts(lambda d: d["systems"]["A"][0].pop("fn")),
    "extra-fold": _counts(lambda d: d["systems"]["A"].append({"tp": 1, "fp": 1, "fn": 1})),
    "odd-folds": _counts(lambda d: (d["systems"]["A"].pop(), d["systems"]["B"].pop())),
    "m-mismatch": _counts(lambda d: d.__setitem__("m", 5)),
    "m-zero": _counts(lambda d: d.__setitem__("m", 0)),
    "m-string": _counts(lambda d: d.__setitem__("m", "3")),
    "one-system": _counts(lambda d: d["systems"].pop("B")),
    "no-systems": _counts(lambda d: d.__setitem__("systems", {})),
    "systems-list": _counts(lambda d: d.__setitem__("systems", [1, 2])),
    "empty-name": _counts(lambda d: d["systems"].__setitem__("", d["systems"].pop("B"))),
    "duplicate-key": BASE_COUNTS.replace('"m": 3,', '"m": 3, "m": 3,', 1),
    "truncated": BASE_COUNTS[: len(BASE_COUNTS) // 2],
    "not-an-object": "[1, 2, 3]",
    "empty": "",
    "deep-nesting": "[" * 5000 + "]" * 5000,
    "trailing-garbage": BASE_COUNTS + "\n}}}",
    "all-zero": _counts(lambda d: [f.update(tp=0, fp=0, fn=0) for s in d["systems"].values() for f in s]),
    "identical-systems": _counts(lambda d: d["systems"].__setitem__("B", d["systems"]["A"])),
    "u2028-name": _counts(lambda d: d["systems"].__setitem__("a\u2028b", d["systems"].pop("B"))),
    "invalid-utf8": BASE_COUNTS.replace('"A"', '"A\udcff"', 1),
}
TEST_OPTIONS = {
    "plain": [],
    "json": ["--json"],
    "alpha-nan": ["--alpha", "nan"],
    "alpha-big": ["--alpha", "1.5"],
    "threshold-inf": ["--threshold", "inf"],
    "threshold-low": ["--threshold", "0.2"],
    "rope-negative": ["--rope", "-1"],
    "rope-nan": ["--rope", "nan"],
}


@pytest.mark.parametrize("options", sorted(TEST_OPTIONS))
@pytest.mark.parametrize("counts", sorted(COUNT_FILES))
def test_count_file(home, capsys, monkeypatch, counts, options):
    (home / "bad.json").write_bytes(COUNT_FILES[counts].encode("utf-8", "surrogateescape"))
    before = _snapshot(home)
    status, out, err = _run(home, ["test", "bad.json", *TEST_OPTIONS[options]], capsys, monkeypatch)
    _check(home, before, status, err)
    if counts in ("nan", "infinity", "huge-number", "negative", "float-count", "string-count", "bool-count",
                  "missing-key", "odd-folds", "m-zero", "m-string", "one-system", "no-systems", "systems-list",
                  "duplicate-key", "truncated", "not-an-object", "empty", "deep-nesting", "trailing-garbage",
                  "invalid-utf8"):
        assert status == 2, f"{counts}: accepted\n{out[:500]}"
    if options.endswith(("nan", "inf", "big", "low", "negative")):
        assert status == 2, f"--{options}: accepted"


@pytest.mark.parametrize("options", sorted(TEST_OPTIONS))
def test_valid_counts_with_every_option(home, capsys, monkeypatch, options):
    before = _snapshot(home)
    status, out, err = _run(home, ["test", "counts.json", *TEST_OPTIONS[options]], capsys, monkeypatch)
    _check(home, before, status, err)
    assert (status == 0) == (options in ("plain", "json")), err


# ----------------------------------------------------------------------------- options that can never train

COMPARE_OPTIONS = {
    "m-zero": ["--m", "0"], "m-negative": ["--m", "-2"], "m-text": ["--m", "three"],
    "c2-nan": ["--c2", "nan"], "c2-inf": ["--c2", "inf"], "c1-negative": ["--c1", "-1"],
    "iterations-zero": ["--max-iterations", "0"], "jobs-zero": ["--jobs", "0"],
    "threshold-nan": ["--threshold", "nan"], "threshold-one": ["--threshold", "1"],
    "rope-inf": ["--rope", "inf"], "alpha-zero": ["--alpha", "0"], "seed-negative": ["--seed", "-1"],
    "encoding-unknown": ["--encoding", "no-such-codec"], "scheme-unknown": ["--scheme", "iob9"],
    "columns-repeated": ["--columns", "token,token,pos,ner"], "system-unknown": ["--systems", "iob2,nosuch"],
    "system-one": ["--systems", "iob2"], "system-twice": ["--systems", "iob2,iob2"],
    "seed-on-lbfgs": ["--systems", "iob2@1,iob2@2"], "heldout-missing": ["--heldout", "missing.conll"],
    "heldout-directory": ["--heldout", "."], "out-is-input": ["--out", "corpus.conll"],
    "out-is-a-file": ["--out", "precious.txt"], "out-has-user-files": ["--out", "."],
}


#: cases that still break the promise, each with the reason; strict, so a fix that lands must also remove it here
KNOWN: dict[str, str] = {
}


def _known(request, *keys: str) -> None:
    """Mark the running case as a known failure (strict: it must still fail)."""
    for k in keys:
        if k in KNOWN:
            request.node.add_marker(pytest.mark.xfail(reason=KNOWN[k], strict=True))


@pytest.mark.parametrize("option", sorted(COMPARE_OPTIONS))
def test_compare_refuses_impossible_options_before_training(home, capsys, monkeypatch, option, request):
    _known(request, option)
    extra = COMPARE_OPTIONS[option]
    argv = ["compare", "corpus.conll", "--task", "ner", "--max-iterations", "1", "--out", "run"]
    if not any(x == "--systems" for x in extra):
        argv += ["--systems", "iob2,iobes"]
    if "--out" in extra:
        i = argv.index("--out")
        del argv[i:i + 2]
    before = _snapshot(home)
    status, out, err = _run(home, argv + extra, capsys, monkeypatch)
    _check(home, before, status, err)
    assert status == 2, f"{option}: accepted"
    assert "fold" not in err.split("textbcv: error:")[0], f"{option}: trained before refusing"


# ----------------------------------------------------------------------------- special files, in a subprocess


def _cli(root: Path, *argv: str, timeout: float = 60, stdin=None, fifo_wait: float | None = None
         ) -> subprocess.CompletedProcess:
    """``python -m textbcv ARGV`` in ``root``; ``fifo_wait`` sets textbcv._inputs.FIFO_WAIT in the child first."""
    head = [sys.executable, "-m", "textbcv"]
    if fifo_wait is not None:
        head = [sys.executable, "-c", f"import runpy, textbcv._inputs as i; i.FIFO_WAIT = {fifo_wait!r}; "
                "runpy.run_module('textbcv', run_name='__main__', alter_sys=True)"]
    return subprocess.run([*head, *argv], cwd=root, capture_output=True, text=True,
                          timeout=timeout, stdin=stdin if stdin is not None else subprocess.DEVNULL)


@pytest.mark.parametrize("command", ["stats", "score", "test", "split"])
@pytest.mark.parametrize("special", ["fifo", "directory", "missing", "dev-null", "dev-zero"])
def test_special_files_end_quickly(home, command, special, request):
    if special == "fifo" or (special == "dev-zero" and command in ("score", "test")):
        _known(request, special)
    if special == "fifo":
        os.mkfifo(home / "pipe")
        target = "pipe"
    else:
        target = {"directory": "sub", "missing": "nothing-here", "dev-null": "/dev/null",
                  "dev-zero": "/dev/zero"}[special]
        if special == "directory":
            (home / "sub").mkdir()
    argv = {"stats": ["stats", target], "score": ["score", target], "test": ["test", target],
            "split": ["split", target, "--out", "splits.json"]}[command]
    before = _snapshot(home)
    try:
        # a FIFO without a writer is refused after FIFO_WAIT (5 s): 0.5 s here, as the wait's length is not what this
        # case checks (the one error line, nothing left, an end); the real 5 s wait, through `python -m textbcv`, is
        # test_inputs_read_once.py's test_a_fifo_without_a_writer_is_refused_not_waited_on_forever
        r = _cli(home, *argv, timeout=15, fifo_wait=0.5 if special == "fifo" else None)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command} on a {special} did not end within 15 s")
    _check(home, before, r.returncode, r.stderr, ("splits.json",))
    assert r.returncode == 2, f"{command} accepted a {special}"


@pytest.mark.parametrize("command", ["stats", "stats-conll"])
def test_a_pipe_is_read_whole_or_refused(home, command, request):
    """A corpus given through a pipe: all of it is read (the answer is the file's), or it is refused; never a part."""
    _known(request, "pipe")
    argv = ["stats", "/dev/stdin", *(["--format", "conll"] if command == "stats-conll" else [])]
    with open(home / "corpus.conll", "rb") as f:
        r = subprocess.run([sys.executable, "-m", "textbcv", *argv], cwd=home, capture_output=True, text=True,
                           timeout=60, stdin=f)
    whole = _cli(home, "stats", "corpus.conll", *(["--format", "conll"] if command == "stats-conll" else []))
    assert r.returncode in (0, 2) and "Traceback" not in r.stderr
    if r.returncode == 0:
        assert r.stdout == whole.stdout.replace("corpus.conll", "/dev/stdin")


# ----------------------------------------------------------------------------- writes outside a run: --plots


def test_plots_never_replace_a_users_file_and_a_failure_leaves_nothing(home, capsys, monkeypatch):
    (home / "plots").mkdir()
    (home / "plots" / "posteriors.png").write_bytes(b"the user's picture")
    before = _snapshot(home)
    status, out, err = _run(home, ["test", "counts.json", "--plots", "plots"], capsys, monkeypatch)
    _check(home, before, status, err)
    assert status == 2 and "posteriors.png" in err
    (home / "plots" / "posteriors.png").unlink()
    status, _, err = _run(home, ["test", "counts.json", "--plots", "plots"], capsys, monkeypatch)
    assert status == 0, err
    status, _, err = _run(home, ["test", "counts.json", "--plots", "plots"], capsys, monkeypatch)  # its own: redrawn
    assert status == 0, err

    import textbcv.report.plots as plots

    def fail(report, out):
        (Path(out) / "posteriors.png").write_bytes(b"half")
        raise textbcv.InputError("cannot write: No space left on device", file=str(Path(out) / "fold_f1.png"))

    monkeypatch.setattr(plots, "write_plots", fail)
    before = _snapshot(home)
    status, _, err = _run(home, ["test", "counts.json", "--plots", "fresh"], capsys, monkeypatch)
    _check(home, before, status, err)
    assert status == 2 and not (home / "fresh").exists()


# ----------------------------------------------------------------------------- names that become paths


def test_a_held_out_file_named_dot_dot_stays_in_its_folder(home, capsys, monkeypatch):
    (home / "...conll").write_text(_first_sentences(NER, 90).split("\n\n", 60)[-1], encoding="utf-8")
    argv = ["compare", "corpus.conll", "--task", "ner", "--systems", "iob2,iobes", "--m", "1", "--max-iterations", "1",
            "--heldout", "...conll", "--save-predictions", "--out", "run"]
    before = _snapshot(home)
    status, _, err = _run(home, argv, capsys, monkeypatch)
    _check(home, before, status, err, ("run",))
    assert status == 0, err
    preds = home / "run" / "predictions"
    folds = sorted(p.name for p in preds.glob("*.txt"))
    assert folds == [f"{s}-split0-dir{d}.txt" for s in ("iob2", "iobes") for d in (0, 1)]
    [held] = [p for p in (preds / "heldout").iterdir()]
    assert held.name.startswith("_.") and held.resolve().parent == (preds / "heldout").resolve()
    for f in folds:  # the folds' own predictions: the test halves, not the held-out file
        assert (preds / f).read_text(encoding="utf-8").split()[0] in BASE_CONLL


def test_seed_folders_name_each_seed_once(tmp_path):
    from textbcv.comparison.imported import seed_folders

    (tmp_path / "seed-1").mkdir()
    (tmp_path / "seed-2").mkdir()
    assert [s for s, _ in seed_folders(tmp_path)] == [1, 2]
    (tmp_path / "seed-01").mkdir()
    with pytest.raises(textbcv.InputError, match="seed-01: a seed folder names its seed as a plain integer"):
        seed_folders(tmp_path)


# ----------------------------------------------------------------------------- count files an m×2 design cannot make


def _design_counts(m: int = 2) -> dict:
    """A COUNTS.json with per-sentence counts and ids: 8 sentences, split j's folds test halves of all of them."""
    rows = {"A": [[2, 1, 0], [1, 0, 1], [3, 0, 0], [0, 1, 1]], "B": [[2, 0, 0], [1, 1, 1], [2, 0, 1], [1, 0, 0]]}
    halves = [([0, 1, 2, 3], [4, 5, 6, 7]), ([0, 2, 4, 6], [1, 3, 5, 7]), ([0, 1, 4, 5], [2, 3, 6, 7])][:m]
    tests = [list(h) for pair in halves for h in pair]

    def folds(name):
        out = []
        for _ in tests:
            sc = rows[name]
            tot = [sum(r[k] for r in sc) for k in range(3)]
            out.append({"tp": tot[0], "fp": tot[1], "fn": tot[2], "sentence_counts": sc})
        return out
    return {"m": m, "systems": {"A": folds("A"), "B": folds("B")}, "test_sentences": tests,
            "documents": [[s // 2 for s in t] for t in tests]}


def _edit_design(edit) -> dict:
    d = _design_counts()
    edit(d)
    return d


DESIGN_COUNTS = {
    "valid": (_design_counts(), 0),
    "same-sentences-both-halves": (_edit_design(lambda d: d["test_sentences"].__setitem__(1, [0, 1, 2, 3])), 2),
    "overlapping-halves": (_edit_design(lambda d: d["test_sentences"].__setitem__(1, [3, 5, 6, 7])), 2),
    "other-sentences-in-split-1": (_edit_design(lambda d: d["test_sentences"].__setitem__(3, [1, 3, 5, 9])), 2),
    "mixed-id-types": (_edit_design(lambda d: d["test_sentences"][0].__setitem__(0, "0")), 2),
    "sentence-in-two-documents": (_edit_design(lambda d: d["documents"][2].__setitem__(0, 3)), 2),
    "sentence-twice-in-a-fold": (_edit_design(lambda d: d["test_sentences"].__setitem__(0, [0, 0, 2, 3])), 2),
}


@pytest.mark.parametrize("case", sorted(DESIGN_COUNTS))
def test_counts_the_design_cannot_make_are_refused(home, capsys, monkeypatch, case):
    data, want = DESIGN_COUNTS[case]
    (home / "design.json").write_text(json.dumps(data), encoding="utf-8")
    before = _snapshot(home)
    status, out, err = _run(home, ["test", "design.json"], capsys, monkeypatch)
    _check(home, before, status, err)
    assert status == want, err


def test_plan_on_identical_systems_says_there_is_nothing_to_plan(tmp_path, capsys):
    from textbcv.corpus import read_corpus
    from textbcv.tagging import System
    from textbcv.tagging.baseline import LexiconTagger

    corpus = read_corpus(str(NER)).subset(list(range(200)))
    same = [System(n, "iob2", tagger=LexiconTagger()) for n in ("memo-a", "memo-b")]
    textbcv.compare(corpus, same, m=1, out=tmp_path / "run", progress=False, plots=False)
    capsys.readouterr()
    assert main(["plan", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "memo-a vs memo-b: the same chunk counts on every test sentence" in err and "0.00" not in err


def test_an_evaluate_that_fails_while_writing_leaves_nothing(tmp_path, monkeypatch):
    import shutil

    import textbcv.comparison.imported as imported

    corpus_file = tmp_path / "c.conll"
    corpus_file.write_text(BASE_CONLL, encoding="utf-8")
    corpus = textbcv.read_corpus(str(corpus_file))
    splits = textbcv.make_splits(corpus, m=1, seed=0)
    splits.save(tmp_path / "SPLITS.json")
    folds = textbcv.export_folds(corpus, splits, tmp_path / "folds")
    for name in ("A", "B"):  # the gold test halves given back as predictions
        for test in folds.glob("fold-*/test.conll"):
            (tmp_path / "preds" / name).mkdir(parents=True, exist_ok=True)
            shutil.copy(test, tmp_path / "preds" / name / f"{test.parent.name}.txt")

    def full_disk(out, report, plots=True):  # splits.json and folds.jsonl are written by then
        assert (Path(out) / "folds.jsonl").is_file()
        raise textbcv.InputError("cannot write: No space left on device", file=str(Path(out) / "report.md"))

    monkeypatch.setattr(imported, "write_report", full_disk)
    with pytest.raises(textbcv.InputError, match="No space left"):
        textbcv.evaluate(tmp_path / "SPLITS.json", str(corpus_file), {n: tmp_path / "preds" / n for n in "AB"},
                         out=tmp_path / "run", task="ner", plots=False)
    assert not (tmp_path / "run").exists()


def test_test_on_an_unfinished_run_says_it_is_unfinished(home, capsys, monkeypatch):
    argv = ["compare", "corpus.conll", "--task", "ner", "--systems", "iob2,iobes", "--m", "1", "--max-iterations", "1",
            "--quiet", "--out", "run"]
    assert _run(home, argv, capsys, monkeypatch)[0] == 0
    folds = home / "run" / "folds.jsonl"
    folds.write_text(folds.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    status, _, err = _run(home, ["test", "run/folds.jsonl"], capsys, monkeypatch)
    assert status == 2 and "1 finished fold): is the run unfinished?" in err and "--resume" in err


def test_dask_backend_without_dask_leaves_nothing(home, capsys, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "distributed" else real(name, *a))
    argv = ["compare", "corpus.conll", "--task", "ner", "--systems", "iob2,iobes", "--m", "1", "--max-iterations", "1",
            "--backend", "dask", "--out", "run"]
    before = _snapshot(home)
    status, _, err = _run(home, argv, capsys, monkeypatch)
    _check(home, before, status, err)
    assert status == 2 and "textbcv[dask]" in err and not (home / "run").exists()


def test_a_template_of_200000_atoms_is_refused_at_once(home):
    (home / "big.json").write_text(json.dumps({"name": "big", "atoms": ["w", "pos"] * 100_000}), encoding="utf-8")
    before = _snapshot(home)
    r = _cli(home, "compare", "corpus.conll", "--task", "ner", "--systems", "iob2+big.json,iobes", "--out", "run",
             timeout=60)  # it took minutes when the check of repeated atoms was quadratic
    _check(home, before, r.returncode, r.stderr)
    assert r.returncode == 2 and "twice" in r.stderr


def test_an_interrupted_two_job_run_leaves_nothing_in_the_temporary_folder(home):
    import signal
    import time

    tmp = home / "tmp"
    tmp.mkdir()
    big = _first_sentences(NER, 400)
    (home / "big.conll").write_text(big, encoding="utf-8")
    env = {**os.environ, "TMPDIR": str(tmp)}
    proc = subprocess.Popen([sys.executable, "-m", "textbcv", "compare", "big.conll", "--task", "ner", "--systems",
                             "iob2,iobes", "--jobs", "2", "--out", "run"], cwd=home, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # interrupt once the workers are training
        if any(tmp.rglob("*.crfsuite")) or proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 2, 130) and "Traceback" not in err, err[-2000:]
    time.sleep(1)  # workers killed with the run
    assert not any(tmp.iterdir()), sorted(p.name for p in tmp.rglob("*"))
