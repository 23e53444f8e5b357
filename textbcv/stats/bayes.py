"""Bayes test of eq. 6.37: P(ν_B > ν_A) from independent posteriors, exact or Monte Carlo.

Exact: P(ν_X − ν_Y > r) is a one-dimensional integral over the latent Beta
of whichever posterior is narrower (the other enters through its CDF, which
is smooth on that window), computed by Gauss–Legendre quadrature
(:func:`textbcv.stats.posterior.latent_grid`). Monte Carlo: Algorithm 6.1
with L draws from each posterior, seeded.
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
    """P(ν_X − ν_Y > r) for independent posteriors X, Y (exact, by quadrature).

    Parameters
    ----------
    x, y : MetricPosterior
        The posteriors of the two metric values ν_X and ν_Y.
    r : float
        Margin, as a fraction of the metric (0.005 is half an F1 point); must be ≥ 0 (default 0).

    Returns
    -------
    float
        The probability, clipped to [0, 1].

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
    """P(B better), P(A better) and, with a rope r > 0, P(equivalent) — exact.

    With ``rope = 0``: ``p_b_better`` = P(ν_B > ν_A) (eq. 6.37's P(H1)) and
    ``p_a_better`` = 1 − that. With ``rope = r > 0`` (as baycomp):
    ``p_b_better`` = P(ν_B − ν_A > r), ``p_a_better`` = P(ν_A − ν_B > r),
    ``p_equivalent`` = the rest. Identical posteriors give exactly ½ / ½
    (exchangeability) and equal tails with a rope.

    Parameters
    ----------
    a, b : MetricPosterior
        Posteriors of systems A and B on one metric, taken as independent.
    rope : float
        Region of practical equivalence r, as a fraction of the metric (default 0: none).

    Returns
    -------
    dict of str to float
        ``p_b_better`` and ``p_a_better``, and with ``rope`` > 0 also ``p_equivalent``.

    Examples
    --------
    >>> from textbcv.stats.posterior import posteriors
    >>> pa = posteriors(900, 100, 120, c=0.3688)["f1"]
    >>> pb = posteriors(930, 100, 110, c=0.3688)["f1"]
    >>> {k: round(v, 4) for k, v in prob_better(pa, pb).items()}
    {'p_b_better': 0.6728, 'p_a_better': 0.3272}
    >>> prob_better(pa, pa)
    {'p_b_better': 0.5, 'p_a_better': 0.5}
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
    """Monte Carlo version of :func:`prob_better` (Algorithm 6.1, L = ``draws``), with standard errors.

    Parameters
    ----------
    a, b : MetricPosterior
        Posteriors of systems A and B on one metric, sampled independently.
    rope : float
        Region of practical equivalence r, as a fraction of the metric (default 0: none).
    draws : int
        L, draws from each posterior (default 10⁶).
    seed : int
        Seed of ``numpy.random.default_rng``; A's draws come first, then B's.

    Returns
    -------
    dict of str to float
        ``p_b_better``, ``p_a_better`` (and ``p_equivalent`` with a rope) as fractions of the draws;
        ``se_b_better``, the binomial standard error √(p(1 − p)/L) of ``p_b_better``, at least 1/L; ``draws``.

    Examples
    --------
    >>> from textbcv.stats.posterior import posteriors
    >>> pa = posteriors(900, 100, 120, c=0.3688)["f1"]
    >>> pb = posteriors(930, 100, 110, c=0.3688)["f1"]
    >>> r = prob_better_mc(pa, pb, draws=10**5, seed=1)
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

    A side is called better when its probability of being better is at
    least ``threshold`` τ (default 0.95) and larger than the other side's;
    otherwise — and when the probabilities are undefined (None) — "no clear
    difference". With a rope the probabilities are those of being better by
    more than the rope. τ = 0.5 gives the thesis's rule (the larger
    probability wins; a tie at ½ decides nothing). ``None`` means the default.

    Parameters
    ----------
    p_b_better, p_a_better : float or None
        P(B better) and P(A better) of the pair (by more than the rope, with one); None where undefined.
    threshold : float or None
        τ, in [0.5, 1); None means :data:`THRESHOLD` (0.95).

    Returns
    -------
    str
        One of :data:`DECISIONS`.

    Examples
    --------
    >>> decide(0.97, 0.03), decide(0.7, 0.3), decide(0.7, 0.3, threshold=0.5), decide(0.5, 0.5, threshold=0.5)
    ('B better', 'no clear difference', 'B better', 'no clear difference')
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
    """Density of ν_B − ν_A at ``d`` for independent posteriors (exact, by quadrature).

    f(d) = ∫ f_A(t) f_B(t + d) dt over t ∈ [max(0, −d), min(1, 1 − d)]: the
    derivative in r of P(ν_B − ν_A > r) (:func:`prob_greater`), so that its
    integral over d > r is ``prob_greater(b, a, r)``. The integral runs over
    the latent Beta of the narrower posterior, on its quantile panels
    clipped to that interval (:func:`textbcv.stats.posterior.truncated_latent_grid`),
    with the wider one's density inside — exact also when a density jumps at
    0 or 1 (a posterior of no true positives).

    Parameters
    ----------
    a, b : MetricPosterior
        Posteriors of systems A and B on one metric, taken as independent.
    d : float or array_like
        Values of the difference ν_B − ν_A, as fractions in [−1, 1].

    Returns
    -------
    ndarray
        The density at every ``d``, of ``d``'s shape (per unit of the metric as a fraction).

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
    """Equal-tailed 1 − alpha interval of ν_B − ν_A for independent posteriors (exact quantiles).

    Each end solves P(ν_B − ν_A > r) = 1 − alpha/2, resp. alpha/2, by Brent's method on
    :func:`prob_greater` (deterministic; no sampling).

    Parameters
    ----------
    a, b : MetricPosterior
        Posteriors of systems A and B on one metric, taken as independent.
    alpha : float
        The interval holds 1 − alpha of the posterior (default 0.05).

    Returns
    -------
    (float, float)
        Lower and upper end, as fractions in [−1, 1].

    Examples
    --------
    >>> from textbcv.stats.posterior import BetaPosterior
    >>> u = BetaPosterior(1, 1)
    >>> [round(x, 3) for x in difference_interval(u, u, alpha=0.5)]  # the triangle's quartiles: ±(1 − 1/√2)
    [-0.293, 0.293]
    """
    def above(r: float) -> float:  # P(ν_B − ν_A > r)
        return prob_greater(b, a, r) if r >= 0 else 1.0 - prob_greater(a, b, -r)

    def end(p: float) -> float:
        return float(brentq(lambda r: above(r) - p, -1.0, 1.0, xtol=1e-10))

    return end(1 - alpha / 2), end(alpha / 2)
