"""Counts → the ``textbcv test`` answer (docs/method.md §5–§7), reusable by the pipeline's report.json.

:func:`bayes_answer` takes per-fold TP/FP/FN of two or more systems on
the same 2m folds and returns posteriors, credible intervals and the Bayes
test for precision, recall and F1 of every pair of systems.
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

__all__ = ["bayes_answer", "fold_counts", "fold_metrics", "adaptive_count_factor",
           "system_posteriors", "undefined_reason", "pooled_scores", "counts_scores", "credible_interval",
           "ALL_VARIANTS", "METHODS"]

#: Count-factor variants accepted by :func:`bayes_answer`.
ALL_VARIANTS = ("thesis", "independent", "averaged-counts", "rho", "adaptive", "clustered")
METHODS = ("exact", "monte-carlo", "both")


def fold_counts(folds: Any, m: int | None = None) -> np.ndarray:
    """Per-fold counts as a (2m, 3) float array of (tp, fp, fn); validates them.

    ``folds`` is a sequence of mappings with keys ``tp``, ``fp``, ``fn`` or an
    array-like of shape (2m, 3). Raises ``ValueError`` naming the fold.

    Parameters
    ----------
    folds : sequence of mapping, or array_like of shape (2m, 3)
        Every fold's TP, FP, FN (non-negative integers), in fold order.
    m : int, optional
        Number of splits; when given, exactly 2m folds are required.

    Returns
    -------
    ndarray of shape (2m, 3), float
        One row (tp, fp, fn) per fold.

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
    """Precision, recall and F1 of each fold (0 where undefined, as conlleval).

    Parameters
    ----------
    counts : ndarray of shape (2m, 3)
        TP, FP, FN of every fold (:func:`fold_counts`).

    Returns
    -------
    dict of str to ndarray
        ``{"precision", "recall", "f1"}`` → the 2m per-fold values, as fractions.

    Examples
    --------
    >>> {k: v.tolist() for k, v in fold_metrics(np.array([[8., 2., 0.], [0., 0., 0.]])).items()}
    {'precision': [0.8, 0.0], 'recall': [1.0, 0.0], 'f1': [0.888..., 0.0]}
    """
    return ratios(np.asarray(counts, dtype=float))


#: Why a metric is undefined: its denominator is 0.
_UNDEFINED = {"precision": "no predicted chunks", "recall": "no gold chunks", "f1": "no gold and no predicted chunks"}


def undefined_reason(metric: str, tp: float, fp: float, fn: float) -> str | None:
    """Why ``metric`` is undefined for these counts, or None when it is defined.

    Precision needs a predicted chunk, recall a gold chunk, F1 either (with
    TP = 0 and FP + FN > 0 it is 0, a defined score).

    Parameters
    ----------
    metric : {"precision", "recall", "f1"}
        The metric; any other name raises ValueError.
    tp, fp, fn : float
        Chunk counts (e.g. pooled over the folds).

    Returns
    -------
    str or None
        ``"no predicted chunks"``, ``"no gold chunks"`` or ``"no gold and no predicted chunks"``; None when defined.

    Examples
    --------
    >>> undefined_reason("precision", 0, 0, 5), undefined_reason("recall", 0, 3, 0), undefined_reason("f1", 0, 3, 0)
    ('no predicted chunks', 'no gold chunks', None)
    """
    if metric not in _UNDEFINED:
        raise ValueError(f"unknown metric {metric!r}")
    return _UNDEFINED[metric] if metric_parts(tp, fp, fn)[metric][1] == 0 else None


def pooled_scores(tp: float, fp: float, fn: float) -> dict[str, float | None]:
    """Precision, recall and F1 of pooled counts; None where undefined (:func:`undefined_reason`).

    Parameters
    ----------
    tp, fp, fn : float
        Chunk counts summed over the folds.

    Returns
    -------
    dict
        ``{"precision", "recall", "f1"}`` → the score as a fraction, or None where its denominator is 0.

    Examples
    --------
    >>> pooled_scores(8, 2, 0)
    {'precision': 0.8, 'recall': 1.0, 'f1': 0.888...}
    >>> pooled_scores(0, 0, 4)
    {'precision': None, 'recall': 0.0, 'f1': 0.0}
    """
    return {k: None if den == 0 else num / den for k, (num, den) in metric_parts(tp, fp, fn).items()}


def counts_scores(tp: int, fp: int, fn: int) -> dict:
    """Counts with their precision, recall and F1 (None where undefined, and then ``undefined``: metric → reason).

    Parameters
    ----------
    tp, fp, fn : int
        Chunk counts (e.g. one system's, pooled over the folds).

    Returns
    -------
    dict
        ``{"tp", "fp", "fn"}`` as ints, then :func:`pooled_scores`; plus ``"undefined"`` when a metric is.

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
    """The (1 − alpha) interval shown beside ``estimate``, and its kind.

    Equal-tailed (eq. 6.34–6.36) unless ``estimate`` lies outside it — a
    score of 0 or 100% (or close), where the posterior's density falls away
    from the estimate — then the one-sided interval of the same credibility
    on the estimate's side, [0, q(1 − alpha)] or [q(alpha), 1], which holds
    it. An estimate is never shown outside its own interval.

    Parameters
    ----------
    posterior : MetricPosterior
        The metric's posterior.
    estimate : float
        The pooled score shown, as a fraction.
    alpha : float
        The interval holds 1 − alpha of the posterior (default 0.05).

    Returns
    -------
    interval : list of 2 float
        Lower and upper end, as fractions.
    kind : {"equal-tailed", "one-sided"}
        Which interval it is.

    Examples
    --------
    >>> from textbcv.stats.posterior import BetaPosterior
    >>> credible_interval(BetaPosterior(1.0, 4.0), 0.0)    # TP = 0: precision 0
    ([0.0, 0.527...], 'one-sided')
    >>> credible_interval(BetaPosterior(9.0, 3.0), 0.8)[1]
    'equal-tailed'
    """
    lo, hi = posterior.interval(alpha)
    if estimate < lo:
        return [0.0, float(posterior.ppf(1 - alpha))], "one-sided"
    if estimate > hi:
        return [float(posterior.ppf(alpha)), 1.0], "one-sided"
    return [lo, hi], "equal-tailed"


def adaptive_count_factor(counts: np.ndarray, m: int, metric: str, alpha: float = 0.05,
                          base: str = "thesis", prior: float = 1.0) -> float:
    """Count factor that widens the posterior when the folds disagree more than c_m implies.

    The target variance of the m×2 estimate is the sequential t-test's
    (chapter 5): Ĉ_m² · Var2 of the 2m per-fold values, inflated by
    (t_{α/2}(2m−1) / z_{α/2})² for the few degrees of freedom. If the
    posterior under ``base`` is narrower than that, c is scaled down so
    that the posterior variance matches it (two fixed-point steps, since
    variance ∝ 1/c only up to the prior); otherwise the base factor is kept.

    Parameters
    ----------
    counts : ndarray of shape (2m, 3)
        TP, FP, FN of every fold of one system (:func:`fold_counts`).
    m : int
        Number of splits.
    metric : {"precision", "recall", "f1"}
        The metric whose posterior is widened.
    alpha : float
        Sets the t/z inflation of the target variance (default 0.05).
    base : str
        Variant of :func:`textbcv.stats.correlation.count_factor` giving the starting factor (default
        ``"thesis"``, c_m; ``"rho"`` cannot be used, as no ρ are passed on).
    prior : float
        λ of the Beta(λ, λ) priors (default 1).

    Returns
    -------
    float
        The count factor c, at most the base factor.

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

    ``clustered`` needs ``deff``, the system's design effect per metric
    (:func:`textbcv.stats.clustering.pooled_design_effect`): c = 1/(2m) / max(1, deff).

    Parameters
    ----------
    counts : ndarray of shape (2m, 3)
        TP, FP, FN of every fold of the system (:func:`fold_counts`).
    m : int
        Number of splits.
    variant : str
        One of :data:`ALL_VARIANTS` (see :func:`bayes_answer`; default ``"thesis"``).
    rho1, rho2 : float, optional
        The correlations of the ``rho`` variant, in [0, 1].
    prior : float
        λ of the Beta(λ, λ) priors (default 1).
    alpha : float
        Passed to :func:`adaptive_count_factor` (``adaptive`` only; default 0.05).
    deff : mapping of str to float, optional
        The system's design effect per metric; required by ``clustered``, ignored otherwise.

    Returns
    -------
    posteriors : dict of str to MetricPosterior
        ``{"precision", "recall", "f1"}`` → the posterior from the pooled counts.
    factors : dict of str to float
        The count factor c of each metric (one value for all but ``adaptive`` and ``clustered``).

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

    Parameters
    ----------
    systems_counts : mapping name → folds
        Each value: 2m folds in fold order (docs/formats.md: ``train→valid`` then
        ``valid→train`` for split 0, 1, ...), as mappings with ``tp``, ``fp``,
        ``fn`` or a (2m, 3) array.
    m : int
        Number of splits.
    alpha : float
        Credible intervals are equal-tailed 1 − alpha.
    rope : float, optional
        Region of practical equivalence, as a fraction of the metric (0.005
        is half an F1 point; the command line's ``--rope`` takes points):
        adds ``p_equivalent`` and ``equivalent`` and makes ``p_b_better`` =
        P(ν_B − ν_A > rope).
    method : {"exact", "monte-carlo", "both"}
        Quadrature, Algorithm 6.1 (L = ``draws``, seeded), or exact with the
        Monte Carlo figures beside it (``mc_p_b_better``, ``mc_se``).
    variant : {"thesis", "independent", "averaged-counts", "rho", "adaptive", "clustered"}
        Count factor (see :func:`textbcv.stats.correlation.count_factor`;
        ``adaptive`` is :func:`adaptive_count_factor`; ``clustered`` divides
        the averaged-counts factor 1/(2m) by each system's design effect,
        :mod:`textbcv.stats.clustering`).
    rho1, rho2 : float, optional
        The within-pair and across-pair correlations of the ``rho`` variant, in [0, 1].
    threshold : float
        The decision rule's threshold (:func:`textbcv.stats.bayes.decide`):
        a side is called better when its probability is at least this
        (default 0.95; 0.5 gives the thesis's larger-probability rule).
        With a rope, ``equivalent`` is P(equivalent) ≥ threshold.
    prior : float
        λ of the Beta(λ, λ) priors of every metric, ≥ 1 (default 1, as the thesis).
    draws : int
        L, Monte Carlo draws from each posterior (``monte-carlo`` and ``both``; default 10⁶).
    seed : int
        Seed of the Monte Carlo draws (default 0); recorded with ``draws``.
    design_effects : mapping name → {metric: deff}, optional
        Needed by ``clustered``: each system's design effect per metric
        (:func:`textbcv.stats.clustering.pooled_design_effect`).
    paired : mapping (a, b) → {metric: PairedDifference}, optional
        The paired posteriors of the differences (:func:`textbcv.stats.paired.paired_differences`,
        from both systems' per-sentence counts). Where given, the pair's probabilities, decision and
        difference interval come from it; elsewhere from the two systems' own posteriors as if their
        errors were independent (``difference.basis`` says which).

    Returns
    -------
    BayesAnswer
        ``to_dict()`` is ``textbcv test --json``'s answer: ``{"m", "alpha", "systems": {name: {metric:
        {"estimate", "ci", "mode", "mean", "interval"}}}, "comparisons": [{"a", "b", "metric", "p_b_better",
        "p_a_better", "decision", ...}], "threshold", ...}``; pairs in input order (a before b), metrics
        precision, recall, f1. A metric a system cannot have (no predicted chunks: precision) has its
        ``estimate``, ``ci``, ``mode`` and ``mean`` None and ``undefined`` its reason; its comparisons have None
        probabilities, ``undefined`` and decision "no clear difference".

    Examples
    --------
    >>> A = [{"tp": 90, "fp": 10, "fn": 12}] * 6
    >>> B = [{"tp": 93, "fp": 9, "fn": 10}] * 6
    >>> ans = bayes_answer({"A": A, "B": B}, m=3, rope=0.005)
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
    pa, pb = posts[a][metric], posts[b][metric]
    mc_p, mc_se = None, None
    level = 2 * threshold - 1 if threshold > 0.5 else None  # P(Δ > r) ≥ threshold: this interval's lower end > r
    if paired is not None:
        res = paired.prob_better(rope=r)
        lo, hi = paired.interval(alpha)  # a difference of two scores lies in [-1, 1]
        dec = None if level is None else tuple(min(1.0, max(-1.0, x)) for x in paired.interval(1 - level))
        diff = Difference(paired.estimate, (max(-1.0, lo), min(1.0, hi)), "paired", paired,
                          None if dec is None else (dec[0], dec[1]), level)
    else:
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
