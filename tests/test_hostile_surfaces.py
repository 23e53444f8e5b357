"""Hostile surfaces (issue 59), generated: every surface where runs stop, fail and are handed on keeps the promise.

Eight surfaces, each a product of mutations × commands × options (the test's name says its surface):

1. ``commands``: a command system's predictions (unknown chunk types, wrong lengths, bad bytes, empty or missing
   files, extra columns, ...) through ``compare --system NAME=COMMAND``, in both fold formats;
2. ``tasks``: a corpus whose task the tool cannot serve, in every format (conll, conllu, segmented, jsonl, arrow,
   docbin), for compare (CRF and command systems) and calibrate;
3. ``signals``: SIGTERM, SIGINT, SIGHUP and a failing command, with commands that start children, grandchildren
   and processes in a session of their own (in this process, the command signalling it; a few in a subprocess
   with ``--jobs 2``);
4. ``before_write``: nothing written before the last check that can fail (the Dask connection, bad options,
   an ``--out`` that cannot be one);
5. ``resume``: run folders and ``--resume`` (failed first runs, changed commands, foreign folders, truncated or
   garbled state files);
6. ``paper``: paper-ready outputs (report.tex's symbols and ``?`` substitutions, the methods paragraph, the order
   systems are named in, one numbering of splits) under system names that are LaTeX's special characters;
7. ``api``: the Python API (System with string commands, bad arguments);
8. ``outputs``: special output paths, JSON-lines line separators, label vocabularies.

Every case asserts: the exit status expected; after an error exactly one ``textbcv: error:`` line, last, and no
traceback; nothing written outside ``--out``; the user's files byte for byte as they were; no process left (none
below this one that was not there before, none carrying the run's folder in its environment); and after a
failure no file left, except the run a failed command task keeps so that ``--resume`` continues it (a folder
marked ``textbcv-run.json`` without a report). The fast parts: in-process ``main`` on corpora of tens of sentences,
command systems that are shell one-liners or a small script, ``--m 3``, no plots unless plots are the point.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_hostile_inputs import NER
from test_inputs_misread import BMES_CONLL, NAMES, ROWS

import textbcv
from textbcv.cli import main
from textbcv.errors import InputError

PY = f"{sys.executable} -I -S"
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


def _sentences(path: Path, n: int) -> str:
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip() and "-DOCSTART-" not in b]
    return "\n\n".join(blocks[:n]).rstrip("\n") + "\n"


CONLL = _sentences(Path(NER), 30)
SEGMENTED = "".join(textbcv.bundled_corpora()["cws"].read_text(encoding="utf-8").splitlines(keepends=True)[:30])
TYPED_JSONL = "".join(json.dumps({"tokens": [ln.split()[0] for ln in b.splitlines()],
                                  "ner_tags": [ln.split()[-1] for ln in b.splitlines()]}) + "\n"
                      for b in CONLL.split("\n\n") if b.strip())

# ----------------------------------------------------------------------------- the promise


def _snapshot(root: Path) -> dict[str, str]:
    """Every path under ``root``: a regular file by its bytes, a link by its target, anything else by its type
    (a FIFO is never opened)."""
    out = {}
    for top, dirs, files in os.walk(root):  # links are not followed (a loop of them included)
        for name in [*dirs, *files]:
            p = Path(top, name)
            rel = str(p.relative_to(root))
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = "-> " + os.readlink(p)
            elif stat.S_ISREG(st.st_mode):
                out[rel] = p.read_bytes().hex() if st.st_size < 64 else str(hash(p.read_bytes()))
            elif stat.S_ISDIR(st.st_mode):
                out[rel + "/"] = "dir"
            else:
                out[rel] = f"special {stat.S_IFMT(st.st_mode)}"
    return out


def _below(pid: int) -> set[int]:
    """Live processes below ``pid`` (zombies not counted)."""
    children: dict[int, list[int]] = {}
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            text = (p / "stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        if fields[0] not in "ZX":
            children.setdefault(int(fields[1]), []).append(int(p.name))
    found, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in found:
                found.add(c)
                todo.append(c)
    return found


def _marked(where: Path) -> set[int]:
    """Live processes whose environment or command line names ``where`` (a command carries its run's mark)."""
    key, out = os.fsencode(str(where)), set()
    for p in Path("/proc").iterdir():
        if not p.name.isdigit() or int(p.name) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            if "Z" in (p / "stat").read_text().rsplit(")", 1)[1][:3]:
                continue
            if key in (p / "environ").read_bytes() or key in (p / "cmdline").read_bytes():
                out.add(int(p.name))
    return out


class Case:
    """One case's world: the user's folder, what was there before, and the check of the promise after."""

    def __init__(self, home: Path, capsys, monkeypatch):
        self.home, self.capsys, self.monkeypatch = home, capsys, monkeypatch
        self.before: dict[str, str] = {}
        self.procs: set[int] = set()

    def start(self) -> None:
        self.before = _snapshot(self.home)
        self.procs = _below(os.getpid())

    def run(self, argv: list[str]) -> tuple[int, str, str]:
        """``textbcv ARGV`` in the user's folder, in this process (an interrupt's status as the program's)."""
        self.monkeypatch.chdir(self.home)
        self.capsys.readouterr()
        try:
            status = main(argv)
        except KeyboardInterrupt as e:
            status = 128 + getattr(e, "signum", signal.SIGINT)
        cap = self.capsys.readouterr()
        return status, cap.out, cap.err

    def check(self, status: int, err: str, want: int | tuple[int, ...] = 2, out: str | None = "run",
              keeps_run: bool = False, ours: str | None = None) -> None:
        """The promise, after the command: see the module's docstring. ``ours``: a run folder found before, which
        textbcv may change when it ends well (a resumed run)."""
        wants = want if isinstance(want, tuple) else (want,)
        assert status in wants, f"exit {status}, expected {wants}: {err[-2000:]}"
        assert "Traceback" not in err, err[-2000:]
        lines = err.strip().splitlines()
        if status == 2:
            assert sum(x.startswith("textbcv: error:") for x in lines) == 1, err[-2000:]
            assert lines[-1].startswith("textbcv: error:"), err[-2000:]
        if status > 128:
            assert lines and lines[-1].startswith("textbcv: interrupted ("), err[-2000:]
        deadline = time.monotonic() + 10
        while (left := (_below(os.getpid()) - self.procs) | _marked(self.home)) and time.monotonic() < deadline:
            time.sleep(0.05)  # a process signalled a moment ago is still ending
        for pid in left:  # the case's own clean-up, so that a failing case leaves nothing to the next
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        assert not left, f"processes left: {sorted(left)}"
        after = _snapshot(self.home)
        for name, digest in self.before.items():
            if status == 0 and ours is not None and name.startswith(ours + "/"):
                continue
            assert after.get(name) == digest, f"{name}: the user's file changed or went"
        new = set(after) - set(self.before)
        inside = [n for n in new if out is not None and (n in (out, out + "/") or n.startswith(out.rstrip("/") + "/"))]
        assert not set(new) - set(inside), f"written outside --out: {sorted(set(new) - set(inside))}"
        if status != 0 and inside:
            run = self.home / out
            assert keeps_run and (run / "textbcv-run.json").is_file() and not (run / "report.json").exists(), (
                f"a failure left files: {sorted(inside)[:10]}")


@pytest.fixture()
def case(tmp_path, capsys, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    (home / "corpus.conll").write_text(CONLL, encoding="utf-8")
    (home / "corpus.txt").write_text(SEGMENTED, encoding="utf-8")
    (home / "precious.txt").write_text("the user's own notes\n", encoding="utf-8")
    return Case(home, capsys, monkeypatch)


def _system(name: str, line: str) -> list[str]:
    return ["--system", f"{name}={line}"]


COPY = ": {train}; cp {test} {pred}"  # every token O
PER = ": {train}; sed 's/^\\([A-Z][^ ]*\\) O$/\\1 B-PER/' {test} > {pred}"  # capitalised tokens B-PER
RUN = ["--task", "ner", "--m", "3", "--quiet", "--no-plots", "--out", "run"]


# ============================================================================= 1. command systems' predictions

MUTATOR = r'''import json, os, sys
mutation, fmt, test, pred = sys.argv[1:5]
if fmt == "jsonl":
    sents = [json.loads(line)["tokens"] for line in open(test, encoding="utf-8") if line.strip()]
else:
    sents = [[ln.split()[0] for ln in b.splitlines()] for b in open(test, encoding="utf-8").read().split("\n\n")
             if b.strip()]
rows = [[[t, "B-PER" if i == 0 else "O"] for i, t in enumerate(s)] for s in sents]
def text(rows, sep=" ", end="\n"):
    return "".join("".join(sep.join(r) + end for r in s) + end for s in rows)
m = mutation
if m == "unknown-type": rows[0][0][1] = "B-PERSON"
if m == "bad-prefix": rows[0][0][1] = "X-PER"
if m == "lowercase": rows[0][0][1] = "b-per"
if m == "other-scheme": rows[0][0][1] = "S-PER"
if m == "short-sentence": rows[0].pop()
if m == "long-sentence": rows[0].append(["extra", "O"])
if m == "missing-sentence": rows.pop()
if m == "extra-sentence": rows.append([["extra", "O"]])
if m == "other-token": rows[0][0][0] = "XYZZY"
if m == "extra-column": rows = [[[t, "X", g] for t, g in s] for s in rows]
if m == "tag-only": rows = [[[g] for t, g in s] for s in rows]
data = text(rows).encode("utf-8")
if m == "crlf": data = data.replace(b"\n", b"\r\n")
if m == "tabs": data = data.replace(b" ", b"\t")
if m == "bom": data = b"\xef\xbb\xbf" + data
if m == "invalid-utf8": data = data.replace(b" O\n", b" O\xff\n", 1)
if m == "nul-byte": data = data.replace(b" O\n", b" O\x00\n", 1)
if m == "no-blank-lines": data = data.replace(b"\n\n", b"\n")
if m == "empty": data = b""
if m == "binary": data = bytes((i * 131 + 7) % 256 for i in range(4096))
if m == "directory":
    os.mkdir(pred)
elif m == "symlink-to-user-file":
    os.symlink(os.path.abspath("precious.txt"), pred)
elif m != "no-file":
    open(pred, "wb").write(data)
sys.exit(1 if m == "exit-1" else 0)
'''

#: mutation of the prediction file -> the exit status textbcv gives (0: the same predictions, faithfully read)
PREDICTIONS = {
    "valid": 0, "crlf": 0, "tabs": 0, "extra-column": 0, "unknown-type": 2, "bad-prefix": 2, "lowercase": 2,
    "other-scheme": 2, "short-sentence": 2, "long-sentence": 2, "missing-sentence": 2, "extra-sentence": 2,
    "other-token": 2, "tag-only": 2, "bom": 0, "invalid-utf8": 2, "nul-byte": 2, "no-blank-lines": 2, "empty": 2,
    "binary": 2, "directory": 2, "symlink-to-user-file": 2, "no-file": 2, "exit-1": 2,
}


#: the mutations whose outcome may depend on the fold files' format (what the command reads the test half from);
#: the others change only the prediction file's bytes, the same whatever the command read
READS_TEST = {"valid", "crlf", "unknown-type", "short-sentence", "long-sentence", "missing-sentence",
              "extra-sentence", "other-token"}


@pytest.mark.parametrize("mutation, fold_format", [(m, f) for m in sorted(PREDICTIONS) for f in ("conll", "jsonl")
                                                   if f == "conll" or m in READS_TEST])
def test_commands_predictions_pass_evaluates_checks(case, mutation, fold_format):
    (case.home / "mutate.py").write_text(MUTATOR, encoding="utf-8")
    line = f"{PY} mutate.py {mutation} {fold_format} {{test}} {{pred}} {{train}}"
    other = PER if fold_format == "conll" else line.replace(f" {mutation} ", " valid ")
    argv = ["compare", "corpus.conll", *RUN, "--command-format", fold_format, *_system("mine", line),
            *_system("valid", other)]
    case.start()
    status, out, err = case.run(argv)
    want = PREDICTIONS[mutation]
    case.check(status, err, want, keeps_run=True)
    if want == 2:
        assert "system 'mine'" in err.strip().splitlines()[-1], err


# ============================================================================= 2. a task the corpus cannot serve

def _bmes_jsonl() -> str:
    rows = []
    for block in BMES_CONLL.split("\n\n"):
        if block.strip():
            pairs = [ln.split() for ln in block.splitlines()]
            rows.append({"tokens": [p[0] for p in pairs], "tags": [p[1] for p in pairs]})
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def _conllu(tags: list[list[str]] | None, tokens: list[list[str]]) -> str:
    out = []
    for s, sent in enumerate(tokens):
        for i, t in enumerate(sent, 1):
            misc = f"NER={tags[s][i - 1]}" if tags else "_"
            out.append(f"{i}\t{t}\t{t}\tX\tX\t_\t{0 if i == 1 else 1}\t{'root' if i == 1 else 'dep'}\t_\t{misc}\n")
        out.append("\n")
    return "".join(out)


def _blocks(text: str) -> list[list[list[str]]]:
    return [[ln.split() for ln in b.splitlines()] for b in text.split("\n\n") if b.strip()]


def _arrow(folder: Path, sents: list[list[list[str]]]) -> None:
    """``sents`` (token, ..., tag rows) as a ``datasets`` ``save_to_disk`` folder, tags as class labels."""
    datasets = pytest.importorskip("datasets", reason="the datasets extra is not installed")
    names = ["O"] + sorted({r[-1] for s in sents for r in s} - {"O"})
    feats = datasets.Features({"tokens": datasets.Sequence(datasets.Value("string")),
                               "ner_tags": datasets.Sequence(datasets.ClassLabel(names=names))})
    cols = {"tokens": [[r[0] for r in s] for s in sents], "ner_tags": [[names.index(r[-1]) for r in s] for s in sents]}
    datasets.Dataset.from_dict(cols, features=feats).save_to_disk(str(folder))


def _docbin(path: Path, sents: list[list[list[str]]]) -> None:
    """``sents`` (token, ..., tag rows, read as conlleval reads them) as a spaCy DocBin, a document per sentence,
    chunks as entities."""
    spacy = pytest.importorskip("spacy", reason="the spacy extra is not installed")
    from spacy.tokens import Doc, DocBin, Span

    from textbcv.schemes import decode

    vocab, db = spacy.blank("en").vocab, DocBin()
    for s in sents:
        doc = Doc(vocab, words=[r[0] for r in s])
        doc.ents = [Span(doc, a, b, label=t) for a, b, t in decode([r[-1] for r in s], "conlleval")]
        db.add(doc)
    db.to_disk(path)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Corpora of the optional formats, made once (their libraries' import is most of their cost)."""
    return {"root": tmp_path_factory.mktemp("made")}


def _corpus_file(home: Path, kind: str, made: dict | None = None) -> str:
    """Write the corpus ``kind`` (FORMAT-WHAT) into ``home``; its name."""
    if kind.startswith(("arrow-", "docbin-")):
        assert made is not None
        name = {"arrow-bmes": "bmes-arrow", "arrow-typed": "typed-arrow", "docbin-typed": "typed.spacy"}[kind]
        if kind not in made:
            target = made["root"] / name
            sents = _blocks(BMES_CONLL if kind == "arrow-bmes" else CONLL)
            (_arrow if kind.startswith("arrow") else _docbin)(target, sents)
            made[kind] = target
        if made[kind].is_dir():
            shutil.copytree(made[kind], home / name)
        else:
            shutil.copy(made[kind], home / name)
        return name
    if kind == "segmented-words":
        return "corpus.txt"
    if kind == "conll-bmes":
        (home / "bmes.conll").write_text(BMES_CONLL, encoding="utf-8")
        return "bmes.conll"
    if kind == "jsonl-bmes":
        (home / "bmes.jsonl").write_text(_bmes_jsonl(), encoding="utf-8")
        return "bmes.jsonl"
    if kind == "jsonl-typed":
        (home / "typed.jsonl").write_text(TYPED_JSONL, encoding="utf-8")
        return "typed.jsonl"
    if kind == "jsonl-untagged":
        rows = [json.loads(r) for r in TYPED_JSONL.splitlines()]
        (home / "plain.jsonl").write_text("".join(json.dumps({"tokens": r["tokens"]}) + "\n" for r in rows),
                                          encoding="utf-8")
        return "plain.jsonl"
    if kind == "conll-typed":
        return "corpus.conll"
    if kind == "conllu-untagged":
        toks = [[p[0] for p in s] for s in _blocks(CONLL)]
        (home / "plain.conllu").write_text(_conllu(None, toks), encoding="utf-8")
        return "plain.conllu"
    if kind == "conllu-bmes":
        sents = _blocks(BMES_CONLL)
        (home / "bmes.conllu").write_text(_conllu([[p[1] for p in s] for s in sents], [[p[0] for p in s]
                                                                                      for s in sents]),
                                          encoding="utf-8")
        return "bmes.conllu"
    raise AssertionError(kind)


#: corpus -> the task it cannot serve
UNSERVABLE = {
    "segmented-words": "ner", "conll-bmes": "ner", "jsonl-bmes": "ner", "conllu-bmes": "ner",
    "conllu-untagged": "ner", "jsonl-untagged": "ner", "conll-typed": "cws", "jsonl-typed": "cws",
    "arrow-bmes": "ner", "arrow-typed": "cws", "docbin-typed": "cws",
}
TASK_COMMANDS = {
    "compare-crf": lambda f, task: ["compare", f, "--task", task, "--systems", "iob2,iobes" if task == "ner" else
                                    "bmes,bb2b3mes", *RUN[2:]],
    "compare-command": lambda f, task: ["compare", f, "--task", task, *RUN[2:], *_system("a", COPY),
                                        *_system("b", COPY)],
    "calibrate": lambda f, task: ["calibrate", f, "--task", task, "--systems", "iob2" if task == "ner" else "bmes",
                                  "--reps", "1", "--size", "24", "--m", "3", "--max-iterations", "1", "--out", "run"],
}


@pytest.mark.parametrize("command", sorted(TASK_COMMANDS))
@pytest.mark.parametrize("corpus", sorted(UNSERVABLE))
def test_tasks_a_corpus_the_task_cannot_serve_is_refused_before_anything_runs(case, made, corpus, command):
    name = _corpus_file(case.home, corpus, made)
    argv = TASK_COMMANDS[command](name, UNSERVABLE[corpus])
    case.start()
    status, out, err = case.run(argv)
    case.check(status, err, 2)
    message = err.strip().splitlines()[-1]
    assert any(w in message for w in ("--task ner needs", "--task cws", "tag column", "tags")), message


# ============================================================================= 3. signals and processes

#: what the command starts before textbcv is stopped: the shape of the process tree to end
SHAPES = {
    "plain": "sleep 600 & {stop}; wait",
    "children": "(sleep 600 &) ; sleep 600 & {stop}; wait",
    "own-session": "setsid sleep 600 & sleep 600 & {stop}; wait",
}
#: which task stops the run: the first, or one after others have finished
WHEN = {"first-task": "fold-0-0", "later-task": "fold-1-0"}


def _stopping(how: str, shape: str, fold: str) -> str:
    stop = "exit 3" if how == "failure" else f"kill -{how[3:]} {os.getpid()}"
    body = SHAPES[shape].format(stop=stop)
    return f"case {{test}} in *{fold}*) {body};; esac; : {{train}}; cp {{test}} {{pred}}"


@pytest.mark.parametrize("when", sorted(WHEN))
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGHUP", "failure"])
def test_signals_stop_every_process_of_the_run(case, how, shape, when):
    argv = ["compare", "corpus.conll", *RUN, *_system("a", _stopping(how, shape, WHEN[when])),
            *_system("b", COPY)]
    case.start()
    status, out, err = case.run(argv)
    want = 2 if how == "failure" else 128 + getattr(signal, how)
    case.check(status, err, want, keeps_run=True)
    last = err.strip().splitlines()[-1]
    if how == "failure":
        assert "system 'a'" in last and "status 3" in last, last
    else:
        assert last.startswith(f"textbcv: interrupted ({how})") and "to continue it: textbcv compare" in last, last


HANG = "sleep 600 & (sleep 600 &) ; touch {marks}/$$; : {{train}} {{test}} {{pred}}; wait"


@pytest.mark.parametrize("how", ["SIGTERM"])  # the others, and SIGINT and SIGHUP: tests/test_processes.py
def test_signals_a_two_job_program_leaves_no_process(case, how):
    """The program itself (``python -m textbcv``), with two loky workers each running a hanging command."""
    marks = case.home.parent / "started"  # the commands' own marks, outside the user's folder
    marks.mkdir()
    hang = HANG.format(marks=marks)
    argv = [sys.executable, "-m", "textbcv", "compare", "corpus.conll", *RUN, "--jobs", "2", *_system("a", hang),
            *_system("b", hang)]
    case.start()
    with open(case.home.parent / "stderr.txt", "wb") as f:
        proc = subprocess.Popen(argv, cwd=case.home, stdout=subprocess.DEVNULL, stderr=f, start_new_session=True,
                                env={**os.environ, "PYTHONPATH": str(Path(textbcv.__file__).parents[1])})
    try:
        deadline = time.monotonic() + 120
        while len(list(marks.iterdir())) < 2:
            assert proc.poll() is None and time.monotonic() < deadline, (case.home.parent / "stderr.txt").read_text()
            time.sleep(0.05)
        seen = _below(proc.pid)
        proc.send_signal(getattr(signal, how))
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    err = (case.home.parent / "stderr.txt").read_text(encoding="utf-8")
    time.sleep(1)  # the bound: nothing of the run alive a second after textbcv ended
    alive = seen & _below(1)  # of the processes seen below textbcv while it ran
    case.check(proc.returncode, err, 128 + getattr(signal, how), keeps_run=True)
    assert not alive, alive


# ============================================================================= 4. nothing written before the last check


def _unreachable(case) -> None:
    distributed = pytest.importorskip("dask.distributed", reason="the dask extra is not installed")

    def client(address, timeout=None, **kwargs):  # what Client raises once its time is over
        raise OSError(f"Timed out trying to connect to tcp://{address} after {timeout}")

    case.monkeypatch.setattr(distributed, "Client", client)


#: what is wrong -> (extra options, what to prepare)
BEFORE_WRITE = {
    "dask-unreachable": (["--backend", "dask", "--scheduler", "127.0.0.1:1"], _unreachable),
    "scheduler-without-dask": (["--scheduler", "127.0.0.1:1"], None),
    "jobs-zero": (["--jobs", "0"], None),
    "jobs-negative": (["--jobs", "-2"], None),
    "jobs-word": (["--jobs", "two"], None),
    "task-timeout-negative": (["--task-timeout", "-1"], None),
    "devices-empty": (["--devices", ","], None),
    "out-under-a-file": (["--out", "precious.txt/run"], None),
    "out-is-the-corpus": (["--out", "corpus.conll"], None),
    "out-unwritable": (["--out", "/proc/textbcv-run"], None),  # unwritable even by root
    "out-holds-user-files": (["--out", "."], None),
    "m-zero": (["--m", "0"], None),
    "max-iterations-zero": (["--max-iterations", "0"], None),
    "missing-corpus": (["--corpus-swap", "missing.conll"], None),
}
BW_COMMANDS = {
    "compare-crf": ["compare", "corpus.conll", "--task", "ner", "--systems", "iob2,iobes", "--max-iterations", "1",
                    "--m", "3", "--quiet", "--no-plots", "--out", "run"],
    "compare-command": ["compare", "corpus.conll", *RUN, *_system("a", COPY), *_system("b", PER)],
    "calibrate": ["calibrate", "corpus.conll", "--systems", "iob2", "--reps", "1", "--size", "24", "--m", "3",
                  "--max-iterations", "1", "--out", "run"],
    "calibrate-command": ["calibrate", "corpus.conll", "--reps", "1", "--size", "24", "--m", "3", "--out", "run",
                          *_system("a", COPY.replace("{train}", "{train} {seed}"))],
}
#: combinations that do not apply (the option is not the command's)
BW_SKIP = {("calibrate", "task-timeout-negative"), ("calibrate", "devices-empty"),
           ("compare-crf", "task-timeout-negative"), ("compare-crf", "devices-empty"),
           ("calibrate-command", "max-iterations-zero")}


def _with(argv: list[str], extra: list[str]) -> list[str]:
    argv = list(argv)
    if extra[0] == "--corpus-swap":
        return [extra[1] if a == "corpus.conll" else a for a in argv]
    for i in range(0, len(extra), 2):
        if extra[i] in argv:
            argv[argv.index(extra[i]) + 1] = extra[i + 1]
        else:
            argv += extra[i:i + 2]
    return argv


@pytest.mark.parametrize("command, wrong", [(c, w) for c in sorted(BW_COMMANDS) for w in sorted(BEFORE_WRITE)
                                             if (c, w) not in BW_SKIP])
def test_before_write_nothing_is_written_before_the_last_check(case, command, wrong):
    extra, prepare = BEFORE_WRITE[wrong]
    if prepare is not None:
        prepare(case)
    case.start()
    status, out, err = case.run(_with(BW_COMMANDS[command], extra))
    case.check(status, err, 2, out=None)


# ============================================================================= 5. run folders and resume

BASE_ARGV = ["compare", "corpus.conll", *RUN, *_system("a", COPY), *_system("b", PER)]


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    """A finished command-system run in a user's folder, made once and copied into each case."""
    home = tmp_path_factory.mktemp("base") / "home"
    home.mkdir()
    (home / "corpus.conll").write_text(CONLL, encoding="utf-8")
    (home / "precious.txt").write_text("the user's own notes\n", encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(home)
    try:
        assert main(BASE_ARGV) == 0
    finally:
        os.chdir(cwd)
    return home


def _counts(run: Path) -> dict:
    return json.loads((run / "report.json").read_text(encoding="utf-8"))["fold_counts"]


STATE_FILES = ["textbcv-run.json", "folds.jsonl", "splits.json", "report.json", "commands/a/fold-0-0/seed-0/done.json"]
STATE_EDITS = {
    "truncated": lambda b: b[: len(b) // 2],
    "empty": lambda b: b"",
    "garbage": lambda b: bytes((i * 131 + 7) % 256 for i in range(512)),
    "deleted": None,
    "partial-last-line": lambda b: b + b'{"system": "a", "spl',
}


@pytest.mark.parametrize("edit", sorted(STATE_EDITS))
@pytest.mark.parametrize("state", STATE_FILES)
def test_resume_a_damaged_run_folder_is_resumed_or_refused_untouched(case, base_run, state, edit):
    shutil.rmtree(case.home)
    shutil.copytree(base_run, case.home, symlinks=True)
    target = case.home / "run" / state
    if STATE_EDITS[edit] is None:
        target.unlink()
    else:
        target.write_bytes(STATE_EDITS[edit](target.read_bytes()))
    case.start()
    status, out, err = case.run([*BASE_ARGV, "--resume"])
    case.check(status, err, (0, 2), out="run", keeps_run=True, ours="run")
    if status == 0:
        assert _counts(case.home / "run") == _counts(base_run / "run")
    else:
        assert _snapshot(case.home) == case.before, "a refused resume changed the run"


def _foreign(home: Path, kind: str) -> None:
    run = home / "run"
    if kind == "users-folder":
        run.mkdir()
        (run / "thesis.tex").write_text("mine\n", encoding="utf-8")
    elif kind == "calibration":
        run.mkdir()
        (run / "settings.json").write_text('{"reps": 1}\n', encoding="utf-8")
        (run / "units.jsonl").write_text("", encoding="utf-8")
    elif kind == "split-file":
        run.write_text("{}\n", encoding="utf-8")
    elif kind == "symlink-to-users-folder":
        (home / "mine").mkdir()
        (home / "mine" / "notes.txt").write_text("mine\n", encoding="utf-8")
        run.symlink_to(home / "mine")
    elif kind == "dangling-symlink":
        run.symlink_to(home / "nowhere")


@pytest.mark.parametrize("resume", [False, True])
@pytest.mark.parametrize("kind", ["users-folder", "calibration", "split-file", "symlink-to-users-folder",
                                  "dangling-symlink"])
def test_resume_a_foreign_out_is_refused_and_left_alone(case, kind, resume):
    _foreign(case.home, kind)
    case.start()
    status, out, err = case.run([*BASE_ARGV, *(["--resume"] if resume else [])])
    case.check(status, err, 2, out=None)


#: (the first run, what the resumed run changes) -> what textbcv answers: a changed command is refused once folds
#: were made with it (its settings are in folds.jsonl), taken while none were; a system may be added or the
#: systems typed in another order; another m is another design
CHANGES = {("failed", "same"): 0, ("failed", "other-command"): 0, ("failed", "other-order"): 0,
           ("failed", "other-m"): 2, ("failed", "third-system"): 0, ("finished", "same"): 0,
           ("finished", "other-command"): 2, ("finished", "other-order"): 0, ("finished", "other-m"): 2,
           ("finished", "third-system"): 0}
MENDED = f"{PY} tagger.py {{test}} {{pred}} {{train}}"


@pytest.mark.parametrize("first, change", sorted(CHANGES))
def test_resume_a_run_continues_with_the_settings_it_allows(case, base_run, first, change):
    """The first run failed on every task (its script was not there yet; the user mends it), or finished."""
    (case.home / "tagger.py").write_text("import shutil, sys; shutil.copy(sys.argv[1], sys.argv[2])\n",
                                         encoding="utf-8")
    if first == "failed":
        argv = ["compare", "corpus.conll", *RUN, *_system("a", MENDED), *_system("b", COPY)]
        (case.home / "tagger.py").rename(case.home / "later.py")
        case.start()
        status, out, err = case.run(argv)
        case.check(status, err, 2, keeps_run=True)
        (case.home / "later.py").rename(case.home / "tagger.py")
    else:
        argv = BASE_ARGV
        shutil.copytree(base_run / "run", case.home / "run", symlinks=True)
    again = {"same": argv, "other-command": [*argv[:-4], *_system("a", MENDED + " --x"), *argv[-2:]],
             "other-order": [*argv[:-4], *argv[-2:], *argv[-4:-2]],
             "other-m": [x if x != "3" else "2" for x in argv],
             "third-system": [*argv, *_system("c", COPY)]}[change]
    case.start()
    status, out, err = case.run([*again, "--resume"])
    case.check(status, err, CHANGES[first, change], keeps_run=True, ours="run")
    if status == 0:
        typed = [x.split("=", 1)[0] for x in again if "=" in x and not x.startswith("-")]
        assert sorted(_counts(case.home / "run")) == sorted(typed)
    else:
        assert _snapshot(case.home) == case.before, "a refused resume changed the run"


# ============================================================================= 6. paper-ready outputs

NAME_PAIRS = [("α-tagger", "β-tagger"), ("a&b", "50%"), ("$x$", "#1"), ("x_y", "{b}"), ("~t", "a^2"),
              ("back\\slash", "ñandú"), ("北京", "δ"), ("Š-crf", "μ̂"), ("../../x", "a/b"), ("a b", "CON")]


@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")  # a plot's CJK name: drawn as boxes, said
@pytest.mark.parametrize("order", ["typed", "reversed"])
@pytest.mark.parametrize("names", NAME_PAIRS, ids=[f"pair{i}" for i in range(len(NAME_PAIRS))])
def test_paper_report_tex_methods_order_and_numbering(case, names, order):
    from textbcv.report.methods import methods_paragraph
    from textbcv.report.model import CompareReport
    from textbcv.report.plots import _difference_figure, _Look
    from textbcv.report.tex import tex_escape, unset_characters

    a, b = names if order == "typed" else names[::-1]
    lines = {names[0]: COPY, names[1]: PER}
    argv = ["compare", "corpus.conll", *RUN, *_system(a, lines[a]), *_system(b, lines[b])]
    case.start()
    status, out, err = case.run(argv)
    case.check(status, err, 0)
    run = case.home / "run"
    data = json.loads((run / "report.json").read_text(encoding="utf-8"))
    report = CompareReport.from_dict(data)
    assert report.names == [a, b] and [(c["a"], c["b"]) for c in data["comparisons"]][0] == (a, b)
    tex = (run / "report.tex").read_text(encoding="utf-8")
    unset = {ch for n in names for ch in unset_characters(n)}
    if unset:  # a character of the user's names it cannot set is said at the top; no "?" stands for another
        said = tex.splitlines()[2]
        tex = tex.replace(said, "")
        assert said.startswith("% pdflatex cannot set ")
        assert set(said[len("% pdflatex cannot set "):].split(" (")[0].split(", ")) == unset
        for n in names:
            tex = tex.replace(tex_escape(n), "")
    else:
        assert "pdflatex cannot set" not in tex
    assert "?" not in tex
    paragraph = methods_paragraph(report)
    assert "Differences are paired" in paragraph and f"Results on F1: {b} − {a} = " in paragraph
    md = (run / "report.md").read_text(encoding="utf-8")
    assert paragraph.split("Results on F1: ")[1] in md
    assert "S0 →" in md and "S2 ←" in md and "S3 " not in md  # splits 0 .. m − 1, as fold-0-0 .. fold-2-1
    import matplotlib.pyplot as plt

    fig = _difference_figure(report, _Look.of(report))
    try:
        assert fig.axes[0].get_title().startswith(f"F1: {a} vs {b}\n")
        assert fig.axes[0].get_xlabel() == f"F1({b}) − F1({a}) (points)"
    finally:
        plt.close(fig)


# ============================================================================= 7. the Python API

LINE = "python train.py {train} {test} {pred} {seed}"
SYSTEM_ARGS = {
    "command-int": dict(command=123),
    "command-list": dict(command=["python", "train.py"]),
    "command-no-pred": dict(command="python train.py {train} {test}"),
    "command-no-train": dict(command="python train.py {test} {pred}"),
    "command-blank": dict(command="   "),
    "command-unknown-placeholder": dict(command=LINE + " {model}"),
    "command-and-tagger": dict(command=LINE, tagger=object()),
    "seed-negative": dict(command=LINE, seed=-1),
    "seed-bool": dict(command=LINE, seed=True),
    "train-seeds-zero": dict(command=LINE, train_seeds=0),
    "train-seeds-float": dict(command=LINE, train_seeds=2.0),
    "scheme-unknown": dict(command=LINE, scheme="iob9"),
    "name-empty": dict(command=LINE, name=""),
    "name-not-str": dict(command=LINE, name=3),
    "tagger-without-fit": dict(tagger=object()),
}


@pytest.mark.parametrize("wrong", sorted(SYSTEM_ARGS))
def test_api_a_system_of_bad_arguments_is_refused_in_one_line(wrong):
    kwargs = {"name": "mine", "scheme": "iob2", **SYSTEM_ARGS[wrong]}
    with pytest.raises((InputError, TypeError)) as e:
        textbcv.System(**kwargs)
    assert "\n" not in str(e.value) and str(e.value)


def _mine(line: str = COPY) -> textbcv.System:
    return textbcv.System("mine", "iob2", command=line)


COMPARE_ARGS = {
    "one-system": lambda c: dict(systems=[_mine()]),
    "a-system-not-a-list": lambda c: dict(systems=_mine()),
    "same-name-twice": lambda c: dict(systems=[_mine(), _mine(PER)]),
    "m-zero": lambda c: dict(m=0),
    "m-string": lambda c: dict(m="3"),
    "jobs-zero": lambda c: dict(jobs=0),
    "unknown-option": lambda c: dict(colour="red"),
    "task-unknown": lambda c: dict(task="pos"),
    "corpus-missing": lambda c: dict(corpus=str(c / "missing.conll")),
    "out-is-a-file": lambda c: dict(out=c / "precious.txt"),
    "resume-a-users-folder": lambda c: dict(out=c, resume=True),
    "bad-prediction": lambda c: dict(systems=[_mine(), textbcv.System("bad", "iob2", command=COPY.replace(
        "cp {test} {pred}", "sed 's/ O$/ B-PERSON/' {test} > {pred}"))]),
}


@pytest.mark.parametrize("wrong", sorted(COMPARE_ARGS))
def test_api_compare_with_bad_arguments_raises_one_line_and_leaves_nothing(case, wrong):
    tmp = case.home / "tmp"
    tmp.mkdir()
    case.monkeypatch.setenv("TMPDIR", str(tmp))
    case.monkeypatch.setattr("tempfile.tempdir", str(tmp))
    case.monkeypatch.chdir(case.home)
    kwargs = {"corpus": str(case.home / "corpus.conll"), "systems": [_mine(), textbcv.System("per", "iob2",
                                                                                             command=PER)],
              "m": 3, "out": case.home / "run", "progress": False, "plots": False,
              **COMPARE_ARGS[wrong](case.home)}
    case.start()
    with pytest.raises((InputError, TypeError)) as e:
        textbcv.compare(kwargs.pop("corpus"), kwargs.pop("systems"), **kwargs)
    assert "\n" not in str(e.value) and str(e.value)
    case.check(2, "textbcv: error: " + str(e.value), 2, keeps_run=wrong == "bad-prediction")
    assert not any(tmp.iterdir())


def test_api_a_string_command_runs_as_the_command_line_runs_it(case):
    case.start()
    r = textbcv.compare(str(case.home / "corpus.conll"), [_mine(), textbcv.System("per", "iob2", command=PER)], m=3,
                        progress=False, plots=False)
    case.check(0, "", 0, out=None)
    assert r.report.names == ["mine", "per"] and len(r.folds) == 12


# ============================================================================= 8. outputs, JSON-lines, label names


def _special(home: Path, kind: str) -> str:
    p = home / "target"
    if kind == "fifo":
        os.mkfifo(p)
    elif kind == "device":
        try:
            os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError:
            pytest.skip("making a device node needs root")
    elif kind == "symlink-to-fifo":
        os.mkfifo(home / "fifo")
        p.symlink_to(home / "fifo")
    elif kind == "symlink-loop":
        p.symlink_to(home / "target")
    elif kind == "symlink-to-user-file":
        p.symlink_to(home / "precious.txt")
    return "target"


OUT_COMMANDS = {
    "split": lambda o: ["split", "corpus.conll", "--m", "3", "--out", o],
    "split-force": lambda o: ["split", "corpus.conll", "--m", "3", "--out", o, "--force"],
    "compare": lambda o: ["compare", "corpus.conll", *RUN[:-1], o, *_system("a", COPY), *_system("b", PER)],
    "test-plots": lambda o: ["test", "counts.json", "--plots", o],
}


@pytest.mark.parametrize("command", sorted(OUT_COMMANDS))
@pytest.mark.parametrize("kind", ["fifo", "device", "symlink-to-fifo", "symlink-loop", "symlink-to-user-file"])
def test_outputs_a_special_output_is_refused_never_written_through(case, kind, command):
    shutil.copy(Path(__file__).resolve().parents[1] / "docs" / "example-counts.json", case.home / "counts.json")
    target = _special(case.home, kind)
    # --force replaces the link itself, never what it names
    replaced = kind in ("symlink-to-user-file", "symlink-loop") and command == "split-force"
    case.start()
    if replaced:
        del case.before[target]
    status, out, err = case.run(OUT_COMMANDS[command](target))
    case.check(status, err, 0 if replaced else 2, out=target if replaced else None)
    if replaced:
        assert (case.home / target).is_file() and not (case.home / target).is_symlink()


ODD_PATHS = {"space": "my run", "quote": "it's \"run\"", "semicolon": "a;rm -rf x", "dollar": "$(touch pwned)",
             "newline": "two\nlines", "backtick": "`touch pwned`", "dash": "-run", "unicode": "résultats-北京"}


@pytest.mark.parametrize("name", sorted(ODD_PATHS))
def test_outputs_an_odd_out_path_is_written_exactly_there(case, name):
    out = ODD_PATHS[name]
    argv = ["compare", "corpus.conll", *RUN[:-2], f"--out={out}", *_system("a", COPY), *_system("b", PER)]
    case.start()
    status, _, err = case.run(argv)
    case.check(status, err, 0, out=out)
    assert (case.home / out / "report.json").is_file() and not (case.home / "pwned").exists()


SEPARATORS = {"U+2028": "\u2028", "U+2029": "\u2029", "U+0085": "\x85", "VT": "\x0b", "FF": "\x0c", "FS": "\x1c",
              "GS": "\x1d", "RS": "\x1e"}


@pytest.mark.parametrize("ascii_json", [True, False], ids=["ascii", "utf8"])
@pytest.mark.parametrize("char", sorted(SEPARATORS))
def test_outputs_a_jsonl_token_holding_a_line_end_is_refused(case, char, ascii_json):
    rows = [json.loads(r) for r in TYPED_JSONL.splitlines()]
    rows[3]["tokens"][1] = "a" + SEPARATORS[char] + "b"
    (case.home / "x.jsonl").write_text("".join(json.dumps(r, ensure_ascii=ascii_json) + "\n" for r in rows),
                                       encoding="utf-8")
    case.start()
    status, _, err = case.run(["split", "x.jsonl", "--m", "3", "--out", "splits.json"])
    case.check(status, err, 2, out=None)
    assert err.strip().splitlines()[-1].startswith("textbcv: error: x.jsonl:4: ")


LABELS = {"named-twice": NAMES, "too-few": NAMES[:2], "not-a-string": ["O", 1, "I-ORG", "B-PER"],
          "empty-name": ["O", "", "I-ORG", "B-PER"], "not-a-list": {"O": 0}, "with-space": ["O", "B ORG", "I-ORG",
                                                                                         "B-PER"]}


@pytest.mark.parametrize("names, source", [(n, s) for n in sorted(LABELS) for s in ("label_names.json",
                                            "--label-names json", "--label-names lines")
                                            if s != "--label-names lines" or isinstance(LABELS[n], list)])
def test_outputs_a_label_vocabulary_that_cannot_name_the_ids_is_refused(case, names, source):
    value = LABELS[names]
    (case.home / "x.jsonl").write_text(ROWS, encoding="utf-8")
    extra: list[str] = []
    if source == "label_names.json":
        (case.home / "label_names.json").write_text(json.dumps(value, indent=1), encoding="utf-8")
    elif source == "--label-names json":
        (case.home / "names.json").write_text(json.dumps(value, indent=1), encoding="utf-8")
        extra = ["--label-names", "names.json"]
    else:
        (case.home / "names.txt").write_text("\n".join(map(str, value)) + "\n", encoding="utf-8")
        extra = ["--label-names", "names.txt"]
    case.start()
    status, _, err = case.run(["stats", "x.jsonl", *extra])
    case.check(status, err, 2, out=None)
