"""A scikit-learn splitter for m×2 BCV (public scikit-learn API only).

Examples
--------
>>> import numpy as np
>>> cv = Mx2BCV(m=3, random_state=0)
>>> X = np.zeros((20, 1))
>>> folds = list(cv.split(X))
>>> cv.get_n_splits(), len(folds), [len(te) for _, te in folds[:2]]
(6, 6, [10, 10])
>>> bool((folds[0][0] == folds[1][1]).all())   # split 0: train→valid, then valid→train
True
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import check_random_state, indexable

from textbcv.errors import InputError
from textbcv.split.make import split_units

__all__ = ["Mx2BCV"]


class Mx2BCV(BaseCrossValidator):
    """Block-regularized m×2 cross-validation.

    Parameters
    ----------
    m : int
        Number of splits; 2m (train, test) pairs in fold order.
    balance : dict of sparse (n, J) or callable, optional
        Category counts per sample to balance, or ``callable(X, y)`` returning them (default: y's classes).
    random_state : int, numpy RandomState or None
        An integer gives the same splits at every call; None or a RandomState draws a seed per call.

    Notes
    -----
    With scikit-learn's metadata routing on, ``groups`` is requested by default, as by its group splitters.
    """

    # scikit-learn's documented default request of a consumer: pass `groups` to split()
    __metadata_request__split = {"groups": True}  # noqa: RUF012

    def __init__(self, m: int = 3, balance=None, random_state: int | np.random.RandomState | None = 0):
        self.m = m
        self.balance = balance
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """2m: the number of (train, test) pairs.

        Parameters
        ----------
        X, y, groups : object
            Ignored.

        Returns
        -------
        int
        """
        return 2 * self.m

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` index arrays: split 0 train→test, then test→train, split 1, ...

        Parameters
        ----------
        X : array_like, shape (n_samples, ...)
            The samples.
        y : array_like, optional
            Targets; a one-dimensional ``y`` gives the default balance measure.
        groups : array_like, optional
            Samples of one group always fall in the same half.

        Yields
        ------
        train, test : numpy.ndarray of int64
            Sorted indices.
        """
        X, y, groups = indexable(X, y, groups)
        n = X.shape[0] if hasattr(X, "shape") else len(X)
        if callable(self.balance):
            measures = self.balance(X, y)
        elif self.balance is not None:
            measures = self.balance
        elif y is not None and np.ndim(y) == 1:
            _, codes = np.unique(np.asarray(y), return_inverse=True)
            measures = {"label": sp.csr_matrix((np.ones(n), (np.arange(n), codes.ravel())))}
        else:
            measures = {}
        s = split_units(n, self.m, measures=measures, groups=groups, seed=self._seed(), quality=False)
        for _, _, train, test in s.folds():
            yield train, test

    def _seed(self) -> int:
        rs = self.random_state
        if isinstance(rs, numbers.Integral) and not isinstance(rs, bool):
            if rs < 0:
                raise InputError(f"random_state must be a non-negative integer, None or a RandomState, got {rs}",
                                 param="random_state")
            return int(rs)
        return int(check_random_state(rs).randint(np.iinfo(np.int32).max))
