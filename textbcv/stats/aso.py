"""Almost stochastic order (Dror, Shlomov & Reichart 2019; del Barrio, Cuesta-Albertos & Matrán 2018).

The test of deep-significance's ``aso`` (version 1.2: Ulmer, Hardmeier & Frellsen 2022), computed with
numpy alone and seeded, so the same scores and seed give the same ε_min on every machine. ``A`` is the
system suspected better; the violation ratio ε_W2(F_A, F_B) is the share of the squared Wasserstein-2
distance between the two score distributions' quantile functions spent where A's quantile falls below
B's, and ε_min its upper confidence bound from a bootstrap of both score lists. ε_min near 0: A is
stochastically larger than B almost everywhere; 0.5: no order (identical lists give exactly 0.5); near 1:
B is. See docs/method.md §10, "Almost stochastic order".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

__all__ = ["AlmostStochasticOrder", "almost_stochastic_order", "aso_call", "violation_ratio", "ASO_THRESHOLD"]

#: deep-significance's reading of ε_min: A is called better than B when ε_min is below this.
ASO_THRESHOLD = 0.5
#: The step of the integral over t ∈ (0, 1) (deep-significance's default).
_DT = 0.005


def _quantile_index(n: int, dt: float) -> np.ndarray:
    """Index into the sorted scores of the empirical quantile F⁻¹(t) = x_(⌈nt⌉) at every t of the integral."""
    t = np.arange(dt, 1, dt)
    return np.clip(np.ceil(n * t).astype(int) - 1, 0, n - 1)


def _ratios(a_sorted: np.ndarray, b_sorted: np.ndarray, dt: float) -> np.ndarray:
    """ε_W2 of every row pair of sorted score arrays (shape (k, n_a) and (k, n_b)); 0.5 where the distance is 0."""
    f = a_sorted[:, _quantile_index(a_sorted.shape[1], dt)]
    g = b_sorted[:, _quantile_index(b_sorted.shape[1], dt)]
    diff = g - f
    w2 = np.sum(diff ** 2 * dt, axis=1)
    violated = np.where(f >= g, 0.0, diff)
    # as deep-significance: the first point of the grid is left out of the violation set's integral
    part = np.sum(violated[:, 1:] ** 2 * dt, axis=1)
    # the two sums round differently: a ratio that is 1 may come out a last bit above
    return np.where(w2 == 0, 0.5, np.minimum(part / np.where(w2 == 0, 1.0, w2), 1.0))


def _scores(x: Sequence[float] | np.ndarray, name: str) -> np.ndarray:
    """``x`` as a non-empty 1-d float array of finite scores."""
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a non-empty list of finite scores")
    return arr


def violation_ratio(scores_a: Sequence[float] | np.ndarray, scores_b: Sequence[float] | np.ndarray,
                    dt: float = _DT) -> float:
    """ε_W2(F_A, F_B): the share of the W2 distance where A's quantile function lies below B's.

    Parameters
    ----------
    scores_a, scores_b : sequence of float
        The two systems' scores (any lengths); A is the one suspected better.
    dt : float
        Step of the integral over t ∈ (0, 1).

    Returns
    -------
    float
        In [0, 1]; 0.5 when the two empirical distributions are identical. As deep-significance's, the
        violation integral leaves out the grid's first point, so a B that dominates everywhere gives 1 − dt/(1 − dt)
        (0.995 at the default step), not 1.

    Examples
    --------
    >>> violation_ratio([0.9, 0.8], [0.7, 0.6]), round(violation_ratio([0.7, 0.6], [0.9, 0.8]), 4)
    (0.0, 0.995)
    >>> violation_ratio([0.8, 0.7], [0.7, 0.8])
    0.5
    """
    a, b = np.sort(_scores(scores_a, "scores_a")), np.sort(_scores(scores_b, "scores_b"))
    return float(_ratios(a[None, :], b[None, :], dt)[0])


@dataclass(frozen=True)
class AlmostStochasticOrder:
    """The almost-stochastic-order test of A over B.

    Attributes
    ----------
    eps_min : float
        The upper ``confidence`` bound of the violation ratio, in [0, 1]: A is called better when it is below
        :data:`ASO_THRESHOLD`.
    violation_ratio : float
        ε_W2 of the scores themselves.
    sd : float
        The bootstrap standard deviation of the violation ratio.
    confidence : float
        The bound's confidence, after the Bonferroni correction for ``comparisons``.
    n_a, n_b : int
        The numbers of scores.
    """

    eps_min: float
    violation_ratio: float
    sd: float
    confidence: float
    n_a: int
    n_b: int

    def to_dict(self) -> dict:
        """The test as JSON values.

        Returns
        -------
        dict
        """
        return {"eps_min": self.eps_min, "violation_ratio": self.violation_ratio, "sd": self.sd,
                "confidence": self.confidence, "n_a": self.n_a, "n_b": self.n_b}


def almost_stochastic_order(scores_a: Sequence[float] | np.ndarray, scores_b: Sequence[float] | np.ndarray,
                            confidence: float = 0.95, comparisons: int = 1, iterations: int = 1000,
                            seed: int = 0, dt: float = _DT) -> AlmostStochasticOrder:
    """ε_min of A over B (deep-significance's ``aso``): small when A's scores are almost stochastically larger.

    The violation ratio of the scores, plus z₁₋c times the standard deviation of the violation ratios of
    ``iterations`` bootstrap samples (each list redrawn with replacement at its own length through its
    empirical quantile function), clipped to [0, 1].

    Parameters
    ----------
    scores_a, scores_b : sequence of float
        The two systems' scores (per fold, per seed, ...; any lengths); A is the one suspected better.
    confidence : float
        In (0, 1): confidence of the bound; default 0.95.
    comparisons : int
        Number of comparisons the bound is one of: the confidence becomes c + (1 − c) / comparisons
        (deep-significance's Bonferroni correction); default 1.
    iterations : int
        Bootstrap samples, at least 2; default 1000.
    seed : int
        Seed of the bootstrap draws.
    dt : float
        Step of the integral over t ∈ (0, 1).

    Returns
    -------
    AlmostStochasticOrder

    Examples
    --------
    >>> almost_stochastic_order([0.91, 0.92, 0.93, 0.94], [0.81, 0.82, 0.83, 0.84]).eps_min
    0.0
    >>> r = almost_stochastic_order([0.8, 0.82, 0.84, 0.86], [0.8, 0.82, 0.84, 0.86])
    >>> r.violation_ratio, r.eps_min >= 0.5
    (0.5, True)
    """
    a, b = _scores(scores_a, "scores_a"), _scores(scores_b, "scores_b")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    if comparisons < 1 or iterations < 2:
        raise ValueError("comparisons must be at least 1 and iterations at least 2")
    level = confidence + (1 - confidence) / comparisons if comparisons > 1 else confidence
    ratio = float(_ratios(np.sort(a)[None, :], np.sort(b)[None, :], dt)[0])
    rng = np.random.default_rng(seed)
    # F⁻¹(U) of an empirical distribution is a draw of its scores with replacement
    draw_a = np.sort(a)[np.clip(np.ceil(a.size * rng.uniform(0, 1, (iterations, a.size))).astype(int) - 1, 0,
                                a.size - 1)]
    draw_b = np.sort(b)[np.clip(np.ceil(b.size * rng.uniform(0, 1, (iterations, b.size))).astype(int) - 1, 0,
                                b.size - 1)]
    samples = _ratios(np.sort(draw_a, axis=1), np.sort(draw_b, axis=1), dt)
    const = np.sqrt(a.size * b.size / (a.size + b.size))
    sd = float(np.std(const * (samples - ratio)) / const)
    eps = float(np.clip(ratio - sd * ndtri(1 - level), 0.0, 1.0))
    return AlmostStochasticOrder(eps, ratio, sd, level, int(a.size), int(b.size))


def aso_call(scores_a: Sequence[float] | np.ndarray, scores_b: Sequence[float] | np.ndarray, confidence: float = 0.95,
             comparisons: int = 1, seed: int = 0,
             threshold: float = ASO_THRESHOLD) -> tuple[AlmostStochasticOrder, AlmostStochasticOrder, str | None]:
    """The test in both directions and its call on a pair: ``"B"``, ``"A"`` or None (no call).

    A side is called ahead when its ε_min over the other is below ``threshold`` (the smaller one, should both be).
    This is what the report's almost-stochastic-order section prints for every pair.

    Parameters
    ----------
    scores_a, scores_b : sequence of float
        The two systems' per-fold (or per-seed) scores.
    confidence, comparisons, seed
        As :func:`almost_stochastic_order` (both directions draw with ``seed``).
    threshold : float
        ε_min below this is a call; default :data:`ASO_THRESHOLD`.

    Returns
    -------
    tuple
        ``(b_over_a, a_over_b, ahead)``: the two :class:`AlmostStochasticOrder` and ``"B"``, ``"A"`` or None.

    Examples
    --------
    >>> aso_call([0.80, 0.81, 0.82, 0.83], [0.84, 0.85, 0.86, 0.87])[2]
    'B'
    >>> aso_call([0.80, 0.84, 0.82, 0.83], [0.81, 0.85, 0.80, 0.84])[2] is None
    True
    """
    b_over_a = almost_stochastic_order(scores_b, scores_a, confidence, comparisons, seed=seed)
    a_over_b = almost_stochastic_order(scores_a, scores_b, confidence, comparisons, seed=seed)
    ahead = None
    if min(b_over_a.eps_min, a_over_b.eps_min) < threshold:
        ahead = "B" if b_over_a.eps_min <= a_over_b.eps_min else "A"
    return b_over_a, a_over_b, ahead
