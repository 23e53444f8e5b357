"""The paired posterior of Δ = metric(B) − metric(A) for two systems tagged on the same test sentences.

The parts live in their own modules: :mod:`.clusters` (per-cluster count cross-products, related clusters),
:mod:`.linear` (linearised cluster variances), :mod:`.noise` (the folds' model noise), :mod:`.seeds` (the
training seeds' part), :mod:`.difference` (the posterior value and its summaries), :mod:`.build` (the parts put
together) and :mod:`.ratio` (one system's ratio, macro-F1). The derivation is in docs/method.md, §7 "The
difference, paired". Imports only numpy and scipy.
"""

from .build import paired_difference, paired_difference_from_moments, paired_differences
from .clusters import cluster_cross_products, related_cross_products
from .difference import PairedDifference
from .linear import LAYOUTS, MACRO_F1, PairedVariances, paired_variances
from .noise import fold_noise, satterthwaite
from .ratio import macro_difference, ratio_posterior
from .seeds import SeedMoments, seed_moments, seed_variance

__all__ = ["cluster_cross_products", "related_cross_products", "PairedVariances", "paired_variances", "LAYOUTS",
           "PairedDifference",
           "SeedMoments", "seed_moments", "ratio_posterior", "macro_difference", "MACRO_F1",
           "paired_difference", "paired_difference_from_moments", "paired_differences", "satterthwaite", "fold_noise",
           "seed_variance"]
