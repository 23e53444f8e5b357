"""``textbcv report DIR``: show a finished comparison's report in the terminal."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from textbcv.errors import InputError

__all__ = ["register", "run", "print_report", "render_terminal", "read_report_md"]


def register(sub) -> None:
    p = sub.add_parser("report", help="show the report of a comparison run directory",
                       description="Show the report of a `textbcv compare` run directory in the terminal.")
    p.add_argument("dir", metavar="DIR", help="run directory written by textbcv compare")
    p.add_argument("--markdown", action="store_true", help="print report.md as it is")
    p.add_argument("--redraw", action="store_true",
                   help="first recompute the one-split tests (paired bootstrap, approximate randomization) from "
                        "folds.jsonl and rewrite report.json and report.md; nothing is trained")
    p.set_defaults(func=run)


def render_terminal(markdown: str, color: bool) -> str:
    """Markdown made pleasant in a terminal: aligned tables, bold headings (ANSI when ``color``)."""
    out, table = [], []

    def flush():
        if not table:
            return
        rows = [[c.strip() for c in r.strip().strip("|").split("|")] for r in table if not re.fullmatch(r"\|?[-|\s]+\|?", r.strip())]
        if not rows:  # separator lines only
            table.clear()
            return
        widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(max(len(r) for r in rows))]
        for k, r in enumerate(rows):
            line = "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
            out.append(("\033[1m" + line + "\033[0m") if color and k == 0 else line)
        table.clear()

    for line in markdown.splitlines():
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            out.append(("\033[1;4m" + title + "\033[0m") if color else title.upper() if line.startswith("# ") else title)
        else:
            out.append(line.replace("`", ""))
    flush()
    return "\n".join(out) + "\n"


def read_report_md(out_dir: str | os.PathLike) -> str:
    """The text of ``out_dir/report.md``; InputError (naming the file) when it is missing or unreadable."""
    path = Path(out_dir) / "report.md"
    if not path.is_file():
        raise InputError("no report.md here: not a finished `textbcv compare` run directory", file=str(out_dir))
    from textbcv._io import read_text

    return read_text(path, hint="not a report written by textbcv")


def print_report(out_dir: str | os.PathLike, report: dict | None = None) -> None:
    """Print the report of ``out_dir`` and where its files are."""
    out = Path(out_dir)
    md = read_report_md(out)
    sys.stdout.write(render_terminal(md, color=sys.stdout.isatty()))
    files = [p for p in ("report.md", "report.json", "splits.json", "folds.jsonl", "posteriors.png",
                         "f1_difference.png", "fold_f1.png") if (out / p).exists()]
    print(f"\nFiles in {out}/: " + ", ".join(files))


def run(args: argparse.Namespace) -> int:
    out = Path(args.dir)
    if args.redraw:
        from textbcv.onesplit import redraw

        redraw(out)
    if args.markdown:
        sys.stdout.write(read_report_md(out))
    else:
        print_report(out)
    return 0
