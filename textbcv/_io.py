"""Small file helpers shared by every stage: atomic writes and stable JSON."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from textbcv.errors import InputError

__all__ = ["atomic_write", "check_writable", "dumps_json", "write_json", "append_line"]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO]:
    """Open a temporary file beside ``path``; rename it onto ``path`` only on success.

    A crash or an exception inside the ``with`` block leaves no partial
    output file behind (and an existing ``path`` untouched).

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> with atomic_write(os.path.join(d, "x.txt")) as f:
    ...     _ = f.write("hello")
    >>> open(os.path.join(d, "x.txt")).read()
    'hello'
    """
    path = Path(path)
    fd, tmp = _open_temp(path)
    try:
        if "b" in mode:
            f = os.fdopen(fd, mode)
        else:
            f = os.fdopen(fd, mode, encoding=encoding, newline="")
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600 files; give the usual permissions
        try:
            os.replace(tmp, path)
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror or e}", file=str(path)) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def check_writable(path: str | os.PathLike, directory: bool = False) -> None:
    """InputError unless ``path`` can become a file (a directory with ``directory``).

    It may exist already (as a file, or as a directory with ``directory``);
    its nearest existing ancestor must be a directory. Nothing is created.

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> check_writable(os.path.join(d, "new", "x.json"))
    >>> check_writable(d)
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: ...: is a directory; give a file name
    """
    path = Path(path)
    if path.exists():
        if path.is_dir() and not directory:
            raise InputError("is a directory; give a file name", file=str(path))
        if not path.is_dir() and directory:
            raise InputError("is a file, not a directory", file=str(path))
        return
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise InputError(f"cannot write here: {parent} is a file, not a directory", file=str(path))
            return


def _open_temp(path: Path) -> tuple[int, str]:
    check_writable(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror or e}", file=str(path)) from None


def dumps_json(obj: Any, indent: int | None = 2) -> str:
    """Serialise ``obj`` deterministically (sorted keys are *not* forced; insertion order is kept).

    Examples
    --------
    >>> dumps_json({"b": 1, "a": [1, 2]}, indent=None)
    '{"b": 1, "a": [1, 2]}'
    """
    return json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False) + ("\n" if indent is not None else "")


def write_json(path: str | os.PathLike, obj: Any, indent: int | None = 2) -> None:
    """Write ``obj`` as JSON to ``path`` atomically."""
    with atomic_write(path) as f:
        f.write(dumps_json(obj, indent=indent))


def append_line(path: str | os.PathLike, line: str) -> None:
    """Append one line to ``path`` so that a killed process never leaves a torn line.

    The line is written with a single ``write`` call on a file opened with
    ``O_APPEND`` and synced; a reader must drop a last line without its
    newline (a kill mid-write), as :class:`textbcv.tagging.FoldStore` does.
    """
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    fd = os.open(os.fspath(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
