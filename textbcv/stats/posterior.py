"""Posteriors of precision, recall and F1 from (effective) chunk counts (thesis §6.2).

Each is a latent W ~ Beta pushed through an increasing map ``to_metric`` (for F1, W = f1/(2 − f1)), so
quantiles and CDFs are exact. See docs/method.md, "6. Posteriors of precision, recall and F1".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import special

__all__ = [
    "MetricPosterior",
    "BetaPosterior",
    "F1Posterior",
    "effective_counts",
    "posteriors",
    "latent_grid",
    "truncated_latent_grid",
    "METRICS",
]

METRICS = ("precision", "recall", "f1")

#: Tail mass left out of the quadrature window on each side.
_TAIL = 1e-15
#: Gauss–Legendre nodes per window.
_NODES = 160


@lru_cache(maxsize=8)
def _gauss_legendre(n: int) -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.legendre.leggauss(n)
    return x, w


#: Panel edges of the quadrature, as quantiles of the latent Beta.
_EDGES = np.array([_TAIL, 1e-9, 1e-5, 1e-2, 0.2, 0.5, 0.8, 1 - 1e-2, 1 - 1e-5, 1 - 1e-9, 1 - _TAIL])


def _panels(alpha: float, beta: float) -> np.ndarray:
    """Edges of the quadrature panels of W ~ Beta(alpha, beta): its quantiles at :data:`_EDGES`."""
    edges = special.betaincinv(alpha, beta, _EDGES)
    if alpha == 1:
        edges[0] = 0.0
    if beta == 1:
        edges[-1] = 1.0
    return np.maximum.accumulate(edges)


def _log_density_rel(t: np.ndarray, alpha: float, beta: float, lo: float, hi: float) -> np.ndarray:
    """log of the Beta(alpha, beta) density at ``t`` minus its log at the mode (clipped to [lo, hi]), with ``log1p``."""
    s = alpha + beta - 2.0
    t0 = (alpha - 1.0) / s if s > 0 else 0.5
    t0 = min(max(t0, lo), hi)
    logf = np.zeros_like(t)
    with np.errstate(divide="ignore"):  # at t = 0 or 1 the density is 0: log is -inf, not a warning for the user
        if alpha > 1:
            logf += (alpha - 1.0) * np.log1p((t - t0) / t0)
        if beta > 1:
            logf += (beta - 1.0) * np.log1p((t0 - t) / (1.0 - t0))
    return logf


def latent_grid(alpha: float, beta: float, n: int = _NODES) -> tuple[np.ndarray, np.ndarray]:
    """Quadrature nodes and weights for E[g(W)], W ~ Beta(alpha, beta), alpha, beta ≥ 1.

    Composite Gauss–Legendre on panels between quantiles of W, so skewed and concentrated posteriors (parameters
    up to 10^10) are resolved.

    Parameters
    ----------
    alpha, beta : float
    n : int
        Nodes in all, shared by the 10 panels.

    Returns
    -------
    t, w : ndarray
        Nodes in [0, 1] and weights summing to 1 (one node, the mean, for a point mass).

    Examples
    --------
    >>> t, w = latent_grid(3.0, 5.0)
    >>> round(float(w @ t), 12)  # the mean a/(a+b)
    0.375
    """
    edges = _panels(alpha, beta)
    lo, hi = float(edges[0]), float(edges[-1])
    if not hi > lo:  # a point mass to double precision
        return np.array([alpha / (alpha + beta)]), np.array([1.0])
    x, gw = _gauss_legendre(n // (len(edges) - 1))
    left, right = edges[:-1, None], edges[1:, None]
    half = 0.5 * (right - left)
    t = (left + half * (x + 1.0)).ravel()
    w = (half * gw).ravel()
    logf = _log_density_rel(t, alpha, beta, lo, hi)
    w = w * np.exp(logf - logf.max())
    keep = w > 0
    t, w = t[keep], w[keep]
    return t, w / w.sum()


def truncated_latent_grid(alpha: float, beta: float, lo, hi, n: int = _NODES) -> tuple[np.ndarray, np.ndarray]:
    """Quadrature of E[g(W) 1{lo ≤ W ≤ hi}], W ~ Beta(alpha, beta), for arrays of bounds.

    The panels of :func:`latent_grid` clipped to each [lo, hi], so an integrand that jumps at the bounds is
    integrated exactly.

    Parameters
    ----------
    alpha, beta : float
    lo, hi : array_like
        Bounds on W, of one shape.
    n : int
        Nodes per pair of bounds.

    Returns
    -------
    t, w : ndarray of shape ``lo.shape + (nodes,)``
        Nodes and weights; ``w`` summed over the last axis is P(lo ≤ W ≤ hi).

    Examples
    --------
    >>> t, w = truncated_latent_grid(1.0, 1.0, np.array([0.2]), np.array([0.7]))
    >>> round(float(w.sum()), 12), round(float((w * t).sum()), 12)
    (0.5, 0.225)
    """
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    edges = _panels(alpha, beta)
    e_lo, e_hi = float(edges[0]), float(edges[-1])
    x, gw = _gauss_legendre(n // (len(edges) - 1))
    if not e_hi > e_lo:
        t = np.broadcast_to(alpha / (alpha + beta), lo.shape + (1,)).copy()
        return t, ((lo[..., None] <= t) & (t <= hi[..., None])).astype(float)
    # the whole mass, on the full panels, for the normalisation
    half = 0.5 * (edges[1:, None] - edges[:-1, None])
    t_full = (edges[:-1, None] + half * (x + 1.0)).ravel()
    logf_full = _log_density_rel(t_full, alpha, beta, e_lo, e_hi)
    top = logf_full.max()
    total = float(((half * gw).ravel() * np.exp(logf_full - top)).sum())
    left = np.clip(edges[:-1], lo[..., None], hi[..., None])
    right = np.clip(edges[1:], lo[..., None], hi[..., None])
    right = np.maximum(right, left)
    half = 0.5 * (right - left)
    t = left[..., None] + half[..., None] * (x + 1.0)
    w = half[..., None] * gw * np.exp(_log_density_rel(t, alpha, beta, e_lo, e_hi) - top) / total
    shape = lo.shape + (t.shape[-2] * t.shape[-1],)
    return t.reshape(shape), w.reshape(shape)


@dataclass(frozen=True)
class MetricPosterior:
    """A posterior ν = to_metric(W), W ~ Beta(alpha, beta), to_metric increasing on [0, 1]; values are fractions.

    Parameters
    ----------
    alpha, beta : float
        Of the latent Beta; finite and ≥ 1 (ValueError otherwise).
    """

    alpha: float
    beta: float

    def __post_init__(self) -> None:
        if not (self.alpha >= 1 and self.beta >= 1 and math.isfinite(self.alpha) and math.isfinite(self.beta)):
            raise ValueError(f"latent Beta parameters must be finite and >= 1, got ({self.alpha}, {self.beta})")

    # --- the monotone map (identity here) -------------------------------------------
    @staticmethod
    def to_metric(w):
        """The metric value of latent ``w`` (the identity here).

        Parameters
        ----------
        w : float or array_like

        Returns
        -------
        float or ndarray
        """
        return w

    @staticmethod
    def to_latent(t):
        """The latent value of metric value ``t``, the inverse of :meth:`to_metric`.

        Parameters
        ----------
        t : float or array_like

        Returns
        -------
        float or ndarray
        """
        return t

    # --- distribution ---------------------------------------------------------------
    def pdf(self, t):
        """Density of ν (each subclass gives its own).

        Parameters
        ----------
        t : float or array_like
        """
        raise NotImplementedError

    def mode(self) -> float:
        """Posterior mode (each subclass gives its own).

        Returns
        -------
        float
        """
        raise NotImplementedError

    def cdf(self, t):
        """P(ν ≤ t), ``t`` clipped to [0, 1].

        Parameters
        ----------
        t : float or array_like

        Returns
        -------
        ndarray
        """
        t = np.clip(np.asarray(t, dtype=float), 0.0, 1.0)
        return special.betainc(self.alpha, self.beta, self.to_latent(t))

    def sf(self, t):
        """P(ν > t), ``t`` clipped to [0, 1]; accurate in the upper tail, unlike 1 − :meth:`cdf`.

        Parameters
        ----------
        t : float or array_like

        Returns
        -------
        ndarray
        """
        t = np.clip(np.asarray(t, dtype=float), 0.0, 1.0)
        return special.betaincc(self.alpha, self.beta, self.to_latent(t))

    def ppf(self, q):
        """Quantile function.

        Parameters
        ----------
        q : float or array_like

        Returns
        -------
        ndarray
        """
        return self.to_metric(special.betaincinv(self.alpha, self.beta, np.asarray(q, dtype=float)))

    def interval(self, alpha: float = 0.05) -> tuple[float, float]:
        """Equal-tailed (1 − alpha) credible interval (eq. 6.34–6.36).

        Parameters
        ----------
        alpha : float

        Returns
        -------
        (float, float)
        """
        lo, hi = self.ppf([alpha / 2, 1 - alpha / 2])
        return float(lo), float(hi)

    def mean(self) -> float:
        """Posterior mean, by quadrature over the latent Beta.

        Returns
        -------
        float
        """
        t, w = latent_grid(self.alpha, self.beta)
        return float(w @ self.to_metric(t))

    def var(self) -> float:
        """Posterior variance, by quadrature over the latent Beta.

        Returns
        -------
        float
        """
        t, w = latent_grid(self.alpha, self.beta)
        v = self.to_metric(t)
        mu = w @ v
        return float(w @ (v - mu) ** 2)

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` draws of ν.

        Parameters
        ----------
        rng : numpy.random.Generator
        size : int

        Returns
        -------
        ndarray of shape (size,)
        """
        return self.to_metric(rng.beta(self.alpha, self.beta, size))


class BetaPosterior(MetricPosterior):
    """Precision ~ Beta(TP_e + λ, FP_e + λ) or recall ~ Beta(TP_e + λ, FN_e + λ) (eq. 6.31–6.32).

    Parameters
    ----------
    alpha : float
        TP_e + λ.
    beta : float
        FP_e + λ (precision) or FN_e + λ (recall).

    Examples
    --------
    >>> p = BetaPosterior(81.0, 21.0)
    >>> p.mode(), round(p.mean(), 6)
    (0.8, 0.794118)
    """

    def pdf(self, t):
        """Beta density, 0 outside [0, 1].

        Parameters
        ----------
        t : float or array_like

        Returns
        -------
        ndarray
        """
        t = np.asarray(t, dtype=float)
        with np.errstate(divide="ignore"):
            logf = (special.xlogy(self.alpha - 1, t) + special.xlog1py(self.beta - 1, -t)
                    - special.betaln(self.alpha, self.beta))
        return np.where((t >= 0) & (t <= 1), np.exp(logf), 0.0)

    def mode(self) -> float:
        """(α − 1)/(α + β − 2): with λ = 1, the pooled precision or recall (0.5 for Beta(1, 1)).

        Returns
        -------
        float
        """
        s = self.alpha + self.beta - 2
        return (self.alpha - 1) / s if s > 0 else 0.5

    def mean(self) -> float:
        """α / (α + β).

        Returns
        -------
        float
        """
        return self.alpha / (self.alpha + self.beta)


class F1Posterior(MetricPosterior):
    """F1 posterior (eq. 6.10/6.33): latent W ~ Beta(b, a), f1 = 2W/(1+W).

    Parameters
    ----------
    alpha : float
        b = TP_e + λ (the thesis's (a, b) are this Beta's (beta, alpha)).
    beta : float
        a = FP_e + FN_e + 2λ.

    Examples
    --------
    >>> f = F1Posterior(alpha=81.0, beta=42.0)   # TP_e = 80, FP_e + FN_e = 40
    >>> round(f.mode(), 4), [round(x, 4) for x in f.interval()]
    (0.7976, [0.7284, 0.8502])
    """

    @staticmethod
    def to_metric(w):
        """f1 = 2w / (1 + w).

        Parameters
        ----------
        w : float or array_like

        Returns
        -------
        ndarray
        """
        w = np.asarray(w, dtype=float)
        return 2.0 * w / (1.0 + w)

    @staticmethod
    def to_latent(t):
        """w = t / (2 − t).

        Parameters
        ----------
        t : float or array_like

        Returns
        -------
        ndarray
        """
        t = np.asarray(t, dtype=float)
        return t / (2.0 - t)

    @property
    def a(self) -> float:
        """The thesis's a = FP_e + FN_e + 2λ."""
        return self.beta

    @property
    def b(self) -> float:
        """The thesis's b = TP_e + λ."""
        return self.alpha

    def pdf(self, t):
        """2^a (1−t)^(a−1) (2−t)^(−a−b) t^(b−1) / B(a, b) on [0, 1], 0 outside (eq. 6.10).

        Parameters
        ----------
        t : float or array_like

        Returns
        -------
        ndarray
        """
        t = np.asarray(t, dtype=float)
        a, b = self.a, self.b
        with np.errstate(divide="ignore", invalid="ignore"):
            logf = (a * math.log(2.0) + special.xlog1py(a - 1, -t) - (a + b) * np.log(2.0 - t)
                    + special.xlogy(b - 1, t) - special.betaln(a, b))
        return np.where((t >= 0) & (t <= 1), np.exp(logf), 0.0)

    def mode(self) -> float:
        """The root in [0, 1] of 2t² + (a + 2b − 5)t − 2(b − 1) = 0.

        Returns
        -------
        float
        """
        a, b = self.a, self.b
        d = a + 2 * b - 5
        disc = math.sqrt(d * d + 16 * (b - 1))
        t = 4 * (b - 1) / (d + disc) if d > 0 else (disc - d) / 4
        return min(max(t, 0.0), 1.0)

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """Draws by f1 = 2U/(2U + V), U ~ Gamma(b), V ~ Gamma(a) (U's draws first).

        Parameters
        ----------
        rng : numpy.random.Generator
        size : int

        Returns
        -------
        ndarray of shape (size,)
        """
        u = rng.standard_gamma(self.b, size)
        v = rng.standard_gamma(self.a, size)
        return 2 * u / (2 * u + v)


def effective_counts(tp: float, fp: float, fn: float, c: float) -> tuple[float, float, float]:
    """(TP_e, FP_e, FN_e) = c · (ΣTP, ΣFP, ΣFN) (eq. 6.21–6.24).

    Parameters
    ----------
    tp, fp, fn : float
        Counts summed over all 2m folds.
    c : float
        Count factor (:func:`textbcv.stats.correlation.count_factor`).

    Returns
    -------
    (float, float, float)

    Examples
    --------
    >>> effective_counts(100, 20, 30, 0.5)
    (50.0, 10.0, 15.0)
    """
    return c * tp, c * fp, c * fn


def posteriors(tp: float, fp: float, fn: float, c: float = 1.0, prior: float = 1.0) -> dict[str, MetricPosterior]:
    """Posteriors of precision, recall and F1 from pooled counts and a count factor c.

    Parameters
    ----------
    tp, fp, fn : float
        Counts summed over all 2m folds, ≥ 0.
    c : float
        Count factor, > 0 (:func:`textbcv.stats.correlation.count_factor`).
    prior : float
        λ of the Beta(λ, λ) priors, ≥ 1.

    Returns
    -------
    dict of str to MetricPosterior
        ``"precision"``, ``"recall"``: :class:`BetaPosterior`; ``"f1"``: :class:`F1Posterior`.

    Raises
    ------
    ValueError
        For λ < 1, negative counts or c ≤ 0.

    Examples
    --------
    >>> post = posteriors(600, 60, 90, c=0.3688)
    >>> {k: round(v.mode(), 4) for k, v in post.items()}
    {'precision': 0.9091, 'recall': 0.8696, 'f1': 0.8875}
    """
    if prior < 1:
        raise ValueError(f"prior λ must be >= 1, got {prior}")
    if min(tp, fp, fn) < 0:
        raise ValueError("counts must be non-negative")
    if not c > 0:
        raise ValueError(f"count factor must be positive, got {c}")
    tpe, fpe, fne = effective_counts(tp, fp, fn, c)
    return {
        "precision": BetaPosterior(tpe + prior, fpe + prior),
        "recall": BetaPosterior(tpe + prior, fne + prior),
        "f1": F1Posterior(alpha=tpe + prior, beta=fpe + fne + 2 * prior),
    }
