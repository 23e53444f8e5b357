"""Corpus text: the one definition of a line, a field and a token, shared by every text reader.

* Lines end at LF, CRLF or a lone CR, and nowhere else (not at U+2028, U+0085, form feed, ...).
* Fields are separated by runs of ASCII spaces and TABs only; any other space is part of its token.
  Segmented text also separates words at U+3000.
* A token is a non-empty string without an ASCII space, a TAB or a line end. A token given as a string (JSON lines,
  Arrow, DocBin) may not hold any character ``str.splitlines`` ends a line at either (U+2028, U+2029, U+0085, VT,
  FF, FS, GS, RS): written into the one-token-per-line files textbcv writes (exported folds, predictions) it would
  break the line for many readers.
* A line is blank (a sentence boundary) when it holds only spaces and TABs.

Examples
--------
>>> split_lines("a b\\r\\nc\\rd\\n")
['a b', 'c', 'd']
>>> split_fields("New\\u00a0York \\t B-LOC "), "New\\u00a0York B-LOC".split()
(['New\\xa0York', 'B-LOC'], ['New', 'York', 'B-LOC'])
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager

from textbcv._io import decode_text, read_bytes
from textbcv.errors import InputError

__all__ = ["read_lines", "load_lines", "load_text", "split_lines", "split_fields", "split_words", "split_all",
           "is_blank", "check_text", "token_problem", "first_bad_token", "long_lived", "has_other_spaces",
           "WORD_SEPARATORS", "LINE_BREAKS"]

#: Characters ``str.isspace`` calls white space other than space, TAB, LF and CR (none separates columns;
#: tests/test_corpus_bytes.py checks the list against ``str.isspace``).
OTHER_SPACES = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u1680",
                *map(chr, range(0x2000, 0x200B)), "\u2028", "\u2029", "\u202f", "\u205f", "\u3000")
_SEPARATORS = re.compile("[ \t]+")
#: Characters that separate the words of segmented text.
WORD_SEPARATORS = (" ", "\t", "\u3000")
_OTHER_SPACES = frozenset(OTHER_SPACES)
_ASCII_OTHER_SPACES = tuple(c for c in OTHER_SPACES if c < "\x80")


def has_other_spaces(text: str) -> bool:
    """Whether ``text`` holds a space that is not a column separator (``str.split`` would misread it).

    >>> has_other_spaces("a b\\tc"), has_other_spaces("New\\u00a0York"), has_other_spaces("中国 人")
    (False, True, False)
    """
    if text.isascii():
        return any(c in text for c in _ASCII_OTHER_SPACES)
    return not _OTHER_SPACES.isdisjoint(text)


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their ends (LF, CRLF or CR); no empty last line for a final line end."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def split_fields(line: str) -> list[str]:
    """The fields of ``line``: runs of characters between ASCII spaces and TABs."""
    line = line.strip(" \t")
    return _SEPARATORS.split(line) if line else []


def split_words(line: str) -> list[str]:
    """The words of a line of segmented text: runs of characters between ASCII spaces, TABs and U+3000.

    >>> split_words("中国\u3000人民  New\u00a0York")
    ['中国', '人民', 'New\xa0York']
    """
    return split_fields(line.replace("\u3000", " ") if "\u3000" in line else line)


#: Characters ``str.splitlines`` ends a line at besides LF and CR, and their names.
LINE_BREAKS = {"\x0b": "VT", "\x0c": "FF", "\x1c": "FS", "\x1d": "GS", "\x1e": "RS", "\x85": "U+0085 (NEXT LINE)",
               "\u2028": "U+2028 (LINE SEPARATOR)", "\u2029": "U+2029 (PARAGRAPH SEPARATOR)"}


def token_problem(token: object) -> str | None:
    """Why ``token`` cannot be a token (not a string, empty, or holding a space, TAB or line end), else None.

    >>> token_problem("New\u00a0York"), token_problem("New York"), token_problem("")
    (None, 'holds a space', 'is empty')
    >>> token_problem("a\u2028b")
    'holds U+2028 (LINE SEPARATOR), a line end to many tools'
    """
    if not isinstance(token, str):
        return "is not a string"
    if not token:
        return "is empty"
    for c, what in ((" ", "a space"), ("\t", "a TAB"), ("\n", "a line end"), ("\r", "a line end")):
        if c in token:
            return f"holds {what}"
    for c, name in LINE_BREAKS.items():
        if c in token:
            return f"holds {name}, a line end to many tools"
    return None


_NOT_IN_TOKENS = re.compile("[ \t\n\r" + "".join(LINE_BREAKS) + "]")


def first_bad_token(tokens: list) -> tuple[int, str] | None:
    """``(index, why)`` of the first of ``tokens`` that :func:`token_problem` refuses, else None.

    >>> first_bad_token(["EU", "New\u00a0York"]), first_bad_token(["EU", "", "x y"])
    (None, (1, 'is empty'))
    """
    if all(type(t) is str and t for t in tokens) and not _NOT_IN_TOKENS.search("x".join(tokens)):
        return None
    return next((k, why) for k, why in enumerate(map(token_problem, tokens)) if why)


def split_all(lines: list[str], text: str | None = None) -> list[list[str]]:
    """:func:`split_fields` of every line; ``text``, when given, is checked once for other spaces.

    >>> split_all(["a b", "", "c\\u3000d e"])
    [['a', 'b'], [], ['c\\u3000d', 'e']]
    """
    whole = text if text is not None else "\n".join(lines)
    if not has_other_spaces(whole):
        return list(map(str.split, lines))
    return list(map(split_fields, lines))


def is_blank(line: str) -> bool:
    """True for a sentence separator: an empty line or ASCII spaces and TABs only (e.g. a lone TAB)."""
    return not line.strip(" \t")


def check_text(text: str, name: str) -> None:
    """InputError for text that cannot be a corpus: a NUL character (a binary file)."""
    if "\x00" in text:
        raise InputError("NUL byte in text: this looks like a binary file", file=name,
                         line=text.count("\n", 0, text.index("\x00")) + 1)


def load_text(path: str | os.PathLike, encoding: str = "utf-8", blank: str = " \t", empty: bool = False
              ) -> tuple[str, int]:
    """``(text, n_lines)`` of a corpus file: decoded, line ends as LF, and its number of lines (no list of them).

    ``blank``: the characters a blank line may hold; ``empty``: read a file without any non-blank line.
    InputError for a missing file, undecodable bytes, a NUL byte or (unless ``empty``) no non-blank line.
    """
    name = os.fspath(path)
    text = decode_text(read_bytes(path), name, encoding)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    check_text(text, name)
    if not empty and not text.strip(blank + "\n"):
        raise InputError("file is empty (no sentences)", file=name, line=1)
    return text, text.count("\n") + (not text.endswith("\n") and bool(text))


def load_lines(path: str | os.PathLike, encoding: str = "utf-8", blank: str = " \t", empty: bool = False
               ) -> tuple[str, list[str]]:
    """``(text, lines)`` of a corpus file: decoded, line ends as LF, split into lines.

    ``blank``: the characters a blank line may hold; ``empty``: read a file without any non-blank line.
    InputError for a missing file, undecodable bytes, a NUL byte or (unless ``empty``) no non-blank line.
    """
    text, _ = load_text(path, encoding, blank, empty)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return text, lines


def read_lines(path: str | os.PathLike, encoding: str = "utf-8") -> list[str]:
    """The lines of a text file (BOM dropped, gzip decompressed); InputError for a bad, binary or empty file.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> _ = open(p, "wb").write(b"\\xef\\xbb\\xbfa b\\r\\nc d\\r\\n")
    >>> read_lines(p)
    ['a b', 'c d']
    """
    return load_lines(path, encoding)[1]


@contextmanager
def long_lived() -> Iterator[None]:
    """Pause the cyclic garbage collector while long-lived objects (a corpus) are built, then freeze them.

    A process that froze objects itself is left as it was.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
