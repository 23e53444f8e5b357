"""``textbcv components RUN RUN RUN ... --system S``: measure ρ1 and ρ2 for ``--variant rho``."""

from __future__ import annotations

import argparse

from textbcv._io import dumps_json
from textbcv.errors import InputError

__all__ = ["register", "run", "render"]

#: (field, label) of the printed table, in order
ROWS = (("mean", "mean of the m×2 estimates"), ("sigma2", "σ²  variance of one fold's score"),
        ("omega", "ω   covariance, the two folds of a split"), ("gamma", "γ   covariance, folds of different splits"),
        ("rho1", "ρ1 = ω/σ²"), ("rho2", "ρ2 = γ/σ²"), ("var_mx2", "Var of the m×2 estimate"),
        ("count_factor", "c = 1/(1 + ρ1 + (2m − 2)ρ2)"))


def register(sub) -> None:
    """Add the subcommand's parser to ``sub``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser.
    """
    p = sub.add_parser("components", help="measure ρ1 and ρ2 (for --variant rho) from runs on independent data sets",
                       description="Variance components of a system's per-fold score from runs of textbcv compare or "
                       "evaluate on independently drawn data sets (R ≥ 3; e.g. disjoint samples of documents of one "
                       "source): σ², ω, γ, ρ1, ρ2, the variance of the m×2 estimate and the count factor c, with "
                       "bootstrap intervals over the runs, and the textbcv test options --variant rho --rho1 --rho2 "
                       "that use them. Runs on one corpus with other seeds are refused: they measure split noise, "
                       "not the variance across data sets.")
    p.add_argument("runs", nargs="+", metavar="RUN", help="run directories (or their folds.jsonl), one per data set")
    p.add_argument("--system", required=True, help="the system whose fold scores are taken")
    p.add_argument("--minus", default=None, metavar="SYSTEM",
                   help="take the fold differences score(--system) − score(SYSTEM) instead (default: none)")
    p.add_argument("--metric", default="f1", choices=("f1", "precision", "recall"), help="score (default f1)")
    p.add_argument("--m", type=int, default=None, help="use the first m splits of every run (default: the smallest m)")
    p.add_argument("--confidence", type=float, default=0.95, help="level of the intervals (default 0.95)")
    p.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.set_defaults(func=run)


def _fmt(x: float) -> str:
    return "nan" if x != x else (f"{x:.4g}" if abs(x) < 1e-3 and x != 0 else f"{x:.4f}")


def render(res) -> str:
    """The table, the options for ``textbcv test`` and the caveats, as printed.

    Parameters
    ----------
    res : RunComponents
        :func:`textbcv.comparison.components.run_components`'s answer.

    Returns
    -------
    str
        The text, without a final newline.
    """
    vc = res.components
    lines = [f"Variance components of {res.score} over R = {vc.R} runs (m = {vc.m}; "
             f"{100 * vc.confidence:g}% bootstrap intervals over the runs, {vc.n_resamples} resamples):", ""]
    width = max(len(label) for _, label in ROWS)
    for field, label in ROWS:
        e = getattr(vc, field)
        lines.append(f"  {label.ljust(width)}  {_fmt(e.value)}  [{_fmt(e.low)}, {_fmt(e.high)}]")
    r1, r2 = res.rho_options()
    lines += ["", f"Use them on a comparison: textbcv test RUN --variant rho --rho1 {r1:.3f} --rho2 {r2:.3f}"]
    clipped = [n for n, v, w in (("ρ1", vc.rho1.value, r1), ("ρ2", vc.rho2.value, r2)) if v != w]
    if clipped:
        lines.append(f"({' and '.join(clipped)} clipped to [0, 1], the range --rho1 and --rho2 take.)")
    if vc.percentile_fallback:
        lines.append(f"Percentile intervals (BCa undefined): {', '.join(vc.percentile_fallback)}.")
    if res.shared_share is not None and res.shared_share > 0:
        lines.append(f"The runs' corpora share {100 * res.shared_share:.1f}% of their sentences on average (identical "
                     "sentences count): σ², ω "
                     "and γ come out smaller by about that share; ρ1 and ρ2, ratios, move less.")
    if vc.R < 10:
        lines.append(f"With R = {vc.R} runs the intervals are wide (in textbcv's real-text study 100 data sets gave "
                     "ρ1 to about ±0.15 and ρ2 to about ±0.08).")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run the subcommand on its parsed command line.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        Exit status 0; a user error raises :class:`~textbcv.errors.InputError`.
    """
    from textbcv.comparison.components import run_components

    if not 0 < args.confidence < 1:
        raise InputError(f"--confidence must be in (0, 1), got {args.confidence}")
    if args.resamples < 100:
        raise InputError(f"--resamples must be at least 100, got {args.resamples}")
    res = run_components(args.runs, args.system, minus=args.minus, metric=args.metric, m=args.m,
                         confidence=args.confidence, n_resamples=args.resamples, seed=args.seed)
    print(dumps_json(res.to_dict()) if args.json else render(res))
    return 0
