"""Bayes test of eq. 6.37: P(ν_B > ν_A) from independent posteriors, exact (quadrature) or Monte Carlo.

See docs/method.md, "7. The Bayes test: P(B better)".
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from .posterior import MetricPosterior, latent_grid, truncated_latent_grid

__all__ = ["prob_greater", "prob_better", "prob_better_mc", "decide", "difference_density", "difference_interval",
           "DECISIONS", "THRESHOLD", "NO_CLEAR_DIFFERENCE"]

#: The decision of a pair below the threshold.
NO_CLEAR_DIFFERENCE = "no clear difference"
#: The values of a comparison's ``decision``.
DECISIONS = ("B better", "A better", NO_CLEAR_DIFFERENCE)
#: Default decision threshold: a side is called better when its P(better) is at least this.
THRESHOLD = 0.95


def _same(x: MetricPosterior, y: MetricPosterior) -> bool:
    return type(x) is type(y) and x.alpha == y.alpha and x.beta == y.beta


def prob_greater(x: MetricPosterior, y: MetricPosterior, r: float = 0.0) -> float:
    """P(ν_X − ν_Y > r) for independent posteriors X, Y, by quadrature, clipped to [0, 1].

    Parameters
    ----------
    x, y : MetricPosterior
    r : float
        Margin ≥ 0, a fraction of the metric (0.005 is half an F1 point).

    Returns
    -------
    float

    Examples
    --------
    >>> from textbcv.stats.posterior import BetaPosterior
    >>> round(prob_greater(BetaPosterior(3, 1), BetaPosterior(1, 1)), 12)  # ∫ (1 − t³) dt
    0.75
    """
    if r < 0:
        raise ValueError("r must be >= 0")
    tx, wx = latent_grid(x.alpha, x.beta)
    ty, wy = latent_grid(y.alpha, y.beta)
    vx, vy = x.to_metric(tx), y.to_metric(ty)
    # integrate over the narrower posterior's density; the wider enters by its CDF
    if (vx[-1] - vx[0]) <= (vy[-1] - vy[0]):
        p = float(wx @ y.cdf(vx - r))        # E_X[P(Y < X − r)]
    else:
        p = float(wy @ x.sf(vy + r))         # E_Y[P(X > Y + r)]
    return min(max(p, 0.0), 1.0)


def prob_better(a: MetricPosterior, b: MetricPosterior, rope: float = 0.0) -> dict[str, float]:
    """P(B better), P(A better) and, with a rope r > 0, P(equivalent), exact.

    Without a rope ``p_a_better`` is 1 − ``p_b_better``; with one (as baycomp) each is P(better by more than r)
    and ``p_equivalent`` the rest. Identical posteriors give exactly ½ / ½.

    Parameters
    ----------
    a, b : MetricPosterior
        Posteriors of A and B on one metric, taken as independent.
    rope : float
        A fraction of the metric (0: none).

    Returns
    -------
    dict of str to float

    Examples
    --------
    >>> from textbcv.stats.posterior import posteriors
    >>> pa = posteriors(900, 100, 120, c=0.3688)["f1"]
    >>> pb = posteriors(930, 100, 110, c=0.3688)["f1"]
    >>> {k: round(v, 4) for k, v in prob_better(pa, pb).items()}
    {'p_b_better': 0.6728, 'p_a_better': 0.3272}
    """
    same = _same(a, b)
    if rope == 0:
        p_b = 0.5 if same else prob_greater(b, a)
        return {"p_b_better": p_b, "p_a_better": 1.0 - p_b}
    p_b = prob_greater(b, a, rope)
    p_a = p_b if same else prob_greater(a, b, rope)
    return {"p_b_better": p_b, "p_a_better": p_a, "p_equivalent": max(0.0, 1.0 - p_a - p_b)}


def prob_better_mc(a: MetricPosterior, b: MetricPosterior, rope: float = 0.0, draws: int = 10**6,
                   seed: int = 0) -> dict[str, float]:
    """Monte Carlo :func:`prob_better` (Algorithm 6.1, L = ``draws``), with a standard error.

    Parameters
    ----------
    a, b : MetricPosterior
    rope : float
        A fraction of the metric (0: none).
    draws : int
        L, draws from each posterior.
    seed : int
        Seed of ``numpy.random.default_rng``; A's draws come first.

    Returns
    -------
    dict of str to float
        As :func:`prob_better`, plus ``se_b_better`` = √(p(1 − p)/L), at least 1/L, and ``draws``.

    Examples
    --------
    >>> from textbcv.stats.posterior import posteriors
    >>> pa = posteriors(900, 100, 120, c=0.3688)["f1"]
    >>> r = prob_better_mc(pa, posteriors(930, 100, 110, c=0.3688)["f1"], draws=10**5, seed=1)
    >>> abs(r["p_b_better"] - 0.6728) < 4 * r["se_b_better"]
    True
    """
    rng = np.random.default_rng(seed)
    xa = a.sample(rng, draws)
    xb = b.sample(rng, draws)
    d = xb - xa
    p_b = float(np.mean(d > rope))
    out = {"p_b_better": p_b}
    if rope == 0:
        out["p_a_better"] = 1.0 - p_b
    else:
        p_a = float(np.mean(-d > rope))
        out["p_a_better"] = p_a
        out["p_equivalent"] = 1.0 - p_a - p_b
    out["se_b_better"] = math.sqrt(max(p_b * (1 - p_b), 1.0 / draws) / draws)
    out["draws"] = draws
    return out


def decide(p_b_better: float | None, p_a_better: float | None, threshold: float | None = THRESHOLD) -> str:
    """The decision rule of every textbcv report: "B better", "A better" or "no clear difference".

    A side is called better when its probability is at least τ and larger than the other's; undefined (None)
    probabilities decide nothing. τ = 0.5 is the thesis's rule (a tie at ½ decides nothing).

    Parameters
    ----------
    p_b_better, p_a_better : float or None
    threshold : float or None
        τ, in [0.5, 1); None means :data:`THRESHOLD`.

    Returns
    -------
    str

    Examples
    --------
    >>> decide(0.97, 0.03), decide(0.7, 0.3), decide(0.7, 0.3, threshold=0.5)
    ('B better', 'no clear difference', 'B better')
    """
    tau = THRESHOLD if threshold is None else threshold
    if not 0.5 <= tau < 1:
        raise ValueError(f"threshold must lie in [0.5, 1), got {tau}")
    if p_b_better is None or p_a_better is None:
        return NO_CLEAR_DIFFERENCE
    if p_b_better >= tau and p_b_better > p_a_better:
        return "B better"
    if p_a_better >= tau and p_a_better > p_b_better:
        return "A better"
    return NO_CLEAR_DIFFERENCE


def difference_density(a: MetricPosterior, b: MetricPosterior, d) -> np.ndarray:
    """Density of ν_B − ν_A for independent posteriors, by quadrature; its integral over d > r is P(ν_B − ν_A > r).

    Exact also when a density jumps at 0 or 1 (a posterior of no true positives).

    Parameters
    ----------
    a, b : MetricPosterior
    d : float or array_like
        Values of ν_B − ν_A, in [−1, 1].

    Returns
    -------
    ndarray
        Of ``d``'s shape.

    Examples
    --------
    >>> from textbcv.stats.posterior import BetaPosterior
    >>> u = BetaPosterior(1, 1)
    >>> [round(float(x), 12) for x in difference_density(u, u, [-0.5, 0.0, 0.25])]  # the triangle 1 − |d|
    [0.5, 1.0, 0.75]
    """
    d = np.asarray(d, dtype=float)
    ta, _ = latent_grid(a.alpha, a.beta)
    tb, _ = latent_grid(b.alpha, b.beta)
    va, vb = a.to_metric(ta), b.to_metric(tb)
    if (va[-1] - va[0]) <= (vb[-1] - vb[0]):
        outer, inner, shift = a, b, d        # ∫ f_A(t) f_B(t + d) dt
    else:
        outer, inner, shift = b, a, -d       # ∫ f_B(s) f_A(s − d) ds
    lo = np.clip(-shift, 0.0, 1.0)
    hi = np.clip(1.0 - shift, 0.0, 1.0)
    t, w = truncated_latent_grid(outer.alpha, outer.beta, outer.to_latent(lo), outer.to_latent(hi))
    v = outer.to_metric(t) + shift[..., None]
    return (w * inner.pdf(np.clip(v, 0.0, 1.0))).sum(axis=-1)


def difference_interval(a: MetricPosterior, b: MetricPosterior, alpha: float = 0.05) -> tuple[float, float]:
    """Equal-tailed 1 − alpha interval of ν_B − ν_A for independent posteriors (exact quantiles, Brent's method).

    Parameters
    ----------
    a, b : MetricPosterior
    alpha : float

    Returns
    -------
    (float, float)

    Examples
    --------
    >>> from textbcv.stats.posterior import BetaPosterior
    >>> u = BetaPosterior(1, 1)
    >>> [round(x, 3) for x in difference_interval(u, u, alpha=0.5)]  # ±(1 − 1/√2)
    [-0.293, 0.293]
    """
    def above(r: float) -> float:  # P(ν_B − ν_A > r)
        return prob_greater(b, a, r) if r >= 0 else 1.0 - prob_greater(a, b, -r)

    def end(p: float) -> float:
        return float(brentq(lambda r: above(r) - p, -1.0, 1.0, xtol=1e-10))

    return end(1 - alpha / 2), end(alpha / 2)
