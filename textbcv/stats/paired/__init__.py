"""The paired posterior of Δ = metric(B) − metric(A) for two systems tagged on the same test sentences.

Folds are in split order (split 0's two directions, then split 1's, ...). See docs/method.md, "The difference,
paired".
"""

from .build import paired_difference, paired_difference_from_moments, paired_differences
from .clusters import cluster_cross_products, related_cross_products
from .difference import PairedDifference
from .fixed import FIXED, ScoreParts, fixed_difference, fixed_score
from .linear import LAYOUTS, MACRO_F1, PairedVariances, paired_variances
from .noise import fold_noise, satterthwaite
from .ratio import macro_difference, ratio_posterior
from .seeds import SeedMoments, seed_moments, seed_variance

__all__ = ["cluster_cross_products", "related_cross_products", "PairedVariances", "paired_variances", "LAYOUTS",
           "PairedDifference",
           "SeedMoments", "seed_moments", "ratio_posterior", "macro_difference", "MACRO_F1",
           "paired_difference", "paired_difference_from_moments", "paired_differences", "satterthwaite", "fold_noise",
           "seed_variance", "FIXED", "ScoreParts", "fixed_difference", "fixed_score"]
