"""Predictions made outside textbcv, scored fold by fold into the same run directory as ``compare``.

The user's tagger trains on each ``train`` half of ``textbcv split --export`` and writes its predictions of the
``test`` half to ``PRED_DIR/fold-{i}-{d}.txt``; :func:`evaluate` checks them token by token against the corpus,
counts them against the corpus's gold chunks and writes the run as ``compare`` does. Everything is read and
checked before anything is written.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from textbcv._io import file_sha256
from textbcv.comparison.baseline import baseline_section
from textbcv.comparison.calibration_quote import quoted_calibration
from textbcv.comparison.heldout import HeldoutSet, read_heldout
from textbcv.comparison.pipeline import (
    CompareOptions,
    assemble_report,
    corpus_meta,
    corpus_or_files,
    fold_clusters,
    gold_chunks,
    options_from_splits,
    prepare_corpus,
    split_info,
    write_report,
)
from textbcv.corpus import Corpus
from textbcv.corpus.predictions import decode_predictions, read_segmented_predictions, read_tag_predictions
from textbcv.corpus.transform import filter_chunks, prediction_types
from textbcv.errors import InputError
from textbcv.folds.record import FoldRecord
from textbcv.folds.run_dir import RunDir
from textbcv.report.blocks import RunInfo, Stopping
from textbcv.report.model import CompareReport
from textbcv.schemes import detect, get_scheme, scheme_names
from textbcv.scoring import (
    count_chunks,
    heldout_record,
    sentence_counts,
    sum_heldout_records,
    sum_type_sentence_counts,
    type_sentence_counts,
)
from textbcv.scoring.modes import mode_record, sum_mode_records
from textbcv.split import SplitSet, load_splits
from textbcv.split.export import fold_name
from textbcv.tagging import FoldStore

__all__ = ["ImportedSystem", "evaluate", "check_pred_scheme", "seed_folders", "predicted_scheme", "IMPORTED"]

#: The ``tagger`` of an imported system's spec.
IMPORTED = "imported"


@dataclass(frozen=True)
class ImportedSystem:
    """A system whose predictions were made outside textbcv.

    Attributes
    ----------
    name : str
        The system's name in the report.
    predictions : str
        Its prediction directory (``PRED_DIR``), as given.

    Examples
    --------
    >>> ImportedSystem.parse("bert=runs/bert-preds")
    ImportedSystem(name='bert', predictions='runs/bert-preds')
    >>> ImportedSystem.parse("runs/bert-preds")
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: systems: expected NAME=PRED_DIR, got 'runs/bert-preds'
    """

    name: str
    predictions: str

    @classmethod
    def parse(cls, text: str) -> "ImportedSystem":
        """From ``NAME=PRED_DIR`` (the value of ``--system``); spaces around NAME are dropped.

        Parameters
        ----------
        text : str
            ``NAME=PRED_DIR``.

        Returns
        -------
        ImportedSystem

        Raises
        ------
        InputError
            When ``text`` has no ``=``, or an empty name or directory.
        """
        name, eq, path = text.partition("=")
        if not eq or not name.strip() or not path:
            raise InputError(f"systems: expected NAME=PRED_DIR, got {text!r}", param="systems")
        return cls(name.strip(), path)


def check_pred_scheme(scheme: str | None, task: str) -> str | None:
    """The canonical name of ``--pred-scheme`` (None: detect from the predictions).

    Parameters
    ----------
    scheme : str or None
        A scheme name or alias, any case.
    task : {"ner", "cws"}
        The comparison's task.

    Returns
    -------
    str or None

    Raises
    ------
    InputError
        For an unknown scheme, or any scheme with ``task="cws"``.

    Examples
    --------
    >>> check_pred_scheme("BIO", "ner"), check_pred_scheme(None, "ner")
    ('iob2', None)
    """
    if scheme is None:
        return None

    if task != "ner":
        raise InputError('{pred_scheme} applies to {task}="ner" (segmentation predictions are words, not tags)',
                         param=("pred_scheme", "task"))
    try:
        return get_scheme(scheme.lower()).name
    except (InputError, KeyError, ValueError):
        raise InputError(f"pred_scheme: unknown scheme {scheme!r} (schemes: {', '.join(sorted(scheme_names()))})",
                         param="pred_scheme") from None


def predicted_scheme(preds: Sequence, pred_scheme: str | None, where: str) -> str:
    """The scheme of a system's predicted tags: ``pred_scheme`` when given, else detected from all its files.

    Parameters
    ----------
    preds : sequence of TagPredictions
        Every prediction file of the system.
    pred_scheme : str or None
        ``--pred-scheme``, checked.
    where : str
        The system's prediction folder, named in the error.

    Returns
    -------
    str

    Raises
    ------
    InputError
        When no scheme is given and the tags tell none.
    """
    if pred_scheme is not None:
        return pred_scheme
    try:
        return detect(t for p in preds for t in p.tags)
    except InputError as e:
        raise InputError(f"cannot detect the scheme of the predicted tags ({e.message}); give it with "
                         "{pred_scheme}", file=where, param="pred_scheme") from None


def _digest(paths: Sequence[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(file_sha256(str(p)).encode("ascii"))
    return h.hexdigest()


def seed_folders(base: Path) -> list[tuple[int | str | None, Path]]:
    """The seeds of a prediction directory: ``[(S, base/seed-S)]``, or ``[(None, base)]`` without seed folders.

    Parameters
    ----------
    base : Path
        A system's prediction directory.

    Returns
    -------
    list of (seed, Path)
        Integer seeds first in numeric order, then other names in text order.

    Raises
    ------
    InputError
        When ``base`` holds both ``seed-S`` folders and loose ``fold-*.txt`` files, or a seed like ``seed-01``.
    """
    found: list[tuple[int | str, Path]] = []
    if base.is_dir():
        for p in base.iterdir():
            if p.is_dir() and p.name.startswith("seed-") and len(p.name) > 5:
                v = p.name[5:]
                if v.lstrip("-").isdigit() and str(int(v)) != v:  # seed-01 and seed-1 would be one seed
                    raise InputError(f"{p.name}: a seed folder names its seed as a plain integer (seed-{int(v)}); "
                                     "rename it", file=str(p))
                found.append((int(v) if v.lstrip("-").isdigit() else v, p))
    if not found:
        return [(None, base)]
    loose = sorted(p.name for p in base.glob("fold-*.txt"))
    if loose:
        raise InputError(f"holds both seed-S folders and fold files ({loose[0]}, ...): put every seed's files in its "
                         "seed-S folder, or use one seed without folders", file=str(base))
    return sorted(found, key=lambda x: (isinstance(x[0], str), x[0]))  # type: ignore[operator]


def _looks_like(path: Path, tests: Mapping[str, Sequence], task: str) -> str | None:
    """The fold whose test half a prediction file's sentences are, or None (for the hint on swapped files)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if task == "cws":
        sents = [tuple("".join(line.split())) for line in text.splitlines() if line.strip()]
    else:
        sents, cur = [], []
        for line in text.splitlines() + [""]:
            fields = line.split()
            if fields and fields[0] == "-DOCSTART-":
                continue
            if fields:
                cur.append(fields[0])
            elif cur:
                sents.append(tuple(cur))
                cur = []
    if not sents:
        return None
    for name, test in tests.items():
        if len(test) == len(sents) and tuple(test[0].tokens) == sents[0] and tuple(test[-1].tokens) == sents[-1]:
            return name
    return None


def _score_system(system: ImportedSystem, splits: SplitSet, corpus: Corpus, gold: Sequence, options: CompareOptions,
                  pred_scheme: str | None, types: set[str] | None,
                  heldout: Sequence[HeldoutSet] = ()) -> tuple[list[dict], dict]:
    """Fold records of one imported system (every fold file read and checked) and its provenance."""
    base = Path(system.predictions)
    folds = list(splits.folds())
    sents = corpus.sentences
    seeds = seed_folders(base)  # [(seed, its folder)], or [(None, base)] for one seed
    # (path, sentences) of every file to read, seed by seed: the fold's test half, then each held-out file
    jobs = []
    for _seed, root in seeds:
        for i, d, _, test in folds:
            jobs.append((root / f"{fold_name(i, d)}.txt", [sents[k] for k in test]))
            jobs += [(root / "heldout" / h.stem / f"{fold_name(i, d)}.txt", h.corpus.sentences) for h in heldout]
    roots = {root for _, root in seeds}
    paths = [p for p, _ in jobs]
    for p in paths:  # name the first missing file before reading any
        if not p.is_file():
            raise InputError("prediction file missing" if not p.exists() else "is not a file", file=str(p))
    scheme = None
    tests = {fold_name(i, d): [sents[k] for k in test] for i, d, _, test in folds}

    def read_all(reader):
        out = []
        for path, expected in jobs:
            try:
                out.append(reader(path, expected))
            except InputError as e:
                other = _looks_like(path, tests, options.task) if path.parent in roots else None
                if other is None or other == path.stem:
                    raise
                raise InputError(f"{e.message} — this file looks like the predictions of {other} (its sentences are "
                                 f"that fold's test half): files swapped?", file=e.file, line=e.line) from None
        return out

    if options.task == "cws":
        chunks = read_all(read_segmented_predictions)
    else:
        preds = read_all(read_tag_predictions)
        scheme = predicted_scheme(preds, pred_scheme, str(base))
        chunks = decode_predictions(preds, scheme, types)
    chunks = [[filter_chunks(c, options.chunk_types, options.untyped) for c in file] for file in chunks]
    spec: dict = {"name": system.name, "scheme": scheme, "tagger": IMPORTED, "predictions": system.predictions}
    if seeds[0][0] is not None:
        spec["seeds"] = [sd for sd, _ in seeds]
    records = []
    per_fold = 1 + len(heldout)
    per_seed = len(folds) * per_fold
    for k, (i, d, _, test) in enumerate(folds):
        test_gold = [gold[j] for j in test]
        # several seeds: the fold's counts summed over them (the pooled models of one training half; F1 is a ratio,
        # so a system's seed count does not weigh it), each seed's own totals kept beside
        at = [s_ * per_seed + k * per_fold for s_ in range(len(seeds))]
        per = [count_chunks(test_gold, chunks[x]) for x in at]
        counts = sum(per[1:], per[0])
        per_sentence = [sentence_counts(test_gold, chunks[x]) for x in at]  # each seed's, computed once
        held: dict | None = None
        if heldout:
            held = {h.name: sum_heldout_records([heldout_record(h.gold, chunks[x + 1 + q]) for x in at])
                    for q, h in enumerate(heldout)}
        several = len(seeds) > 1 or seeds[0][0] is not None
        records.append(FoldRecord(
            system.name, int(i), int(d), counts.to_dict(), tokens=int(sum(len(sents[j]) for j in test)),
            sentences=int(len(test)),
            sentence_counts=np.sum(per_sentence, axis=0).tolist(), spec=spec,
            seed_counts={str(sd): c.to_dict()["overall"] for (sd, _), c in zip(seeds, per)} if several else None,
            seed_sentence_counts=({str(sd): sc.tolist() for (sd, _), sc in zip(seeds, per_sentence)}
                                  if len(seeds) > 1 else None),
            modes=sum_mode_records([mode_record(test_gold, chunks[x], sc) for x, sc in zip(at, per_sentence)],
                                   per_sentence),
            type_sentence_counts=sum_type_sentence_counts([type_sentence_counts(test_gold, chunks[x]) for x in at]),
            heldout=held,
            run={"imported": [str(paths[x]) for x in at] if len(at) > 1 else str(paths[at[0]])}).to_dict())
    provenance = {"predictions": system.predictions, "scheme": scheme,
                  "scheme_detected": scheme is not None and pred_scheme is None, "files": len(paths),
                  "sha256": _digest(paths)}
    return records, provenance


def evaluate(
    splits: str | os.PathLike,
    files: Sequence[str] | None,
    systems: Sequence[ImportedSystem | str] | Mapping[str, str | os.PathLike],
    out: str | os.PathLike,
    options: CompareOptions,
    format: str | None = "conll",
    columns: str | None = None,
    scheme: str | None = None,
    pred_scheme: str | None = None,
    plots: bool = True,
    corpus: Corpus | None = None,
    encoding: str = "utf-8",
    label_names: Sequence[str] | None = None,
    on_note: Callable[[str], None] | None = None,
) -> CompareReport:
    """Score imported predictions of every fold and write the run directory.

    With ``options.heldout``, each system's directory also holds ``heldout/{stem}/fold-{i}-{d}.txt``: fold
    (i, d)'s model's predictions of held-out file ``stem``.

    Parameters
    ----------
    splits : path
        The ``SPLITS.json`` the predictions were made on; it must have been made from this corpus.
    files : sequence of str, or None with ``corpus``
        The corpus files.
    systems : sequence of ImportedSystem or ``"NAME=PRED_DIR"``, or mapping name → PRED_DIR
        At least two; ``PRED_DIR/fold-{i}-{d}.txt`` for every fold.
    out : path
        The run directory (must not hold a previous run).
    options : CompareOptions
        The comparison's options; m, seed and the split design are those of ``splits``.
    format : str
        Format of the corpus files.
    columns : str, optional
        Column roles of a ``conll`` corpus; default: by the number of columns.
    scheme : str, optional
        Scheme of the corpus's gold tags; default: detected.
    pred_scheme : str, optional
        Scheme of the predicted tags (NER); default: detected per system.
    plots : bool
        Draw the report's PNG plots.
    corpus : Corpus, optional
        The corpus already read, instead of ``files``.
    encoding : str
        Text encoding of the corpus and held-out files.
    label_names : sequence of str, optional
        The tag of each integer id of a jsonl or arrow corpus.
    on_note : callable, optional
        Given the line saying which format was detected, once the run has succeeded.

    Returns
    -------
    CompareReport
        The report written.

    Raises
    ------
    InputError
        For a bad option, a corpus that is not the one of ``splits``, or a missing or mismatched prediction file
        (``FILE:LINE``). Nothing is written then.
    """
    t_start = time.time()
    given: Sequence[ImportedSystem | str]
    if isinstance(systems, Mapping):
        given = [ImportedSystem(str(k), os.fspath(v)) for k, v in systems.items()]
    else:
        given = systems
    imported_systems = [s if isinstance(s, ImportedSystem) else ImportedSystem.parse(s) for s in given]
    split_set = load_splits(splits)
    options = replace(options, systems=tuple(s.name for s in imported_systems), m=len(split_set.splits))
    options.validate()
    options = options_from_splits(options, split_set)
    options.validate()
    pred_scheme = check_pred_scheme(pred_scheme, options.task)
    for s in imported_systems:
        p = Path(s.predictions)
        if not p.is_dir():
            raise InputError(f"systems {s.name}: " + ("is not a directory" if p.exists() else "no such directory"),
                             file=s.predictions, param="systems")
    out = Path(out)
    run_dir = RunDir(out)
    run_dir.check_out(resume=False)
    raw, note = corpus_or_files(corpus, files, format=format, columns=columns, scheme=scheme, encoding=encoding,
                                label_names=label_names)
    split_set.check_corpus(raw, file=os.fspath(splits))
    prepared = prepare_corpus(raw, options.task)
    gold = gold_chunks(prepared, options)
    t_read = time.time()
    types = prediction_types(prepared, options.task, options.untyped)
    heldout = read_heldout(options.heldout, raw, options, format=raw.format,
                           columns=columns, scheme=scheme) if options.heldout else []
    store = FoldStore(run_dir.folds)  # in memory until written (no file exists: checked above)
    imported = {"splits": {"path": os.fspath(splits), "sha256": file_sha256(os.fspath(splits))}, "systems": {}}
    for s in imported_systems:
        records, provenance = _score_system(s, split_set, prepared, gold, options, pred_scheme, types, heldout)
        for rec in records:
            store.records[(rec["system"], rec["split"], rec["direction"])] = rec
        imported["systems"][s.name] = provenance
    names = [s.name for s in imported_systems]
    m = len(split_set.splits)
    stopping = Stopping.fixed(m)
    t_end = time.time()
    run = RunInfo(started=time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(t_start)),
                  seconds=round(t_end - t_start, 3), read_seconds=round(t_read - t_start, 3),
                  folds_imported=len(store.records))
    meta = corpus_meta(raw, prepared, gold, raw.format, {"columns": columns, "scheme": scheme})
    report = assemble_report(store, names, m, options, split_set.quality, meta,
                             [store.records[(n, 0, 0)]["spec"] for n in names], stopping, run, imported=imported,
                             heldout=heldout, split=split_info(split_set, options, prepared),
                             clusters=fold_clusters(split_set, prepared),
                             baseline=baseline_section(prepared.sentences, gold, list(split_set.folds()),
                                                       options.task),
                             calibration=quoted_calibration(out, meta["fingerprint"]))
    existed = out.exists()
    run_dir.claim()
    try:
        run_dir.save_splits(split_set)
        store.finalize(names)
        write_report(out, report, plots)
    except BaseException:  # a full disk, an interrupt: no half-written run is left to be mistaken for one
        run_dir.discard(existed)
        raise
    finally:
        run_dir.unlock()
    if note and on_note is not None:  # how the corpus was read, said once the run has succeeded
        on_note(note)
    return report
