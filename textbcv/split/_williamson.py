"""Hadamard matrices of Williamson type, for orders Paley and Sylvester do not reach (92).

A, B, C, D are symmetric circulant ±1 matrices of order n with
A² + B² + C² + D² = 4n I; the Williamson array of them is a Hadamard matrix of
order 4n. The first rows for n = 23 below were found by a meet-in-the-middle
search over symmetric sequences (periodic autocorrelations summing to zero, row
sums 3, 3, 5, 7 with 3² + 3² + 5² + 7² = 92); ``tests/test_split_oa.py``
verifies H Hᵀ = 92 I.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import circulant

__all__ = ["williamson_hadamard"]

_FIRST_ROWS = {
    23: (
        "++---+-+-++++++-+-+---+",
        "+-++-+++--+--+--+++-++-",
        "+++--+---+----+---+--++",
        "+++-+--++++--++++--+-++",
    ),
}


def williamson_hadamard(N: int) -> np.ndarray | None:
    """Hadamard matrix of order ``N = 4n`` from stored Williamson sequences, or None.

    Examples
    --------
    >>> H = williamson_hadamard(92)
    >>> bool((H @ H.T == 92 * np.eye(92)).all())
    True
    """
    n = N // 4
    if N % 4 or n not in _FIRST_ROWS:
        return None
    A, B, C, D = (circulant(np.array([1 if ch == "+" else -1 for ch in row])) for row in _FIRST_ROWS[n])
    return np.block([[A, B, C, D], [-B, A, -D, C], [-C, D, A, -B], [-D, -C, B, A]]).astype(np.int64)
