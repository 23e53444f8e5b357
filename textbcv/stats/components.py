"""Variance components of the m×2 CV estimate from repeated experiments on independent data sets.

σ², ω, γ, ρ1 = ω/σ², ρ2 = γ/σ², Var(μ̂_m×2) and the λ ratios of within-run variance estimators, each with a
seeded bootstrap interval over the runs. The estimators are defined in docs/variance.md; the model in
docs/method.md, "4. Why the folds are correlated".
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, fields

import numpy as np
from scipy import stats

from .correlation import C_hat

__all__ = ["Estimate", "VarianceComponents", "variance_components", "fold_covariance", "QUANTITIES"]

#: The figures of :class:`VarianceComponents`, in the order of its fields.
QUANTITIES = ("mean", "sigma2", "omega", "gamma", "rho1", "rho2", "var_mx2", "count_factor",
              "lambda_independent", "lambda_pairs", "lambda_5x2cv", "lambda_corrected")


@dataclass(frozen=True)
class Estimate:
    """A point estimate and its bootstrap interval; ``x in estimate`` tests low ≤ x ≤ high.

    Attributes
    ----------
    value : float
        The estimate from all R runs.
    low, high : float
        Ends of its bootstrap interval (NaN where undefined).
    """

    value: float
    low: float
    high: float

    def to_dict(self) -> dict:
        """``{"value", "low", "high"}`` with NaN as None.

        Returns
        -------
        dict
        """
        return {k: (v if math.isfinite(v) else None) for k, v in
                (("value", self.value), ("low", self.low), ("high", self.high))}

    def __contains__(self, x: float) -> bool:
        return self.low <= x <= self.high


@dataclass(frozen=True)
class VarianceComponents:
    """σ², ω, γ, ρ1, ρ2, Var(μ̂_m×2), the share of σ² and the λ ratios, each with its interval.

    Attributes
    ----------
    R, m : int
        Independent runs and splits per run.
    confidence : float
        Level of the bootstrap intervals.
    n_resamples, seed : int
        Of the bootstrap.
    mean, sigma2, omega, gamma, rho1, rho2, var_mx2, count_factor : Estimate
        μ̂ averaged over runs, σ², ω, γ, ρ1, ρ2, Var(μ̂_m×2), and σ²/(2m var_mx2).
    lambda_independent, lambda_pairs, lambda_5x2cv, lambda_corrected : Estimate
        Mean within-run variance estimate over var_mx2 (below 1: too narrow) for S²/(2m), the split means'
        variance over m, Dietterich's within-split s² over 2m, and Ĉ_m²·Var2.
    percentile_fallback : tuple of str
        Quantities whose interval is the percentile interval of the resamples where they are defined.
    """

    R: int
    m: int
    confidence: float
    n_resamples: int
    seed: int
    mean: Estimate
    sigma2: Estimate
    omega: Estimate
    gamma: Estimate
    rho1: Estimate
    rho2: Estimate
    var_mx2: Estimate
    count_factor: Estimate
    lambda_independent: Estimate
    lambda_pairs: Estimate
    lambda_5x2cv: Estimate
    lambda_corrected: Estimate
    #: quantities whose interval was undefined and that carry the percentile interval of the defined resamples
    percentile_fallback: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """Plain dict in field order, every :class:`Estimate` by its ``to_dict``.

        Returns
        -------
        dict
        """
        out: dict = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.to_dict() if isinstance(v, Estimate) else (list(v) if isinstance(v, tuple) else v)
        return out


def fold_covariance(m: int, sigma2: float, omega: float, gamma: float) -> np.ndarray:
    """The 2m × 2m covariance of the fold scores (Lemma 1), folds in split order.

    Parameters
    ----------
    m : int
    sigma2 : float
        σ², one fold's variance.
    omega : float
        ω, covariance of the two folds of a split.
    gamma : float
        γ, covariance of folds of different splits.

    Returns
    -------
    ndarray of shape (2m, 2m)

    Examples
    --------
    >>> fold_covariance(2, 4.0, 1.0, 0.5)
    array([[4. , 1. , 0.5, 0.5],
           [1. , 4. , 0.5, 0.5],
           [0.5, 0.5, 4. , 1. ],
           [0.5, 0.5, 1. , 4. ]])
    """
    pair = np.repeat(np.arange(m), 2)
    same = pair[:, None] == pair[None, :]
    cov = np.where(same, omega, gamma).astype(float)
    np.fill_diagonal(cov, sigma2)
    return cov


def _statistics(x: np.ndarray, m: int) -> np.ndarray:
    """All QUANTITIES for runs ``x`` of shape (..., R, 2m); returns shape (len(QUANTITIES), ...)."""
    R = x.shape[-2]
    p = 2 * m
    xc = x - x.mean(axis=-2, keepdims=True)
    cov = np.matmul(np.swapaxes(xc, -1, -2), xc) / (R - 1)
    pair = np.repeat(np.arange(m), 2)
    same = pair[:, None] == pair[None, :]
    off = ~np.eye(p, dtype=bool)
    sigma2 = np.diagonal(cov, axis1=-2, axis2=-1).mean(axis=-1)
    omega = cov[..., same & off].mean(axis=-1)
    gamma = cov[..., ~same].mean(axis=-1)
    mu = x.mean(axis=-1)  # the m×2 estimate of every run
    var_mx2 = mu.var(axis=-1, ddof=1)
    # within-run estimators V̂, averaged over runs
    s2 = x.var(axis=-1, ddof=1)
    pairs = x.reshape(x.shape[:-1] + (m, 2))
    pair_means = pairs.mean(axis=-1)
    v_indep = s2 / p
    v_pairs = pair_means.var(axis=-1, ddof=1) / m
    v_5x2 = ((pairs - pair_means[..., None]) ** 2).sum(axis=-1).mean(axis=-1) / p
    v_corr = C_hat(m) ** 2 * x.var(axis=-1, ddof=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = [mu.mean(axis=-1), sigma2, omega, gamma, omega / sigma2, gamma / sigma2, var_mx2,
               sigma2 / (p * var_mx2)]
        out += [v.mean(axis=-1) / var_mx2 for v in (v_indep, v_pairs, v_5x2, v_corr)]
    return np.stack(out)


def variance_components(scores, confidence: float = 0.95, n_resamples: int = 2000, seed: int = 0,
                        method: str = "BCa") -> VarianceComponents:
    """σ², ω, γ, ρ1, ρ2, Var(μ̂_m×2) and the λ ratios from fold scores of R independent runs.

    Parameters
    ----------
    scores : array_like, shape (R, m, 2)
        ``scores[r, j, k]``: the score of fold k of split j in run r; R ≥ 3, m ≥ 2. The runs must be independent
        data sets, each split and scored afresh, not other split seeds on one data set.
    confidence : float
        Level of the bootstrap intervals.
    n_resamples : int
        Bootstrap resamples of whole runs.
    seed : int
    method : {"BCa", "percentile", "basic"}
        Of ``scipy.stats.bootstrap``. An undefined interval falls back to the percentile interval of the
        resamples where it is defined (at least half), named in ``percentile_fallback``; else it stays NaN.

    Returns
    -------
    VarianceComponents

    Raises
    ------
    ValueError
        For a wrong shape, R < 3, m < 2, non-finite scores, or scores that do not vary.

    Examples
    --------
    >>> cov = fold_covariance(3, 1.0, 0.1, 0.3)
    >>> x = np.random.default_rng(1).multivariate_normal(np.zeros(6), cov, size=400).reshape(400, 3, 2)
    >>> vc = variance_components(x, n_resamples=500)
    >>> round(vc.sigma2.value, 2), round(vc.rho1.value, 2), round(vc.rho2.value, 2)
    (1.02, 0.16, 0.32)
    >>> 0.1 in vc.rho1, 0.3 in vc.rho2
    (True, True)
    """
    x = np.asarray(scores, dtype=float)
    if x.ndim != 3 or x.shape[2] != 2:
        raise ValueError(f"scores must have shape (R, m, 2), got {x.shape}")
    R, m = x.shape[0], x.shape[1]
    if m < 2:
        raise ValueError(f"need m >= 2 splits to separate ω from γ, got m = {m}")
    if R < 3:
        raise ValueError(f"need R >= 3 independent runs, got R = {R}")
    if not np.isfinite(x).all():
        raise ValueError("scores must be finite")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, got {n_resamples}")
    flat = x.reshape(R, 2 * m)
    point = _statistics(flat, m)
    if not point[1] > 0 or not point[6] > 0:
        raise ValueError("the fold scores do not vary (σ² or Var(μ̂) is 0): correlations are undefined")

    def statistic(idx, axis=-1):
        return _statistics(flat[np.moveaxis(np.asarray(idx), axis, -1)], m)

    batch = max(1, int(2e7 // (R * 4 * m * m + R * 2 * m)))
    kw = dict(n_resamples=n_resamples, batch=batch, vectorized=True, confidence_level=confidence)

    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)  # a degenerate BCa is handled below
        try:  # scipy >= 1.15 names the generator ``rng``
            res = stats.bootstrap((np.arange(R),), statistic, rng=np.random.default_rng(seed), method=method, **kw)
        except TypeError as e:
            if "rng" not in str(e):
                raise
            res = stats.bootstrap((np.arange(R),), statistic, random_state=np.random.default_rng(seed),
                                  method=method, **kw)
    lo = np.asarray(res.confidence_interval.low, dtype=float)
    hi = np.asarray(res.confidence_interval.high, dtype=float)
    fallback: list[str] = []
    for i in np.flatnonzero(~(np.isfinite(lo) & np.isfinite(hi))):
        # a ratio undefined in some resamples (e.g. σ² = 0 when a resample repeats one run), or BCa's
        # correction undefined: the percentile interval of the resamples where it is defined stands in
        dist = np.asarray(res.bootstrap_distribution[i], dtype=float)
        dist = dist[np.isfinite(dist)]
        if len(dist) >= 0.5 * n_resamples:
            lo[i], hi[i] = np.percentile(dist, [50 * (1 - confidence), 50 * (1 + confidence)])
            fallback.append(QUANTITIES[i])
    ests = {q: Estimate(float(point[i]), float(lo[i]), float(hi[i])) for i, q in enumerate(QUANTITIES)}
    return VarianceComponents(R=R, m=m, confidence=confidence, n_resamples=n_resamples, seed=seed,
                              percentile_fallback=tuple(fallback), **ests)
