"""``textbcv test COUNTS.json|folds.jsonl|RUN``: Bayes test of precision, recall and F1 from per-fold counts.

Systems whose per-fold gold totals (TP + FN) differ are refused, naming the fold, unless
``--allow-different-gold``. ``--json`` gives rates as fractions; the text prints percent.
"""

from __future__ import annotations

import argparse

from textbcv import defaults
from textbcv.cli.common import (
    DIFFERENCE_HELP,
    ROPE_HELP,
    THRESHOLD_HELP,
    VARIANT_HELP,
    rope_fraction,
    rope_warning,
)
from textbcv.errors import InputError

__all__ = ["register", "run"]


def register(subparsers) -> None:
    """Add the subcommand's parser to ``subparsers``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser.
    """
    p = subparsers.add_parser(
        "test", help="Bayes test (and textbook tests) of precision/recall/F1 from per-fold counts",
        description="Posteriors, credible intervals and P(B better) for precision, recall and F1 of every "
                    "pair of systems, and the sequential t-test on per-fold differences, from per-fold TP/FP/FN of "
                    "an m×2 BCV run (COUNTS.json, folds.jsonl, or a run directory).")
    p.add_argument("counts", metavar="COUNTS.json|folds.jsonl|RUN", nargs="+",
                   help="COUNTS.json (format in docs/formats.md), a folds.jsonl of `textbcv compare`, or its run "
                        "directory; several run directories (one per corpus, the same systems) answer across the "
                        "corpora with a hierarchical model")
    p.add_argument("--tau-scale", type=float, default=1.0, metavar="POINTS",
                   help="with several runs: the scale of the half-Cauchy prior on how much the difference varies "
                        "from corpus to corpus, in F1 points (default 1)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="1 − credibility of the intervals; level of the t-tests and the critical difference (default "
                        "0.05)")
    p.add_argument("--rope", type=float, default=None, metavar="POINTS", help=ROPE_HELP)
    p.add_argument("--threshold", type=float, default=0.95, help=THRESHOLD_HELP)
    # the choices of --variant, --method, --metric and --decisions are checked by TestOptions
    p.add_argument("--variant", default=defaults.VARIANT, metavar="VARIANT", help=VARIANT_HELP)
    p.add_argument("--difference", default="paired", choices=("paired", "independent"), help=DIFFERENCE_HELP)
    p.add_argument("--rho1", type=float, default=None, help="ρ1 in [0, 1], for --variant rho (no default: needed with "
                                                            "it)")
    p.add_argument("--rho2", type=float, default=None, help="ρ2 in [0, 1], for --variant rho (no default: needed with "
                                                            "it)")
    p.add_argument("--method", default="exact", metavar="METHOD",
                   help="exact quadrature (default), monte-carlo, or both")
    p.add_argument("--draws", type=int, default=10**6, help="Monte Carlo draws L (default 1000000)")
    p.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (default 0)")
    p.add_argument("--type", dest="chunk_type", default=None,
                   help="folds.jsonl only: test the counts of one chunk type (counts.types.TYPE) instead of overall "
                        "(default: overall)")
    p.add_argument("--per-type", action="store_true",
                   help="folds.jsonl only: also print P / R / F1 and P(B better) on F1 for every chunk type")
    p.add_argument("--allow-different-gold", action="store_true",
                   help="test systems even when their gold totals (TP + FN) differ in a fold")
    p.add_argument("--metric", default="f1", metavar="METRIC",
                   help="per-fold score of the sequential t-test and the textbook tests: precision, recall or f1 "
                        "(default f1)")
    p.add_argument("--classic", action="store_true",
                   help="also run the textbook tests: 5×2cv t, combined F and t (m = 5), blocked 3×2 t (m = 3), "
                        "Nadeau–Bengio corrected t, Wilcoxon; Friedman + Nemenyi for 3 or more systems; McNemar on "
                        "one fold when the run saved its predictions (compare --save-predictions)")
    p.add_argument("--fold", default=None, metavar="SPLIT-DIRECTION",
                   help="with --classic: the fold McNemar's test judges, e.g. 0-1 (default 0-0)")
    p.add_argument("--decisions", default=None, metavar="UNIT",
                   help="with --classic: McNemar's units, chunk or token — chunks (gold or predicted by either "
                        "system; default) or tokens")
    p.add_argument("--plots", metavar="DIR", default=None,
                   help="draw the report's plots (posteriors, F1 difference, per-fold F1; with --classic and 3 or "
                        "more systems the critical-difference diagram) into DIR (default: no plots)")
    p.add_argument("--mode", choices=defaults.MATCHING_MODES, default="strict",
                   help="matching mode of the counts: strict (default, conlleval's), exact, partial or type; other "
                        "modes need a run's folds.jsonl, whose folds record them (sentences as clusters)")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=run)


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
    from textbcv._io import dumps_json
    from textbcv.api import test
    from textbcv.report.terminal import corpora_text, counts_text

    several = len(args.counts) > 1
    if several and not 0 < args.tau_scale < 100:
        raise InputError(f"--tau-scale must lie in (0, 100) F1 points, got {args.tau_scale:g}")
    result = test(args.counts, plots=args.plots, alpha=args.alpha, rope=rope_fraction(args.rope),
                  threshold=args.threshold, variant=args.variant, difference=args.difference, rho1=args.rho1,
                  rho2=args.rho2, mode=args.mode, method=args.method, draws=args.draws, seed=args.seed,
                  metric=args.metric, chunk_type=args.chunk_type, per_type=args.per_type,
                  allow_different_gold=args.allow_different_gold, classic=args.classic, fold=args.fold,
                  decisions=args.decisions, tau_scale=args.tau_scale / 100)
    if args.json:
        print(dumps_json(result if isinstance(result, dict) else result.to_dict()), end="")
    else:
        print(corpora_text(result) if isinstance(result, dict) else counts_text(result), end="")
    rope_note = None if several else rope_warning(args.rope)
    if rope_note:
        from textbcv.errors import warn

        warn(rope_note)
    return 0
