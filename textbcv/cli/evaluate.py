"""``textbcv evaluate``: score predictions made outside textbcv into a comparison run directory."""

from __future__ import annotations

import argparse

from textbcv import defaults
from textbcv.cli.common import (
    DIFFERENCE_HELP,
    ROPE_HELP,
    THRESHOLD_HELP,
    VARIANT_HELP,
    add_corpus_args,
    note,
    rope_fraction,
    rope_warning,
)
from textbcv.cli.compare import csv_names
from textbcv.errors import InputError

__all__ = ["register", "run"]


def register(sub) -> None:
    """Add the subcommand's parser to ``sub``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser.
    """
    p = sub.add_parser(
        "evaluate", help="score your own tagger's predictions of exported folds, and test which system is better",
        description="Read every fold's predictions of each system (PRED_DIR/fold-{i}-{d}.txt, for the folds of "
        "`textbcv split --export`), check them token by token against the corpus, score their chunks against the "
        "corpus's gold chunks, and write the same run directory and report as `textbcv compare`.")
    p.add_argument("splits", metavar="SPLITS.json", nargs="?",
                   help="the split manifest the folds were exported from (none with --test)")
    add_corpus_args(p, optional="none with --test")
    p.add_argument("--test", metavar="TEST",
                   help="the fixed-split design: every system's folder holds seed-S.txt, its predictions of TEST by "
                        "a model trained with seed S (two seeds or more), instead of exported folds")
    p.add_argument("--train", metavar="TRAIN",
                   help="with --test: the training file the models were trained on, named in the report with its "
                        "size (default: not named)")
    p.add_argument("--dev", metavar="DEV",
                   help="with --test: the development file the models were tuned on, named in the report with its "
                        "size (default: not named)")
    p.add_argument("--task", choices=("ner", "cws"), required=True,
                   help="ner (predictions: token ... tag lines) or cws (predictions: one segmented line per sentence)")
    p.add_argument("--system", dest="systems", action="append", required=True, metavar="NAME=PRED_DIR",
                   help="a system and the directory of its prediction files; give at least two")
    p.add_argument("--pred-scheme", metavar="SCHEME",
                   help="tagging scheme of the predicted tags (default: detected for each system)")
    p.add_argument("--heldout", nargs="+", metavar="FILE", default=(),
                   help="independent test files the fold models also tagged: predictions in "
                        "PRED_DIR/heldout/{name of FILE without .conll, .conllu, .txt, ...}/fold-{i}-{d}.txt (default: "
                        "none)")
    p.add_argument("--alpha", type=float, default=0.05, help="1 − credibility of the intervals; level of the t-test "
                                                             "(default 0.05)")
    p.add_argument("--threshold", type=float, default=0.95, help=THRESHOLD_HELP)
    p.add_argument("--rope", type=float, metavar="POINTS", help=ROPE_HELP)
    # the choices are checked by CompareOptions
    p.add_argument("--variant", default=defaults.VARIANT, metavar="VARIANT", help=VARIANT_HELP)
    p.add_argument("--difference", default="paired", metavar="BASIS", help=DIFFERENCE_HELP)
    p.add_argument("--rho1", type=float, help="ρ1 in [0, 1], for --variant rho (no default: needed with it)")
    p.add_argument("--rho2", type=float, help="ρ2 in [0, 1], for --variant rho (no default: needed with it)")
    p.add_argument("--chunk-types", type=csv_names, metavar="TYPE[,TYPE...]",
                   help="score only chunks of these types, e.g. ORG,PER (default: every type)")
    p.add_argument("--untyped", action="store_true", help="score chunk boundaries only (types dropped)")
    p.add_argument("--mode", choices=defaults.MATCHING_MODES, default="strict",
                   help="matching mode of the report: strict (boundaries and type, conlleval's; default), exact "
                        "(boundaries), partial (overlap, half credit unless exact), type (type and overlap); every "
                        "run records all four, and `textbcv report RUN --mode` redraws another")
    p.add_argument("--no-plots", action="store_true", help="do not draw the PNG plots")
    p.add_argument("--full", action="store_true",
                   help="print the whole report (default: the short answer, and where report.md is)")
    p.add_argument("--quiet", action="store_true", help="do not print the report")
    p.add_argument("--out", required=True,
                   help="run directory to write: new, empty, or a textbcv run; a non-empty directory of other files "
                        "is refused")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``textbcv evaluate``: score the imported predictions into ``--out``, then print the answer.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        Exit status 0; a user error raises :class:`~textbcv.errors.InputError`, which :func:`textbcv.cli.main`
        prints as one line with exit status 2.
    """
    from textbcv.api import evaluate  # here: `textbcv --help` stays fast
    from textbcv.cli.report import print_report

    if args.test is not None:
        from textbcv.cli.fixed import run_evaluate_fixed

        return run_evaluate_fixed(args)
    if args.train is not None or args.dev is not None:
        raise InputError(f"--{'train' if args.train is not None else 'dev'} names a file of --test's predictions; "
                         "give --test")
    if args.splits is None or not args.files:
        raise InputError("give SPLITS.json and the corpus FILE (exported folds), or --test (one fixed split)")

    call = dict(splits=args.splits, corpus=list(args.files), systems=list(args.systems), out=args.out,
                pred_scheme=args.pred_scheme, task=args.task, alpha=args.alpha, rope=rope_fraction(args.rope),
                threshold=args.threshold, variant=args.variant, difference=args.difference, rho1=args.rho1,
                rho2=args.rho2, chunk_types=args.chunk_types, untyped=args.untyped, mode=args.mode,
                heldout=tuple(args.heldout), format=args.format, columns=args.columns, scheme=args.corpus_scheme,
                encoding=args.encoding, label_names=args.label_names, plots=not args.no_plots)
    rope_note = rope_warning(args.rope)
    result = evaluate(**call, on_note=None if args.quiet else note)
    print_report(call["out"], result.report, quiet=args.quiet, full=args.full, warnings=True, rope_note=rope_note)
    return 0
