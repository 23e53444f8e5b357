"""Per-seed predictions of one test set made elsewhere (``DIR/seed-S.txt``), answered as the fixed-split design.

A user who trained each system on the official training set with several seeds and tagged the official test set
brings the predictions here: :func:`import_fixed` checks every file token by token against the test set,
counts its chunks against the test set's gold, and writes the same ``report.json`` as ``compare --train/--test``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from textbcv.comparison.corpus_files import read_files
from textbcv.comparison.fixed import check_files, check_gold, cluster_ids, fixed_meta, fixed_report, write_fixed
from textbcv.comparison.imported import ImportedSystem, check_pred_scheme, predicted_scheme
from textbcv.comparison.options import CompareOptions
from textbcv.comparison.pipeline import gold_chunks
from textbcv.corpus.predictions import decode_predictions, read_segmented_predictions, read_tag_predictions
from textbcv.corpus.transform import filter_chunks, prediction_types, prepare_corpus
from textbcv.errors import InputError
from textbcv.folds.run_dir import RunDir
from textbcv.report.fixed import FixedDesign, FixedReport
from textbcv.scoring import sentence_counts

__all__ = ["seed_files", "import_fixed"]

_SEED_FILE = re.compile(r"seed-(0|[1-9][0-9]*)\.txt")


def seed_files(folder: str | os.PathLike) -> list[tuple[int, Path]]:
    """A system's prediction files of the test set: ``[(S, folder/seed-S.txt)]`` in seed order.

    Parameters
    ----------
    folder : path

    Returns
    -------
    list of (int, Path)

    Raises
    ------
    InputError
        When the folder is missing or holds no ``seed-S.txt``, or a seed is written with a leading zero.
    """
    base = Path(folder)
    if not base.is_dir():
        raise InputError("prediction folder missing" if not base.exists() else "is not a folder", file=str(base))
    found = []
    for p in base.iterdir():
        if p.name.startswith("seed-") and p.name.endswith(".txt"):
            if not _SEED_FILE.fullmatch(p.name):
                raise InputError("a seed file is named seed-S.txt with S a plain integer (seed-0.txt, seed-1.txt, ...)",
                                 file=str(p))
            found.append((int(p.name[5:-4]), p))
    if not found:
        raise InputError("holds no seed-S.txt prediction files (one per training seed)", file=str(base))
    return sorted(found)


def import_fixed(test: str | os.PathLike, systems: Sequence[str | ImportedSystem], out: str | os.PathLike,
                   options: CompareOptions, train: str | os.PathLike | None = None, pred_scheme: str | None = None,
                   format: str | None = None, columns: str | None = None, scheme: str | None = None,
                   encoding: str = "utf-8", dev: str | os.PathLike | None = None) -> tuple[FixedReport, list[str]]:
    """Score every system's per-seed predictions of ``test`` and write the fixed-split report into ``out``.

    Parameters
    ----------
    test : path
        The test set (its gold tags).
    systems : sequence of ``NAME=DIR`` or ImportedSystem
        Each system's folder of ``seed-S.txt`` files (token ... tag lines; for ``cws`` one segmented sentence per
        line), the test set's sentences in its order.
    out : path
        Run directory: new, empty, or a textbcv run.
    options : CompareOptions
    train : path, optional
        The training set the systems were trained on: named in the report, with its size and the test sentences it
        also holds.
    pred_scheme : str, optional
        Scheme of the predicted tags (default: detected per system).
    format, columns, scheme, encoding
        How to read ``test`` (and ``train``, ``dev``).
    dev : path, optional
        The development file the systems were tuned on: named in the report with its size.

    Returns
    -------
    (FixedReport, list of str)
        The report written, and the notes for stderr.
    """
    given = [s if isinstance(s, ImportedSystem) else ImportedSystem.parse(s) for s in systems]
    options = replace(options, systems=tuple(s.name for s in given))
    options.validate()
    if options.mode != "strict":
        raise InputError("mode: the fixed design scores strict matches (conlleval's) only", param="mode")
    pred_scheme = check_pred_scheme(pred_scheme, options.task)
    files = {s.name: seed_files(s.predictions) for s in given}  # every folder checked before reading the corpus
    for s in given:
        if len(files[s.name]) < 2:
            raise InputError(f"systems: {s.name} has one seed's predictions; the fixed design measures the seeds' "
                             "noise from two or more (seed-0.txt, seed-1.txt, ...)", file=s.predictions,
                             param="systems")
    RunDir(out).check_out(False)
    named = {"train": train, "test": test, "dev": dev}
    check_files(named)
    paths = [str(p) for p in named.values() if p is not None]
    raw, note = read_files(paths, format, columns, scheme, encoding)
    corpus = prepare_corpus(raw, options.task)
    source = np.array([s.source for s in raw.sentences])
    te, tr = np.flatnonzero(source == str(test)), np.flatnonzero(source == str(train))
    n_dev = int(np.sum(source == str(dev))) if dev is not None else 0
    if dev is not None and not n_dev:
        raise InputError("holds no sentences", file=str(dev), param="dev")
    sents = [corpus.sentences[i] for i in te]
    gold_all = gold_chunks(corpus, options)
    gold = [gold_all[i] for i in te]
    check_gold(gold, test)
    types = prediction_types(corpus, options.task, options.untyped)
    counts = {}
    for s in given:
        if options.task == "cws":
            chunks = [read_segmented_predictions(p, sents) for _, p in files[s.name]]
        else:
            preds = [read_tag_predictions(p, sents) for _, p in files[s.name]]
            chunks = decode_predictions(preds, predicted_scheme(preds, pred_scheme, s.predictions), types)
        chunks = [[filter_chunks(c, options.chunk_types, options.untyped) for c in one] for one in chunks]
        counts[s.name] = np.stack([sentence_counts(gold, c) for c in chunks])
    test_corpus = raw.__class__([raw.sentences[i] for i in te], [str(test)], raw.format, raw.scheme, raw.encoding)
    clusters, unit, cluster_note = cluster_ids(test_corpus)
    train_tokens = {tuple(corpus.sentences[i].tokens) for i in tr}
    design = FixedDesign(None if train is None else str(train), str(test), len(tr), len(te),
                         sum(len(x) for x in sents), unit, int(clusters.max()) + 1,
                         sum(tuple(x.tokens) in train_tokens for x in sents) if train is not None else 0,
                         {n: [sd for sd, _ in f] for n, f in files.items()}, False, cluster_note,
                         None if dev is None else str(dev), n_dev)
    report = fixed_report(counts, clusters, design, options, fixed_meta(options, raw.format, raw.scheme))
    run = RunDir(out)
    run.claim()
    try:
        write_fixed(out, report)
    finally:
        run.unlock()
    return report, [note] if note else []
