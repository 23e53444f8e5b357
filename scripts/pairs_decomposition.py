#!/usr/bin/env python3
"""Where a pair's ΔF1 error comes from: the folds' own models tested on held-out text.

A diagnostic of the study of differences (``scripts/real_text_pairs.py``). Its calibration compares the
posterior of the pooled ΔF1 estimate d̂ with the truth (the pair trained on the data set's halves,
tested on the rest of the pool). Where the two disagree, this script says which part of the posterior
is short. For data sets of that study with a truth, it trains the pair's m = 3 fold models again (the
same data set, splits, systems and settings: their fold counts are checked against the committed
ones) and tags, besides each fold's test half, the rest of the pool — the truth's test text. The
error d̂ − truth then splits in two:

* the **new-text part** d̂ − d_new, the same models on the data set's test halves against on held-out
  text (d_new pools the fold models' counts on the rest as d̂ pools them on the test halves). The
  posterior's ``var_test`` plus the held-out text's own cluster variance should be its mean square;
* the **models' part** d_new − truth, the folds' models against the truth's models on the same text.
  The posterior's ``var_model`` plus the truth's halving noise should be its mean square.

Then what the new-text part's excess is made of:

* per fold, the new-text part of that fold alone against its linearised cluster variance (the posterior's
  building block) and against a leave-one-cluster-out jackknife of the fold's ΔF1;
* the same fold models on the held-out text alone, cut at random into a pseudo test half and the rest
  (documents independent by construction): what the two variances do when only sampling is at play;
* the pooled estimate's own jackknife (a cluster removed from every fold that tests it) against ``var_test``;
* the correlation of two folds' new-text errors, for the two folds of a split and for folds of different
  splits, against what their shared test text explains.

One line per data set in ``docs/real_text_study/decomposition-POOL.jsonl`` (committed; a run resumes
after the last finished data set, and runs again a data set whose line predates the pooled jackknife and
the random cuts, appending its new line: a data set's last line counts); ``--summarize-only`` writes
``docs/pairs_decomposition.json`` and the RESULTS.md section ``pairs-decomposition`` for every pool with
such a file, whichever ``--pools`` a run trained. About 10 s per CoNLL data set for the default pair,
20 s for the scheme pair.

Usage: scripts/pairs_decomposition.py [--pools conll] [--pair default] [--start R0] [--reps 100] [--until S]
       scripts/pairs_decomposition.py --smoke --out DIR   (after scripts/real_text_pairs.py --smoke --out DIR)
       scripts/pairs_decomposition.py --summarize-only
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats as sst

sys.path.insert(0, str(Path(__file__).resolve().parent))
import real_text_pairs as rp  # noqa: E402
import real_text_pairs_summary as summ  # noqa: E402
import real_text_study as rts  # noqa: E402

from textbcv.calibration.moments import full_matrix  # noqa: E402
from textbcv.split import make_splits  # noqa: E402
from textbcv.stats.paired import paired_variances  # noqa: E402

from _results import ROOT, append_line, fmt_seconds, update_section, write_json  # noqa: E402

M = 3
DRAWS = 2000
IID_DRAWS = 100  # pseudo test halves per fold (_iid_halves)
OTHER_SPLITS = [(i, j) for i in range(2 * M) for j in range(2 * M) if i // 2 != j // 2]  # two folds of two splits


def _groups(pool: rp.PairPool, idx: np.ndarray) -> tuple[np.ndarray, int]:
    g = np.unique(pool.cluster[idx], return_inverse=True)[1].ravel()
    return g, int(g.max()) + 1


def _units(path: Path) -> list[dict]:
    """A decomposition file's units, the last line of each data set: a data set whose line predates the pooled
    estimate's variances (``v_jk_pooled``) is run again by a later run, which appends its new line."""
    last = {(u["pair"], u["r"]): u for u in rts.load_lines(path)}
    return [u for _k, u in sorted(last.items())]


def _iid_halves(ca: np.ndarray, cb: np.ndarray, groups: np.ndarray, k: int, size: int,
                rng: np.random.Generator, draws: int = IID_DRAWS) -> dict | None:
    """The same models on held-out text cut at random: ``size`` random clusters of the rest as a pseudo test half
    against the other clusters, ``draws`` times. Here the clusters are independent draws by construction, so the
    mean squared difference against the mean linearised (and jackknife) variance is what the variance formula does
    with such documents when nothing but sampling is at play. None when the rest has too few clusters to cut."""
    if not 1 < size < k - 1:
        return None
    ga, gb = _cluster_sums(ca, groups, k), _cluster_sums(cb, groups, k)
    e2 = v_lin = v_jk = 0.0
    for _ in range(draws):
        pick = np.zeros(k, dtype=bool)
        pick[rng.choice(k, size=size, replace=False)] = True
        d = {}
        for side, sel in (("half", pick), ("other", ~pick)):
            n = int(sel.sum())
            ids = np.arange(n)
            d[side] = (float(summ._f1(gb[sel].sum(axis=0)) - summ._f1(ga[sel].sum(axis=0))),
                       rp.cluster_var(rp._lin_f1(gb[sel], ids, n) - rp._lin_f1(ga[sel], ids, n)))
        e2 += (d["half"][0] - d["other"][0]) ** 2
        v_lin += d["half"][1] + d["other"][1]
        v_jk += _jackknife(ga[pick], gb[pick], np.arange(size), size) + d["other"][1]
    return {"draws": draws, "e2": e2 / draws, "v_lin": v_lin / draws, "v_jk": v_jk / draws}


def _cluster_sums(c: np.ndarray, groups: np.ndarray, k: int) -> np.ndarray:
    """(k, 3) per-cluster sums of per-sentence counts (TP, FP, FN)."""
    return np.stack([np.bincount(groups, weights=c[:, j].astype(float), minlength=k) for j in range(3)], axis=1)


def _jackknife(ca: np.ndarray, cb: np.ndarray, groups: np.ndarray, k: int) -> float:
    """Leave-one-cluster-out jackknife variance of F1_B − F1_A from per-sentence counts."""
    ga, gb = _cluster_sums(ca, groups, k), _cluster_sums(cb, groups, k)
    theta = summ._f1(gb.sum(axis=0) - gb) - summ._f1(ga.sum(axis=0) - ga)
    return float((k - 1) / k * np.sum((theta - theta.mean()) ** 2))


def run_unit(pool: rp.PairPool, r: int, n: int, pair: str, committed: dict) -> dict:
    """The pair's m = 3 fold models of data set r on their test halves and on the rest of the pool."""
    a, b = rp.PAIRS[pool.task][pair]
    D = pool.draw(r, n)
    if rts.digest(D) != committed["digest"]:
        raise SystemExit(f"decomposition: data set {pool.name} r={r} differs from the pairs study's")
    unit = pool.spec["units"][0]
    sub = pool.corpus.subset(D.tolist())
    s7 = make_splits(sub, m=rp.M_MAX, method="bcv", balance=(), group_by=unit, seed=r, **rts.SPLIT_KW)
    folds = [(D[np.asarray(tr)], D[np.asarray(te)]) for _j, _k, tr, te in s7.folds()][: 2 * M]
    inD = np.zeros(len(pool.sents), dtype=bool)
    inD[D] = True
    rest = np.flatnonzero(~inD)
    g_rest, k_rest = _groups(pool, rest)
    pooled_rest = {s: np.zeros((len(rest), 3), dtype=np.int64) for s in (a, b)}
    out: dict = {"pool": pool.name, "pair": pair, "r": r, "m": M, "folds": []}
    all_te: dict[str, list[np.ndarray]] = {a: [], b: []}
    t0 = time.time()
    for f, (tr, te) in enumerate(folds):
        c_te, c_rest = {}, {}
        for s in (a, b):
            c = pool.train_test_system(s, tr, np.concatenate([te, rest]))
            c_te[s], c_rest[s] = c[: len(te)], c[len(te):]
            pooled_rest[s] += c_rest[s]
            all_te[s].append(c_te[s])
            if c_te[s].sum(axis=0).tolist() != committed["pieces"]["folds"]["counts"][s][f]:
                raise SystemExit(f"decomposition: {pool.name} r={r} fold {f} {s} differs from the pairs study's "
                                 "counts (other settings or code)")
        g_te, k_te = _groups(pool, te)
        iid = _iid_halves(c_rest[a], c_rest[b], g_rest, k_rest, k_te, np.random.default_rng([2026, r, f, 7]))
        out["folds"].append({
            "iid": iid,
            "te": [int(x) for s in (a, b) for x in c_te[s].sum(axis=0)],
            "rest": [int(x) for s in (a, b) for x in c_rest[s].sum(axis=0)],
            "v_lin": rp.cluster_var(rp._lin_f1(c_te[b], g_te, k_te) - rp._lin_f1(c_te[a], g_te, k_te)),
            "v_jk": _jackknife(c_te[a], c_te[b], g_te, k_te),
            "rest_var": rp.cluster_var(rp._lin_f1(c_rest[b], g_rest, k_rest) - rp._lin_f1(c_rest[a], g_rest, k_rest)),
            "clusters": k_te})
    # the pooled estimate d̂ over its clusters (a cluster's sentences in every fold that tests it)
    g_all, k_all = _groups(pool, np.concatenate([te for _tr, te in folds]))
    pa, pb = np.concatenate(all_te[a]), np.concatenate(all_te[b])
    out["v_lin_pooled"] = rp.cluster_var(rp._lin_f1(pb, g_all, k_all) - rp._lin_f1(pa, g_all, k_all))
    out["v_jk_pooled"] = _jackknife(pa, pb, g_all, k_all)
    out["rest_var_pooled"] = rp.cluster_var(rp._lin_f1(pooled_rest[b], g_rest, k_rest)
                                   - rp._lin_f1(pooled_rest[a], g_rest, k_rest))
    out["seconds"] = round(time.time() - t0, 1)
    return out


def _fold_cov(folds: dict, a: str, b: str, pair: str, related: dict | None = None) -> np.ndarray:
    """The posterior's covariance of the first 2M folds' ΔF1 from the clusters (test sampling only); with the data
    set's ``related`` piece, the related clusters' covariance included."""
    ca, cb = (np.asarray(folds["counts"][s][: 2 * M], dtype=float) for s in (a, b))
    S = full_matrix(folds["xprod"][pair])
    if related is not None:
        S = S + full_matrix(related["xprod"][pair])
    v = paired_variances(S, folds["clusters"], ca, cb, layout="tp,fp+fn",
                         fold_clusters=folds.get("fold_clusters", [folds["clusters"]] * len(ca))[: 2 * M])
    return v.fold_cov


def _mean_ci(x: np.ndarray) -> list[float]:
    """95% percentile interval of mean(x) over a bootstrap of the data sets (seeded)."""
    rng = np.random.default_rng(20261126)
    m = x[rng.integers(0, len(x), size=(DRAWS, len(x)))].mean(axis=1)
    return [float(np.quantile(m, 0.025)), float(np.quantile(m, 0.975))]


def _ratio_ci(num: np.ndarray, den: np.ndarray) -> list[float]:
    """95% percentile interval of mean(num)/mean(den) over a bootstrap of the data sets (seeded)."""
    rng = np.random.default_rng(20261126)
    idx = rng.integers(0, len(num), size=(DRAWS, len(num)))
    ratio = num[idx].mean(axis=1) / den[idx].mean(axis=1)
    return [float(np.quantile(ratio, 0.025)), float(np.quantile(ratio, 0.975))]


def summarize(units: dict[str, list[dict]], pairs_rows: dict[str, dict[int, dict]]) -> dict:
    """Per pool and pair: the error's parts (points²) against what the posterior predicts for each."""
    out: dict = {"m": M, "rows": []}
    for pool, recs in units.items():
        by_pair: dict[str, list[dict]] = {}
        for u in recs:
            by_pair.setdefault(u["pair"], []).append(u)
        task = rts.POOLS[pool]["task"]
        for pair, us in sorted(by_pair.items()):
            a, b = rp.PAIRS[task][pair]
            e, et, etr, vt, vm, tn, tvar, rvp = [], [], [], [], [], [], [], []
            fe2, fv, fj, lin, jk, fs, rf = [], [], [], [], [], [], []
            iid = np.zeros(3)  # Σ over folds of the pseudo halves' mean e², linearised and jackknife variance
            pj: list[tuple[float, ...]] = []  # units with the pooled jackknife
            pc: list[tuple[float, float]] = []  # the posterior's covariance of two folds: same split, two splits
            # units whose data set has the study's related piece: textbcv's posterior with related clusters
            rel: list[tuple[float, ...]] = []
            for u in us:
                p = pairs_rows[pool][u["r"]]["pieces"]
                truth, noise = summ._truth(p["truth"], a, b, pair)
                cv = summ.candidate_variances(p["folds"], a, b, pair, M)
                pd = summ.paired_posterior(p["folds"], a, b, pair, M)  # the posterior without related clusters
                C = _fold_cov(p["folds"], a, b, pair)
                pc.append((float(np.mean([C[i, i + 1] for i in range(0, 2 * M, 2)])),
                           float(np.mean([C[i, j] for i, j in OTHER_SPLITS]))))
                te = np.array([f["te"] for f in u["folds"]], dtype=float)
                rest = np.array([f["rest"] for f in u["folds"]], dtype=float)
                d_hat = float(summ._f1(te[:, 3:].sum(axis=0)) - summ._f1(te[:, :3].sum(axis=0)))
                d_new = float(summ._f1(rest[:, 3:].sum(axis=0)) - summ._f1(rest[:, :3].sum(axis=0)))
                assert abs(d_hat - pd.estimate) < 1e-12
                e.append(d_hat - truth)
                et.append(d_hat - d_new)
                etr.append(d_new - truth)
                vt.append(pd.var_test)
                vm.append(pd.var_model)
                tn.append(noise)
                tvar.append(p["truth"]["test_var"][pair])
                rvp.append(u["rest_var_pooled"])
                if "v_jk_pooled" in u:
                    if not np.isclose(u["v_lin_pooled"], pd.var_test, rtol=1e-6):
                        raise SystemExit(f"decomposition: {pool} r={u['r']}: the pooled linearised variance "
                                         f"{u['v_lin_pooled']:.3g} is not the posterior's var_test {pd.var_test:.3g}")
                    # the model noise from the split means alone (the study's paired-notrain candidate): it keeps
                    # the covariance of a split's two folds, which the pooled moment of textbcv's posterior cancels
                    pj.append((d_hat - truth, d_hat - d_new, u["v_jk_pooled"], pd.var_test, u["rest_var_pooled"],
                               pd.var_model, noise, cv["var"]["paired-notrain"] - pd.var_test))
                if "related" in p:
                    pr = summ.paired_posterior(p["folds"], a, b, pair, M, p["related"])
                    Cr = _fold_cov(p["folds"], a, b, pair, p["related"])
                    rel.append((d_hat - truth, d_hat - d_new, pr.var_test, pr.var_model, u["rest_var_pooled"], noise,
                                float(np.mean([Cr[i, i + 1] for i in range(0, 2 * M, 2)])),
                                float(np.mean([Cr[i, j] for i, j in OTHER_SPLITS])), u["r"]))
                for f, fo in enumerate(u["folds"]):
                    ef = (summ._f1(te[f, 3:]) - summ._f1(te[f, :3])) - (summ._f1(rest[f, 3:]) - summ._f1(rest[f, :3]))
                    fe2.append(float(ef) ** 2)
                    fs.append(float(ef))
                    fv.append(fo["v_lin"] + fo["rest_var"])
                    rf.append(fo["rest_var"])
                    fj.append(fo["v_jk"] + fo["rest_var"])
                    lin.append(fo["v_lin"])
                    jk.append(fo["v_jk"])
                    if fo.get("iid"):
                        iid += [fo["iid"]["e2"], fo["iid"]["v_lin"], fo["iid"]["v_jk"]]
            E, ET, ETR = np.array(e), np.array(et), np.array(etr)
            VT, VM, TN, TV, RV = (np.array(x) for x in (vt, vm, tn, tvar, rvp))
            halving = np.maximum(TN - TV, 0.0)

            def part(err: np.ndarray, pred: np.ndarray) -> dict:
                return {"mse": 1e4 * float(np.mean(err ** 2)), "predicted": 1e4 * float(np.mean(pred)),
                        "ratio": float(np.mean(err ** 2) / np.mean(pred)),
                        "ratio_ci": _ratio_ci(err ** 2, pred), "mean": 100 * float(np.mean(err))}

            FE2, FV, FJ, RF = np.array(fe2), np.array(fv), np.array(fj), np.array(rf)
            FZ = np.array(fs) / np.sqrt(FV)  # one fold's standardised new-text error
            FS = np.array(fs).reshape(len(us), 2 * M)  # a data set's folds, split by split
            own = np.mean(FS ** 2, axis=1)
            same = np.mean(FS[:, 0::2] * FS[:, 1::2], axis=1)  # the two folds of a split: disjoint test halves
            cross = np.array([np.mean([x[i] * x[j] for i, j in OTHER_SPLITS]) for x in FS])
            PC = np.array(pc)
            # beyond what the clusters and the shared held-out text predict (the latter: the pooled held-out variance,
            # the mean covariance of the folds' models on it)
            same_x, cross_x = same - PC[:, 0] - RV, cross - PC[:, 1] - RV
            out["rows"].append({
                "pool": pool, "pair": pair, "R": len(us),
                "total": part(E, VT + VM + TN),
                "new_text": part(ET, VT + RV),
                "models": part(ETR, VM + halving),
                "fold_new_text": {"folds": len(FE2), "ratio_linearised": float(FE2.mean() / FV.mean()),
                                  "ratio_jackknife": float(FE2.mean() / FJ.mean()),
                                  # over data sets (a data set's folds share its documents): its folds' sums
                                  "ratio_linearised_ci": _ratio_ci(FE2.reshape(len(us), -1).sum(axis=1),
                                                                   FV.reshape(len(us), -1).sum(axis=1)),
                                  "ratio_jackknife_ci": _ratio_ci(FE2.reshape(len(us), -1).sum(axis=1),
                                                                  FJ.reshape(len(us), -1).sum(axis=1)),
                                  "jackknife_over_linearised": float(np.mean(jk) / np.mean(lin))},
                "corr_error_sd": float(np.corrcoef(E, np.sqrt(VT))[0, 1]) if len(E) > 2 else None,
                "pooled_jackknife": _pooled_jackknife(np.array(pj)) if len(pj) >= 2 else None,
                "related": _with_related(rel, {u["r"]: (s_, c_) for u, s_, c_ in zip(us, same, cross)})
                if len(rel) >= 2 else None,
                "fold_covariance": {
                    "same_split_corr": float(same.mean() / own.mean()), "same_split_ci": _ratio_ci(same, own),
                    "cross_split_corr": float(cross.mean() / own.mean()), "cross_split_ci": _ratio_ci(cross, own),
                    "held_out_share": float(np.mean(RF) / own.mean()),
                    "same_split_excess": 1e4 * float(same_x.mean()), "same_split_excess_ci": _mean_ci(1e4 * same_x),
                    "cross_split_excess": 1e4 * float(cross_x.mean()),
                    "cross_split_excess_ci": _mean_ci(1e4 * cross_x)},
                "fold_z": {"sd": float(np.std(FZ)), "kurtosis": float(sst.kurtosis(FZ)),
                           "beyond_1.96": float(np.mean(np.abs(FZ) > 1.959963984540054))},
                "iid_halves": ({"ratio_linearised": float(iid[0] / iid[1]), "ratio_jackknife": float(iid[0] / iid[2]),
                                "draws_per_fold": IID_DRAWS} if iid[1] > 0 else None)})
    return out


def _with_related(rel: list[tuple[float, ...]], folds_of: dict[int, tuple[float, float]]) -> dict:
    """On the data sets whose study unit has the related piece: the new-text part and the folds' covariance beyond
    prediction when textbcv's posterior counts related clusters (columns of ``rel``: error, new-text error, var_test
    and var_model with related clusters, the held-out text's noise, the truth's noise, the posterior's mean covariance
    of a split's two folds and of folds of two splits, r; ``folds_of``: r → the folds' observed mean products), and
    the study's two criteria at m = 3."""
    x = np.array(rel, dtype=float)
    e, et, vt, vm, rv, noise, c_same, c_cross, r = x.T
    same = np.array([folds_of[int(k)][0] for k in r]) - c_same - rv
    cross = np.array([folds_of[int(k)][1] for k in r]) - c_cross - rv
    net = float(np.mean(e ** 2) - np.mean(noise))
    k = int(np.sum(np.abs(e) <= 1.959963984540054 * np.sqrt(vt + vm + noise)))
    return {"R": len(x), "new_text": float(np.mean(et ** 2) / np.mean(vt + rv)),
            "new_text_ci": _ratio_ci(et ** 2, vt + rv),
            "same_split_excess": 1e4 * float(same.mean()), "same_split_excess_ci": _mean_ci(1e4 * same),
            "cross_split_excess": 1e4 * float(cross.mean()), "cross_split_excess_ci": _mean_ci(1e4 * cross),
            "sd_over_rmse_net": float(np.median(np.sqrt(vt + vm)) / np.sqrt(net)) if net > 0 else None,
            "coverage_196": summ._binom(k, len(x))}


def _pooled_jackknife(x: np.ndarray) -> dict:
    """On the data sets that stored it: the pooled estimate's leave-one-cluster-out jackknife variance in place of
    ``var_test`` (columns: error, new-text error, jackknife, var_test, the held-out text's noise, ``var_model``, the
    truth's noise, the model noise from the split means alone), and the calibration of the posterior with it, and
    with it and the split means' model noise (all that one run shows of the two excesses): the study's criteria at
    m = 3, median scale over the RMSE net of the truth's noise and d̂ ± 1.96·√(scale² + noise) holding the truth."""
    e, et, jk, vt, rv, vm, noise, vm_split = x.T
    other = vm + noise
    net = float(np.mean(e ** 2) - np.mean(noise))

    def calibration(var: np.ndarray) -> dict:
        k = int(np.sum(np.abs(e) <= 1.959963984540054 * np.sqrt(var + noise)))
        return {"sd_over_rmse_net": float(np.median(np.sqrt(var)) / np.sqrt(net)) if net > 0 else None,
                "coverage_196": summ._binom(k, len(e))}

    return {"calibration_linearised": calibration(vt + vm), "calibration_jackknife": calibration(jk + vm),
            "calibration_jackknife_split_means": calibration(jk + vm_split),
            "R": len(x), "jackknife_over_linearised": float(jk.mean() / vt.mean()),
            "jackknife_over_linearised_ci": _ratio_ci(jk, vt),
            "new_text_linearised": float(np.mean(et ** 2) / np.mean(vt + rv)),
            "new_text_jackknife": float(np.mean(et ** 2) / np.mean(jk + rv)),
            "new_text_jackknife_ci": _ratio_ci(et ** 2, jk + rv),
            "total_linearised": float(np.mean(e ** 2) / np.mean(vt + other)),
            "total_jackknife": float(np.mean(e ** 2) / np.mean(jk + other))}


def render(result: dict) -> str:
    L = ["## Where the ΔF1 error comes from (pairs, decomposed)", "",
         "Written by `scripts/pairs_decomposition.py --summarize-only`: for data sets of the study of differences "
         "with a truth, the pair's m = 3 fold models trained again (their fold counts checked against the study's) "
         "and tested on the truth's held-out text too, so that the estimate's error against the truth splits into a "
         "new-text part (the same models on the data set's test halves against on held-out text) and the models' "
         "part (the folds' models against the truth's on the same text). Mean squares in points², each against what "
         "the paired posterior without related clusters (model `paired/2`) predicts for it (new text: `var_test` "
         "plus the held-out text's own noise; the "
         "models: `var_model` plus the truth's halving noise), with the ratio's bootstrap 95% interval over data "
         "sets. Per fold: one fold's new-text error against its linearised cluster variance and against a "
         "leave-one-cluster-out jackknife.",
         "",
         "| pool | pair | R | error: observed / predicted | new text | the models | one fold, linearised | "
         "one fold, jackknife | corr(error, SD) |",
         "|---|---|---|---|---|---|---|---|---|"]

    def f(x: dict) -> str:
        lo, hi = x["ratio_ci"]
        return f"{x['mse']:.2f} / {x['predicted']:.2f} = {x['ratio']:.2f} [{lo:.2f}, {hi:.2f}]"

    for r in result["rows"]:
        fo = r["fold_new_text"]
        c = r["corr_error_sd"]
        L.append(f"| {r['pool']} | {r['pair']} | {r['R']} | {f(r['total'])} | {f(r['new_text'])} | {f(r['models'])} | "
                 f"{fo['ratio_linearised']:.2f} | {fo['ratio_jackknife']:.2f} | "
                 f"{'' if c is None else f'{c:+.2f}'} |")
    rows = [r for r in result["rows"] if r.get("pooled_jackknife") and r.get("iid_halves")]
    if rows:
        L += ["", "### What the new-text part's excess is", "",
              "*Held-out text cut at random*: the same fold models on the held-out text only, cut at random into a "
              "pseudo test half of as many documents as the fold's and the rest "
              f"({rows[0]['iid_halves']['draws_per_fold']} cuts per fold), where documents are independent draws by "
              "construction: the mean squared difference over the mean linearised variance, and over a "
              "leave-one-document-out jackknife. *One fold, given its models*: a fold's new-text error over its "
              "linearised and its jackknife variance (plus the held-out text's), with a bootstrap 95% interval over "
              "data sets; its standardised error's SD and kurtosis (1 and 0 when calibrated and normal). *Pooled "
              "jackknife*: the pooled estimate's own jackknife (a document removed from every fold that tests it) over "
              "`var_test`, and the new-text part against it. *Fold errors' correlation*: the mean product of two "
              "folds' new-text errors over their mean square, for the two folds of one split (disjoint test halves, "
              "each trained on the other's: only the shared held-out text, its share given, makes them covary "
              "through test sampling) and for folds of different splits (which share half their test documents); and "
              "their mean product beyond what the posterior's cluster covariance and the shared held-out text "
              "(the pooled held-out variance) predict, in points². A part common to every fold shows as the same "
              "excess in both columns: it moves all the folds' scores alike, so their spread cannot show it. Last: "
              "the study's two criteria at m = 3 on these data sets, with that posterior as it is, with the "
              "pooled jackknife in place of `var_test`, and with the model noise also taken from the split means "
              "alone (which keeps the covariance of a split's two folds): all that one run shows of the two excesses.",
              "",
              "| pool | pair | R | random cuts: linearised, jackknife | one fold: linearised | one fold: jackknife | "
              "z SD, kurtosis | pooled jackknife / linearised | new text, jackknife | fold errors' correlation: "
              "same split (held-out share) | different splits | covariance beyond prediction (points²): same split | "
              "different splits | m = 3 scale / RMSE net, ±1.96 coverage: as is → jackknife → and split means |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]

        def cal(c: dict) -> str:
            x = c["sd_over_rmse_net"]
            return f"{'–' if x is None else f'{x:.2f}'}, {100 * c['coverage_196']['rate']:.1f}%"

        def ci(x: float, c: list[float], fmt: str = ".2f") -> str:
            return f"{x:{fmt}} [{c[0]:{fmt}}, {c[1]:{fmt}}]"

        for r in rows:
            j, z, h, fo, fc = (r["pooled_jackknife"], r["fold_z"], r["iid_halves"], r["fold_new_text"],
                               r["fold_covariance"])
            L.append(f"| {r['pool']} | {r['pair']} | {j['R']} | {h['ratio_linearised']:.2f}, "
                     f"{h['ratio_jackknife']:.2f} | {ci(fo['ratio_linearised'], fo['ratio_linearised_ci'])} | "
                     f"{ci(fo['ratio_jackknife'], fo['ratio_jackknife_ci'])} | {z['sd']:.2f}, {z['kurtosis']:+.2f} | "
                     f"{ci(j['jackknife_over_linearised'], j['jackknife_over_linearised_ci'], '.3f')} | "
                     f"{ci(j['new_text_jackknife'], j['new_text_jackknife_ci'])} | "
                     f"{ci(fc['same_split_corr'], fc['same_split_ci'])} ({fc['held_out_share']:.2f}) | "
                     f"{ci(fc['cross_split_corr'], fc['cross_split_ci'])} | "
                     f"{ci(fc['same_split_excess'], fc['same_split_excess_ci'])} | "
                     f"{ci(fc['cross_split_excess'], fc['cross_split_excess_ci'])} | "
                     f"{cal(j['calibration_linearised'])} → "
                     f"{cal(j['calibration_jackknife'])} → {cal(j['calibration_jackknife_split_means'])} |")
    rel = [r for r in result["rows"] if r.get("related")]
    if rel:
        L += ["", "### With related clusters", "",
              "On the data sets whose study unit has its `related` piece: the same parts when the posterior "
              "counts the covariance of related clusters (documents that share a rare name, "
              "`textbcv.corpus.related`) in `var_test` and in the folds' covariance: the new-text part against it, "
              "the folds' covariance beyond what it predicts (points²), and the study's two criteria at m = 3.", "",
              "| pool | pair | R | new text: observed / predicted | covariance beyond prediction: same split | "
              "different splits | m = 3 scale / RMSE net | ±1.96 coverage |", "|---|---|---|---|---|---|---|---|"]
        for r in rel:
            x = r["related"]
            sc = x["sd_over_rmse_net"]
            L.append(f"| {r['pool']} | {r['pair']} | {x['R']} | {x['new_text']:.2f} [{x['new_text_ci'][0]:.2f}, "
                     f"{x['new_text_ci'][1]:.2f}] | {x['same_split_excess']:.2f} [{x['same_split_excess_ci'][0]:.2f}, "
                     f"{x['same_split_excess_ci'][1]:.2f}] | {x['cross_split_excess']:.2f} "
                     f"[{x['cross_split_excess_ci'][0]:.2f}, {x['cross_split_excess_ci'][1]:.2f}] | "
                     f"{'–' if sc is None else f'{sc:.2f}'} | {100 * x['coverage_196']['rate']:.1f}% |")
    return "\n".join(L)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pools", default="conll")
    ap.add_argument("--pair", default="default")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--reps", type=int, default=100, help="data sets r < REPS with a committed truth (default 100)")
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder of the pairs study's real_text_study/")
    ap.add_argument("--results", default=None, help="RESULTS.md to update (default OUT/RESULTS.md)")
    ap.add_argument("--until", type=float, default=None, help="stop starting new data sets after this many seconds")
    ap.add_argument("--summarize-only", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="on a pairs study's --smoke output (--out)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    units_dir = out / "real_text_study"
    settings_path = units_dir / "pairs-settings.json"
    if not settings_path.exists():
        ap.error(f"{settings_path} not found: run scripts/real_text_pairs.py{' --smoke' if args.smoke else ''} "
                 f"--out {out} first")
    settings = json.loads(settings_path.read_text(encoding="utf-8"))
    if bool(settings["smoke"]) != args.smoke:
        ap.error(f"{settings_path} is {'a' if settings['smoke'] else 'not a'} --smoke study; "
                 f"{'drop' if not settings['smoke'] else 'add'} --smoke")
    pools = [p for p in args.pools.split(",") if p]
    if not pools or any(p not in rts.POOLS for p in pools):
        ap.error(f"--pools: choose from {', '.join(rts.POOLS)}")
    if any(args.pair not in rp.PAIRS[rts.POOLS[p]["task"]] or args.pair == "null" for p in pools):
        ap.error("--pair: a pair with a truth (scheme, feature or default)")
    pairs_rows = {p: rts.merge_lines(rts.load_lines(units_dir / f"pairs-{p}.jsonl")) for p in pools}
    t_start = time.time()

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    if not args.summarize_only:
        for p in pools:
            path = units_dir / f"decomposition-{p}.jsonl"
            have = {(u["pair"], u["r"]) for u in _units(path) if "v_jk_pooled" in u and "iid" in u["folds"][0]}
            todo = [r for r in range(args.start, args.reps) if (args.pair, r) not in have and r in pairs_rows[p]
                    and "truth" in pairs_rows[p][r]["pieces"]
                    and args.pair in pairs_rows[p][r]["pieces"]["folds"]["xprod"]]
            if not todo:
                continue
            limit = rp.SMOKE_LIMIT[p] if args.smoke else None
            t0 = time.time()
            rp._PP = pool = rp.PairPool(p, limit, settings["max_iterations"])
            log(f"decomposition {p}: pool loaded in {time.time() - t0:.0f} s; {len(todo)} data sets to run")
            for i, r in enumerate(todo):
                if args.until is not None and time.time() - t_start > args.until:
                    log(f"--until reached: stopping before {p} r={r}")
                    break
                u = run_unit(pool, r, settings["n"][p], args.pair, pairs_rows[p][r])
                append_line(path, json.dumps(u, sort_keys=True, separators=(",", ":")))
                log(f"decomposition {p} {args.pair} r={r}: {fmt_seconds(u['seconds'])} ({i + 1}/{len(todo)})")
            rp._PP = None
    # the summary covers every pool with a decomposition file, whichever pools this run trained
    summed = [p for p in rts.POOLS if (units_dir / f"decomposition-{p}.jsonl").exists()]
    pairs_rows.update({p: rts.merge_lines(rts.load_lines(units_dir / f"pairs-{p}.jsonl"))
                       for p in summed if p not in pairs_rows})
    units = {p: [u for u in _units(units_dir / f"decomposition-{p}.jsonl") if u["r"] in pairs_rows[p]] for p in summed}
    units = {p: v for p, v in units.items() if v}
    if not units:
        log("decomposition: no finished data sets to summarize")
        return 0
    result = summarize(units, pairs_rows)
    write_json(out / "pairs_decomposition.json", result)
    update_section(Path(args.results) if args.results else out / "RESULTS.md", "pairs-decomposition", render(result))
    log(f"summary written: {out / 'pairs_decomposition.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
