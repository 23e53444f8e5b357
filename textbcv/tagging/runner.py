"""The fold runner: every system trained on every half and scored on the other.

Each finished fold is appended to a :class:`~textbcv.folds.store.FoldStore` at once, so a killed run resumes where
it stopped. Features are extracted once per corpus and template and shipped once per worker process.
"""

from __future__ import annotations

import os
import pickle
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from textbcv.corpus.conlleval import write_conlleval
from textbcv.corpus.model import Sentence
from textbcv.errors import InputError
from textbcv.folds.record import FoldRecord
from textbcv.folds.run_dir import fold_file_stem
from textbcv.folds.store import FoldStore
from textbcv.schemes import decode, encode, get_scheme
from textbcv.scoring import (
    ChunkCounts,
    count_chunks,
    heldout_record,
    sentence_counts,
    sum_heldout_records,
    sum_type_sentence_counts,
    type_sentence_counts,
)
from textbcv.scoring.modes import mode_record, sum_mode_records
from textbcv.tagging.command import CommandTagger, forget_commands, stop_commands, task_folder
from textbcv.tagging.crf import CRFTagger
from textbcv.tagging.payload import (
    MAX_KEPT_FEATURES,
    Payload,
    _crf_input,
    _freeze,
    _resolve,
    _take,
    make_payload,
)
from textbcv.tagging.progress import FoldProgress
from textbcv.tagging.system import System

__all__ = ["Payload", "Fold", "run_folds", "make_payload", "dask_client", "BACKENDS", "MAX_KEPT_FEATURES"]

BACKENDS = ("loky", "dask")

Fold = tuple[int, int, np.ndarray, np.ndarray]  # (split, direction, train indices, test indices)

def run_fold(ref: Payload | str, system: System, split: int, direction: int, train: np.ndarray, test: np.ndarray,
             model_path: str | None = None, predictions_path: str | None = None, in_worker: bool = False) -> dict:
    """Fit ``system`` on ``train``, predict ``test``, and return the fold record.

    Parameters
    ----------
    ref : Payload or str
        The payload, or the path of its pickle (loaded once per process).
    system : System
    split : int
        0-based split index.
    direction : int
        0 or 1.
    train, test : numpy.ndarray of int
        Sentence indices into the payload.
    model_path : str, optional
        Where to write the crfsuite model (CRF systems only).
    predictions_path : str, optional
        Where to write the test predictions in conlleval format.
    in_worker : bool
        True in a worker process.

    Returns
    -------
    dict
        The fold's ``folds.jsonl`` record (:meth:`textbcv.folds.record.FoldRecord.to_dict`).

    Raises
    ------
    ValueError
        When the tagger returns another number of sentences or tags than it was given.
    """
    t_start = time.perf_counter()
    payload, loaded = _resolve(ref)
    if in_worker:
        _freeze(payload)
    sents, gold = payload.sentences, payload.gold
    if system.tagger is None and system.train_seeds > 1:
        return _run_fold_seeds(ref, system, split, direction, train, test, model_path, predictions_path, in_worker,
                               t_start, loaded)
    train_tags = [encode(gold[i], len(sents[i]), system.scheme) for i in train]
    if system.is_crf:
        template = system.template
        assert template is not None  # System.__post_init__ refuses a CRF system without a template
        tagger = CRFTagger(template, system.algorithm, system.params, seed=system.seed)
        feats, built = _crf_input(payload, template)
        tagger.fit_features(_take(feats, sents, train, template), train_tags)
        pred_tags = tagger.predict_features(_take(feats, sents, test, template))

        def tag_heldout(name, part):
            seqs, seconds = _crf_input(payload, template, name)
            engine["sequence_seconds"] += round(seconds, 4)
            return tagger.predict_features(_take(seqs, part.sentences, range(len(part.sentences)), template))
        engine = {"append_seconds": round(tagger.append_seconds, 4), "train_seconds": round(tagger.train_seconds, 4),
                  "tag_seconds": round(tagger.tag_seconds, 4), "sequence_seconds": round(built, 4)}
        if model_path:
            model = tagger.model_
            assert model is not None  # set by fit_features
            Path(model_path).parent.mkdir(parents=True, exist_ok=True)
            Path(model_path).write_bytes(model)
    else:
        own = (system.new_tagger() if system.command is None else
               CommandTagger(system.command, system.name, payload.command_root, split, direction, system.seed,
                             payload.slots, payload.command_cwd, system.scheme, payload.types,
                             ([sents[i] for i in payload.dev],
                              [encode(gold[i], len(sents[i]), system.scheme) for i in payload.dev])
                             if payload.dev else None))
        t0 = time.perf_counter()
        own.fit([sents[i] for i in train], train_tags)
        t1 = time.perf_counter()
        extra: dict[str, list] = {}
        if system.command is not None and payload.heldout:
            # a command trains once per fold and tags one file: the held-out sentences follow the test half in it,
            # and its predictions are cut back into the fold's and each held-out file's
            parts = list(payload.heldout.items())
            tagged = own.predict([sents[i] for i in test] + [s for _, h in parts for s in h.sentences])
            pred_tags, k = tagged[:len(test)], len(test)
            for name, h in parts:
                extra[name], k = tagged[k:k + len(h.sentences)], k + len(h.sentences)
        else:
            pred_tags = own.predict([sents[i] for i in test])
        engine = {"train_seconds": round(t1 - t0, 4), "tag_seconds": round(time.perf_counter() - t1, 4)}

        def tag_heldout(name, part):
            return extra[name] if name in extra else own.predict(part.sentences)
    _check_lengths(system, [sents[i] for i in test], pred_tags)
    pred_chunks = [decode(tags, system.scheme) for tags in pred_tags]
    test_gold = [gold[i] for i in test]
    counts = count_chunks(test_gold, pred_chunks)
    if predictions_path:
        write_conlleval(predictions_path, [sents[i].tokens for i in test],
                        [encode(gold[i], len(sents[i]), system.scheme) for i in test], pred_tags)
    heldout: dict | None = None
    if payload.heldout:
        t0 = time.perf_counter()
        heldout = {}
        for name, part in payload.heldout.items():
            tags = tag_heldout(name, part)
            _check_lengths(system, part.sentences, tags)
            chunks = [decode(t, system.scheme) for t in tags]
            heldout[name] = heldout_record(part.gold, chunks)
            if predictions_path:
                p = Path(predictions_path)
                scheme = part.scheme or system.scheme
                write_conlleval(p.parent / "heldout" / part.stem / p.name, [s.tokens for s in part.sentences],
                                [encode(g, len(s), scheme) for s, g in zip(part.sentences, part.gold)],
                                [encode(c, len(s), scheme) for s, c in zip(part.sentences, chunks)])
        engine["heldout_seconds"] = round(time.perf_counter() - t0, 4)
    per_sentence = sentence_counts(test_gold, pred_chunks)
    return FoldRecord(system.name, int(split), int(direction), counts.to_dict(),
                      tokens=int(sum(len(sents[i]) for i in test)), sentences=int(len(test)),
                      sentence_counts=per_sentence.tolist(), spec=system.to_dict(),
                      modes=mode_record(test_gold, pred_chunks, per_sentence),
                      type_sentence_counts=type_sentence_counts(test_gold, pred_chunks),
                      heldout=heldout, run={"seconds": round(time.perf_counter() - t_start, 4), **engine,
                                            "pid": os.getpid(), "payload_loaded": loaded}).to_dict()


def _seed_path(path: str | None, seed: int | None) -> str | None:
    """``path`` with ``.seed-S`` before its extension (one model or prediction file per training seed)."""
    if path is None:
        return None
    p = Path(path)
    return str(p.with_name(f"{p.stem}.seed-{seed}{p.suffix}"))


def _run_fold_seeds(ref: Payload | str, system: System, split: int, direction: int, train: np.ndarray,
                    test: np.ndarray, model_path: str | None, predictions_path: str | None, in_worker: bool,
                    t_start: float, loaded: bool) -> dict:
    """The fold record of a system trained with several seeds: counts summed, each seed's kept."""
    one = [run_fold(ref, replace(system, seed=s, train_seeds=1), split, direction, train, test,
                    _seed_path(model_path, s), _seed_path(predictions_path, s), in_worker)
           for s in system.seeds]
    counts = sum((ChunkCounts.from_dict(r["counts"]) for r in one[1:]), ChunkCounts.from_dict(one[0]["counts"]))
    heldout: dict | None = None
    if "heldout" in one[0]:
        heldout = {name: sum_heldout_records([r["heldout"][name] for r in one]) for name in one[0]["heldout"]}
    return FoldRecord(system.name, int(split), int(direction), counts.to_dict(), tokens=one[0]["tokens"],
                      sentences=one[0]["sentences"],
                      sentence_counts=np.sum([r["sentence_counts"] for r in one], axis=0).tolist(),
                      spec=system.to_dict(),
                      seed_counts={str(s): r["counts"]["overall"] for s, r in zip(system.seeds, one)},
                      seed_sentence_counts={str(s): r["sentence_counts"] for s, r in zip(system.seeds, one)},
                      modes=sum_mode_records([r["modes"] for r in one], [r["sentence_counts"] for r in one]),
                      type_sentence_counts=sum_type_sentence_counts([r["type_sentence_counts"] for r in one]),
                      heldout=heldout,
                      run={"seconds": round(time.perf_counter() - t_start, 4), "seeds": [r["run"] for r in one],
                           "pid": os.getpid(), "payload_loaded": loaded}).to_dict()


def _check_lengths(system: System, sentences: Sequence[Sentence], pred_tags: Sequence[Sequence[str]]) -> None:
    if len(pred_tags) != len(sentences):
        raise ValueError(f"system {system.name!r} returned tags for {len(pred_tags)} sentences, not {len(sentences)}")
    for s, tags in zip(sentences, pred_tags):
        if len(tags) != len(s):
            raise ValueError(f"system {system.name!r} returned {len(tags)} tags for a sentence of {len(s)} tokens")


# ---------------------------------------------------------------- driver side

def run_folds(
    payload: Payload,
    folds: Iterable[Fold],
    systems: Sequence[System],
    store: FoldStore | str | os.PathLike,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool | None = None,
    save_models: str | os.PathLike | None = None,
    save_predictions: str | os.PathLike | None = None,
    client: Any = None,
) -> FoldStore:
    """Run every system on every fold not yet in ``store``.

    Parameters
    ----------
    payload : Payload
    folds : iterable of (split, direction, train, test)
    systems : sequence of System
        Names must be unique.
    store : FoldStore or path
        Finished folds are skipped; new ones are appended as they finish.
    jobs : int
        Worker processes (``1`` runs in this process).
    backend : {"loky", "dask"}
    scheduler : str, optional
        A ``dask.distributed`` scheduler's address; without one a LocalCluster of ``jobs`` workers.
    progress : bool, optional
        None: a tqdm bar on a terminal, else a line per fold; True: the bar; False: nothing.
    save_models, save_predictions : path, optional
        Directories for the crfsuite models and the conlleval-format predictions.
    client : dask.distributed.Client, optional
        A connected client to run on (backend ``dask``); None: one of ``scheduler`` (or a local cluster) for this
        call.

    Returns
    -------
    FoldStore
        Rewritten in canonical order once every fold is done.

    Raises
    ------
    InputError
        For an unknown backend, ``jobs < 1``, repeated system names or an unreachable scheduler.
    """
    if backend not in BACKENDS:
        raise InputError(f"backend: unknown backend {backend!r} (backends: {', '.join(BACKENDS)})", param="backend")
    if jobs < 1:
        raise InputError(f"jobs must be at least 1, got {jobs}", param="jobs")
    store = store if isinstance(store, FoldStore) else FoldStore(store)
    names = [s.name for s in systems]
    if len(set(names)) != len(names):
        raise InputError(f"system names must be unique, got {', '.join(names)}")
    for s in systems:
        store.check_spec(s.name, s.to_dict())
    folds = list(folds)
    tasks = []
    for split, direction, train, test in folds:
        for s in systems:
            if (s.name, split, direction) in store.done:
                continue
            stem = fold_file_stem(s.name, split, direction)  # a name never leads out of the folder
            tasks.append((s, split, direction, np.asarray(train), np.asarray(test),
                          os.path.join(save_models, stem + ".crfsuite") if save_models and s.is_crf else None,
                          os.path.join(save_predictions, stem + ".txt") if save_predictions else None))
    # Longest first (LPT): a worker left with one long fold at the end idles the others.
    costs = {(t[0].name, t[1], t[2]): _cost(t[0], payload, t[3]) * _tasks_left(t[0], payload, t[1], t[2])
             for t in tasks}
    tasks.sort(key=lambda t: -costs[(t[0].name, t[1], t[2])])
    mode: str | None
    if progress is None:
        mode = "bar" if sys.stderr.isatty() and not os.environ.get("CI") else "lines"
    else:
        mode = "bar" if progress else None
    # one fold of one direction is the fixed split: each record is a system with its seeds
    bar = FoldProgress(len(folds) * len(systems), costs, mode, workers=jobs,
                       unit="system" if len(folds) == 1 else "fold")
    if payload.command_root is not None:
        forget_commands(payload.command_root)
    try:
        if tasks:
            if jobs == 1 and backend == "loky":
                results = (run_fold(payload, *t) for t in tasks)
                _consume(results, store, bar)
            elif backend == "loky":
                _run_loky(payload, tasks, jobs, store, bar)
            else:
                _run_dask(payload, tasks, jobs, scheduler, store, bar, client)
    except BaseException:
        _stop_commands(payload)
        raise
    finally:
        bar.close()
    store.finalize(names)
    return store


def _cost(system: System, payload: Payload, train: np.ndarray) -> float:
    """Relative cost of a fold: training tokens × labels of the system's scheme."""
    sch = get_scheme(system.scheme)
    prefixes = {sch.single, *sch.heads, sch.inside, sch.last, sch.touch_begin, sch.touch_end} - {None}
    types = {t for i in train[: min(len(train), 2000)] for _, _, t in payload.gold[i]} or {""}
    tokens = sum(len(payload.sentences[i]) for i in train)
    return float(tokens * (len(prefixes) * len(types) + 1))


def _tasks_left(system: System, payload: Payload, split: int, direction: int) -> float:
    """The share of a fold's command tasks (one per seed) still to run; 1 for other systems."""
    if system.command is None or payload.command_root is None:
        return 1.0
    left = [s for s in system.seeds
            if not (task_folder(payload.command_root, system.name, split, direction, s) / "done.json").is_file()]
    return max(len(left), 0.01) / len(system.seeds)  # a fold whose every task is done still reads its predictions


def _stop_commands(payload: Payload) -> None:
    """Stop the commands a worker left running (a worker killed with its pool, or by a signal, cannot)."""
    if payload.command_root is not None:
        stop_commands(payload.command_root)


def _consume(results, store: FoldStore, bar: FoldProgress) -> None:
    for rec in results:
        store.append(rec)
        bar.update(rec)


def _run_loky(payload: Payload, tasks: list, jobs: int, store: FoldStore, bar) -> None:
    from joblib import Parallel, delayed

    # the payload and every worker's temporary files (crfsuite's models) live in one folder this process removes,
    # so that workers killed mid-fold (an interrupt) leave nothing in the system's temporary folder
    folder = tempfile.mkdtemp(prefix="textbcv-run-")
    path = os.path.join(folder, "payload.pkl")
    try:
        with open(path, "wb") as f:
            pickle.dump(payload, f, protocol=pickle.HIGHEST_PROTOCOL)
        par = Parallel(n_jobs=min(jobs, len(tasks)), backend="loky", return_as="generator_unordered")
        results = par(delayed(_run_fold_beside)(path, *t) for t in tasks)
        try:
            _consume(results, store, bar)
        finally:  # joblib kills the workers (and what they started) at once when its generator ends unfinished
            results.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _run_fold_beside(path: str, system: System, split: int, direction: int, train: np.ndarray, test: np.ndarray,
                     model_path: str | None, predictions_path: str | None) -> dict:
    """:func:`run_fold` in a worker, with its temporary files in the payload's folder."""
    before = tempfile.tempdir
    tempfile.tempdir = os.path.dirname(path)
    try:
        return run_fold(path, system, split, direction, train, test, model_path, predictions_path, in_worker=True)
    finally:
        tempfile.tempdir = before


@contextmanager
def dask_client(jobs: int, scheduler: str | None) -> Iterator[Any]:
    """A ``dask.distributed`` client: of the scheduler at ``scheduler``, or of a local cluster of ``jobs`` workers.

    Parameters
    ----------
    jobs : int
        Workers of the local cluster (without ``scheduler``).
    scheduler : str or None
        The scheduler's address.

    Yields
    ------
    dask.distributed.Client
        Closed, with its local cluster, on exit.

    Raises
    ------
    InputError
        Without the optional dependency, or for a scheduler that cannot be reached.
    """
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise InputError("{backend}=\"dask\" needs the optional dependency: pip install 'textbcv[dask]'",
                         param="backend") from None
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as e:
            raise InputError(f"scheduler: cannot reach the dask scheduler at {scheduler}: "
                             f"{e}", param="scheduler") from None
    else:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _run_dask(payload: Payload, tasks: list, jobs: int, scheduler: str | None, store: FoldStore, bar,
              client: Any = None) -> None:
    from dask.distributed import as_completed

    with dask_client(jobs, scheduler) if client is None else nullcontext(client) as client:
        ref = client.scatter(payload, broadcast=True)
        futures = [client.submit(run_fold, ref, *t, in_worker=True, pure=False) for t in tasks]
        try:
            _consume((f.result() for f in as_completed(futures)), store, bar)
        except BaseException:
            _stop_commands(payload)  # before the cluster closes: its workers wait on their commands
            client.cancel(futures)
            raise
