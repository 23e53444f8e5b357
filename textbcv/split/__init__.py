"""Splitting a corpus: block-regularized m×2 CV with balanced halves, other designs, manifests.

>>> from textbcv.split import split_units
>>> s = split_units(100, m=3, seed=0)
>>> [len(t) for t, v in s.splits]
[50, 50, 50]
"""

from textbcv.split.bcv import NestedBlocks, halves_from_blocks, max_m, n_blocks_for
from textbcv.split.designs import METHODS
from textbcv.split.make import make_splits, split_units
from textbcv.split.manifest import SplitSet, load_splits
from textbcv.split.nested import NestedSplits
from textbcv.split.oa import hadamard_matrix
from textbcv.split.quality import chi2_per_df, overlap_matrix, split_quality

__all__ = [
    "SplitSet", "NestedSplits", "split_units", "make_splits", "load_splits", "METHODS", "NestedBlocks",
    "halves_from_blocks", "max_m", "n_blocks_for", "hadamard_matrix", "chi2_per_df", "overlap_matrix", "split_quality",
    "Mx2BCV",
]


def __getattr__(name):  # the scikit-learn splitter imports scikit-learn only when asked for
    if name == "Mx2BCV":
        from textbcv.split.sklearn import Mx2BCV

        return Mx2BCV
    raise AttributeError(name)
