"""``textbcv calibrate``: measure the decision rule on this corpus (null pairs, a close pair); resumable."""

from __future__ import annotations

import argparse

from textbcv import defaults
from textbcv.cli.common import GROUP_BY_HELP, THRESHOLD_HELP, add_corpus_args, check_threshold, command_systems
from textbcv.cli.compare import add_command_args, csv_names

__all__ = ["register", "run"]


def register(sub) -> None:
    """Add the subcommand's parser to ``sub``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser.
    """
    p = sub.add_parser("calibrate", help="measure the decision rule on your corpus (null pairs, a close pair)",
                       description="Draw data sets from the corpus and compare every system with itself trained "
                       "with another seed, as compare would: the calls made are false calls. With --pair A,B, also "
                       "compare A with B on every data set against their truth (both trained on halves of the data "
                       "set and tested on the corpus's other sentences). Prints the rates each way with Wilson "
                       "intervals, the close pair's coverage, and a sentence to quote; --resume continues a "
                       "calibration.")
    add_corpus_args(p)
    p.add_argument("--task", choices=("ner", "cws"), default=None,
                   help="ner or cws (default: cws for segmented text, else ner)")
    p.add_argument("--systems", type=csv_names, default=(), metavar="NAME[,NAME...]",
                   help="CRF systems whose null pairs are run, as compare names them, without @SEED (may be left "
                   "out with --pair or --system)")
    add_command_args(p)
    p.add_argument("--pair", type=csv_names, default=None, metavar="A,B",
                   help="a close pair compared on every data set against its truth, trained with the options as "
                   "given (not the null pairs' proxy)")
    p.add_argument("--truth-halvings", type=int, default=4, metavar="H",
                   help="halvings of each data set the close pair's truth is trained on (default 4)")
    p.add_argument("--out", required=True, help="output folder (units.jsonl, calibration.json, calibration.png)")
    p.add_argument("--reps", type=int, default=200, help="data sets (default 200)")
    p.add_argument("--size", type=int, default=None,
                   help="sentences per data set, whole documents (default 1000, or half a smaller corpus)")
    p.add_argument("--m", type=int, default=None,
                   help="splits of every comparison, a fixed design (default: the measured design compare runs "
                   "without --m: m = 3, extended to m = 7 on a data set where the models' noise is floored or "
                   "P(better) lies in 0.90-0.99)")
    p.add_argument("--design", choices=("mx2", "fixed"), default="mx2",
                   help="the design measured: mx2 (default; m×2 cross-validation, as compare runs it) or fixed (each "
                   "data set cut once into a training and a test set, as compare --train/--test answers; needs "
                   "--train-seeds K of at least 2)")
    p.add_argument("--test-share", type=float, default=None, metavar="SHARE",
                   help="with --design fixed: the test set's share of each data set's sentences, whole documents "
                   "(default 0.2)")
    p.add_argument("--seeds", type=lambda s: tuple(int(x) for x in csv_names(s)), default=None, metavar="S1,S2",
                   help="the (first) training seeds of A and B in every null pair (default 1,2; 1,1+K with "
                   "--train-seeds K)")
    p.add_argument("--train-seeds", type=int, default=None, metavar="K",
                   help="train each side of a null pair with K seeds, counted together as compare --train-seeds "
                   "does (A: S1, S1+1, ...; B: S2, S2+1, ...; the two ranges must not overlap); default 1")
    p.add_argument("--seed", type=int, default=0, help="seed of the data sets' draws and splits (default 0)")
    p.add_argument("--group-by", default=None, metavar="UNIT", help=GROUP_BY_HELP + "; file also draws the data "
                   "sets as whole files")
    p.add_argument("--threshold", type=float, default=0.95, help=THRESHOLD_HELP)
    p.add_argument("--algorithm", choices=defaults.CRF_ALGORITHMS,
                   help="crfsuite training algorithm (default: lbfgs, for which the null pairs train ap, its "
                   "stochastic proxy)")
    p.add_argument("--max-iterations", type=int, help="CRF training iterations (default 100)")
    p.add_argument("--jobs", type=int, default=1,
                   help="data sets run at once (default 1); with --system, each data set's folds and seeds")
    p.add_argument("--backend", choices=("loky", "dask"), default="loky",
                   help="where data sets run (default loky: local processes; dask: a dask.distributed cluster)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="dask.distributed scheduler address, with --backend dask (default: a local cluster of --jobs "
                   "workers)")
    p.add_argument("--resume", action="store_true", help="continue the calibration in --out")
    p.add_argument("--json", action="store_true", help="print calibration.json instead of the summary")
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
    from textbcv.calibration import calibrate

    check_threshold(args.threshold)
    commands = command_systems(args)  # each side's seeds are the null pair's, set per data set
    cal = calibrate(args.files, [*args.systems, *commands], format=args.format, columns=args.columns,
                    scheme=args.corpus_scheme, encoding=args.encoding, label_names=args.label_names, reps=args.reps,
                    size=args.size, m=args.m, seeds=args.seeds, seed=args.seed, threshold=args.threshold,
                    out=args.out, resume=args.resume, jobs=args.jobs, task=args.task, algorithm=args.algorithm,
                    max_iterations=args.max_iterations, train_seeds=args.train_seeds, pair=args.pair,
                    truth_halvings=args.truth_halvings, backend=args.backend, scheduler=args.scheduler,
                    group_by=args.group_by, design=args.design, test_share=args.test_share)
    print(dumps_json(cal.to_dict()) if args.json else cal.text(), end="")
    return 0
