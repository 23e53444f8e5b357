"""Variance components of the m×2 CV estimate from repeated experiments on independent data sets.

From an (R, m, 2) array of fold scores, :func:`variance_components` estimates σ² (one fold's variance), ω
(covariance of the two folds of a split), γ (covariance of folds of different splits), ρ1 = ω/σ², ρ2 = γ/σ²,
Var(μ̂_m×2), the share of it σ² explains (``count_factor``, what the thesis's c_m stands in for) and the λ ratios
of four within-run variance estimators to Var(μ̂), each with a bootstrap interval over the runs (scipy's BCa,
seeded). The estimators and the λ ratios are defined in docs/variance.md; the model in docs/method.md §4.
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
    """A point estimate and its bootstrap interval (``low``, ``high``; NaN when the bootstrap is degenerate).

    Attributes
    ----------
    value : float
        The estimate from all R runs.
    low, high : float
        Ends of its bootstrap interval over the runs (NaN where undefined); ``x in estimate`` tests
        low ≤ x ≤ high.
    """

    value: float
    low: float
    high: float

    def to_dict(self) -> dict:
        """``{"value", "low", "high"}`` with NaN as None (JSON-safe).

        Returns
        -------
        dict
            ``{"value": float or None, "low": ..., "high": ...}``.
        """
        return {k: (v if math.isfinite(v) else None) for k, v in
                (("value", self.value), ("low", self.low), ("high", self.high))}

    def __contains__(self, x: float) -> bool:
        return self.low <= x <= self.high


@dataclass(frozen=True)
class VarianceComponents:
    """σ², ω, γ, ρ1, ρ2, Var(μ̂_m×2), the share of σ² and the λ ratios, each with its interval.

    ``mean`` is the average m×2 estimate over the R runs; the estimators are defined in docs/variance.md.

    Attributes
    ----------
    R, m : int
        Independent runs and splits per run.
    confidence : float
        Level of the bootstrap intervals.
    n_resamples, seed : int
        Bootstrap resamples of the runs, and their seed.
    mean, sigma2, omega, gamma, rho1, rho2, var_mx2, count_factor : Estimate
        μ̂ averaged over runs (in the scores' units), σ², ω, γ, Var(μ̂_m×2) (in their squares), and the ratios
        ρ1 = ω/σ², ρ2 = γ/σ² and σ²/(2m var_mx2).
    lambda_independent, lambda_pairs, lambda_5x2cv, lambda_corrected : Estimate
        Mean within-run variance estimate over var_mx2 (1 = unbiased, below 1 = too narrow) for V̂ = S²/(2m), the
        m split means' variance over m, Dietterich's within-split s² over 2m, and Ĉ_m²·Var2.
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
        """Plain dict: the settings, then every figure as ``{"value", "low", "high"}``.

        Returns
        -------
        dict
            Field name → value, in field order; :class:`Estimate` fields by :meth:`Estimate.to_dict`,
            ``percentile_fallback`` as a list.
        """
        out: dict = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.to_dict() if isinstance(v, Estimate) else (list(v) if isinstance(v, tuple) else v)
        return out


def fold_covariance(m: int, sigma2: float, omega: float, gamma: float) -> np.ndarray:
    """The 2m × 2m covariance of the fold scores (Lemma 1), folds ordered (split 0: k = 0, 1; split 1: ...).

    Parameters
    ----------
    m : int
        Number of splits.
    sigma2 : float
        σ², the variance of one fold's score (the diagonal).
    omega : float
        ω, the covariance of the two folds of one split.
    gamma : float
        γ, the covariance of folds of different splits.

    Returns
    -------
    ndarray of shape (2m, 2m)
        The covariance matrix.

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
        ``scores[r, j, k]``: the score (e.g. F1) of fold k of split j in run r.
        The runs must be independent repetitions of the whole experiment —
        independently drawn data sets, each split and scored afresh — not
        only other split seeds on one data set (those measure split noise,
        not the variance of μ̂ as an estimate of the expected score).
        Needs R ≥ 3 and m ≥ 2.
    confidence : float
        Level of the bootstrap intervals.
    n_resamples : int
        Bootstrap resamples of the R runs (``scipy.stats.bootstrap``, paired:
        a resample draws whole runs).
    seed : int
        Seed of the bootstrap; same inputs and seed give the same intervals.
    method : {"BCa", "percentile", "basic"}
        Interval method of ``scipy.stats.bootstrap``. Where a quantity's
        interval comes out undefined (with few runs a resample can repeat one
        run, making a ratio 0/0, or BCa's correction is undefined), it gets the
        percentile interval of the resamples where it is defined (at least half
        of them) and is named in ``percentile_fallback``; otherwise its bounds
        stay NaN.

    Returns
    -------
    VarianceComponents

    Examples
    --------
    Draw R = 400 runs of m = 3 from a normal with σ² = 1, ω = 0.1, γ = 0.3
    and recover them:

    >>> import numpy as np
    >>> cov = fold_covariance(3, 1.0, 0.1, 0.3)
    >>> x = np.random.default_rng(1).multivariate_normal(np.zeros(6), cov, size=400).reshape(400, 3, 2)
    >>> vc = variance_components(x, n_resamples=500)
    >>> round(vc.sigma2.value, 2), round(vc.rho1.value, 2), round(vc.rho2.value, 2)
    (1.02, 0.16, 0.32)
    >>> 0.1 in vc.rho1, 0.3 in vc.rho2  # the true values lie in the 95% intervals
    (True, True)
    >>> [round(x, 2) for x in (vc.rho1.low, vc.rho1.high)]
    [0.1, 0.22]
    >>> round(vc.var_mx2.value, 3), round((1 + 0.1 + 4 * 0.3) / 6, 3)  # measured, true
    (0.413, 0.383)
    >>> round(vc.count_factor.value, 2), round(vc.lambda_independent.value, 2), round(vc.lambda_corrected.value, 2)
    (0.41, 0.29, 2.06)
    >>> sorted(vc.to_dict()["rho2"])
    ['high', 'low', 'value']
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
