"""``textbcv compare``: one command from corpus to decision."""

from __future__ import annotations

import argparse

from textbcv import defaults
from textbcv.cli.common import (
    DIFFERENCE_HELP,
    GROUP_BY_HELP,
    ROPE_HELP,
    THRESHOLD_HELP,
    VARIANT_HELP,
    add_corpus_args,
    command_systems,
    note,
    rope_fraction,
    rope_warning,
)
from textbcv.errors import InputError
from textbcv.schemes import scheme_names

__all__ = ["register", "run"]


def _csv(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.split(",") if x.strip())


def csv_names(text: str) -> tuple[str, ...]:
    """A comma-separated list option: spaces around names allowed, an empty name refused.

    ``--systems "iob2, iobes"`` gives two names; ``--systems iob2, iobes``
    (the shell splits it) gives ``"iob2,"``, which ends with a comma: refused
    with a hint, before argparse would call ``iobes`` an unrecognized argument.

    Parameters
    ----------
    text : str
        The option's value, e.g. ``"iob2,iobes"``.

    Returns
    -------
    tuple of str
        The names, stripped, in the order given.

    Raises
    ------
    argparse.ArgumentTypeError
        When a name is empty (which argparse reports as a usage error).

    Examples
    --------
    >>> csv_names(" iob2, iobes ")
    ('iob2', 'iobes')
    >>> csv_names("iob2,")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: an empty name in 'iob2,' (separate names by commas without spaces, e.g. iob2,iobes,
    or quote the list: "iob2, iobes")
    """
    names = tuple(x.strip() for x in text.split(","))
    if not all(names):
        raise argparse.ArgumentTypeError(f"an empty name in {text!r} (separate names by commas without spaces, e.g. "
                                         "iob2,iobes, or quote the list: \"iob2, iobes\")")
    return names


def register(sub) -> None:
    """Add the ``compare`` subcommand's parser to ``sub``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser (:func:`textbcv.cli.build_parser`).
    """
    p = sub.add_parser(
        "compare", help="split, train and score every system, and test which is better",
        description="Compare tagging systems on a corpus with balanced m×2 block-regularized cross-validation: "
        "split, train CRFs on every half, score chunks, and report posteriors, intervals and P(B better).")
    add_corpus_args(p, optional="none with --train and --test")
    p.add_argument("--task", choices=("ner", "cws"), required=True, help="ner (chunks from the tag column) or cws "
                                                                         "(words)")
    p.add_argument("--systems", type=csv_names, default=(), metavar="NAME[,NAME...]",
                   help=f"systems to compare, comma-separated: a tagging scheme ({', '.join(scheme_names())}), "
                        "optionally +TEMPLATE, e.g. iob2,iobes+wordshape. Templates: a .json file or "
                        "ner-thesis (word and POS n-grams), ner-words (word n-grams), wordshape, ner-rich (needs pos "
                        "and chunk columns), ner-rich-words, cws-thesis, cws-rich. Default template: ner-thesis for "
                        "ner (ner-rich-words when the corpus has no pos column), cws-thesis for cws; stderr and "
                        "report.json say which was used")
    g = p.add_mutually_exclusive_group()
    # default None, not 3: argparse does not see "--m 3 --sequential" as a conflict when the value is the default object
    g.add_argument("--m", type=int, default=None,
                   help="a fixed number of 2-fold splits (default: the measured design, m = 3 extended to 7 where a "
                        "pair's models' noise came out floored or its P(better) lies in [0.90, 0.99))")
    g.add_argument("--sequential", action="store_true", help="start at m = 3 and add splits until the decision is "
                                                             "clear or --m-max")
    p.add_argument("--m-max", type=int, default=None,
                   help="largest m of a sequential run (default 7 for --stop measured, else 12, as the thesis)")
    p.add_argument("--stop", choices=("t-test", "bayes", "measured"), default=None,
                   help="stopping rule of --sequential: the sequential t-test on per-fold F1 differences, built for a "
                        "look at every m; the Bayes test's P(better) at 1 − (1 − --threshold)/L, corrected for the "
                        "L values of m it looks at; or measured: stop at m = 3 only where every pair's models' noise "
                        "was measured and P(better) lies outside [0.90, 0.99), else go straight to --m-max "
                        "(docs/method.md); either way the report decides at --threshold at the final m. "
                        "Default: measured without --m; t-test with --sequential")
    p.add_argument("--threshold", type=float, default=0.95,
                   help=THRESHOLD_HELP + "; also the level at which --sequential --stop bayes stops")
    p.add_argument("--alpha", type=float, default=0.05, help="1 − credibility of the intervals; level of the t-test "
                                                             "(default 0.05)")
    p.add_argument("--rope", type=float, metavar="POINTS", help=ROPE_HELP)
    # the choices of --variant are checked by CompareOptions
    p.add_argument("--variant", default=defaults.VARIANT, metavar="VARIANT", help=VARIANT_HELP)
    p.add_argument("--difference", default="paired", choices=("paired", "independent"), help=DIFFERENCE_HELP)
    p.add_argument("--rho1", type=float, help="ρ1 in [0, 1], for --variant rho (no default: needed with it)")
    p.add_argument("--rho2", type=float, help="ρ2 in [0, 1], for --variant rho (no default: needed with it)")
    p.add_argument("--balance", default=",".join(defaults.BALANCE) or "none",
                   help="properties balanced between halves (label, lemma, length) or none (default none: "
                        f"{defaults.balance_help()})")
    # the choices are checked by CompareOptions
    p.add_argument("--group-by", default=defaults.GROUP_BY, metavar="UNIT",
                   help=GROUP_BY_HELP + " (on CoNLL-2003 sentence-level halves leave 8.9%% of test tokens unseen "
                        "against 11.5%% by document)")
    p.add_argument("--chunk-types", type=csv_names, metavar="TYPE[,TYPE...]",
                   help="score only chunks of these types, e.g. ORG,PER (default: every type)")
    p.add_argument("--untyped", action="store_true", help="score chunk boundaries only (types dropped)")
    p.add_argument("--mode", choices=defaults.MATCHING_MODES, default="strict",
                   help="matching mode of the report: strict (boundaries and type, conlleval's; default), exact "
                        "(boundaries), partial (overlap, half credit unless exact), type (type and overlap); every "
                        "run records all four, and `textbcv report RUN --mode` redraws another")
    p.add_argument("--c1", type=float, help="CRF L1 regularisation (default 0.1)")
    p.add_argument("--c2", type=float, help="CRF L2 regularisation (default 0.1)")
    p.add_argument("--max-iterations", type=int, help="CRF training iterations (default 100)")
    p.add_argument("--algorithm", choices=defaults.CRF_ALGORITHMS,
                   help="crfsuite training algorithm (default lbfgs; ap, l2sgd, pa and arow shuffle the training "
                   "sequences and take a training seed)")
    p.add_argument("--train-seed", type=int, metavar="N", help="training seed of every CRF system whose name has no "
                   "@SEED (stochastic --algorithm only; --seed is the splits'). Spell one system's seed in its "
                   "name: --systems iob2@1,iob2@2 --algorithm ap trains one configuration with two seeds")
    p.add_argument("--train-seeds", type=int, default=1, metavar="K",
                   help="train every CRF system K times per fold, seeds N, N+1, ... (N its training seed, 0 if none; "
                        "stochastic --algorithm only), and count the K models together in each fold (default 1)")
    add_command_args(p)
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", choices=("loky", "dask"), default="loky", help="where folds run (default loky: local "
                                                                               "processes)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="dask.distributed scheduler address, with --backend dask "
                                                          "(default: a local cluster of --jobs "
                        "workers)")
    p.add_argument("--seed", type=int, default=None, help="seed of the splits (default 0)")
    p.add_argument("--heldout", nargs="+", metavar="FILE", default=(),
                   help="independent test files (same format and scheme as the corpus): every fold's model also "
                        "tags them; the report sets their scores beside the m×2 estimate (default: none)")
    p.add_argument("--train", metavar="TRAIN",
                   help="the fixed-split design, instead of m×2 cross-validation on FILE: train every system on "
                        "TRAIN once per seed (--train-seeds K, at least 2 for a system that draws random numbers) and "
                        "test it on --test; the answer holds for this training set, on new text like TEST")
    p.add_argument("--test", metavar="TEST", help="the test file of the fixed-split design (with --train)")
    p.add_argument("--dev", metavar="DEV",
                   help="with --train/--test: a development file (same format), given to command systems as {dev} "
                        "(early stopping, model choice); never trained on or scored, named in the report")
    p.add_argument("--splits", metavar="SPLITS.json",
                   help="use these splits (from `textbcv split`, made from this corpus) instead of making them "
                        "(default: "
                        "made here from --m, --seed, --balance and --group-by)")
    p.add_argument("--resume", action="store_true", help="continue a run in --out, training only the missing folds")
    p.add_argument("--save-models", action="store_true", help="keep every fold's crfsuite model in "
                                                              "OUT/models/SYSTEM-splitJ-dirK.crfsuite")
    p.add_argument("--save-predictions", action="store_true", help="keep every fold's predictions in "
                                                                   "OUT/predictions/SYSTEM-splitJ-dirK.txt, conlleval "
                                                                   "format (token, "
                        "gold tag, predicted tag) in the system's own tagging scheme: an iobes system's file holds "
                        "IOBES tags, gold included (score it with `textbcv score --scheme iobes`); held-out files' "
                        "predictions go to OUT/predictions/heldout/NAME/ in the corpus's scheme")
    p.add_argument("--no-plots", action="store_true", help="do not draw the PNG plots")
    p.add_argument("--full", action="store_true",
                   help="print the whole report (default: the short answer, and where report.md is)")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors: no progress (a bar on a terminal, "
                                                        "else one line per finished fold on "
                        "stderr), no notes, no report")
    p.add_argument("--out", required=True,
                   help="run directory: new, empty, or a textbcv run (with --resume to continue it); a non-empty "
                        "directory of other files is refused")
    p.set_defaults(func=run)


def _design_arguments(args: argparse.Namespace) -> dict:
    """The design options the command line gave (none: the API's default design decides)."""
    given = {"m_max": args.m_max, "stop": args.stop} | ({"sequential": True} if args.sequential else {})
    return {k: v for k, v in given.items() if v is not None}


def compare_arguments(args: argparse.Namespace) -> dict:
    """The arguments of :func:`textbcv.compare` that ``textbcv compare``'s command line gives.

    ``--rope`` (points) becomes a fraction, ``--balance none`` an empty tuple, each ``--system NAME=COMMAND`` a
    command system, ``--label-names FILE`` its names; nothing else is checked here: the front door's one
    validation layer checks every option before anything is read or trained.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line of :func:`register`'s parser.

    Returns
    -------
    dict
        Keyword arguments of :func:`textbcv.compare`.

    Raises
    ------
    InputError
        For a ``--system`` not written ``NAME=COMMAND``, a ``--rope`` out of range or an unreadable
        ``--label-names`` file.
    """
    commands = command_systems(args, args.train_seed, args.train_seeds)
    crf = {"train_seed": args.train_seed, "train_seeds": args.train_seeds}
    if commands and not args.systems:  # only command systems: the seeds are theirs
        crf = {}
    return dict(
        corpus=list(args.files), systems=[*args.systems, *commands], m=args.m, seed=args.seed, splits=args.splits,
        jobs=args.jobs, out=args.out, task=args.task, **_design_arguments(args),
        threshold=args.threshold, alpha=args.alpha, rope=rope_fraction(args.rope), variant=args.variant,
        difference=args.difference, rho1=args.rho1, rho2=args.rho2,
        balance=() if args.balance.strip() == "none" else _csv(args.balance), group_by=args.group_by,
        chunk_types=args.chunk_types, untyped=args.untyped, mode=args.mode, c1=args.c1, c2=args.c2,
        max_iterations=args.max_iterations, algorithm=args.algorithm, heldout=tuple(args.heldout), **crf,
        format=args.format, columns=args.columns, scheme=args.corpus_scheme, encoding=args.encoding,
        label_names=args.label_names, resume=args.resume, backend=args.backend,
        scheduler=args.scheduler, progress=False if args.quiet else None, save_models=args.save_models,
        save_predictions=args.save_predictions, plots=not args.no_plots)


def add_command_args(p: argparse.ArgumentParser) -> None:
    """Add the command systems' options (``--system NAME=COMMAND`` and its settings) to a parser.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The parser of ``compare`` or ``calibrate``.
    """
    p.add_argument("--system", action="append", default=[], metavar="NAME=COMMAND", dest="command_systems",
                   help="a command system: your own trainer as a command line run once per fold and seed, with "
                        "{train}, {test} (the fold's files), {pred} (where to write its predictions: token ... tag "
                        "lines), {seed}, {device}, {workdir} and, with --dev, {dev}; repeat for several; run after "
                        "--systems (docs/byo.md)")
    p.add_argument("--command-format", choices=("conll", "jsonl"), default="conll",
                   help="format of the fold files a command system reads (default conll: token tag lines)")
    p.add_argument("--command-scheme", default=None, metavar="SCHEME",
                   help="tagging scheme of a command system's training tags and predictions (default iob2 for ner, "
                        "bmes for cws)")
    p.add_argument("--task-timeout", type=float, default=None, metavar="SECONDS",
                   help="stop a command task that runs longer (default: no limit)")
    p.add_argument("--devices", type=csv_names, default=(), metavar="DEV[,DEV...]",
                   help="device names handed to concurrent command tasks as {device} and CUDA_VISIBLE_DEVICES "
                        "(default: the task slots 0 .. jobs-1)")


def run(args: argparse.Namespace) -> int:
    """Run ``textbcv compare``: split, train and score every system into ``--out``, then print the answer.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line of :func:`register`'s parser.

    Returns
    -------
    int
        Exit status 0; a user error raises :class:`~textbcv.errors.InputError`, which :func:`textbcv.cli.main`
        prints as one line with exit status 2.
    """
    from textbcv.api import compare  # here: `textbcv --help` stays fast
    from textbcv.cli.report import print_report

    if args.train is not None or args.test is not None:
        from textbcv.cli.fixed import run_compare_fixed

        return run_compare_fixed(args)
    if args.dev is not None:
        raise InputError("--dev belongs to the fixed-split design (--train/--test); m×2 cross-validation trains on "
                         "halves of FILE", param="dev")
    if not args.files:
        raise InputError("give the corpus FILE (m×2 cross-validation), or --train and --test (one fixed split)")

    call = compare_arguments(args)
    quiet = args.quiet
    rope_note = rope_warning(args.rope)
    result = compare(**call, on_note=None if quiet else note)
    print_report(call["out"], result.report, quiet=quiet, full=args.full, warnings=True, rope_note=rope_note)
    return 0
