#!/usr/bin/env python3
"""Null pairs across three NER corpora: false calls and P(equivalent) of ``textbcv test RUN1 RUN2 RUN3``.

One configuration against itself: an averaged-perceptron CRF (IOB2, the words-only default template) trained with
training seed 1 as system A and seed 2 as system B, compared with ``textbcv.compare`` (m = 3, documents kept
whole) on a data set of each of three NER corpora — the bundled English corpus, CoNLL-2003 English (eng.train)
and CoNLL-2002 Spanish (esp.train, Latin-1) — drawn anew for every repetition r (whole documents up to ``n``
sentences). Neither system is better, so every call of the answer across the three corpora (rope 0.5 points,
P ≥ 0.95) is false; the target is at most 5% each way, and P(equivalent) ≥ 0.9. Each finished repetition is a
unit (one JSON line: each corpus's paired posterior of ΔF1) in ``docs/corpora_null/units.jsonl``; a killed run
resumes at the next repetition. A unit names the posterior model that made it
(:data:`textbcv.defaults.PAIRED_POSTERIOR`; units without the name are ``paired/1``, textbcv's until
2026-11-26): a run measures the present model, running again the repetitions that only another model has;
the summary is of the model with the most repetitions (the present one once it has as many as the older),
and says which. ``--summarize-only`` writes ``docs/corpora_null_study.json`` and the RESULTS.md section
"Null pairs across three NER corpora"; ``--smoke`` runs two tiny repetitions (tested in CI).

Usage::

    scripts/corpora_null_study.py --until 3600
    scripts/corpora_null_study.py --summarize-only
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy import optimize
from scipy import stats as sst

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_text_study as rts  # noqa: E402

import textbcv  # noqa: E402
from textbcv.corpus import read_corpus  # noqa: E402
from textbcv.defaults import PAIRED_POSTERIOR  # noqa: E402
from textbcv.stats.hierarchical import hierarchical  # noqa: E402

from _results import ROOT, append_line, claim_settings, fmt_seconds, update_section, write_json  # noqa: E402

M = 3
ROPE = 0.005
THRESHOLD = 0.95
#: name -> (files under ../shared/corpora or "bundled", encoding, columns, sentences per data set)
CORPORA = {
    "bundled": ("bundled", "utf-8", None, 1500),
    "conll2003": ("conll2003_en/eng.train", "utf-8", None, 2000),
    "conll2002": ("conll2002_es/esp.train", "latin-1", "token,pos,ner", 2000),
}


def load(name: str, limit: int | None = None):
    """The corpus ``name`` of :data:`CORPORA` (its first ``limit`` sentences with ``--smoke``)."""
    where, encoding, columns, _ = CORPORA[name]
    path = textbcv.bundled_corpora()["ner"] if where == "bundled" else rts.SHARED / where
    corpus = read_corpus(str(path), encoding=encoding, columns=columns)
    if limit is not None:
        corpus = corpus.subset(list(range(min(limit, len(corpus)))))
    return corpus


def posterior_of(corpus, r: int, n: int, max_iterations: int) -> dict:
    """ΔF1 (seed 2 − seed 1) of one data set of ``corpus``: its paired posterior's estimate, SD, df and P."""
    D = rts.draw_data_set(r, n, corpus.documents if corpus.n_documents > 1 else None, len(corpus))
    sub = corpus.subset(D.tolist())
    res = textbcv.compare(sub, ["iob2@1", "iob2@2"], m=M, seed=r, task="ner", algorithm="ap",
                          max_iterations=max_iterations, progress=False)
    c = next(x for x in res.to_dict()["comparisons"] if x["metric"] == "f1")
    d = c["difference"]
    return {"sentences": int(len(D)), "estimate": d["estimate"], "sd": d["sd"], "df": d.get("df"),
            "p_b_better": c["p_b_better"], "basis": d.get("basis")}


def units_by_model(path: Path) -> dict[str, dict[int, dict]]:
    """The units of ``path`` per posterior model (``paired/1`` when a unit does not name one), per repetition."""
    out: dict[str, dict[int, dict]] = {}
    for x in rts.load_lines(path) if path.exists() else []:
        out.setdefault(x.get("posterior", "paired/1"), {})[x["r"]] = x
    return out


def summarized_model(by_model: dict[str, dict[int, dict]]) -> str | None:
    """The model a summary is of: the present one once it has as many repetitions as any other, else the one with
    the most."""
    if not by_model:
        return None
    most = max(len(v) for v in by_model.values())
    if len(by_model.get(PAIRED_POSTERIOR, {})) >= most:
        return PAIRED_POSTERIOR
    return max(sorted(by_model), key=lambda k: len(by_model[k]))


def _binom(k: int, n: int) -> dict:
    if n == 0:
        return {"k": 0, "n": 0, "rate": None, "lo": None, "hi": None}
    ci = sst.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return {"k": k, "n": n, "rate": k / n, "lo": float(ci.low), "hi": float(ci.high)}


def _p_equivalent(mu: float, sd: float) -> float:
    """P(|δ| ≤ rope) under N(mu, sd²)."""
    return float(sst.norm.cdf((ROPE - mu) / sd) - sst.norm.cdf((-ROPE - mu) / sd))


def equivalence_bound(units: list[dict]) -> dict:
    """The most P(equivalent) a calibrated answer across the corpora could give on these runs, and the posterior SD
    (hence the data) that P(equivalent) ≥ 0.9 needs.

    The narrowest defensible answer: no spread between the corpora (τ = 0 known, a common-effect model) and each
    corpus's normal likelihood at its posterior SD as measured (no widening for its t form), pooled by inverse
    variance. Being narrower than the hierarchical answer (τ unknown), it allows more P(|δ| ≤ rope). The check of
    its calibration is the RMS of its pooled estimate, whose truth is 0, against its SD (the SDs narrowed to that
    RMS where it is smaller give ``equivalent_at_0.9_narrowed``). With a calibrated SD s the
    estimate falls within 1.96 s of the truth in 95% of null pairs; P(equivalent) ≥ 0.9 at every such estimate
    needs s ≤ ``sd_needed_95``, and at an estimate of exactly 0 (the best case) s ≤ ``sd_needed_best``.
    """
    if not units:
        return {}
    pooled, p_eq = [], []
    for u in units:
        y = np.array([x["estimate"] for x in u["corpora"].values()])
        w = 1 / np.array([max(1e-9, x["sd"]) for x in u["corpora"].values()]) ** 2
        mu, sd = float(w @ y / w.sum()), float(w.sum() ** -0.5)
        pooled.append((mu, sd))
        p_eq.append(_p_equivalent(mu, sd))
    mus, sds = np.array(pooled).T
    best = ROPE / float(sst.norm.ppf(0.95))
    need = float(optimize.brentq(lambda s: _p_equivalent(1.959964 * s, s) - 0.9, 1e-6, best))
    rms = float(np.sqrt(np.mean(mus ** 2)))
    scale = min(1.0, rms / float(np.median(sds)))  # the SDs narrowed to the pooled estimate's own error
    p_eq_narrowed = [_p_equivalent(mu, scale * sd) for mu, sd in pooled]
    per = {k: {"rms_estimate_points": 100 * float(np.sqrt(np.mean([u["corpora"][k]["estimate"] ** 2 for u in units]))),
               "median_sd_points": 100 * float(np.median([u["corpora"][k]["sd"] for u in units]))}
           for k in units[0]["corpora"]}
    return {"what": "common-effect pooling (tau = 0) of each corpus's posterior at its measured SD",
            "median_p_equivalent": float(np.median(p_eq)),
            "equivalent_at_0.9": _binom(sum(p >= 0.9 for p in p_eq), len(p_eq)),
            "median_sd_points": 100 * float(np.median(sds)), "rms_estimate_points": 100 * rms,
            "equivalent_at_0.9_narrowed": _binom(sum(p >= 0.9 for p in p_eq_narrowed), len(p_eq_narrowed)),
            "sd_needed_best_points": 100 * best, "sd_needed_95_points": 100 * need,
            "data_factor_needed": float((np.median(sds) / need) ** 2), "per_corpus": per}


def summarize(units: list[dict]) -> dict:
    """Per repetition the hierarchical answer over its three corpora; the calls and P(equivalent) over all."""
    rows = []
    for u in units:
        names = list(u["corpora"])
        y = [u["corpora"][k]["estimate"] for k in names]
        s = []
        for k in names:
            x = u["corpora"][k]
            df = x["df"]
            s.append(max(1e-9, x["sd"] * (float(sst.t.ppf(0.975, df) / sst.norm.ppf(0.975)) if df else 1.0)))
        h = hierarchical(y, s, names, rope=ROPE)
        rows.append({"p_b": h.p_b_better, "p_a": h.p_a_better, "p_eq": h.p_equivalent})
    n = len(rows)
    per_corpus = {}
    for k in CORPORA:
        p = [u["corpora"][k]["p_b_better"] for u in units if k in u["corpora"]]
        per_corpus[k] = {"calls_b": _binom(sum(x >= THRESHOLD for x in p), len(p)),
                         "calls_a": _binom(sum(1 - x >= THRESHOLD for x in p), len(p))}
    return {"R": n, "rope_points": 100 * ROPE, "threshold": THRESHOLD, "m": M,
            "calls_b": _binom(sum(r["p_b"] >= THRESHOLD for r in rows), n),
            "calls_a": _binom(sum(r["p_a"] >= THRESHOLD for r in rows), n),
            "equivalent_at_0.9": _binom(sum(r["p_eq"] >= 0.9 for r in rows), n),
            "p_eq_median": float(np.median([r["p_eq"] for r in rows])) if rows else None,
            "per_corpus": per_corpus, "equivalence_bound": equivalence_bound(units)}


def _model_note(result: dict) -> str:
    model, present = result.get("posterior") or "paired/1", result.get("present_model") or {}
    if model == present.get("name"):
        return f" Posterior model: `{model}`, textbcv's present one."
    return (f" These figures measured the posterior model `{model}` (textbcv's until 2026-11-26); textbcv's present "
            f"model, `{present.get('name', PAIRED_POSTERIOR)}`, has {present.get('R', 0)} of these repetitions so far "
            "(a run measures it; the summary turns to it once it has as many).")


def render(result: dict, command: str) -> str:
    def pct(x: dict) -> str:
        return "–" if x["rate"] is None else f"{100 * x['rate']:.1f}% [{100 * x['lo']:.1f}, {100 * x['hi']:.1f}]"

    lines = ["## Null pairs across three NER corpora", "",
             f"Written by `{command}` (resumable; units in docs/corpora_null/). An averaged-perceptron CRF against "
             "itself (training seed 1 vs 2), m = 3, on a data set of the bundled corpus, CoNLL-2003 and CoNLL-2002 "
             "Spanish in every repetition; the answer across the three (rope 0.5 points, P ≥ 0.95). Targets: calls "
             "at most 5% each way, P(equivalent) ≥ 0.9." + _model_note(result), "",
             "| R | B called better | A called better | P(equivalent) ≥ 0.9 | median P(equivalent) |",
             "|---|---|---|---|---|",
             f"| {result['R']} | {pct(result['calls_b'])} | {pct(result['calls_a'])} | "
             f"{pct(result['equivalent_at_0.9'])} | "
             f"{'–' if result['p_eq_median'] is None else format(result['p_eq_median'], '.3f')} |", "",
             "Each corpus on its own (the run's own Bayes test, no rope): " + "; ".join(
                 f"{k} {pct(v['calls_b'])} / {pct(v['calls_a'])}" for k, v in result["per_corpus"].items()) + ".", ""]
    b = result.get("equivalence_bound") or {}
    if b:
        lines += [
            "How much P(equivalent) these runs allow at best: pooling the three corpora's posteriors as if their "
            "differences could not vary between corpora (τ = 0 known) and at each run's measured SD (narrower than the "
            "hierarchical answer, which learns τ from three corpora and widens t posteriors), gives a median "
            f"P(equivalent) of {b['median_p_equivalent']:.3f} and "
            f"P(equivalent) ≥ 0.9 in {pct(b['equivalent_at_0.9'])} of repetitions. Its pooled SD is "
            f"{b['median_sd_points']:.2f} points (median) against an RMS error of {b['rms_estimate_points']:.2f} "
            "points (the truth is 0); narrowed to that error, P(equivalent) ≥ 0.9 in "
            f"{pct(b['equivalent_at_0.9_narrowed'])}. P(equivalent) ≥ 0.9 needs a posterior SD of at most "
            f"{b['sd_needed_best_points']:.2f} points when the estimate is exactly 0, and at most "
            f"{b['sd_needed_95_points']:.2f} points for it to hold at 95% of a calibrated estimate's values: "
            f"about {b['data_factor_needed']:.1f}× the test text per corpus of these data sets (variance falls "
            "about as 1/n), or more splits where the training part dominates. Each corpus on its own: " + "; ".join(
                f"{k} RMS {v['rms_estimate_points']:.2f} vs median SD {v['median_sd_points']:.2f} points"
                for k, v in b["per_corpus"].items()) + ".", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=450, help="repetitions (default 450)")
    ap.add_argument("--max-iterations", type=int, default=10)
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder of corpora_null_study.json and corpora_null/")
    ap.add_argument("--results", default=None, help="RESULTS.md to update (default OUT/RESULTS.md)")
    ap.add_argument("--until", type=float, default=None, help="stop starting new repetitions after this many seconds")
    ap.add_argument("--summarize-only", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="two tiny repetitions (under a minute)")
    args = ap.parse_args(argv)
    limit, sizes = None, {k: v[3] for k, v in CORPORA.items()}
    if args.smoke:
        args.reps, args.max_iterations, limit = 2, 2, 400
        sizes = {k: 120 for k in CORPORA}
    out = Path(args.out)
    units_dir = out / "corpora_null"
    units_dir.mkdir(parents=True, exist_ok=True)
    settings = {"m": M, "max_iterations": args.max_iterations, "sizes": sizes, "smoke": args.smoke,
                "systems": ["iob2@1", "iob2@2"], "algorithm": "ap"}
    settings_path = units_dir / "settings.json"
    if not claim_settings(settings_path, settings):
        ap.error(f"{settings_path} holds a study with other settings; choose another --out")
    path = units_dir / "units.jsonl"

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    t_start = time.time()
    if not args.summarize_only:
        have = set(units_by_model(path).get(PAIRED_POSTERIOR, {}))
        todo = [r for r in range(args.reps) if r not in have]
        corpora = {k: load(k, limit) for k in CORPORA} if todo else {}
        for i, r in enumerate(todo):
            if args.until is not None and time.time() - t_start > args.until:
                log(f"--until reached: stopping before r={r}")
                break
            t1 = time.time()
            unit = {"r": r, "posterior": PAIRED_POSTERIOR,
                    "corpora": {k: posterior_of(c, r, sizes[k], args.max_iterations) for k, c in corpora.items()}}
            append_line(path, json.dumps(unit, sort_keys=True, separators=(",", ":")))
            log(f"corpora null: r={r} finished in {fmt_seconds(time.time() - t1)} ({i + 1}/{len(todo)} of this run)")
    by_model = units_by_model(path)
    model = summarized_model(by_model)
    units = [x for r, x in sorted(by_model.get(model, {}).items()) if r < args.reps] if model else []
    result = summarize(units)
    result["posterior"] = model
    present = by_model.get(PAIRED_POSTERIOR, {})
    result["present_model"] = {"name": PAIRED_POSTERIOR, "R": sum(r < args.reps for r in present)}
    command = "scripts/corpora_null_study.py" + (" --smoke" if args.smoke else "")
    result["meta"] = {"command": command, "settings": settings}
    write_json(out / "corpora_null_study.json", result)
    update_section(Path(args.results) if args.results else out / "RESULTS.md", "corpora-null-study",
                   render(result, command))
    log(f"summary written: {out / 'corpora_null_study.json'} ({result['R']} repetitions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
