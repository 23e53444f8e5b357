"""Inputs that were misread or crashed (issue 59), each now refused as every other bad input is.

Each case runs in a folder holding the user's files and asserts, as tests/test_hostile_inputs.py does: exit 2 with
exactly one ``textbcv: error:`` line naming the file and line, no traceback, nothing written outside the
command's output, the user's files byte for byte as they were, and no output left behind.

* a command system's predictions pass through the check ``textbcv evaluate`` applies to a prediction file
  (one function, :func:`textbcv.corpus.predictions.check_predicted_tags`);
* ``--task ner`` on word boundaries (segmented text, untyped BMES tags) is refused as CoNLL-U without tags is;
* ``System(command="...")`` takes the command line ``--system NAME=COMMAND`` takes;
* an output that is a FIFO or a device is refused, never written through or replaced, even with ``--force``;
* a JSON-lines token holding a character ``str.splitlines`` ends a line at (U+2028, ...) is refused at its line;
* a label vocabulary that names one label twice is refused at the line of the second name.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import numpy as np
import pytest
from test_hostile_inputs import BASE_CONLL, BASE_SEGMENTED, _check, _cli, _run, _snapshot

import textbcv
from textbcv.cli import build_parser
from textbcv.cli.compare import command_systems
from textbcv.corpus import read_jsonl
from textbcv.corpus.hf import fold_predictions
from textbcv.corpus.segmented import bmes_tags
from textbcv.errors import InputError
from textbcv.tagging import System
from textbcv.tagging.command import CommandSpec

PERSON = '''import sys
test, pred = sys.argv[2], sys.argv[3]
with open(test, encoding="utf-8") as f, open(pred, "w", encoding="utf-8") as g:
    first = True
    for line in f:
        parts = line.split()
        if not parts:
            g.write("\\n")
            first = True
            continue
        g.write(parts[0] + (" B-PERSON" if first else " O") + "\\n")
        first = False
'''


@pytest.fixture()
def home(tmp_path):
    """The user's folder: a CoNLL corpus, segmented text, a tagger of their own, and a file they care about."""
    (tmp_path / "corpus.conll").write_text(BASE_CONLL, encoding="utf-8")
    (tmp_path / "corpus.txt").write_text(BASE_SEGMENTED, encoding="utf-8")
    (tmp_path / "person.py").write_text(PERSON, encoding="utf-8")
    (tmp_path / "precious.txt").write_text("the user's own notes\n", encoding="utf-8")
    return tmp_path


def _error(err: str) -> str:
    lines = err.strip().splitlines()
    assert lines and lines[-1].startswith("textbcv: error: "), err[-2000:]
    return lines[-1][len("textbcv: error: "):]


# ----------------------------------------------------------------------------- 1. command systems' predictions


def test_a_command_systems_unknown_chunk_type_is_refused_as_evaluate_refuses_it(home, capsys, monkeypatch):
    command = f"{sys.executable} person.py {{train}} {{test}} {{pred}}".replace("person.py", str(home / "person.py"))
    argv = ["compare", "corpus.conll", "--task", "ner", "--m", "1", "--quiet", "--no-plots", "--out", "run",
            "--system", f"a={command}", "--system", f"b={command}"]
    before = _snapshot(home)
    status, out, err = _run(home, argv, capsys, monkeypatch)
    assert status == 2 and "Traceback" not in err and out == ""
    pred = str((home / "run" / "commands" / "a" / "fold-0-0" / "seed-0" / "pred.conll").resolve())
    assert _error(err) == (f"{pred}:1: system 'a', fold 0,0, seed 0: predicted tag 'B-PERSON': type 'PERSON' is not "
                           "a chunk type of the corpus (types: LOC, MISC, ORG, PER)")
    after = _snapshot(home)
    assert all(after.get(k) == v for k, v in before.items())
    assert all(k.startswith("run/") or k == "run/" for k in set(after) - set(before))  # the failed task's logs
    assert not (home / "run" / "report.json").exists()


def test_command_systems_and_evaluate_share_one_check():
    import inspect

    from textbcv.comparison import imported
    from textbcv.corpus import predictions
    from textbcv.tagging import command

    assert "check_predicted_tags(" in inspect.getsource(command.run_command_task)
    assert "check_predicted_tags(" in inspect.getsource(predictions.decode_predictions)
    assert "decode_predictions(" in inspect.getsource(imported)
    assert "is not a chunk type" not in inspect.getsource(command)  # no copy of the rule's words


# ----------------------------------------------------------------------------- 2. a task the corpus cannot serve

# the segmented corpus as one character per line with its BMES tag: the same word boundaries, in CoNLL
BMES_CONLL = "".join("".join(f"{c} {t}\n" for c, t in zip("".join(ws), bmes_tags(ws))) + "\n"
                     for ws in map(str.split, BASE_SEGMENTED.splitlines()) if ws)


@pytest.mark.parametrize("corpus, what", [
    ("corpus.txt", "this corpus is segmented text, whose tags are untyped BMES"),
    ("bmes.conll", "this corpus's tags are untyped BMES"),
])
def test_ner_on_word_boundaries_is_refused_for_every_format(home, capsys, monkeypatch, corpus, what):
    (home / "bmes.conll").write_text(BMES_CONLL, encoding="utf-8")
    before = _snapshot(home)
    status, out, err = _run(home, ["compare", corpus, "--task", "ner", "--systems", "iob2,iobes", "--m", "1", "--quiet",
                                   "--no-plots", "--out", "run"], capsys, monkeypatch)
    _check(home, before, status, err, ("run",))
    assert status == 2
    assert _error(err) == (f"{corpus}:1: --task ner needs named-entity tags, but {what}: word boundaries, not "
                           "entities; did you mean --task cws?")


def test_evaluate_refuses_ner_on_segmented_text_before_reading_predictions(home, capsys, monkeypatch):
    assert _run(home, ["split", "corpus.txt", "--m", "1", "--out", "splits.json"], capsys, monkeypatch)[0] == 0
    for name in ("A", "B"):
        (home / name).mkdir()
    before = _snapshot(home)
    status, out, err = _run(home, ["evaluate", "splits.json", "corpus.txt", "--task", "ner", "--system", "A=A",
                                   "--system", "B=B", "--out", "run", "--no-plots"], capsys, monkeypatch)
    _check(home, before, status, err, ("run",))
    assert status == 2 and "corpus.txt:1: --task ner needs named-entity tags" in _error(err)


def test_conllu_without_tags_is_still_refused_for_ner(home, capsys, monkeypatch):
    (home / "c.conllu").write_text("".join(f"1\tw{i}\tw\tNOUN\tNN\t_\t0\troot\t_\t_\n\n" for i in range(12)),
                                   encoding="utf-8")
    before = _snapshot(home)
    status, out, err = _run(home, ["compare", "c.conllu", "--task", "ner", "--systems", "iob2,iobes", "--m", "1",
                                   "--quiet", "--no-plots", "--out", "run"], capsys, monkeypatch)
    _check(home, before, status, err, ("run",))
    assert status == 2 and "--task ner needs a tag column" in _error(err)


# ----------------------------------------------------------------------------- 3. System(command=...) from Python

LINE = "python train.py {train} {test} {pred} {seed}"


def test_a_command_line_string_is_read_as_the_command_line_reads_it():
    s = System("mine", "iob2", command=f"  {LINE} ")
    args = build_parser().parse_args(["compare", "c.conll", "--task", "ner", "--out", "o",
                                      "--system", f"mine= {LINE}  "])
    (cli,) = command_systems(args)
    assert s.command == cli.command == CommandSpec(LINE)
    assert s.to_dict() == cli.to_dict()
    assert s.to_dict()["params"] == {"command": LINE, "format": "conll", "timeout": None, "devices": []}


@pytest.mark.parametrize("value, error, words", [
    (123, TypeError, "a command line (str) or a CommandSpec, got int 123"),
    (["python", "train.py"], TypeError, "got list"),
    ("python train.py {train} {test}", InputError, "must name {pred}"),
    ("   ", InputError, "needs a command line"),
])
def test_a_command_of_another_kind_is_refused_clearly(value, error, words):
    with pytest.raises(error) as e:
        System("mine", "iob2", command=value)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_command_spec_is_a_public_name():
    assert textbcv.CommandSpec is CommandSpec and "CommandSpec" in dir(textbcv)
    byo = (Path(__file__).resolve().parents[1] / "docs" / "byo.md").read_text(encoding="utf-8")
    assert "textbcv.tagging.command.CommandSpec" not in byo and "textbcv.CommandSpec(" in byo
    assert 'command="python train.py {train} {test} {pred} {seed}"' in byo


# ----------------------------------------------------------------------------- 4. special files as outputs


def _special(home: Path, kind: str) -> Path:
    p = home / kind
    if kind == "fifo":
        os.mkfifo(p)
    else:
        try:
            os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null of the test's own
        except PermissionError:
            pytest.skip("making a device node needs root")
    return p


@pytest.mark.parametrize("kind, words", [("fifo", "is a FIFO (named pipe)"), ("device", "is a character device")])
@pytest.mark.parametrize("force", [["--force"], []])
def test_split_never_writes_through_or_replaces_a_special_file(home, kind, words, force):
    target = _special(home, kind)
    mode = target.lstat().st_mode
    before = _snapshot(home)
    r = _cli(home, "split", "corpus.conll", "--m", "1", "--out", kind, *force, timeout=60)
    _check(home, before, r.returncode, r.stderr)
    assert r.returncode == 2 and target.lstat().st_mode == mode
    if force:
        assert _error(r.stderr) == (f"{kind}: {words}, not a regular file: textbcv writes only regular files (and "
                                    "folders); choose another name")


def test_a_symlink_to_a_special_file_is_refused_too(home):
    before = _snapshot(home)  # before the link: reading it would wait for the FIFO's writer
    _special(home, "fifo")
    (home / "link").symlink_to(home / "fifo")
    r = _cli(home, "split", "corpus.conll", "--m", "1", "--out", "link", "--force", timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert (home / "link").is_symlink() and stat.S_ISFIFO((home / "fifo").lstat().st_mode)
    (home / "link").unlink()
    _check(home, before, r.returncode, r.stderr)
    assert "link: is a FIFO (named pipe), not a regular file" in _error(r.stderr)


# ----------------------------------------------------------------------------- 5. JSON-lines tokens with line ends


@pytest.mark.parametrize("char, name", [("\u2028", "U+2028 (LINE SEPARATOR)"), ("\u2029", "U+2029 (PARAGRAPH "
                                        "SEPARATOR)"), ("\x85", "U+0085 (NEXT LINE)"), ("\x0c", "FF")])
@pytest.mark.parametrize("ascii_json", [True, False])
def test_a_jsonl_token_holding_a_line_separator_is_refused_at_its_line(home, capsys, monkeypatch, char, name,
                                                                       ascii_json):
    rows = [{"tokens": ["EU", "rejects"], "ner_tags": ["B-ORG", "O"]},
            {"tokens": ["Peter", f"a{char}b"], "ner_tags": ["B-PER", "O"]}]
    (home / "x.jsonl").write_text("".join(json.dumps(r, ensure_ascii=ascii_json) + "\n" for r in rows),
                                  encoding="utf-8")
    before = _snapshot(home)
    status, out, err = _run(home, ["stats", "x.jsonl"], capsys, monkeypatch)
    _check(home, before, status, err)
    assert status == 2
    shown = f"a\\u{ord(char):04x}b" if char != "\x0c" else "a\\fb"
    assert _error(err) == (f'x.jsonl:2: "tokens": token 2 ("{shown}") holds {name}, a line end to many tools: a token '
                           "is a non-empty string without spaces, TABs or line ends (as in a CoNLL column)")
    assert len(err.splitlines()) == len(err.split("\n")) - 1  # the message is one line to str.splitlines too


# ----------------------------------------------------------------------------- 6. a label named twice

ROWS = "".join(json.dumps({"tokens": ["EU", "rejects", "Peter"], "ner_tags": [1, 0, 3], "document_id": d}) + "\n"
               for d in range(2))
NAMES = ["O", "B-ORG", "I-ORG", "B-PER", "B-ORG"]


@pytest.mark.parametrize("where", ["label_names.json", "dataset_info.json", "--label-names json",
                                   "--label-names lines"])
def test_a_label_vocabulary_naming_one_label_twice_is_refused_at_its_line(home, capsys, monkeypatch, where):
    (home / "x.jsonl").write_text(ROWS, encoding="utf-8")
    extra: list[str] = []
    if where == "label_names.json":
        name, text, line = "label_names.json", json.dumps(NAMES, indent=1), 6
    elif where == "dataset_info.json":
        info = {"description": "B-ORG", "features": {"tokens": {"feature": {"dtype": "string"}},
                                                     "ner_tags": {"feature": {"names": NAMES}}}}
        name, text = "dataset_info.json", json.dumps(info, indent=2)
        line = [i for i, x in enumerate(text.splitlines(), 1) if '"B-ORG"' in x][-1]
    elif where == "--label-names json":
        name, text, line = "names.json", json.dumps(NAMES, indent=1), 6
        extra = ["--label-names", name]
    else:
        name, text, line = "names.txt", "\n".join(NAMES) + "\n", 5
        extra = ["--label-names", name]
    (home / name).write_text(text, encoding="utf-8")
    before = _snapshot(home)
    status, out, err = _run(home, ["stats", "x.jsonl", *extra], capsys, monkeypatch)
    _check(home, before, status, err)
    assert status == 2
    assert _error(err).startswith(f"{name}:{line}: ") and "label id 4 is named 'B-ORG', as id 1 is" in err


def test_label_names_given_from_python_are_checked_too(tmp_path):
    (tmp_path / "x.jsonl").write_text(ROWS, encoding="utf-8")
    with pytest.raises(InputError, match="label_names: label id 4 is named 'B-ORG', as id 1 is"):
        read_jsonl(tmp_path / "x.jsonl", label_names=NAMES)
    with pytest.raises(InputError, match="label_names: label id 4 is named 'B-ORG', as id 1 is"):
        fold_predictions([["EU"]], np.array([[1]]), [[0]], NAMES, tmp_path / "fold-0-0.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jsonl"]


def test_a_saved_dataset_naming_one_label_twice_is_refused_at_its_line(home, capsys, monkeypatch):
    datasets = pytest.importorskip("datasets", reason="the datasets extra is not installed")
    folder = home / "ds"
    feats = datasets.Features({"tokens": datasets.Sequence(datasets.Value("string")),
                               "ner_tags": datasets.Sequence(datasets.ClassLabel(names=NAMES[:4]))})
    datasets.Dataset.from_dict({"tokens": [["EU", "rejects"]], "ner_tags": [[1, 0]]},
                               features=feats).save_to_disk(str(folder))
    capsys.readouterr()
    info = folder / "dataset_info.json"
    text = info.read_text(encoding="utf-8").replace('"B-PER"', '"B-PER",\n"B-ORG"')
    info.write_text(text, encoding="utf-8")
    line = next(i for i, x in enumerate(text.splitlines(), 1) if x == '"B-ORG"')
    before = _snapshot(home)
    status, out, err = _run(home, ["stats", "ds"], capsys, monkeypatch)
    _check(home, before, status, err)
    assert status == 2 and _error(err).startswith(f"{info.relative_to(home)}:{line}: label id 4 is named 'B-ORG'")
