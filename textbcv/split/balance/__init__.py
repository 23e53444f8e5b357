"""Balanced assignment of units to blocks (chapter 4, done constructively).

Every half of every m×2 BCV split is a union of blocks. For one category c
with block deviations d_b = n_bc − C_c/N (N blocks, Σ_b d_b = 0), the
deviation of the training half of split i is (Hᵀd)_i / 2, so by Parseval
Σ_{i=1}^{N−1} (T_ic − C_c/2)² = 4 Σ_b d_b²: with m = N − 1 (3, 7, 15, ...)
the *sum over all halves* of the χ² numerators is exactly the block-level
objective ``Σ_b Σ_c w_c d_bc²`` minimised here (with w_c ∝ 1/C_c as in χ²).
It is smallest when every block holds ⌊C_c/N⌋ or ⌈C_c/N⌉ of every category,
which is what perfect recursive bisection gives at every level — the blocks
are built that way (:class:`textbcv.split.bcv.NestedBlocks`).

One module per mechanism, in the order they act:

- :mod:`~textbcv.split.balance.stacking` — :func:`objective`: the measures'
  counts stacked into one matrix X with column weights W (lazily, as
  :class:`StackedCounts`);
- :mod:`~textbcv.split.balance.dealing` — :func:`deal`: items dealt to the
  children of their parent block, sizes met exactly, then improved by
- :mod:`~textbcv.split.balance.descent` — :func:`refine`: swap descent within
  every parent, and on the top level by
- :mod:`~textbcv.split.balance.search` — :func:`polish` and :func:`perturb`:
  exact local search and noising cycles.

None of them changes a block's size; each step only lowers the objective.
"""

from textbcv.split.balance.dealing import deal, rarity_order
from textbcv.split.balance.descent import refine
from textbcv.split.balance.search import perturb, polish
from textbcv.split.balance.stacking import DEFAULT_WEIGHTS, MIN_COUNT, StackedCounts, objective

__all__ = [
           "DEFAULT_WEIGHTS",
           "MIN_COUNT",
           "StackedCounts",
           "deal",
           "objective",
           "perturb",
           "polish",
           "rarity_order",
           "refine",
]
