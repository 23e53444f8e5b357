"""Sentence fingerprints: a short hash of a sentence's tokens, to tell one corpus from another.

A split manifest stores the fingerprint of every sentence it splits, so a
later use of the manifest (``textbcv evaluate``, ``compare --splits``) can
refuse a corpus that is not the one the halves were made from — another
file, another order, another tokenization — instead of silently pairing
predictions with the wrong gold.

The fingerprint is the 64-bit BLAKE2b digest of the tokens joined by line
feeds (no token holds one), in hexadecimal. It depends on the tokens only,
not on tags or other columns.

Examples
--------
>>> fingerprint(("EU", "rejects", "German", "call"))
'023fe27f88f619cb'
>>> fingerprint(("EU", "rejects")) == fingerprint(("EU rejects",))
False
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

__all__ = ["fingerprint", "corpus_fingerprints", "corpus_digest", "FINGERPRINT_METHOD"]

#: Name of the fingerprint recorded in split manifests.
FINGERPRINT_METHOD = "blake2b-64 of the tokens joined by LF"


def fingerprint(tokens: Sequence[str]) -> str:
    """The fingerprint of one sentence's tokens (16 hexadecimal digits).

    Parameters
    ----------
    tokens : sequence of str
        The sentence's tokens (no token holds a line feed).

    Returns
    -------
    str
        The 64-bit BLAKE2b digest of the tokens joined by LF (UTF-8), as 16 lowercase hexadecimal digits.
    """
    return hashlib.blake2b("\n".join(tokens).encode("utf-8"), digest_size=8).hexdigest()


def corpus_fingerprints(sentences: Iterable) -> list[str]:
    """Fingerprints of every sentence (objects with ``tokens``, e.g. a :class:`~textbcv.corpus.Corpus`), in order.

    Parameters
    ----------
    sentences : iterable
        Sentences: objects with a ``tokens`` sequence of str, e.g. a :class:`~textbcv.corpus.Corpus`.

    Returns
    -------
    list of str
        The :func:`fingerprint` of every sentence, in iteration order.
    """
    return [fingerprint(s.tokens) for s in sentences]


def corpus_digest(fingerprints: Iterable[str]) -> str:
    """One digest of a whole corpus (its sentence fingerprints in order), 16 hexadecimal digits.

    Parameters
    ----------
    fingerprints : iterable of str
        Sentence fingerprints (ASCII hexadecimal strings), in corpus order.

    Returns
    -------
    str
        The 64-bit BLAKE2b digest of the fingerprints, each followed by LF, as 16 hexadecimal digits;
        it depends on their order and number.

    Examples
    --------
    >>> corpus_digest(["6f5a1d2d1b3c3b8b"]) != corpus_digest(["6f5a1d2d1b3c3b8b"] * 2)
    True
    """
    h = hashlib.blake2b(digest_size=8)
    for f in fingerprints:
        h.update(f.encode("ascii"))
        h.update(b"\n")
    return h.hexdigest()
