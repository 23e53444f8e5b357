"""One comparison end to end: corpus → balanced m×2 BCV splits → folds → counts → tests → report.

This module and the CLI are the only places that know every stage: reading
and splitting the corpus (:func:`prepare_compare`: every check done, nothing
written), then training every fold, the sequential loop and the report
(:func:`run_compare`). The options live in :mod:`textbcv.comparison.options`,
the report in :mod:`textbcv.comparison.assembly` and the run directory's layout in
:mod:`textbcv.folds.run_dir`; their names are importable from here too.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from textbcv.comparison.assembly import assemble_report, corpus_meta, rerender, split_info
from textbcv.comparison.baseline import baseline_section
from textbcv.comparison.calibration_quote import quoted_calibration
from textbcv.comparison.corpus_files import read_files
from textbcv.comparison.design_effects import check_units, design_effects_of, fold_clusters
from textbcv.comparison.from_folds import folds_of_store, report_from_folds
from textbcv.comparison.heldout import check_heldout_records, read_heldout
from textbcv.comparison.options import SPLIT_METHODS, STOP_RULES, TASKS, VARIANTS, CompareOptions
from textbcv.comparison.systems import fit_systems
from textbcv.corpus import Corpus
from textbcv.corpus.fingerprint import corpus_fingerprints
from textbcv.corpus.transform import filter_chunks, prediction_types, prepare_corpus
from textbcv.errors import InputError
from textbcv.folds.run_dir import RUN_FILES, RUN_MARKERS, RunDir
from textbcv.report.blocks import RunInfo, Stopping
from textbcv.report.files import write_report_files
from textbcv.report.model import REPORT_FORMAT, CompareReport
from textbcv.report.sections import SequentialSection
from textbcv.split import NestedSplits, SplitSet, load_splits, make_splits
from textbcv.stats.sequential import stop_reason
from textbcv.tagging import FoldStore, Payload, System, make_payload, run_folds
from textbcv.tagging.runner import dask_client

__all__ = ["CompareOptions", "ComparePlan", "StaleRunError", "RUN_FILES", "RUN_MARKERS", "prepare_compare",
           "run_compare", "prepare_corpus", "gold_chunks", "assemble_report", "write_report", "corpus_meta",
           "options_from_splits", "rerender", "fit_systems", "fold_clusters", "design_effects_of", "REPORT_FORMAT",
           "VARIANTS", "SPLIT_METHODS", "TASKS", "STOP_RULES", "CompareReport", "RunDir"]


def gold_chunks(corpus: Corpus, options: CompareOptions) -> list[tuple]:
    """Gold chunks of every sentence after the ``--chunk-types`` / ``--untyped`` filters.

    Parameters
    ----------
    corpus : Corpus
        The corpus prepared for the task (:func:`prepare_corpus`).
    options : CompareOptions
        Its ``chunk_types`` (None: every type) and ``untyped``.

    Returns
    -------
    list of list of (start, end, type)
        One list per sentence, in corpus order.

    Raises
    ------
    InputError
        When a type of ``chunk_types`` has no chunk in the corpus.
    """
    keep = options.chunk_types
    if keep is not None:
        present = set(corpus.chunk_counts())
        missing = [t for t in keep if t not in present]
        if missing:
            raise InputError(f"chunk_types: no chunks of type {', '.join(missing)} in the corpus "
                             f"(types: {', '.join(sorted(present)) or 'none'})", param="chunk_types")
    return [filter_chunks(s.chunks, keep, options.untyped) for s in corpus]


class StaleRunError(InputError):
    """A run directory whose saved splits are not the ones the current options (or version) give.

    Parameters
    ----------
    message, file, line, param
        As :class:`~textbcv.errors.InputError`.
    """


def _given_splits(splits, raw: Corpus) -> tuple[SplitSet, str | None]:
    """Splits given by the user (a manifest path or a SplitSet), checked against the corpus; and the manifest's path."""
    if isinstance(splits, SplitSet):
        if splits.fingerprints is not None:
            splits.check_corpus(raw, file="splits")
        elif splits.n != len(raw):
            raise InputError(f"splits: made for {splits.n} sentences, but the corpus has {len(raw)}")
        return splits, None
    name = os.fspath(splits)
    given = load_splits(name)
    given.check_corpus(raw, file=name)
    return given, name


def corpus_or_files(corpus: Corpus | None, files: Sequence[str] | None, format: str | None = "conll",
                    columns: str | None = None, scheme: str | None = None, encoding: str = "utf-8",
                    label_names: Sequence[str] | None = None) -> tuple[Corpus, str | None]:
    """The corpus of a comparison: the Corpus given, else its files read once (:func:`read_files`); InputError when
    neither is given.

    Parameters
    ----------
    corpus : Corpus or None
        A corpus already read; returned as it is when given.
    files : sequence of str or None
        The corpus files, read when ``corpus`` is None.
    format : str or None
        Format of the files (None: detected); default ``"conll"``.
    columns : str or None
        Column roles of a ``conll`` file; default: by the number of columns.
    scheme : str or None
        Scheme of the gold tag column; default: detected.
    encoding : str
        Text encoding of the files; default ``"utf-8"``.
    label_names : sequence of str or None
        The tag of each integer id of a jsonl or arrow corpus read from files.

    Returns
    -------
    corpus : Corpus
        The corpus as read (not yet prepared for the task).
    note : str or None
        The line for stderr saying which format was detected; None when it was given (or a Corpus was).
    """
    if corpus is not None:
        if label_names is not None:
            raise InputError("label_names applies when the corpus is read from files; a Corpus given has its tags",
                             param="label_names")
        return corpus, None
    if files is not None:
        return read_files(files, format, columns, scheme, encoding, label_names)
    raise InputError("files: give the corpus files, or a Corpus as corpus=", param="files")


def options_from_splits(options: CompareOptions, splits: SplitSet) -> CompareOptions:
    """``options`` with the design of given splits (their m, seed, method, balance and grouping).

    Parameters
    ----------
    options : CompareOptions
        The comparison's options; its ``m`` must be the number of splits given.
    splits : SplitSet
        The given splits.

    Returns
    -------
    CompareOptions
        A copy with ``seed``, ``split_method``, ``balance`` and ``group_by`` of the splits.

    Raises
    ------
    InputError
        When ``options`` asks for another m or a sequential run.
    """
    if options.sequential:
        raise InputError("{sequential}=True adds nested splits as it goes; it cannot be used with given splits",
                         param="sequential")
    k = len(splits.splits)
    if options.m != k:
        raise InputError(f"the splits hold m = {k} splits, but m = {options.m} was asked for; leave m out to use them")
    o = splits.options
    return replace(options, seed=splits.seed, split_method=splits.method,
                   balance=tuple(o.get("balance", options.balance)),
                   group_by=o.get("group_by_requested", o.get("group_by", options.group_by)))


def _split_manifest(raw: Corpus, corpus: Corpus, options: CompareOptions, out: Path, resume: bool,
                    given: SplitSet | None = None) -> SplitSet:
    if given is not None:
        splits = given
    else:
        check_units(options.group_by, corpus)
        splits = make_splits(corpus, m=options.m_max if options.sequential else options.m, method="bcv",
                             balance=options.balance or None, group_by=options.group_by, seed=options.seed)
        # fingerprints of the corpus as read (words, not characters, for a CoNLL-U corpus segmented here), so
        # that the manifest is accepted with the same files by `textbcv evaluate` and `compare --splits`
        splits.fingerprints = corpus_fingerprints(raw)
    path = RunDir(out).splits
    if resume and path.exists():
        old = load_splits(path)
        k = len(old.splits)
        same = old.n == splits.n and k <= len(splits.splits) and all(
            np.array_equal(a, b) and np.array_equal(c, d) for (a, c), (b, d) in zip(old.splits, splits.splits[:k]))
        if same and old.fingerprints is not None and old.fingerprints != splits.fingerprints:
            raise StaleRunError("the saved splits were made for another corpus (the sentences differ); use another "
                                "{out}", file=str(path), param="out")
        if not same:
            raise StaleRunError("the saved splits differ from the ones these options give (another corpus, seed, "
                                "option or textbcv version?); use another {out}", file=str(path), param="out")
    return splits


def write_report(out: str | os.PathLike, report: CompareReport, plots: bool = True) -> None:
    """Write ``report.json``, ``report.md``, ``report.tex`` and (with ``plots``) the plots into ``out``
    (:func:`textbcv.report.files.write_report_files`).

    Parameters
    ----------
    out : str or path-like
        The run directory.
    report : CompareReport
        The report.
    plots : bool
        Draw the PNG plots; default True.
    """
    write_report_files(RunDir(out), report, plots)


@dataclass
class ComparePlan:
    """Everything a comparison needs before its first fold is trained (from :func:`prepare_compare`).

    Every check of the user's input (options, corpus files, ``--out``, a run
    being resumed) is done by the time a plan exists, and nothing has been
    written yet.

    Attributes
    ----------
    out : Path
        The run directory.
    options : CompareOptions
        The options, with the design of given splits.
    format : str
        The corpus format read.
    systems : list of System
        The systems, their feature templates fitted to the corpus's columns.
    raw, corpus : Corpus
        The corpus as read, and prepared for the task.
    gold : list
        Gold chunks of every sentence after the ``chunk_types`` / ``untyped`` filters.
    splits : SplitSet
        The splits: given ones whole, or a :class:`~textbcv.split.NestedSplits` made here (of ``m_max`` splits for
        a sequential run, of ``m`` otherwise).
    payload : Payload
        The featurized sentences the folds are trained and tested on.
    store : FoldStore
        The run's fold records (those of a resumed run already in it).
    times : dict
        ``start``, ``read``, ``split``, ``feat``: wall-clock times (``time.time()``) of the stages.
    heldout : list of HeldoutSet
        The held-out files.
    notes : list of str
        Lines for stderr: which format the corpus was read in (when detected), which feature template the systems
        named without one use, and why.
    template_choices : dict
        How each CRF system's template was chosen (for ``meta.systems``).
    read : dict
        ``columns``, ``scheme`` and ``encoding`` as given (None: the default), for ``meta.corpus.read``.
    splits_path : str or None
        The manifest given with ``splits``, as a path; None when the splits were made here or given as a SplitSet.
    """

    out: Path
    options: CompareOptions
    format: str
    systems: list[System]
    raw: Corpus
    corpus: Corpus
    gold: list[tuple]
    splits: SplitSet  # a NestedSplits when made here (a sequential run cuts its heads); given splits are used whole
    payload: Payload
    store: FoldStore
    times: dict = field(default_factory=dict)
    heldout: list = field(default_factory=list)
    #: Lines for stderr: the format detected, which feature template the systems named without one use, and why.
    notes: list = field(default_factory=list)
    #: How each CRF system's template was chosen ("given", "default", or the default that fits the columns).
    template_choices: dict = field(default_factory=dict)
    read: dict = field(default_factory=dict)
    splits_path: str | None = None


def prepare_compare(
    files: Sequence[str] | None,
    out: str | os.PathLike,
    options: CompareOptions,
    format: str | None = "conll",
    columns: str | None = None,
    scheme: str | None = None,
    resume: bool = False,
    *,
    corpus: Corpus | None = None,
    systems: Sequence[System | str] | None = None,
    splits: SplitSet | str | os.PathLike | None = None,
    encoding: str = "utf-8",
    label_names: Sequence[str] | None = None,
) -> ComparePlan:
    """Check the input and do the work before training: read, split, featurize (nothing is written).

    Parameters
    ----------
    files : sequence of str, or None
        Corpus files (read with ``format``, ``columns``, ``scheme``), or None with ``corpus``.
    out : path
        Run directory: new, empty, or (with ``resume``) a run of the same options to continue.
    options : CompareOptions
        Every option of the comparison (validated here).
    format : str or None
        Format of the corpus files (:func:`textbcv.corpus.read_corpus`; None: detected, and said in the plan's
        ``notes``); default ``"conll"``.
    columns : str, optional
        Column roles of a ``conll`` corpus (e.g. ``"token,pos,chunk,ner"``); default: by the number of columns.
    scheme : str, optional
        Scheme of the corpus's gold tag column; default: detected.
    resume : bool
        Continue the run in ``out``, training only its missing folds (its splits must be the ones these options
        give: :class:`StaleRunError` otherwise); default False.
    corpus : Corpus, optional
        A corpus already read (instead of ``files``).
    systems : sequence of System, optional
        The systems, when not named by ``options.systems`` (e.g. systems with
        the user's own taggers); ``options.systems`` becomes their names.
    splits : SplitSet or path, optional
        Use these splits (a ``textbcv split`` manifest is checked against the
        corpus) instead of making them; their m, seed and design replace the
        options'.
    encoding : str
        Text encoding of the corpus and held-out files; default ``"utf-8"``.
    label_names : sequence of str, optional
        The tag of each integer id of a jsonl or arrow corpus read from ``files``.

    Returns
    -------
    ComparePlan
        The checked, featurized comparison, for :func:`run_compare`.

    Raises
    ------
    InputError
        For any bad option, corpus file, split manifest or run directory.
    """
    t_start = time.time()
    if systems is not None:
        systems = list(systems)
        for s in systems:
            if not isinstance(s, (System, str)):
                raise InputError(f"systems: expected System objects or names, got {type(s).__name__}")
        options = replace(options, systems=tuple(s.name if isinstance(s, System) else s.strip() for s in systems))
    else:
        systems = list(options.systems)
    options.validate()
    for s in systems:  # names checked before the corpus is read; templates fitted to its columns below
        if isinstance(s, str):
            options.make_system(s)
    names = list(options.systems)
    out = Path(out)
    RunDir(out).check_out(resume)
    store = FoldStore(RunDir(out).folds)
    check_heldout_records(store, names, options.heldout)
    raw, detected = corpus_or_files(corpus, files, format=format, columns=columns, scheme=scheme, encoding=encoding,
                                    label_names=label_names)
    given, given_path = None, None
    if splits is not None:
        given, given_path = _given_splits(splits, raw)
        options = options_from_splits(options, given)
        options.validate()
    prepared = prepare_corpus(raw, options.task)
    gold = gold_chunks(prepared, options)
    heldout = read_heldout(options.heldout, raw, options, format=raw.format,
                           columns=columns, scheme=scheme) if options.heldout else []
    systems, notes, choices = fit_systems(systems, options, prepared, heldout)
    for s in systems:
        store.check_spec(s.name, s.to_dict())
    t_read = time.time()
    split_set = _split_manifest(raw, prepared, options, out, resume, given)
    t_split = time.time()
    # held-out predictions are saved in the corpus's scheme; a Corpus object may name none (then: the file's own)
    scheme_out = prepared.scheme
    payload = make_payload(prepared.sentences, gold, systems,
                           {h.name: (h.corpus.sentences, h.gold, h.stem, scheme_out or h.corpus.scheme)
                            for h in heldout}, prediction_types(prepared, options.task, options.untyped))
    t_feat = time.time()
    read = {"columns": columns, "scheme": scheme, "encoding": None if _utf8(encoding) else encoding}
    return ComparePlan(out, options, raw.format, systems, raw, prepared, gold,
                       split_set, payload, store, {"start": t_start, "read": t_read, "split": t_split, "feat": t_feat},
                       heldout, ([detected] if detected else []) + notes, choices, read, given_path)


def _utf8(encoding: str | None) -> bool:
    return encoding is None or encoding.lower().replace("_", "-") in ("utf-8", "utf8")


def run_compare(
    plan: ComparePlan,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool | None = None,
    save_models: bool = False,
    save_predictions: bool = False,
    plots: bool = True,
) -> CompareReport:
    """Train and score every fold of ``plan``, test, and write the run directory; return the report.

    Parameters
    ----------
    plan : ComparePlan
        :func:`prepare_compare`'s answer.
    jobs : int
        Worker processes (1, the default, trains in this process).
    backend : {"loky", "dask"}
        Where folds run; default ``"loky"`` (local processes).
    scheduler : str or None
        Address of a ``dask.distributed`` scheduler (backend ``dask``); None starts a local cluster.
    progress : bool or None
        None (default): a bar when stderr is a terminal, else one line per finished fold; True: the bar; False:
        nothing.
    save_models : bool
        Keep every fold's crfsuite model in ``models/``; default False.
    save_predictions : bool
        Keep every fold's predictions in ``predictions/`` (conlleval format); default False.
    plots : bool
        Draw the report's PNG plots; default True.

    Returns
    -------
    CompareReport
        The report written (``to_dict()`` is ``report.json``'s content).

    Raises
    ------
    InputError
        When another run wrote into the directory since the plan was made, or for a bad ``jobs`` or ``backend``.
    """
    if backend == "dask" and importlib.util.find_spec("distributed") is None:  # before anything is written
        raise InputError("{backend}=\"dask\" needs the optional dependency: pip install 'textbcv[dask]'",
                         param="backend")
    # connected before anything is written: the last check that can fail without training
    with dask_client(jobs, scheduler) if backend == "dask" else contextlib.nullcontext() as client:
        return _run_in(plan, jobs, backend, client, progress, save_models, save_predictions, plots)


def _run_in(plan: ComparePlan, jobs: int, backend: str, client, progress: bool | None, save_models: bool,
            save_predictions: bool, plots: bool) -> CompareReport:
    """:func:`run_compare` once every check has passed: claim the run directory, run, and undo a failed run."""
    run_dir = RunDir(plan.out)
    commands = any(s.command is not None for s in plan.systems)
    existed = run_dir.path.exists()
    run_dir.claim(*(["models"] if save_models else []), *(["predictions"] if save_predictions else []),
                  *(["commands"] if commands else []))
    if commands:  # a command runs where the run was started: its relative paths mean what they mean in the shell
        root, cwd = str(run_dir.path / "commands"), os.getcwd()
        plan = replace(plan, payload=replace(plan.payload, command_root=root, slots=jobs, command_cwd=cwd))
    try:
        if FoldStore(run_dir.folds).done != plan.store.done:  # written by another run since this one was planned
            raise InputError("out: another textbcv run wrote into this folder since this one started; choose "
                             "another {out}", file=str(plan.out), param="out")
        return _run_claimed(plan, run_dir, jobs, backend, client, progress, save_models, save_predictions, plots)
    except BaseException as e:  # nothing to --resume: no trace left; an interrupt says what is kept
        total = None if plan.options.sequential else len(plan.systems) * len(plan.splits) * 2
        raise run_dir.ended(existed, e, total) from None
    finally:
        run_dir.unlock()


def _run_claimed(plan: ComparePlan, run_dir: RunDir, jobs: int, backend: str, client,
                 progress: bool | None, save_models: bool, save_predictions: bool, plots: bool) -> CompareReport:
    """:func:`run_compare` in a claimed, locked run directory."""
    out, options, systems, store = plan.out, plan.options, plan.systems, plan.store
    raw, corpus, gold, splits, payload = plan.raw, plan.corpus, plan.gold, plan.splits, plan.payload
    t_start, t_read, t_split, t_feat = (plan.times[k] for k in ("start", "read", "split", "feat"))
    format = plan.format
    names = [s.name for s in systems]
    before = set(store.done)
    all_folds = list(splits.folds())
    m = options.m_start if options.sequential else options.m
    m = min(m, len(splits.splits))
    clusters = fold_clusters(splits, corpus)
    while True:
        if m == len(splits):  # given splits are used whole
            splits_m = splits
        else:
            assert isinstance(splits, NestedSplits)  # made by prepare_compare (bcv): nested, with heads
            splits_m = splits.head(m)
        run_dir.save_splits(splits_m)
        run_folds(payload, [f for f in all_folds if f[0] < m], systems, store, jobs=jobs, backend=backend,
                  client=client, progress=progress,
                  save_models=str(run_dir.models) if save_models else None,
                  save_predictions=str(run_dir.predictions) if save_predictions else None)
        answer = report_from_folds(folds_of_store(store, names, m, options.mode, clusters), options.answer())
        if not options.sequential:
            reason = f"fixed m = {m}"
            break
        best = [None if c.p_b_better is None or c.p_a_better is None else max(c.p_b_better, c.p_a_better)
                for c in answer.comparisons_of("f1")]
        t_test = answer.section(SequentialSection)
        floored = [c.difference is not None and c.difference.paired is not None and c.difference.paired.floored
                   for c in answer.comparisons_of("f1")]
        why = stop_reason(options.stop, t_test.pairs if t_test else (), best, options.threshold,
                          looks=options.m_max - options.m_start + 1, floored=floored)
        if why is not None:
            reason = f"stopped at m = {m}: {why}"
            break
        if m >= options.m_max:
            reason = (f"m = {options.m_start} could not decide: extended to m = {options.m_max}"
                      if options.stop == "measured" else
                      f"reached m = M = {options.m_max} without a decision")
            break
        m = options.m_max if options.stop == "measured" else m + 1  # measured: one look more, at the last m
    stopping = (Stopping(options.stop, options.m_max, reason, m, 2 * m, m_start=options.m_start)
                if options.sequential else Stopping(None, None, reason, m, 2 * m))
    t_end = time.time()
    run = RunInfo(
        started=time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(t_start)),
        seconds=round(t_end - t_start, 3),
        read_seconds=round(t_read - t_start, 3),
        split_seconds=round(t_split - t_read, 3),
        feature_seconds=round(t_feat - t_split, 3),
        # resumed: folds of this report found finished (not folds of other systems or later splits in the store)
        folds_trained=len(store.done - before),
        folds_resumed=sum((n, j, k) in before for n in names for j in range(m) for k in (0, 1)),
        jobs=jobs, backend=backend,
    )
    specs = [{**s.to_dict(), **({"template_choice": plan.template_choices[s.name]}
                                 if s.name in plan.template_choices else {})} for s in systems]
    meta = corpus_meta(raw, corpus, gold, format, plan.read)
    report = assemble_report(store, names, m, options, splits_m.quality, meta, specs, stopping, run, answer=answer,
                             heldout=plan.heldout, split=split_info(splits_m, options, corpus),
                             splits_path=plan.splits_path, clusters=clusters,
                             baseline=baseline_section(corpus.sentences, gold, list(splits_m.folds()), options.task),
                             calibration=quoted_calibration(out, meta["fingerprint"]))
    write_report(out, report, plots)
    return report

