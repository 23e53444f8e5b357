"""Reading a text file into lines, with errors that name the file and line."""

from __future__ import annotations

import os

from textbcv.errors import InputError

__all__ = ["read_lines", "is_blank"]


def read_lines(path: str | os.PathLike) -> list[str]:
    """The lines of a UTF-8 text file, without line ends.

    A UTF-8 byte-order mark is dropped and CRLF line ends are accepted; line
    numbers count ``\\n`` characters, as editors do.
    Invalid UTF-8, a missing file and an empty file raise :class:`InputError`
    naming the file (and the line, for invalid UTF-8).

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> _ = open(p, "wb").write(b"\\xef\\xbb\\xbfa b\\r\\nc d\\r\\n")
    >>> read_lines(p)
    ['a b', 'c d']
    """
    name = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise InputError("no such file", file=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", file=name) from None
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", file=name) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputError(f"invalid UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start}); files must be UTF-8", file=name, line=line) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError("NUL byte in text: this looks like a binary file", file=name, line=line)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" in text:
        lines = [l[:-1] if l.endswith("\r") else l for l in lines]
    if not any(l.strip() for l in lines):
        raise InputError("file is empty (no sentences)", file=name, line=1)
    return lines


def is_blank(line: str) -> bool:
    """True for a sentence separator: an empty line or white space only (e.g. a lone TAB)."""
    return not line or line.isspace()
