"""Tagging schemes as data: encode chunks into tags, decode tags into chunks.

A *chunk* is ``(start, end, type)`` with ``end`` exclusive; untyped chunks
(words, in word segmentation) have type ``""``. A tag is ``O`` (outside any
chunk), ``PREFIX`` (untyped) or ``PREFIX-TYPE``; the prefix is everything
before the first ``-`` (as in conlleval.pl, so types may contain ``-``).

Every scheme is described by the prefixes it gives the tokens of a chunk
(:class:`Scheme`): for a chunk of length 1 (``single``), for the first tokens
of a longer chunk (``heads``), for its middle tokens (``inside``) and for its
last token (``last``), plus the IOB1/IOE1 exceptions for chunks that touch a
chunk of the same type (``touch_begin`` / ``touch_end``). Decoding follows
from this description:

* a prefix that only ever begins a chunk (``B`` in IOB2, ``B``/``S`` in IOBES)
  always starts a new chunk; a prefix that only ever ends one (``E`` in
  IOE2, ``E``/``S`` in IOBES) always closes it;
* an inside tag after ``O`` or after a tag of another type opens a chunk,
  as conlleval.pl does (*lenient* decoding, the default);
* ``strict=True`` accepts only sequences the scheme itself would write (the
  canonical encoding of the decoded chunks) and raises :class:`InputError`
  naming the first 0-based position where the sequence departs from it.

The pseudo-scheme ``"conlleval"`` decodes with conlleval.pl's own
``startOfChunk``/``endOfChunk`` rules (version 2004-01-26), which know the
prefixes ``B I E O [ ] .`` and nothing else. Two IOBES consequences: ``S-X S-X``
is one chunk for conlleval (an ``S`` never ends a chunk of its own type, so
it continues the previous one), and ``E-X B-X`` is one chunk (conlleval has no
rule for an ``E`` followed by a ``B``); decode IOBES output with
``scheme="iobes"`` to get the chunks the tagger meant. An open conlleval chunk
ends at the next end point, at the next start point, or at the end of the
sequence (see :func:`conlleval_start` and :func:`conlleval_end`).

Examples
--------
>>> encode([(0, 2, "PER"), (3, 4, "LOC")], 5, "iobes")
['B-PER', 'E-PER', 'O', 'S-LOC', 'O']
>>> decode(["I-PER", "I-PER", "B-PER", "O"], "iob1")
[(0, 2, 'PER'), (2, 3, 'PER')]
>>> convert(["I-PER", "I-PER", "B-PER", "O"], "iob1", "iob2")
['B-PER', 'I-PER', 'B-PER', 'O']
>>> decode(["S-X", "S-X"], "conlleval"), decode(["S-X", "S-X"], "iobes")
([(0, 2, 'X')], [(0, 1, 'X'), (1, 2, 'X')])
>>> encode([(0, 1, ""), (1, 6, "")], 6, "bb2b3mes")
['S', 'B', 'B2', 'B3', 'M', 'E']
>>> detect([["B", "E", "S"], ["B", "M", "E"]])
'bmes'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from textbcv.errors import InputError

__all__ = [
    "Scheme",
    "SCHEMES",
    "ALIASES",
    "CONLLEVAL",
    "scheme_names",
    "get_scheme",
    "split_tag",
    "make_tag",
    "encode",
    "decode",
    "convert",
    "detect",
    "is_valid",
    "TagCodes",
    "detect_codes",
    "detect_stream",
    "orphan_chunks",
    "tag_stream",
    "chunk_spans",
    "chunk_flags",
    "tag_pairs",
    "detect_pairs",
    "orphan_pairs",
    "conlleval_start",
    "conlleval_end",
]

Chunk = tuple[int, int, str]

OUTSIDE = "O"

# Kinds of a tag for lenient decoding (bit flags); 0 is outside.
_IN = 1  # inside a chunk
_BEGIN = 2  # always begins a chunk
_END = 4  # always ends a chunk


def split_tag(tag: str) -> tuple[str, str]:
    """Split a tag into ``(prefix, type)`` at its first ``-`` (``("O", "")`` for ``O``).

    Examples
    --------
    >>> split_tag("B-ORG"), split_tag("I-ORG-X"), split_tag("M"), split_tag("O")
    (('B', 'ORG'), ('I', 'ORG-X'), ('M', ''), ('O', ''))
    """
    prefix, sep, typ = tag.partition("-")
    return prefix, typ


def make_tag(prefix: str, typ: str) -> str:
    """The tag of ``prefix`` and chunk type ``typ`` (just the prefix when ``typ`` is ``""``).

    Examples
    --------
    >>> make_tag("B", "PER"), make_tag("S", "")
    ('B-PER', 'S')
    """
    return f"{prefix}-{typ}" if typ else prefix


@dataclass(frozen=True)
class Scheme:
    """A tagging scheme: which prefix each token of a chunk gets.

    Parameters
    ----------
    name : str
        Canonical lower-case name (``"iob2"``).
    single : str
        Prefix of a one-token chunk.
    heads : tuple of str
        Prefixes of the first ``len(heads)`` tokens of a chunk of two or more
        tokens (its last token excepted).
    inside : str
        Prefix of the later non-final tokens.
    last : str
        Prefix of the last token of a chunk of two or more tokens.
    touch_begin : str or None
        IOB1: prefix of the first token of a chunk that directly follows a
        chunk of the same type (otherwise the first token gets ``single`` /
        ``heads[0]``).
    touch_end : str or None
        IOE1: prefix of the last token of a chunk directly followed by a chunk
        of the same type.
    untyped : bool
        The scheme is meant for untyped chunks (word segmentation); typed
        tags are still accepted.
    aliases : tuple of str
        Other names accepted by :func:`get_scheme`.
    description : str
        One line for help texts.

    Examples
    --------
    >>> s = SCHEMES["iobes"]
    >>> s.prefixes_for(1), s.prefixes_for(4)
    (['S'], ['B', 'I', 'I', 'E'])
    >>> sorted(s.begin), sorted(s.end)
    (['B', 'S'], ['E', 'S'])
    """

    name: str
    single: str
    heads: tuple[str, ...]
    inside: str
    last: str
    touch_begin: str | None = None
    touch_end: str | None = None
    untyped: bool = False
    aliases: tuple[str, ...] = ()
    description: str = ""
    # derived
    prefixes: frozenset = field(init=False, repr=False)
    begin: frozenset = field(init=False, repr=False)
    end: frozenset = field(init=False, repr=False)
    _kinds: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        first = {self.single, self.heads[0]} | ({self.touch_begin} if self.touch_begin else set())
        later = set(self.heads[1:]) | {self.inside, self.last}
        final = {self.single, self.last} | ({self.touch_end} if self.touch_end else set())
        nonfinal = set(self.heads) | {self.inside}
        prefixes = first | later | final | nonfinal
        object.__setattr__(self, "prefixes", frozenset(prefixes))
        # A prefix found only at the start (end) of chunks always starts (ends) one.
        object.__setattr__(self, "begin", frozenset(first - later))
        object.__setattr__(self, "end", frozenset(final - nonfinal))
        object.__setattr__(self, "_kinds", {OUTSIDE: (0, "")})

    def prefixes_for(self, length: int, touch_before: bool = False, touch_after: bool = False) -> list[str]:
        """Prefixes of the tokens of a chunk of ``length`` tokens.

        ``touch_before`` / ``touch_after``: the chunk directly follows / is
        directly followed by a chunk of the same type (matters for IOB1/IOE1).

        Examples
        --------
        >>> SCHEMES["bb2b3mes"].prefixes_for(6)
        ['B', 'B2', 'B3', 'M', 'M', 'E']
        >>> SCHEMES["iob1"].prefixes_for(2), SCHEMES["iob1"].prefixes_for(2, touch_before=True)
        (['I', 'I'], ['B', 'I'])
        """
        if length == 1:
            out = [self.single]
        else:
            h = list(self.heads[: length - 1])
            out = h + [self.inside] * (length - 1 - len(h)) + [self.last]
        if touch_before and self.touch_begin:
            out[0] = self.touch_begin
        if touch_after and self.touch_end:
            out[-1] = self.touch_end
        return out

    def kind(self, tag: str, position: int | None = None) -> tuple[int, str]:
        """``(kind flags, type)`` of ``tag`` (cached); InputError if the prefix is not this scheme's."""
        try:
            return self._kinds[tag]
        except KeyError:
            pass
        prefix, typ = split_tag(tag)
        if prefix not in self.prefixes:
            where = f"position {position}: " if position is not None else ""
            raise InputError(
                f"{where}tag {tag!r} is not a tag of {self.name.upper()} "
                f"(prefixes: {', '.join(sorted(self.prefixes))} and O)"
            )
        k = _IN | (_BEGIN if prefix in self.begin else 0) | (_END if prefix in self.end else 0)
        self._kinds[tag] = (k, typ)
        return k, typ


SCHEMES: dict[str, Scheme] = {
    s.name: s
    for s in (
        Scheme("iob1", "I", ("I",), "I", "I", touch_begin="B",
               description="inside/outside; B- only on a chunk that directly follows one of its type (CoNLL-2003)"),
        Scheme("iob2", "B", ("B",), "I", "I", aliases=("bio",), description="B- on the first token of every chunk"),
        Scheme("ioe1", "I", ("I",), "I", "I", touch_end="E",
               description="inside/outside; E- only on a chunk directly followed by one of its type"),
        Scheme("ioe2", "E", ("I",), "I", "E", description="E- on the last token of every chunk"),
        Scheme("iobes", "S", ("B",), "I", "E", aliases=("bioes",),
               description="B-egin, I-nside, E-nd, S-ingle, O-utside"),
        Scheme("bilou", "U", ("B",), "I", "L", description="B-egin, I-nside, L-ast, U-nit, O-utside"),
        Scheme("bmes", "S", ("B",), "M", "E", untyped=True,
               description="word segmentation (or typed B-/M-/E-/S-): Begin, Middle, End, Single"),
        Scheme("bb2b3mes", "S", ("B", "B2", "B3"), "M", "E", untyped=True,
               description="word segmentation: 1st, 2nd, 3rd character B, B2, B3; later inner M; last E; single S"),
    )
}

#: Other accepted names -> canonical name.
ALIASES: dict[str, str] = {alias: s.name for s in SCHEMES.values() for alias in s.aliases}

#: Name of the pseudo-scheme that decodes with conlleval.pl's rules.
CONLLEVAL = "conlleval"


def scheme_names(include_conlleval: bool = False) -> list[str]:
    """Canonical scheme names (optionally with ``"conlleval"``).

    Examples
    --------
    >>> scheme_names()
    ['iob1', 'iob2', 'ioe1', 'ioe2', 'iobes', 'bilou', 'bmes', 'bb2b3mes']
    """
    return list(SCHEMES) + ([CONLLEVAL] if include_conlleval else [])


def get_scheme(name: str | Scheme) -> Scheme:
    """The :class:`Scheme` called ``name`` (case-insensitive; aliases such as ``bioes`` accepted).

    Examples
    --------
    >>> get_scheme("BIOES").name
    'iobes'
    """
    if isinstance(name, Scheme):
        return name
    key = str(name).lower()
    key = ALIASES.get(key, key)
    try:
        return SCHEMES[key]
    except KeyError:
        if key == CONLLEVAL:
            raise InputError("'conlleval' only decodes (it is conlleval.pl's chunk rules, not a scheme)") from None
        known = ", ".join(scheme_names(include_conlleval=True))
        raise InputError(f"unknown tagging scheme {name!r} (known: {known})") from None


def _canonical_name(name: str | Scheme) -> str:
    if isinstance(name, Scheme):
        return name.name
    key = str(name).lower()
    return CONLLEVAL if key == CONLLEVAL else get_scheme(key).name


# ----------------------------------------------------------------------------- encode


def encode(chunks: Iterable[Chunk], n: int, scheme: str | Scheme) -> list[str]:
    """Tags of ``n`` tokens holding ``chunks`` in ``scheme``.

    Parameters
    ----------
    chunks : iterable of (start, end, type)
        Non-overlapping chunks, ``0 <= start < end <= n``, in any order.
    n : int
        Number of tokens.
    scheme : str or Scheme

    Returns
    -------
    list of str

    Examples
    --------
    >>> encode([(0, 1, "ORG"), (1, 3, "ORG")], 4, "iob1")
    ['I-ORG', 'B-ORG', 'I-ORG', 'O']
    >>> encode([(0, 1, "ORG"), (1, 3, "ORG")], 4, "ioe1")
    ['E-ORG', 'I-ORG', 'I-ORG', 'O']
    >>> encode([(0, 2, ""), (2, 3, "")], 3, "bmes")
    ['B', 'E', 'S']
    """
    sch = get_scheme(scheme)
    tags = [OUTSIDE] * n
    cs = sorted(chunks)
    prev_end, prev_type = -1, None
    for k, (start, end, typ) in enumerate(cs):
        if not (0 <= start < end <= n) or start < prev_end:
            raise InputError(f"chunk {(start, end, typ)!r} overlaps another or lies outside 0..{n}")
        touch_after = k + 1 < len(cs) and cs[k + 1][0] == end and cs[k + 1][2] == typ
        touch_before = start == prev_end and typ == prev_type
        for i, p in enumerate(sch.prefixes_for(end - start, touch_before, touch_after), start):
            tags[i] = f"{p}-{typ}" if typ else p
        prev_end, prev_type = end, typ
    return tags


# ----------------------------------------------------------------------------- decode


def decode(tags: Sequence[str], scheme: str | Scheme = "iob2", strict: bool = False) -> list[Chunk]:
    """Chunks ``(start, end, type)`` of a tag sequence, sorted by start.

    Parameters
    ----------
    tags : sequence of str
    scheme : str or Scheme
        A scheme name, or ``"conlleval"`` for conlleval.pl's rules.
    strict : bool
        Raise :class:`InputError` (naming the 0-based position and the tag)
        unless ``tags`` is exactly what ``scheme`` writes for its chunks.
        With ``False`` (default) invalid sequences are repaired as conlleval
        does: an inside tag after ``O`` or after another type opens a chunk.

    Examples
    --------
    >>> decode(["B-PER", "I-PER", "O", "I-LOC", "B-LOC"], "iob2")
    [(0, 2, 'PER'), (3, 4, 'LOC'), (4, 5, 'LOC')]
    >>> decode(["B-PER", "I-PER", "O", "I-LOC"], "iob2", strict=True)
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: position 3: tag 'I-LOC' is not valid IOB2 here (expected 'B-LOC')
    >>> decode(["B", "M", "E", "S"], "bmes")
    [(0, 3, ''), (3, 4, '')]
    """
    if isinstance(scheme, str) and scheme.lower() == CONLLEVAL:
        if strict:
            raise InputError("strict decoding needs a tagging scheme, not 'conlleval'")
        return _decode_conlleval(tags)
    sch = get_scheme(scheme)
    kinds = sch._kinds
    chunks: list[Chunk] = []
    append = chunks.append
    start = -1
    ctype = ""
    for i, tag in enumerate(tags):
        kt = kinds.get(tag)
        if kt is None:
            kt = sch.kind(tag, i)
        k, t = kt
        if not k:
            if start >= 0:
                append((start, i, ctype))
                start = -1
            continue
        if start >= 0 and (k & _BEGIN or t != ctype):
            append((start, i, ctype))
            start = -1
        if start < 0:
            start, ctype = i, t
        if k & _END:
            append((start, i + 1, ctype))
            start = -1
    if start >= 0:
        append((start, len(tags), ctype))
    if strict:
        _check_strict(tags, chunks, sch)
    return chunks


def _check_strict(tags: Sequence[str], chunks: list[Chunk], sch: Scheme) -> None:
    canonical = encode(chunks, len(tags), sch)
    if canonical != list(tags):
        i = next(i for i, (a, b) in enumerate(zip(tags, canonical)) if a != b)
        raise InputError(f"position {i}: tag {tags[i]!r} is not valid {sch.name.upper()} here "
                         f"(expected {canonical[i]!r})")


def is_valid(tags: Sequence[str], scheme: str | Scheme) -> bool:
    """Whether ``tags`` is a valid (strict) sequence of ``scheme``.

    Examples
    --------
    >>> is_valid(["I-PER", "B-PER"], "iob1"), is_valid(["I-PER", "B-PER"], "iob2")
    (True, False)
    """
    try:
        decode(tags, scheme, strict=True)
    except InputError:
        return False
    return True


def convert(tags: Sequence[str], src: str | Scheme, dst: str | Scheme) -> list[str]:
    """Re-encode ``tags`` from scheme ``src`` (decoded leniently) into scheme ``dst``.

    Examples
    --------
    >>> convert(["B-PER", "I-PER", "B-LOC", "O"], "iob2", "bilou")
    ['B-PER', 'L-PER', 'U-LOC', 'O']
    """
    return encode(decode(tags, src), len(tags), dst)


# ----------------------------------------------------------------------------- conlleval rules


def conlleval_end(prev_tag: str, tag: str, prev_type: str, typ: str) -> bool:
    """conlleval.pl ``endOfChunk``: did a chunk end between the previous and this token?

    Arguments are prefixes and types (as split by :func:`conlleval_split`).

    Examples
    --------
    >>> conlleval_end("I", "O", "PER", ""), conlleval_end("E", "B", "PER", "PER")
    (True, False)
    """
    end = (
        (prev_tag == "B" and tag in ("B", "O"))
        or (prev_tag == "I" and tag in ("B", "O"))
        or (prev_tag == "E" and tag in ("E", "I", "O"))
    )
    if prev_tag != "O" and prev_tag != "." and prev_type != typ:
        end = True
    if prev_tag in ("]", "["):
        end = True
    return end


def conlleval_start(prev_tag: str, tag: str, prev_type: str, typ: str) -> bool:
    """conlleval.pl ``startOfChunk``: did a chunk start between the previous and this token?

    Examples
    --------
    >>> conlleval_start("O", "I", "", "PER"), conlleval_start("S", "S", "PER", "PER")
    (True, False)
    """
    start = (
        (prev_tag in ("B", "I", "O") and tag == "B")
        or (prev_tag == "O" and tag in ("I", "E"))
        or (prev_tag == "E" and tag in ("E", "I"))
    )
    if tag != "O" and tag != "." and prev_type != typ:
        start = True
    if tag in ("[", "]"):
        start = True
    return start


def conlleval_split(tag: str) -> tuple[str, str]:
    """conlleval.pl's reading of a tag: ``/^([^-]*)-(.*)$/``, and a type ``"0"`` is ``""`` (Perl truth).

    Examples
    --------
    >>> conlleval_split("B-PER"), conlleval_split("O"), conlleval_split("B-0")
    (('B', 'PER'), ('O', ''), ('B', ''))
    """
    prefix, sep, typ = tag.partition("-")
    if typ == "0":
        typ = ""
    return prefix, typ


_CONLL_PAIRS: dict[tuple[str, str], tuple[bool, bool, str]] = {}


def _conll_pair(prev: str, tag: str) -> tuple[bool, bool, str]:
    """(end before ``tag``, start at ``tag``, type of ``tag``) for the tag bigram, cached."""
    r = _CONLL_PAIRS.get((prev, tag))
    if r is None:
        pp, pt = conlleval_split(prev)
        cp, ct = conlleval_split(tag)
        r = (conlleval_end(pp, cp, pt, ct), conlleval_start(pp, cp, pt, ct), ct)
        if len(_CONLL_PAIRS) < 1_000_000:
            _CONLL_PAIRS[(prev, tag)] = r
    return r


def _decode_conlleval(tags: Sequence[str]) -> list[Chunk]:
    chunks: list[Chunk] = []
    prev = OUTSIDE
    start = -1
    ctype = ""
    pairs = _CONLL_PAIRS
    for i, tag in enumerate(tags):
        r = pairs.get((prev, tag))
        if r is None:
            r = _conll_pair(prev, tag)
        end, begin, t = r
        if start >= 0 and (end or begin):
            chunks.append((start, i, ctype))
            start = -1
        if begin:
            start, ctype = i, t
        prev = tag
    if start >= 0:
        chunks.append((start, len(tags), ctype))
    return chunks


# ----------------------------------------------------------------------------- detect

#: Order in which :func:`detect` prefers schemes that fit equally well.
_PREFERENCE = ("iob2", "iob1", "ioe2", "ioe1", "iobes", "bilou", "bmes", "bb2b3mes")


def _sequences(tags: Iterable) -> list[tuple[str, ...]]:
    if isinstance(tags, str):
        raise InputError("detect() needs a sequence of tags, not a single string")
    items = list(tags)
    if not items or isinstance(items[0], str):
        return [tuple(items)]
    return [tuple(s) for s in items]


def detect(tags: Iterable) -> str:
    """The tagging scheme of ``tags`` (one tag sequence, or an iterable of sequences).

    The candidates are the schemes whose prefixes cover every prefix used;
    of those, the first in the order iob2, iob1, ioe2, ioe1, iobes, bilou,
    bmes, bb2b3mes under which every sequence is strictly valid wins
    (untyped tags prefer bmes to iobes; ``M``/``B2`` decide bmes and
    bb2b3mes). When no candidate is strictly valid (annotation slips), B/I
    tags are called iob1 or iob2 by which way most chunks open, other tags
    the first candidate; lenient decoding repairs the rest.

    Raises
    ------
    InputError
        When no scheme has all the prefixes used.

    Examples
    --------
    >>> detect(["I-PER", "O", "I-LOC", "B-LOC"])
    'iob1'
    >>> detect([["B-PER", "I-PER"], ["B-LOC"]])
    'iob2'
    >>> detect(["B-PER", "E-PER", "S-LOC"])
    'iobes'
    >>> detect(["B", "B2", "B3", "M", "E"])
    'bb2b3mes'
    """
    import numpy as np

    seqs = _sequences(tags)
    codes_of: dict[str, int] = {OUTSIDE: 0}
    flat = []
    for s in seqs:
        for t in s:
            c = codes_of.get(t)
            if c is None:
                c = codes_of[t] = len(codes_of)
            flat.append(c)
    lengths = np.array([len(s) for s in seqs], dtype=np.int64)
    return detect_codes(np.array(flat, dtype=np.int64), list(codes_of), lengths)


# ----------------------------------------------------------------------------- tag arrays


class TagCodes(dict):
    """Tag -> integer code, giving the next code to a tag seen for the first time; ``O`` is code 0.

    ``numpy.fromiter(map(codes.__getitem__, tags), ...)`` codes a tag stream
    at C speed; ``list(codes)`` is then the vocabulary (code ``i`` is its
    ``i``-th tag).

    Examples
    --------
    >>> c = TagCodes()
    >>> [c[t] for t in ["B-X", "O", "I-X", "B-X"]], list(c)
    ([1, 0, 2, 1], ['O', 'B-X', 'I-X'])
    """

    def __init__(self):
        super().__init__({OUTSIDE: 0})

    def __missing__(self, tag):
        code = self[tag] = len(self)
        return code

#
# The same rules on integer-coded tags, with array operations: a corpus is one
# stream of codes in which every sentence is preceded by an ``O`` (so no chunk
# crosses a sentence boundary and lenient decoding of the stream equals
# decoding each sentence).


def tag_stream(codes, lengths, outside: int):
    """The stream of ``codes`` (sentences of ``lengths``) with ``outside`` before every sentence and at the end.

    Returns the stream and the index in it of every original code.
    """
    import numpy as np

    lengths = np.asarray(lengths, dtype=np.int64)
    starts = np.zeros(len(lengths), dtype=np.int64)
    if len(lengths) > 1:
        np.cumsum(lengths[:-1], out=starts[1:])
    stream = np.insert(np.asarray(codes), np.append(starts, len(codes)), outside)
    pos = np.arange(len(codes), dtype=np.int64) + np.repeat(np.arange(1, len(lengths) + 1, dtype=np.int64), lengths)
    return stream, pos


def scheme_arrays(vocab: Sequence[str], sch: Scheme):
    """``(kind, type id, types)`` arrays of every tag of ``vocab`` under ``sch`` (InputError for a tag not of it)."""
    import numpy as np

    kinds = [sch.kind(t) for t in vocab]
    types = sorted({t for _, t in kinds})
    tix = {t: i for i, t in enumerate(types)}
    return (np.array([k for k, _ in kinds], dtype=np.int8), np.array([tix[t] for _, t in kinds], dtype=np.int32), types)


def chunk_flags(stream, kind, typ):
    """``(inside, start, stop, type id)`` at every position of a code stream, decoded leniently (as :func:`decode`)."""
    k = kind[stream]
    t = typ[stream]
    inside = k != 0
    start = inside.copy()
    start[1:] &= ~inside[:-1] | ((k[1:] & _BEGIN) != 0) | ((k[:-1] & _END) != 0) | (t[1:] != t[:-1])
    stop = inside.copy()
    stop[:-1] &= ~inside[1:] | start[1:]
    return inside, start, stop, t


def chunk_spans(stream, kind, typ):
    """Starts, ends (exclusive) and type ids of the chunks of a code stream, decoded leniently (as :func:`decode`)."""
    import numpy as np

    _, start, stop, t = chunk_flags(stream, kind, typ)
    s = np.flatnonzero(start)
    return s, np.flatnonzero(stop) + 1, t[s]


def tag_pairs(stream, n_codes: int, outside: int = 0):
    """How often each code follows each other in ``stream`` (an ``n_codes`` × ``n_codes`` matrix).

    The stream is read as starting after an ``O`` and ending before one
    (code ``outside``): the first and last pairs count too. Whether tags are
    valid in a scheme, which scheme they are, how many chunks start
    wrongly: all of it depends on these pairs only (see :func:`_allowed_pairs`).

    Examples
    --------
    >>> import numpy as np
    >>> tag_pairs(np.array([0, 1, 2, 0, 1]), 3).tolist()
    [[1, 2, 0], [1, 0, 1], [1, 0, 0]]
    """
    import numpy as np

    stream = np.asarray(stream, dtype=np.int64)
    if not len(stream):
        return np.zeros((n_codes, n_codes), dtype=np.int64)
    index = stream[:-1] * n_codes
    index += stream[1:]
    counts = np.bincount(index, minlength=n_codes * n_codes).reshape(n_codes, n_codes)
    counts[outside, stream[0]] += 1
    counts[stream[-1], outside] += 1
    return counts


_ALLOWED: dict[str, frozenset] = {}


def _allowed_pairs(sch: Scheme) -> frozenset:
    """``(prefix, next prefix, same type)`` of every tag bigram in what ``sch`` writes (``O`` around).

    A tag sequence is valid in ``sch`` (what :func:`encode` writes for its
    chunks) exactly when each tag is written canonically (``B-X``, ``B``,
    not ``B-``) and each of its bigrams, with an ``O`` before and after, is
    one of these: every scheme's rules are about neighbouring tags (a
    prefix says where in its chunk a token is, up to the heads it counts).
    tests/test_schemes_arrays.py checks this against :func:`is_valid`.
    """
    out = _ALLOWED.get(sch.name)
    if out is None:
        longest = len(sch.heads) + 3  # long enough for every prefix, and every prefix after itself
        # the prefixes of a chunk of every length, right after (before) a chunk of its type or not
        chunks = [(sch.prefixes_for(n, before, after), before, after)
                  for n in range(1, longest + 1) for before in (False, True) for after in (False, True)]
        pairs = {(OUTSIDE, OUTSIDE, False)}
        for p, before, after in chunks:
            pairs.update((x, y, True) for x, y in zip(p, p[1:]))
            if not before:
                pairs.add((OUTSIDE, p[0], False))
            if not after:
                pairs.add((p[-1], OUTSIDE, False))
            for q, q_before, _ in chunks:  # a chunk right before another (of its type or not)
                if after == q_before:
                    pairs.add((p[-1], q[0], after))
        out = _ALLOWED[sch.name] = frozenset(pairs)
    return out


def _pair_info(pairs, vocab: Sequence[str]):
    """Occurring pairs ``(a, b)`` and, per code, prefix, type and whether it is written canonically."""
    import numpy as np

    a, b = np.nonzero(pairs)
    split = [split_tag(t) for t in vocab]
    canonical = [t == OUTSIDE or make_tag(p, ty) == t for t, (p, ty) in zip(vocab, split)]
    return a.tolist(), b.tolist(), split, canonical


def _valid_pairs(pairs, vocab: Sequence[str], sch: Scheme) -> bool:
    """Whether a stream with these :func:`tag_pairs` is valid in ``sch`` (each sentence :func:`is_valid`)."""
    allowed = _allowed_pairs(sch)
    a, b, split, canonical = _pair_info(pairs, vocab)
    for x, y in zip(a, b):
        (px, tx), (py, ty) = split[x], split[y]
        if not (canonical[x] and canonical[y]):
            return False
        same = vocab[x] != OUTSIDE and vocab[y] != OUTSIDE and tx == ty
        if (px, py, same) not in allowed:
            return False
    return True


def _chunk_starts(pairs, vocab: Sequence[str], sch: Scheme) -> dict[str, int]:
    """Chunks (decoded leniently with ``sch``) by the prefix of their first tag, from :func:`tag_pairs`."""
    a, b, split, _ = _pair_info(pairs, vocab)
    out: dict[str, int] = {}
    for x, y in zip(a, b):
        if vocab[y] == OUTSIDE:
            continue
        ky, ty = sch.kind(vocab[y])
        kx, tx = sch.kind(vocab[x])
        # as chunk_flags: a chunk starts after O, at a begin prefix, after an end prefix, or at a type change
        if not kx or ky & _BEGIN or kx & _END or tx != ty:
            p = split[y][0]
            out[p] = out.get(p, 0) + int(pairs[x, y])
    return out


def detect_codes(codes, vocab: Sequence[str], lengths) -> str:
    """:func:`detect` on integer-coded tags: ``vocab[c]`` is the tag of code ``c``; ``lengths``: sentence lengths.

    Examples
    --------
    >>> import numpy as np
    >>> detect_codes(np.array([1, 0, 1, 2]), ["O", "I-PER", "B-PER"], [4])
    'iob1'
    """
    import numpy as np

    vocab = list(vocab) + [OUTSIDE]
    stream, _ = tag_stream(np.asarray(codes, dtype=np.int64), lengths, len(vocab) - 1)
    return detect_pairs(tag_pairs(stream, len(vocab), len(vocab) - 1), vocab)


def detect_stream(stream, vocab: Sequence[str]) -> str:
    """:func:`detect` on a code stream whose sentences are separated by the code of ``O`` (see :func:`tag_stream`)."""
    vocab = list(vocab)
    if OUTSIDE not in vocab:
        vocab.append(OUTSIDE)
    return detect_pairs(tag_pairs(stream, len(vocab), vocab.index(OUTSIDE)), vocab)


def detect_pairs(pairs, vocab: Sequence[str]) -> str:
    """:func:`detect` from the :func:`tag_pairs` of the tags (codes that never occur are ignored)."""
    import numpy as np

    pairs = np.asarray(pairs)
    present = (pairs.sum(axis=0) + pairs.sum(axis=1)) > 0
    used_tags = [t for t, p in zip(vocab, present) if p and t != OUTSIDE]
    split = [split_tag(t) for t in used_tags]
    used = {p for p, _ in split}
    untyped = all(t == "" for _, t in split)
    candidates = [n for n in _PREFERENCE if used <= SCHEMES[n].prefixes]
    if not candidates:
        raise InputError(f"no tagging scheme uses the prefixes {', '.join(sorted(used))}")
    if untyped and "bmes" in candidates and "iobes" in candidates:
        candidates.remove("bmes")
        candidates.insert(candidates.index("iobes"), "bmes")
    for name in candidates:
        if _valid_pairs(pairs, vocab, SCHEMES[name]):
            return name
    if used <= {"B", "I"}:
        # Mixed use (annotation slips): IOB1 if more chunks open with I- than with a B- that
        # does not follow a chunk of its type, else IOB2. Their lenient decodings are the same.
        starts = _chunk_starts(pairs, vocab, SCHEMES["iob1"])
        opens_i = starts.get("I", 0)
        # a B- start that follows a chunk of its type does not count
        a, b, split_all, _ = _pair_info(pairs, vocab)
        follows = sum(int(pairs[x, y]) for x, y in zip(a, b)
                      if split_all[y][0] == "B" and vocab[x] != OUTSIDE and vocab[y] != OUTSIDE
                      and split_all[x][1] == split_all[y][1])
        opens_b = starts.get("B", 0) - follows
        return "iob1" if opens_i >= opens_b else "iob2"
    return candidates[0]


def orphan_chunks(stream, vocab: Sequence[str], scheme: str | Scheme, outside: int | None = None) -> dict[str, int]:
    """Chunks that do not start the way ``scheme`` starts a chunk, by the prefix they start with.

    In IOB2 a chunk starts with ``B-``; one that starts with ``I-`` (after
    ``O`` or a chunk of another type) is an *orphan*: conlleval and lenient
    decoding open a chunk there, but the tags are not IOB2 (often they are
    IOB1). Likewise ``I-``/``E-`` starts in IOBES, ``I-``/``L-`` in BILOU,
    ``M``/``E`` in BMES. Schemes in which such starts are normal (IOB1,
    IOE1, IOE2) have no orphans.

    Parameters
    ----------
    stream : array of int
        Tag codes, sentences separated by the code of ``O`` (see :func:`tag_stream`).
    vocab : sequence of str
        The tag of every code; each that occurs must be a tag of ``scheme``.

    Examples
    --------
    >>> import numpy as np
    >>> vocab = ["O", "B-PER", "I-PER", "I-LOC"]
    >>> orphan_chunks(np.array([0, 2, 0, 1, 2, 3, 0]), vocab, "iob2")
    {'I': 2}
    >>> orphan_chunks(np.array([0, 2, 0, 1, 2, 3, 0]), vocab, "iob1")
    {}
    """
    vocab = list(vocab)
    if OUTSIDE not in vocab:
        vocab.append(OUTSIDE)
    return orphan_pairs(tag_pairs(stream, len(vocab), vocab.index(OUTSIDE)), vocab, scheme)


def orphan_pairs(pairs, vocab: Sequence[str], scheme: str | Scheme) -> dict[str, int]:
    """:func:`orphan_chunks` from the :func:`tag_pairs` of the tags."""
    sch = get_scheme(scheme)
    if sch.name not in ORPHAN_SCHEMES:
        return {}
    firsts = {sch.single, sch.heads[0]} | ({sch.touch_begin} if sch.touch_begin else set())
    return {p: n for p, n in sorted(_chunk_starts(pairs, vocab, sch).items()) if p not in firsts and n}


#: Schemes whose chunks must start with their own start prefixes (orphan starts are counted and reported).
ORPHAN_SCHEMES = ("iob2", "iobes", "bilou", "bmes", "bb2b3mes")
