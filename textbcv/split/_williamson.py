"""Hadamard matrices of Williamson type, for orders Paley and Sylvester do not reach (92).

The stored first rows of A, B, C, D (symmetric circulant, A² + B² + C² + D² = 4n I) give a Hadamard
matrix of order 4n; they were found by a meet-in-the-middle search over symmetric sequences.
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
