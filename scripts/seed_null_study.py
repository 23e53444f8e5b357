#!/usr/bin/env python3
"""Seed null pairs: false calls of the several-seed paired posterior on real text.

One configuration against itself with disjoint training seeds: an averaged-perceptron CRF (the pairs
study's base template; IOB2 on CoNLL-2003 by document, BMES on SIGHAN 2005 MSR by sentence) trained with
seeds {1, …, K} as system A and {K+1, …, 2K} as system B on every fold of m×2 BCV (m = 3). Neither is
better, so every call at P ≥ 0.95 is a false one. Per data set the unit keeps, for the posterior with
the seeds as a part of their own (``seeds``: test sample, training half, seed) and for the same counts
without it (``summed``: the seeds' counts summed, model noise from the folds' spread), the estimate,
the posterior SD, the degrees of freedom, the parts and P(B better); beside them the one-seed one-split
paired bootstrap (A's first seed against B's first seed on fold 0) and the SD of the per-fold ΔF1 (a
pair that never differs tests nothing), and what the posteriors are made from (``raw``: cluster
cross-products, fold totals, the seeds' moments), so that the summary makes them again with textbcv's
present posterior model; units written before 2026-11-26 have no ``raw`` and are run again.

Units (one JSON line per finished data set) go to ``docs/seed_null/units-POOL.jsonl``; a killed run
resumes at the next data set. ``--summarize-only`` writes ``docs/seed_null.json`` and the RESULTS.md
section "Seed null pairs". ``--smoke`` runs two tiny data sets per pool (tested in CI).

Usage::

    scripts/seed_null_study.py --pools msr --until 3600      # one process per pool
    scripts/seed_null_study.py --summarize-only
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_text_pairs as rtp  # noqa: E402
import real_text_pairs_summary as summ  # noqa: E402
import real_text_study as rts  # noqa: E402
from scipy import stats as sst  # noqa: E402

from textbcv.calibration.moments import full_matrix, upper_triangle  # noqa: E402
from textbcv.corpus.related import RELATED_MOST, related_clusters  # noqa: E402
from textbcv.defaults import PAIRED_POSTERIOR  # noqa: E402
from textbcv.schemes import decode  # noqa: E402
from textbcv.scoring import sentence_counts  # noqa: E402
from textbcv.split import make_splits  # noqa: E402
from textbcv.stats.onesplit import one_split_tests  # noqa: E402
from textbcv.stats.paired import (  # noqa: E402
    SeedMoments,
    cluster_cross_products,
    paired_difference_from_moments,
    related_cross_products,
    seed_moments,
)
from textbcv.tagging.crf import CRFTagger  # noqa: E402

from _results import (  # noqa: E402
    ROOT,
    append_line,
    claim_settings,
    fmt_seconds,
    update_evidence,
    update_section,
    write_json,
)

M = 3
THRESHOLD = 0.95
POOL_TEXT = {"conll": "CoNLL-2003 (by document)", "msr": "SIGHAN 2005 MSR (by sentence)"}


def seeds_of(k: int) -> tuple[list[int], list[int]]:
    """System A's and B's training seeds: disjoint sets of k each."""
    return list(range(1, k + 1)), list(range(k + 1, 2 * k + 1))


def train_test(pool: rtp.PairPool, seed: int, train: np.ndarray, test: np.ndarray) -> np.ndarray:
    """Per-sentence (TP, FP, FN) of the base configuration trained on ``train`` with ``seed``, on ``test``."""
    scheme, tpl, _ = rtp.SYSTEMS[pool.task]["base"]
    feats, tags = pool.feats[tpl.name], pool.tags_by[scheme]
    crf = CRFTagger(tpl, "ap", pool.params, seed=seed)
    crf.fit_features([feats[i] for i in train], [tags[i] for i in train])
    pred = crf.predict_features([feats[i] for i in test])
    return sentence_counts([pool.gold[i] for i in test], [decode(p, scheme) for p in pred])


def _f1(c: np.ndarray) -> float:
    tp, fp, fn = (float(x) for x in c)
    return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn > 0 else 0.0


def _posterior(p) -> dict:
    return {"estimate": p.estimate, "sd": p.sd, "df": None if not np.isfinite(p.df) else p.df,
            "var_test": p.var_test, "var_model": p.var_model,
            "var_seed": p.var_seed, "p_b_better": p.prob_better()["p_b_better"]}


def run_dataset(pool: rtp.PairPool, r: int, n: int, k: int) -> dict:
    """One data set's unit: both posteriors at m = 3, the one-split bootstrap, the folds' ΔF1 spread."""
    D = pool.draw(r, n)
    unit = pool.spec["units"][0]
    sub = pool.corpus.subset(D.tolist())
    splits = make_splits(sub, m=M, method="bcv", balance=(), group_by=unit, seed=r, **rts.SPLIT_KW)
    folds = [(D[np.asarray(tr)], D[np.asarray(te)]) for _j, _k, tr, te in splits.folds()]
    sa, sb = seeds_of(k)
    per = {name: [np.stack([train_test(pool, s, tr, te) for s in seeds]) for tr, te in folds]
           for name, seeds in (("A", sa), ("B", sb))}
    clusters = [pool.cluster[te] for _tr, te in folds]
    summed = {name: [x.sum(axis=0) for x in v] for name, v in per.items()}
    raw = raw_moments(summed, per, clusters, related_clusters(sub, pool.cluster[D]))
    fold_delta = [_f1(b.sum(axis=0)) - _f1(a.sum(axis=0)) for a, b in zip(summed["A"], summed["B"])]
    t = one_split_tests(per["A"][0][0], per["B"][0][0], seed=r)
    return with_posteriors({"pool": pool.name, "r": r, "n_sentences": int(len(D)), "digest": rts.digest(D), "k": k,
                            "raw": raw, "fold_delta_sd": float(np.std(fold_delta, ddof=1)),
                            "onesplit": {"delta": t.delta, "p_bootstrap": t.bootstrap.p_value}})


def raw_moments(summed: dict, per: dict, clusters: list, related: np.ndarray | None = None) -> dict:
    """What the pair's posteriors are made from, small enough for a unit line: the cluster cross-products of both
    systems' (TP, FP + FN) summed over seeds, those of related clusters (``related``: pairs of cluster ids,
    :func:`textbcv.corpus.related.related_clusters`, and the rule's bound), the fold totals, the clusters, and the
    seeds' moments (F1). A unit that keeps them is summarised under any later posterior model without training
    again (one with another rule of related clusters excepted)."""
    vectors = [np.hstack([rtp._f1_vec(a), rtp._f1_vec(b)]) for a, b in zip(summed["A"], summed["B"])]
    S, k = cluster_cross_products(vectors, clusters)
    sm = seed_moments(per["A"], per["B"], clusters, "f1")
    rel = {} if related is None else {"related": {
        "most": RELATED_MOST, "pairs": int(len(related)),
        "xprod": upper_triangle(related_cross_products(vectors, clusters, related))}}
    return {"xprod": upper_triangle(S), **rel, "clusters": int(k),
            "fold_clusters": [int(len(np.unique(c))) for c in clusters],
            "counts_a": [[int(x) for x in c.sum(axis=0)] for c in summed["A"]],
            "counts_b": [[int(x) for x in c.sum(axis=0)] for c in summed["B"]],
            "seed_moments": None if sm is None else {
                "seeds": list(sm.seeds), "pooled": sm.pooled, "share_a": sm.share_a, "interaction": sm.interaction,
                "fold": [float(x) for x in sm.fold], "fold_interaction": [float(x) for x in sm.fold_interaction]}}


def with_posteriors(unit: dict) -> dict:
    """``unit`` with both posteriors (``with_seeds``, ``summed``) made from its ``raw`` moments by textbcv's present
    posterior model, which ``posterior`` names."""
    raw = unit["raw"]
    S = full_matrix(raw["xprod"])
    ca, cb = np.array(raw["counts_a"], dtype=float), np.array(raw["counts_b"], dtype=float)
    kw = {"layout": "tp,fp+fn", "fold_clusters": raw["fold_clusters"]}
    sm = raw["seed_moments"]
    seeds = None if sm is None else SeedMoments(
        (int(sm["seeds"][0]), int(sm["seeds"][1])), float(sm["pooled"]), float(sm["share_a"]),
        float(sm["interaction"]), np.array(sm["fold"]), np.array(sm["fold_interaction"]))
    if summ.PRESENT_RELATED:  # the related clusters' cross products join
        kw["related"] = full_matrix(raw["related"]["xprod"])
    with_seeds = paired_difference_from_moments(S, raw["clusters"], ca, cb, M, seeds=seeds, **kw)
    without = paired_difference_from_moments(S, raw["clusters"], ca, cb, M, **kw)
    return {**unit, "posterior": PAIRED_POSTERIOR, "seeds": with_seeds.seeds is not None,
            "with_seeds": _posterior(with_seeds), "summed": _posterior(without)}


def _has_raw(unit: dict) -> bool:
    """Whether ``unit`` keeps what textbcv's present posterior model is made from: its ``raw`` moments, with the
    related clusters' cross products under the present rule when the model counts them."""
    raw = unit.get("raw")
    if raw is None:
        return False
    return not summ.PRESENT_RELATED or raw.get("related", {}).get("most") == RELATED_MOST


def current(units) -> list[dict]:
    """The units under textbcv's present posterior model (:data:`textbcv.defaults.PAIRED_POSTERIOR`): those that keep
    what it is made from (:func:`_has_raw`), their posteriors made again by it; a unit of another model without them
    (written before 2026-11-26, or without the related clusters the model counts) keeps its posteriors only, and is
    run again."""
    return [with_posteriors(x) if _has_raw(x) else x for x in units
            if _has_raw(x) or x.get("posterior") == PAIRED_POSTERIOR]


def _binom(k: int, n: int) -> dict:
    if n == 0:
        return {"k": 0, "n": 0, "rate": None, "lo": None, "hi": None}
    ci = sst.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return {"k": k, "n": n, "rate": k / n, "lo": float(ci.low), "hi": float(ci.high)}


#: each pool's corpus and the unit its data sets keep whole, as the report's decision rule names them
POOL_CORPUS = {"conll": ("CoNLL-2003", "document"), "msr": ("SIGHAN 2005 MSR", "sentence")}

NULL_ABOUT = ("Generated by scripts/seed_null_study.py with its summary docs/seed_null.json; do not edit. Seed null "
              "pairs (an averaged-perceptron CRF with K training seeds per fold against itself with K other seeds, "
              "m = 3): share of data sets in which textbcv's paired posterior with the seeds as a part of their own "
              "called B (calls_b) or A (calls_a) better at P ≥ 0.95, with Wilson 95% intervals, and the one-seed "
              "one-split paired bootstrap's share on the same data sets.")


def null_evidence(result: dict) -> dict:
    """What ``textbcv/data/evidence.json`` holds under ``seed_null`` (the report's decision rule quotes it for a
    comparison whose systems both have several seeds): per pool the calls of the posterior with seeds at m = 3, in
    the shape of ``real_text_pairs_null``."""
    def rate(x: dict) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in x.items()}

    out: dict = {}
    for pool, row in result["pools"].items():
        name, unit = POOL_CORPUS.get(pool, (pool, "sentence"))
        out[pool] = {"corpus": name, "unit": unit, "threshold": result["threshold"], "seeds": row["k"],
                     **({"posterior": result["posterior"]} if result.get("posterior") else {}),
                     f"m{result['m']}": {"R": row["R"], "calls_b": rate(row["with_seeds"]["calls_b"]),
                                         "calls_a": rate(row["with_seeds"]["calls_a"])},
                     "onesplit_bootstrap": {k: rate(v) for k, v in row["onesplit_bootstrap"].items()}}
    return dict(sorted(out.items()))


def summarize(rows: dict[str, list[dict]]) -> dict:
    """Calls at P ≥ 0.95 per pool and posterior, with Wilson intervals; the one-split bootstrap beside them."""
    out: dict = {"threshold": THRESHOLD, "m": M, "posterior": PAIRED_POSTERIOR, "pools": {}}
    for pool, xs in rows.items():
        if not xs:
            continue
        row: dict = {"R": len(xs), "k": xs[0]["k"], "text": POOL_TEXT.get(pool, pool),
                     "fold_delta_sd_median": 100 * float(np.median([x["fold_delta_sd"] for x in xs]))}
        for variant in ("with_seeds", "summed"):
            pb = np.array([x[variant]["p_b_better"] for x in xs])
            sd = np.array([x[variant]["sd"] for x in xs])
            est = np.array([x[variant]["estimate"] for x in xs])
            row[variant] = {"calls_b": _binom(int(np.sum(pb >= THRESHOLD)), len(xs)),
                            "calls_a": _binom(int(np.sum(1 - pb >= THRESHOLD)), len(xs)),
                            "sd_median": 100 * float(np.median(sd)),
                            # the truth is 0: the estimate's RMSE over data sets against the posterior SD
                            "rmse": 100 * float(np.sqrt(np.mean(est ** 2))),
                            "z_sd": float(np.std(est / np.where(sd > 0, sd, np.nan), ddof=1)) if len(xs) > 1 else None}
        if all("var_seed" in x["with_seeds"] and x["with_seeds"]["var_seed"] is not None for x in xs):
            parts = {p: 100 * float(np.sqrt(np.median([x["with_seeds"][p] for x in xs])))
                     for p in ("var_test", "var_model", "var_seed")}
            row["parts_sd_median"] = parts
        pv = np.array([x["onesplit"]["p_bootstrap"] for x in xs])
        dl = np.array([x["onesplit"]["delta"] for x in xs])
        row["onesplit_bootstrap"] = {"b_better": _binom(int(np.sum((pv < 0.05) & (dl > 0))), len(xs)),
                                     "a_better": _binom(int(np.sum((pv < 0.05) & (dl < 0))), len(xs))}
        out["pools"][pool] = row
    return out


def _pct(x: dict) -> str:
    return "–" if x["rate"] is None else f"{100 * x['rate']:.1f}% [{100 * x['lo']:.1f}, {100 * x['hi']:.1f}]"


def render(result: dict, command: str) -> str:
    L = ["## Seed null pairs: false calls with several training seeds", "",
         f"Written by `{command}` (resumable; units in docs/seed_null/). One averaged-perceptron CRF against itself "
         "with disjoint training seeds (A: seeds 1…K, B: K+1…2K) on every fold of 3×2 BCV: neither is better, so "
         "every call at P ≥ 0.95 is false. `with seeds` is the paired posterior (model "
         f"`{result.get('posterior') or 'paired/1'}`) when both systems have several seeds (test sample, "
         "training and seed, each measured on its own); `summed` the same counts without the seeds' part (model "
         "noise from the folds' spread); beside them the one-seed one-split paired bootstrap (p < 0.05) on the "
         "same data sets. Rates with Wilson 95% intervals; the target is at most 5% in each "
         "direction at R ≥ 450 per pool.", "",
         "| pool | R | K | per-fold ΔF1 SD | posterior | calls B | calls A | median SD | RMSE | SD of z |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    for pool, row in result["pools"].items():
        for variant in ("with_seeds", "summed"):
            v = row[variant]
            L.append(f"| {row['text']} | {row['R']} | {row['k']} | {row['fold_delta_sd_median']:.2f} | "
                     f"{variant.replace('_', ' ')} | {_pct(v['calls_b'])} | {_pct(v['calls_a'])} | "
                     f"{v['sd_median']:.2f} | {v['rmse']:.2f} | "
                     f"{'–' if v['z_sd'] is None else format(v['z_sd'], '.2f')} |")
        b = row["onesplit_bootstrap"]
        L.append(f"| {row['text']} | {row['R']} | 1 | | one-split bootstrap | {_pct(b['b_better'])} | "
                 f"{_pct(b['a_better'])} | | | |")
    model = result.get("posterior") or "paired/1"
    if model != PAIRED_POSTERIOR:
        L += ["", f"These figures measured the posterior model `{model}`; textbcv's present model, "
              f"`{PAIRED_POSTERIOR}`, is not yet measured with several seeds, and the report's decision rule does "
              "not quote these figures. A run of this script measures it (units of another model are run again)."]
    parts = [f"{r['text']}: new text {r['parts_sd_median']['var_test']:.2f}, "
             f"{'training sets' if 'var_train' in r['parts_sd_median'] else 'training halves'} "
             f"{r['parts_sd_median'].get('var_train', r['parts_sd_median'].get('var_model', 0.0)):.2f}, "
             f"seeds {r['parts_sd_median']['var_seed']:.2f}"
             for r in result["pools"].values() if "parts_sd_median" in r]
    if parts:
        L += ["", "Median parts of the with-seeds posterior (SD in F1 points): " + "; ".join(parts) + "."]
    return "\n".join(L) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pools", default="conll,msr")
    ap.add_argument("--reps", type=int, default=450, help="data sets per pool (default 450)")
    ap.add_argument("--seeds", type=int, default=2, help="training seeds per system and fold (default 2)")
    ap.add_argument("--max-iterations", type=int, default=10)
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder of seed_null.json and seed_null/")
    ap.add_argument("--results", default=None, help="RESULTS.md to update (default OUT/RESULTS.md)")
    ap.add_argument("--until", type=float, default=None, help="stop starting new data sets after this many seconds")
    ap.add_argument("--summarize-only", action="store_true")
    ap.add_argument("--render-only", action="store_true",
                    help="write the RESULTS.md section again from the committed summary (no units read)")
    ap.add_argument("--smoke", action="store_true", help="tiny pools, two data sets each (under a minute)")
    args = ap.parse_args(argv)
    pools = [p for p in args.pools.split(",") if p]
    if not pools or any(p not in rts.POOLS for p in pools):
        ap.error(f"--pools: choose from {', '.join(rts.POOLS)}")
    if args.render_only:  # e.g. after textbcv's posterior model changed and before the units are run again
        result = json.loads((Path(args.out) / "seed_null.json").read_text(encoding="utf-8"))
        update_section(Path(args.results) if args.results else Path(args.out) / "RESULTS.md", "seed-null",
                       render(result, result["meta"]["command"]))
        return 0
    if args.seeds < 2:
        ap.error("--seeds: at least 2 (the seeds' spread is measured within each fold)")
    limit, n = None, {p: rts.POOLS[p]["n"] for p in rts.POOLS}
    if args.smoke:
        args.reps, args.max_iterations = 2, 2
        limit, n = {"conll": 1200, "msr": 300}, {"conll": 400, "msr": 80}
    out = Path(args.out)
    units_dir = out / "seed_null"
    units_dir.mkdir(parents=True, exist_ok=True)
    settings = {"m": M, "seeds": args.seeds, "max_iterations": args.max_iterations, "n": n, "smoke": args.smoke,
                "system": {t: [v["base"][0], v["base"][1].to_dict()] for t, v in rtp.SYSTEMS.items()}}
    settings_path = units_dir / "settings.json"
    if not claim_settings(settings_path, settings):
        ap.error(f"{settings_path} holds a study with other settings; choose another --out")

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    t_start = time.time()
    if not args.summarize_only:
        for p in pools:
            path = units_dir / f"units-{p}.jsonl"
            # a unit of another posterior model is not done: its posteriors cannot be re-derived from it
            have = {x["r"]: x for x in current(rts.load_lines(path))} if path.exists() else {}
            todo = [r for r in range(args.reps) if r not in have]
            if not todo:
                continue
            t0 = time.time()
            pool = rtp.PairPool(p, limit and limit[p], args.max_iterations)
            log(f"seed null {p}: pool of {len(pool.sents):,} sentences loaded in {time.time() - t0:.0f} s; "
                f"{len(have)} data sets committed")
            for i, r in enumerate(todo):
                if args.until is not None and time.time() - t_start > args.until:
                    log(f"--until reached: stopping before seed null {p} r={r}")
                    break
                t1 = time.time()
                unit = run_dataset(pool, r, n[p], args.seeds)
                append_line(path, json.dumps(unit, sort_keys=True, separators=(",", ":")))
                log(f"seed null {p}: data set r={r} finished in {fmt_seconds(time.time() - t1)} "
                    f"({i + 1}/{len(todo)} of this run)")
    rows = {p: sorted((x for x in current(rts.load_lines(units_dir / f"units-{p}.jsonl")) if x["r"] < args.reps),
                      key=lambda x: x["r"])
            for p in rts.POOLS if (units_dir / f"units-{p}.jsonl").exists()}
    result = summarize(rows)
    command = "scripts/seed_null_study.py" + (" --smoke" if args.smoke else "")
    result["meta"] = {"command": command, "settings": settings}
    write_json(out / "seed_null.json", result)
    update_section(Path(args.results) if args.results else out / "RESULTS.md", "seed-null", render(result, command))
    if not args.smoke and set(result["pools"]) == set(rts.POOLS) and out.resolve() == (ROOT / "docs").resolve():
        # only a summary of every pool speaks for them in the package's evidence
        update_evidence("seed_null", null_evidence(result), NULL_ABOUT)
    log(f"summary written: {out / 'seed_null.json'} "
        f"({', '.join(f'{p}: {r}' for p, r in ((q, x['R']) for q, x in result['pools'].items()))} data sets)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
