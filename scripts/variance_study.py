#!/usr/bin/env python3
"""Variance study: how much does the m×2 CV estimate of F1 move with the split seed, per design?

On the first ``--sentences`` sentences of CoNLL-2003 eng.train (typed
entities), for r = 0..R−1 (split seed = r) and three designs

- ``random``        Dietterich's random m×2 CV (m independent random halvings),
- ``bcv``           m×2 block-regularized CV without balancing (balance=None),
- ``bcv-balanced``  m×2 BCV with label, lemma and length balancing (textbcv's default),

it trains two CRF systems on every fold and records the per-fold chunk
counts. m = 7 split sets are built; because both the BCV splits (Sylvester
order, nested blocks) and the random halvings (drawn in sequence from the
seeded generator) are nested, their first 3 splits are exactly the m = 3
split set of the same seed (checked), so the m = 3 figures come from the
same folds. Per (design, m, r) the estimates are

- F1 = mean of the 2m fold F1s (the m×2 estimator of eq. 3.3–3.5), and the pooled
  (micro) F1 over the 2m folds, for system B;
- ΔF1 = F1_B − F1_A (mean of the 2m per-fold differences).

Reported over r: mean, standard deviation (with a 95% bootstrap interval,
scipy.stats.bootstrap, BCa, 2,000 resamples) and SNR = mean / sd.

Features are extracted once and the payload is reused by every batch; every
(design, r) is one batch of folds with its own fold store
(``--work``/folds/DESIGN/rNNN.jsonl), so an interrupted study resumes where it
stopped.

Cheaper CRF than the thesis (stated in the results): averaged perceptron
(crfsuite ``ap``) with ``--max-iterations`` (default 10) epochs; system A =
IOB2 with word unigrams in [−1, 1], system B = IOB2 with word and POS
unigrams in [−2, 2].

Usage: scripts/variance_study.py [--sentences 3000] [--reps 100] [--jobs 2] [--work runs/variance]
       smoke: --sentences 300 --reps 3 --max-iterations 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from textbcv.corpus import read_conll  # noqa: E402
from textbcv.split import make_splits  # noqa: E402
from textbcv.tagging import FoldStore, make_payload, run_folds  # noqa: E402
from textbcv.tagging.features import Template  # noqa: E402
from textbcv.tagging.system import System  # noqa: E402

from _results import ROOT, fmt_seconds, machine, update_section, write_json  # noqa: E402

DESIGNS = {
    "random": {"method": "random", "balance": None, "label": "random m×2 CV"},
    "bcv": {"method": "bcv", "balance": None, "label": "m×2 BCV, not balanced"},
    "bcv-balanced": {"method": "bcv", "balance": ("label", "lemma", "length"), "label": "m×2 BCV, balanced"},
}
M_MAX = 7
MS = (3, 7)
TEMPLATES = {
    "A": Template("w-uni-1", atoms=("w",), window=(-1, 1), ngrams=(1,)),
    "B": Template("wpos-uni-2", atoms=("w", "pos"), window=(-2, 2), ngrams=(1,)),
}


def make_systems(algorithm: str, max_iterations: int) -> list[System]:
    params = {"max_iterations": max_iterations}
    if algorithm == "lbfgs":
        params |= {"c1": 0.1, "c2": 0.1}
    return [System(name, "iob2", TEMPLATES[name], algorithm, dict(params)) for name in ("A", "B")]


def split_digest(splits) -> str:
    h = hashlib.sha256()
    for t, _ in splits.splits:
        h.update(np.asarray(t, dtype=np.int64).tobytes())
        h.update(b"|")
    return h.hexdigest()[:16]


def build_splits(corpus, design: str, r: int) -> tuple[list, dict]:
    d = DESIGNS[design]
    s = make_splits(corpus, m=M_MAX, method=d["method"], balance=d["balance"], group_by="sentence", seed=r)
    q = s.quality or {}
    chi = q.get("chi2_per_df", {})
    info = {"digest": split_digest(s),
            "overlap_max_deviation_m7": q.get("overlap_max_deviation"),
            "chi2_per_df_max_m7": {k: float(max(v)) for k, v in chi.items()},
            "chi2_per_df_max_m3": {k: float(max(v[:3])) for k, v in chi.items()}}
    return list(s.folds()), info


def fold_f1(c: dict) -> float:
    d = 2 * c["tp"] + c["fp"] + c["fn"]
    return 2 * c["tp"] / d if d else 0.0


def estimates(store: FoldStore, m: int) -> dict:
    """F1 of B (mean of fold F1s, pooled) and ΔF1 = B − A (mean of per-fold differences) on splits 0..m−1 of rep r."""
    f = {}
    pooled = {}
    for name in ("A", "B"):
        cs = [store.records[(name, j, k)]["counts"]["overall"] for j in range(m) for k in (0, 1)]
        f[name] = np.array([fold_f1(c) for c in cs])
        tp, fp, fn = (sum(c[x] for c in cs) for x in ("tp", "fp", "fn"))
        pooled[name] = 2 * tp / (2 * tp + fp + fn)
    return {"f1_mean_folds": float(f["B"].mean()), "f1_pooled": float(pooled["B"]),
            "f1_A_mean_folds": float(f["A"].mean()),
            "diff_mean_folds": float((f["B"] - f["A"]).mean()), "diff_pooled": float(pooled["B"] - pooled["A"]),
            "fold_f1_sd_within": float(f["B"].std(ddof=1))}


def summary(x: np.ndarray, seed: int) -> dict:
    x = np.asarray(x, dtype=float)
    if len(x) < 2:
        return {"n": int(len(x)), "mean": float(x.mean()) if len(x) else None, "sd": None}
    sd = float(x.std(ddof=1))
    out = {"n": int(len(x)), "mean": float(x.mean()), "sd": sd, "snr": float(x.mean() / sd) if sd > 0 else None}
    if len(x) >= 10 and sd > 0:  # bootstrap intervals of fewer values mean nothing
        rng = np.random.default_rng(seed)
        res = stats.bootstrap((x,), lambda v, axis: np.std(v, ddof=1, axis=axis), n_resamples=2000,
                              confidence_level=0.95, method="BCa", random_state=rng)
        out["sd_ci"] = _finite([res.confidence_interval.low, res.confidence_interval.high])
        res2 = stats.bootstrap((x,), lambda v, axis: np.mean(v, axis=axis) / np.std(v, ddof=1, axis=axis),
                               n_resamples=2000, confidence_level=0.95, method="percentile",
                               random_state=np.random.default_rng(seed + 1))
        out["snr_ci"] = _finite([res2.confidence_interval.low, res2.confidence_interval.high])
    return {k: v for k, v in out.items() if v is not None}


def _finite(ci) -> list[float] | None:
    """A bootstrap interval, or None when it is degenerate (tiny samples give nan/inf)."""
    ci = [float(x) for x in ci]
    return ci if all(np.isfinite(ci)) else None


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    designs = list(DESIGNS)
    per = result["per_rep"]
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    colors = {"random": "tab:red", "bcv": "tab:blue", "bcv-balanced": "tab:green"}
    for col, (key, label) in enumerate((("f1_mean_folds", "F1 of B (mean of fold F1s)"),
                                         ("diff_mean_folds", "ΔF1 = B − A (mean of fold differences)"))):
        ax = axes[0, col]
        data, pos, cols = [], [], []
        for i, m in enumerate(MS):
            for k, d in enumerate(designs):
                data.append(100 * np.array([e[key] for e in per[d][str(m)]]))
                pos.append(i * 4 + k)
                cols.append(colors[d])
        bp = ax.boxplot(data, positions=pos, widths=0.7, patch_artist=True, showfliers=True)
        for patch, c in zip(bp["boxes"], cols):
            patch.set_facecolor(c)
            patch.set_alpha(0.45)
        ax.set_xticks([1, 5], [f"m = {m}" for m in MS])
        ax.set_ylabel(f"{label}, points")
        ax.set_title(f"{label.split(' (')[0]} over seeds (m = 3: {result['meta']['reps_done']['3']}, "
                     f"m = 7: {result['meta']['reps_done']['7']})", fontsize=10)
        ax = axes[1, col]
        for k, d in enumerate(designs):
            s = [result["summary"][d][str(m)][key] for m in MS]
            s = [x if x["sd"] is not None else {"sd": np.nan} for x in s]
            sd = np.array([100 * x["sd"] for x in s])
            lo = np.array([100 * x.get("sd_ci", [x["sd"]] * 2)[0] for x in s])
            hi = np.array([100 * x.get("sd_ci", [x["sd"]] * 2)[1] for x in s])
            xs = np.arange(len(MS)) + (k - 1) * 0.15
            ax.errorbar(xs, sd, yerr=[sd - lo, hi - sd], fmt="o", capsize=4, color=colors[d], label=DESIGNS[d]["label"])
        ax.set_xticks(range(len(MS)), [f"m = {m}" for m in MS])
        ax.set_ylabel("standard deviation over seeds, points")
        ax.set_title(f"SD of {key.split('_')[0] == 'f1' and 'F1' or 'ΔF1'} (95% bootstrap interval)")
        ax.legend(fontsize=8)
    fig.suptitle(f"Variance study: first {result['meta']['sentences']} sentences of eng.train, "
                 f"{result['meta']['crf']}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def render(result: dict) -> str:
    meta = result["meta"]
    smoke = meta["smoke"]
    L = ["## Variance study: random m×2 CV vs BCV vs balanced BCV", ""]
    if smoke:
        L += [f"**Smoke run** ({meta['sentences']} sentences, {meta['reps']} seeds, max_iterations = "
              f"{meta['max_iterations']}): tests the script, not the method.", ""]
    L += [
        f"`scripts/variance_study.py`: first {meta['sentences']:,} sentences of CoNLL-2003 eng.train "
        f"({meta['tokens']:,} tokens, typed entities); split seeds r = 0, 1, ...: "
        f"R = {meta['reps_done']['3']} seeds at m = 3 "
        f"and {meta['reps_done']['7']} at m = 7 (of {meta['reps']} planned), the same seeds for every design. "
        f"CRF: {meta['crf']} — cheaper than the thesis's L-BFGS with n-gram templates, so that "
        f"{meta['reps']} seeds × 3 designs × 28 trainings fit in the time budget "
        "(the study first runs every seed at m = 3, "
        "then extends every seed to m = 7). System A: IOB2, word unigrams in [−1, 1]; "
        "system B: IOB2, word and POS unigrams in [−2, 2]. The m = 3 estimates use the first 3 splits of each "
        "m = 7 split set, which are exactly the m = 3 split sets of the same seed (nested; checked by the script). "
        "F1 = the m×2 estimator of eq. 3.3–3.5 (mean of the 2m fold F1s of B); the pooled micro F1 is in the JSON "
        "and in the last rows. ΔF1 = mean over the 2m folds of F1_B − F1_A. SD = standard deviation over the R seeds "
        "with a 95% BCa bootstrap interval (2,000 resamples); SNR = mean / SD (percentile bootstrap interval).",
        "",
        "| m | design | F1 mean | F1 SD [95% CI] | F1 SNR [95% CI] | ΔF1 mean | ΔF1 SD [95% CI] | ΔF1 SNR [95% CI] | "
        "max χ²/df label (mean) |",
        "|---|---|---:|---|---|---:|---|---|---:|",
    ]

    def sd(s):
        if s["sd"] is None:
            return "–"
        ci = s.get("sd_ci")
        return f"{100 * s['sd']:.3f}" + (f" [{100 * ci[0]:.3f}, {100 * ci[1]:.3f}]" if ci else "")

    def snr(s):
        if s.get("snr") is None:
            return "–"
        ci = s.get("snr_ci")
        return f"{s['snr']:.1f}" + (f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "")

    for m in MS:
        for d in DESIGNS:
            s = result["summary"][d][str(m)]
            f, df = s["f1_mean_folds"], s["diff_mean_folds"]
            chi = result["split_chi2_label_mean"][d][str(m)]
            if f["mean"] is None:
                L.append(f"| {m} | {DESIGNS[d]['label']} | – | – | – | – | – | – | – |")
                continue
            L.append(f"| {m} | {DESIGNS[d]['label']} | {100 * f['mean']:.2f} | {sd(f)} | {snr(f)} | "
                     f"{100 * df['mean']:+.3f} | {sd(df)} | {snr(df)} | {chi:.2f} |")
    L += ["", "Pooled (micro) F1 of B over the 2m folds, same seeds:", "",
          "| m | design | pooled F1 mean | SD [95% CI] | SNR |", "|---|---|---:|---|---:|"]
    for m in MS:
        for d in DESIGNS:
            s = result["summary"][d][str(m)]["f1_pooled"]
            if s["mean"] is None:
                continue
            L.append(f"| {m} | {DESIGNS[d]['label']} | {100 * s['mean']:.2f} | {sd(s)} | {snr(s)} |")
    ratios = result["sd_ratios"]
    def rt(x):
        return "–" if x is None else f"{x:.2f}"

    L += ["", "SD ratios against random m×2 CV (below 1 = less split noise): " + "; ".join(
        f"m = {m}: BCV {rt(ratios[str(m)]['bcv']['f1_mean_folds'])} / "
        f"balanced {rt(ratios[str(m)]['bcv-balanced']['f1_mean_folds'])} "
        f"(F1), {rt(ratios[str(m)]['bcv']['diff_mean_folds'])} / "
        f"{rt(ratios[str(m)]['bcv-balanced']['diff_mean_folds'])} (ΔF1)"
        for m in MS) + ".", ""]
    if "random" in result["summary"]:
        parts = []
        for m in MS:
            r0 = result["summary"]["random"][str(m)]
            for d in DESIGNS:
                if d == "random" or result["summary"][d][str(m)]["f1_mean_folds"]["mean"] is None:
                    continue
                for key, nm in (("f1_mean_folds", "F1"), ("diff_mean_folds", "ΔF1")):
                    a, b = r0[key], result["summary"][d][str(m)][key]
                    if a.get("sd") is None or b.get("sd") is None:
                        continue
                    shift = b["mean"] - a["mean"]
                    se = (a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"]) ** 0.5
                    parts.append(f"m = {m}, {DESIGNS[d]['label']}, {nm}: {100 * shift:+.3f} points "
                                 f"({shift / se:+.1f} standard errors)")
        L += ["Shift of the mean estimate against random m×2 CV (same seeds; a shift of many standard errors means the "
              "design estimates a different quantity, not only with less noise): " + "; ".join(parts) + ".", ""]
    L += [
        f"![variance study]({meta['plot_name']})", "",
        f"Run time: {fmt_seconds(meta['wall_seconds'])} wall over {meta['invocations']} invocation(s), "
        f"{meta['sum_fold_seconds']:.0f} s summed over {meta['folds']:,} fold trainings (jobs = {meta['jobs']}); "
        f"estimated beforehand: {meta['estimate']}. Measured {meta['machine']['date']} "
        f"on {meta['machine']['nproc']} CPUs "
        f"(load average {', '.join(map(str, meta['machine']['loadavg']))}). Regenerate: `{meta['command']}`."]
    return "\n".join(L)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", default=str(ROOT.parent / "shared" / "corpora" / "conll2003_en" / "eng.train"))
    ap.add_argument("--sentences", type=int, default=3000)
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--algorithm", default="ap")
    ap.add_argument("--max-iterations", type=int, default=10)
    ap.add_argument("--designs", default=",".join(DESIGNS))
    ap.add_argument("--work", default=str(ROOT / "runs" / "variance"))
    ap.add_argument("--json", default=str(ROOT / "docs" / "variance_study.json"))
    ap.add_argument("--plot", default=str(ROOT / "docs" / "variance_study.png"))
    ap.add_argument("--results", default=str(ROOT / "docs" / "RESULTS.md"))
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--summarize-only", action="store_true",
                    help="train nothing: summarize the seeds already complete in --work (e.g. after a cut-off run)")
    args = ap.parse_args(argv)
    designs = [d for d in args.designs.split(",") if d]
    if any(d not in DESIGNS for d in designs) or not designs:
        ap.error(f"--designs: choose from {', '.join(DESIGNS)}")
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    t_start = time.time()

    corpus = read_conll(args.train)[: args.sentences]
    systems = make_systems(args.algorithm, args.max_iterations)
    payload = make_payload(corpus.sentences, [s.chunks for s in corpus], systems)
    crf = f"crfsuite {args.algorithm}, max_iterations = {args.max_iterations}"

    # split sets: deterministic from (design, r); their digests guard resumption
    manifest_path = work / "splits.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    key = {"sentences": args.sentences, "train": Path(args.train).name, "algorithm": args.algorithm,
           "max_iterations": args.max_iterations}
    if manifest.get("key", key) != key:
        ap.error(f"{work} holds a study with other settings ({manifest['key']}); choose another --work")
    manifest["key"] = key
    manifest.setdefault("splits", {})
    timing_path = work / "timing.json"
    timing = json.loads(timing_path.read_text()) if timing_path.exists() else {"wall_seconds": 0.0, "invocations": 0}

    stores = {(d, r): FoldStore(work / "folds" / d / f"r{r:03d}.jsonl") for d in designs for r in range(args.reps)}
    estimate = timing.get("estimate")
    if not args.summarize_only:
        timing["invocations"] += 1  # counted when it starts, so a run cut short still counts
    cache: dict = {}

    def splits_of(d: str, r: int) -> list:
        if (d, r) not in cache:
            folds, info = build_splits(corpus, d, r)
            k = f"{d}/{r}"
            old = manifest["splits"].get(k)
            if old is not None and old["digest"] != info["digest"]:
                raise SystemExit(f"split set {k} differs from the saved one: the splitter changed; use another --work")
            manifest["splits"][k] = info
            cache[(d, r)] = folds
        return cache[(d, r)]

    def complete(st: FoldStore, m: int) -> bool:
        return all((s.name, j, k) in st.records for s in systems for j in range(m) for k in (0, 1))

    # phase 1: every seed at m = 3 (the first 3 splits); phase 2: extend every seed to m = 7,
    # so that a study cut short still has all R seeds at m = 3
    for phase in ([] if args.summarize_only else MS):
        for r in range(args.reps):
            ran = False
            for d in designs:
                st = stores[(d, r)]
                if complete(st, phase):
                    continue
                folds = [f for f in splits_of(d, r) if f[0] < phase]
                t0 = time.time()
                run_folds(payload, folds, systems, st, jobs=args.jobs, progress=args.progress)
                ran = True
                if estimate is None:  # first batch measured: project the whole study
                    took = time.time() - t0
                    cpu = sum(st.records[(s.name, j, dd)]["run"]["seconds"] for s in systems for j, dd, _, _ in folds)
                    n_batches = args.reps * len(designs)
                    scale = M_MAX / phase  # all 7 splits per batch in the end
                    estimate = (f"{fmt_seconds((took + 1.0) * scale * n_batches)} wall, "
                                f"{fmt_seconds(cpu * scale * n_batches)} CPU in fold training "
                                f"({cpu / (len(folds) * len(systems)):.2f} s per fold in the first batch)")
                    timing["estimate"] = estimate
                    print(f"estimate: {estimate}", file=sys.stderr, flush=True)
            if ran:
                write_json(manifest_path, manifest, indent=None)
                write_json(timing_path, dict(timing, wall_seconds=timing["wall_seconds"] + time.time() - t_start))
                print(f"m = {phase}: seed {r + 1}/{args.reps} done, {fmt_seconds(time.time() - t_start)}",
                      file=sys.stderr, flush=True)
    if not args.summarize_only:
        timing["wall_seconds"] += time.time() - t_start
        write_json(timing_path, timing)
    write_json(manifest_path, manifest, indent=None)

    # nesting check: the m = 3 split set is the first 3 splits of m = 7, for every design
    for d in designs:
        kw = dict(method=DESIGNS[d]["method"], balance=DESIGNS[d]["balance"], group_by="sentence", seed=0)
        s3 = make_splits(corpus, m=3, **kw)
        s7 = make_splits(corpus, m=M_MAX, **kw)
        if not all(np.array_equal(a[0], b[0]) for a, b in zip(s3.splits, s7.splits[:3])):
            raise SystemExit(f"design {d}: the m = 3 splits are not the first 3 of m = 7; "
                             "the m = 3 figures would be wrong")

    # seeds complete at m for every design (the same seeds for every design)
    reps_m = {str(m): [r for r in range(args.reps) if all(complete(stores[(d, r)], m) for d in designs)] for m in MS}
    for m in MS:
        for r in reps_m[str(m)]:
            for d in designs:
                if f"{d}/{r}" not in manifest["splits"]:
                    splits_of(d, r)
    per_rep = {d: {str(m): [estimates(stores[(d, r)], m) for r in reps_m[str(m)]] for m in MS} for d in designs}
    summ, chi_label = {}, {}
    for i, d in enumerate(designs):
        summ[d], chi_label[d] = {}, {}
        for m in MS:
            summ[d][str(m)] = {key: summary([e[key] for e in per_rep[d][str(m)]], seed=1000 * i + m)
                               for key in ("f1_mean_folds", "f1_pooled", "diff_mean_folds", "diff_pooled")}
            chi = [manifest["splits"][f"{d}/{r}"][f"chi2_per_df_max_m{m}"].get("label", 0.0) for r in reps_m[str(m)]]
            chi_label[d][str(m)] = float(np.mean(chi)) if reps_m[str(m)] else None
    ratios = {}
    if "random" in designs:
        for m in MS:
            ratios[str(m)] = {d: {key: summ[d][str(m)][key]["sd"] / summ["random"][str(m)][key]["sd"]
                                  if summ["random"][str(m)][key]["sd"] and summ[d][str(m)][key]["sd"] is not None
                                  else None
                                  for key in ("f1_mean_folds", "diff_mean_folds")} for d in designs}
    fold_seconds = sum(rec["run"]["seconds"] for st in stores.values() for rec in st.records.values())
    n_folds = sum(len(st.records) for st in stores.values())
    smoke = args.sentences < 3000 or len(reps_m["3"]) < 100
    result = {
        "meta": {"sentences": len(corpus), "tokens": corpus.n_tokens, "reps": args.reps,
                 "reps_done": {m: len(v) for m, v in reps_m.items()},
                 "seeds": reps_m, "designs": designs,
                 "ms": list(MS), "crf": crf, "algorithm": args.algorithm, "max_iterations": args.max_iterations,
                 "systems": [s.to_dict() for s in systems], "jobs": args.jobs, "smoke": smoke,
                 "wall_seconds": round(timing["wall_seconds"], 1), "invocations": timing["invocations"],
                 "sum_fold_seconds": round(fold_seconds, 1), "folds": n_folds, "estimate": timing.get("estimate"),
                 "plot_name": Path(args.plot).name, "machine": machine(),
                 "estimators": {"f1_mean_folds": "mean of the 2m fold F1s of system B (eq. 3.3–3.5)",
                                "f1_pooled": "2ΣTP / (2ΣTP + ΣFP + ΣFN) of B over the 2m folds",
                                "diff_mean_folds": "mean over the 2m folds of F1_B − F1_A",
                                "diff_pooled": "pooled F1 of B − pooled F1 of A"},
                 "command": "scripts/variance_study.py " + " ".join(
                     a for a in (argv if argv is not None else sys.argv[1:]) if a != "--summarize-only")},
        "summary": summ, "sd_ratios": ratios, "split_chi2_label_mean": chi_label, "per_rep": per_rep,
    }
    write_json(args.json, result)
    if set(designs) == set(DESIGNS):
        plot(result, Path(args.plot))
        update_section(args.results, "variance", render(result))
    print(json.dumps({d: {str(m): {k: {"mean": v["mean"], "sd": v["sd"],
                                        "snr": None if v.get("snr") is None else round(v["snr"], 2)}
                                    for k, v in summ[d][str(m)].items() if k in ("f1_mean_folds", "diff_mean_folds")}
                                for m in MS} for d in designs}
                     | {"wall_seconds": round(timing["wall_seconds"], 1)}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
