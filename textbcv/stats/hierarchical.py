"""Is B better than A across several corpora? A hierarchical normal model over the runs' paired posteriors.

θ_i ~ N(μ, τ²), flat prior on μ, half-Cauchy(``tau_scale``) on τ; τ is integrated on a fixed grid, so every
answer is deterministic. See docs/method.md, "Across several corpora".

Examples
--------
>>> h = hierarchical([0.010, 0.006, 0.012], [0.003, 0.004, 0.005], ["a", "b", "c"])
>>> round(h.p_b_better, 3), round(100 * h.mu, 2), [round(c["p_b_better"], 3) for c in h.per_corpus]
(0.98, 0.92, [1.0, 0.986, 0.998])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

__all__ = ["HierarchicalAnswer", "hierarchical", "TAU_SCALE"]

#: The default scale of τ's half-Cauchy prior: one F1 point (as a fraction).
TAU_SCALE = 0.01


@dataclass(frozen=True)
class HierarchicalAnswer:
    """The answer across corpora (:func:`hierarchical`); differences are B − A, as fractions.

    Attributes
    ----------
    names : tuple of str
        The corpora, in input order.
    estimates, sds : tuple of float
        Each run's difference and posterior SD.
    mu : float
        Posterior mean of the overall difference μ.
    mu_interval : tuple of float
        Its equal-tailed 1 − ``alpha`` credible interval.
    p_b_better, p_a_better : float
        P(μ > rope) and P(μ < −rope) (without a rope, P(μ > 0) and its complement).
    p_equivalent : float or None
        P(|μ| ≤ rope); None without a rope.
    tau_median : float
        Posterior median of τ.
    per_corpus : tuple of dict
        Per run: ``name``, ``mean``, ``interval`` and ``p_b_better`` of its shrunken θ_i.
    p_new_b_better : float
        P(θ_new > rope): B better on a new corpus of this kind.
    rope, alpha, tau_scale : float
    """

    names: tuple[str, ...]
    estimates: tuple[float, ...]
    sds: tuple[float, ...]
    mu: float
    mu_interval: tuple[float, float]
    p_b_better: float
    p_a_better: float
    p_equivalent: float | None
    tau_median: float
    per_corpus: tuple[dict, ...]
    p_new_b_better: float
    rope: float
    alpha: float
    tau_scale: float

    def to_dict(self) -> dict:
        """JSON-ready form, tuples as lists.

        Returns
        -------
        dict
        """
        return {"names": list(self.names), "estimates": list(self.estimates), "sds": list(self.sds), "mu": self.mu,
                "mu_interval": list(self.mu_interval), "p_b_better": self.p_b_better, "p_a_better": self.p_a_better,
                "p_equivalent": self.p_equivalent, "tau_median": self.tau_median,
                "per_corpus": [dict(x) for x in self.per_corpus], "p_new_b_better": self.p_new_b_better,
                "rope": self.rope, "alpha": self.alpha, "tau_scale": self.tau_scale}


def _mixture_quantile(q: float, weights: np.ndarray, means: np.ndarray, sds: np.ndarray) -> float:
    """The q-quantile of a mixture of normals (root of its CDF)."""
    def cdf(x: float) -> float:
        return float(np.sum(weights * stats.norm.cdf((x - means) / sds))) - q

    lo = float(np.min(means - 12 * sds))
    hi = float(np.max(means + 12 * sds))
    return float(optimize.brentq(cdf, lo, hi, xtol=1e-12))


def hierarchical(estimates: Sequence[float], sds: Sequence[float], names: Sequence[str], rope: float = 0.0,
                 alpha: float = 0.05, tau_scale: float = TAU_SCALE, grid: int = 4001) -> HierarchicalAnswer:
    """The hierarchical answer across corpora from each run's difference and its posterior SD.

    Parameters
    ----------
    estimates : sequence of float
        Each run's difference B − A (a fraction), at least two runs.
    sds : sequence of float
        Each run's posterior SD, positive.
    names : sequence of str
    rope : float
        A fraction (0: none).
    alpha : float
    tau_scale : float
        Scale of τ's half-Cauchy prior, a fraction.
    grid : int
        Points of τ's quadrature grid.

    Returns
    -------
    HierarchicalAnswer

    Raises
    ------
    ValueError
        For fewer than two runs, lengths that differ, or an SD that is not positive.
    """
    y = np.asarray(estimates, dtype=float)
    s = np.asarray(sds, dtype=float)
    if len(y) < 2 or len(s) != len(y) or len(names) != len(y):
        raise ValueError("need an estimate, an SD and a name for each of at least two runs")
    if not np.all(s > 0) or not np.all(np.isfinite(y)):
        raise ValueError("every run's posterior SD must be positive and its estimate finite")
    spread = float(np.max(y) - np.min(y))
    tau_max = max(50 * tau_scale, 10 * spread, 10 * float(np.max(s)))
    tau = np.linspace(0.0, tau_max, grid)
    var = s[None, :] ** 2 + tau[:, None] ** 2          # (grid, runs)
    w = 1.0 / var
    v = 1.0 / w.sum(axis=1)
    m = (w * y[None, :]).sum(axis=1) * v
    log_post = (np.log(2 / np.pi / tau_scale) - np.log1p((tau / tau_scale) ** 2)
                + 0.5 * np.log(v) - 0.5 * np.log(var).sum(axis=1)
                - 0.5 * ((y[None, :] - m[:, None]) ** 2 / var).sum(axis=1))
    p = np.exp(log_post - log_post.max())
    # trapezoid weights on the grid
    dt = np.full(grid, tau[1] - tau[0])
    dt[0] = dt[-1] = dt[0] / 2
    p = p * dt
    p /= p.sum()
    sd_mu = np.sqrt(v)
    p_b = float(np.sum(p * stats.norm.sf((rope - m) / sd_mu)))
    p_a = float(np.sum(p * stats.norm.cdf((-rope - m) / sd_mu)))
    p_eq = max(0.0, 1.0 - p_a - p_b) if rope > 0 else None
    mu = float(np.sum(p * m))
    interval = (_mixture_quantile(alpha / 2, p, m, sd_mu), _mixture_quantile(1 - alpha / 2, p, m, sd_mu))
    cdf_tau = np.cumsum(p)
    tau_median = float(tau[int(np.searchsorted(cdf_tau, 0.5))])
    per = []
    for i, name in enumerate(names):
        b = s[i] ** 2 / var[:, i]                     # shrinkage towards μ
        mean = (1 - b) * y[i] + b * m
        cond = np.sqrt(np.maximum(b * tau ** 2 + b ** 2 * v, 1e-300))  # Var = (1/s² + 1/τ²)^-1 + B² v_τ
        per.append({"name": str(name), "mean": float(np.sum(p * mean)),
                    "interval": [_mixture_quantile(alpha / 2, p, mean, cond),
                                 _mixture_quantile(1 - alpha / 2, p, mean, cond)],
                    "p_b_better": float(np.sum(p * stats.norm.sf((rope - mean) / cond)))})
    p_new = float(np.sum(p * stats.norm.sf((rope - m) / np.sqrt(v + tau ** 2))))
    return HierarchicalAnswer(tuple(str(x) for x in names), tuple(float(x) for x in y), tuple(float(x) for x in s),
                              mu, interval, p_b, p_a if rope > 0 else 1.0 - p_b, p_eq, tau_median, tuple(per), p_new,
                              float(rope), float(alpha), float(tau_scale))
