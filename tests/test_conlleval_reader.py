"""The block-and-array conlleval reader against a line-by-line reference; conlleval.pl itself where available.

* hypothesis-generated files (any spacing, blank and boundary lines, line
  ends, long tags, tiny blocks) read by :func:`read_tag_stream` equal a plain
  line loop;
* ``TEXTBCV_CONLLEVAL_PL=/path/to/conlleval.pl``: the text report of
  ``textbcv score`` is byte-identical to conlleval.pl's on perturbed
  CoNLL-2003 files and on generated ones (skipped, with a message, without it:
  conlleval.pl is not shipped with textbcv).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import textbcv.corpus.conlleval as ce
from textbcv.cli import main
from textbcv.corpus.conlleval import read_tag_stream
from textbcv.errors import InputError

TAGS = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "B-MISC-X", "I-ORGANIZATION-LONG-NAME-XYZ",
        "B", "I", "E", "S", "M", "[", "]", ".", "B-0", "I-", "-", "O-X", "x" * 40]
TOKENS = ["EU", "rejects", "-X-", "-DOCSTART-", "ü", "中", "a\u00a0b", "\u3000", "x" * 30, "--", "O"]


def reference(data: bytes, docstart: str):
    """(gold, pred, token) per line, as conlleval.pl's loop sees it, by a plain loop over the lines."""
    text = data.decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    gold, pred, token = ["O"], ["O"], [False]
    ncols = None
    for no, line in enumerate(lines, 1):
        fields = [f for f in line.replace("\t", " ").split(" ") if f]
        if not fields:
            gold.append("O"), pred.append("O"), token.append(False)
            continue
        if ncols is None:
            ncols = len(fields)
        if len(fields) < 2 or len(fields) != ncols:
            return ("error", no)
        if fields[0] == "-X-" or (docstart == "boundary" and fields[0] == "-DOCSTART-"):
            gold.append("O"), pred.append("O"), token.append(False)
            continue
        gold.append(fields[-2]), pred.append(fields[-1]), token.append(True)
    if not any(token):
        return ("error", None)
    return gold, pred, token


@st.composite
def conlleval_files(draw):
    ncols = draw(st.integers(2, 4))
    seps = st.sampled_from([" ", " ", " ", "\t", "  ", " \t"])
    lines = []
    for _ in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(["token"] * 6 + ["blank", "spaces", "boundary"]))
        if kind == "blank":
            lines.append("")
        elif kind == "spaces":
            lines.append(draw(st.sampled_from([" ", "\t", "  \t "])))
        else:
            first = "-X-" if kind == "boundary" else draw(st.sampled_from(TOKENS))
            fields = [first] + [draw(st.sampled_from(TOKENS)) for _ in range(ncols - 3)] + \
                     [draw(st.sampled_from(TAGS)), draw(st.sampled_from(TAGS))]
            fields = fields[-ncols:] if ncols < 3 else fields
            if ncols == 2:
                fields = [draw(st.sampled_from(TAGS)), draw(st.sampled_from(TAGS))]
            lead = draw(st.sampled_from(["", "", " ", "\t"]))
            trail = draw(st.sampled_from(["", "", "", " ", "\t "]))
            line = lead + "".join(f + draw(seps) for f in fields[:-1]) + fields[-1] + trail
            if draw(st.integers(0, 30)) == 0:
                line += " extra"
            lines.append(line)
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = end.join(lines) + draw(st.sampled_from([end, ""]))
    bom = draw(st.sampled_from([b"", b"", b"\xef\xbb\xbf"]))
    return bom + text.encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(data=conlleval_files(), docstart=st.sampled_from(["boundary", "token"]), block=st.sampled_from([8, 64, 1 << 20]))
def test_stream_equals_line_loop(tmp_path_factory, data, docstart, block):
    path = tmp_path_factory.mktemp("c") / "p.txt"
    path.write_bytes(data)
    want = reference(data, docstart)
    old = ce.BLOCK
    ce.BLOCK = block
    try:
        got = read_tag_stream(path, docstart=docstart)
    except InputError as e:
        assert want[0] == "error", f"{e} but the line loop reads it"
        if want[1] is not None:
            assert e.line == want[1], str(e)
        return
    finally:
        ce.BLOCK = old
    assert want[0] != "error", f"read, but line {want[1]} is malformed"
    gold, pred, token = want
    assert [got.vocab[c] for c in got.gold.tolist()] == gold
    assert [got.vocab[c] for c in got.pred.tolist()] == pred
    assert got.token.tolist() == token


def test_regular_and_any_spacing_agree(tmp_path):
    """The separator-grid fast path and the byte-by-byte path give the same spans."""
    import numpy as np

    rng = random.Random(3)
    lines = []
    for _ in range(500):
        if rng.random() < 0.1:
            lines.append("")
        else:
            lines.append(" ".join([rng.choice(TOKENS), rng.choice(TAGS), rng.choice(TAGS)]))
    data = ("\n".join(lines) + "\n").encode()
    b = np.frombuffer(data, dtype=np.uint8)
    newline = np.flatnonzero(b == 10)
    space = np.flatnonzero(b <= 32)
    regular = ce._regular_fields(data, b, newline, 3, space, b[space])
    assert regular is not None
    general = ce._any_fields(b, newline)
    assert (regular[0] == general[0]).all() and (regular[1] == general[1]).all()
    for x, y in zip(regular[2](3), general[2](3)):
        assert (x == y).all()


# ---------------------------------------------------------------- conlleval.pl itself (when available)

PERL = shutil.which("perl")
CONLLEVAL_PL = os.environ.get("TEXTBCV_CONLLEVAL_PL")
needs_conlleval = pytest.mark.skipif(
    not (PERL and CONLLEVAL_PL and Path(CONLLEVAL_PL).is_file()),
    reason="set TEXTBCV_CONLLEVAL_PL to a copy of conlleval.pl (not shipped with textbcv) to compare with it",
)


def conlleval_pl(path: Path) -> bytes:
    with open(path, "rb") as f:
        return subprocess.run([PERL, CONLLEVAL_PL], stdin=f, capture_output=True, check=True).stdout


def textbcv_report(path: Path) -> bytes:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["score", str(path)]) == 0, err.getvalue()
    return out.getvalue().encode()


def perturbed(lines: list[str], rng: random.Random, tags: list[str], p: float) -> str:
    out = []
    for line in lines:
        f = line.split()
        if not f:
            out.append("")
        elif f[0] == "-DOCSTART-":
            out.append(f"{f[0]} {f[-1]} {f[-1]}")
        else:
            out.append(f"{f[0]} {f[-1]} {rng.choice(tags) if rng.random() < p else f[-1]}")
    return "\n".join(out) + "\n"


@needs_conlleval
@pytest.mark.parametrize("name", ["eng.testa", "eng.testb"])
def test_report_byte_identical_to_conlleval_pl_on_perturbed_conll2003(shared, tmp_path, name):
    lines = shared("conll2003_en", name).read_text(encoding="utf-8").split("\n")
    tags = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "B-MISC", "I-MISC", "E-LOC", "S-ORG", "[", "."]
    for seed, p in [(1, 0.05), (2, 0.3)]:
        path = tmp_path / f"{name}.{seed}.txt"
        path.write_text(perturbed(lines, random.Random(seed), tags, p))
        assert textbcv_report(path) == conlleval_pl(path)


@needs_conlleval
@settings(max_examples=150, deadline=None)
@given(data=conlleval_files())
def test_report_byte_identical_to_conlleval_pl_on_generated_files(tmp_path_factory, data):
    # conlleval.pl splits at single spaces and counts fields per line: give it what both read alike
    text = data.decode("utf-8").lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = [" ".join(line.split(" ")) for line in text.split("\n")]
    lines = [" ".join(f for f in line.replace("\t", " ").split(" ") if f) for line in lines]
    path = tmp_path_factory.mktemp("pl") / "p.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    if reference(path.read_bytes(), "token")[0] == "error":
        return
    assert textbcv_report(path) == conlleval_pl(path)
