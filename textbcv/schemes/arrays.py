"""The rules of :mod:`textbcv.schemes` on integer-coded tag streams, with array operations.

A stream has an ``O`` before every sentence, so no chunk crosses a sentence boundary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textbcv.errors import InputError
from textbcv.schemes.core import (
    _BEGIN,
    _END,
    OUTSIDE,
    SCHEMES,
    Scheme,
    _sequences,
    get_scheme,
    make_tag,
    split_tag,
)

__all__ = ["detect", "TagCodes", "tag_stream", "scheme_arrays", "chunk_flags", "chunk_spans", "tag_pairs",
           "detect_codes", "detect_pairs", "orphan_chunks", "orphan_pairs"]


class TagCodes(dict):
    """Tag -> integer code; ``O`` is 0 and a tag seen for the first time gets the next code.

    Attributes
    ----------
    The mapping (tag -> code) is the whole state; ``list(codes)`` is the vocabulary.

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
    """The stream of ``codes`` with ``outside`` before every sentence and at the end, and where each code went.

    Parameters
    ----------
    codes : array_like of int
        Tag codes of all sentences, concatenated.
    lengths : array_like of int
        Length of every sentence.
    outside : int
        The code inserted.

    Returns
    -------
    stream : numpy.ndarray
    pos : int64 array
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
    """Kind flags (:meth:`Scheme.kind`), type ids and sorted types of every tag of ``vocab`` under ``sch``.

    Parameters
    ----------
    vocab : sequence of str
        The tag of every code.
    sch : Scheme

    Returns
    -------
    kind : int8 array
    type_id : int32 array
        Index into ``types``.
    types : list of str

    Raises
    ------
    InputError
        For a tag not of ``sch``.
    """
    import numpy as np

    kinds = [sch.kind(t) for t in vocab]
    types = sorted({t for _, t in kinds})
    tix = {t: i for i, t in enumerate(types)}
    return (np.array([k for k, _ in kinds], dtype=np.int8), np.array([tix[t] for _, t in kinds], dtype=np.int32), types)


def chunk_flags(stream, kind, typ):
    """Inside, start, stop and type id at every position of a code stream, decoded leniently.

    Parameters
    ----------
    stream : numpy.ndarray of int
        Codes, sentences separated by the code of ``O`` (:func:`tag_stream`).
    kind, typ : numpy.ndarray
        Kind flags and type ids per code (:func:`scheme_arrays`).

    Returns
    -------
    inside, start, stop : numpy.ndarray of bool
    type_id : numpy.ndarray
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
    """Starts, ends (exclusive) and type ids of the chunks of a code stream, decoded leniently.

    Parameters
    ----------
    stream, kind, typ : numpy.ndarray
        As in :func:`chunk_flags`.

    Returns
    -------
    starts, ends, type_ids : numpy.ndarray
    """
    import numpy as np

    _, start, stop, t = chunk_flags(stream, kind, typ)
    s = np.flatnonzero(start)
    return s, np.flatnonzero(stop) + 1, t[s]


def tag_pairs(stream, n_codes: int, outside: int = 0):
    """``[a, b]``: how often code ``b`` follows code ``a`` in ``stream``, read as if ``O`` came before and after.

    Parameters
    ----------
    stream : array_like of int
        Codes in ``range(n_codes)``, sentences separated by ``outside``.
    n_codes : int
    outside : int
        The code of ``O`` (default 0).

    Returns
    -------
    (n_codes, n_codes) int64 array

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


_ALLOWED: dict[Scheme, frozenset] = {}


def _allowed_pairs(sch: Scheme) -> frozenset:
    """``(prefix, next prefix, same type)`` of every bigram ``sch`` writes: validity is a property of bigrams."""
    out = _ALLOWED.get(sch)
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
        out = _ALLOWED[sch] = frozenset(pairs)
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
    """:func:`detect` on integer-coded tags: ``vocab[c]`` is the tag of code ``c``.

    Parameters
    ----------
    codes : array_like of int
        The tag codes of all sentences, concatenated.
    vocab : sequence of str
    lengths : array_like of int
        The length of every sentence.

    Returns
    -------
    str

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


def detect_pairs(pairs, vocab: Sequence[str]) -> str:
    """:func:`detect` from the :func:`tag_pairs` of the tags (codes that never occur are ignored).

    Parameters
    ----------
    pairs : array_like of int
    vocab : sequence of str
        The tag of every code, ``O`` included.

    Returns
    -------
    str

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
    untyped = bool(split) and all(t == "" for _, t in split)
    candidates = [s for s in _detection_order(untyped) if used <= s.prefixes]
    if not candidates:
        raise InputError(f"no tagging scheme uses the prefixes {', '.join(sorted(used))}")
    for sch in candidates:
        if _valid_pairs(pairs, vocab, sch):
            return sch.name
    twins = _start_twins(used)
    if twins is not None:
        # Mixed use (annotation slips), e.g. IOB1 and IOB2: the scheme that marks a chunk's start only after a
        # chunk of its type if more chunks open with its other prefixes than with a marked start that does not
        # follow a chunk of its type, else its twin that marks every start. Their lenient decodings are the same.
        touch, every = twins
        mark = touch.touch_begin or ""
        starts = _chunk_starts(pairs, vocab, touch)
        opens_plain = sum(n for p, n in starts.items() if p != mark)
        # a marked start that follows a chunk of its type does not count
        a, b, split_all, _ = _pair_info(pairs, vocab)
        follows = sum(int(pairs[x, y]) for x, y in zip(a, b)
                      if split_all[y][0] == mark and vocab[x] != OUTSIDE and vocab[y] != OUTSIDE
                      and split_all[x][1] == split_all[y][1])
        opens_marked = starts.get(mark, 0) - follows
        return touch.name if opens_plain >= opens_marked else every.name
    return candidates[0].name


def _detection_order(untyped: bool) -> list[Scheme]:
    """:data:`SCHEMES` in the order :func:`detect` tries them, by a rule on their own fields (see :func:`detect`)."""
    return sorted(SCHEMES.values(), key=lambda s: (len(s.prefixes), bool(s.touch_begin or s.touch_end),
                                                   untyped and not s.untyped))


def _start_twins(used: set) -> tuple[Scheme, Scheme] | None:
    """A scheme that fits ``used`` and marks a start only on a chunk after one of its type (IOB1), and its twin of
    the same prefixes that marks every start with that prefix (IOB2); None when no scheme is so paired."""
    for touch in SCHEMES.values():
        if touch.touch_begin and not touch.touch_end and used <= touch.prefixes:
            for every in SCHEMES.values():
                if (every.prefixes == touch.prefixes and not (every.touch_begin or every.touch_end)
                        and every.single == every.heads[0] == touch.touch_begin):
                    return touch, every
    return None


def orphan_chunks(stream, vocab: Sequence[str], scheme: str | Scheme) -> dict[str, int]:
    """Chunks that do not start the way ``scheme`` starts a chunk (e.g. with ``I-`` in IOB2), by start prefix.

    Schemes whose chunks may start with any of their prefixes (:attr:`Scheme.starts`: IOB1, IOE1, IOE2) have none.

    Parameters
    ----------
    stream : array of int
        Tag codes, sentences separated by the code of ``O``.
    vocab : sequence of str
        The tag of every code.
    scheme : str or Scheme
        The scheme the tags claim to be in.

    Returns
    -------
    dict of str to int
        In ASCII order of prefix.

    Examples
    --------
    >>> import numpy as np
    >>> orphan_chunks(np.array([0, 2, 0, 1, 2, 3, 0]), ["O", "B-PER", "I-PER", "I-LOC"], "iob2")
    {'I': 2}
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
    vocab : sequence of str
        The tag of every code, ``O`` included.
    scheme : str or Scheme

    Returns
    -------
    dict of str to int
    """
    sch = get_scheme(scheme)
    if sch.starts == sch.prefixes:
        return {}
    return {p: n for p, n in sorted(_chunk_starts(pairs, vocab, sch).items()) if p not in sch.starts and n}


def detect(tags: Iterable) -> str:
    """The tagging scheme of one tag sequence, or of an iterable of sentences (not a single string).

    Of the schemes that have every prefix used and under which every sentence is valid, the first wins in
    this order: fewest prefixes first (the simplest scheme that explains the tags); then schemes that mark
    every chunk alike before those that mark a chunk by its neighbour (IOB2 before IOB1, IOE2 before IOE1);
    then, for untyped tags, schemes meant for untyped chunks first (BMES before IOBES); then the order of
    :data:`SCHEMES`, so a scheme added at its end wins no tie. If none is valid, tags that fit IOB1 give
    IOB1 or IOB2 by how most chunks open (so for any scheme and twin paired so), else the first in that order.

    Parameters
    ----------
    tags : iterable

    Returns
    -------
    str

    Raises
    ------
    InputError
        When no scheme has all the prefixes used.

    Examples
    --------
    >>> detect(["I-PER", "O", "I-LOC", "B-LOC"]), detect([["B-PER", "I-PER"], ["B-LOC"]])
    ('iob1', 'iob2')
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
