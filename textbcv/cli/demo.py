"""``textbcv demo``: compare tagging schemes on the bundled corpora; a second run resumes the first."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from textbcv import defaults
from textbcv.corpus.bundled import bundled_corpora
from textbcv.errors import InputError

__all__ = ["register", "run", "DEMOS"]

#: (name, task, file key, systems)
DEMOS = (
    ("ner", "ner", "ner", ("iob2", "iobes")),
    ("cws", "cws", "cws", ("bmes", "bb2b3mes")),
)


def register(sub) -> None:
    """Add the subcommand's parser to ``sub``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser.
    """
    p = sub.add_parser("demo", help="compare tagging schemes on the bundled corpora",
                       description="Compare IOB2 with IOBES (NER) and BMES with BB2B3MES (word segmentation) on "
                       "the bundled corpora with m×2 BCV (m = 3, extended to 7 where the models' noise was not "
                       "measured or the call is near the threshold: compare's default design) and the "
                       "default options ("
                       + ("no balancing" if not defaults.BALANCE else "balancing " + ", ".join(defaults.BALANCE))
                       + f", --group-by {defaults.GROUP_BY}, --variant {defaults.VARIANT}), and print the reports.")
    p.add_argument("--out", default="textbcv-demo", help="directory for the two run directories (default "
                                                         "./textbcv-demo)")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                   help="worker processes (default 2, or 1 on a one-core machine)")
    p.add_argument("--m", type=int, default=None, help="a fixed number of 2-fold splits (default: 3, extended to 7 "
                                                       "where m = 3 cannot decide)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress (a bar on a terminal, else one line per finished fold on stderr) and no notes")
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
    from textbcv.cli.report import print_report
    from textbcv.comparison.options import MEASURED_DESIGN
    from textbcv.comparison.pipeline import CompareOptions, StaleRunError, prepare_compare, run_compare
    from textbcv.folds.run_dir import RunDir

    paths = bundled_corpora()
    for path in paths.values():
        if not path.exists():
            raise InputError("bundled corpus not found (regenerate it with scripts/make_corpora.py)", file=str(path))
    if args.jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {args.jobs}")
    out = Path(args.out)
    # Every input check (options, --out, a previous run to resume) before anything is printed or written.
    plans = []
    for name, task, key, systems in DEMOS:
        fmt = "conll" if task == "ner" else "segmented"
        design = dict(m=args.m) if args.m is not None else dict(MEASURED_DESIGN)
        args_ = ([str(paths[key])], out / name, CompareOptions(task=task, systems=systems, **design))
        if RunDir(out / name).is_legacy_run():
            raise InputError("holds a demo run of an earlier textbcv version, whose files textbcv cannot tell from "
                             "yours; delete the folder, or give another --out", file=str(out / name))
        try:
            plans.append(prepare_compare(*args_, format=fmt, resume=True))
        except StaleRunError:
            # the demo's own earlier run with other splits (another --m or textbcv version): start it afresh
            RunDir(out / name).remove_run_files()
            print(f"textbcv: note: {out / name} held a demo run with other splits; starting it afresh",
                  file=sys.stderr, flush=True)
            plans.append(prepare_compare(*args_, format=fmt, resume=True))
    for (name, task, key, systems), plan in zip(DEMOS, plans):
        kind = "NER" if task == "ner" else "word-segmentation"
        title = f"{' vs '.join(s.upper() for s in systems)} on the bundled {kind} corpus"
        print(f"\n=== {title} ===\n", flush=True)
        if not args.quiet:
            for line in plan.notes:
                print(line, file=sys.stderr, flush=True)
        report = run_compare(plan, jobs=args.jobs, progress=False if args.quiet else None)
        print_report(out / name, report)
        print(_cost_line(report), flush=True)
    return 0


def _cost_line(report) -> str:
    """What the run cost: the folds per system, and why its m is what it is.

    Examples
    --------
    >>> from textbcv.report.model import CompareReport
    >>> r = CompareReport.from_dict({"m": 7, "systems": {}, "comparisons": [], "stopping": {
    ...     "rule": "measured", "m_used": 7, "folds_per_system": 14,
    ...     "reason": "m = 3 could not decide: extended to m = 7"}})
    >>> _cost_line(r)
    'Cost: 14 folds per system (m = 3 could not decide: extended to m = 7).'
    """
    stopping = report.stopping
    m = report.m if stopping is None or stopping.m_used is None else stopping.m_used
    folds = 2 * m if stopping is None or stopping.folds_per_system is None else stopping.folds_per_system
    reason = f"fixed m = {m}" if stopping is None or stopping.reason is None else stopping.reason
    return f"Cost: {folds} folds per system ({reason})."  # every reason names its m
