"""Balanced assignment of units to blocks: every half of every split even on every measure.

The objective is ``Σ_b Σ_c w_c d_bc²`` over block deviations d, which for m = N − 1 equals the sum of
the χ² numerators over all halves. :mod:`.stacking` builds it, :mod:`.dealing` places the items,
:mod:`.descent` and :mod:`.search` improve the placement; no step changes a block's size.
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
