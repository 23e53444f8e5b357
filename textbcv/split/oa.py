"""Normalised Hadamard matrices (two-level orthogonal arrays) of orders 1, 2 and multiples of 4.

Powers of two are Sylvester's (nested column order); other orders come from Paley's constructions
I and II over GF(q), Kronecker products with order 2, and stored Williamson sequences. See
docs/method.md, "Orthogonal arrays from Hadamard matrices".
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

import numpy as np
from scipy.linalg import hadamard

from textbcv.errors import InputError

__all__ = ["hadamard_matrix", "is_hadamard", "supported_orders"]


def _prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q = p**k`` and p prime, else None."""
    if q < 2:
        return None
    for p in range(2, int(q**0.5) + 1):
        if q % p == 0:
            k = 0
            while q % p == 0:
                q //= p
                k += 1
            return (p, k) if q == 1 else None
    return (q, 1)


class _GF:
    """The finite field GF(p^k), elements coded as integers 0..q-1 (base-p digits = coefficients)."""

    def __init__(self, p: int, k: int):
        self.p, self.k, self.q = p, k, p**k
        q = self.q
        if k == 1:
            self.add = (np.arange(q)[:, None] + np.arange(q)[None, :]) % p
            self.mul = (np.arange(q)[:, None] * np.arange(q)[None, :]) % p
            return
        poly = self._irreducible()
        digits = np.array([[(x // p**i) % p for i in range(k)] for x in range(q)])
        weights = p ** np.arange(k)
        self.add = ((digits[:, None, :] + digits[None, :, :]) % p) @ weights
        mul = np.zeros((q, q), dtype=np.int64)
        for a in range(q):
            for b in range(q):
                prod = np.zeros(2 * k - 1, dtype=np.int64)
                for i in range(k):
                    prod[i : i + k] += digits[a, i] * digits[b]
                for deg in range(2 * k - 2, k - 1, -1):  # reduce by the monic polynomial x^k + poly
                    c = prod[deg] % p
                    if c:
                        prod[deg - k : deg] -= c * poly
                    prod[deg] = 0
                mul[a, b] = int((prod[:k] % p) @ weights)
        self.mul = mul

    def _irreducible(self) -> np.ndarray:
        """Lower coefficients c_0..c_{k-1} of a monic irreducible x^k + ... over GF(p) (k ≤ 3)."""
        p, k = self.p, self.k
        for coeffs in product(range(p), repeat=k):
            c = np.array(coeffs)
            if c[0] == 0:
                continue
            # degree 2 or 3: irreducible iff no root in GF(p)
            if k in (2, 3) and all((x**k + sum(int(c[i]) * x**i for i in range(k))) % p for x in range(p)):
                return c
        raise NotImplementedError(f"GF({p}^{k}) is not supported")  # pragma: no cover

    def chi(self) -> np.ndarray:
        """Quadratic character of every element: 0, +1 (non-zero square) or -1."""
        sq = set(int(self.mul[a, a]) for a in range(1, self.q))
        return np.array([0] + [1 if a in sq else -1 for a in range(1, self.q)])

    def sub_table(self) -> np.ndarray:
        """``table[a, b] = a - b``."""
        neg = np.array([int(np.flatnonzero(self.add[a] == 0)[0]) for a in range(self.q)])
        return self.add[:, neg]


def _jacobsthal(q: int) -> np.ndarray:
    pk = _prime_power(q)
    if pk is None:  # the callers pass prime powers only
        raise ValueError(f"{q} is not a prime power")
    gf = _GF(*pk)
    return gf.chi()[gf.sub_table()]


def _paley1(q: int) -> np.ndarray:
    """Paley I: order q + 1 for a prime power q ≡ 3 (mod 4)."""
    Q = _jacobsthal(q)
    n = q + 1
    S = np.zeros((n, n), dtype=np.int64)
    S[0, 1:] = 1
    S[1:, 0] = -1
    S[1:, 1:] = Q
    return S + np.eye(n, dtype=np.int64)


def _paley2(q: int) -> np.ndarray:
    """Paley II: order 2(q + 1) for a prime power q ≡ 1 (mod 4)."""
    Q = _jacobsthal(q)
    n = q + 1
    C = np.zeros((n, n), dtype=np.int64)
    C[0, 1:] = 1
    C[1:, 0] = 1
    C[1:, 1:] = Q
    plus = np.array([[1, -1], [-1, -1]])
    zero = np.array([[1, 1], [1, -1]])
    out = np.zeros((2 * n, 2 * n), dtype=np.int64)
    for i in range(n):
        for j in range(n):
            out[2 * i : 2 * i + 2, 2 * j : 2 * j + 2] = zero if C[i, j] == 0 else C[i, j] * plus
    return out


@lru_cache(maxsize=None)
def _hadamard(N: int) -> np.ndarray | None:
    if N in (1, 2) or (N & (N - 1)) == 0:
        return hadamard(N).astype(np.int64)
    if N % 4:
        return None
    pk = _prime_power(N - 1)
    if pk and (N - 1) % 4 == 3 and pk[1] <= 3:
        return _paley1(N - 1)
    if N % 2 == 0:
        pk = _prime_power(N // 2 - 1)
        if pk and (N // 2 - 1) % 4 == 1 and pk[1] <= 3:
            return _paley2(N // 2 - 1)
        half = _hadamard(N // 2)
        if half is not None:
            return np.kron(hadamard(2), half)
    from textbcv.split._williamson import williamson_hadamard

    return williamson_hadamard(N)


def is_hadamard(H: np.ndarray) -> bool:
    """True if ``H`` is a ±1 matrix with ``H Hᵀ = N I``.

    Parameters
    ----------
    H : array_like
        A square matrix.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_hadamard(hadamard_matrix(12))
    True
    """
    H = np.asarray(H)
    N = H.shape[0]
    return (H.shape == (N, N) and bool(np.all(np.abs(H) == 1))
            and bool(np.array_equal(H @ H.T, N * np.eye(N, dtype=H.dtype))))


def hadamard_matrix(N: int) -> np.ndarray:
    """A normalised Hadamard matrix of order N (first row and column +1); Sylvester's for powers of two.

    Parameters
    ----------
    N : int
        1, 2, or a multiple of 4 in :func:`supported_orders`.

    Returns
    -------
    numpy.ndarray of int, shape (N, N)

    Raises
    ------
    InputError
        If no construction for N is known here.

    Examples
    --------
    >>> hadamard_matrix(4)
    array([[ 1,  1,  1,  1],
           [ 1, -1,  1, -1],
           [ 1,  1, -1, -1],
           [ 1, -1, -1,  1]])
    """
    H = _hadamard(int(N))
    if H is None:
        raise InputError(f"no Hadamard matrix of order {N} is available (orders: 1, 2 and multiples of 4 up to 100, "
                         "and their doublings)")
    H = H * H[0][None, :]  # first row +1
    H = H * H[:, :1]  # first column +1
    return H.copy()


def supported_orders(up_to: int = 100) -> list[int]:
    """Multiples of 4 up to ``up_to`` (default 100) for which :func:`hadamard_matrix` has a construction.

    Parameters
    ----------
    up_to : int
        The largest order to try.

    Returns
    -------
    list of int

    Examples
    --------
    >>> supported_orders(24)
    [4, 8, 12, 16, 20, 24]
    """
    out = []
    for N in range(4, up_to + 1, 4):
        try:
            if _hadamard(N) is not None:
                out.append(N)
        except NotImplementedError:
            pass
    return out
