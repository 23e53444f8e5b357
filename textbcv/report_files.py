"""Writing a comparison's report into its run directory, and redrawing a finished run's report.

:func:`write_report_files` writes ``report.json``, ``report.md``, ``report.tex`` and the plots (only
over files the run's manifest lists as textbcv's own); :func:`redraw` recomputes a run's one-split
section from its fold records; :func:`rewrite` redraws the decisions under another threshold or rope
into a folder of their own (``what-if-...``), leaving what the run said as it was.
"""

from __future__ import annotations

import os
from pathlib import Path

from textbcv._io import atomic_write, load_json, write_json
from textbcv.compare_report import rerender
from textbcv.errors import InputError
from textbcv.fold_counts import check_report_counts
from textbcv.foldfile import read_fold_records
from textbcv.onesplit import one_split_section
from textbcv.report import plot_names, render_markdown, write_plots
from textbcv.report_model import CompareReport, load_report
from textbcv.report_tex import render_tex
from textbcv.run_dir import RUN_FILES, RunDir
from textbcv.tagging.store import fold_key

__all__ = ["write_report_files", "write_into_folder", "redraw", "rewrite", "what_if_name"]


def write_report_files(run: RunDir, report: dict | CompareReport, plots: bool = True) -> None:
    """Write ``report.json``, ``report.md``, ``report.tex`` and (with ``plots``) the PNG plots of ``report`` into
    the run ``run`` (only over files of its own: :meth:`RunDir.check_writable_file`), and record them.

    ``report.md`` embeds the plots written (relative links); a plot of an
    earlier rendering that this one does not draw is removed, so that no
    picture contradicts the report beside it.
    """
    typed = CompareReport.coerce(report)
    names = plot_names(typed) if plots else []
    pngs = [f for f in RUN_FILES if f.endswith(".png")]
    for name in ("report.json", "report.md", "report.tex", *pngs):  # all checked before anything is written
        if name in names or not name.endswith(".png") or (run.path / name).exists():
            run.check_writable_file(name)
    write_json(run.report_json, report.to_dict() if isinstance(report, CompareReport) else report)
    if plots:
        write_plots(typed, run.path)
    for stale in pngs:  # only textbcv's own plots of an earlier rendering (checked above)
        if stale not in names:
            (run.path / stale).unlink(missing_ok=True)
    with atomic_write(run.report_md) as f:
        f.write(render_markdown(typed, names))
    with atomic_write(run.report_tex) as f:
        f.write(render_tex(typed))
    run.record("report.json", "report.md", "report.tex", *pngs)


def redraw(out_dir: str | os.PathLike) -> tuple[dict, Path]:
    """Recompute the ``one_split`` block of a finished run from its ``folds.jsonl``; rewrite ``report.json`` and
    ``report.md``.

    Nothing is trained and nothing else in the report changes; a run whose
    folds have no per-sentence counts gets a block saying so. The report
    files are rewritten in place when they are textbcv's own (listed in the
    run manifest, unchanged); otherwise (a run of an earlier version, an
    edited report) the redrawn report goes into the run's folder
    ``redrawn/``. Returns the updated report and the folder it is in.

    Raises
    ------
    InputError
        When ``out_dir`` holds no ``report.json`` and ``folds.jsonl`` of a finished run.
    """
    run = RunDir(out_dir)
    run.require("report.json", "folds.jsonl", prefix="--redraw: ")
    report = load_json(run.report_json)
    if not isinstance(report, dict) or not isinstance(report.get("systems"), dict) or "m" not in report:
        raise InputError("--redraw: not a report written by textbcv", file=str(run.report_json))
    records = {fold_key(rec): rec for _, rec in read_fold_records(run.folds)}
    opts = report.get("meta", {}).get("options", {})
    report["one_split"] = one_split_section(records, list(report["systems"]), int(report["m"]),
                                            seed=int(report.get("meta", {}).get("seed", opts.get("seed", 0))),
                                            alpha=float(report.get("alpha", 0.05)))
    if run.is_run() and all(run.owns(n) or not (run.path / n).exists() for n in ("report.json", "report.md",
                                                                                "report.tex")):
        return report, _write_claimed(run, report, plots=False)
    return report, write_into_folder(run, "redrawn", report, plots=False)


def what_if_name(threshold: float | None, rope: float | None) -> str:
    """The folder of a redrawn report: ``what-if-threshold-0.99``, ``what-if-rope-0.5`` (points), or both.

    >>> what_if_name(0.99, None), what_if_name(None, 0.005), what_if_name(0.9, 0.0)
    ('what-if-threshold-0.99', 'what-if-rope-0.5', 'what-if-threshold-0.9-rope-0')
    """
    parts = []
    if threshold is not None:
        parts.append(f"threshold-{threshold:g}")
    if rope is not None:
        parts.append(f"rope-{round(100 * rope, 10):g}")
    return "what-if-" + "-".join(parts)


def rewrite(out_dir: str | os.PathLike, threshold: float | None = None, rope: float | None = None,
            plots: bool = True) -> tuple[dict, Path]:
    """Recompute the report of ``out_dir`` under ``threshold`` / ``rope`` (a fraction; 0 removes it) from its
    fold counts and write it into the run's folder :func:`what_if_name`; return the new report and the folder.

    The run's own report files are left as they are. ``report.json``'s fold counts must be those of the run's
    ``folds.jsonl`` (an edited ``report.json`` is refused, not redrawn as the truth).
    """
    run = RunDir(out_dir)
    report = load_report(run)
    check_report_counts(run, report)
    new = rerender(report, threshold=threshold, rope=rope)
    return new, write_into_folder(run, what_if_name(threshold, rope), new, plots=plots)


def _write_claimed(run: RunDir, report: dict, plots: bool) -> Path:
    """:func:`write_report_files` into ``run``, claimed and locked meanwhile; the run's folder."""
    run.claim()
    try:
        write_report_files(run, report, plots=plots)
    finally:
        run.unlock()
    return run.path


def write_into_folder(run: RunDir, name: str, report: dict, plots: bool) -> Path:
    """Write ``report`` into the run's folder ``name`` (a redrawn report beside the run's own); its path.

    The folder becomes the run's own (its manifest lists it); one that is there already and was not
    made by textbcv is refused, untouched.
    """
    where = RunDir(run.path / name)
    if run.is_run():
        run.claim(name)  # refuses a folder of that name that is not the run's own
        run.unlock()
    elif (where.path.exists() or where.path.is_symlink()) and not where.is_run():
        raise InputError(f"{name}/ was not made by textbcv; move it away to redraw the report there",
                         file=str(where.path))
    return _write_claimed(where, report, plots)
