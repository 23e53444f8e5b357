"""Statistics of m×2 BCV results: posteriors, Bayes test, sequential t-test, textbook tests.

Imports only numpy and scipy; takes counts or per-fold metric values.

- :mod:`.correlation` — c_m, C_m, f_m, v_m, Ĉ_m, f̂_m, ARRV, ARRCI, choice of M
- :mod:`.posterior` — Beta posteriors of precision/recall, the F1 posterior
- :mod:`.bayes` — P(B better) exact (quadrature) and Monte Carlo, rope, the decision rule, the density of ν_B − ν_A
- :mod:`.compare` — :func:`compare_counts`: counts → the ``textbcv test`` answer
- :mod:`.sequential` — Algorithm 5.1, lazy
- :mod:`.classic` — textbook tests on stored per-fold values
- :mod:`.simulate` — the calibration study's engine
- :mod:`.components` — σ², ω, γ, ρ1, ρ2 and Var(μ̂_m×2) measured from repeated runs
- :mod:`.onesplit` — what one train/test split claims: paired bootstrap and approximate randomization
  over test sentences
"""

from .bayes import DECISIONS, THRESHOLD, decide, difference_density, prob_better, prob_better_mc, prob_greater
from .components import Estimate, VarianceComponents, fold_covariance, variance_components
from .compare import compare_counts, fold_counts, fold_metrics
from .correlation import count_factor, thesis_count_factor
from .onesplit import OneSplitResult, approximate_randomization, one_split_tests, paired_bootstrap
from .posterior import BetaPosterior, F1Posterior, posteriors
from .sequential import SequentialTTest, sequential_t_test

__all__ = [
    "BetaPosterior", "DECISIONS", "Estimate", "F1Posterior", "OneSplitResult", "SequentialTTest", "THRESHOLD",
    "VarianceComponents", "approximate_randomization", "compare_counts", "count_factor", "decide",
    "difference_density", "fold_counts", "fold_covariance", "fold_metrics", "one_split_tests", "paired_bootstrap",
    "posteriors", "prob_better", "prob_better_mc", "prob_greater", "sequential_t_test", "thesis_count_factor",
    "variance_components",
]
