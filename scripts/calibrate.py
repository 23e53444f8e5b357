#!/usr/bin/env python3
"""Calibration study of the F1/P/R intervals, the Bayes decision and the sequential t-test.

Re-runs the thesis's Example 6.1 (docs/method.md §5, §12): binary task, n = 600,
X | Y ~ N(μ_Y, I₂), μ₀ = (0,0), μ₁ = (½,½), logistic regression
(scikit-learn, unpenalised), 3×2 BCV from OA(4); designs ``iid`` (P(Y=1)=½)
and ``balanced`` (exactly 300 per class). For every interval variant:
coverage of the true value and mean length. True values: ratio of expected
population rates (exact per fitted rule, averaged over all fitted rules of
the design), i.e. what the pooled m×2 estimate estimates.

Null problems: A = logistic regression on x₁ only, B = on x₂ only — equal
true F1 by symmetry. Type-I error of the Bayes decision (P(B better) > τ)
on the first 3 splits, and of the sequential t-test on per-fold F1
differences (m_start = 3, M = 12, q = α/2 and q = α) with splits from
OA(16), nested.

Usage: scripts/calibrate.py [--datasets 2000] [--null-datasets 2000] [--jobs 2]
Writes docs/calibration.json and docs/calibration.md.
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from joblib import Parallel, delayed  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textbcv.stats.bayes import prob_better  # noqa: E402
from textbcv.stats.compare import system_posteriors  # noqa: E402
from textbcv.stats.posterior import METRICS  # noqa: E402
from textbcv.stats.sequential import SequentialTTest  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _simulate import bcv_splits, fit_fold_counts, gaussian_data  # noqa: E402  (the study's engine, beside this script)

from _results import atomic_write, write_json  # noqa: E402

N = 600
ALPHA = 0.05
DESIGNS = ("iid", "balanced")
VARIANTS = ("thesis", "independent", "averaged-counts", "adaptive")
THRESHOLDS = (0.9, 0.95, 0.975)


def logistic_fit(X, y):
    from sklearn.linear_model import LogisticRegression

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = LogisticRegression(C=np.inf).fit(X, y)
    return clf.coef_[0], float(clf.intercept_[0])


def coverage_chunk(design: str, indices, seed: int):
    out = []
    for i in indices:
        rng = np.random.default_rng([seed, DESIGNS.index(design), 0, i])
        X, y = gaussian_data(N, rng, design)
        splits = bcv_splits(N, 3, rng)
        out.append(fit_fold_counts(X, y, splits, logistic_fit))
    return out


def f1_of(counts):
    tp, fp, fn = counts.T
    den = 2 * tp + fp + fn
    return np.divide(2 * tp, den, out=np.zeros_like(tp), where=den > 0)


def null_chunk(design: str, indices, seed: int, M: int):
    out = []
    for i in indices:
        rng = np.random.default_rng([seed, DESIGNS.index(design), 1, i])
        X, y = gaussian_data(N, rng, design)
        splits = bcv_splits(N, M, rng)
        tests = {q: SequentialTTest(alpha=ALPHA, m_start=3, M=M, q=q) for q in ("alpha/2", "alpha")}
        ca, cb = [], []
        j = 0
        while (j < 3 or not all(t.state.done for t in tests.values())) and j < M:
            a, _ = fit_fold_counts(X, y, [splits[j]], logistic_fit, features=[0])
            b, _ = fit_fold_counts(X, y, [splits[j]], logistic_fit, features=[1])
            ca.append(a)
            cb.append(b)
            d = f1_of(b) - f1_of(a)  # lazily: this split's models are fitted only now
            for t in tests.values():
                if t.state is None or not t.state.done:
                    t.update(d)
            j += 1
        seq = {q: (t.state.decision, t.state.m) for q, t in tests.items()}
        out.append((np.concatenate(ca[:3]), np.concatenate(cb[:3]), seq, j))
    return out


def chunks(n: int, k: int):
    return [list(range(s, min(n, s + k))) for s in range(0, n, k)]


def truth_from(rates: np.ndarray) -> dict[str, float]:
    tp, fp, fn = rates.reshape(-1, 3).mean(axis=0)
    return {"precision": tp / (tp + fp), "recall": tp / (tp + fn), "f1": 2 * tp / (2 * tp + fp + fn)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", type=int, default=2000)
    ap.add_argument("--null-datasets", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--M", type=int, default=12)
    ap.add_argument("--out", default=str(ROOT / "docs" / "calibration.json"))
    ap.add_argument("--md", default=str(ROOT / "docs" / "calibration.md"))
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    load0 = os.getloadavg()
    par = Parallel(n_jobs=args.jobs)
    result = {"setup": {"n": N, "m": 3, "alpha": ALPHA, "datasets": args.datasets,
                        "null_datasets": args.null_datasets, "seed": args.seed, "M": args.M,
                        "learner": "sklearn LogisticRegression(C=inf)", "designs": list(DESIGNS)},
              "coverage": {}, "null": {}}
    timing = {}
    for design in DESIGNS:
        t = time.perf_counter()
        runs = [r for part in par(delayed(coverage_chunk)(design, idx, args.seed) for idx in chunks(args.datasets, 50))
                for r in part]
        timing[f"coverage_{design}_s"] = round(time.perf_counter() - t, 1)
        truth = truth_from(np.stack([r[1] for r in runs]))
        cov = {"truth": truth}
        for variant in VARIANTS:
            hits = {k: 0 for k in METRICS}
            length = {k: 0.0 for k in METRICS}
            for counts, _ in runs:
                posts, _f = system_posteriors(counts, 3, variant, alpha=ALPHA)
                for k in METRICS:
                    lo, hi = posts[k].interval(ALPHA)
                    hits[k] += lo <= truth[k] <= hi
                    length[k] += hi - lo
            cov[variant] = {k: {"coverage": hits[k] / len(runs), "mean_length": length[k] / len(runs)} for k in METRICS}
        # why no fold-based widening can fix both designs: the within-data-set spread of the 2m
        # fold F1 values vs the real spread of the pooled F1 across data sets
        pooled = np.array([f1_of(c.sum(axis=0, keepdims=True))[0] for c, _ in runs])
        spread = np.array([np.mean((f1_of(c) - f1_of(c).mean()) ** 2) for c, _ in runs])
        cov["diagnostics"] = {
            "sd_of_pooled_f1_across_datasets": float(pooled.std(ddof=1)),
            "rms_posterior_sd_f1_thesis": float(np.sqrt(np.mean(
                [system_posteriors(c, 3, "thesis")[0]["f1"].var() for c, _ in runs]))),
            "rms_C_hat_sqrt_var2_f1": float(np.sqrt(1.4 * spread.mean())),
        }
        result["coverage"][design] = cov

        t = time.perf_counter()
        nulls = [r for part in par(delayed(null_chunk)(design, idx, args.seed, args.M)
                                   for idx in chunks(args.null_datasets, 25)) for r in part]
        timing[f"null_{design}_s"] = round(time.perf_counter() - t, 1)
        nres = {"bayes": {}, "sequential": {}}
        for variant in VARIANTS:
            pb = {k: [] for k in METRICS}
            for ca, cb, _seq, _j in nulls:
                pa_, _ = system_posteriors(ca, 3, variant, alpha=ALPHA)
                pb_, _ = system_posteriors(cb, 3, variant, alpha=ALPHA)
                for k in METRICS:
                    pb[k].append(prob_better(pa_[k], pb_[k])["p_b_better"])
            nres["bayes"][variant] = {
                k: {**{f"P(p_b_better > {tau})": float(np.mean(np.array(v) > tau)) for tau in THRESHOLDS},
                    **{f"P(p_a_better > {tau})": float(np.mean(1 - np.array(v) > tau)) for tau in THRESHOLDS},
                    "P(default decision = B better)": float(np.mean(np.array(v) > 0.5))}
                for k, v in pb.items()}
        for q in ("alpha/2", "alpha"):
            rej = [s[q][0] == "reject H0" for _a, _b, s, _j in nulls]
            mstop = [s[q][1] for _a, _b, s, _j in nulls]
            nres["sequential"][f"q={q}"] = {"type_I_error": float(np.mean(rej)), "mean_m_stop": float(np.mean(mstop))}
        nres["splits_fitted_mean"] = float(np.mean([j for *_x, j in nulls]))
        result["null"][design] = nres
    timing["total_s"] = round(time.perf_counter() - t0, 1)
    result["run"] = {"timing": timing, "jobs": args.jobs, "loadavg_start": load0, "loadavg_end": os.getloadavg(),
                     "cpus": os.cpu_count()}
    write_json(args.out, result)
    with atomic_write(args.md) as f:
        f.write(markdown(result))
    print(markdown(result))
    return 0


def markdown(r: dict) -> str:
    s = r["setup"]
    lines = [
        "# Calibration of textbcv's intervals and tests",
        "",
        f"Thesis Example 6.1: n = {s['n']}, X|Y ~ N(μ_Y, I₂), μ₁ − μ₀ = (½, ½), {s['learner']}, "
        f"3×2 BCV (OA(4)), α = {s['alpha']}; {s['datasets']} data sets per design; "
        f"null problems (LR on x₁ vs LR on x₂, equal true F1): {s['null_datasets']} data sets per design, "
        f"seed {s['seed']}. Produced by `scripts/calibrate.py`; figures below are measured, not copied.",
        "",
        "## Coverage (nominal 95%) and mean length of the equal-tailed intervals",
        "",
        "| design | variant | P cover | P length | R cover | R length | F1 cover | F1 length |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for design, cov in r["coverage"].items():
        for variant in VARIANTS:
            c = cov[variant]
            lines.append(f"| {design} | {variant} | " + " | ".join(
                f"{c[k]['coverage']:.3f} | {c[k]['mean_length']:.4f}" for k in METRICS) + " |")
    lines += ["", "Spread of F1 (why fold-based widening cannot fix the iid design): " + "; ".join(
        f"{d}: sd of pooled F1 across data sets {cov['diagnostics']['sd_of_pooled_f1_across_datasets']:.4f}, "
        f"thesis posterior sd {cov['diagnostics']['rms_posterior_sd_f1_thesis']:.4f}, "
        f"Ĉ_m·√Var2 of the fold F1 values {cov['diagnostics']['rms_C_hat_sqrt_var2_f1']:.4f}"
        for d, cov in r["coverage"].items() if "diagnostics" in cov)]
    lines += ["", "True values (ratio of expected population rates): " + "; ".join(
        f"{d}: " + ", ".join(f"{k} {v:.4f}" for k, v in cov["truth"].items()) for d, cov in r["coverage"].items()), ""]
    lines += ["## Null problems: false decisions", "",
              "| design | variant | metric | P(B better) > 0.95 | P(A better) > 0.95 | P(B better) > 0.975 | default "
              "rule says B |",
              "|---|---|---|---|---|---|---|"]
    for design, n in r["null"].items():
        for variant in VARIANTS:
            for k in METRICS:
                b = n["bayes"][variant][k]
                lines.append(f"| {design} | {variant} | {k} | {b['P(p_b_better > 0.95)']:.3f} | "
                             f"{b['P(p_a_better > 0.95)']:.3f} | {b['P(p_b_better > 0.975)']:.3f} | "
                             f"{b['P(default decision = B better)']:.3f} |")
    lines += ["", "| design | sequential t-test (F1 differences, Δ = 0, M = %d) | type-I error | mean m_stop "
                  "|" % s["M"],
              "|---|---|---|---|"]
    for design, n in r["null"].items():
        for q, v in n["sequential"].items():
            lines.append(f"| {design} | {q} | {v['type_I_error']:.4f} | {v['mean_m_stop']:.2f} |")
    t = r["run"]
    lines += ["", f"Run: {t['timing']['total_s']} s wall on {t['jobs']} jobs ({t['cpus']} CPUs shared with other "
              f"work; load average at start {t['loadavg_start'][0]:.2f}, at end {t['loadavg_end'][0]:.2f}); "
              + ", ".join(f"{k} {v}" for k, v in t["timing"].items()), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
