"""The fixed-split design on the command line: ``textbcv compare --train --test`` and ``textbcv evaluate --test``."""

from __future__ import annotations

import argparse
import sys

from textbcv import defaults
from textbcv.cli.common import command_systems, note, rope_fraction, rope_warning
from textbcv.errors import InputError

__all__ = ["MX2_ONLY", "run_compare_fixed", "run_evaluate_fixed"]

#: ``compare``'s options of the m×2 design and their defaults: given with ``--train/--test``, they are refused.
MX2_ONLY = {"m": None, "sequential": False, "m_max": None, "stop": None, "splits": None, "heldout": (),
            "seed": None, "group_by": defaults.GROUP_BY, "variant": defaults.VARIANT, "difference": "paired",
            "rho1": None, "rho2": None, "save_models": False, "backend": "loky", "scheduler": None,
            "balance": ",".join(defaults.BALANCE) or "none"}


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _print(report, out: str, quiet: bool, rope_note: str | None) -> None:
    if rope_note and not quiet:
        print(f"textbcv: warning: {rope_note}", file=sys.stderr)
    if not quiet:
        print(report.answer_text(out), end="")


def run_compare_fixed(args: argparse.Namespace) -> int:
    """``textbcv compare --train TRAIN --test TEST``: the fixed-split design.

    Parameters
    ----------
    args : argparse.Namespace
        ``compare``'s parsed command line.

    Returns
    -------
    int
        0; a user error raises InputError (exit status 2).
    """
    from textbcv.api_fixed import compare_fixed  # here: `textbcv --help` stays fast

    if not args.train or not args.test:
        raise InputError("the fixed-split design needs both {train} and {test}", param=("train", "test"))
    if args.files:
        raise InputError(f"give the corpus FILE or {{train}} and {{test}}, not both (got {args.files[0]})",
                         param=("train", "test"))
    for k, default in MX2_ONLY.items():
        if getattr(args, k, default) != default:
            raise InputError(f"{_flag(k)} belongs to the m×2 design; with --train/--test the test file is the "
                             "held-out text and the seeds are the repetitions")
    commands = command_systems(args, args.train_seed, args.train_seeds)
    crf = {} if commands and not args.systems else {"train_seed": args.train_seed, "train_seeds": args.train_seeds}
    report = compare_fixed(
        args.train, args.test, [*args.systems, *commands], dev=args.dev, jobs=args.jobs, out=args.out,
        on_note=None if args.quiet else note, task=args.task, threshold=args.threshold, alpha=args.alpha,
        rope=rope_fraction(args.rope), chunk_types=args.chunk_types, untyped=args.untyped, mode=args.mode,
        c1=args.c1, c2=args.c2, max_iterations=args.max_iterations, algorithm=args.algorithm, **crf,
        format=args.format, columns=args.columns, scheme=args.corpus_scheme, encoding=args.encoding,
        resume=args.resume, progress=False if args.quiet else None, save_predictions=args.save_predictions)
    _print(report, args.out, args.quiet, rope_warning(args.rope))
    return 0


def run_evaluate_fixed(args: argparse.Namespace) -> int:
    """``textbcv evaluate --test TEST --system NAME=DIR ...``: per-seed predictions of one test set.

    Parameters
    ----------
    args : argparse.Namespace
        ``evaluate``'s parsed command line.

    Returns
    -------
    int
    """
    from textbcv.api_fixed import evaluate_fixed

    if args.splits is not None or args.files:
        raise InputError("with --test the predictions are of the test file: give no SPLITS.json or corpus FILE",
                         param="test")
    if args.heldout:
        raise InputError("--heldout belongs to exported folds; with --test the test file is the held-out text")
    for k in ("variant", "difference", "rho1", "rho2"):
        if getattr(args, k) != MX2_ONLY[k]:
            raise InputError(f"{_flag(k)} belongs to the m×2 design; the fixed split's posterior is paired over the "
                             "test set's clusters and seeds")
    report = evaluate_fixed(args.test, list(args.systems), out=args.out, train=args.train, dev=args.dev,
                            pred_scheme=args.pred_scheme, on_note=None if args.quiet else note, task=args.task,
                            threshold=args.threshold, alpha=args.alpha, rope=rope_fraction(args.rope),
                            chunk_types=args.chunk_types, untyped=args.untyped, mode=args.mode, format=args.format,
                            columns=args.columns, scheme=args.corpus_scheme, encoding=args.encoding)
    _print(report, args.out, args.quiet, rope_warning(args.rope))
    return 0
