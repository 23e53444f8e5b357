"""A scikit-learn splitter for m×2 BCV.

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

import numpy as np
import scipy.sparse as sp
from sklearn.model_selection import BaseCrossValidator
from sklearn.model_selection._split import GroupsConsumerMixin
from sklearn.utils.validation import _num_samples

from textbcv.split.manifest import split_units

__all__ = ["Mx2BCV"]


class Mx2BCV(GroupsConsumerMixin, BaseCrossValidator):
    """Block-regularized m×2 cross-validation.

    Parameters
    ----------
    m : int
        Number of splits; 2m (train, test) pairs in fold order (docs/formats.md).
    balance : dict of sparse (n, J) or callable, optional
        Category counts per sample to balance the halves on (e.g. from
        :func:`textbcv.split.profiles.count_matrix`), or ``callable(X, y)``
        returning such a dict. Default: y's classes when y is given.
    random_state : int
    """

    def __init__(self, m: int = 3, balance=None, random_state: int = 0):
        self.m = m
        self.balance = balance
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return 2 * self.m

    def split(self, X, y=None, groups=None):
        n = _num_samples(X)
        if callable(self.balance):
            measures = self.balance(X, y)
        elif self.balance is not None:
            measures = self.balance
        elif y is not None and np.ndim(y) == 1:
            _, codes = np.unique(np.asarray(y), return_inverse=True)
            measures = {"label": sp.csr_matrix((np.ones(n), (np.arange(n), codes.ravel())))}
        else:
            measures = {}
        s = split_units(n, self.m, measures=measures, groups=groups, seed=self.random_state, quality=False)
        for _, _, train, test in s.folds():
            yield train, test

    def _iter_test_indices(self, X=None, y=None, groups=None):  # pragma: no cover - split is overridden
        for _, test in self.split(X, y, groups):
            yield test
