"""Small file helpers shared by every stage: reading text and JSON, atomic writes, stable JSON.

Every file is read through :func:`read_bytes` (:mod:`textbcv._inputs`) and decoded by :func:`decode_text`.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from textbcv._inputs import MAX_FILE_BYTES, MAX_JSON_BYTES, file_sha256, open_bytes, read_bytes
from textbcv._inputs import read_error as _read_error
from textbcv.errors import InputError

__all__ = [
    "atomic_write", "atomic_write_all", "check_writable", "dumps_json", "write_json", "append_line", "temp_prefix",
    "remove_stale_temps",
    "check_not_input", "safe_stem", "file_sha256",
    "read_bytes", "open_bytes", "decode_text", "read_text", "check_encoding", "line_at",
    "loads_json", "load_json", "load_json_lines", "cut_torn", "json_count", "MAX_COUNT", "MAX_FILE_BYTES",
    "MAX_JSON_BYTES",
]

UTF8_BOM = b"\xef\xbb\xbf"
#: Largest count accepted in a counts file: far above any corpus, and exact in float arithmetic.
MAX_COUNT = 10**15


# ----------------------------------------------------------------------------- reading


def check_encoding(encoding: str) -> str:
    """The canonical name of a text encoding; InputError naming ``--encoding`` if there is no such codec.

    Examples
    --------
    >>> check_encoding("Latin-1"), check_encoding("utf8")
    ('iso8859-1', 'utf-8')
    """
    try:
        info = codecs.lookup(encoding)
    except (LookupError, TypeError, ValueError):
        raise InputError(f"encoding: unknown text encoding {encoding!r} (e.g. utf-8, latin-1, cp1252, gb18030)",
                         param="encoding") from None
    if not hasattr(info, "_is_text_encoding") or info._is_text_encoding:
        return info.name
    raise InputError(f"encoding: {encoding!r} is not a text encoding", param="encoding")


def line_at(data: bytes | str, offset: int) -> int:
    """1-based number of the line holding ``data[offset]``; LF, CRLF and a lone CR each end a line.

    Examples
    --------
    >>> line_at(b"a\\r\\nb\\rc\\nd", 7), line_at("a\\nb", 0)
    (4, 1)
    """
    if isinstance(data, str):
        return data.count("\n", 0, offset) + data.count("\r", 0, offset) - data.count("\r\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + data.count(b"\r", 0, offset) - data.count(b"\r\n", 0, offset) + 1


ENCODING_HINT = "if the file is not UTF-8, give its encoding (e.g. --encoding latin-1)"


def decode_text(data: bytes, name: str, encoding: str = "utf-8", *, offset: int = 0, first_line: int = 1,
                hint: str = ENCODING_HINT) -> str:
    """Decode ``data`` read from file ``name``; a leading byte-order mark is dropped.

    Parameters
    ----------
    data : bytes
    name : str
    encoding : str
    offset, first_line : int
        Where ``data`` starts in the file.
    hint : str
        Said after an invalid UTF-8 byte.

    Raises
    ------
    InputError
        ``FILE:LINE`` with the byte and its offset for bytes invalid in ``encoding``, or a UTF-8 byte-order mark
        under another encoding.

    Examples
    --------
    >>> decode_text(b"ok\\ncaf\\xe9\\n", "a.txt")
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: a.txt:2: invalid UTF-8: byte 0xe9 at byte offset 6;
    if the file is not UTF-8, give its encoding (e.g. --encoding latin-1)
    """
    if encoding in ("utf-8", "utf8", "UTF-8"):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(f"invalid UTF-8: byte 0x{data[e.start]:02x} at byte offset {offset + e.start}; {hint}",
                             file=name, line=first_line + line_at(data, e.start) - 1) from None
    else:
        if offset == 0 and data.startswith(UTF8_BOM) and codecs.lookup(encoding).name != "utf-8-sig":
            raise InputError(f"starts with a UTF-8 byte-order mark, so it is UTF-8, not {encoding}; drop --encoding",
                             file=name, line=1)
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as e:
            raise InputError(f"not valid {encoding}: byte 0x{data[e.start]:02x} at byte offset {offset + e.start} "
                             f"({e.reason})",
                             file=name, line=first_line + line_at(data, e.start) - 1) from None
    if offset == 0 and text.startswith("\ufeff"):
        text = text[1:]
    return text


def read_text(path: str | os.PathLike, encoding: str = "utf-8", hint: str = ENCODING_HINT,
              limit: int = MAX_FILE_BYTES) -> str:
    """The text of ``path`` (gzip transparent, byte-order mark dropped, line ends kept)."""
    return decode_text(read_bytes(path, limit), os.fspath(path), encoding, hint=hint)


class _DuplicateKey(Exception):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise _DuplicateKey(k)
            seen.add(k)
    return out


def loads_json(text: str, file: str, line: int | None = None) -> Any:
    """``json.loads`` with every failure, and a key given twice, an InputError naming ``file`` and line.

    Examples
    --------
    >>> loads_json('{"w": 1, "w": 2}', "x.json")
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: x.json: not valid JSON: the key "w" is given twice in one object
    """
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except _DuplicateKey as e:
        raise InputError(f"not valid JSON: the key {json.dumps(e.args[0], ensure_ascii=False)} is given twice in "
                         "one object", file, line) from None
    except json.JSONDecodeError as e:
        raise InputError(f"not valid JSON: {e.msg}", file, e.lineno if line is None else line) from None
    except RecursionError:
        raise InputError("not valid JSON: nested too deeply", file, line) from None
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise InputError(f"not valid JSON: {e}", file, line) from None


JSON_HINT = "JSON files are UTF-8"


def load_json(path: str | os.PathLike) -> Any:
    """The JSON value in the UTF-8 file ``path``; InputError naming the file and line otherwise."""
    return loads_json(read_text(path, hint=JSON_HINT, limit=MAX_JSON_BYTES), os.fspath(path))


def load_json_lines(path: str | os.PathLike, torn: str = "ignore") -> list[tuple[int, Any]]:
    """``(line number, value)`` of every non-blank line of a JSON-lines file.

    A last line without its newline is left out (``torn="ignore"``) or also cut from the file (``"truncate"``).

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.jsonl")
    >>> _ = open(p, "w").write('{"a": 1}\\n\\n[2]\\n{"tor')
    >>> load_json_lines(p)
    [(1, {'a': 1}), (3, [2])]
    """
    name = os.fspath(path)
    data = read_bytes(path)
    end = data.rfind(b"\n") + 1
    text = decode_text(data[:end], name, hint=JSON_HINT)
    rows = [(no, loads_json(line, name, no)) for no, line in enumerate(text.split("\n")[:-1], 1)
            if line.strip(" \t\r")]  # blank: JSON white space only (no U+2028 & co)
    if end < len(data) and torn == "truncate":  # only once the rest has read: a refused file is left as it was
        cut_torn(path, end)
    return rows


def cut_torn(path: str | os.PathLike, end: int | None = None) -> None:
    """Cut a last line without its newline (a write torn by a killed run) from ``path``; ``end``: where it starts,
    if known.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.jsonl")
    >>> _ = open(p, "w").write('[1]\\n{"tor')
    >>> cut_torn(p); open(p).read()
    '[1]\\n'
    """
    try:
        if end is None:
            data = read_bytes(path)
            end = data.rfind(b"\n") + 1
            if end == len(data):
                return
        with open(path, "r+b") as f:
            f.truncate(end)
    except OSError as e:
        raise _read_error(e, os.fspath(path)) from None


def json_count(value: Any, where: str, file: str | None = None, line: int | None = None) -> int:
    """A chunk count read from JSON: an integer in [0, 10^15] (``3.0`` is read as 3).

    Examples
    --------
    >>> json_count(1.5, "counts.overall.fp")
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: counts.overall.fp must be a non-negative integer, got 1.5
    """
    ok = not isinstance(value, bool) and (
        isinstance(value, int) or (isinstance(value, float) and value == value and abs(value) != float("inf")
                                   and value == int(value)))
    if not ok or value < 0:
        raise InputError(f"{where} must be a non-negative integer, got {_show(value)}", file, line)
    if value > MAX_COUNT:
        raise InputError(f"{where} is {_show(value)}, more than 10^15: not a chunk count", file, line)
    return int(value)


def _show(v: Any) -> str:
    """A short JSON rendering of a value for an error message."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10**30:
        text = f"{str(v)[:12]}... ({len(str(abs(v)))} digits)"
    else:
        text = json.dumps(v, allow_nan=True, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


# ----------------------------------------------------------------------------- writing


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8",
                 durable: bool = True) -> Iterator[IO]:
    """Open a temporary file beside ``path``; rename it onto ``path`` only on success.

    An exception leaves ``path`` untouched; an ``OSError`` while writing becomes an InputError naming ``path``.
    ``durable`` (default) flushes the file to the disk before the rename (``fsync``), so that a crash leaves the
    old file or the new one; False skips it for a file that nothing reads back after a crash (a cache, an input
    made again on every run).

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
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600 files; give the usual permissions
        try:
            os.replace(tmp, path)
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror or e}", file=str(path)) from None
    except OSError as e:  # a full disk, a quota: one line naming the file, and the old file (if any) untouched
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise InputError(f"cannot write: {e.strerror or e}", file=str(path)) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_all(files: Mapping[Path, bytes]) -> None:
    """Write several files all or none; a failure leaves every target as it was (InputError).

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> atomic_write_all({Path(d, "a.txt"): b"a", Path(d, "b.txt"): b"b"})
    >>> sorted(os.listdir(d))
    ['a.txt', 'b.txt']
    """
    temps: list[tuple[str, Path]] = []
    try:
        for target, data in files.items():
            path = Path(target)
            fd, tmp = _open_temp(path)
            temps.append((tmp, path))
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.chmod(tmp, 0o666 & ~_umask())
            except OSError as e:
                raise InputError(f"cannot write: {e.strerror or e}", file=str(path)) from None
        for tmp, path in temps:
            try:
                os.replace(tmp, path)
            except OSError as e:
                raise InputError(f"cannot write: {e.strerror or e}", file=str(path)) from None
    finally:
        for tmp, _ in temps:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def check_writable(path: str | os.PathLike, directory: bool = False) -> None:
    """InputError unless ``path`` can become a file (a directory with ``directory``); nothing is created.

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> check_writable(d)
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: ...: is a directory; give a file name
    """
    path = Path(path)
    if path.exists():
        if path.is_dir() and not directory:
            raise InputError("is a directory; give a file name", file=str(path))
        if not path.is_dir() and not path.is_file():  # written through or replaced, a device or pipe would be lost
            raise InputError(f"is {_special_kind(path)}, not a regular file: textbcv writes only regular files (and "
                             f"folders); choose another name", file=str(path))
        if not path.is_dir() and directory:
            raise InputError("is a file, not a directory", file=str(path))
        return
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise InputError(f"cannot write here: {parent} is a file, not a directory", file=str(path))
            return


def _special_kind(path: Path) -> str:
    """What a path that is neither a regular file nor a folder is, as a noun phrase ("a FIFO", ...)."""
    mode = path.stat().st_mode
    for test, kind in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


def safe_stem(name: str) -> str:
    """A file-name stem for a system name that can never leave its folder; distinct names give distinct stems.

    Examples
    --------
    >>> safe_stem("iobes+wordshape"), safe_stem("iob2+../../x/tpl.json")
    ('iobes+wordshape', 'iob2+.._.._x_tpl.json-537877d4')
    """
    import hashlib
    import re

    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+@=-]{0,120}", name) and ".." not in name:
        return name
    slug = re.sub(r"[^A-Za-z0-9._+@=-]", "_", name)[:80]  # no path separator survives
    slug = re.sub(r"^[^A-Za-z0-9]", "_", slug) or "_"  # nor a leading dot (hidden, or . and ..)
    return f"{slug}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def check_not_input(out: str | os.PathLike, inputs, option: str = "out") -> None:
    """InputError when the output ``out`` is one of the ``inputs`` (the same file, by any path).

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "in.conll"); _ = open(p, "w").write("x")
    >>> check_not_input(os.path.join(d, ".", "in.conll"), [p])
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: ...: --out is an input file: it would be replaced; choose another name
    """
    o = Path(out)
    for i in inputs:
        ip = Path(i)
        try:
            same = os.path.samefile(o, ip) if o.exists() and ip.exists() else o.resolve() == ip.resolve()
        except (OSError, RuntimeError):  # RuntimeError: a loop of links (Path.resolve), which is no input
            same = False
        if same:
            raise InputError(f"--{option.replace('_', '-')} is an input file: it would be replaced; choose another "
                             "name", file=str(out))


def _open_temp(path: Path) -> tuple[int, str]:
    check_writable(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temps(path)
        return tempfile.mkstemp(prefix=temp_prefix(path), suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror or e}", file=str(path)) from None


def temp_prefix(path: str | os.PathLike) -> str:
    """Prefix of a temporary file or folder written beside ``path``: hidden, and naming this process.

    >>> temp_prefix("out/report.json") == f".report.json.{os.getpid()}."
    True
    """
    return f".{Path(path).name}.{os.getpid()}."


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process, or no way to tell: keep its files
    return True


def remove_stale_temps(path: str | os.PathLike) -> list[str]:
    """Remove the :func:`temp_prefix` files and folders of dead processes beside ``path``; their names.

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> os.mkdir(os.path.join(d, ".folds.999999999.abc.tmp"))   # no such process
    >>> remove_stale_temps(os.path.join(d, "folds"))
    ['.folds.999999999.abc.tmp']
    """
    import re
    import shutil

    path = Path(path)
    pat = re.compile(re.escape(f".{path.name}.") + r"(\d+)\.[^/]*\.tmp")
    removed: list[str] = []
    try:
        entries = list(path.parent.iterdir())
    except OSError:
        return removed
    for p in sorted(entries):
        mt = pat.fullmatch(p.name)
        if mt is None or _alive(int(mt.group(1))):
            continue
        with contextlib.suppress(OSError):
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            else:
                p.unlink()
            removed.append(p.name)
    return removed


def dumps_json(obj: Any, indent: int | None = 2) -> str:
    """Serialise ``obj`` deterministically, keeping insertion order.

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
    """Append one line to ``path``, synced; a failed write is undone and raised as InputError.

    A reader must still drop a last line without its newline (a kill mid-write).

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "f.jsonl")
    >>> append_line(p, '{"a": 1}'); append_line(p, '{"a": 2}')
    >>> open(p).read()
    '{"a": 1}\\n{"a": 2}\\n'
    """
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror or e}", file=name) from None
    try:
        start = os.fstat(fd).st_size
        done = 0
        try:
            while done < len(data):
                n = os.write(fd, data[done:])
                if n <= 0:
                    raise OSError(28, "No space left on device")
                done += n
            os.fsync(fd)
        except OSError as e:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, start)
            raise InputError(f"cannot write: {e.strerror or e} (the line was not added)", file=name) from None
    finally:
        os.close(fd)
