"""conlleval.pl's chunk rules (``startOfChunk``, ``endOfChunk`` of 2004-01-26): prefixes ``B I E O [ ] .`` only."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["conlleval_end", "conlleval_start", "conlleval_split"]

OUTSIDE = "O"
Chunk = tuple[int, int, str]


def conlleval_end(prev_tag: str, tag: str, prev_type: str, typ: str) -> bool:
    """conlleval.pl ``endOfChunk``: did a chunk end between the previous token and this one?

    Parameters
    ----------
    prev_tag, tag : str
        Prefixes of the previous tag (``"O"`` before the first token) and of this one.
    prev_type, typ : str
        Their chunk types, as :func:`conlleval_split` gives them.

    Returns
    -------
    bool

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
    """conlleval.pl ``startOfChunk``: did a chunk start between the previous token and this one?

    Parameters
    ----------
    prev_tag, tag, prev_type, typ : str
        As in :func:`conlleval_end`.

    Returns
    -------
    bool

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
    """conlleval.pl's ``(prefix, type)`` of a tag, ``/^([^-]*)-(.*)$/``, a type ``"0"`` being ``""`` (Perl truth).

    Parameters
    ----------
    tag : str

    Returns
    -------
    prefix, type : str

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
