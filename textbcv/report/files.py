"""Writing a comparison's report files into its run directory."""

from __future__ import annotations

from textbcv._io import atomic_write_all, dumps_json
from textbcv.folds.run_dir import RUN_FILES, RunDir
from textbcv.report.markdown import render_markdown
from textbcv.report.model import CompareReport
from textbcv.report.plots import plot_bytes, plot_names
from textbcv.report.tex import render_tex

__all__ = ["write_report_files"]


def write_report_files(run: RunDir, report: CompareReport, plots: bool = True) -> None:
    """Write ``report.json``, ``report.md``, ``report.tex`` and the plots into ``run``, and record them in its manifest.

    Only files the manifest lists as textbcv's own are overwritten, all checked before anything is written; a plot
    of an earlier rendering that this one does not draw is removed.

    Parameters
    ----------
    run : RunDir
    report : CompareReport
    plots : bool
        Draw the PNG plots; False removes textbcv's plots of an earlier rendering.

    Raises
    ------
    InputError
        When a file to write exists but is not textbcv's own (nothing is written then).
    """
    names = plot_names(report) if plots else []
    pngs = [f for f in RUN_FILES if f.endswith(".png")]
    for name in ("report.json", "report.md", "report.tex", *pngs):  # all checked before anything is written
        if name in names or not name.endswith(".png") or (run.path / name).exists():
            run.check_writable_file(name)
    # every file rendered first, then written all or none: a full disk leaves the earlier rendering whole
    files = {run.report_json: dumps_json(report.to_dict(), indent=2).encode("utf-8"),
             run.report_md: render_markdown(report, names).encode("utf-8"),
             run.report_tex: render_tex(report).encode("utf-8"),
             **({run.path / name: data for name, data in plot_bytes(report).items()} if plots else {})}
    atomic_write_all(files)
    for stale in pngs:  # only textbcv's own plots of an earlier rendering (checked above)
        if stale not in names:
            (run.path / stale).unlink(missing_ok=True)
    run.record("report.json", "report.md", "report.tex", *pngs)
