"""Which corpus format a file is in, from its first 64 KB (and its extension).

conllu: ten TAB-separated fields, the first a word ID; conll: (almost) every line has the same number of
columns, tags in the last or sentences over several lines; segmented: the number of words varies by line.

A ``--format`` that contradicts a decisive guess is refused with the likely format named; when the content
cannot tell, the extension decides, or the user must.

Examples
--------
>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> p = os.path.join(d, "x.txt")
>>> _ = open(p, "w").write("EU B-ORG\\nrejects O\\n\\nPeter B-PER\\nBlackburn I-PER\\n")
>>> check_format([p], "segmented")
Traceback (most recent call last):
...
textbcv.errors.InputError: .../x.txt: format="segmented" does not fit this file: it looks like conll
(2 columns, tags in the last); use format="conll" (or leave format out)
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from textbcv._io import check_encoding, open_bytes
from textbcv.corpus._text import split_fields
from textbcv.errors import InputError
from textbcv.schemes import SCHEMES

__all__ = ["FormatGuess", "sniff_format", "check_format", "FORMATS", "file_stem", "CORPUS_EXTENSIONS"]

FORMATS = ("conll", "conllu", "segmented", "jsonl", "arrow", "docbin")
SAMPLE_BYTES = 1 << 16
_ID = re.compile(r"[1-9][0-9]*(?:-[1-9][0-9]*|\.[1-9][0-9]*)?\Z")
_EXTENSIONS = {".jsonl": "jsonl", ".conllu": "conllu", ".conll": "conll", ".bio": "conll", ".iob": "conll",
               ".iob2": "conll", ".bioes": "conll", ".tsv": "conll"}


@dataclass(frozen=True)
class FormatGuess:
    """What :func:`sniff_format` found.

    Attributes
    ----------
    format : str or None
        ``"conll"``, ``"conllu"``, ``"segmented"``, or None when nothing tells.
    reason : str
        Why, in a few words.
    decisive : bool
        The content leaves no doubt.
    """

    format: str | None
    reason: str
    decisive: bool = False

    def to_dict(self) -> dict:
        """``{"format", "reason", "decisive"}``.

        Returns
        -------
        dict
        """
        return {"format": self.format, "reason": self.reason, "decisive": self.decisive}


def _sample(path: str, encoding: str) -> list[str]:
    """Up to 64 KB of whole lines of ``path``, decoded leniently."""
    with open_bytes(path) as f:
        try:
            data = f.read(SAMPLE_BYTES)
            more = f.read(1)
        except (OSError, EOFError):
            return []
    if more:
        cut = max(data.rfind(b"\n"), data.rfind(b"\r"))
        data = data[:cut] if cut > 0 else data
    text = data.decode(check_encoding(encoding), errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _extension(path: str) -> str:
    name = path.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return os.path.splitext(name)[1]


def sniff_format(path: str | os.PathLike, encoding: str = "utf-8") -> FormatGuess:
    """Guess the corpus format of ``path`` from its first 64 KB and its extension.

    Parameters
    ----------
    path : str or path-like
        Gzip files are decompressed.
    encoding : str

    Returns
    -------
    FormatGuess
        ``FormatGuess(None, "")`` when the file cannot be opened.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.conllu")
    >>> _ = open(p, "w").write("# text = go\\n1\\tgo\\tgo\\tVERB\\tVB\\t_\\t0\\troot\\t_\\t_\\n\\n")
    >>> sniff_format(p)
    FormatGuess(format='conllu', reason='10 TAB-separated fields with word IDs', decisive=True)
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        d = Path(path)
        if (d / "dataset_dict.json").is_file() or ((d / "state.json").is_file()
                                                   and (d / "dataset_info.json").is_file()):
            return FormatGuess("arrow", "a folder that datasets' save_to_disk wrote", True)
        return FormatGuess(None, "")
    if _extension(path) == ".spacy":
        return FormatGuess("docbin", "the extension .spacy (a spaCy DocBin)", True)
    ext = _EXTENSIONS.get(_extension(path))
    try:
        lines = _sample(path, encoding)
    except InputError:  # no such file, a directory...: the reader says so
        return FormatGuess(None, "")
    guess = _from_content(lines)
    if guess.decisive or guess.format is not None and ext in (None, guess.format):
        return guess
    if ext is not None:
        return FormatGuess(ext, "the extension "
                                f"{_extension(path)}" + (f"; the content: {guess.reason}" if guess.reason else ""))
    return guess


def _tag_pattern() -> re.Pattern:
    """``O`` or a tag of any scheme of :data:`~textbcv.schemes.SCHEMES` (read now: a scheme may be registered later)."""
    prefixes = sorted({p for s in SCHEMES.values() for p in s.prefixes}, key=lambda p: (-len(p), p))
    return re.compile(r"(?:O|(?:%s)(?:-\S+)?)\Z" % "|".join(map(re.escape, prefixes)))


def _from_content(lines: list[str]) -> FormatGuess:
    filled = [line for line in lines if line.strip(" \t")]
    if not filled:
        return FormatGuess(None, "")
    objects = sum(1 for line in filled if line.lstrip().startswith("{") and line.rstrip().endswith("}"))
    if objects >= 0.9 * len(filled):  # datasets-style JSON lines: never read as words or columns
        return FormatGuess("jsonl", "one JSON object per line, datasets-style", True)
    if filled[0].lstrip().startswith(("{", "[")) and filled[-1].rstrip().endswith(("}", "]", ",")):
        return FormatGuess(None, "a JSON document, not a corpus; datasets-style JSON lines hold one object per line")
    body = [line for line in filled if not line.startswith("#")]
    if body:
        ud = sum(1 for line in body if line.count("\t") == 9 and _ID.match(line.split("\t", 1)[0]))
        if ud == len(body):
            return FormatGuess("conllu", "10 TAB-separated fields with word IDs", True)
    rows = [split_fields(line) for line in filled]
    rows = [r for r in rows if r and r[0] != "-DOCSTART-"]
    if not rows:
        return FormatGuess("conll", "only -DOCSTART- lines")
    counts = Counter(map(len, rows))
    k, n_k = counts.most_common(1)[0]
    share = n_k / len(rows)
    # sentences over several lines: blocks of consecutive non-blank lines between blank lines
    blocks, size = [], 0
    for line in lines:
        if line.strip(" \t"):
            size += 1
        elif size:
            blocks.append(size)
            size = 0
    multi_line = len(blocks) >= 2 and sum(blocks) / len(blocks) >= 2
    last = [r[-1] for r in rows if len(r) >= 2]
    tag = _tag_pattern()
    tag_like = (len(last) >= 0.9 * len(rows) and sum(1 for t in last if tag.match(t)) >= 0.95 * len(last)
                and any(t == "O" or "-" in t for t in last))
    if share >= 0.9 and k >= 2:
        if tag_like:
            return FormatGuess("conll", f"{k} columns, tags in the last", True)
        if multi_line:
            return FormatGuess("conll", f"{k} columns, sentences over several lines", True)
        return FormatGuess("conll", f"{k} columns on every line")
    if tag_like:  # a column file with lines of other lengths: the reader says which
        return FormatGuess("conll", f"tags in the last column ({k} columns on most lines)", True)
    if share >= 0.9 and k == 1:
        if multi_line:
            return FormatGuess("conll", "one token per line, sentences between blank lines")
        return FormatGuess(None, "one field per line and no blank lines: a word list, or unsegmented text?")
    if share < 0.5 and len(rows) >= 5:
        return FormatGuess("segmented", f"{min(counts)} to {max(counts)} words per line", True)
    if multi_line:
        return FormatGuess("conll", f"{k} columns on most lines, sentences over several lines")
    return FormatGuess("segmented", "words per line vary")


def check_format(paths: Sequence[str | os.PathLike], format: str | None = None,
                 encoding: str = "utf-8") -> FormatGuess:
    """The format to read ``paths`` with, and why.

    Parameters
    ----------
    paths : sequence of path
        All in one format.
    format : str, optional
        ``--format``; None to detect it.
    encoding : str

    Returns
    -------
    FormatGuess
        ``reason`` is ``"--format F"`` for a given format, ``""`` when there was nothing to look at.

    Raises
    ------
    InputError
        When ``format`` contradicts a decisive guess, the files differ in format, or none can be told.
    """
    names: list[str] = [os.fspath(p) for p in paths]
    if format is not None and format not in FORMATS:
        raise InputError(f"unknown format {format!r} (formats: {', '.join(FORMATS)})")
    guesses = [(p, sniff_format(p, encoding)) for p in names]
    if format is not None:
        for p, g in guesses:
            if g.decisive and g.format != format:
                raise InputError(f'{{format}}="{format}" does not fit this file: it looks like {g.format} '
                                 f'({g.reason}); '
                                 f'use {{format}}="{g.format}" (or leave {{format}} out)', file=p, param="format")
        return FormatGuess(format, f"--format {format}", True)
    found = {g.format for _, g in guesses if g.format is not None}
    if len(found) > 1:
        first: dict[str, tuple[str, FormatGuess]] = {}
        for p, g in guesses:
            if g.format is not None:
                first.setdefault(g.format, (p, g))
        (pa, ga), (pb, gb) = list(first.values())[:2]
        raise InputError(f"the files are in different formats: {pa} looks like {ga.format} ({ga.reason}), "
                         f"{pb} like {gb.format} ({gb.reason}); give {{format}}, or read them separately",
                         param="format")
    if not found:
        p, g = guesses[0]
        if not g.reason:  # nothing to read (no file, no text): the reader says what is wrong
            return FormatGuess("conll", "", False)
        raise InputError(f"cannot tell the format ({g.reason}); give {{format}} ({', '.join(FORMATS)})", file=p,
                         param="format")
    fmt = found.pop()
    reasons = sorted({g.reason for _, g in guesses if g.format == fmt})
    return FormatGuess(fmt, "; ".join(reasons), all(g.decisive for _, g in guesses if g.format == fmt))


#: Extensions dropped from a corpus file's name to make its stem (a held-out file's folder of predictions).
CORPUS_EXTENSIONS = (".conll", ".conllu", ".txt", ".utf8", ".tsv", ".bio", ".iob", ".bmes", ".col")


def file_stem(path: str | os.PathLike) -> str:
    """A file's base name without its first matching ``CORPUS_EXTENSIONS`` entry (case-insensitive).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    str

    Examples
    --------
    >>> file_stem("ud/zh_gsd-ud-test.conllu"), file_stem("conll2003/eng.testb")
    ('zh_gsd-ud-test', 'eng.testb')
    """
    name = Path(path).name
    for ext in CORPUS_EXTENSIONS:
        if name.lower().endswith(ext) and len(name) > len(ext):
            return name[: -len(ext)]
    return name
