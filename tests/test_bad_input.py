"""Bad input to every command: exit 2, one line ``textbcv: error: ...``, nothing else, no output left behind.

Each case writes its input files into a fresh directory, runs ``textbcv``
(in-process through :func:`textbcv.cli.main`; a sample of cases also as a
real process) and checks that

* the exit status is 2, stdout is empty, no warning was emitted, and stderr
  is exactly one line starting ``textbcv: error: `` (with ``FILE:LINE: ``
  or ``FILE: `` where a file is at fault);
* the directory holds exactly what it held before, byte for byte: no
  ``--out`` file or directory appeared and no existing file changed.

``compare`` cases fail before any training (they are cheap; a run that
would start is limited by ``--max-iterations 1``). The cases here are new:
tests/test_corpus_errors.py, tests/test_score_cli.py, tests/test_stats_cli.py
and tests/test_pipeline.py hold others.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

import pytest

from textbcv.cli import main
from textbcv.split import split_units

ROOT = Path(__file__).resolve().parents[1]
NER = str(ROOT / "corpora" / "ner_en.conll")

# 8 sentences, 1 document
TINY = "".join(f"w{i} NN B-NP {'B-PER' if i % 2 else 'O'}\nx NN I-NP O\n\n" for i in range(8))
CONLLU_1 = "1\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n\n"
FOLDS = {"tp": 5, "fp": 1, "fn": 2}
COUNTS = json.dumps({"m": 1, "systems": {"A": [FOLDS, FOLDS], "B": [FOLDS, FOLDS]}}, indent=1)


def fold_line(system="A", split=0, direction=0, counts=None) -> str:
    return json.dumps({"system": system, "split": split, "direction": direction,
                       "counts": {"overall": FOLDS} if counts is None else counts})


FOLDS_JSONL = "".join(fold_line(s, 0, k) + "\n" for s in "AB" for k in (0, 1))
COMPARE = ["compare", NER, "--task", "ner", "--systems", "iob2,iobes", "--quiet", "--no-plots",
           "--max-iterations", "1", "--out", "{d}/run"]


def C(name, argv, where, message, files=None, absent=()):
    """A case: argv (``{d}`` = its directory, ``{NER}`` = bundled corpus), expected ``FILE[:LINE]`` or None."""
    return pytest.param(argv, files or {}, where, message, absent, id=name)


CASES = [
    # ---------------------------------------------------------------- stats (corpus files and options)
    C("stats-conllu-empty-form", ["stats", "{d}/x.conllu", "--format", "conllu"], "{d}/x.conllu:2", "empty FORM",
      {"x.conllu": "1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n2\t\t_\tX\t_\t_\t1\tdep\t_\t_\n\n"}),
    C("stats-conllu-empty-node-out-of-order", ["stats", "{d}/x.conllu", "--format", "conllu"], "{d}/x.conllu:2",
      "empty node '3.1' out of order",
      {"x.conllu": "1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n3.1\tx\t_\tX\t_\t_\t_\t_\t_\t_\n\n"}),
    C("stats-conllu-descending-range", ["stats", "{d}/x.conllu", "--format", "conllu"], "{d}/x.conllu:4",
      "bad range ID '2-1'",
      {"x.conllu": "# c\n1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n\n2-1\tab\t_\t_\t_\t_\t_\t_\t_\t_\n\n"}),
    C("stats-scheme-given-tag-not-of-scheme", ["stats", "{d}/x.conll", "--scheme", "iob2"], "{d}/x.conll:5",
      "tag 'S-PER' is not a tag of --scheme iob2",
      {"x.conll": "a NN B-NP B-PER\nb NN I-NP I-PER\n\nc NN B-NP O\nd NN I-NP S-PER\n\n"}),
    C("stats-tag-of-no-scheme", ["stats", "{d}/x.conll", "--columns", "token,ner"], "{d}/x.conll:4",
      "tag 'X-PER' is not a tag of any scheme", {"x.conll": "-DOCSTART- O\n\na B-PER\nb X-PER\n\n"}),
    C("stats-second-file-at-fault", ["stats", "{d}/a.conll", "{d}/b.conll"], "{d}/b.conll:3", "expected 4 columns",
      {"a.conll": TINY, "b.conll": "a NN B-NP O\n\nb NN O\n\n"}),
    C("stats-crlf-line-numbers", ["stats", "{d}/x.conll"], "{d}/x.conll:4", "expected 4 columns",
      {"x.conll": b"\xef\xbb\xbfa NN B-NP O\r\n\r\nb NN B-NP O\r\nc NN O\r\n"}),
    C("stats-file-is-directory", ["stats", "{d}/sub"], "{d}/sub", "is a directory", {"sub/keep": ""}),
    C("stats-scheme-with-segmented", ["stats", "{d}/x.txt", "--format", "segmented", "--scheme", "iob2"], None,
      "--scheme applies to --format conll only", {"x.txt": "中国  人民\n"}),
    C("stats-empty-columns", ["stats", "{d}/x.conll", "--columns", ""], None, "unknown role ''", {"x.conll": TINY}),
    C("stats-docstart-only", ["stats", "{d}/x.conll"], "{d}/x.conll:1", "no sentences",
      {"x.conll": "-DOCSTART- -X- -X- O\n\n"}),
    C("compare-docstart-only", ["compare", "{d}/a.conll", "{d}/x.conll", "--task", "ner", "--systems", "iob2,iobes",
                                "--out", "{d}/run"], "{d}/x.conll:1", "no sentences",
      {"a.conll": TINY, "x.conll": "-DOCSTART- -X- -X- O\n"}, ["run"]),
    C("stats-no-file", ["stats"], None, "the following arguments are required: FILE"),
    C("stats-segmented-ideographic-spaces-only", ["stats", "{d}/x.txt", "--format", "segmented"], "{d}/x.txt:1",
      "file is empty", {"x.txt": "\u3000\u3000\n\t\n"}),
    # ---------------------------------------------------------------- split
    C("split-m-0", ["split", "{d}/x.conll", "--m", "0", "--out", "{d}/s.json"], None, "--m must be at least 1",
      {"x.conll": TINY}, ["s.json"]),
    C("split-negative-seed", ["split", "{d}/x.conll", "--seed", "-1", "--out", "{d}/s.json"], None,
      "--seed must be a non-negative integer", {"x.conll": TINY}, ["s.json"]),
    C("split-negative-effort", ["split", "{d}/x.conll", "--effort", "-1", "--out", "{d}/s.json"], None,
      "--effort must be a non-negative number", {"x.conll": TINY}, ["s.json"]),
    C("split-nan-effort", ["split", "{d}/x.conll", "--effort", "nan", "--out", "{d}/s.json"], None,
      "--effort must be a non-negative number", {"x.conll": TINY}, ["s.json"]),
    C("split-unknown-balance", ["split", "{d}/x.conll", "--balance", "label,colour", "--out", "{d}/s.json"], None,
      "unknown balance measure 'colour'", {"x.conll": TINY}, ["s.json"]),
    C("split-out-is-directory", ["split", "{d}/x.conll", "--out", "{d}/outdir"], "{d}/outdir", "is a directory",
      {"x.conll": TINY, "outdir/keep": "k"}),
    C("split-out-below-a-file", ["split", "{d}/x.conll", "--out", "{d}/x.conll/s.json"], "{d}/x.conll/s.json",
      "is a file, not a directory", {"x.conll": TINY}),
    C("split-three-sentences", ["split", "{d}/x.conll", "--out", "{d}/s.json"], None, "at least 4 units",
      {"x.conll": "a NN B-NP O\n\nb NN B-NP O\n\nc NN B-NP O\n\n"}, ["s.json"]),
    C("split-m-too-large", ["split", "{d}/x.conll", "--m", "100", "--out", "{d}/s.json"], None,
      "m = 100 is impossible with 8 units", {"x.conll": TINY}, ["s.json"]),
    C("split-one-document", ["split", "{d}/x.conll", "--group-by", "document", "--out", "{d}/s.json"], None,
      "at least 4 units (or groups)", {"x.conll": TINY}, ["s.json"]),
    C("split-unknown-method", ["split", "{d}/x.conll", "--method", "kfold9", "--out", "{d}/s.json"], None,
      "invalid choice: 'kfold9'", {"x.conll": TINY}, ["s.json"]),
    C("split-bad-corpus-keeps-old-manifest", ["split", "{d}/x.conll", "--out", "{d}/s.json", "--force"],
      "{d}/x.conll:2", "expected 4 columns", {"x.conll": "a NN B-NP O\nb O\n\n", "s.json": "previous manifest\n"}),
    C("split-out-exists-without-force", ["split", "{d}/x.conll", "--out", "{d}/s.json"], "{d}/s.json",
      "the file exists; add --force", {"x.conll": TINY, "s.json": "my notes\n"}),
    C("split-no-out", ["split", "{d}/x.conll"], None, "the following arguments are required: --out", {"x.conll": TINY}),
    C("split-m-not-integer", ["split", "{d}/x.conll", "--m", "three", "--out", "{d}/s.json"], None,
      "invalid int value: 'three'", {"x.conll": TINY}, ["s.json"]),
    # ---------------------------------------------------------------- score
    C("score-file-is-directory", ["score", "{d}/sub"], "{d}/sub", "is a directory", {"sub/keep": ""}),
    C("score-bom-crlf-bad-gold-tag", ["score", "{d}/p.txt", "--scheme", "bmes"], "{d}/p.txt:3",
      "gold tag 'I' is not a tag of BMES", {"p.txt": b"\xef\xbb\xbfa B B\r\nb E E\r\nc I S\r\n"}),
    C("score-column-change-after-blank-lines", ["score", "{d}/p.txt"], "{d}/p.txt:5",
      "expected 4 columns as on line 1, found 3", {"p.txt": "a NN O O\n\n\t\n\nb O O\n"}),
    C("score-docstart-only-json", ["score", "{d}/p.txt", "--json"], "{d}/p.txt", "no tokens",
      {"p.txt": "-DOCSTART- O O\n\n-X- O O\n"}),
    C("score-invalid-utf8-after-bom", ["score", "{d}/p.txt"], "{d}/p.txt:3", "invalid UTF-8",
      {"p.txt": b"\xef\xbb\xbfa O O\r\n\r\nb\xc3 O O\r\n"}),
    C("score-no-file", ["score"], None, "the following arguments are required: FILE"),
    C("score-conlleval-is-not-encodable-scheme", ["score", "{d}/p.txt", "--scheme", "bioes2"], None,
      "unknown tagging scheme 'bioes2'", {"p.txt": "a O O\n"}),
    # ---------------------------------------------------------------- test
    C("test-invalid-utf8-counts", ["test", "{d}/c.json"], "{d}/c.json:3", "invalid UTF-8",
      {"c.json": b'{"m": 1,\n "systems":\n {"\xe9": []}}\n'}),
    C("test-nested-too-deeply", ["test", "{d}/c.json"], "{d}/c.json", "nested too deeply", {"c.json": "[" * 100_000}),
    C("test-5000-digit-integer", ["test", "{d}/c.json"], "{d}/c.json", "not valid JSON",
      {"c.json": '{"m": 1' + "0" * 5000 + ', "systems": {}}'}),
    C("test-count-above-1e15", ["test", "{d}/c.json"], "{d}/c.json:5", "more than 10^15",
      {"c.json": COUNTS.replace('"fp": 1', '"fp": 10000000000000001', 1)}),
    C("test-counts-is-array", ["test", "{d}/c.json"], "{d}/c.json:1", "expected a JSON object", {"c.json": "[1, 2]\n"}),
    C("test-alpha-0", ["test", "{d}/c.json", "--alpha", "0"], None, "--alpha must lie strictly between 0 and 1",
      {"c.json": COUNTS}),
    C("test-rope-150", ["test", "{d}/c.json", "--rope", "150"], None, "--rope must lie in [0, 100) points",
      {"c.json": COUNTS}),
    C("test-threshold-below-half", ["test", "{d}/c.json", "--threshold", "0.4"], None,
      "--threshold must lie in [0.5, 1)", {"c.json": COUNTS}),
    C("test-rho-without-rho1", ["test", "{d}/c.json", "--variant", "rho"], None,
      "--variant rho needs --rho1 and --rho2", {"c.json": COUNTS}),
    C("test-type-with-json", ["test", "{d}/c.json", "--type", "PER"], "{d}/c.json",
      "--type applies to a folds.jsonl only", {"c.json": COUNTS}),
    C("test-type-unknown", ["test", "{d}/folds.jsonl", "--type", "nosuch"], "{d}/folds.jsonl",
      "--type nosuch: no chunk of type 'nosuch' in any fold (types: PER)",
      {"folds.jsonl": "".join(fold_line(s, 0, k, {"overall": FOLDS, "types": {"PER": FOLDS}}) + "\n"
                              for s in "AB" for k in (0, 1))}),
    C("test-unknown-variant", ["test", "{d}/c.json", "--variant", "nosuch"], None,
      "--variant: unknown variant 'nosuch'", {"c.json": COUNTS}),
    C("test-draws-0", ["test", "{d}/c.json", "--draws", "0"], None, "--draws must be at least 1", {"c.json": COUNTS}),
    C("test-missing-file", ["test", "{d}/none.json"], "{d}/none.json", "no such file"),
    C("test-jsonl-invalid-utf8", ["test", "{d}/folds.jsonl"], "{d}/folds.jsonl:2", "invalid UTF-8",
      {"folds.jsonl": FOLDS_JSONL.encode().replace(b'"A", "split": 0, "direction": 1',
                                                    b'"\xff", "split": 0, "direction": 1')}),
    C("test-jsonl-huge-split", ["test", "{d}/folds.jsonl"], "{d}/folds.jsonl",
      "1999999999 of 2m = 2000000002 folds missing", {"folds.jsonl": FOLDS_JSONL + fold_line("A", 10**9) + "\n"}),
    C("test-jsonl-line-not-object", ["test", "{d}/folds.jsonl"], "{d}/folds.jsonl:3",
      "expected one JSON object per line",
      {"folds.jsonl": FOLDS_JSONL.replace("\n", "\n[1]\n", 2).replace("\n[1]\n", "\n", 1)}),
    C("test-jsonl-direction-2", ["test", "{d}/folds.jsonl"], "{d}/folds.jsonl:5", '"direction" must be 0 or 1, got 2',
      {"folds.jsonl": FOLDS_JSONL + fold_line("B", 0, 2) + "\n"}),
    C("test-jsonl-deeply-nested-line", ["test", "{d}/folds.jsonl"], "{d}/folds.jsonl:2", "nested too deeply",
      {"folds.jsonl": fold_line() + "\n" + "[" * 100_000 + "\n"}),
    # ---------------------------------------------------------------- compare (all fail before training)
    C("compare-negative-seed", COMPARE + ["--seed", "-1"], None, "--seed must be a non-negative integer",
      absent=["run"]),
    C("compare-out-is-file", COMPARE[:-1] + ["{d}/f.txt"], "{d}/f.txt", "--out must be a directory",
      {"f.txt": "keep\n"}),
    C("compare-out-below-file", COMPARE[:-1] + ["{d}/f.txt/run"], "{d}/f.txt/run", "f.txt is a file, not a directory",
      {"f.txt": "keep\n"}),
    C("compare-previous-run-without-resume", COMPARE, "{d}/run", "add --resume", {"run/folds.jsonl": FOLDS_JSONL}),
    C("compare-resume-folds-invalid-utf8", COMPARE + ["--resume"], "{d}/run/folds.jsonl:2", "invalid UTF-8",
      {"run/folds.jsonl": b"\n\xc3(\n"}),
    C("compare-resume-fold-without-counts", COMPARE + ["--resume"], "{d}/run/folds.jsonl:2", "not a fold record",
      {"run/folds.jsonl": fold_line() + "\n" + json.dumps({"system": "iob2", "split": 0, "direction": 0}) + "\n"}),
    C("compare-resume-fold-bad-counts", COMPARE + ["--resume"], "{d}/run/folds.jsonl:1",
      "counts.overall.tp must be a non-negative integer",
      {"run/folds.jsonl": fold_line("iob2", counts={"overall": {"tp": "5", "fp": 1, "fn": 2}}) + "\n"}),
    C("compare-resume-other-splits", COMPARE + ["--resume"], "{d}/run/splits.json", "the saved splits differ",
      {"run/splits.json": split_units(8, 1).dumps()}),
    C("compare-resume-splits-not-json", COMPARE + ["--resume"], "{d}/run/splits.json:2", "not valid JSON",
      {"run/splits.json": "{\n"}),
    C("compare-ner-without-tags", ["compare", "{d}/x.conllu", "--format", "conllu", "--task", "ner", "--systems",
                                   "iob2,iobes", "--out", "{d}/run"], "{d}/x.conllu:1", "needs a tag column",
      {"x.conllu": CONLLU_1}, ["run"]),
    C("compare-template-file-missing", COMPARE[:5] + ["iob2,iob2+{d}/none.json"] + COMPARE[6:], "{d}/none.json",
      "cannot read feature template", absent=["run"]),
    C("compare-template-window-too-wide", COMPARE[:5] + ["iob2,iob2+{d}/t.json"] + COMPARE[6:], "{d}/t.json",
      "window offsets must be within [-8, 8]", {"t.json": '{"name": "wide", "atoms": ["w"], "window": [-99, 0]}'},
      ["run"]),
    C("compare-template-not-object", COMPARE[:5] + ["iob2,iob2+{d}/t.json"] + COMPARE[6:], "{d}/t.json",
      "expected a JSON object, got list", {"t.json": '["w"]'}, ["run"]),
    C("compare-one-document", ["compare", "{d}/x.conll", "--task", "ner", "--systems", "iob2,iobes", "--group-by",
                               "document", "--out", "{d}/run"], None, "--group-by document: the corpus marks no "
      "documents (-DOCSTART-, # newdoc or document ids), fewer than the 15 clusters a variance is measured over",
      {"x.conll": TINY}, ["run"]),
    C("compare-out-not-a-run", COMPARE, "{d}/run", "--out: the directory is not empty and holds no textbcv run "
      "(thesis.tex)", {"run/thesis.tex": "keep\n"}),
    C("compare-systems-trailing-comma", COMPARE[:5] + ["iob2,", "iobes"] + COMPARE[6:], None,
      "argument --systems: an empty name in 'iob2,'", absent=["run"]),
    C("compare-template-reads-missing-column", ["compare", "{d}/x.conll", "--task", "ner", "--systems",
                                                "iob2,iobes+wordshape", "--out", "{d}/run"], None,
      "feature template 'wordshape' reads the pos column, which the corpus does not have (its columns besides tokens "
      "and tags: none); templates that fit: ner-words, ner-rich-words, or a .json template",
      {"x.conll": "".join(f"w{i} {'B-PER' if i % 2 else 'O'}\nx O\n\n" for i in range(8))}, ["run"]),
    C("compare-rho-without-rho1", COMPARE + ["--variant", "rho"], None, "--variant rho needs --rho1 and --rho2",
      absent=["run"]),
    C("compare-m-max-below-start", COMPARE + ["--sequential", "--m-max", "2"], None, "--m-max must be at least 3",
      absent=["run"]),
    C("compare-threshold-below-half", COMPARE + ["--threshold", "0.3"], None, "--threshold must lie in [0.5, 1)",
      absent=["run"]),
    C("compare-rope-200", COMPARE + ["--rope", "200"], None, "--rope must lie in [0, 100) points", absent=["run"]),
    C("compare-rope-negative", COMPARE + ["--rope", "-1"], None, "--rope must lie in [0, 100) points", absent=["run"]),
    C("compare-negative-c1", COMPARE + ["--c1", "-1"], None, "--c1 must be a finite non-negative number",
      absent=["run"]),
    C("compare-max-iterations-0", COMPARE + ["--max-iterations", "0"], None, "--max-iterations must be at least 1",
      absent=["run"]),
    C("compare-m-and-sequential", COMPARE + ["--m", "3", "--sequential"], None, "not allowed with argument",
      absent=["run"]),
    C("compare-no-task", [a for a in COMPARE if a not in ("--task", "ner")], None,
      "the following arguments are required: --task", absent=["run"]),
    # ---------------------------------------------------------------- report
    C("report-no-directory", ["report", "{d}/nowhere"], "{d}/nowhere", "no report.json here"),
    C("report-md-invalid-utf8", ["report", "{d}/run", "--markdown"], "{d}/run/report.md:2", "invalid UTF-8",
      {"run/report.md": b"# Report\n\xff\xfe\n"}),
    C("report-md-is-directory", ["report", "{d}/run", "--markdown"], "{d}/run", "no report.md here",
      {"run/report.md/x": ""}),
    C("report-no-dir-argument", ["report"], None, "the following arguments are required: DIR"),
    # ---------------------------------------------------------------- demo
    C("demo-m-0", ["demo", "--out", "{d}/demo", "--m", "0"], None, "--m must be at least 1", absent=["demo"]),
    C("demo-jobs-0", ["demo", "--out", "{d}/demo", "--jobs", "0"], None, "--jobs must be at least 1", absent=["demo"]),
    C("demo-out-is-file", ["demo", "--out", "{d}/f.txt", "--quiet"], "{d}/f.txt/ner", "f.txt is a file",
      {"f.txt": "keep\n"}),
    C("demo-m-too-large", ["demo", "--out", "{d}/demo", "--m", "4096", "--quiet"], None, "m = 4096 is impossible",
      absent=["demo"]),
    C("demo-unknown-option", ["demo", "--out", "{d}/demo", "--fast"], None, "unrecognized arguments: --fast",
      absent=["demo"]),
]


def _prepare(tmp_path: Path, files: dict) -> None:
    import hashlib

    run = {}  # files of a run directory "run/": it gets the manifest textbcv would have written
    for name, content in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        p.write_bytes(data)
        if name in ("run/folds.jsonl", "run/splits.json"):
            run[name[4:]] = "append" if name.endswith("folds.jsonl") else hashlib.sha256(data).hexdigest()
    if run:
        manifest = {"format": "textbcv-run 1", "textbcv": "0.1.0", "files": {"folds.jsonl": "append", **run}}
        (tmp_path / "run" / "textbcv-run.json").write_text(json.dumps(manifest), encoding="utf-8")


def _snapshot(root: Path) -> dict:
    """Every path under ``root`` with its bytes (None for directories)."""
    return {str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes()) for p in sorted(root.rglob("*"))}


def _fill(s: str, d: Path) -> str:
    return s.replace("{d}", str(d)).replace("{NER}", NER)


def _check_error(err: str, where: str | None, message: str) -> None:
    lines = err.split("\n")
    assert len(lines) == 2 and lines[1] == "", f"expected exactly one line on stderr, got {err!r}"
    line = lines[0]
    assert line.startswith("textbcv: error: "), line
    assert "Traceback" not in err
    if where is not None:
        assert line.startswith(f"textbcv: error: {where}: "), f"{line!r} does not name {where}"
    else:
        assert not line.startswith("textbcv: error: /"), f"{line!r} names a file; the case expects none"
    assert message in line, f"{message!r} not in {line!r}"


@pytest.mark.parametrize("argv, files, where, message, absent", CASES)
def test_bad_input(tmp_path, monkeypatch, capsys, argv, files, where, message, absent):
    _prepare(tmp_path, files)
    before = _snapshot(tmp_path)
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status = main([_fill(a, tmp_path) for a in argv])
    out, err = capsys.readouterr()
    assert status == 2, err
    assert out == ""
    assert [str(w.message) for w in caught] == []
    _check_error(err, None if where is None else _fill(where, tmp_path), message)
    for a in absent:
        assert not (tmp_path / a).exists(), f"{a} left behind"
    assert _snapshot(tmp_path) == before, "the error changed, created or left files"


def test_enough_cases_for_every_command():
    per_command = Counter(p.values[0][0] for p in CASES)
    assert set(per_command) == {"stats", "split", "score", "test", "compare", "report", "demo"}
    assert len(CASES) >= 40 and min(per_command.values()) >= 4, per_command


# One case per command as a real process: what the user sees, with interpreter start-up and exit.
# The processes run side by side (each is mostly start-up).
SUBPROCESS = ["stats-tag-of-no-scheme", "split-out-is-directory", "score-bom-crlf-bad-gold-tag",
              "test-jsonl-huge-split", "compare-resume-fold-without-counts", "report-md-invalid-utf8", "demo-m-0"]


def test_bad_input_as_processes(tmp_path):
    runs = []
    for case in (p for p in CASES if p.id in SUBPROCESS):
        argv, files, where, message, absent = case.values
        d = tmp_path / case.id
        d.mkdir()
        _prepare(d, files)
        proc = subprocess.Popen([sys.executable, "-m", "textbcv", *(_fill(a, d) for a in argv)], cwd=d, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        runs.append((case.id, d, _snapshot(d), proc, where, message))
    assert len(runs) == len(SUBPROCESS)
    for name, d, before, proc, where, message in runs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 2, (name, err)
        assert out == "", name
        _check_error(err, None if where is None else _fill(where, d), message)
        assert _snapshot(d) == before, name
