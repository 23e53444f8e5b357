"""conlleval input: one token per line, gold and predicted tag in the last two columns.

Columns are separated by runs of ASCII spaces and TABs; every non-blank line has the same number of
columns (at least 2). A blank line or a ``-X-`` line ends a sentence. ``-DOCSTART-`` is a token for
conlleval.pl; with ``docstart="boundary"`` it ends the sentence instead (docs/formats.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from textbcv._io import UTF8_BOM, atomic_write, check_encoding, decode_text, open_bytes
from textbcv.errors import InputError

__all__ = [
    "ConllevalSentence", "ConllevalFile", "TagStream", "read_conlleval", "read_tag_stream",
    "format_conlleval", "write_conlleval", "BOUNDARY", "DOCSTART",
]

BOUNDARY = "-X-"
DOCSTART = "-DOCSTART-"
#: Bytes read at a time (the arrays of one block stay in the allocator's reused memory).
BLOCK = 1 << 20
_MASKS = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9),
        np.uint64(0xD6E8FEB86659FD93))
_SLOT_BITS = 16
_MAX_WORDS = len(_MIX)  # tags of up to 32 bytes are coded with arrays; longer ones one by one


@dataclass(frozen=True)
class ConllevalSentence:
    """One sentence of conlleval input.

    Parameters
    ----------
    tokens : tuple of str
        First-column field of every token line.
    gold, pred : tuple of str
        Gold (next-to-last column) and predicted (last column) tags.
    line : int
        1-based line of the sentence's first token.
    """

    tokens: tuple[str, ...]
    gold: tuple[str, ...]
    pred: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class ConllevalFile:
    """A conlleval input file.

    Attributes
    ----------
    sentences : list of ConllevalSentence
    final_boundary : bool
        Whether a blank or ``-X-`` line follows the last token (conlleval.pl's counting can depend on it).
    columns : int
    path : str
    """

    sentences: list[ConllevalSentence]
    final_boundary: bool
    columns: int
    path: str

    @property
    def n_tokens(self) -> int:
        """Number of tokens over all sentences."""
        return sum(len(s.gold) for s in self.sentences)


@dataclass(frozen=True, eq=False)
class TagStream:
    """The tag columns of a conlleval file as integer codes, one entry per line.

    Entry 0 is a boundary before line 1; entry ``i`` is line ``i``. Blank and boundary lines have ``token``
    False and code 0 (``O``) on both sides, as conlleval.pl's loop sees them.

    Attributes
    ----------
    gold, pred : numpy.ndarray of int32
        Tag codes; ``vocab[c]`` is the tag of code ``c`` (``vocab[0]`` is ``O``).
    token : numpy.ndarray of bool
    vocab : list of str
    columns : int
    path : str
    tokens : list of str or None
        The first field of every token line, when asked for.
    """

    gold: np.ndarray
    pred: np.ndarray
    token: np.ndarray
    vocab: list[str]
    columns: int
    path: str
    tokens: list[str] | None = None

    @property
    def n_tokens(self) -> int:
        """Number of tokens."""
        return int(np.count_nonzero(self.token))

    @property
    def final_boundary(self) -> bool:
        """Whether a boundary line follows the last token."""
        return not self.token[-1]

    def line_of(self, index: int) -> int:
        """The 1-based line of stream entry ``index``, which is ``index`` itself.

        Parameters
        ----------
        index : int

        Returns
        -------
        int
        """
        return int(index)


# ----------------------------------------------------------------------------- reading


def _blocks(path: str, encoding: str) -> Iterator[tuple[bytes, int]]:
    """``(UTF-8 bytes with LF line ends, first line number)`` of consecutive blocks of whole lines."""
    enc = check_encoding(encoding)
    utf8 = enc == "utf-8"
    whole = "\n".encode(enc) != b"\n"
    line = 1
    pos = 0  # byte offset of the next block in the (decompressed) file
    rest = b""
    with open_bytes(path) as f:
        while True:
            try:
                chunk = f.read() if whole else f.read(BLOCK)
                if chunk.endswith(b"\r") and not whole:  # keep a CR LF pair together
                    chunk += f.read(1)
            except (OSError, EOFError) as e:
                raise InputError(f"cannot read: {getattr(e, 'strerror', None) or e}", file=path) from None
            data = rest + chunk
            if not data:
                return
            cut = len(data) if (whole or not chunk) else max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
            if cut == 0:
                rest = data
                continue
            block, rest = data[:cut], data[cut:]
            offset = pos
            pos += cut
            if offset == 0 and utf8 and block.startswith(UTF8_BOM):
                block = block[3:]
                offset = 3
            if b"\x00" in block:
                raise InputError("NUL byte in text: this looks like a binary file", file=path,
                                 line=line + _count_lines(block[:block.index(b"\x00")]))
            if not utf8:
                block = decode_text(block, path, enc, offset=offset, first_line=line).encode("utf-8")
            elif not block.isascii():
                decode_text(block, path, "utf-8", offset=offset, first_line=line)  # validates only
            if b"\r" in block:
                block = block.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            yield block, line
            line += int(np.count_nonzero(np.frombuffer(block, dtype=np.uint8) == 10))  # bytes.count is 20× slower
            if whole or not chunk:
                return


def _count_lines(data: bytes) -> int:
    """Line ends (LF, CRLF, CR) in ``data``."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


class _Codes:
    """Tag bytes -> code, shared by every block of a file (``O`` is 0)."""

    def __init__(self):
        self.code = {b"O": 0}
        self.tags = [b"O"]

    def get(self, tag: bytes) -> int:
        c = self.code.get(tag)
        if c is None:
            c = self.code[tag] = len(self.tags)
            self.tags.append(tag)
        return c

    def vocab(self) -> list[str]:
        return [t.decode("utf-8") for t in self.tags]


def _code_spans(data: bytes, starts: np.ndarray, ends: np.ndarray, codes: _Codes) -> np.ndarray:
    """Codes of the fields ``data[starts[i]:ends[i]]``, hashed with array operations (field by field on a clash)."""
    n = len(starts)
    if n == 0:
        return np.zeros(0, dtype=np.int32)
    lengths = ends - starts
    n_words = (int(lengths.max()) + 7) // 8
    if n_words > _MAX_WORDS:
        return _code_slowly(data, starts, ends, codes)
    buf = np.frombuffer(data + b"\0" * (8 * n_words), dtype=np.uint8)
    # every 8 bytes from every offset (a view, no copy); "S8" gathers faster than an unaligned uint64 view
    eights = np.ndarray(shape=(len(buf) - 7,), dtype="S8", buffer=buf, strides=(1,))
    keys = []
    mixed = None
    for j in range(n_words):
        k = eights.take(starts + 8 * j if j else starts).view("<u8")
        k &= _MASKS[np.minimum(lengths, 8) if j == 0 else np.clip(lengths - 8 * j, 0, 8)]
        keys.append(k)
        mixed = k * _MIX[j] if mixed is None else mixed ^ (k * _MIX[j])
    slot = (mixed >> np.uint64(64 - _SLOT_BITS)).astype(np.intp)
    size = 1 << _SLOT_BITS
    rep = np.empty(size, dtype=np.intp)
    rep[slot[::-1]] = np.arange(n - 1, -1, -1, dtype=np.intp)  # the last write wins: each slot's first field
    same = rep[slot]
    for k in keys:
        if not np.array_equal(k[same], k):
            return _code_slowly(data, starts, ends, codes)
    used = np.zeros(size, dtype=bool)
    used[slot] = True
    occupied = np.flatnonzero(used)
    occupied = occupied[np.argsort(rep[occupied], kind="stable")]  # codes in order of first occurrence
    lut = np.zeros(size, dtype=np.int32)
    for s in occupied.tolist():
        r = int(rep[s])
        lut[s] = codes.get(data[int(starts[r]):int(ends[r])])
    return lut[slot]


def _code_slowly(data: bytes, starts: np.ndarray, ends: np.ndarray, codes: _Codes) -> np.ndarray:
    get = codes.get
    return np.array([get(data[s:e]) for s, e in zip(starts.tolist(), ends.tolist())], dtype=np.int32)


def _fields_equal(b: np.ndarray, starts: np.ndarray, ends: np.ndarray, word: bytes) -> np.ndarray:
    """Which of the fields ``b[starts[i]:ends[i]]`` equal ``word`` (array operations)."""
    hit = (ends - starts) == len(word)
    idx = np.flatnonzero(hit)
    for j, byte in enumerate(word):
        if not len(idx):
            break
        ok = b[starts[idx] + j] == byte
        hit[idx[~ok]] = False
        idx = idx[ok]
    return hit


def _any_fields(b: np.ndarray, newline: np.ndarray):
    """``(filled, counts, spans)`` of the lines of a block, fields found byte by byte (any spacing)."""
    word = (b != 32) & (b != 9) & (b != 10)
    start = word.copy()
    start[1:] &= ~word[:-1]
    end = word.copy()
    end[:-1] &= ~word[1:]
    field_start = np.flatnonzero(start)
    field_end = np.flatnonzero(end) + 1
    upto = np.cumsum(start, dtype=np.int32)[np.minimum(newline, len(b) - 1)]
    counts = np.diff(upto, prepend=0)
    filled = counts > 0

    def spans(k: int):
        last = upto[filled] - 1
        first = last - (k - 1)
        return (field_start[first], field_end[first], field_start[last - 1], field_end[last - 1],
                field_start[last], field_end[last])

    return filled, counts, spans


def _regular_fields(data: bytes, b: np.ndarray, newline: np.ndarray, ncols: int, space: np.ndarray,
                    space_byte: np.ndarray):
    """:func:`_any_fields` for a block whose fields are joined by one space or TAB, or None for another block."""
    tab = b"\t" in data
    n = len(newline)
    line_start = np.empty(n, dtype=np.int64)
    line_start[0] = 0
    line_start[1:] = newline[:-1] + 1
    filled = newline > line_start
    rows = np.flatnonzero(filled)
    if not len(rows):
        return None
    k = ncols
    if k < 0:  # the first non-blank line sets the number of columns
        a, z = int(line_start[rows[0]]), int(newline[rows[0]])
        k = data.count(b" ", a, z) + (data.count(b"\t", a, z) if tab else 0) + 1
    if k < 2:
        return None
    sep = space[np.flatnonzero((space_byte == 32) | (space_byte == 9) if tab else space_byte == 32)]
    if len(sep) != (k - 1) * len(rows):
        return None
    # one separator between two fields: never two in a row, and each line's k - 1 of them inside it, neither on
    # its first byte nor on its last (the separators are sorted, so a line's first and last bound all of them)
    if (np.diff(sep) == 1).any():
        return None
    grid = sep.reshape(len(rows), k - 1)
    starts, ends = line_start[rows], newline[rows]
    if not ((grid[:, 0] > starts).all() and (grid[:, -1] < ends - 1).all()):
        return None
    counts = np.where(filled, k, 0)

    def spans(_k: int):
        gold_start = grid[:, -2] + 1 if k > 2 else starts
        return starts, grid[:, 0], gold_start, grid[:, -1], grid[:, -1] + 1, ends

    return filled, counts, spans


def read_tag_stream(path: str | os.PathLike, docstart: str = "boundary", encoding: str = "utf-8",
                    keep_tokens: bool = False) -> TagStream:
    """Read the tag columns of a conlleval input file without one Python object per token.

    Parameters
    ----------
    path : str or path-like
        A text file, or a gzip file of one.
    docstart : {"boundary", "token"}
        A ``-DOCSTART-`` line as a sentence boundary, or as a token (as conlleval.pl).
    encoding : str
    keep_tokens : bool
        Also keep the first field of every token line (as ``tokens``).

    Returns
    -------
    TagStream

    Raises
    ------
    InputError
        ``FILE:LINE`` for undecodable bytes, fewer than 2 columns or a column count unlike the first line's;
        ``FILE`` when the file holds no token.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> _ = open(p, "w").write("EU B-ORG B-ORG\\nrejects O B-MISC\\n\\n-X- O O\\nBonn B-LOC B-LOC\\n")
    >>> s = read_tag_stream(p)
    >>> s.pred.tolist(), s.token.tolist(), s.vocab
    ([0, 1, 3, 0, 0, 2], [False, True, True, False, False, True], ['O', 'B-ORG', 'B-LOC', 'B-MISC'])
    """
    if docstart not in ("boundary", "token"):
        raise ValueError(f"docstart must be 'boundary' or 'token', not {docstart!r}")
    name = os.fspath(path)
    codes = _Codes()
    gold_parts: list[np.ndarray] = [np.zeros(1, dtype=np.int32)]
    pred_parts: list[np.ndarray] = [np.zeros(1, dtype=np.int32)]
    token_parts: list[np.ndarray] = [np.zeros(1, dtype=bool)]
    tokens: list[str] | None = [] if keep_tokens else None
    ncols = -1
    ncols_line = 0
    any_text = False
    for data, first_line in _blocks(name, encoding):
        b = np.frombuffer(data, dtype=np.uint8)
        # one pass finds line ends and separators together (numpy finds these denser hits faster, too)
        space = np.flatnonzero(b <= 32)
        space_byte = b[space]
        newline = space[np.flatnonzero(space_byte == 10)]
        if len(b) and b[-1] != 10:
            newline = np.append(newline, len(b))  # a last line without its line end
        n_lines = len(newline)
        if not n_lines:
            continue
        fields = _regular_fields(data, b, newline, ncols, space, space_byte) or _any_fields(b, newline)
        filled, counts, spans = fields
        if filled.any():
            any_text = True
            if ncols < 0:
                i = int(np.argmax(filled))
                ncols, ncols_line = int(counts[i]), first_line + i
            bad = np.flatnonzero(filled & (counts != ncols))
            if ncols < 2 or len(bad):
                i = int(bad[0]) if ncols >= 2 else int(np.argmax(filled))
                n = int(counts[i])
                if n < 2:
                    text = data[(int(newline[i - 1]) + 1 if i else 0):int(newline[i])].decode("utf-8").strip(" \t")
                    raise InputError(f"expected at least 2 columns (token ... gold predicted), found {n}: {text!r}",
                                     file=name, line=first_line + i)
                raise InputError(f"expected {ncols} columns as on line {ncols_line}, found "
                                 f"{n}", file=name, line=first_line + i)
        first_start, first_end, gold_start, gold_end, pred_start, pred_end = spans(ncols)
        boundary = _fields_equal(b, first_start, first_end, BOUNDARY.encode())
        if docstart == "boundary":
            boundary |= _fields_equal(b, first_start, first_end, DOCSTART.encode())
        coded = _code_spans(data, np.concatenate((gold_start, pred_start)), np.concatenate((gold_end, pred_end)), codes)
        m = len(gold_start)
        g = np.zeros(n_lines, dtype=np.int32)
        p = np.zeros(n_lines, dtype=np.int32)
        tok = filled.copy()
        keep = ~boundary
        rows = np.flatnonzero(filled)
        g[rows[keep]] = coded[:m][keep]
        p[rows[keep]] = coded[m:][keep]
        tok[rows[boundary]] = False
        gold_parts.append(g)
        pred_parts.append(p)
        token_parts.append(tok)
        if tokens is not None:
            tokens.extend(data[s:e].decode("utf-8")
                          for s, e in zip(first_start[keep].tolist(), first_end[keep].tolist()))
    if not any_text:
        raise InputError("file is empty (no sentences)", file=name, line=1)
    token = np.concatenate(token_parts)
    if not token.any():
        raise InputError("no tokens: the file is empty or holds only blank and boundary lines", file=name)
    return TagStream(np.concatenate(gold_parts), np.concatenate(pred_parts), token, codes.vocab(), ncols, name, tokens)


def read_conlleval(path: str | os.PathLike, docstart: str = "boundary", encoding: str = "utf-8") -> ConllevalFile:
    """Read a conlleval input file, sentence by sentence.

    Parameters
    ----------
    path : str or path-like
    docstart : {"boundary", "token"}
    encoding : str
        As :func:`read_tag_stream`.

    Returns
    -------
    ConllevalFile

    Raises
    ------
    InputError
        As :func:`read_tag_stream`.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> _ = open(path, "w").write("-DOCSTART- O O\\n\\nEU B-ORG B-ORG\\nrejects O O\\n\\n")
    >>> [(s.gold, s.pred, s.line) for s in read_conlleval(path).sentences]
    [(('B-ORG', 'O'), ('B-ORG', 'O'), 3)]
    """
    s = read_tag_stream(path, docstart=docstart, encoding=encoding, keep_tokens=True)
    tokens = s.tokens
    assert tokens is not None  # kept: keep_tokens=True
    vocab = s.vocab
    token = s.token
    starts = np.flatnonzero(token & ~np.concatenate(([False], token[:-1])))
    ends = np.flatnonzero(token & ~np.concatenate((token[1:], [False]))) + 1
    gold = [vocab[c] for c in s.gold[token].tolist()]
    pred = [vocab[c] for c in s.pred[token].tolist()]
    sentences = []
    k = 0
    for a, z in zip(starts.tolist(), ends.tolist()):
        n = z - a
        sentences.append(ConllevalSentence(tuple(tokens[k:k + n]), tuple(gold[k:k + n]), tuple(pred[k:k + n]), a))
        k += n
    return ConllevalFile(sentences, s.final_boundary, s.columns, s.path)


# ----------------------------------------------------------------------------- writing


def format_conlleval(tokens: Sequence[str], gold: Sequence[str], pred: Sequence[str]) -> str:
    """One sentence in conlleval's input format: ``token gold pred`` lines and a blank line.

    Parameters
    ----------
    tokens : sequence of str
        Without white space, to be read back.
    gold, pred : sequence of str

    Returns
    -------
    str

    Raises
    ------
    ValueError
        When the three sequences differ in length.

    Examples
    --------
    >>> format_conlleval(["EU", "rejects"], ["B-ORG", "O"], ["B-ORG", "B-MISC"])
    'EU B-ORG B-ORG\\nrejects O B-MISC\\n\\n'
    """
    if not (len(tokens) == len(gold) == len(pred)):
        raise ValueError(f"lengths differ: {len(tokens)} tokens, {len(gold)} gold tags, {len(pred)} predicted tags")
    return "".join(f"{t} {g} {p}\n" for t, g, p in zip(tokens, gold, pred)) + "\n"


def write_conlleval(
    path: str | os.PathLike,
    tokens: Iterable[Sequence[str]],
    gold: Iterable[Sequence[str]],
    pred: Iterable[Sequence[str]],
) -> None:
    """Write predictions in conlleval's 3-column format (UTF-8, atomically).

    Parameters
    ----------
    path : str or path-like
    tokens, gold, pred : iterable of sequences of str
        Per sentence, parallel.

    Raises
    ------
    ValueError
        When the three hold different numbers of sentences, or a sentence's sequences differ in length.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "pred.txt")
    >>> write_conlleval(p, [["a", "b"]], [["B-X", "O"]], [["B-X", "O"]]); open(p).read()
    'a B-X B-X\\nb O O\\n\\n'
    """
    with atomic_write(path) as f:
        for t, g, p in zip(tokens, gold, pred, strict=True):
            f.write(format_conlleval(t, g, p))
