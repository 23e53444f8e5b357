"""Summary of the pairs study (scripts/real_text_pairs.py).

Per pool and pair: the truth, the spread of the per-fold ΔF1, the one-split tests' calls, and for
every candidate variance of the pooled ΔF1 estimate d̂ (m = 3 and 7) its calibration against the
truth (SD over the RMSE net of the truth's own noise, coverage of d̂ ± 1.96·√(V + SE_truth²)) and its
calls at P ≥ 0.95 with P = Φ(d̂/√V). The candidates (all from the stored cluster cross-products):

``independent``   today's default: Var(F1_A) + Var(F1_B) of the clustered per-system posteriors
                  (count factor 1/(2m) over each system's mean fold design effect), no covariance;
``paired-fold``   the same scaled by the folds' paired share Σ_f Var_cl(ΔF1_f) / Σ_f (Var_cl(F1_A,f) +
                  Var_cl(F1_B,f)): a paired design effect, equal to ``independent`` when the errors are
                  independent;
``pooled``        the cluster variance of the pooled ΔF1 over all 2m folds (each cluster's sum over the
                  folds that test it): what new text adds, with the idiosyncratic part of model noise;
``pooled+split``  ``pooled`` plus the spread of the per-fold ΔF1 beyond its test noise,
                  max(0, s²_folds − mean_f Var_cl(ΔF1_f)), divided by m (one training component per
                  split); the first candidate of the study;
``paired``        textbcv's :class:`textbcv.stats.paired.PairedDifference` (model
                  :data:`textbcv.defaults.PAIRED_POSTERIOR`): ``pooled`` plus the covariance of related clusters
                  (those that share a rare name, :func:`textbcv.corpus.related.related_clusters`; model
                  ``paired/3``, only on data sets with the study's ``related`` piece) plus the model noise
                  M/(2m), M the folds' variance beyond their test noise (related clusters' covariance included)
                  from the pooled mean square of the m half-differences of a split's two folds and the m split
                  means (2m − 1 degrees of freedom), as a Student t with 2m − 1 degrees of freedom (its calls and
                  coverage use the t).
``paired-unrelated`` the same without related clusters (model ``paired/2``, textbcv's from 2026-11-26 to
                  2026-11-27), on the same data sets; the older candidates below build on its test part.
``paired-train``  textbcv's posterior until 2026-11-26 (model ``paired/1``), now a candidate: ``pooled`` plus a
                  training sets' part (the half-differences' mean square beyond their test noise and half
                  the model noise; it does not fall with m) and the model noise from the split means alone
                  (m − 1 degrees of freedom), each floored at 0, with Satterthwaite's degrees of freedom.
``paired-shrunk`` a candidate, not textbcv's: ``paired-train`` with the training part not a moment floored at 0 but
                  the square of the posterior mean of its SD, given the m half-differences (each normal
                  with that variance plus its test and model noise) and a half-Cauchy prior on the SD
                  scaled by the test part's SD (quadrature on a grid); the same degrees of freedom.
``paired-raw``    a candidate, not textbcv's: ``paired-train`` with the training and model parts as their raw moments
                  (not floored at 0, so a part measured below 0 offsets the others), the total floored at the test
                  part, and Satterthwaite's degrees of freedom of the raw parts.
``paired-notrain`` a candidate, not textbcv's: ``paired-train`` without the training part, i.e. a posterior of the
                  difference for models trained on halves of *this* corpus (the study's truth) rather than on
                  other corpora of its size; Satterthwaite's degrees of freedom of the test and model parts.
``paired-mixture`` a candidate, not textbcv's: the same estimand as a model over the 2m folds: every fold's Δ
                  errs by its test noise (covariance from the clusters) plus model noise of variance M, the
                  same for every fold; the m half-differences and the m split means give M's likelihood, a
                  flat prior on √M its posterior (on a grid), and the posterior of Δ is the mixture of
                  N(d̂, var_test + M/(2m)) over it (no Monte Carlo; its median SD is the mixture's).
"""

from __future__ import annotations

import math

import numpy as np
import real_text_study as rts
from scipy import stats as sst

from textbcv.calibration.moments import full_matrix
from textbcv.defaults import PAIRED_POSTERIOR
from textbcv.stats.clustering import DesignEffect, pooled_design_effect
from textbcv.stats.paired import paired_difference_from_moments, paired_variances, satterthwaite
from textbcv.stats.posterior import posteriors
from textbcv.stats.sequential import SequentialPair, look_threshold

ALPHA = 0.05
THRESHOLD = 0.95
#: the posterior models that count related clusters (their data sets need the study's ``related`` piece)
RELATED_MODELS = ("paired/3",)
#: whether textbcv's present posterior model (``paired``) counts related clusters
PRESENT_RELATED = PAIRED_POSTERIOR in RELATED_MODELS
#: the paired posterior with the other choice: without related clusters (model ``paired/2``) when the present model
#: counts them, else with them
OTHER_PAIRED = "paired-unrelated" if PRESENT_RELATED else "paired-related"
CANDIDATES = ("independent", "paired-fold", "pooled", "pooled+split", "paired", "paired-train", "paired-shrunk",
              "paired-raw", "paired-notrain", "paired-mixture", OTHER_PAIRED)
#: candidates whose posterior is a scale mixture of normals (weights and variances per data set), not a Student t
MIXTURES = ("paired-mixture",)


def _f1(c) -> np.ndarray:
    return rts.f1_of(c)


TARGET_R_NULL = 450  # data sets per pool (the null pairs need no truth)
TARGET_R_TRUTH = 400  # data sets with a truth per close pair
DEFAULT_TARGET_R = 100  # the default pair's data sets (those of the real-text study)


def _binom(k: int, n: int) -> dict:
    """Rate k/n with its Wilson 95% interval."""
    if n == 0:
        return {"k": 0, "n": 0, "rate": None, "lo": None, "hi": None}
    ci = sst.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return {"k": k, "n": n, "rate": k / n, "lo": float(ci.low), "hi": float(ci.high)}


def paired_posterior(folds: dict, a: str, b: str, pair: str, m: int, related: dict | None = None):
    """The paired posterior of one data set's pair at m (first 2m folds of the m = 7 design), without related clusters
    (model ``paired/2``), or with the data set's ``related`` piece, their covariance included."""
    R = None if related is None else full_matrix(related["xprod"][pair])
    return paired_difference_from_moments(full_matrix(folds["xprod"][pair]), folds["clusters"],
                                          np.asarray(folds["counts"][a][: 2 * m], dtype=float),
                                          np.asarray(folds["counts"][b][: 2 * m], dtype=float), m,
                                          layout="tp,fp+fn", fold_clusters=folds.get("fold_clusters"), related=R)


def has_present(pieces: dict, pair: str) -> bool:
    """Whether a data set's pieces give textbcv's present posterior of ``pair`` (with the ``related`` piece when the
    present model counts related clusters)."""
    return "folds" in pieces and (not PRESENT_RELATED or pair in pieces.get("related", {}).get("xprod", {}))


def textbcv_posterior(pieces: dict, a: str, b: str, pair: str, m: int):
    """textbcv's own paired posterior (model :data:`textbcv.defaults.PAIRED_POSTERIOR`) of one data set's pair at m,
    from its pieces (:func:`has_present` must hold)."""
    return paired_posterior(pieces["folds"], a, b, pair, m, pieces.get("related") if PRESENT_RELATED else None)


def candidate_variances(folds: dict, a: str, b: str, pair: str, m: int, related: dict | None = None) -> dict:
    """d̂ and every candidate variance of one data set's pair at m (first 2m folds of the m = 7 design). The paired
    posterior with related clusters (``paired`` when textbcv's present model counts them, else ``paired-related``)
    only with the data set's ``related`` piece; ``pd`` is textbcv's present posterior when the data set gives it.
    The older candidates build on the test part without related clusters."""
    ca = np.asarray(folds["counts"][a][: 2 * m], dtype=float)
    cb = np.asarray(folds["counts"][b][: 2 * m], dtype=float)
    S = full_matrix(folds["xprod"][pair])
    v = paired_variances(S, folds["clusters"], ca, cb, layout="tp,fp+fn",
                         fold_clusters=folds.get("fold_clusters", [folds["clusters"]] * len(ca))[: 2 * m])
    d_hat = float(_f1(cb.sum(axis=0)) - _f1(ca.sum(axis=0)))
    out = {"d_hat": d_hat}
    post_var = {}
    for s, c, fv in (("a", ca, v.fold_a), ("b", cb, v.fold_b)):
        effects = []
        for f in range(len(c)):
            pv = posteriors(*c[f], c=1.0)["f1"].var()
            effects.append(DesignEffect({"precision": float("nan"), "recall": float("nan"),
                                         "f1": fv[f] / pv if pv > 0 else float("nan")}, 0))
        deff = pooled_design_effect(effects)["f1"]
        post_var[s] = posteriors(*c.sum(axis=0), c=1.0 / (2 * m) / deff)["f1"].var()
    indep = post_var["a"] + post_var["b"]
    share = float(v.fold_delta.sum() / max(1e-300, (v.fold_a + v.fold_b).sum()))
    dd = _f1(cb) - _f1(ca)
    pd = paired_posterior(folds, a, b, pair, m)  # without related clusters: the older candidates' test part
    spread = float(np.var(dd, ddof=1))
    _, _, within, model = _split_moments(v, dd, m)
    # the previous model (paired/1): a training sets' part and the model noise from the split means alone
    old_model = max(0.0, model) / (2 * m)
    old_train = max(0.0, within - max(0.0, model) / 2)
    old = pd.var_test + old_train + old_model
    out["var"] = {"independent": indep, "paired-fold": indep * share, "pooled": v.pooled_delta,
                  "pooled+split": v.pooled_delta + max(0.0, spread - float(np.mean(v.fold_delta))) / m,
                  "paired": pd.var, "paired-train": old,
                  "paired-shrunk": pd.var_test + old_model + _shrunk_train(v, dd, m, pd.var_test)}
    train_raw, model_raw = within - model / 2, model / (2 * m)
    raw = max(pd.var_test, pd.var_test + train_raw + model_raw)
    den = pd.var_test ** 2 / max(1.0, folds["clusters"] - 1.0) + train_raw ** 2 / m + (
        model_raw ** 2 / (m - 1) if m > 1 else 0.0)
    out["var"]["paired-raw"] = raw
    notrain = pd.var_test + old_model
    out["var"]["paired-notrain"] = notrain
    old_df = satterthwaite([(pd.var_test, folds["clusters"] - 1.0), (old_train, float(m)), (old_model, m - 1.0)], old)
    out["df"] = {"paired": pd.df, "paired-train": old_df, "paired-shrunk": old_df,
                 "paired-raw": max(1.0, raw ** 2 / den) if den > 0 else float("inf"),
                 "paired-notrain": satterthwaite([(pd.var_test, folds["clusters"] - 1.0), (old_model, m - 1.0)],
                                                  notrain)}
    w, V = _model_noise_mixture(v, dd, m, pd.var_test)
    out["mixture"] = {"paired-mixture": (w, V)}
    out["var"]["paired-mixture"] = float(w @ V)
    pr = paired_posterior(folds, a, b, pair, m, related) if related is not None and pair in related["xprod"] else None
    # with the present model counting related clusters, both are on the data sets with the related piece only, so that
    # they compare on the same data sets while the piece is being run
    present, other = (pr, pd if pr is not None else None) if PRESENT_RELATED else (pd, pr)
    for name, p in (("paired", present), (OTHER_PAIRED, other)):
        if p is not None:
            out["var"][name], out["df"][name] = p.var, p.df
        else:
            out["var"].pop(name, None)
            out["df"].pop(name, None)
    if present is not None:
        out["pd"] = present
    out["correlation"] = pd.correlation
    out["share"] = share
    out["fold_sd"] = float(np.std(dd, ddof=1))
    return out


def _model_noise_mixture(v, d: np.ndarray, m: int, var_test: float, grid: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """The ``paired-mixture`` candidate: weights and variances of Δ's posterior on a grid of the model noise M.

    Each split's half-difference of its two folds' Δ is normal with variance M/2 + its test noise; the m split
    means' sum of squares about their mean is (M/2 + their test noise)·χ²(m − 1); √M has a flat prior. The
    posterior of Δ is Σ w_k N(d̂, var_test + M_k/(2m))."""
    half, half_test, _, _ = _split_moments(v, d, m)
    C = v.fold_cov
    A = np.kron(np.eye(m), [0.5, 0.5])
    P = np.eye(m) - 1.0 / m
    means = A @ d
    between_test = float(np.trace(P @ A @ C @ A.T @ P)) / (m - 1)
    ss = float(np.sum((means - means.mean()) ** 2))
    top = 6 * math.sqrt(max(2 * max(float(np.max(half ** 2)), ss / (m - 1)), var_test, 1e-16))
    M = np.linspace(0.0, top, grid + 1)[1:] ** 2
    ll = np.zeros_like(M)
    for h, b in zip(half, half_test):
        s2 = M / 2 + max(float(b), 0.0)
        ll += -0.5 * np.log(s2) - 0.5 * h * h / s2
    vb = M / 2 + max(between_test, 0.0)
    ll += -(m - 1) / 2 * np.log(vb) - 0.5 * ss / vb
    w = np.exp(ll - ll.max())
    return w / w.sum(), var_test + M / (2 * m)


def _mixture_cdf(x: float, w: np.ndarray, V: np.ndarray) -> float:
    return float(w @ sst.norm.cdf(x / np.sqrt(V)))


def _mixture_half_width(w: np.ndarray, V: np.ndarray, level: float = 0.95) -> float:
    """Half-width of the mixture's central ``level`` interval (bisection)."""
    lo, hi = 0.0, 10.0 * float(np.sqrt(V.max()))
    for _ in range(60):
        q = (lo + hi) / 2
        lo, hi = (q, hi) if 2 * _mixture_cdf(q, w, V) - 1 < level else (lo, q)
    return (lo + hi) / 2


def _split_moments(v, d: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Each split's half-difference of its two folds' ΔF1 and its test noise, their mean square beyond that noise
    (training part + half the model noise), and the model noise from the split means' spread beyond their test
    noise; the last two raw (not floored), as :func:`textbcv.stats.paired.paired_difference_from_moments` takes
    them before flooring."""
    C = v.fold_cov
    half = (d[0::2] - d[1::2]) / 2
    half_test = (np.diag(C)[0::2] + np.diag(C)[1::2] - 2 * np.diag(C, 1)[0::2]) / 4
    model = 0.0
    if m > 1:
        A = np.kron(np.eye(m), [0.5, 0.5])
        P = np.eye(m) - 1.0 / m
        between = float(np.trace(P @ A @ C @ A.T @ P)) / (m - 1)
        model = 2 * (float(np.var(A @ d, ddof=1)) - between)
    return half, half_test, float(np.mean(half ** 2 - half_test)), model


def _shrunk_train(v, d: np.ndarray, m: int, var_test: float) -> float:
    """The ``paired-shrunk`` candidate's training part: (posterior mean of the training SD)², given each split's
    half-difference of its two folds' ΔF1 (normal, variance = training + its test noise + half the model noise)
    and a half-Cauchy prior on the SD scaled by the test part's SD; quadrature on a grid."""
    half, half_test, _, model = _split_moments(v, d, m)
    model = max(0.0, model)
    base = np.maximum(half_test + model / 2, 1e-16)
    scale = math.sqrt(max(var_test, 1e-16))
    t = np.linspace(0.0, max(20 * scale, 5 * float(np.sqrt(np.max(half ** 2)))), 2001)
    ll = sum(sst.norm.logpdf(h, 0, np.sqrt(t ** 2 + b)) for h, b in zip(half, base)) - np.log1p((t / scale) ** 2)
    w = np.exp(ll - ll.max())
    return float((w * t).sum() / w.sum()) ** 2


def _ratio_ci(var: np.ndarray, err: np.ndarray, noise: np.ndarray, draws: int = 2000) -> list[float] | None:
    """95% percentile interval of the median SD over the RMSE net of the truth's noise, from a bootstrap over the data
    sets (independent draws from the pool; seeded, so the summary is the same every time)."""
    rng = np.random.default_rng(20261126)
    idx = rng.integers(0, len(var), size=(draws, len(var)))
    net = np.mean(err[idx] ** 2, axis=1) - np.mean(noise[idx], axis=1)
    ok = net > 0
    if ok.sum() < 0.975 * draws:  # the net MSE is not clearly positive: no interval
        return None
    ratio = np.median(np.sqrt(var[idx[ok]]), axis=1) / np.sqrt(net[ok])
    return [float(np.quantile(ratio, 0.025)), float(np.quantile(ratio, 0.975))]


def _truth(t: dict, a: str, b: str, pair: str) -> tuple[float, float]:
    """Truth ΔF1 and its own noise variance (test text of the truth + its halvings)."""
    da = _f1(np.asarray(t["counts"][a], dtype=float))
    db = _f1(np.asarray(t["counts"][b], dtype=float))
    d = db - da
    h = d.reshape(-1, 2).mean(axis=1)  # one value per halving (its two halves)
    halving = float(np.var(h, ddof=1) / len(h)) if len(h) > 1 else 0.0
    return float(d.mean()), float(t["test_var"][pair]) + halving


def _calls(d_hat: np.ndarray, var: np.ndarray, df: np.ndarray) -> tuple[int, int]:
    p = sst.t.cdf(d_hat / np.sqrt(var), df)
    return int(np.sum(p >= THRESHOLD)), int(np.sum(1 - p >= THRESHOLD))


def summarize(rows: dict[str, list[dict]], settings: dict, pairs: dict, pair_text: dict) -> dict:
    """The summary of the committed data sets ``rows`` (per pool) of the pairs ``pairs`` (per task: name → the
    names of system A and B), labelled by ``pair_text``."""
    out: dict = {"meta": {"pools": list(rows), "done": {p: len(v) for p, v in rows.items()},
                          "settings": settings, "candidates": list(CANDIDATES), "threshold": THRESHOLD},
                 "pairs": [], "calibration": [], "power": []}
    for pool, recs in rows.items():
        task = rts.POOLS[pool]["task"]
        for pair, (a, b) in pairs[task].items():
            use = [x for x in recs if "folds" in x["pieces"] and pair in x["pieces"]["folds"]["xprod"]]
            if not use:
                continue
            fr = [x["pieces"]["folds"] for x in use]
            row: dict = {"pool": pool, "pair": pair, "text": pair_text[task][pair], "R": len(fr)}
            for m in (3, 7):
                d = np.array([_f1(np.asarray(f["counts"][b][: 2 * m])) - _f1(np.asarray(f["counts"][a][: 2 * m]))
                              for f in fr])
                row[f"m{m}"] = {"fold_delta_sd": 100 * float(np.mean(d.std(axis=1, ddof=1))),
                                "delta_mean": 100 * float(d.mean())}
            for test in ("p_bootstrap", "p_randomization"):
                calls_b = sum(f["onesplit"][pair][test] < ALPHA and f["onesplit"][pair]["delta"] > 0 for f in fr)
                calls_a = sum(f["onesplit"][pair][test] < ALPHA and f["onesplit"][pair]["delta"] < 0 for f in fr)
                row[f"onesplit_{test}"] = {"b_better": _binom(calls_b, len(fr)), "a_better": _binom(calls_a, len(fr))}
            # the same on the data sets that give textbcv's present posterior (what the report's rule sets beside it)
            fp = [x["pieces"]["folds"] for x in use if has_present(x["pieces"], pair)]
            boot = [f["onesplit"][pair] for f in fp]
            row["R_present"] = len(fp)
            row["onesplit_present"] = {
                "b_better": _binom(sum(t["p_bootstrap"] < ALPHA and t["delta"] > 0 for t in boot), len(fp)),
                "a_better": _binom(sum(t["p_bootstrap"] < ALPHA and t["delta"] < 0 for t in boot), len(fp))}
            truths = {x["r"]: _truth(x["pieces"]["truth"], a, b, pair) for x in use
                      if "truth" in x["pieces"] and pair in x["pieces"]["truth"]["test_var"]}
            if pair == "null":  # the same configuration: its true ΔF1 is 0 (no truth models needed)
                truths = {x["r"]: (0.0, 0.0) for x in use}
            if truths:
                td = [t[0] for t in truths.values()]
                row["truth"] = {"R": len(td), "delta_mean": 100 * float(np.mean(td)),
                                "delta_sd": 100 * float(np.std(td, ddof=1)) if len(td) > 1 else None,
                                "noise_sd": 100 * float(np.sqrt(np.mean([t[1] for t in truths.values()])))}
            row["sequential"] = _sequential([x["pieces"] for x in use if has_present(x["pieces"], pair)], a, b, pair)
            out["pairs"].append(row)
            for m in (3, 7):
                cv = {x["r"]: candidate_variances(x["pieces"]["folds"], a, b, pair, m, x["pieces"].get("related"))
                      for x in use}
                every = sorted(cv)
                for cand in CANDIDATES:
                    rs = [r for r in every if cand in cv[r]["var"]]
                    if not rs:
                        continue
                    d_hat = np.array([cv[r]["d_hat"] for r in rs])
                    base = {"pool": pool, "pair": pair, "m": m, "R": len(rs),
                            "share_median": float(np.median([cv[r]["share"] for r in rs]))}
                    tr = [r for r in rs if r in truths]
                    var = np.array([cv[r]["var"][cand] for r in rs])
                    dfs = np.array([cv[r]["df"].get(cand, np.inf) for r in rs])
                    if cand in MIXTURES:
                        pb = np.array([_mixture_cdf(cv[r]["d_hat"], *cv[r]["mixture"][cand]) for r in rs])
                        kb, ka = int(np.sum(pb >= THRESHOLD)), int(np.sum(1 - pb >= THRESHOLD))
                    else:
                        kb, ka = _calls(d_hat, var, dfs)
                    cal: dict = {**base, "candidate": cand, "sd_median": 100 * float(np.median(np.sqrt(var))),
                                 "calls_b": _binom(kb, len(rs)), "calls_a": _binom(ka, len(rs))}
                    if tr:
                        t = np.array([truths[r][0] for r in tr])
                        tn = np.array([truths[r][1] for r in tr])
                        dh = np.array([cv[r]["d_hat"] for r in tr])
                        vv = np.array([cv[r]["var"][cand] for r in tr])
                        q = sst.t.isf(0.025, np.array([cv[r]["df"].get(cand, np.inf) for r in tr]))
                        err2 = float(np.mean((dh - t) ** 2))
                        net = err2 - float(np.mean(tn))
                        z = (dh - t) / np.sqrt(vv + tn)
                        if cand in MIXTURES:  # the interval of the mixture widened by the truth's noise
                            inside = [abs(dh[i] - t[i]) <= _mixture_half_width(cv[r]["mixture"][cand][0],
                                                                              cv[r]["mixture"][cand][1] + tn[i])
                                      for i, r in enumerate(tr)]
                        else:
                            inside = list(np.abs(z) <= q)
                        cal.update({"R_truth": len(tr), "rmse": 100 * math.sqrt(err2),
                                    "rmse_net": 100 * math.sqrt(net) if net > 0 else None,
                                    "sd_over_rmse_net": (float(np.median(np.sqrt(vv))) / math.sqrt(net)
                                                         if net > 0 else None),
                                    "sd_over_rmse_net_ci": _ratio_ci(vv, dh - t, tn),
                                    "z_sd": float(np.std(z, ddof=1)) if len(z) > 1 else None,
                                    "coverage": _binom(int(np.sum(inside)), len(tr)),
                                    # the issue's yardstick: d̂ ± 1.96·√(V + SE_truth²), V the candidate's variance
                                    # (a Student t's scale², not its variance)
                                    "coverage_196": _binom(int(np.sum(np.abs(z) <= 1.959963984540054)), len(tr))})
                    out["calibration"].append(cal)
                tr = [r for r in every if r in truths and "pd" in cv[r]]
                if tr and pair != "null":
                    out["power"].append(_power(pool, pair, m, [cv[r]["pd"] for r in tr],
                                               np.array([truths[r][0] for r in tr]),
                                               np.array([truths[r][1] for r in tr])))
    out["targets"] = targets(out)
    return out


#: the issue's targets for textbcv's posterior (``paired``): SD/RMSE net within this band, the yardstick's coverage
#: interval holding 95%, null calls at most 5% in each direction, observed power within 2 binomial SE of predicted
SCALE_BAND = (0.85, 1.15)
NULL_MAX = 0.05


def targets(result: dict) -> list[dict]:
    """Every target of the study for textbcv's posterior (candidate ``paired``), checked on ``result``'s rows: per
    pool, pair and m, the value, the target, the data sets it rests on, whether it holds, and whether it holds on as
    many data sets as the study asks (``R ≥`` :data:`TARGET_R_TRUTH` with a truth per close pair, the default pair
    on its 100, :data:`TARGET_R_NULL` null data sets)."""
    rows: list[dict] = []

    def add(c: dict, target: str, value: str, holds: bool, n: int, need: int) -> None:
        rows.append({"pool": c["pool"], "pair": c["pair"], "m": c["m"], "target": target, "value": value,
                     "R": n, "R_needed": need, "holds": bool(holds), "enough": n >= need})

    for c in result["calibration"]:
        if c["candidate"] != "paired":
            continue
        if c["pair"] == "null":
            for side in ("calls_b", "calls_a"):
                x = c[side]
                add(c, f"null calls {'B' if side == 'calls_b' else 'A'} better ≤ {100 * NULL_MAX:.0f}%", _rate(x),
                    x["rate"] is not None and x["rate"] <= NULL_MAX, x["n"], TARGET_R_NULL)
            continue
        need = TARGET_R_TRUTH if c["pair"] != "default" else DEFAULT_TARGET_R
        if "R_truth" not in c:
            continue
        v = c.get("sd_over_rmse_net")
        add(c, f"SD/RMSE net in {SCALE_BAND[0]:.2f}–{SCALE_BAND[1]:.2f}", _ratio(c),
            v is not None and SCALE_BAND[0] <= v <= SCALE_BAND[1], c["R_truth"], need)
        x = c["coverage_196"]
        add(c, "coverage of d̂ ± 1.96·√(SD² + SE_truth²): CI holds 95%", _rate(x),
            x["lo"] is not None and x["lo"] <= 0.95 <= x["hi"], x["n"], need)
    for x in result["power"]:
        need = TARGET_R_TRUTH if x["pair"] != "default" else DEFAULT_TARGET_R
        add(x, "observed calls within 2 SE of predicted power (at the truth net of its noise)",
            f"{_rate(x['observed'])} against {100 * x['predicted']:.1f}%", x["within_2se"], x["R"], need)
    return rows


def _sequential(pieces: list, a: str, b: str, pair: str, m_start: int = 3, m_max: int = 7) -> dict:
    """Calls of a sequential run from m = 3 up to m = 7 on every data set, as ``compare --sequential --m-max 7`` makes
    them, under each stopping rule: the sequential t-test on the per-fold F1 differences (``--stop t-test``, the
    default) and the paired Bayes test (``--stop bayes``: P(better) at :func:`textbcv.stats.sequential.look_threshold`
    before m = 7). For each rule, ``b_better``/``a_better`` are the report's calls (the Bayes test at P ≥ 0.95 at the m
    where the run stopped, 7 if it never did), ``m_mean`` the mean m used; for the t-test also its own calls
    (``test_b_better``/``test_a_better``)."""
    out = {}
    level = look_threshold(THRESHOLD, m_max - m_start + 1)
    # textbcv's posterior at every m of every data set, made once for both rules
    probs = [{m: textbcv_posterior(x, a, b, pair, m).prob_better() for m in range(m_start, m_max + 1)} for x in pieces]
    fr = [x["folds"] for x in pieces]
    for rule in ("t-test", "bayes"):
        kb = ka = tb = ta = 0
        used = []
        for folds, p_of in zip(fr, probs):
            for m in range(m_start, m_max + 1):
                pr = p_of[m]
                if rule == "t-test":
                    ca = np.asarray(folds["counts"][a][: 2 * m], dtype=float)
                    cb = np.asarray(folds["counts"][b][: 2 * m], dtype=float)
                    side = SequentialPair.of(a, b, (_f1(cb) - _f1(ca)).reshape(m, 2), m_start=m_start, M=m_max).ahead
                    tb += side == "B"
                    ta += side == "A"
                    stop = side is not None
                else:
                    stop = max(pr["p_b_better"], pr["p_a_better"]) >= level
                if stop or m == m_max:
                    kb += pr["p_b_better"] >= THRESHOLD
                    ka += pr["p_a_better"] >= THRESHOLD
                    used.append(m)
                    break
        out[rule] = {"b_better": _binom(int(kb), len(fr)), "a_better": _binom(int(ka), len(fr)),
                     "m_mean": float(np.mean(used)) if used else None}
        if rule == "t-test":
            out[rule].update(test_b_better=_binom(tb, len(fr)), test_a_better=_binom(ta, len(fr)))
    return out


#: True gains (fractions) of the power curves.
POWER_GRID = np.linspace(0.0, 0.03, 61)


def true_gains(truth: np.ndarray, noise: np.ndarray) -> tuple[np.ndarray, float]:
    """The data sets' true gains net of their truth's own noise, for a power prediction.

    A measured truth is the true gain plus its own noise (variance ``noise``, from the re-runs): its spread over the
    data sets is the true gains' spread plus that noise. Power is a curved function of the gain (convex below the
    detectable gain, concave above), so its mean at the measured truths is biased (upward on the convex part, Jensen's
    inequality). The gains are therefore moved toward their mean by √(1 − noise / spread²), the factor that leaves
    them the spread the true gains have (moment matching, zero when the noise accounts for all of the spread).

    Returns the gains and that factor.

    Examples
    --------
    >>> g, k = true_gains(np.array([0.0, 0.02]), np.array([0.0001, 0.0001]))
    >>> round(k, 3), [round(float(x), 4) for x in g]
    (0.707, [0.0029, 0.0171])
    """
    mu = float(np.mean(truth))
    spread2 = float(np.var(truth, ddof=1)) if len(truth) > 1 else 0.0
    k = math.sqrt(max(0.0, 1.0 - float(np.mean(noise)) / spread2)) if spread2 > 0 else 0.0
    return mu + k * (truth - mu), k


def _power(pool: str, pair: str, m: int, pds: list, truth: np.ndarray, noise: np.ndarray) -> dict:
    """Observed against predicted power of one pair at m: the share of data sets called in the truth's direction,
    and the mean over data sets of the power each one's posterior predicts (as ``textbcv plan`` does, the data set
    taken as its own pilot) at that data set's true ΔF1 net of the truth's noise (:func:`true_gains`; the prediction
    at the measured truth beside, as ``predicted_at_measured``); with the predicted curve over :data:`POWER_GRID`."""
    sign = np.sign(np.mean(truth)) or 1.0
    called = [(p.prob_better()["p_b_better"] if sign > 0 else p.prob_better()["p_a_better"]) >= THRESHOLD
              for p in pds]
    gains, shrink = true_gains(sign * truth, noise)
    pred = np.array([p.power(g, THRESHOLD) for p, g in zip(pds, gains)])
    raw = np.array([p.power(sign * t, THRESHOLD) for p, t in zip(pds, truth)])
    k, n = int(np.sum(called)), len(pds)
    mean_pred, mean_raw = float(pred.mean()), float(raw.mean())

    def within(q: float) -> bool:
        return abs(k / n - q) <= 2 * math.sqrt(max(q * (1 - q), 1e-12) / n)

    return {"pool": pool, "pair": pair, "m": m, "R": n, "true_delta": 100 * float(np.mean(sign * truth)),
            "observed": _binom(k, n), "predicted": mean_pred, "within_2se": within(mean_pred),
            "truth_shrink": shrink, "predicted_at_measured": mean_raw, "within_2se_at_measured": within(mean_raw),
            "detectable_80_median": 100 * float(np.median([p.detectable(0.8, THRESHOLD) for p in pds])),
            "curve": [float(np.mean([p.power(d, THRESHOLD) for p in pds])) for d in POWER_GRID]}


def power_plot(result: dict, path) -> None:
    """The power curves (predicted, per pair and m) with the observed call rates at the true gains."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pools = sorted({x["pool"] for x in result["power"]})
    fig, axes = plt.subplots(1, max(1, len(pools)), figsize=(5.2 * max(1, len(pools)), 3.9), squeeze=False)
    for ax, pool in zip(axes[0], pools):
        close = [r for r in result["power"] if r["pool"] == pool and abs(r["true_delta"]) <= 100 * POWER_GRID[-1]]
        for i, x in enumerate(close):  # the large-gap default pair is called everywhere: see the table
            color = f"C{i}"
            ax.plot(100 * POWER_GRID, x["curve"], color=color, lw=1.2, label=f"{x['pair']}, m = {x['m']}")
            o = x["observed"]
            ax.errorbar([x["true_delta"]], [o["rate"]], yerr=[[o["rate"] - o["lo"]], [o["hi"] - o["rate"]]],
                        fmt="o", color=color, ms=4, capsize=2)
        ax.axhline(0.8, color="grey", lw=0.6, ls=":")
        ax.set_xlim(0, 100 * POWER_GRID[-1])
        ax.set_xlabel("true gain ΔF1 (points)")
        ax.set_ylabel(f"P(called better at P ≥ {THRESHOLD:g})")
        ax.set_title(f"{pool}: close pairs, predicted power (lines) and observed calls (points, 95% CI)",
                     fontsize=9)
        ax.set_ylim(0, 1.02)
        ax.legend(frameon=False, fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


def _ratio(c: dict) -> str:
    """SD/RMSE net with its bootstrap interval."""
    v, ci = c.get("sd_over_rmse_net"), c.get("sd_over_rmse_net_ci")
    if v is None:
        return "–"
    return f"{v:.2f}" + ("" if ci is None else f" [{ci[0]:.2f}, {ci[1]:.2f}]")


def _rate(x: dict) -> str:
    return "–" if x["rate"] is None else f"{100 * x['rate']:.1f}% [{100 * x['lo']:.1f}, {100 * x['hi']:.1f}]"




def compare_check(lines: list[dict]) -> dict | None:
    """The data sets answered again by ``textbcv.compare`` (``real_text_pairs.py --check-compare``): how many, whether
    every fold's counts were the study's, and the largest differences of estimate, SD (F1 points) and degrees of
    freedom from the study's posterior."""
    rows = [x for line in lines for x in line["rows"]]
    if not rows:
        return None
    return {"data_sets": {p: sorted({line["r"] for line in lines if line["pool"] == p})
                          for p in sorted({line["pool"] for line in lines})},
            "answers": len(rows), "counts_equal": all(x["counts_equal"] for x in rows),
            "max_estimate_diff": 100 * max(abs(x["estimate"][0] - x["estimate"][1]) for x in rows),
            "max_sd_diff": 100 * max(abs(x["sd"][0] - x["sd"][1]) for x in rows),
            "df_equal": all(x["df"][0] == x["df"][1] for x in rows)}


def _check_text(c: dict | None) -> str:
    if c is None:
        return ("Not yet checked against `textbcv.compare` (`scripts/real_text_pairs.py --check-compare K` answers the "
                "first K data sets again through it).")
    same = c["counts_equal"] and c["df_equal"] and c["max_estimate_diff"] < 1e-9 and c["max_sd_diff"] < 1e-9
    sets = "; ".join(f"{p}: r = {', '.join(map(str, r))}" for p, r in c["data_sets"].items())
    return (f"`scripts/real_text_pairs.py --check-compare` answered data sets again through `textbcv.compare` with the "
            f"study's systems, splits and clusters ({sets}; {c['answers']} answers, m = 3 and 7): "
            + ("every fold's counts, every estimate, SD and degrees of freedom were the study's (largest differences "
               f"{c['max_estimate_diff']:.1e} and {c['max_sd_diff']:.1e} points, rounding), so these rows are what a "
               "user of `textbcv compare` gets on such data sets." if same else
               f"they differ (fold counts equal: {c['counts_equal']}; largest differences {c['max_estimate_diff']:.3g} "
               f"and {c['max_sd_diff']:.3g} points; degrees of freedom equal: {c['df_equal']}): these rows are not "
               "textbcv's present answers."))


def render(result: dict) -> str:
    done = result["meta"]["done"]
    present = [c for c in result["calibration"] if c["candidate"] == "paired"]
    truths = [c["R_truth"] for c in present if c["pair"] in ("scheme", "feature") and "R_truth" in c]
    nulls = [c["R"] for c in present if c["pair"] == "null"]
    final = (bool(done) and min(done.values()) >= TARGET_R_NULL and bool(truths) and min(truths) >= TARGET_R_TRUTH
             and bool(nulls) and min(nulls) >= TARGET_R_NULL)
    with_related = {r["pool"]: r["R_present"] for r in result["pairs"] if r["pair"] == "null" and "R_present" in r}
    L = ["## Real-text study of differences (pairs)", "",
         "Written by `scripts/real_text_pairs.py --summarize-only` from the committed data sets "
         f"({', '.join(f'{p}: {n}' for p, n in done.items())}). "
         + ("The study is complete: its targets were " if final else "Interim: the study is running (its targets: ")
         + f"R ≥ {TARGET_R_TRUTH} per close pair with a truth, {TARGET_R_NULL} per null pair"
         + ("." if final else ").") + " textbcv's Bayes test uses the `paired` "
         f"candidate below (posterior model `{PAIRED_POSTERIOR}`)."
         + (" It counts the covariance of related clusters (documents, else sentences, that share a rare name), so "
            "its rows are of the data sets whose units have the study's `related` piece ("
            + ("" if final else "so far ") + ", ".join(f"{p}: {n}" for p, n in with_related.items())
            + "); `paired-unrelated`, the same posterior "
            "without related clusters (model `paired/2`, textbcv's from 2026-11-26 to 2026-11-27), is on every "
            "data set. `paired/2` left the 18-point CoNLL-2003 pair's interval a quarter narrower than its error: a "
            "part of the error common to every fold, which related clusters carry (`scripts/pairs_decomposition.py`"
            ", \"With related clusters\")." if PRESENT_RELATED else "")
         + " `paired-train` (model `paired/1`, textbcv's until 2026-11-26) also counted what other training corpora "
         "of the same size would change, which the truth here (models trained on this data set's halves, tested on "
         "new text) does not hold, and its median SD was 1.1–1.4 times the RMSE on the close and null pairs."
         + ("" if final else " These tables are re-summarised as data sets land.") + " "
         + _check_text(result.get("compare_check")), "",
         "Data sets are drawn independently from each pool (MSR: 1,000 of the 3,985 sentences of its test gold, so "
         "two data sets share about a quarter of their sentences; CoNLL-2003: whole documents, 2,500 of 20,744 "
         "sentences), and each truth is tested on its pool's other sentences. Given the pool, the data sets' "
         "outcomes are independent draws however much they overlap, so the rates' Wilson intervals hold with R as "
         "counted (the effective R is R); what the pool itself is — one sample of that kind of text — is common to "
         "every data set, and no number of data sets measures it.", ""]
    tg = result.get("targets", [])
    if tg:
        miss = [t for t in tg if not t["holds"]]
        short = [t for t in tg if not t["enough"]]
        L += ["The study's targets for textbcv's posterior (candidate `paired`), checked on these rows: "
              f"{len(tg) - len(miss)} of {len(tg)} hold"
              + (f"; {len(short)} rows rest on fewer data sets than the study asks (R needed beside)" if short else "")
              + ". Null calls at most 5% in each direction; on every pair with a truth the median SD within "
              f"{SCALE_BAND[0]:.2f}–{SCALE_BAND[1]:.2f} of the RMSE net of the truth's noise (bootstrap CI beside), the"
              " coverage of d̂ ± 1.96·√(SD² + SE_truth²) with a binomial interval that holds 95%, and the observed "
              "call rate within 2 binomial SE of the mean power the posteriors predict.", "",
              "| pool | pair | m | target | value | R | R needed | holds |", "|---|---|---:|---|---|---:|---:|---|"]
        for t in tg:
            L.append(f"| {t['pool']} | {t['pair']} | {t['m']} | {t['target']} | {t['value']} | {t['R']} | "
                     f"{t['R_needed']} | {'yes' if t['holds'] else '**no**'} |")
        L.append("")
    L += [
         "| pool | pair | R | true ΔF1 | truth spread / noise | fold ΔF1 SD (m = 3) | one-split bootstrap calls "
         "B / A | randomization calls B / A |", "|---|---|---:|---:|---:|---:|---|---|"]
    for r in result["pairs"]:
        t = r.get("truth")
        boot, rand = r["onesplit_p_bootstrap"], r["onesplit_p_randomization"]
        spread = ("–" if not t or not t.get("delta_sd") else f"{t['delta_sd']:.2f} / {t['noise_sd']:.2f}")
        L.append(f"| {r['pool']} | {r['text']} | {r['R']} | {'–' if not t else format(t['delta_mean'], '+.2f')} | "
                 f"{spread} | "
                 f"{r['m3']['fold_delta_sd']:.2f} | {_rate(boot['b_better'])} / {_rate(boot['a_better'])} | "
                 f"{_rate(rand['b_better'])} / {_rate(rand['a_better'])} |")
    L += ["", "A sequential run from m = 3 to m = 7 (`compare --sequential --m-max 7`) on the same data sets, under "
          "each stopping rule: the report's calls B better / A better (the paired Bayes test at P ≥ 0.95 at the m "
          "where the run stopped) and the mean m used. `--stop t-test` stops when the sequential t-test decides (its "
          "own calls beside); `--stop bayes` when P(better) reaches 1 − 0.05/5 = 0.99 before m = 7 (the looks "
          "corrected since 2026-11-26: at 0.95 at every m it called identical systems different in 10–11% of data "
          "sets in a direction).", "",
          "| pool | pair | R | --stop t-test (default): report | mean m | t-test's own calls | --stop bayes: "
          "report | mean m |", "|---|---|---:|---|---:|---|---|---:|"]
    for r in result["pairs"]:
        q = r["sequential"]
        t, y = q["t-test"], q["bayes"]
        L.append(f"| {r['pool']} | {r['pair']} | {r.get('R_present', r['R'])} | {_rate(t['b_better'])} / "
                 f"{_rate(t['a_better'])} | "
                 f"{t['m_mean']:.2f} | {_rate(t['test_b_better'])} / {_rate(t['test_a_better'])} | "
                 f"{_rate(y['b_better'])} / {_rate(y['a_better'])} | {y['m_mean']:.2f} |")
    L += ["", "Power of the paired posterior (candidate `paired`) on the pairs with a truth: calls in the truth's "
          "direction at P ≥ 0.95, against the mean power each data set's own posterior predicts at its true ΔF1 "
          "(the data set as its own pilot, as `textbcv plan`), and the median gain detectable with 80% power. "
          "A data set's measured truth is its true gain plus the truth's own noise, and on these pairs that noise "
          "is most of the truths' spread over the data sets (the first table's columns \"truth spread / noise\"). "
          "Power is curved in the gain, so its mean at the measured truths is "
          "biased (upward where the curve is convex, below the detectable gain); \"predicted\" is therefore the "
          "mean power at the truths net of their noise (moved toward their mean by the factor k = √(1 − noise² / "
          "spread²) that leaves them the true gains' spread; 0 when the noise accounts for all of it), and the "
          "prediction at the measured truths is beside it. The curves (the mean power at one gain, which is what "
          "\"predicted\" is when k = 0): [real_text_pairs_power.png](real_text_pairs_power.png).", "",
          "| pool | pair | m | R | true ΔF1 | observed calls | predicted | within 2 SE | k | at the measured truths "
          "(within 2 SE) | detectable (80%) |",
          "|---|---|---:|---:|---:|---|---:|---|---:|---|---:|"]
    for x in result["power"]:
        L.append(f"| {x['pool']} | {x['pair']} | {x['m']} | {x['R']} | {x['true_delta']:+.2f} | "
                 f"{_rate(x['observed'])} | {100 * x['predicted']:.1f}% | {'yes' if x['within_2se'] else 'no'} | "
                 f"{x['truth_shrink']:.2f} | {100 * x['predicted_at_measured']:.1f}% "
                 f"({'yes' if x['within_2se_at_measured'] else 'no'}) | {x['detectable_80_median']:.2f} |")
    L += ["", "Candidate variances of the pooled ΔF1 (module docstring of `scripts/real_text_pairs_summary.py`): "
          "median SD (a Student t's scale; a mixture's standard deviation), SD over the RMSE net of the truth's "
          "noise (with a 95% bootstrap interval over the data sets), SD of the standardised error (error over that "
          "SD: 1 = as wide as the error), coverage of the 95% interval (a Student t's quantiles) and of d̂ ± 1.96·"
          "√(SD² + SE_truth²) (the issue's yardstick), calls at P ≥ 0.95 (with the candidate's own distribution).",
          "",
          "| pool | pair | m | candidate | R | SD | SD/RMSE net | z SD | coverage | ±1.96 SD | calls B | calls A |",
          "|---|---|---:|---|---:|---:|---:|---:|---|---|---|---|"]
    def f(v, fmt: str) -> str:
        return "–" if v is None else format(v, fmt)

    for c in result["calibration"]:
        cov = _rate(c["coverage"]) if "coverage" in c else "–"
        cov196 = _rate(c["coverage_196"]) if "coverage_196" in c else "–"
        L.append(f"| {c['pool']} | {c['pair']} | {c['m']} | {c['candidate']} | {c['R']} | {c['sd_median']:.2f} | "
                 f"{_ratio(c)} | {f(c.get('z_sd'), '.2f')} | {cov} | {cov196} | "
                 f"{_rate(c['calls_b'])} | {_rate(c['calls_a'])} |")
    return "\n".join(L)


#: the pools' names and units as the report quotes them
POOL_TEXT = {"conll": ("CoNLL-2003", "document"), "msr": ("SIGHAN 2005 MSR", "sentence")}


def null_evidence(result: dict) -> dict:
    """The null pairs' false calls of textbcv's posterior (``paired``) at P ≥ 0.95, per pool and m, with the one-split
    paired bootstrap's on the same data sets: what ``textbcv/data/evidence.json`` holds under ``real_text_pairs_null``
    and the report's decision rule quotes."""
    def rate(x: dict) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in x.items()}

    out: dict = {}
    for c in result["calibration"]:
        if c["pair"] != "null" or c["candidate"] != "paired":
            continue
        name, unit = POOL_TEXT.get(c["pool"], (c["pool"], "sentence"))
        row = out.setdefault(c["pool"], {"corpus": name, "unit": unit, "threshold": THRESHOLD,
                                         "posterior": PAIRED_POSTERIOR})
        row[f"m{c['m']}"] = {"R": c["R"], "calls_b": rate(c["calls_b"]), "calls_a": rate(c["calls_a"])}
    for p in result["pairs"]:
        if p["pair"] == "null" and p["pool"] in out and "onesplit_present" in p:
            # the one-split bootstrap on the data sets of textbcv's posterior's figures
            out[p["pool"]]["onesplit_bootstrap"] = {k: rate(v) for k, v in p["onesplit_present"].items()}
    return dict(sorted(out.items()))


NULL_ABOUT = ("Generated by scripts/real_text_pairs.py with its summary docs/real_text_pairs.json; do not edit. Null "
              "pairs (an averaged-perceptron CRF against itself with another training seed): share of data sets in "
              "which textbcv's paired posterior called B (calls_b) or A (calls_a) better at P ≥ 0.95, at m = 3 and 7, "
              "with Wilson 95% intervals, and the one-split paired bootstrap's share on the same data sets.")
