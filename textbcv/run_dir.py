"""A comparison's run directory (:class:`RunDir`): its layout, its checks, and writing its report.

A run directory holds ``splits.json`` (the splits), ``folds.jsonl`` (one
line per finished fold: the resumable fold store), ``report.json``,
``report.md``, ``report.tex``, the PNG plots, and with ``--save-models`` /
``--save-predictions`` the ``models/`` and ``predictions/`` directories.
Every module that reads or writes one goes through this class, so the
layout is written down once.

Examples
--------
>>> import tempfile
>>> run = RunDir(tempfile.mkdtemp())
>>> run.folds.name, run.report_json.name, run.prediction("iob2", 0, 1).name
('folds.jsonl', 'report.json', 'iob2-split0-dir1.txt')
>>> run.check_out(resume=False)  # an empty directory: fine
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textbcv.errors import InputError

if TYPE_CHECKING:
    from textbcv.compare_report import CompareReport

__all__ = ["RunDir", "RUN_FILES", "RUN_MARKERS"]

#: The files a compare run writes into its directory.
RUN_FILES = ("splits.json", "folds.jsonl", "report.json", "report.md", "report.tex", "posteriors.png",
             "f1_difference.png", "pairwise.png", "fold_f1.png")
#: Files that mark a directory as a textbcv run (``--out`` may be one of these, or new, or empty).
RUN_MARKERS = ("splits.json", "folds.jsonl", "report.json")
#: The order in which ``textbcv report`` lists a run's files.
_SHOWN = ("report.md", "report.tex", "report.json", *[f for f in RUN_FILES if f.endswith(".png")], "splits.json",
          "folds.jsonl")


@dataclass(frozen=True)
class RunDir:
    """The run directory at ``path`` (which need not exist yet)."""

    path: Path

    def __init__(self, path: str | os.PathLike) -> None:
        object.__setattr__(self, "path", Path(path))

    # --- the layout -------------------------------------------------------------------------------------
    @property
    def splits(self) -> Path:
        """``splits.json``: the split manifest of the folds."""
        return self.path / "splits.json"

    @property
    def folds(self) -> Path:
        """``folds.jsonl``: one record per finished fold."""
        return self.path / "folds.jsonl"

    @property
    def report_json(self) -> Path:
        return self.path / "report.json"

    @property
    def report_md(self) -> Path:
        return self.path / "report.md"

    @property
    def report_tex(self) -> Path:
        return self.path / "report.tex"

    @property
    def models(self) -> Path:
        """``models/``: the fold models kept by ``--save-models``."""
        return self.path / "models"

    @property
    def predictions(self) -> Path:
        """``predictions/``: the fold predictions kept by ``--save-predictions``."""
        return self.path / "predictions"

    def prediction(self, system: str, split: int, direction: int) -> Path:
        """Where ``--save-predictions`` keeps a system's predictions of one fold."""
        return self.predictions / f"{system}-split{split}-dir{direction}.txt"

    def files(self) -> list[str]:
        """The run's files that exist, in the order ``textbcv report`` lists them."""
        return [p for p in _SHOWN if (self.path / p).exists()]

    # --- checks -------------------------------------------------------------------------------------------
    def check_out(self, resume: bool) -> None:
        """Refuse an ``--out`` that is a file, or a non-empty directory that is not a textbcv run (nothing is written).

        Examples
        --------
        >>> import tempfile
        >>> d = Path(tempfile.mkdtemp())
        >>> _ = (d / "thesis.tex").write_text("x")
        >>> RunDir(d).check_out(resume=False)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        textbcv.errors.InputError: ...: out: the directory is not empty and holds no textbcv run (thesis.tex);
        choose a new or empty directory
        """
        from textbcv._io import check_writable

        out = self.path
        if out.exists() and not out.is_dir():
            raise InputError("out must be a directory", file=str(out), param="out")
        check_writable(out, directory=True)
        if out.is_dir():
            try:
                names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
            except OSError as e:
                raise InputError(f"out: cannot read the directory: {e.strerror or e}", file=str(out),
                                 param="out") from None
            if names and not any(n in RUN_MARKERS for n in names):
                shown = ", ".join(names[:3]) + (f", … ({len(names)} entries)" if len(names) > 3 else "")
                raise InputError(f"out: the directory is not empty and holds no textbcv run ({shown}); choose a new "
                                 "or empty directory", file=str(out), param="out")
        if self.folds.exists() and not resume:
            raise InputError("holds a previous run (folds.jsonl); add {resume}=True to continue it, or choose another "
                             "{out}", file=str(out), param=("resume", "out"))

    def require(self, *files: str, what: str = "a finished `textbcv compare` run directory", prefix: str = "") -> None:
        """InputError (naming the directory) unless every one of ``files`` is in it."""
        for name in files:
            if not (self.path / name).is_file():
                raise InputError(f"{prefix}no {name} here: not {what}", file=str(self.path))

    # --- reading ------------------------------------------------------------------------------------------
    def read_report_md(self) -> str:
        """The text of ``report.md``; InputError (naming the directory) when it is missing or unreadable."""
        from textbcv._io import read_text

        self.require("report.md")
        return read_text(self.report_md, hint="not a report written by textbcv")

    def load_report(self) -> dict:
        """``report.json`` of this textbcv version (format and fold counts checked); InputError otherwise."""
        from textbcv._io import loads_json, read_text
        from textbcv.compare_report import REPORT_FORMAT

        self.require("report.json")
        path = self.report_json
        report = loads_json(read_text(path, hint="not a report written by textbcv"), str(path))
        if not isinstance(report, dict) or report.get("format") != REPORT_FORMAT or "fold_counts" not in report:
            raise InputError(f"not a report of this textbcv version (format {REPORT_FORMAT} with fold_counts)",
                             str(path))
        return report

    # --- writing ------------------------------------------------------------------------------------------
    def write_report(self, report: dict | CompareReport, plots: bool = True) -> None:
        """Write ``report.json``, ``report.md``, ``report.tex`` and (with ``plots``) the PNG plots of ``report``.

        ``report.md`` embeds the plots written (relative links); a plot of an
        earlier rendering that this one does not draw is removed, so that no
        picture contradicts the report beside it.
        """
        from textbcv._io import atomic_write, write_json
        from textbcv.compare_report import CompareReport
        from textbcv.report import plot_names, render_markdown, write_plots
        from textbcv.report_tex import render_tex

        typed = CompareReport.coerce(report)
        write_json(self.report_json, report.to_dict() if isinstance(report, CompareReport) else report)
        names = plot_names(typed) if plots else []
        if plots:
            write_plots(typed, self.path)
        for stale in RUN_FILES:
            if stale.endswith(".png") and stale not in names:
                (self.path / stale).unlink(missing_ok=True)
        with atomic_write(self.report_md) as f:
            f.write(render_markdown(typed, names))
        with atomic_write(self.report_tex) as f:
            f.write(render_tex(typed))

    def remove_run_files(self) -> None:
        """Delete the files a run wrote (the demo's own stale run)."""
        for f in RUN_FILES:
            (self.path / f).unlink(missing_ok=True)
