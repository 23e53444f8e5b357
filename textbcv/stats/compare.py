"""Per-fold counts of two or more systems → the ``textbcv test`` answer (:func:`bayes_answer`).

See docs/method.md, "5. The count factor and its variants" and "7. The Bayes test: P(B better)".
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from scipy import stats

from .answer import BayesAnswer, Comparison, Difference, Posterior
from .bayes import THRESHOLD, decide, difference_interval, prob_better, prob_better_mc
from .correlation import C_hat, count_factor
from .metrics import metric_parts, ratios
from .paired import PairedDifference
from .posterior import METRICS, MetricPosterior, posteriors

__all__ = ["bayes_answer", "fold_counts", "fold_metrics", "adaptive_count_factor", "paired_comparison",
           "system_posteriors", "undefined_reason", "pooled_scores", "counts_scores", "credible_interval",
           "ALL_VARIANTS", "METHODS"]

#: Count-factor variants accepted by :func:`bayes_answer`.
ALL_VARIANTS = ("thesis", "independent", "averaged-counts", "rho", "adaptive", "clustered")
METHODS = ("exact", "monte-carlo", "both")


def fold_counts(folds: Any, m: int | None = None) -> np.ndarray:
    """Validated per-fold counts as a (2m, 3) float array of (tp, fp, fn).

    Parameters
    ----------
    folds : sequence of mapping, or array_like of shape (2m, 3)
        Every fold's TP, FP, FN (non-negative integers), in fold order.
    m : int, optional
        Number of splits; when given, exactly 2m folds are required.

    Returns
    -------
    ndarray of shape (2m, 3)

    Raises
    ------
    ValueError
        Naming the fold, for a missing key or a count that is not a non-negative integer.

    Examples
    --------
    >>> fold_counts([{"tp": 5, "fp": 1, "fn": 2}, {"tp": 4, "fp": 0, "fn": 3}], m=1)
    array([[5., 1., 2.],
           [4., 0., 3.]])
    """
    rows = []
    for i, f in enumerate(folds):
        if isinstance(f, Mapping):
            missing = [k for k in ("tp", "fp", "fn") if k not in f]
            if missing:
                raise ValueError(f"fold {i}: missing key(s) {', '.join(missing)}")
            vals = [f["tp"], f["fp"], f["fn"]]
        else:
            vals = list(f)
            if len(vals) != 3:
                raise ValueError(f"fold {i}: expected (tp, fp, fn), got {len(vals)} values")
        for name, v in zip(("tp", "fp", "fn"), vals):
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise ValueError(f"fold {i}: {name} must be a non-negative integer, got {v!r}")
            if not (math.isfinite(v) and v >= 0 and float(v) == int(v)):
                raise ValueError(f"fold {i}: {name} must be a non-negative integer, got {v!r}")
        rows.append([float(v) for v in vals])
    arr = np.array(rows, dtype=float).reshape(-1, 3)
    if m is not None and arr.shape[0] != 2 * m:
        raise ValueError(f"expected 2m = {2 * m} folds for m = {m}, got {arr.shape[0]}")
    return arr


def _label(metric: str) -> str:
    return {"precision": "precision", "recall": "recall", "f1": "F1"}[metric]


def fold_metrics(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Precision, recall and F1 of each fold, as fractions (0 where undefined, as conlleval).

    Parameters
    ----------
    counts : ndarray of shape (2m, 3)
        TP, FP, FN of every fold.

    Returns
    -------
    dict of str to ndarray

    Examples
    --------
    >>> {k: v.tolist() for k, v in fold_metrics(np.array([[8., 2., 0.], [0., 0., 0.]])).items()}
    {'precision': [0.8, 0.0], 'recall': [1.0, 0.0], 'f1': [0.888..., 0.0]}
    """
    return ratios(np.asarray(counts, dtype=float))


#: Why a metric is undefined: its denominator is 0.
_UNDEFINED = {"precision": "no predicted chunks", "recall": "no gold chunks", "f1": "no gold and no predicted chunks"}


def undefined_reason(metric: str, tp: float, fp: float, fn: float) -> str | None:
    """Why ``metric`` is undefined for these counts, or None (F1 with TP = 0 and FP + FN > 0 is 0, defined).

    Parameters
    ----------
    metric : {"precision", "recall", "f1"}
        Any other name raises ValueError.
    tp, fp, fn : float

    Returns
    -------
    str or None
        ``"no predicted chunks"``, ``"no gold chunks"`` or ``"no gold and no predicted chunks"``.

    Examples
    --------
    >>> undefined_reason("precision", 0, 0, 5), undefined_reason("f1", 0, 3, 0)
    ('no predicted chunks', None)
    """
    if metric not in _UNDEFINED:
        raise ValueError(f"unknown metric {metric!r}")
    return _UNDEFINED[metric] if metric_parts(tp, fp, fn)[metric][1] == 0 else None


def pooled_scores(tp: float, fp: float, fn: float) -> dict[str, float | None]:
    """Precision, recall and F1 of pooled counts, as fractions; None where the denominator is 0.

    Parameters
    ----------
    tp, fp, fn : float

    Returns
    -------
    dict

    Examples
    --------
    >>> pooled_scores(0, 0, 4)
    {'precision': None, 'recall': 0.0, 'f1': 0.0}
    """
    return {k: None if den == 0 else num / den for k, (num, den) in metric_parts(tp, fp, fn).items()}


def counts_scores(tp: int, fp: int, fn: int) -> dict:
    """``{"tp", "fp", "fn"}`` as ints, then :func:`pooled_scores`, plus ``undefined`` (metric → reason) if any.

    Parameters
    ----------
    tp, fp, fn : int

    Returns
    -------
    dict

    Examples
    --------
    >>> counts_scores(0, 0, 3)  # doctest: +NORMALIZE_WHITESPACE
    {'tp': 0, 'fp': 0, 'fn': 3, 'precision': None, 'recall': 0.0, 'f1': 0.0,
     'undefined': {'precision': 'no predicted chunks'}}
    """
    out: dict[str, Any] = {"tp": int(tp), "fp": int(fp), "fn": int(fn), **pooled_scores(tp, fp, fn)}
    why = {k: undefined_reason(k, tp, fp, fn) for k in METRICS}
    if any(why.values()):
        out["undefined"] = {k: v for k, v in why.items() if v}
    return out


def credible_interval(posterior: MetricPosterior, estimate: float, alpha: float = 0.05) -> tuple[list[float], str]:
    """The (1 − alpha) interval shown beside ``estimate``, and its kind; it always holds the estimate.

    Equal-tailed (eq. 6.34–6.36) unless ``estimate`` lies outside it (a score at or near 0 or 100%); then the
    one-sided interval on the estimate's side, [0, q(1 − alpha)] or [q(alpha), 1].

    Parameters
    ----------
    posterior : MetricPosterior
    estimate : float
        The pooled score, a fraction.
    alpha : float

    Returns
    -------
    interval : list of 2 float
    kind : {"equal-tailed", "one-sided"}

    Examples
    --------
    >>> from textbcv.stats.posterior import BetaPosterior
    >>> credible_interval(BetaPosterior(1.0, 4.0), 0.0)    # TP = 0: precision 0
    ([0.0, 0.527...], 'one-sided')
    """
    lo, hi = posterior.interval(alpha)
    if estimate < lo:
        return [0.0, float(posterior.ppf(1 - alpha))], "one-sided"
    if estimate > hi:
        return [float(posterior.ppf(alpha)), 1.0], "one-sided"
    return [lo, hi], "equal-tailed"


def adaptive_count_factor(counts: np.ndarray, m: int, metric: str, alpha: float = 0.05,
                          base: str = "thesis", prior: float = 1.0) -> float:
    """Count factor that widens the posterior when the folds disagree more than the ``base`` factor implies.

    Never above the base factor. See docs/method.md, "5. The count factor and its variants".

    Parameters
    ----------
    counts : ndarray of shape (2m, 3)
        TP, FP, FN of every fold of one system.
    m : int
    metric : {"precision", "recall", "f1"}
    alpha : float
        Sets the t/z inflation of the target variance.
    base : str
        Variant of :func:`textbcv.stats.correlation.count_factor` to start from (not ``"rho"``).
    prior : float
        λ of the Beta(λ, λ) priors.

    Returns
    -------
    float

    Examples
    --------
    >>> folds = np.array([[90, 10, 12], [80, 12, 20], [95, 8, 9], [70, 15, 30], [88, 9, 14], [75, 14, 25]], float)
    >>> round(adaptive_count_factor(folds, 3, "f1"), 4) < round(count_factor(3), 4)
    True
    """
    c0 = count_factor(m, base)
    vals = fold_metrics(counts)[metric]
    var2 = float(np.mean((vals - vals.mean()) ** 2))
    inflate = (stats.t.isf(alpha / 2, 2 * m - 1) / stats.norm.isf(alpha / 2)) ** 2
    target = C_hat(m) ** 2 * var2 * inflate
    tot = counts.sum(axis=0)
    c = c0
    for _ in range(2):
        v = _posteriors(tot, c, prior)[metric].var()
        if v >= target:
            break
        c *= v / target
    return float(c)


def system_posteriors(counts: np.ndarray, m: int, variant: str = "thesis", rho1: float | None = None,
                      rho2: float | None = None, prior: float = 1.0, alpha: float = 0.05,
                      deff: Mapping[str, float] | None = None
                      ) -> tuple[dict[str, MetricPosterior], dict[str, float]]:
    """Posteriors of the three metrics of one system and the count factor used for each.

    Parameters
    ----------
    counts : ndarray of shape (2m, 3)
        TP, FP, FN of every fold of the system.
    m : int
    variant : str
        One of :data:`ALL_VARIANTS`.
    rho1, rho2 : float, optional
        The correlations of the ``rho`` variant, in [0, 1].
    prior : float
        λ of the Beta(λ, λ) priors.
    alpha : float
        For ``adaptive`` (:func:`adaptive_count_factor`).
    deff : mapping of str to float, optional
        The design effect per metric; required by ``clustered`` (c = 1/(2m) / max(1, deff)).

    Returns
    -------
    posteriors : dict of str to MetricPosterior
    factors : dict of str to float
        The count factor of each metric.

    Examples
    --------
    >>> folds = np.array([[90, 10, 12]] * 6, float)
    >>> _, c = system_posteriors(folds, 3, "clustered", deff={"precision": 2.0, "recall": 0.5, "f1": 4.0})
    >>> {k: round(v, 4) for k, v in c.items()}
    {'precision': 0.0833, 'recall': 0.1667, 'f1': 0.0417}
    """
    tot = counts.sum(axis=0)
    if variant == "clustered":
        if deff is None:
            raise ValueError("variant 'clustered' needs the design effect of every system (per-sentence counts)")
        base = count_factor(m, "averaged-counts")
        factors = {k: base / max(1.0, float(deff[k])) for k in METRICS}
        return {k: _posteriors(tot, factors[k], prior)[k] for k in METRICS}, factors
    if variant == "adaptive":
        factors = {k: adaptive_count_factor(counts, m, k, alpha=alpha, prior=prior) for k in METRICS}
        return {k: _posteriors(tot, factors[k], prior)[k] for k in METRICS}, factors
    c = count_factor(m, variant, rho1, rho2)
    return _posteriors(tot, c, prior), {k: c for k in METRICS}


def _posteriors(tot: np.ndarray, c: float, prior: float) -> dict[str, MetricPosterior]:
    """:func:`posteriors` of the pooled counts ``tot`` = (TP, FP, FN) with count factor ``c``."""
    tp, fp, fn = tot
    return posteriors(tp, fp, fn, c=c, prior=prior)


def bayes_answer(systems_counts: Mapping[str, Any], m: int, alpha: float = 0.05, rope: float | None = None,
                 method: str = "exact", variant: str = "thesis", rho1: float | None = None,
                 rho2: float | None = None, threshold: float | None = THRESHOLD, prior: float = 1.0,
                 draws: int = 10**6, seed: int = 0,
                 design_effects: Mapping[str, Mapping[str, float]] | None = None,
                 paired: Mapping[tuple[str, str], Mapping[str, PairedDifference]] | None = None) -> BayesAnswer:
    """Posteriors, credible intervals and the Bayes test for per-fold counts of two or more systems.

    Pairs are in input order (a before b), metrics precision, recall, F1. A metric a system cannot have gets
    None numbers and its reason in ``undefined``; its comparisons None probabilities and "no clear difference".

    Parameters
    ----------
    systems_counts : mapping name → folds
        Each: 2m folds in fold order (docs/formats.md), as mappings with ``tp``, ``fp``, ``fn`` or a (2m, 3) array.
    m : int
    alpha : float
        Credible intervals are equal-tailed 1 − alpha.
    rope : float, optional
        Region of practical equivalence, a fraction (0.005 is half an F1 point): adds ``p_equivalent`` and
        ``equivalent`` and makes ``p_b_better`` = P(ν_B − ν_A > rope).
    method : {"exact", "monte-carlo", "both"}
        Quadrature, Algorithm 6.1 (``draws``, ``seed``), or exact with the Monte Carlo figures beside it.
    variant : {"thesis", "independent", "averaged-counts", "rho", "adaptive", "clustered"}
        Count factor (:func:`textbcv.stats.correlation.count_factor`, :func:`adaptive_count_factor`; ``clustered``
        needs ``design_effects``).
    rho1, rho2 : float, optional
        The correlations of the ``rho`` variant, in [0, 1].
    threshold : float
        A side is called better when its probability is at least this (0.5: the thesis's larger-probability
        rule); with a rope, ``equivalent`` is P(equivalent) ≥ threshold.
    prior : float
        λ of the Beta(λ, λ) priors, ≥ 1.
    draws : int
        Monte Carlo draws from each posterior.
    seed : int
        Seed of the Monte Carlo draws.
    design_effects : mapping name → {metric: deff}, optional
        Each system's design effect (:func:`textbcv.stats.clustering.pooled_design_effect`).
    paired : mapping (a, b) → {metric: PairedDifference}, optional
        Paired posteriors (:func:`textbcv.stats.paired.paired_differences`): where given, the pair's
        probabilities, decision and difference come from it, elsewhere from the two systems' own posteriors.

    Returns
    -------
    BayesAnswer
        ``to_dict()`` is ``textbcv test --json``'s answer.

    Raises
    ------
    ValueError
        For an unknown method or variant, alpha, rope or threshold out of range, fewer than two systems, bad
        counts, or ``clustered`` without a system's design effect.

    Examples
    --------
    >>> A = [{"tp": 90, "fp": 10, "fn": 12}] * 6
    >>> ans = bayes_answer({"A": A, "B": [{"tp": 93, "fp": 9, "fn": 10}] * 6}, m=3, rope=0.005)
    >>> c = ans.comparison("A", "B", "f1")
    >>> round(c.p_b_better, 3), round(c.p_equivalent, 3), c.decision, c.equivalent
    (0.7, 0.14, 'no clear difference', False)
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if variant not in ALL_VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose from {', '.join(ALL_VARIANTS)}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    if rope is not None and not 0 <= rope < 1:
        raise ValueError(f"rope must lie in [0, 1), got {rope}")
    threshold = THRESHOLD if threshold is None else threshold
    if not 0.5 <= threshold < 1:
        raise ValueError(f"threshold must lie in [0.5, 1), got {threshold}")
    names = list(systems_counts)
    if len(names) < 2:
        raise ValueError(f"need at least 2 systems to compare, got {len(names)}")
    counts = {}
    for name in names:
        try:
            counts[name] = fold_counts(systems_counts[name], m)
        except ValueError as e:
            raise ValueError(f"system {name!r}: {e}") from None
    r = 0.0 if rope is None else float(rope)

    posts, factors, out_systems, out_counts = {}, {}, {}, {}
    for name in names:
        if variant == "clustered" and (design_effects is None or name not in design_effects):
            raise ValueError(f"variant 'clustered' needs the design effect of system {name!r} (per-sentence counts)")
        posts[name], factors[name] = system_posteriors(counts[name], m, variant, rho1, rho2, prior, alpha,
                                                       None if design_effects is None else design_effects.get(name))
        tot = counts[name].sum(axis=0)
        out_counts[name] = {"tp": int(tot[0]), "fp": int(tot[1]), "fn": int(tot[2])}
        out_systems[name] = {k: _posterior(posts[name][k], tot, k, alpha) for k in METRICS}

    comparisons = [_comparison(a, b, k, out_systems, posts, r, method, threshold, draws, seed, alpha,
                               None if paired is None else (paired.get((a, b)) or {}).get(k))
                   for a, b in itertools.combinations(names, 2) for k in METRICS]
    k_pairs = len(names) * (len(names) - 1) // 2
    family_wise = None
    if k_pairs > 1:
        family_wise = {
            "pairs": k_pairs,
            "alpha_per_pair": alpha / k_pairs,
            "note": (f"{k_pairs} pairwise comparisons: for a family-wise level {alpha:g}, judge each pair at "
                     f"{alpha / k_pairs:.4g} (alpha/k, thesis §4.3), e.g. decision threshold "
                     f"{1 - alpha / k_pairs:.4g}"),
        }
    return BayesAnswer(
        m=m, alpha=alpha, systems=out_systems, comparisons=tuple(comparisons), variant=variant,
        count_factor={name: factors[name] if variant in ("adaptive", "clustered") else factors[name]["f1"]
                      for name in names},
        method=method, threshold=threshold, rope=rope, prior=prior, counts=out_counts,
        design_effects=({name: {k: float(max(1.0, design_effects[name][k])) for k in METRICS} for name in names}
                        if variant == "clustered" and design_effects is not None else None),
        draws=draws if method != "exact" else None, seed=seed if method != "exact" else None,
        family_wise=family_wise)


def _posterior(post: MetricPosterior, tot: np.ndarray, metric: str, alpha: float) -> Posterior:
    """The :class:`Posterior` entry of one metric of one system from its pooled counts ``tot``."""
    why = undefined_reason(metric, *tot)
    if why:
        return Posterior.undefined_because(why)
    estimate = pooled_scores(*tot)[metric]
    assert estimate is not None  # pooled_scores leaves out exactly the metrics undefined_reason names
    ci, kind = credible_interval(post, estimate, alpha)
    return Posterior(estimate, (ci[0], ci[1]), post.mode(), post.mean(), kind, distribution=post)


def _comparison(a: str, b: str, metric: str, systems: Mapping[str, Mapping[str, Posterior]],
                posts: Mapping[str, Mapping[str, MetricPosterior]], r: float, method: str, threshold: float,
                draws: int, seed: int, alpha: float = 0.05, paired: PairedDifference | None = None) -> Comparison:
    """The Bayes test of one pair on one metric (``r``: the rope, 0 for none); from ``paired`` where given."""
    why = "; ".join(f"{n}: {systems[n][metric].undefined}" for n in (a, b) if systems[n][metric].undefined)
    if why:
        return Comparison(a, b, metric, None, None, decide(None, None, threshold),
                          equivalent=False if r > 0 else None, undefined=f"{_label(metric)} undefined ({why})")
    if paired is not None:
        return paired_comparison(a, b, paired, threshold, alpha, r)
    pa, pb = posts[a][metric], posts[b][metric]
    mc_p, mc_se = None, None
    level = 2 * threshold - 1 if threshold > 0.5 else None  # P(Δ > r) ≥ threshold: this interval's lower end > r
    if method == "monte-carlo":
        res = prob_better_mc(pa, pb, rope=r, draws=draws, seed=seed)
        mc_se = res["se_b_better"]
    else:
        res = prob_better(pa, pb, rope=r)
        if method == "both":
            mc = prob_better_mc(pa, pb, rope=r, draws=draws, seed=seed)
            mc_p, mc_se = mc["p_b_better"], mc["se_b_better"]
    est_a, est_b = systems[a][metric].estimate, systems[b][metric].estimate
    assert est_a is not None and est_b is not None  # both defined (no `why`)
    diff = Difference(est_b - est_a, difference_interval(pa, pb, alpha), "independent", None,
                      None if level is None else difference_interval(pa, pb, 1 - level), level)
    p_eq = res.get("p_equivalent") if r > 0 else None
    return Comparison(a, b, metric, res["p_b_better"], res["p_a_better"],
                      decide(res["p_b_better"], res["p_a_better"], threshold), p_equivalent=p_eq,
                      equivalent=p_eq >= threshold if p_eq is not None else None, mc_p_b_better=mc_p, mc_se=mc_se,
                      difference=diff)


def paired_comparison(a: str, b: str, paired: PairedDifference, threshold: float = THRESHOLD, alpha: float = 0.05,
                      rope: float = 0.0) -> Comparison:
    """The Bayes test of one pair from the paired posterior of its difference: P(better), the decision, the intervals.

    Parameters
    ----------
    a, b : str
        The systems; Δ is B − A.
    paired : PairedDifference
    threshold : float
        The decision rule's τ.
    alpha : float
        The shown interval is the 1 − alpha credible interval; the rule's is the 2τ − 1 one.
    rope : float
        A fraction (0: none).

    Returns
    -------
    Comparison

    Examples
    --------
    >>> from textbcv.stats.paired import PairedDifference
    >>> c = paired_comparison("A", "B", PairedDifference(0.004, 0.002 ** 2, 0.0, 40.0, 3, 900, 0.8))
    >>> c.decision, round(c.p_b_better, 3), [round(x, 4) for x in c.difference.decisive]
    ('B better', 0.974, [0.0006, 0.0074])
    """
    level = 2 * threshold - 1 if threshold > 0.5 else None  # P(Δ > r) ≥ threshold: this interval's lower end > r
    res = paired.prob_better(rope=rope)
    lo, hi = paired.interval(alpha)  # a difference of two scores lies in [-1, 1]
    dec = None if level is None else tuple(min(1.0, max(-1.0, x)) for x in paired.interval(1 - level))
    diff = Difference(paired.estimate, (max(-1.0, lo), min(1.0, hi)), "paired", paired,
                      None if dec is None else (dec[0], dec[1]), level)
    p_eq = res.get("p_equivalent") if rope > 0 else None
    return Comparison(a, b, paired.metric, res["p_b_better"], res["p_a_better"],
                      decide(res["p_b_better"], res["p_a_better"], threshold), p_equivalent=p_eq,
                      equivalent=p_eq >= threshold if p_eq is not None else None, difference=diff)
