"""Statistics of m×2 BCV results: posteriors, Bayes test, sequential t-test, textbook tests.

Throughout, ``m`` is the number of splits (2m folds), and metrics computed from counts, their differences and
ropes are fractions (× 100 for points). Imports only numpy and scipy; submodules load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below are, for type checkers; at run time each loads on first use
    from .answer import BayesAnswer, Comparison, Posterior
    from .bayes import DECISIONS, THRESHOLD, decide, difference_density, prob_better, prob_better_mc, prob_greater
    from .compare import bayes_answer, fold_counts, fold_metrics
    from .components import Estimate, VarianceComponents, fold_covariance, variance_components
    from .correlation import count_factor, thesis_count_factor
    from .onesplit import OneSplitResult, approximate_randomization, one_split_tests, paired_bootstrap
    from .posterior import BetaPosterior, F1Posterior, posteriors
    from .sequential import SequentialPair, SequentialTTest, sequential_pairs, sequential_t_test

#: where each name of :data:`__all__` lives. The submodules load on first use (PEP 562), so what needs one light
#: module of this package — :mod:`textbcv.scoring` needs only :mod:`.metrics` — does not pay for scipy.stats
#: (half a second of every ``textbcv score``).
_HOME = {
    "BayesAnswer": "answer", "Comparison": "answer", "Posterior": "answer",
    "DECISIONS": "bayes", "THRESHOLD": "bayes", "decide": "bayes", "difference_density": "bayes",
    "prob_better": "bayes", "prob_better_mc": "bayes", "prob_greater": "bayes",
    "bayes_answer": "compare", "fold_counts": "compare", "fold_metrics": "compare",
    "Estimate": "components", "VarianceComponents": "components", "fold_covariance": "components",
    "variance_components": "components",
    "count_factor": "correlation", "thesis_count_factor": "correlation",
    "OneSplitResult": "onesplit", "approximate_randomization": "onesplit", "one_split_tests": "onesplit",
    "paired_bootstrap": "onesplit",
    "BetaPosterior": "posterior", "F1Posterior": "posterior", "posteriors": "posterior",
    "SequentialPair": "sequential", "SequentialTTest": "sequential", "sequential_pairs": "sequential",
    "sequential_t_test": "sequential",
}


def __getattr__(name: str) -> Any:
    """``textbcv.stats.NAME``: the name from its submodule, loaded on first use."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


__all__ = [
    "BayesAnswer", "BetaPosterior", "Comparison", "DECISIONS", "Estimate", "F1Posterior", "OneSplitResult",
    "Posterior", "SequentialPair", "SequentialTTest", "THRESHOLD", "VarianceComponents", "approximate_randomization",
    "bayes_answer", "count_factor", "decide", "difference_density", "fold_counts",
    "fold_covariance", "fold_metrics", "one_split_tests", "paired_bootstrap", "posteriors", "prob_better",
    "prob_better_mc", "prob_greater", "sequential_pairs", "sequential_t_test", "thesis_count_factor",
    "variance_components",
]
