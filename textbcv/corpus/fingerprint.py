"""Sentence fingerprints, so a split manifest can refuse a corpus other than the one it split.

Examples
--------
>>> fingerprint(("EU", "rejects", "German", "call"))
'023fe27f88f619cb'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

__all__ = ["fingerprint", "corpus_fingerprints", "corpus_digest", "FINGERPRINT_METHOD"]

#: Name of the fingerprint recorded in split manifests.
FINGERPRINT_METHOD = "blake2b-64 of the tokens joined by LF"


def fingerprint(tokens: Sequence[str]) -> str:
    """The 64-bit BLAKE2b digest of a sentence's tokens joined by LF (UTF-8), as 16 hexadecimal digits.

    Parameters
    ----------
    tokens : sequence of str

    Returns
    -------
    str
    """
    return hashlib.blake2b("\n".join(tokens).encode("utf-8"), digest_size=8).hexdigest()


def corpus_fingerprints(sentences: Iterable) -> list[str]:
    """The :func:`fingerprint` of every sentence (objects with ``tokens``, e.g. a Corpus), in order.

    Parameters
    ----------
    sentences : iterable

    Returns
    -------
    list of str
    """
    return [fingerprint(s.tokens) for s in sentences]


def corpus_digest(fingerprints: Iterable[str]) -> str:
    """One digest of a whole corpus's fingerprints, in order (16 hexadecimal digits).

    Parameters
    ----------
    fingerprints : iterable of str

    Returns
    -------
    str

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
