"""Every input opened once and read within limits: a file (gzip decompressed), a pipe, a FIFO, a device.

A non-regular input is read once, whole, and its bytes kept for later readers. Past a limit (:data:`MAX_FILE_BYTES`,
:data:`MAX_LINE_BYTES`, :data:`MAX_JSON_BYTES`) reading stops with an InputError at ``FILE:LINE``.
See docs/formats.md, "Pipes, devices and limits".
"""

from __future__ import annotations

import io
import os
import stat
import time
import zlib
from typing import IO, TYPE_CHECKING

from textbcv.errors import InputError

if TYPE_CHECKING:
    import gzip

__all__ = ["open_bytes", "read_bytes", "file_sha256", "read_error", "MAX_FILE_BYTES", "MAX_LINE_BYTES",
           "MAX_JSON_BYTES", "FIFO_WAIT", "GZIP_MAGIC"]

GZIP_MAGIC = b"\x1f\x8b"
#: Most bytes one input may hold, after gzip decompression (1 GiB).
MAX_FILE_BYTES = 1 << 30
#: Most bytes one line may hold, between two line ends (16 MiB).
MAX_LINE_BYTES = 1 << 24
#: Most bytes one JSON file may hold (256 MiB).
MAX_JSON_BYTES = 1 << 28
#: Seconds a named FIFO may stay without a writer before it is refused.
FIFO_WAIT = 5.0
_BLOCK = 1 << 20
#: The bytes of every input that is not a regular file, by (device, inode): read once, kept (or why they could not
#: be, said again to every later reader).
_KEPT: dict[tuple[int, int], bytes | InputError] = {}


def _size(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} bytes"


def read_error(e: OSError, name: str) -> InputError:
    """The :class:`InputError` for an ``OSError`` met opening or reading ``name``."""
    if isinstance(e, FileNotFoundError):
        return InputError("no such file", file=name)
    if isinstance(e, IsADirectoryError):
        return InputError("is a directory, not a file", file=name)
    return InputError(f"cannot read: {e.strerror or e}", file=name)


def _line_ends(data: bytes) -> int:
    """Line ends (LF, CRLF, CR) in ``data``."""
    if len(data) < 1 << 16:
        n = data.count(b"\n")
        return n + data.count(b"\r") - data.count(b"\r\n") if b"\r" in data else n
    import numpy as np  # much faster than bytes.count on a large block; imported only for large inputs

    b = np.frombuffer(data, dtype=np.uint8)
    n = int(np.count_nonzero(b == 10))
    return n + int(np.count_nonzero(b == 13)) - data.count(b"\r\n") if b"\r" in data else n


def _overlong(data: bytes, carried: int, limit: int) -> tuple[int, int]:
    """Where in ``data`` a line first passes ``limit`` (-1: none), and the bytes of the line still open."""
    n = len(data)
    start = -carried  # where the open line starts, relative to data
    while start + limit < n:
        end = start + limit + 1  # the open line must end before this offset
        k = max(data.rfind(b"\n", max(start, 0), end), data.rfind(b"\r", max(start, 0), end))
        if k < 0:
            return max(start + limit, 0), 0
        start = k + 1
    lo = max(start, 0)
    k = max(data.rfind(b"\n", lo), data.rfind(b"\r", lo))
    return -1, n - (k + 1 if k >= 0 else start)


class _Limits:
    """Counts the bytes and lines read from one input and stops it past a limit."""

    __slots__ = ("name", "limit", "line_limit", "total", "lines", "carried", "_last")

    def __init__(self, name: str, limit: int, line_limit: int | None):
        self.name, self.limit, self.line_limit = name, limit, line_limit
        self.total = self.lines = self.carried = 0
        self._last = b""  # the block before: its lines are counted only when another comes (a whole file: never)

    def add(self, data: bytes) -> None:
        self.total += len(data)
        if self.total > self.limit:
            raise InputError(f"larger than {_size(self.limit)}: more than textbcv reads from one input "
                             "(limits: docs/formats.md)", file=self.name)
        if self.line_limit is None:
            return
        if self._last:
            self.lines += _line_ends(self._last) - (self._last[-1:] == b"\r" and data[:1] == b"\n")  # CR|LF: one
        at, self.carried = _overlong(data, self.carried, self.line_limit)
        if at >= 0:
            raise InputError(f"a line longer than {_size(self.line_limit)}: not a text file textbcv can read "
                             "(limits: docs/formats.md)", file=self.name,
                             line=self.lines + _line_ends(data[:at]) + 1)
        self._last = data


class BoundedReader:
    """A binary stream of one input that stops with an InputError past the file or line limit."""

    def __init__(self, f: IO[bytes] | gzip.GzipFile, limits: _Limits, gzipped: bool):
        self._f, self._limits, self._gzipped = f, limits, gzipped

    def read(self, n: int | None = -1) -> bytes:
        """Up to ``n`` bytes (all that is left for ``n`` None or negative)."""
        try:
            if n is None or n < 0:
                parts: list[bytes] = []
                while True:
                    block = self._f.read(_BLOCK)
                    if not block:
                        return b"".join(parts)
                    self._limits.add(block)
                    parts.append(block)
            data = self._f.read(n)
        except (OSError, EOFError, zlib.error) as e:
            if self._gzipped:
                raise InputError(f"not a valid gzip file ({e})", file=self._limits.name) from None
            raise InputError(f"cannot read: {getattr(e, 'strerror', None) or e}", file=self._limits.name) from None
        self._limits.add(data)
        return data

    def close(self) -> None:
        """Close the underlying file."""
        self._f.close()

    def __enter__(self) -> BoundedReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _wait_for_writer(fd: int, name: str) -> bytes:
    """The first bytes of a named FIFO, once a program writes to it; InputError after :data:`FIFO_WAIT` s."""
    deadline = time.monotonic() + FIFO_WAIT
    while True:
        try:
            first = os.read(fd, _BLOCK)
        except BlockingIOError:  # a writer is there, its bytes to come
            first = b""
            break
        if first:
            break
        if time.monotonic() > deadline:  # still no writer (a FIFO without one reads as its end)
            raise InputError(f"a FIFO that no program wrote to within {FIFO_WAIT:g} s: textbcv reads a FIFO once, "
                             "as a stream, while a program writes it (or give a regular file)", file=name)
        time.sleep(0.05)
    os.set_blocking(fd, True)
    return first


def _stream(fd: int, st: os.stat_result, name: str, limit: int, line_limit: int | None) -> bytes:
    """All the bytes of a non-regular input, read once, within the limits."""
    first = b""
    if stat.S_ISFIFO(st.st_mode) and not os.path.basename(os.path.realpath(name)).startswith("pipe:["):
        first = _wait_for_writer(fd, name)
    else:
        os.set_blocking(fd, True)
    limits = _Limits(name, limit, line_limit)
    parts: list[bytes] = []
    block = first
    while True:
        if not block:
            block = os.read(fd, _BLOCK)
            if not block:
                break
        if not parts:  # gzip bytes have no lines; their text is checked as it is decompressed
            limits.line_limit = None if block[:2] == GZIP_MAGIC else line_limit
        limits.add(block)
        parts.append(block)
        block = b""
    return b"".join(parts)


def _open(path: str | os.PathLike, limit: int, line_limit: int | None) -> tuple[IO[bytes], int | None, bytes]:
    """The input as a binary file, its size (None for kept stream bytes), and its first two bytes."""
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise read_error(e, name) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputError("is a directory, not a file", file=name)
        if stat.S_ISREG(st.st_mode):
            os.set_blocking(fd, True)
            head = os.pread(fd, 2, 0)  # not peek: a buffered file read from a later offset reads all slower
            f = os.fdopen(fd, "rb")
            fd = -1  # f holds it now
            return f, st.st_size, head
        key = (st.st_dev, st.st_ino)
        if key not in _KEPT:
            try:
                _KEPT[key] = _stream(fd, st, name, limit, line_limit)
            except OSError as e:
                _KEPT[key] = read_error(e, name)
            except InputError as e:
                _KEPT[key] = e
    except OSError as e:
        raise read_error(e, name) from None
    finally:
        if fd >= 0:
            os.close(fd)
    kept = _KEPT[key]
    if isinstance(kept, InputError):
        raise InputError(kept.message, file=kept.file, line=kept.line)
    return io.BytesIO(kept), None, kept[:2]


def open_bytes(path: str | os.PathLike, limit: int = MAX_FILE_BYTES,
               line_limit: int | None = MAX_LINE_BYTES) -> BoundedReader:
    """Open the input ``path`` for reading bytes within the limits; gzip is decompressed on the fly.

    Parameters
    ----------
    path : str or path-like
    limit : int
        Most bytes to read, after decompression.
    line_limit : int or None
        Most bytes of one line; None for binary data.

    Returns
    -------
    BoundedReader

    Raises
    ------
    InputError
        For a missing, unreadable or directory path; while reading, past a limit or for a broken gzip file.
    """
    name = os.fspath(path)
    f, size, head = _open(path, limit, line_limit)
    if head == GZIP_MAGIC:
        import gzip  # only when a gzip file is read: keeps `textbcv --help` fast

        return BoundedReader(gzip.GzipFile(fileobj=f, mode="rb"), _Limits(name, limit, line_limit), True)
    if size is not None and size > limit:
        f.close()
        raise InputError(f"larger than {_size(limit)}: more than textbcv reads from one input "
                         "(limits: docs/formats.md)", file=name)
    return BoundedReader(f, _Limits(name, limit, line_limit), False)


def read_bytes(path: str | os.PathLike, limit: int = MAX_FILE_BYTES, line_limit: int | None = MAX_LINE_BYTES
               ) -> bytes:
    """The bytes of the input ``path`` (:func:`open_bytes`), decompressed when it is a gzip file.

    Examples
    --------
    >>> import gzip, tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "a.txt.gz")
    >>> _ = open(p, "wb").write(gzip.compress(b"a b\\n"))
    >>> read_bytes(p)
    b'a b\\n'
    """
    name = os.fspath(path)
    f, size, head = _open(path, limit, line_limit)
    with f:
        if size is not None and size > limit:
            raise InputError(f"larger than {_size(limit)}: more than textbcv reads from one input "
                             "(limits: docs/formats.md)", file=name)
        try:
            data = f.read()  # one read of the whole file: its size is known
        except OSError as e:
            raise read_error(e, name) from None
    limits = _Limits(name, limit, line_limit)
    if head == GZIP_MAGIC:
        return _gunzip(data, limits)
    limits.add(data)
    return data


def _gunzip(data: bytes, limits: _Limits) -> bytes:
    """The decompressed bytes of every gzip member of ``data``, within ``limits``."""
    parts = []
    while data[:2] == GZIP_MAGIC:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out = d.decompress(data, limits.limit - limits.total + 1)
        except zlib.error as e:
            raise InputError(f"not a valid gzip file ({e})", file=limits.name) from None
        limits.add(out)  # past the limit: stops here
        if not d.eof:
            raise InputError("not a valid gzip file (it ends inside its data: truncated?)", file=limits.name)
        parts.append(out)
        data = d.unused_data
    if data.strip(b"\0"):
        raise InputError("not a valid gzip file (other bytes after its data)", file=limits.name)
    return b"".join(parts)


def file_sha256(path: str | os.PathLike) -> str:
    """SHA-256 (hex) of the input's bytes as they are (a gzip file is not decompressed).

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> _ = open(p, "wb").write(b"abc")
    >>> file_sha256(p)[:16]
    'ba7816bf8f01cfea'
    """
    import hashlib

    h = hashlib.sha256()
    f, _, _ = _open(path, MAX_FILE_BYTES, MAX_LINE_BYTES)
    with f:
        try:
            for block in iter(lambda: f.read(_BLOCK), b""):
                h.update(block)
        except OSError as e:
            raise read_error(e, os.fspath(path)) from None
    return h.hexdigest()
