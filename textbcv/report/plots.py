"""The PNG plots of a comparison and Demšar's critical-difference diagram, drawn with matplotlib (Agg).

The same report gives byte-identical files: the PNG metadata holds no software version.
"""

from __future__ import annotations

import os
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from textbcv._io import atomic_write, atomic_write_all
from textbcv.report.model import CompareReport
from textbcv.report.numbers import LABELS, METRICS, fmt_p, p_is, points
from textbcv.report.ranking import identical_groups, p_row_better, ranking
from textbcv.report.verdicts import better_label, difference_cell, interval_label, verdict_line
from textbcv.stats.bayes import difference_density
from textbcv.stats.compare import system_posteriors

__all__ = ["PLOT_TITLES", "PLOT_CAPTIONS", "plot_names", "write_plots", "write_cd_diagram",
           "write_corpora_plot"]

#: Short titles of the plots (the alternative text of their links in ``report.md``).
PLOT_TITLES = {"posteriors.png": "Posteriors of precision, recall and F1",
               "f1_difference.png": "Posterior of the F1 difference of each pair",
               "pairwise.png": "P(row better than column) on F1", "fold_f1.png": "Per-fold F1"}
#: What each plot shows (its caption in ``report.md``).
PLOT_CAPTIONS = {
    "posteriors.png": "Posterior densities of precision, recall and F1 of each system (percent), the credible "
                      "interval shaded.",
    "f1_difference.png": "Exact posterior density of F1(B) − F1(A) for each pair, in F1 points: the area right of 0 "
                         "(of the rope, with --rope) is P(B better), left of it P(A better), and the band of the rope "
                         "P(equivalent); each title gives Δ with the interval the rule decides by.",
    "pairwise.png": "P(row better than column) on F1 for every pair; bold cells reach the threshold.",
    "fold_f1.png": "Per-fold F1 of each system (dotted: pooled F1).",
}


def plot_names(report: CompareReport) -> list[str]:
    """The PNG files :func:`write_plots` draws for ``report``, in the order ``report.md`` shows them.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
        ``posteriors.png``, ``f1_difference.png``, ``pairwise.png`` (three or more systems), ``fold_f1.png``.
    """
    names = ["posteriors.png", "f1_difference.png"]
    if len(report.systems) >= 3:
        names.append("pairwise.png")
    return names + ["fold_f1.png"]


def _posteriors(report: CompareReport) -> dict:
    """Every system's posterior of every metric: the answer's, else recomputed from the fold counts."""
    opts = report.options
    out = {}
    for n, folds in report.fold_counts.items():
        held = {k: p.distribution for k, p in report.systems.get(n, {}).items() if p.distribution is not None}
        if len(held) == len(METRICS):
            out[n] = held
            continue
        counts = np.array([[f["tp"], f["fp"], f["fn"]] for f in folds], dtype=float)
        out[n], _ = system_posteriors(counts, report.m, variant=report.variant, rho1=opts.get("rho1"),
                                      rho2=opts.get("rho2"), alpha=report.alpha, prior=report.prior or 1.0,
                                      deff=(report.design_effects or {}).get(n))
    return out


def _grid(n: int, width: float, height: float, max_cols: int = 3):
    """Figure and axes of ``n`` panels in rows of at most ``max_cols``."""
    import matplotlib.pyplot as plt

    cols = min(n, max_cols)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    for ax in axes.ravel()[n:]:
        ax.axis("off")
    return fig, axes.ravel()[:n]


def write_plots(report: CompareReport, out: str | os.PathLike) -> list[Path]:
    """Write the PNG plots of a comparison (:func:`plot_names`) into ``out``, each file replaced atomically.

    Parameters
    ----------
    report : CompareReport
    out : str or path-like
        A directory.

    Returns
    -------
    list of Path
        In the order of :func:`plot_names`.
    """
    atomic_write_all({Path(out) / name: data for name, data in plot_bytes(report).items()})
    return [Path(out) / name for name in plot_names(report)]


def plot_bytes(report: CompareReport) -> dict[str, bytes]:
    """The same PNGs as :func:`write_plots`, as file name → bytes.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    dict of str to bytes
    """
    import matplotlib

    matplotlib.use("Agg")
    look = _Look.of(report)
    draw = {"posteriors.png": lambda: _posteriors_figure(report, look),
            "f1_difference.png": lambda: _difference_figure(report, look),
            "pairwise.png": lambda: _pairwise_figure(report),
            "fold_f1.png": lambda: _fold_f1_figure(report, look)}
    return {name: _png(draw[name]()) for name in plot_names(report)}


def _png(fig) -> bytes:
    """``fig`` as PNG bytes without the software's version; the figure closed."""
    import io

    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


@dataclass(frozen=True)
class _Look:
    """How each system is drawn: its colour, label and line style, and whether the systems are many."""

    posteriors: dict
    color: dict[str, str]
    label: dict[str, str]
    style: dict[str, object]
    many: bool

    @classmethod
    def of(cls, report: CompareReport) -> _Look:
        import matplotlib.pyplot as plt

        names = report.names
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        label: dict[str, str] = {n: n for n in names}
        style: dict[str, object] = {n: "-" for n in names}
        # a system with the same counts in every fold as an earlier one is drawn dashed over it, and says so
        for group in identical_groups(report):
            for n in group[1:]:
                label[n], style[n] = f"{n} (= {group[0]})", (0, (4, 3))
        return cls(_posteriors(report), {n: colors[i % len(colors)] for i, n in enumerate(names)}, label, style,
                   len(names) >= 3)


def _save(fig, path: Path) -> Path:
    """Write ``fig`` to ``path`` as a PNG without the software's version."""
    with atomic_write(path, mode="wb", encoding=None) as f:
        f.write(_png(fig))
    return path


def _posteriors_figure(report: CompareReport, look: _Look):
    """``posteriors.png``: one panel per metric, every system's density, the held-out F1 lines."""
    import matplotlib.pyplot as plt

    names, posts, color, label, style, many = (report.names, look.posteriors, look.color, look.label, look.style,
                                               look.many)
    rows_below = (len(names) * (1 + len(report.heldout["files"])) + 1) // 2 if report.heldout else 0
    fig, axes = plt.subplots(1, 3, figsize=(13, (4.2 if many else 3.8) + 0.22 * rows_below))
    for ax, metric in zip(axes, METRICS):
        shown = [n for n in names if report.systems[n][metric].estimate is not None]
        if not shown:
            ax.text(0.5, 0.5, f"{LABELS[metric]} undefined for every system", ha="center", va="center",
                    transform=ax.transAxes)
            ax.set_title(LABELS[metric])
            continue
        lo = min(posts[n][metric].ppf(1e-4) for n in shown)
        hi = max(posts[n][metric].ppf(1 - 1e-4) for n in shown)
        if metric == "f1" and report.heldout:  # the held-out F1 lines must be in view
            vals = [r["pooled"]["f1"] for per in report.heldout["systems"].values() for r in per.values()
                    if r["pooled"]["f1"] is not None]
            lo, hi = min(lo, *vals), max(hi, *vals)
        pad = 0.1 * (hi - lo)
        x = np.linspace(max(0.0, lo - pad), min(1.0, hi + pad), 600)
        for n in shown:
            p = posts[n][metric]
            ax.plot(100 * x, p.pdf(x) / 100, color=color[n], label=label[n], ls=style[n])
            ci = report.systems[n][metric].ci
            assert ci is not None  # shown: defined, with its interval
            lo_ci, hi_ci = ci
            xs = x[(x >= lo_ci) & (x <= hi_ci)]
            ax.fill_between(100 * xs, p.pdf(xs) / 100, color=color[n], alpha=0.15)
        if metric == "f1" and report.heldout:
            styles = ("--", ":", "-.")
            for k, f in enumerate(report.heldout["files"]):
                for n in names:
                    v = report.heldout["systems"][n][f]["pooled"]["f1"]
                    if v is not None:
                        ax.axvline(100 * v, color=color[n], ls=styles[k % len(styles)], lw=1,
                                   label=f"{n} on {Path(f).name}")
        missing = [n for n in names if n not in shown]
        if missing:
            ax.text(0.02, 0.97, "undefined: " + "; ".join(
                f"{n} ({report.systems[n][metric].undefined})" for n in missing),
                transform=ax.transAxes, va="top", fontsize=7)
        ax.set_xlabel(f"{LABELS[metric]} (%)")
        ax.set_ylabel("posterior density (per point)")
        ax.set_title(LABELS[metric])
        if metric == "f1" and report.heldout:  # below the panel: a legend never covers the held-out lines
            ax.legend(frameon=False, fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
        elif not many:
            ax.legend(frameon=False, fontsize=8)
    if many:
        handles = [plt.Line2D([], [], color=color[n], label=label[n], ls=style[n]) for n in names]
        fig.legend(handles=handles, loc="lower center", ncol=min(len(names), 6), frameon=False)
    fig.suptitle(f"Posteriors of precision, recall and F1 ({report.m}×2 BCV; shaded: "
                 f"{100 * (1 - report.alpha):g}% credible intervals)")
    fig.tight_layout(rect=(0, 0.08 if many else 0, 1, 1))
    return fig


def _difference_figure(report: CompareReport, look: _Look):
    """``f1_difference.png``: one panel per pair, the posterior density of F1(B) − F1(A) in points."""
    posts, color, rope = look.posteriors, look.color, report.rope_points
    pairs = report.comparisons_of("f1")
    fig, axes = _grid(len(pairs), 5.2, 3.9)
    r = 0.0 if rope is None else rope / 100
    for ax, c in zip(axes, pairs):
        a, b = c.a, c.b
        title = f"F1: {a} vs {b}"  # the order typed; the axis and every difference are B − A
        if c.undefined:
            ax.text(0.5, 0.5, c.undefined, ha="center", va="center", transform=ax.transAxes, wrap=True)
            ax.set_title(title, fontsize=10)
            ax.set_xticks([]), ax.set_yticks([])
            continue
        paired = c.difference.paired if c.difference is not None else None
        if paired is not None and paired.sd == 0:  # the same counts on every sentence: no density to draw
            paired = None
        if paired is not None:  # the paired posterior of the difference (a Student t)
            lo, hi = paired.interval(0.002)
            lo, hi = max(lo, -1.0), min(hi, 1.0)
        else:
            pa, pb = posts[a]["f1"], posts[b]["f1"]
            mean, sd = pb.mean() - pa.mean(), float(np.sqrt(pa.var() + pb.var()))
            lo, hi = max(mean - 4.5 * sd, -1.0), min(mean + 4.5 * sd, 1.0)
        lo, hi = min(lo, -r), max(hi, r)  # 0 and the rope always in view
        pad = 0.04 * (hi - lo)
        x = np.union1d(np.linspace(lo - pad, hi + pad, 1201), [-r, 0.0, r])
        y = (paired.density(x) if paired is not None else difference_density(pa, pb, x)) / 100  # per F1 point
        px = 100 * x
        ax.plot(px, y, color="black", lw=1)
        right, left = x >= r, x <= -r
        ax.fill_between(px[right], y[right], color=color[b], alpha=0.45,
                        label=f"{better_label(c, 'b', rope)} {p_is(c.p_b_better)}")
        ax.fill_between(px[left], y[left], color=color[a], alpha=0.45,
                        label=f"{better_label(c, 'a', rope)} {p_is(c.p_a_better)}")
        if rope is not None:
            band = (x >= -r) & (x <= r)
            ax.fill_between(px[band], y[band], color="grey", alpha=0.35,
                            label=f"P(equivalent, ±{rope:g}) {p_is(c.p_equivalent)}")
            ax.axvspan(-rope, rope, color="grey", alpha=0.08, lw=0)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel(f"F1({b}) − F1({a}) (points)")
        ax.set_ylabel("posterior density (per point)")
        call = verdict_line(c, report) + (f" ({'; '.join(x.mark for x in c.cautions)})" if c.cautions else "")
        shown = f"Δ {difference_cell(c)} points, {interval_label(report)}"
        ax.set_title(title + "\n" + textwrap.fill(call, 62) + "\n" + shown, fontsize=9)
        ax.legend(frameon=False, fontsize=7.5)
    fig.tight_layout()
    return fig


def _pairwise_figure(report: CompareReport):
    """``pairwise.png``: P(row better than column) on F1, rows and columns by pooled F1, clear calls in bold."""
    import matplotlib.pyplot as plt

    tau, rope = report.threshold, report.rope_points
    order = [x["name"] for x in ranking(report)]
    k = len(order)
    mat = np.full((k, k), np.nan)
    for i, row in enumerate(order):
        for j, col in enumerate(order):
            if i != j:
                p = p_row_better(report, row, col)
                mat[i, j] = np.nan if p is None else p
    fig, ax = plt.subplots(figsize=(1.3 * k + 2.6, 1.0 * k + 1.6))
    im = ax.imshow(mat, cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            p = mat[i, j]
            clear = not np.isnan(p) and p >= tau and p > mat[j, i]
            ax.text(j, i, "—" if np.isnan(p) else fmt_p(float(p)), ha="center", va="center", fontsize=9,
                    fontweight="bold" if clear else "normal",
                    color="white" if not np.isnan(p) and abs(p - 0.5) > 0.35 else "black")
    ax.set_xticks(range(k), order, rotation=30, ha="right")
    ax.set_yticks(range(k), order)
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    by = f" by > {points(rope)}" if rope is not None else ""
    ax.set_title(f"P(row better than column{by}) on F1\nbold: ≥ {tau:g}, called better", fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    fig.tight_layout()
    return fig


def _fold_f1_figure(report: CompareReport, look: _Look):
    """``fold_f1.png``: every system's per-fold F1, its pooled F1 dotted."""
    import matplotlib.pyplot as plt

    names, color, label, style, many = report.names, look.color, look.label, look.style, look.many
    ff = report.fold_f1
    fig, ax = plt.subplots(figsize=(8.5 if many else 7, 3.8))
    x = np.arange(2 * report.m)
    for i, n in enumerate(names):
        # with many systems, a small sideways offset keeps equal values apart
        shift = (i - (len(names) - 1) / 2) * 0.06 if many else 0.0
        ax.plot(x + shift, 100 * np.array(ff[n]), marker="o", ms=4, color=color[n], label=label[n], ls=style[n])
        est = report.systems[n]["f1"].estimate
        if est is not None:
            ax.axhline(100 * est, color=color[n], ls=":", lw=0.8)
    ax.set_xticks(x, [f"S{j // 2}{'→' if j % 2 == 0 else '←'}" for j in x])
    ax.set_xlabel("fold (split, direction)")
    ax.set_ylabel("F1 (%)")
    ax.set_title("Per-fold F1 (dotted: pooled F1)")
    if many:
        ax.legend(frameon=False, fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    else:
        ax.legend(frameon=False)
    fig.tight_layout()
    return fig


def write_cd_diagram(names: list[str], average_ranks: list[float], cd: float, path: str | os.PathLike,
                     title: str | None = None) -> Path:
    """Demšar's critical-difference diagram: average ranks, the Nemenyi CD, and lines joining groups closer than it.

    Parameters
    ----------
    names : list of str
    average_ranks : list of float
        Each system's average rank (1 = best), in the order of ``names``.
    cd : float
        In ranks.
    path : str or path-like
        Replaced atomically.
    title : str or None

    Returns
    -------
    Path
        ``path``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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
    return _save(fig, Path(path))


def write_corpora_plot(answer: dict, path: str | os.PathLike) -> Path:
    """A forest plot of an answer across corpora (:func:`textbcv.comparison.corpora.across_corpora`).

    Parameters
    ----------
    answer : dict
    path : path

    Returns
    -------
    Path
        ``path``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pairs = answer["pairs"]
    n = len(answer["corpora"])
    fig, axes = plt.subplots(len(pairs), 1, figsize=(7, 0.6 * (n + 2) * len(pairs) + 0.8), squeeze=False)
    for ax, p in zip(axes[:, 0], pairs):
        rows = list(range(n + 1, 1, -1))
        for k, (y, s, c) in enumerate(zip(p["estimates"], p["sds"], p["per_corpus"])):
            ax.errorbar(100 * y, rows[k] + 0.15, xerr=196 * s, fmt="o", color="0.6", capsize=3,
                        label="the corpus's own run (95%)" if k == 0 else None)
            lo, hi = c["interval"]
            ax.errorbar(100 * c["mean"], rows[k] - 0.15, xerr=[[100 * (c["mean"] - lo)], [100 * (hi - c["mean"])]],
                        fmt="s", color="black", capsize=3,
                        label="the corpus, pooled with the others (hierarchical)" if k == 0 else None)
        lo, hi = p["mu_interval"]
        ax.fill([100 * lo, 100 * p["mu"], 100 * hi, 100 * p["mu"]], [1, 1.25, 1, 0.75], color="tab:blue")
        ax.axvline(0, color="0.3", lw=0.8)
        if p.get("rope"):
            ax.axvspan(-100 * p["rope"], 100 * p["rope"], color="0.9", zorder=0)
        ax.set_yticks([*rows, 1], [*answer["corpora"], "overall"])
        ax.set_xlabel(f"ΔF1, {p['b']} − {p['a']} (points)")
        by = f" by > {100 * p['rope']:g} points" if p.get("rope") else ""
        ax.set_title(f"{p['a']} vs {p['b']}: P({p['b']} better{by}) = {p['p_b_better']:.3f} overall, "
                     f"{p['p_new_b_better']:.3f} on a new corpus", fontsize=9)
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
