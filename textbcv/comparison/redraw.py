"""Redrawing a finished run's report without training: its one-split section, or its decisions under another rule.

Each redraw but :func:`redraw`'s in-place one goes into a folder of its own (``what-if-...``), leaving what the
run said as it was.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from textbcv._io import atomic_write, load_json
from textbcv.comparison.assembly import assemble_report, judged_again, rerender
from textbcv.comparison.calibration_quote import quoted_calibration
from textbcv.comparison.design_effects import fold_clusters
from textbcv.comparison.onesplit import one_split_section
from textbcv.comparison.options import CompareOptions
from textbcv.corpus import read_corpus
from textbcv.corpus.transform import prepare_corpus
from textbcv.errors import InputError
from textbcv.folds.counts import check_report_counts
from textbcv.folds.foldfile import read_fold_records
from textbcv.folds.run_dir import MANIFEST, RunDir
from textbcv.folds.store import FoldStore, fold_key
from textbcv.report.blocks import Baseline, RunInfo, SplitInfo, Stopping
from textbcv.report.calibration import QuotedCalibration
from textbcv.report.files import write_report_files
from textbcv.report.model import CompareReport, load_report
from textbcv.split import load_splits

__all__ = ["redraw", "rewrite", "redraw_mode", "what_if_name", "write_into_folder"]


def redraw(out_dir: str | os.PathLike) -> tuple[dict, Path]:
    """Recompute a finished run's ``one_split`` block from its ``folds.jsonl`` and rewrite its report.

    Nothing else in the report changes. The report files are rewritten in place when they are textbcv's own
    (listed in the run manifest, unchanged), otherwise into ``out_dir/redrawn``.

    Parameters
    ----------
    out_dir : str or path-like
        The finished run's directory.

    Returns
    -------
    report : dict
        The updated ``report.json`` content.
    folder : Path
        Where it was written: ``out_dir`` or ``out_dir/redrawn``.

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
                                            alpha=float(report.get("alpha", 0.05))).to_dict()
    # a calibration made (or removed) since the run: the report quotes what the run's folder holds now
    report.pop("calibration", None)
    cal = quoted_calibration(run.path, (report.get("meta", {}).get("corpus") or {}).get("fingerprint"))
    if cal is not None:
        report["calibration"] = cal.to_dict()
    report = judged_again(report)  # the calibration binds at the call: the cautions and conclusion follow it
    if run.is_run() and all(run.owns(n) or not (run.path / n).exists() for n in ("report.json", "report.md",
                                                                                "report.tex")):
        return report, _write_claimed(run, report, plots=False)
    return report, write_into_folder(run, "redrawn", report, plots=False)


def what_if_name(threshold: float | None, rope: float | None) -> str:
    """The folder of a redrawn report: ``what-if-threshold-0.99``, ``what-if-rope-0.5`` (points), or both.

    Parameters
    ----------
    threshold : float or None
        The new decision threshold; None leaves it out of the name.
    rope : float or None
        The new rope as a fraction (named in points); None leaves it out, 0 is ``rope-0``.

    Returns
    -------
    str

    Examples
    --------
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
    """Recompute a run's report under another ``threshold`` / ``rope`` into its folder :func:`what_if_name`.

    Parameters
    ----------
    out_dir : str or path-like
        The finished run's directory.
    threshold : float or None
        The new decision threshold; None keeps the report's.
    rope : float or None
        The new rope as a fraction of the metric (0.005 is half a point); 0 removes it, None keeps the report's.
    plots : bool
        Draw the PNG plots too.

    Returns
    -------
    report : dict
        The new ``report.json`` content.
    folder : Path
        Where it was written.

    Raises
    ------
    InputError
        When the run has no report of this version, its fold counts differ from ``folds.jsonl``'s, or the folder
        exists and is not textbcv's own.
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
        write_report_files(run, CompareReport.from_dict(report), plots=plots)
    finally:
        run.unlock()
    return run.path


def write_into_folder(run: RunDir, name: str, report: dict, plots: bool) -> Path:
    """Write ``report`` into the run's folder ``name``, which becomes the run's own.

    A failed write leaves the run as it was.

    Parameters
    ----------
    run : RunDir
        The run.
    name : str
        The folder's name inside the run (e.g. ``redrawn``).
    report : dict
        ``report.json``'s content to write, with its renderings.
    plots : bool
        Draw the PNG plots too.

    Returns
    -------
    Path
        The folder written into.

    Raises
    ------
    InputError
        When the folder exists and was not made by textbcv.
    """
    where = RunDir(run.path / name)
    existed = where.path.exists()
    manifest = run.path / MANIFEST
    before = manifest.read_bytes() if run.is_run() else None
    if run.is_run():
        run.claim(name)  # refuses a folder of that name that is not the run's own
        run.unlock()
    elif (where.path.exists() or where.path.is_symlink()) and not where.is_run():
        raise InputError(f"{name}/ was not made by textbcv; move it away to redraw the report there",
                         file=str(where.path))
    try:
        return _write_claimed(where, report, plots)
    except BaseException:
        # a redraw that fails (a full disk, a signal) leaves the run as it was: what it wrote in the folder, the
        # folder when it made it, and the run's manifest as it was before
        where.discard(existed)
        if before is not None and manifest.read_bytes() != before:
            with contextlib.suppress(OSError), atomic_write(manifest, "wb", encoding=None) as f:
                f.write(before)
        raise


def redraw_mode(out_dir: str | os.PathLike, mode: str, corpus: Sequence[str] | None = None,
                plots: bool = True) -> tuple[dict, Path]:
    """A finished run's report in another matching mode, from its fold records, into ``what-if-mode-MODE``.

    The corpus is read again (the paired posteriors need the documents): from the report's paths, or ``corpus``;
    it must be the corpus the run split.

    Parameters
    ----------
    out_dir : str or path-like
        The finished run's directory.
    mode : {"strict", "exact", "partial", "type"}
        The matching mode to report in.
    corpus : sequence of str, optional
        The corpus files, when they are no longer where the report says.
    plots : bool
        Draw the PNG plots too.

    Returns
    -------
    report : dict
        The new ``report.json`` content.
    folder : Path
        ``out_dir/what-if-mode-MODE``.

    Raises
    ------
    InputError
        For an unknown mode, a run without modes, a corpus that cannot be read or is not the run's, or report
        counts that differ from ``folds.jsonl``'s.
    """
    run = RunDir(out_dir)
    report = load_report(run)
    check_report_counts(run, report)
    meta = report["meta"]
    known = {f.name for f in fields(CompareOptions)}
    o: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v) for k, v in meta["options"].items() if k in known}
    options = CompareOptions(**{**o, "mode": mode})
    options.validate()
    run.require("folds.jsonl", "splits.json", prefix="--mode: ")
    c = meta["corpus"]
    files = list(corpus) if corpus else [f["path"] for f in c["files"]]
    read = c.get("read") or {}
    try:
        raw = read_corpus(files, format=c.get("format"), columns=read.get("columns"), scheme=read.get("scheme"),
                          encoding=read.get("encoding") or "utf-8")
    except InputError as e:
        if corpus:
            raise
        raise InputError(f"--mode needs the run's corpus to know its documents, and it cannot be read where the "
                         f"report says ({e.message}); give it with --corpus FILE", file=e.file, line=e.line) from None
    splits = load_splits(run.splits)
    splits.check_corpus(raw, file=str(run.splits))
    prepared = prepare_corpus(raw, options.task)
    store = FoldStore(run.folds)
    names = list(options.systems)
    m = int(report["m"])
    missing = [k for k in store.records if "modes" not in store.records[k]]
    if missing:
        raise InputError("the run's folds hold no matching modes (a run of an earlier textbcv version): only strict "
                         "can be reported; run the comparison again", file=str(run.folds))
    new = assemble_report(store, names, m, options, report.get("split_quality"), c, meta.get("systems") or [],
                          Stopping.from_dict(report.get("stopping")), RunInfo.from_dict(report.get("run")),
                          imported=meta.get("imported"),
                          split=SplitInfo.from_dict(report.get("split")), splits_path=meta.get("splits"),
                          clusters=fold_clusters(splits, prepared), baseline=Baseline.from_dict(report.get("baseline")),
                          calibration=QuotedCalibration.from_dict(report.get("calibration"))).to_dict()
    return new, write_into_folder(run, f"what-if-mode-{mode}", new, plots=plots)
