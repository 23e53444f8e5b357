"""``textbcv report DIR``: show a finished comparison's report in the terminal, or redraw it under another rule.

With ``--threshold`` or ``--rope`` the Bayes answer is recomputed from the
run's fold counts (``report.json``'s, checked against ``folds.jsonl``; nothing is
retrained) and written, with its plots, into a folder of its own inside the run
(``what-if-threshold-T-rope-R``): a "what if" never replaces what the run said.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from textbcv import defaults
from textbcv.cli.common import ROPE_HELP, THRESHOLD_HELP, check_threshold, rope_fraction, rope_warning
from textbcv.errors import InputError

__all__ = ["register", "run", "print_report", "render_terminal", "read_report_md"]


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


def render_terminal(markdown: str, color: bool) -> str:
    """Markdown made pleasant in a terminal: aligned tables, bold headings (ANSI when ``color``).

    Parameters
    ----------
    markdown : str
        A report's Markdown (``report.md``).
    color : bool
        Use ANSI bold and underline (for a terminal); False gives plain text, top-level headings in capitals.

    Returns
    -------
    str
        The text, ending in a newline; code blocks indented, embedded plots shown as ``[plot: FILE]``.
    """
    out: list[str] = []
    table: list[str] = []

    def flush():
        if not table:
            return
        rows = [[c.strip() for c in r.strip().strip("|").split("|")] for r in table
                if not re.fullmatch(r"\|?[-|\s]+\|?", r.strip())]
        if not rows:  # separator lines only
            table.clear()
            return
        widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(max(len(r) for r in rows))]
        for k, r in enumerate(rows):
            line = "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
            out.append(("\033[1m" + line + "\033[0m") if color and k == 0 else line)
        table.clear()

    code = False
    for line in markdown.splitlines():
        if line.startswith("```"):  # a command: shown indented
            flush()
            code = not code
            continue
        if code:
            out.append("    " + line)
            continue
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        image = re.fullmatch(r"!\[(.*)\]\((.*)\)", line.strip())
        if image:  # an embedded plot: its file
            out.append(f"[plot: {image.group(2)}]")
            continue
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            plain = title.upper() if line.startswith("# ") else title
            out.append(("\033[1;4m" + title + "\033[0m") if color else plain)
        else:
            out.append(line.replace("`", ""))
    flush()
    return "\n".join(out) + "\n"


def read_report_md(out_dir: str | os.PathLike) -> str:
    """The text of ``out_dir/report.md``; InputError (naming the file) when it is missing or unreadable.

    Parameters
    ----------
    out_dir : str or path-like
        A run directory.

    Returns
    -------
    str
    """
    from textbcv.folds.run_dir import RunDir

    return RunDir(out_dir).read_report_md()


def print_report(out_dir: str | os.PathLike, report: dict | None = None) -> None:
    """Print the report of ``out_dir`` and where its files are.

    Parameters
    ----------
    out_dir : str or path-like
        The run directory; its ``report.md`` is printed (ANSI-styled when stdout is a terminal).
    report : dict or None
        Not read: what is printed is ``report.md`` as written.
    """
    from textbcv.folds.run_dir import RunDir

    run = RunDir(out_dir)
    sys.stdout.write(render_terminal(run.read_report_md(), color=sys.stdout.isatty()))
    print(f"\nFiles in {run.path}/: " + ", ".join(run.files()))


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

    if args.redraw:
        _, where = redraw(out)
        if where != out:
            print(f"textbcv: {out}'s report files are not textbcv's own as written (an earlier version's run, or "
                  f"edited): the redrawn report is in {where}/", file=sys.stderr)
            out = where
    if args.threshold is not None or args.rope is not None:
        if args.threshold is not None:
            check_threshold(args.threshold)
        _, where = rewrite(out, args.threshold, rope_fraction(args.rope), plots=not args.no_plots)
        print(f"textbcv: the report redrawn under the new rule is in {where}/ (report.json, report.md, report.tex"
              + ("" if args.no_plots else " and the plots") + f"); the run's own report in {out}/ is unchanged",
              file=sys.stderr)
        out = where
        rope_note = rope_warning(args.rope)
        if rope_note:
            from textbcv.errors import warn

            warn(rope_note)
    elif args.mode is not None:
        _, where = redraw_mode(out, args.mode, corpus=args.corpus, plots=not args.no_plots)
        print(f"textbcv: the report in matching mode {args.mode} is in {where}/ (report.json, report.md, report.tex"
              + ("" if args.no_plots else " and the plots") + f"); the run's own report in {out}/ is unchanged",
              file=sys.stderr)
        out = where
    elif args.no_plots:
        raise InputError("--no-plots applies only when --threshold, --rope or --mode redraws the report")
    if args.markdown:
        sys.stdout.write(read_report_md(out))
    else:
        print_report(out)
    return 0
