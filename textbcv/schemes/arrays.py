"""The rules of :mod:`textbcv.schemes` on integer-coded tags, with array operations.

A corpus is one stream of codes in which every sentence is preceded by an
``O`` (so no chunk crosses a sentence boundary and lenient decoding of the
stream equals decoding each sentence); a file of 10^7 tags is coded once
(:class:`TagCodes`) and decoded, checked and scheme-detected without a Python
object per tag. ``tests/test_schemes_arrays.py`` checks every function here
against its one-sentence-at-a-time counterpart in :mod:`textbcv.schemes.core`. :func:`detect` (the scheme of
tag sequences) is here because it works on the codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textbcv.errors import InputError
from textbcv.schemes.core import (
    _BEGIN,
    _END,
    _PREFERENCE,
    OUTSIDE,
    SCHEMES,
    Scheme,
    _sequences,
    get_scheme,
    make_tag,
    split_tag,
)

__all__ = ["detect", "TagCodes", "tag_stream", "scheme_arrays", "chunk_flags", "chunk_spans", "tag_pairs",
           "detect_codes", "detect_stream", "detect_pairs", "orphan_chunks", "orphan_pairs", "ORPHAN_SCHEMES"]


class TagCodes(dict):
    """Tag -> integer code, giving the next code to a tag seen for the first time; ``O`` is code 0.

    ``numpy.fromiter(map(codes.__getitem__, tags), ...)`` codes a tag stream
    at C speed; ``list(codes)`` is then the vocabulary (code ``i`` is its
    ``i``-th tag).

    Attributes
    ----------
    No attributes of its own: the mapping (tag -> code) is the state. It starts as ``{"O": 0}``; looking up
    an unknown tag adds it with code ``len(self)``. ``TagCodes()`` takes no arguments.

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



def tag_stream(codes, lengths, outside: int):
    """The stream of ``codes`` (sentences of ``lengths``) with ``outside`` before every sentence and at the end.

    Returns the stream and the index in it of every original code.

    Parameters
    ----------
    codes : array_like of int
        Integer tag codes of all sentences, concatenated.
    lengths : array_like of int
        Length of every sentence, in order; they add up to ``len(codes)``.
    outside : int
        The code inserted before every sentence and once at the end (the code of ``O``, or any boundary code).

    Returns
    -------
    stream : numpy.ndarray
        ``len(codes) + len(lengths) + 1`` codes.
    pos : numpy.ndarray of int64
        ``stream[pos[i]] == codes[i]``.
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
    """``(kind, type id, types)`` arrays of every tag of ``vocab`` under ``sch`` (InputError for a tag not of it).

    Parameters
    ----------
    vocab : sequence of str
        The tag of every code (``vocab[c]`` for code ``c``).
    sch : Scheme
        The scheme the tags are read in.

    Returns
    -------
    kind : numpy.ndarray of int8
        Kind flags of every code as :meth:`Scheme.kind` gives them (0 for ``O``; bit 1 inside, 2 always begins,
        4 always ends a chunk).
    type_id : numpy.ndarray of int32
        Index into ``types`` of every code's chunk type.
    types : list of str
        The distinct chunk types, sorted (``""`` for ``O`` and untyped tags).
    """
    import numpy as np

    kinds = [sch.kind(t) for t in vocab]
    types = sorted({t for _, t in kinds})
    tix = {t: i for i, t in enumerate(types)}
    return (np.array([k for k, _ in kinds], dtype=np.int8), np.array([tix[t] for _, t in kinds], dtype=np.int32), types)


def chunk_flags(stream, kind, typ):
    """``(inside, start, stop, type id)`` at every position of a code stream, decoded leniently (as :func:`decode`).

    Parameters
    ----------
    stream : numpy.ndarray of int
        A code stream whose sentences are separated by the code of ``O`` (see :func:`tag_stream`).
    kind : numpy.ndarray of int8
        Kind flags per code (:func:`scheme_arrays`).
    typ : numpy.ndarray of int
        Type id per code (:func:`scheme_arrays`).

    Returns
    -------
    inside : numpy.ndarray of bool
        The position is inside a chunk.
    start : numpy.ndarray of bool
        A chunk starts at the position.
    stop : numpy.ndarray of bool
        A chunk ends at the position (its last token).
    type_id : numpy.ndarray
        The type id at every position.
    """
    k = kind[stream]
    t = typ[stream]
    inside = k != 0
    start = inside.copy()
    start[1:] &= ~inside[:-1] | ((k[1:] & _BEGIN) != 0) | ((k[:-1] & _END) != 0) | (t[1:] != t[:-1])
    stop = inside.copy()
    stop[:-1] &= ~inside[1:] | start[1:]
    return inside, start, stop, t


def chunk_spans(stream, kind, typ):
    """Starts, ends (exclusive) and type ids of the chunks of a code stream, decoded leniently (as :func:`decode`).

    Parameters
    ----------
    stream : numpy.ndarray of int
        A code stream whose sentences are separated by the code of ``O`` (see :func:`tag_stream`).
    kind : numpy.ndarray of int8
        Kind flags per code (:func:`scheme_arrays`).
    typ : numpy.ndarray of int
        Type id per code (:func:`scheme_arrays`).

    Returns
    -------
    starts : numpy.ndarray of intp
        Stream position of every chunk's first token, ascending.
    ends : numpy.ndarray of intp
        Stream position after every chunk's last token.
    type_ids : numpy.ndarray
        Type id of every chunk (an index into ``types`` of :func:`scheme_arrays`).
    """
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

    Parameters
    ----------
    stream : array_like of int
        Tag codes in ``range(n_codes)``, sentences separated by ``outside``.
    n_codes : int
        Number of distinct codes (the vocabulary size).
    outside : int
        The code of ``O`` (default 0).

    Returns
    -------
    numpy.ndarray of int64
        Shape (n_codes, n_codes); entry ``[a, b]`` counts how often code ``b`` directly follows code ``a``.

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
    """:func:`textbcv.schemes.detect` on integer-coded tags: ``vocab[c]`` is the tag of code ``c``; ``lengths`` are
    the sentence lengths.

    Parameters
    ----------
    codes : array_like of int
        The tag codes of all sentences, concatenated.
    vocab : sequence of str
        The tag of every code.
    lengths : array_like of int
        The length of every sentence, in order.

    Returns
    -------
    str
        A canonical scheme name (:func:`textbcv.schemes.scheme_names`).

    Raises
    ------
    InputError
        When no scheme has all the prefixes used.

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
    """:func:`detect` on a code stream whose sentences are separated by the code of ``O`` (see :func:`tag_stream`).

    Parameters
    ----------
    stream : array_like of int
        Tag codes, sentences separated by the code of ``O``.
    vocab : sequence of str
        The tag of every code; ``O`` is added when missing.

    Returns
    -------
    str
        A canonical scheme name.
    """
    vocab = list(vocab)
    if OUTSIDE not in vocab:
        vocab.append(OUTSIDE)
    return detect_pairs(tag_pairs(stream, len(vocab), vocab.index(OUTSIDE)), vocab)


def detect_pairs(pairs, vocab: Sequence[str]) -> str:
    """:func:`detect` from the :func:`tag_pairs` of the tags (codes that never occur are ignored).

    Parameters
    ----------
    pairs : array_like of int
        The (n_codes, n_codes) bigram counts of :func:`tag_pairs`.
    vocab : sequence of str
        The tag of every code; it must include ``O``.

    Returns
    -------
    str
        A canonical scheme name, chosen as :func:`detect` describes.

    Raises
    ------
    InputError
        When no scheme has all the prefixes used.
    """
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
    scheme : str or Scheme
        The scheme the tags claim to be in.
    outside : int, optional
        Not used: the code of ``O`` is found in ``vocab`` (``O`` is added when missing).

    Returns
    -------
    dict of str to int
        Prefix to the number of chunks that start with it though ``scheme`` never starts a chunk so, in ASCII
        order of prefix; empty for schemes not in ``ORPHAN_SCHEMES``.

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
    """:func:`orphan_chunks` from the :func:`tag_pairs` of the tags.

    Parameters
    ----------
    pairs : array_like of int
        The (n_codes, n_codes) bigram counts of :func:`tag_pairs`.
    vocab : sequence of str
        The tag of every code (including ``O``); each that occurs must be a tag of ``scheme``.
    scheme : str or Scheme
        The scheme the tags claim to be in.

    Returns
    -------
    dict of str to int
        As :func:`orphan_chunks`.
    """
    sch = get_scheme(scheme)
    if sch.name not in ORPHAN_SCHEMES:
        return {}
    firsts = {sch.single, sch.heads[0]} | ({sch.touch_begin} if sch.touch_begin else set())
    return {p: n for p, n in sorted(_chunk_starts(pairs, vocab, sch).items()) if p not in firsts and n}


#: Schemes whose chunks must start with their own start prefixes (orphan starts are counted and reported).
ORPHAN_SCHEMES = ("iob2", "iobes", "bilou", "bmes", "bb2b3mes")

def detect(tags: Iterable) -> str:
    """The tagging scheme of ``tags`` (one tag sequence, or an iterable of sequences).

    The candidates are the schemes whose prefixes cover every prefix used;
    of those, the first in the order iob2, iob1, ioe2, ioe1, iobes, bilou,
    bmes, bb2b3mes under which every sequence is strictly valid wins
    (untyped tags prefer bmes to iobes; ``M``/``B2`` decide bmes and
    bb2b3mes). When no candidate is strictly valid (annotation slips), B/I
    tags are called iob1 or iob2 by which way most chunks open, other tags
    the first candidate; lenient decoding repairs the rest.

    Parameters
    ----------
    tags : iterable
        One sequence of tags (e.g. ``["B-PER", "O"]``) or an iterable of such sequences (sentences, each
        read as if surrounded by ``O``); not a single string.

    Returns
    -------
    str
        A canonical scheme name (``"iob1"``, ``"iob2"``, ``"ioe1"``, ``"ioe2"``, ``"iobes"``, ``"bilou"``, ``"bmes"``
        or ``"bb2b3mes"``).

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
