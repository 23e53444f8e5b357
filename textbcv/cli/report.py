"""``textbcv report DIR``: show a finished comparison's report in the terminal, or redraw it under another rule.

With ``--threshold`` or ``--rope`` the Bayes answer is recomputed from the
run's fold counts (``report.json``'s, checked against ``folds.jsonl``; nothing is
retrained) and written, with its plots, into a folder of its own inside the run
(``what-if-threshold-T-rope-R``): a "what if" never replaces what the run said.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from textbcv import defaults
from textbcv.cli.common import ROPE_HELP, THRESHOLD_HELP, check_threshold, rope_fraction, rope_warning
from textbcv.errors import InputError

if TYPE_CHECKING:
    from textbcv.report.model import CompareReport

__all__ = ["register", "run", "print_report"]


def register(sub) -> None:
    """Add the ``report`` subcommand's parser to ``sub``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser (:func:`textbcv.cli.build_parser`).
    """
    p = sub.add_parser("report", help="show the report of a comparison run directory",
                       description="Show the report of a `textbcv compare` run directory in the terminal. With "
                       "--threshold or --rope, recompute the decisions from the saved fold counts (no training) and "
                       "write them, with their plots, into a what-if-threshold-T-rope-R folder inside the run: what "
                       "the run itself said is never replaced.")
    p.add_argument("dir", metavar="DIR", help="run directory written by textbcv compare")
    p.add_argument("--full", action="store_true",
                   help="print the whole report (default: the short answer, and where report.md is)")
    p.add_argument("--markdown", action="store_true", help="print report.md as it is")
    p.add_argument("--redraw", action="store_true",
                   help="first recompute the one-split tests (paired bootstrap, approximate randomization) from "
                        "folds.jsonl and rewrite report.json, report.md and report.tex; nothing is trained (default: "
                        "off)")
    p.add_argument("--threshold", type=float, default=None,
                   help=THRESHOLD_HELP.replace("(default 0.95;", "(default: the run's own;"))
    p.add_argument("--rope", type=float, default=None, metavar="POINTS",
                   help=ROPE_HELP.replace("(default: none)", "(default: the run's own; 0 removes it)"))
    p.add_argument("--mode", choices=defaults.MATCHING_MODES, default=None,
                   help="redraw the whole report in this matching mode (strict, exact, partial, type) from the "
                        "folds' records into a what-if-mode-MODE folder; nothing is trained, the run's own report "
                        "stays")
    p.add_argument("--corpus", nargs="+", metavar="FILE", default=None,
                   help="with --mode: the run's corpus files, when they are no longer where the report says (they "
                        "must be the corpus the run split)")
    p.add_argument("--no-plots", action="store_true",
                   help="with --threshold, --rope or --mode: do not redraw the plots")
    p.set_defaults(func=run)


def print_report(out_dir: str | os.PathLike, report: CompareReport, full: bool = False, *,
                 quiet: bool = False, warnings: bool = False, rope_note: str | None = None) -> None:
    """Print a run's answer: its warnings on stderr (with ``warnings``), then the short answer or (``full``) the
    whole report (:mod:`textbcv.report.terminal`, ANSI-styled when stdout is a terminal) and where its files are.

    Parameters
    ----------
    out_dir : str or path-like
        The run directory.
    report : CompareReport
        The report to print.
    full : bool
        The whole report (``--full``); default the short answer.
    quiet : bool
        Errors only: print ``rope_note`` alone; default False.
    warnings : bool
        Print the run's warnings (:func:`textbcv.report.cautions.run_warnings`) first, as ``compare`` and
        ``evaluate`` do; default False.
    rope_note : str or None
        The warning for a ``--rope`` typed as a fraction (:func:`textbcv.cli.common.rope_warning`), if any.
    """
    from textbcv.errors import warn
    from textbcv.folds.run_dir import RunDir
    from textbcv.report.cautions import run_warnings
    from textbcv.report.plots import plot_names
    from textbcv.report.terminal import answer_text, report_text

    for line in ([rope_note] if rope_note else []) + (run_warnings(report) if warnings and not quiet else []):
        warn(line)
    if quiet:
        return
    path = Path(out_dir)
    if not full:
        sys.stdout.write(answer_text(report, str(path), color=sys.stdout.isatty()))
        return
    plots = [name for name in plot_names(report) if (path / name).is_file()]
    sys.stdout.write(report_text(report, plots, color=sys.stdout.isatty()))
    print(f"\nFiles in {path}/: " + ", ".join(RunDir(out_dir).files()))


def run(args: argparse.Namespace) -> int:
    """Run ``textbcv report`` on its parsed command line.

    Redraw the report first with ``--redraw``, ``--threshold`` or ``--rope``, then print it (``report.md`` as it is with
    ``--markdown``).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line of :func:`register`'s parser.

    Returns
    -------
    int
        Exit status 0; a user error raises :class:`~textbcv.errors.InputError` instead, which
        :func:`textbcv.cli.main` prints and ends with exit status 2.
    """
    out = Path(args.dir)
    from textbcv.comparison.redraw import redraw, redraw_mode, rewrite  # here: `textbcv --help` stays fast

    if args.corpus and args.mode is None:
        raise InputError("--corpus applies with --mode")
    if args.mode is not None and (args.threshold is not None or args.rope is not None):
        raise InputError("--mode redraws the report under the run's own rule: give --threshold or --rope to a second "
                         "`textbcv report` on the what-if-mode folder")

    report = None  # the report redrawn here, when one is
    if args.redraw:
        report, where = redraw(out)
        if where != out:
            print(f"textbcv: {out}'s report files are not textbcv's own as written (an earlier version's run, or "
                  f"edited): the redrawn report is in {where}/", file=sys.stderr)
            out = where
    if args.threshold is not None or args.rope is not None:
        if args.threshold is not None:
            check_threshold(args.threshold)
        report, where = rewrite(out, args.threshold, rope_fraction(args.rope), plots=not args.no_plots)
        print(f"textbcv: the report redrawn under the new rule is in {where}/ (report.json, report.md, report.tex"
              + ("" if args.no_plots else " and the plots") + f"); the run's own report in {out}/ is unchanged",
              file=sys.stderr)
        out = where
        rope_note = rope_warning(args.rope)
        if rope_note:
            from textbcv.errors import warn

            warn(rope_note)
    elif args.mode is not None:
        report, where = redraw_mode(out, args.mode, corpus=args.corpus, plots=not args.no_plots)
        print(f"textbcv: the report in matching mode {args.mode} is in {where}/ (report.json, report.md, report.tex"
              + ("" if args.no_plots else " and the plots") + f"); the run's own report in {out}/ is unchanged",
              file=sys.stderr)
        out = where
    elif args.no_plots:
        raise InputError("--no-plots applies only when --threshold, --rope or --mode redraws the report")
    if args.markdown:
        from textbcv.folds.run_dir import RunDir

        sys.stdout.write(RunDir(out).read_report_md())
    else:
        from textbcv.folds.run_dir import RunDir
        from textbcv.report.model import CompareReport, load_report

        print_report(out, CompareReport.from_dict(load_report(RunDir(out)) if report is None else report),
                     full=args.full)
    return 0
