"""Tagging schemes as data: encode chunks into tags, decode tags into chunks.

A chunk is ``(start, end, type)``, ``end`` exclusive, type ``""`` when untyped. A tag is ``O``,
``PREFIX`` or ``PREFIX-TYPE``, the prefix ending at the first ``-`` (as in conlleval.pl). Decoding
is lenient by default: an inside tag after ``O`` or another type opens a chunk, as conlleval.pl
does. The decode-only pseudo-scheme ``"conlleval"`` applies conlleval.pl's own rules, which read
``S-X S-X`` and ``E-X B-X`` as one chunk: decode IOBES output with ``scheme="iobes"``.

Examples
--------
>>> decode(["S-X", "S-X"], "conlleval"), decode(["S-X", "S-X"], "iobes")
([(0, 2, 'X')], [(0, 1, 'X'), (1, 2, 'X')])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from textbcv.errors import InputError
from textbcv.schemes.conlleval import (
    _decode_conlleval,
    conlleval_end,
    conlleval_split,
    conlleval_start,
)

__all__ = [
    "Scheme",
    "SCHEMES",
    "CONLLEVAL",
    "register_scheme",
    "scheme_names",
    "get_scheme",
    "split_tag",
    "make_tag",
    "encode",
    "decode",
    "convert",
    "is_valid",
    "conlleval_start",
    "conlleval_end",
    "conlleval_split",
]

Chunk = tuple[int, int, str]

OUTSIDE = "O"

# Kinds of a tag for lenient decoding (bit flags); 0 is outside.
_IN = 1  # inside a chunk
_BEGIN = 2  # always begins a chunk
_END = 4  # always ends a chunk


def split_tag(tag: str) -> tuple[str, str]:
    """Split a tag into ``(prefix, type)`` at its first ``-``; type ``""`` when there is none.

    Parameters
    ----------
    tag : str

    Returns
    -------
    prefix, type : str

    Examples
    --------
    >>> split_tag("B-ORG"), split_tag("I-ORG-X"), split_tag("O")
    (('B', 'ORG'), ('I', 'ORG-X'), ('O', ''))
    """
    prefix, sep, typ = tag.partition("-")
    return prefix, typ


def make_tag(prefix: str, typ: str) -> str:
    """The tag of ``prefix`` and chunk type ``typ``: ``"PREFIX-TYPE"``, or ``"PREFIX"`` when ``typ`` is ``""``.

    Parameters
    ----------
    prefix, typ : str

    Returns
    -------
    str

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
        Canonical lower-case name.
    single : str
        Prefix of a one-token chunk.
    heads : tuple of str
        Prefixes of the first tokens of a longer chunk (its last token excepted).
    inside, last : str
        Prefixes of the later non-final tokens and of the last token of a longer chunk.
    touch_begin, touch_end : str or None
        IOB1 / IOE1: prefix of the first (last) token of a chunk touching a chunk of its type.
    untyped : bool
        Meant for untyped chunks (word segmentation); typed tags are still accepted.
    aliases : tuple of str
        Other names :func:`get_scheme` accepts.
    description : str
        One line for help texts.

    Attributes
    ----------
    prefixes, begin, end : frozenset of str
        Every prefix written; those that always begin a chunk; those that always end one.
    starts : frozenset of str
        The prefixes a chunk's first token may have; a chunk read as starting with another is an orphan.

    Examples
    --------
    >>> s = SCHEMES["iobes"]
    >>> s.prefixes_for(4), sorted(s.begin), sorted(s.end)
    (['B', 'I', 'I', 'E'], ['B', 'S'], ['E', 'S'])
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
    starts: frozenset = field(init=False, repr=False)
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
        # every length up to the last head and one inside, touching its neighbours or not
        object.__setattr__(self, "starts", frozenset(
            self.prefixes_for(n, before, after)[0]
            for n in range(1, len(self.heads) + 3) for before in (False, True) for after in (False, True)))
        object.__setattr__(self, "_kinds", {OUTSIDE: (0, "")})

    def prefixes_for(self, length: int, touch_before: bool = False, touch_after: bool = False) -> list[str]:
        """Prefixes of the tokens of a chunk of ``length`` tokens.

        Parameters
        ----------
        length : int
        touch_before, touch_after : bool
            The chunk directly follows / is directly followed by a chunk of its type (IOB1, IOE1).

        Returns
        -------
        list of str

        Examples
        --------
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
        """``(kind, type)`` of ``tag`` (cached): kind 0 for ``O``, else 1 + 2 (always begins) + 4 (always ends).

        Parameters
        ----------
        tag : str
        position : int, optional
            0-based position of the tag, named in the error.

        Returns
        -------
        kind : int
        type : str

        Raises
        ------
        InputError
            When the tag's prefix is not one of this scheme's.
        """
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


#: The registry: canonical name -> :class:`Scheme`, in the order help texts list them. Every list of schemes,
#: :func:`detect`'s order and the untyped checks are read from it; add a scheme with :func:`register_scheme`.
SCHEMES: dict[str, Scheme] = {}

#: Name of the pseudo-scheme that decodes with conlleval.pl's rules.
CONLLEVAL = "conlleval"


def register_scheme(scheme: Scheme) -> Scheme:
    """Add ``scheme`` to :data:`SCHEMES`: from then on it is read, detected, converted, scored and trained as any.

    Parameters
    ----------
    scheme : Scheme
        Its name and aliases lower-case and taken by no scheme (nor ``"conlleval"``); its prefixes neither
        ``O`` nor containing ``-``.

    Returns
    -------
    Scheme
        ``scheme``; ``del SCHEMES[scheme.name]`` removes it again.

    Raises
    ------
    InputError
        For a name, alias or prefix that breaks these rules.

    Examples
    --------
    >>> _ = register_scheme(Scheme("my-bmewo", "W", ("B",), "M", "E", description="B-egin, M-iddle, E-nd, W-hole"))
    >>> encode([(0, 3, "PER"), (3, 4, "LOC")], 4, "my-bmewo"), decode(["W-PER", "B-LOC", "E-LOC"], "MY-BMEWO")
    (['B-PER', 'M-PER', 'E-PER', 'W-LOC'], [(0, 1, 'PER'), (1, 3, 'LOC')])
    >>> del SCHEMES["my-bmewo"]
    """
    taken = {CONLLEVAL} | {n for s in SCHEMES.values() for n in (s.name, *s.aliases)}
    for n in (scheme.name, *scheme.aliases):
        if not n or n != n.lower() or n in taken:
            raise InputError(f"scheme name {n!r} is {'taken' if n in taken else 'empty or not lower-case'}")
    for p in scheme.prefixes:
        if not p or p == OUTSIDE or "-" in p:
            raise InputError(f"scheme {scheme.name!r}: prefix {p!r} is O, empty or holds '-'")
    SCHEMES[scheme.name] = scheme
    return scheme


for _s in (
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
):
    register_scheme(_s)
del _s


def scheme_names(include_conlleval: bool = False) -> list[str]:
    """Canonical scheme names, in the order of ``SCHEMES``.

    Parameters
    ----------
    include_conlleval : bool
        Append the decode-only pseudo-scheme ``"conlleval"`` (default False).

    Returns
    -------
    list of str

    Examples
    --------
    >>> scheme_names()[:3], scheme_names(include_conlleval=True)[-1], scheme_names() == list(SCHEMES)
    (['iob1', 'iob2', 'ioe1'], 'conlleval', True)
    """
    return list(SCHEMES) + ([CONLLEVAL] if include_conlleval else [])


def get_scheme(name: str | Scheme) -> Scheme:
    """The :class:`Scheme` called ``name`` (case-insensitive, aliases accepted; a :class:`Scheme` as it is).

    Parameters
    ----------
    name : str or Scheme

    Returns
    -------
    Scheme

    Raises
    ------
    InputError
        For an unknown name, and for ``"conlleval"``, which only decodes.

    Examples
    --------
    >>> get_scheme("BIOES").name
    'iobes'
    """
    if isinstance(name, Scheme):
        return name
    key = str(name).lower()
    found = SCHEMES.get(key) or next((s for s in SCHEMES.values() if key in s.aliases), None)
    if found is not None:
        return found
    if key == CONLLEVAL:
        raise InputError("'conlleval' only decodes (it is conlleval.pl's chunk rules, not a scheme)")
    known = ", ".join(scheme_names(include_conlleval=True))
    raise InputError(f"unknown tagging scheme {name!r} (known: {known})")


# ----------------------------------------------------------------------------- encode


def encode(chunks: Iterable[Chunk], n: int, scheme: str | Scheme) -> list[str]:
    """Tags of ``n`` tokens holding non-overlapping ``chunks`` (in any order) in ``scheme``.

    Parameters
    ----------
    chunks : iterable of (start, end, type)
    n : int
        Number of tokens.
    scheme : str or Scheme
        Not ``"conlleval"``.

    Returns
    -------
    list of str

    Examples
    --------
    >>> encode([(0, 1, "ORG"), (1, 3, "ORG")], 4, "iob1")
    ['I-ORG', 'B-ORG', 'I-ORG', 'O']
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
    """Chunks ``(start, end, type)`` of one sentence's tags, sorted by start.

    Parameters
    ----------
    tags : sequence of str
    scheme : str or Scheme
        A scheme, or ``"conlleval"`` for conlleval.pl's rules.
    strict : bool
        Accept only what ``scheme`` itself writes; False (default) repairs as conlleval.pl does.

    Returns
    -------
    list of (start, end, type)

    Raises
    ------
    InputError
        For a tag not of ``scheme``, and with ``strict`` at the first tag ``scheme`` would not write.

    Examples
    --------
    >>> decode(["B-PER", "I-PER", "O", "I-LOC", "B-LOC"], "iob2")
    [(0, 2, 'PER'), (3, 4, 'LOC'), (4, 5, 'LOC')]
    >>> decode(["B-PER", "I-PER", "O", "I-LOC"], "iob2", strict=True)
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: position 3: tag 'I-LOC' is not valid IOB2 here (expected 'B-LOC')
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
        raise InputError(f"position {i}: tag {tags[i]!r} is not valid {sch.name.upper()} here (expected "
                         f"{canonical[i]!r})")


def is_valid(tags: Sequence[str], scheme: str | Scheme) -> bool:
    """Whether ``tags`` is exactly what ``scheme`` writes for its chunks (False for an unknown scheme too).

    Parameters
    ----------
    tags : sequence of str
    scheme : str or Scheme

    Returns
    -------
    bool

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
    """Re-encode ``tags`` from scheme ``src`` (decoded leniently; may be ``"conlleval"``) into ``dst``.

    Parameters
    ----------
    tags : sequence of str
    src, dst : str or Scheme

    Returns
    -------
    list of str

    Raises
    ------
    InputError
        For a tag that is not of ``src``, or an unknown scheme.

    Examples
    --------
    >>> convert(["B-PER", "I-PER", "B-LOC", "O"], "iob2", "bilou")
    ['B-PER', 'L-PER', 'U-LOC', 'O']
    """
    return encode(decode(tags, src), len(tags), dst)


# ----------------------------------------------------------------------------- detect

def _sequences(tags: Iterable) -> list[tuple[str, ...]]:
    if isinstance(tags, str):
        raise InputError("detect() needs a sequence of tags, not a single string")
    items = list(tags)
    if not items or isinstance(items[0], str):
        return [tuple(items)]
    return [tuple(s) for s in items]
