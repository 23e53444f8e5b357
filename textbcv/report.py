"""Reports of a comparison: markdown, a plain-language conclusion, and PNG plots.

Everything here reads the ``report.json`` dictionary written by
:func:`textbcv.pipeline.compare` (or any dict of the same shape), so a report
can be re-rendered from a run directory alone (``textbcv report DIR``).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from textbcv.stats.compare import system_posteriors

__all__ = ["render_markdown", "conclusion", "write_plots", "heldout_markdown", "PLOTS", "textbook_tests",
           "textbook_markdown", "format_statistic", "format_p", "write_cd_diagram", "DISAGREE", "one_split_markdown"]

METRICS = ("precision", "recall", "f1")
LABELS = {"precision": "precision", "recall": "recall", "f1": "F1"}
PLOTS = ("posteriors.png", "f1_difference.png", "fold_f1.png")


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def _ci(ci) -> str:
    return f"[{_pct(ci[0])}, {_pct(ci[1])}]"


def conclusion(report: dict) -> str:
    """One paragraph in plain language: which system is better on F1, how sure, how large.

    Examples
    --------
    >>> r = {"m": 3, "alpha": 0.05, "systems": {"A": {"f1": {"estimate": .80, "ci": [.78, .82]}},
    ...      "B": {"f1": {"estimate": .83, "ci": [.81, .85]}}},
    ...      "comparisons": [{"a": "A", "b": "B", "metric": "f1", "p_b_better": .99, "p_a_better": .01,
    ...                       "decision": "B better"}], "sequential": [], "stopping": {"m_used": 3}}
    >>> print(conclusion(r))  # doctest: +NORMALIZE_WHITESPACE
    On 3×2 block-regularized cross-validation (6 folds per system), B has the higher F1: 83.00 against
    80.00 for A (3.00 points); the Bayes test gives P(B better) = 0.990, so the data favour B clearly.
    """
    m = report["m"]
    parts = [f"On {m}×2 block-regularized cross-validation ({2 * m} folds per system),"]
    sentences = []
    for c in report["comparisons"]:
        if c["metric"] != "f1":
            continue
        a, b = c["a"], c["b"]
        fa, fb = report["systems"][a]["f1"]["estimate"], report["systems"][b]["f1"]["estimate"]
        hi, lo = (b, a) if fb >= fa else (a, b)
        p = c["p_b_better"] if hi == b else c["p_a_better"]
        diff = 100 * (fb - fa)
        if p >= 0.99:
            strength = f"the data favour {hi} clearly"
        elif p >= 0.95:
            strength = f"the data favour {hi}"
        elif p >= 0.75:
            strength = f"{hi} is probably better, but the evidence is not strong"
        else:
            strength = "the difference is within the noise: neither system is shown to be better"
        text = (f"{hi} has the higher F1: {_pct(max(fa, fb))} against {_pct(min(fa, fb))} for {lo} "
                f"({abs(diff):.2f} points); the Bayes test gives P({hi} better) = {p:.3f}, so {strength}")
        seq = next((s for s in report.get("sequential", []) if s["a"] == a and s["b"] == b), None)
        if seq is not None:
            if seq["decision"] == "no decision":
                text += "; the sequential t-test does not reject equality"
            else:
                winner = b if seq["decision"] == "B better" else a
                text += f"; the sequential t-test also finds {winner} better"
        sentences.append(text)
    return " ".join(parts) + " " + ". ".join(sentences) + "."


def render_markdown(report: dict) -> str:
    """The ``report.md`` text of a comparison."""
    m, alpha = report["m"], report["alpha"]
    level = f"{100 * (1 - alpha):g}%"
    meta = report.get("meta", {})
    names = list(report["systems"])
    out = ["# textbcv comparison", ""]
    corpus = meta.get("corpus")
    if corpus:
        files = ", ".join(f"`{f['path']}`" for f in corpus["files"])
        method = meta.get("options", {}).get("split_method", "bcv")
        design = "block-regularized CV" if method in ("bcv", "bcv-select") else f"{method} m×2 CV"
        out += [f"Corpus: {files} ({corpus['format']}; {corpus['sentences']:,} sentences, {corpus['tokens']:,} tokens, "
                f"{corpus['gold_chunks']:,} gold chunks). Task: {meta.get('task')}. "
                f"Design: {m}×2 {design} (seed {meta.get('seed')}), {2 * m} folds per system.", ""]
    imported = meta.get("imported")
    if imported:
        parts = []
        for name, s in imported.get("systems", {}).items():
            how = "" if s.get("scheme") is None else \
                f" ({s['scheme'].upper()}, {'detected' if s.get('scheme_detected') else 'as given'})"
            parts.append(f"{name} from `{s['predictions']}`{how}")
        out += [f"Predictions imported with `textbcv evaluate`, not made by textbcv: {'; '.join(parts)}. "
                f"Splits: `{imported.get('splits', {}).get('path')}`. Each system's predictions are decoded into chunks "
                "and scored against the corpus's gold chunks.", ""]
    out += ["## Conclusion", "", report.get("conclusion") or conclusion(report), ""]
    out += [f"## Pooled scores with {level} credible intervals", "",
            "| system | precision | recall | F1 |", "|---|---|---|---|"]
    for n in names:
        s = report["systems"][n]
        out.append(f"| {n} | " + " | ".join(f"{_pct(s[k]['estimate'])} {_ci(s[k]['ci'])}" for k in METRICS) + " |")
    out += ["", "Estimates are the pooled micro-averaged scores over all folds; intervals are equal-tailed "
            f"{level} intervals of the correlation-corrected posteriors (variant {_variant(meta)}).", ""]
    out += ["## Bayes test", "", "| A | B | metric | P(B better) | P(A better) | decision |", "|---|---|---|---|---|---|"]
    for c in report["comparisons"]:
        out.append(f"| {c['a']} | {c['b']} | {LABELS[c['metric']]} | {c['p_b_better']:.4f} | {c['p_a_better']:.4f} | {c['decision']} |")
    if len(names) > 2:
        k = len(names) * (len(names) - 1) // 2
        out += ["", f"{k} pairs are compared: to keep the family-wise error at α = {alpha:g}, require "
                f"P(better) ≥ {1 - alpha / k:.4f} (α/k) before calling a difference."]
    seq = report.get("sequential") or []
    if seq:
        out += ["", "## Sequential t-test (per-fold F1 differences, B − A)", "",
                "| A | B | mean difference | CI | decision |", "|---|---|---|---|---|"]
        for s in seq:
            out.append(f"| {s['a']} | {s['b']} | {100 * s['estimate']:+.2f} | {_ci(s['ci'])} | {s['decision']} |")
    out += textbook_markdown(report)
    out += one_split_markdown(report)
    stop = report.get("stopping") or {}
    if stop.get("reason"):
        out += ["", f"Stopping: {stop['reason']} ({stop.get('folds_per_system')} folds per system)."]
    if report.get("heldout"):
        out += heldout_markdown(report)
    out += ["", "## Per-type scores (pooled over folds)", ""]
    types = sorted({t for n in names for t in report.get("per_type", {}).get(n, {})})
    if types:
        out += ["| type | " + " | ".join(f"{n} P / R / F1" for n in names) + " |", "|---" * (len(names) + 1) + "|"]
        for t in types:
            cells = []
            for n in names:
                c = report["per_type"][n].get(t)
                cells.append("–" if c is None else f"{_pct(c['precision'])} / {_pct(c['recall'])} / {_pct(c['f1'])}")
            out.append(f"| {t or '(untyped)'} | " + " | ".join(cells) + " |")
    sp = report.get("split") or {}
    q = report.get("split_quality") or {}
    if sp or q:
        out += ["", "## Split", ""]
    if sp:
        unit = ("documents, kept whole" if sp["unit"] == "document"
                else "sentences" + (" (exact duplicates kept together)" if sp.get("duplicates_together") else ""))
        out += [f"Units: {unit}" + (" (--group-by auto)" if sp.get("group_by") == "auto" else "") + "; balanced: "
                + (", ".join(sp["balance"]) or "nothing") + "."]
        out += [f"Note: {n}." for n in sp.get("notes", [])]
    if q:
        out += ["",
                f"Largest deviation of a training-set overlap from n/4: {q.get('overlap_max_deviation')} sentences.", ""]
        chi = q.get("chi2_per_df") or {}
        if chi:
            out += ["| measure | mean χ²/J | max χ²/J |", "|---|---|---|"]
            for k, v in chi.items():
                if v:
                    out.append(f"| {k} | {np.mean(v):.4f} | {np.max(v):.4f} |")
            out += ["", "χ²/J compares the distribution of a property between the two halves of a split; random "
                    "halving gives about 1, smaller is better balanced."]
    ff = report.get("fold_f1") or {}
    if ff:
        out += ["", "## Per-fold F1", "", "| fold | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
        for i in range(2 * m):
            out.append(f"| S{i // 2 + 1} {'→' if i % 2 == 0 else '←'} | " + " | ".join(_pct(ff[n][i]) for n in names) + " |")
    run = report.get("run") or {}
    if run and "folds_imported" in run:
        out += ["", f"Run: {run.get('seconds')} s, {run.get('folds_imported')} folds imported; textbcv {meta.get('textbcv')}."]
    elif run:
        out += ["", f"Run: {run.get('seconds')} s, {run.get('folds_trained')} folds trained, "
                f"{run.get('folds_resumed')} resumed; textbcv {meta.get('textbcv')}."]
    return "\n".join(out) + "\n"


def _variant(meta: dict) -> str:
    o = meta.get("options", {})
    v = o.get("variant", "thesis")
    return f"`{v}`, ρ1 = {o.get('rho1')}, ρ2 = {o.get('rho2')}" if v == "rho" else f"`{v}`"


def heldout_markdown(report: dict) -> list[str]:
    """The "Held-out test sets" section of ``report.md`` (lines)."""
    h = report["heldout"]
    level = f"{100 * (1 - report['alpha']):g}%"
    m = report["m"]
    out = ["", "## Held-out test sets", "",
           f"Every one of the {2 * m} fold models of each system also tagged these files. Held-out scores pool the "
           f"{2 * m} models' predictions (P / R / F1 of their summed counts); beside them the mean ± SD of the "
           f"{2 * m} models' F1 and the m×2 cross-validation estimate of F1 with its {level} interval; the gap is the "
           "estimate minus the held-out F1."]
    notes = []
    for f, info in h["files"].items():
        dup = info["duplicates"]
        out += ["", f"### {f}", "",
                f"{info['sentences']:,} sentences, {info['gold_chunks']:,} gold chunks"
                + (f"; {dup:,} of the sentences also occur in the corpus." if dup else "."), ""]
        if dup:
            out += [f"Warning: {dup:,} of the {info['sentences']:,} sentences of `{f}` also occur in the corpus, so "
                    "half of the models were trained on each of them; F1 without them is shown beside.", ""]
        head = "| system | held-out P / R / F1 |" + (" F1 without repeated sentences |" if dup else "")
        out += [head + f" models' F1 mean ± SD | m×2 F1 [{level} CI] | gap |",
                "|---" * (6 if dup else 5) + "|"]
        for n, per in h["systems"].items():
            r = per[f]
            p = r["pooled"]
            row = f"| {n} | {_pct(p['precision'])} / {_pct(p['recall'])} / {_pct(p['f1'])} |"
            if dup:
                row += f" {_pct(r['pooled_without_duplicates']['f1'])} |"
            row += (f" {_pct(r['models_f1']['mean'])} ± {_pct(r['models_f1']['sd'])} | "
                    f"{_pct(r['cv_f1']['estimate'])} {_ci(r['cv_f1']['ci'])} | {100 * r['gap']:+.2f} |")
            out.append(row)
            if r["outside_interval"]:
                notes.append(f"the cross-validation estimate for {n} is {abs(100 * r['gap']):.1f} points "
                             f"{'above' if r['gap'] > 0 else 'below'} what its models reach on {f}")
        pairs = [x for x in h["pairs"] if x["file"] == f]
        if pairs:
            b = h["bootstrap"]
            out += ["", f"| A | B | ΔF1 (B − A) | bootstrap {level} CI | resamples with B better |"
                    + (" ΔF1 without repeated sentences |" if dup else ""), "|---" * (6 if dup else 5) + "|"]
            for x in pairs:
                out.append(f"| {x['a']} | {x['b']} | {100 * x['delta_f1']:+.2f} | "
                           f"[{100 * x['ci'][0]:+.2f}, {100 * x['ci'][1]:+.2f}] | {x['p_b_better']:.3f} |"
                           + (f" {100 * x['delta_f1_without_duplicates']:+.2f} |" if dup else ""))
            out += ["", f"Paired bootstrap over the file's sentences ({b['resamples']:,} resamples, seed {b['seed']}): "
                    f"{b['what']}."]
    if notes:
        out += ["", "Gap larger than the interval: " + "; ".join(notes) + "."]
    return out


def _posteriors(report: dict) -> dict:
    m = report["m"]
    variant = report.get("meta", {}).get("options", {}).get("variant", "thesis")
    out = {}
    for n, folds in report["fold_counts"].items():
        counts = np.array([[f["tp"], f["fp"], f["fn"]] for f in folds], dtype=float)
        opts = report.get("meta", {}).get("options", {})
        out[n], _ = system_posteriors(counts, m, variant=variant, rho1=opts.get("rho1"), rho2=opts.get("rho2"),
                                      alpha=report["alpha"])
    return out


def write_plots(report: dict, out: str | os.PathLike) -> list[Path]:
    """Write the PNG plots of a comparison into ``out``; return their paths.

    ``posteriors.png``: posterior densities of precision, recall and F1 per
    system with their credible intervals; ``f1_difference.png``: the
    posterior of F1(B) − F1(A) for each pair, P(B better) shaded;
    ``fold_f1.png``: per-fold F1 of every system.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from textbcv._io import atomic_write

    out = Path(out)
    posts = _posteriors(report)
    names = list(report["systems"])
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    paths = []

    def save(fig, name):
        with atomic_write(out / name, mode="wb", encoding=None) as f:
            fig.savefig(f, format="png", dpi=110, metadata={"Software": None})
        plt.close(fig)
        paths.append(out / name)

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for ax, metric in zip(axes, METRICS):
        lo = min(posts[n][metric].ppf(1e-4) for n in names)
        hi = max(posts[n][metric].ppf(1 - 1e-4) for n in names)
        if metric == "f1" and report.get("heldout"):  # the held-out F1 lines must be in view
            vals = [r["pooled"]["f1"] for per in report["heldout"]["systems"].values() for r in per.values()]
            lo, hi = min(lo, *vals), max(hi, *vals)
        pad = 0.1 * (hi - lo)
        x = np.linspace(max(0.0, lo - pad), min(1.0, hi + pad), 600)
        for i, n in enumerate(names):
            p = posts[n][metric]
            c = colors[i % len(colors)]
            ax.plot(100 * x, p.pdf(x) / 100, color=c, label=n)
            a, b = p.interval(report["alpha"])
            xs = x[(x >= a) & (x <= b)]
            ax.fill_between(100 * xs, p.pdf(xs) / 100, color=c, alpha=0.15)
        if metric == "f1" and report.get("heldout"):
            styles = ("--", ":", "-.")
            for k, f in enumerate(report["heldout"]["files"]):
                for i, n in enumerate(names):
                    v = 100 * report["heldout"]["systems"][n][f]["pooled"]["f1"]
                    ax.axvline(v, color=colors[i % len(colors)], ls=styles[k % len(styles)], lw=1,
                               label=f"{n} on {Path(f).name}")
        ax.set_xlabel(f"{LABELS[metric]} (%)")
        ax.set_ylabel("posterior density")
        ax.set_title(f"{LABELS[metric]}")
        ax.legend(frameon=False)
    fig.suptitle(f"Posteriors of precision, recall and F1 ({report['m']}×2 BCV; shaded: "
                 f"{100 * (1 - report['alpha']):g}% credible intervals)")
    fig.tight_layout()
    save(fig, "posteriors.png")

    pairs = [c for c in report["comparisons"] if c["metric"] == "f1"]
    fig, axes = plt.subplots(1, len(pairs), figsize=(5.2 * len(pairs), 3.8), squeeze=False)
    rng = np.random.default_rng(report.get("meta", {}).get("seed", 0))
    for ax, c in zip(axes[0], pairs):
        d = posts[c["b"]]["f1"].sample(rng, 200_000) - posts[c["a"]]["f1"].sample(rng, 200_000)
        d = 100 * d
        hist, edges = np.histogram(d, bins=160, density=True)
        mid = (edges[:-1] + edges[1:]) / 2
        ax.plot(mid, hist, color="black", lw=1)
        ax.fill_between(mid[mid > 0], hist[mid > 0], color=colors[1], alpha=0.4,
                        label=f"P({c['b']} better) = {c['p_b_better']:.3f}")
        ax.fill_between(mid[mid <= 0], hist[mid <= 0], color=colors[0], alpha=0.4,
                        label=f"P({c['a']} better) = {c['p_a_better']:.3f}")
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel(f"F1({c['b']}) − F1({c['a']}) (points)")
        ax.set_ylabel("posterior density")
        verdict = {"B better": f"{c['b']} better", "A better": f"{c['a']} better"}.get(c["decision"], c["decision"])
        ax.set_title(f"{c['b']} vs {c['a']}: {verdict}")
        ax.legend(frameon=False, fontsize=8)
    fig.tight_layout()
    save(fig, "f1_difference.png")

    ff = report["fold_f1"]
    fig, ax = plt.subplots(figsize=(7, 3.8))
    m = report["m"]
    x = np.arange(2 * m)
    for i, n in enumerate(names):
        ax.plot(x, 100 * np.array(ff[n]), marker="o", color=colors[i % len(colors)], label=n)
        ax.axhline(100 * report["systems"][n]["f1"]["estimate"], color=colors[i % len(colors)], ls=":", lw=0.8)
    ax.set_xticks(x, [f"S{j // 2 + 1}{'→' if j % 2 == 0 else '←'}" for j in x])
    ax.set_xlabel("fold (split, direction)")
    ax.set_ylabel("F1 (%)")
    ax.set_title("Per-fold F1 (dotted: pooled F1)")
    ax.legend(frameon=False)
    fig.tight_layout()
    save(fig, "fold_f1.png")
    return paths


# ----------------------------------------------------------------------------- textbook tests

#: Why the textbook tests and the Bayes test can disagree (one line, in the report and ``textbcv test --classic``).
DISAGREE = ("Why they may disagree with the Bayes test: these tests judge the spread of the paired per-fold "
            "differences with few degrees of freedom, while the Bayes test compares each system's pooled chunk "
            "counts as if the two systems had been tested on different sentences — a small but steady difference "
            "can be clear to one and not to the other.")

_SYMBOL = {"paired_t_5x2cv": "t", "combined_t_5x2cv": "t", "blocked_t_3x2": "t", "corrected_resampled_t": "t",
           "paired_t": "t", "t": "t", "combined_f_5x2cv": "F", "iman_davenport": "F", "friedman_chi2": "χ²",
           "mcnemar_chi2": "χ²", "wilcoxon": "W", "mcnemar_exact": "min(b, c)", "binomial": "error rate"}


def format_statistic(r: dict) -> str:
    """``t(5) = 1.2345``-style text of a textbook test result (a ``ClassicResult.to_dict()``); its reason if undefined.

    Examples
    --------
    >>> format_statistic({"test": "combined_f_5x2cv", "statistic": 2.5556, "df": [10, 5], "undefined": None})
    'F(10, 5) = 2.556'
    >>> format_statistic({"test": "wilcoxon", "statistic": None, "df": None, "undefined": "identical systems"})
    'undefined: identical systems'
    """
    if r.get("undefined"):
        return f"undefined: {r['undefined']}"
    df = r.get("df")
    df_text = "" if df is None else f"({', '.join(str(x) for x in df)})" if isinstance(df, list) else f"({df})"
    return f"{_SYMBOL.get(r['test'], 'statistic')}{df_text} = {r['statistic']:.4g}"


def textbook_tests(fold_values: dict, m: int, alpha: float = 0.05) -> dict:
    """Every textbook test on per-fold values ``{system: 2m values}``: each pair (B after A), Friedman for ≥ 3 systems.

    Returns ``{"m", "pairs": [{"a", "b", "tests", "not_applicable"}], "friedman"}`` (``friedman`` None
    for two systems), JSON-ready.
    """
    from textbcv.stats import classic

    names = list(fold_values)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            pairs.append({"a": a, "b": b, **classic.mx2_tests(fold_values[a], fold_values[b]).to_dict()})
    friedman = None
    if len(names) >= 3:
        values = np.array([fold_values[n] for n in names], dtype=float).T
        friedman = classic.friedman(values, alpha=alpha).to_dict()
    return {"m": m, "pairs": pairs, "friedman": friedman}


def format_p(r: dict) -> str:
    """A textbook test's p-value for a table: 4 decimals, tiny ones in e-notation (never printed as 0), – if undefined.

    Examples
    --------
    >>> format_p({"p_value": 0.03125}), format_p({"p_value": 2.3e-11}), format_p({"p_value": None})
    ('0.0312', '2.3e-11', '–')
    """
    p = r.get("p_value")
    return "–" if p is None else f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def textbook_markdown(report: dict) -> list[str]:
    """The short "Textbook tests" section of ``report.md`` (from ``fold_f1``; empty without it)."""
    ff = report.get("fold_f1") or {}
    if len(ff) < 2:
        return []
    t = textbook_tests(ff, report["m"], report["alpha"])
    out = ["", "## Textbook tests (per-fold F1 differences, B − A)", "",
           "| A | B | test | statistic | p-value |", "|---|---|---|---|---|"]
    for pair in t["pairs"]:
        for r in pair["tests"]:
            out.append(f"| {pair['a']} | {pair['b']} | {r['name']} | {format_statistic(r)} | {format_p(r)} |")
    fr = t["friedman"]
    if fr:
        names = list(ff)
        for r in (fr["chi2"], fr["iman_davenport"]):
            out.append(f"| all {len(names)} | | {r['name']} over the {2 * report['m']} folds | {format_statistic(r)} | {format_p(r)} |")
    out.append("")
    skipped = t["pairs"][0]["not_applicable"]
    if skipped:
        out.append(f"Not run at m = {report['m']}: " + "; ".join(f"{s['test']} ({s['reason'].split(';')[0]})" for s in skipped) + ".")
        out.append("")
    out.append(DISAGREE)
    return out


def one_split_markdown(report: dict) -> list[str]:
    """The "What one split would claim" section of ``report.md`` (lines), from ``report["one_split"]``.

    Examples
    --------
    >>> one_split_markdown({"one_split": {"available": False, "reason": "no counts"}})[-1]
    'Not available for this run: no counts.'
    """
    out = ["", "## What one split would claim", ""]
    o = report.get("one_split")
    if o is None:
        return out + ["Not computed: this report was written by an earlier textbcv version. `textbcv report DIR "
                      "--redraw` computes it from `folds.jsonl` without training, when the folds hold per-sentence "
                      "counts."]
    if not o.get("available"):
        return out + [f"Not available for this run: {o['reason']}."]
    fold, alpha = o["fold"], o["alpha"]
    p_better = {(c["a"], c["b"]): c["p_b_better"] for c in report.get("comparisons", []) if c.get("metric") == "f1"}
    out += [f"Papers usually compare two taggers on one train/test split, with a paired test over its test sentences. "
            f"On this run's first fold alone — {fold['label']}: split {fold['split'] + 1} trained on its first half "
            f"and tested on the {o['sentences']:,} sentences of the second (`{fold['id']}`) — those tests would claim:",
            "", "| A | B | ΔF1 (B − A) | paired bootstrap p | approximate randomization p | m×2: P(B better) |",
            "|---|---|---|---|---|---|"]
    for x in o["pairs"]:
        pb = p_better.get((x["a"], x["b"]))
        out.append(f"| {x['a']} | {x['b']} | {100 * x['delta_f1']:+.2f} | {format_p(x['bootstrap'])} | "
                   f"{format_p(x['randomization'])} | {'–' if pb is None else f'{pb:.4f}'} |")
    k = len(o["pairs"][0]["folds"]) if o["pairs"] else 0
    out += ["", f"The same tests on each of the {k} folds alone:", "",
            f"| A | B | B ahead | bootstrap p < {alpha:g} | randomization p < {alpha:g} |", "|---|---|---|---|---|"]
    opposite = []
    for x in o["pairs"]:
        f, cells = x["folds"], []
        for key in ("bootstrap_p", "randomization_p"):
            wins_a = sum(r[key] < alpha and r["delta_f1"] < 0 for r in f)
            wins_b = sum(r[key] < alpha and r["delta_f1"] > 0 for r in f)
            cells.append(f"{wins_a + wins_b} of {k}: {x['a']} {wins_a}, {x['b']} {wins_b}")
            if wins_a and wins_b and (x["a"], x["b"]) not in opposite:
                opposite.append((x["a"], x["b"]))
        out.append(f"| {x['a']} | {x['b']} | {sum(r['delta_f1'] > 0 for r in f)} of {k} | " + " | ".join(cells) + " |")
    for a, b in opposite:
        out += ["", f"Tested on one split, {a} would have been found significantly better on some folds and {b} on "
                "others: opposite conclusions from the same corpus and the same two systems."]
    out += ["", f"Paired bootstrap: {o['resamples']:,} resamples of the fold's test sentences, p-value as sacrebleu's "
            f"paired bootstrap computes it; approximate randomization: {o['shuffles']:,} shuffles, each swapping the "
            "two systems' output of every sentence with probability ½, p = (c + 1)/(R + 1) (Riezler & Maxwell 2005); "
            f"seed {o['seed']}; chunk F1 recomputed from the sentences' counts. Both tests keep the trained models "
            "fixed and resample only the test sentences: they ignore the variance that comes from the choice of "
            "training set, which the m×2 design measures. This is what one split would claim, not this report's "
            "answer, which is the Bayes test above."]
    return out


def write_cd_diagram(names: list[str], average_ranks: list[float], cd: float, path: str | os.PathLike,
                     title: str | None = None) -> Path:
    """Demšar's critical-difference diagram: average ranks on an axis, the Nemenyi CD as a bar, and a thick
    line under each group of systems whose ranks differ by less than the CD. Returns ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from textbcv._io import atomic_write

    k = len(names)
    order = sorted(range(k), key=lambda i: (average_ranks[i], names[i]))
    ranks = [average_ranks[i] for i in order]
    groups, last = [], -1
    for i in range(k):
        j = max(j for j in range(i, k) if ranks[j] - ranks[i] <= cd + 1e-12)
        if j > i and j > last:
            groups.append((i, j))
            last = j
    half = (k + 1) // 2
    height = 1.2 + 0.3 * max(half, k - half) + 0.15 * len(groups)
    fig, ax = plt.subplots(figsize=(7, height))
    ax.set_xlim(0.5, k + 0.5)
    ax.set_ylim(-(0.35 * max(half, k - half) + 0.2 * len(groups) + 0.3), 1.0)
    ax.axis("off")
    ax.plot([1, k], [0, 0], color="black", lw=1)
    for x in range(1, k + 1):
        ax.plot([x, x], [0, 0.08], color="black", lw=1)
        ax.text(x, 0.14, str(x), ha="center", va="bottom", fontsize=9)
    ax.text((1 + k) / 2, 0.42, "average rank (1 = best)", ha="center", fontsize=9)
    ax.plot([1, 1 + cd], [0.75, 0.75], color="black", lw=2)
    ax.text(1 + cd / 2, 0.8, f"CD = {cd:.3f}", ha="center", va="bottom", fontsize=9)
    for pos, (i, r) in enumerate(zip(order, ranks)):
        left = pos < half
        depth = -0.35 * ((pos if left else k - 1 - pos) + 1) - 0.2 * len(groups)
        xend = 0.6 if left else k + 0.4
        ax.plot([r, r, xend], [0, depth, depth], color="black", lw=0.8)
        ax.text(xend + (-0.02 if left else 0.02), depth, f"{names[i]} ({r:.2f})", ha="right" if left else "left",
                va="center", fontsize=9)
    for g, (i, j) in enumerate(groups):
        y = -0.12 - 0.18 * g
        ax.plot([ranks[i] - 0.03, ranks[j] + 0.03], [y, y], color="black", lw=3, solid_capstyle="round")
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    path = Path(path)
    with atomic_write(path, mode="wb", encoding=None) as f:
        fig.savefig(f, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path
