"""The balancing objective: every measure's category counts stacked into one weighted matrix."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

__all__ = ["DEFAULT_WEIGHTS", "MIN_COUNT", "StackedCounts", "as_csr", "objective"]

#: Weight of each measure in the objective: 1 / (its χ²/J target), so each is scaled by how tight it must be.
DEFAULT_WEIGHTS = {"label": 1 / 0.05, "length": 1 / 0.15, "lemma": 100 / 0.3}

#: Categories with fewer occurrences have an expected count below 5 in a half (·½ − rounding) and are pooled.
MIN_COUNT = 11


class _Piece(NamedTuple):
    """Columns of one measure in the stacked matrix: a CSR over the measure's entries, −1 marking dropped ones."""

    indptr: np.ndarray  # (n + 1,) int64, into the measure's entries
    indices: np.ndarray  # int32 column within the piece, −1 for an entry not in it
    data: np.ndarray  # float64
    n_cols: int
    lens: np.ndarray  # (n,) int64 entries of every row in the piece
    dropped: bool  # any −1 in indices


class StackedCounts:
    """The count matrix of :func:`objective`, kept as per-measure pieces until its entries are needed.

    Parameters
    ----------
    pieces : list of _Piece
        Per measure, its kept columns (and a pooled column), in column order.
    totals : list of numpy.ndarray
        Column totals of every piece.

    Attributes
    ----------
    shape : tuple of (int, int)
    indptr : int32 or int64 array
        Row pointers of the stacked CSR matrix.
    nnz : int

    Examples
    --------
    >>> M = sp.csr_matrix(np.array([[12, 1], [0, 1]]))
    >>> X, _ = objective({"lemma": M, "label": M}, {"lemma": 1.0, "label": 1.0})
    >>> X.shape, X.nnz, X.stacked, X.rows(np.array([1])).toarray().tolist()
    ((2, 4), 6, False, [[0.0, 1.0, 0.0, 1.0]])
    """

    def __init__(self, pieces: list[_Piece], totals: list[np.ndarray]):
        n = len(pieces[0].lens)
        self.shape = (n, sum(p.n_cols for p in pieces))
        indptr = np.r_[0, np.cumsum(sum(p.lens for p in pieces))]
        self.indptr = indptr.astype(np.int32 if indptr[-1] < 2**31 else np.int64)
        self.nnz = int(indptr[-1])
        self._pieces, self._totals = pieces, totals
        self._csr: sp.csr_matrix | None = None

    @property
    def stacked(self) -> bool:
        """Whether the whole matrix has been built."""
        return self._csr is not None

    def csr(self) -> sp.csr_matrix:
        """The whole matrix, exactly as a one-pass build gives it (stacked on first call, then kept).

        Returns
        -------
        scipy.sparse.csr_matrix
        """
        if self._csr is None:
            mats = []
            for p in self._pieces:
                ind, dat, ptr = p.indices, p.data, p.indptr
                if p.dropped:
                    k = ind >= 0
                    ind, dat, ptr = ind[k], dat[k], np.r_[0, np.cumsum(p.lens)]
                mats.append(sp.csr_matrix((dat, ind, ptr), shape=(len(p.lens), p.n_cols)))
            self._csr = sp.hstack(mats, format="csr") if len(mats) > 1 else mats[0].copy()
        return self._csr

    def rows(self, items: np.ndarray) -> sp.csr_matrix:
        """``X[items]`` for an integer array of rows (repeats allowed), stacking only those rows.

        Parameters
        ----------
        items : numpy.ndarray of int

        Returns
        -------
        scipy.sparse.csr_matrix
        """
        if self._csr is not None:
            return sp.csr_matrix(self._csr[items])
        items = np.asarray(items, dtype=np.int64)
        segs, rowlen, off = [], np.zeros(len(items), dtype=np.int64), 0
        for p in self._pieces:
            st = p.indptr[items]
            ln = p.indptr[items + 1] - st
            pos = np.repeat(st - (np.cumsum(ln) - ln), ln) + np.arange(int(ln.sum()))
            ind, dat = p.indices[pos], p.data[pos]
            if p.dropped:
                k = ind >= 0
                ind, dat, ln = ind[k], dat[k], p.lens[items]
            segs.append((ind + np.int32(off), dat, ln))
            rowlen += ln
            off += p.n_cols
        indptr = np.r_[0, np.cumsum(rowlen)]
        indices = np.empty(int(indptr[-1]), dtype=np.int32)
        data = np.empty(int(indptr[-1]), dtype=np.float64)
        start = indptr[:-1].copy()  # where the next piece's segment of every row starts
        for ind, dat, ln in segs:
            dest = np.repeat(start - (np.cumsum(ln) - ln), ln) + np.arange(len(ind))
            indices[dest], data[dest] = ind, dat
            start += ln
        return sp.csr_matrix((data, indices, indptr), shape=(len(items), self.shape[1]))

    def column_totals(self) -> np.ndarray:
        """Column sums, exactly as ``X.sum(axis=0)``, without stacking.

        Returns
        -------
        numpy.ndarray of float64
        """
        return np.concatenate(self._totals)

    def row_min(self, value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rows with entries and, for each, the smallest ``value[column]`` over its entries.

        Parameters
        ----------
        value : numpy.ndarray of int
            A value per column (e.g. its rarity rank).

        Returns
        -------
        has : bool array
        low : numpy.ndarray
        """
        n = self.shape[0]
        top = np.iinfo(value.dtype).max
        best = np.full(n, top, dtype=value.dtype)
        has = np.zeros(n, dtype=bool)
        off = 0
        for p in self._pieces:
            h = np.diff(p.indptr) > 0
            if h.any():
                v = np.r_[value[off : off + p.n_cols], top].astype(value.dtype)  # index −1: a dropped entry
                best[h] = np.minimum(best[h], np.minimum.reduceat(v[p.indices], p.indptr[:-1][h]))
                has |= p.lens > 0
            off += p.n_cols
        return has, best[has]


def as_csr(X: StackedCounts | sp.spmatrix | sp.sparray) -> sp.csr_matrix:
    """The whole matrix as CSR (a :class:`StackedCounts` is stacked, once).

    Parameters
    ----------
    X : StackedCounts or scipy sparse matrix or array

    Returns
    -------
    scipy.sparse.csr_matrix
    """
    return X.csr() if isinstance(X, StackedCounts) else sp.csr_matrix(X)


def objective(measures: dict[str, sp.csr_matrix], weights: dict[str, float] | None = None,
              min_count: int = MIN_COUNT) -> tuple[StackedCounts | sp.csr_matrix, np.ndarray]:
    """Stack the measures into one count matrix X and column weights W.

    ``Σ_b Σ_c W_c D_bc²`` is then ``Σ_measure weight · χ²/J`` up to a constant factor. Categories with
    fewer than ``min_count`` occurrences are pooled per measure. A measure ``"NAME:PART"`` takes NAME's
    weight; a ``"NAME:tail"`` measure is not divided by J.

    Parameters
    ----------
    measures : dict of str to scipy.sparse.csr_matrix
        Measure name to its (n_items, categories) counts.
    weights : dict of str to float, optional
        Weight of each measure, overriding :data:`DEFAULT_WEIGHTS` (others: 1.0).
    min_count : int
        Pooling threshold (default :data:`MIN_COUNT`).

    Returns
    -------
    X : StackedCounts or scipy.sparse.csr_matrix
        (n_items, K); K = 0 when no measure has two categories.
    W : (K,) float64 array

    Examples
    --------
    >>> X, W = objective({"lemma": sp.csr_matrix(np.array([[12, 1], [0, 1]]))}, {"lemma": 1.0})
    >>> W.round(4).tolist()
    [0.0417, 0.25]
    """
    weights = {**DEFAULT_WEIGHTS, **(weights or {})}
    n = next(iter(measures.values())).shape[0] if measures else 0
    pieces, totals, ws = [], [], []  # per measure: its kept columns, then its pooled column
    for name, M in measures.items():
        M = sp.csr_matrix(M)
        if M.shape[1] == 0 or M.nnz == 0:
            continue
        M.sum_duplicates()
        tot = np.bincount(M.indices, weights=M.data, minlength=M.shape[1])
        keep = tot >= min_count
        rare = (~keep) & (tot > 0)
        C = np.r_[tot[keep], tot[rare].sum()] if rare.any() else tot[keep]
        J = len(C)
        if J < 2:  # one category: nothing to balance
            continue
        nkeep = int(keep.sum())
        newcol = np.full(M.shape[1], -1, dtype=np.int32)
        newcol[keep] = np.arange(nkeep, dtype=np.int32)
        kc = newcol[M.indices]  # −1: an entry of a pooled (or zero-total) column
        data = M.data.astype(np.float64, copy=False)
        ptr = M.indptr.astype(np.int64)
        drop = np.flatnonzero(kc < 0)
        before = np.searchsorted(drop, ptr)  # dropped entries before every row start
        pieces.append(_Piece(ptr, kc, data, nkeep, np.diff(ptr) - np.diff(before), len(drop) > 0))
        totals.append(tot[keep])  # per column, the same additions in the same (row) order as X.sum(axis=0)
        if rare.any():  # a row's pooled count is a difference of the running sum, as in a one-pass build
            cs = np.r_[0.0, np.cumsum(data[drop])]
            rsum = cs[before[1:]] - cs[before[:-1]]
            has = rsum > 0
            pieces.append(_Piece(np.r_[0, np.cumsum(has)], np.zeros(int(has.sum()), dtype=np.int32), rsum[has], 1,
                                 has.astype(np.int64), False))
            totals.append(np.bincount(np.zeros(int(has.sum()), dtype=np.intp), weights=rsum[has], minlength=1))
        # sub-measures ("length:q16") take their measure's weight; a ":tail" measure's columns are each a
        # possible bin edge, so each counts as a whole measure (no 1/J: the worst edge matters, not the mean)
        w = weights.get(name, weights.get(name.split(":")[0], 1.0))
        ws.append(w / (np.maximum(C, 1) * (1 if name.endswith(":tail") else J)))
    if not pieces:
        return sp.csr_matrix((n, 0)), np.zeros(0)
    return StackedCounts(pieces, totals), np.concatenate(ws)
