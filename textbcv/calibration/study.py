"""``textbcv.calibrate``: what the report's decision rule does on the user's own corpus and systems.

Every finished unit is one line of ``units.jsonl`` in the output folder, so a calibration resumes where it
stopped and ``reps`` can grow later. See docs/calibrate.md.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np
from joblib import Parallel, delayed

from textbcv._io import _alive, append_line, atomic_write, dumps_json, file_sha256, load_json, load_json_lines
from textbcv.calibration._design import DRAW, DRAW_FIXED_SPLIT, MEASURED_M_MAX, MEASURED_M_START, _check_draw, _drawn_on
from textbcv.calibration.draw import draw_data_set, drawn_units
from textbcv.calibration.plot import draw_calibration
from textbcv.calibration.progress import DataSetProgress
from textbcv.calibration.result import FORMAT, Calibration, _seeds
from textbcv.calibration.settings import CalibrationSettings
from textbcv.calibration.summary import CloseSummary, summarize_close, summarize_null
from textbcv.calibration.truth import check_pair, check_systems
from textbcv.calibration.units import check_seedable, check_unseeded_name, close_unit, null_unit
from textbcv.comparison.corpus_files import read_files
from textbcv.corpus import Corpus
from textbcv.corpus.fingerprint import corpus_digest, corpus_fingerprints
from textbcv.errors import InputError, Interrupted
from textbcv.tagging import System, parse_system
from textbcv.tagging.runner import BACKENDS, dask_client

__all__ = ["CalibrationSettings", "Calibration", "calibrate", "load_calibration", "null_unit", "close_unit",
           "unit_key", "DETERMINISTIC", "PROXY_ALGORITHM"]

#: crfsuite's algorithms that train the same model whatever the seed.
DETERMINISTIC = ("lbfgs",)
#: the stochastic algorithm a deterministic CRF's null pairs are trained with instead.
PROXY_ALGORITHM = "ap"
SETTINGS_FILE = "settings.json"
WORK_DIR = "work"  # a command system's comparisons while they run (resumed from there)
UNITS_FILE = "units.jsonl"
SUMMARY_FILE = "calibration.json"
PLOT_FILE = "calibration.png"
LOCK_FILE = "calibrate.lock"
#: options passed on to compare (and recorded in the settings, so a resumed run trains the same way).
TRAINING_OPTIONS = ("task", "algorithm", "max_iterations", "c1", "c2", "variant", "chunk_types", "untyped",
                    "train_seeds", "group_by")


def unit_key(u: dict) -> tuple[str, str, int]:
    """A unit's key: ``("null", system, r)`` (also for a unit without ``kind``) or ``("close", "A,B", r)``.

    Parameters
    ----------
    u : dict
        A line of ``units.jsonl``.

    Returns
    -------
    (str, str, int)

    Examples
    --------
    >>> unit_key({"system": "iob2", "r": 3}), unit_key({"kind": "close", "pair": ["iob2", "iobes"], "r": 0})
    (('null', 'iob2', 3), ('close', 'iob2,iobes', 0))
    """
    if u.get("kind", "null") == "close":
        return "close", ",".join(u["pair"]), int(u["r"])
    return "null", u["system"], int(u["r"])


def _training_options(options: dict, systems: Sequence[str]) -> tuple[dict, bool]:
    """The options compare trains with, and whether the stochastic proxy replaced the algorithm."""
    unknown = sorted(set(options) - set(TRAINING_OPTIONS))
    if unknown:
        raise InputError(f"unknown option {unknown[0]!r} (options: {', '.join(TRAINING_OPTIONS)})")
    opts = {k: v for k, v in options.items() if v is not None}
    proxy = bool(systems) and opts.get("algorithm", "lbfgs") in DETERMINISTIC  # no null pair: nothing to proxy
    if proxy:
        opts["algorithm"] = PROXY_ALGORITHM
    for name in systems:
        check_unseeded_name(name)
        parse_system(f"{name}@1", algorithm=opts["algorithm"])  # a bad name fails here, before any training
    return opts, proxy


class _Folder:
    """The calibration's output folder: its settings claim, its units, and the files it owns."""

    def __init__(self, out: str | os.PathLike):
        self.path = Path(out)
        self.settings = self.path / SETTINGS_FILE
        self.units = self.path / UNITS_FILE

    def claim(self, settings: CalibrationSettings, resume: bool, corpus: Corpus) -> tuple[dict, int]:
        """Create the folder or check its settings match (its data sets drawn as ``corpus``'s are now); the
        recorded output hashes and ``reps``."""
        if self.path.exists() and not self.path.is_dir():
            raise InputError("is a file, not a directory", file=str(self.path))
        if self.settings.exists():
            held = load_json(self.settings)
            if not isinstance(held, dict) or held.get("format") != FORMAT:
                raise InputError("not a textbcv calibration's settings file; choose another --out", str(self.settings))
            if not resume:
                raise InputError("holds a calibration already: add --resume to continue it, or choose another --out",
                                 str(self.path))
            theirs = dict(held.get("settings", {}))
            _check_draw(theirs, settings, corpus, self.settings)  # before any other setting: it cannot be resumed
            # proxy only words the options (ap asked for, or ap standing in for lbfgs): the training is the same
            mine = {k: v for k, v in settings.to_dict().items() if k not in ("unit", "draw", "proxy")}
            theirs = {"design": "fixed", **{k: v for k, v in theirs.items() if k not in ("unit", "draw", "proxy")}}
            # the design first: a fixed and a measured calibration differ in m too, and the design says why
            for k in ["design", *mine, *(k for k in theirs if k not in mine)]:  # a close pair there, none now differs
                if k != "reps" and mine.get(k) != theirs.get(k):
                    raise InputError(f"holds a calibration of other settings ({k}: {theirs.get(k)!r} there, "
                                     f"{mine.get(k)!r} now); choose another --out", str(self.path))
            recorded = theirs.get("reps")
            return dict(held.get("written", {})), recorded if isinstance(recorded, int) else 0
        if self.path.exists() and any(self.path.iterdir()):
            raise InputError("is not empty and holds no textbcv calibration; choose a new or empty --out",
                             str(self.path))
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as e:  # a file on the way (a/b with a a file), a read-only parent
            raise InputError(f"cannot create the calibration folder: {e.strerror or e}", file=str(self.path),
                             param="out") from None
        self.write_settings(settings, {})
        return {}, 0

    def lock(self) -> None:
        """Hold the folder for this process; refuse one another live process holds (its pid is in the lock)."""
        path = self.path / LOCK_FILE
        for _ in range(2):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                try:
                    pid = int(path.read_text(encoding="utf-8").strip() or 0)
                except (OSError, ValueError):
                    pid = 0
                if pid > 0 and pid != os.getpid() and _alive(pid):
                    raise InputError(f"is being calibrated by another process (pid {pid}); wait for it to end",
                                     str(self.path)) from None
                path.unlink(missing_ok=True)  # left by a killed run
                continue
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(f"{os.getpid()}\n")
            return
        raise InputError("cannot take the calibration's lock", str(path))

    def unlock(self) -> None:
        (self.path / LOCK_FILE).unlink(missing_ok=True)

    def write_settings(self, settings: CalibrationSettings, written: dict) -> None:
        with atomic_write(self.settings) as f:
            f.write(dumps_json({"format": FORMAT, "settings": settings.to_dict(), "written": written}))

    def done(self, torn: str = "truncate") -> dict[tuple[str, str, int], dict]:
        """The finished units by :func:`unit_key`; a torn last line is cut off (or left out: ``"ignore"``)."""
        if not self.units.exists():
            return {}
        return {unit_key(u): u for _, u in load_json_lines(self.units, torn=torn)}

    def check_owned(self, written: dict) -> None:
        """Refuse to replace an output file changed (or put there) since textbcv wrote it."""
        for name in (SUMMARY_FILE, PLOT_FILE):
            p = self.path / name
            if p.exists() and (not p.is_file() or written.get(name) != file_sha256(p)):
                raise InputError("was not written by this calibration (or was changed since): it is not replaced; "
                                 "move it away and run again", str(p))


def calibrate(corpus, systems: Sequence[str | System], *, reps: int = 200, size: int | None = None,
              m: int | None = None,
              seeds: Sequence[int] | None = None, seed: int = 0, threshold: float = 0.95,
              out: str | os.PathLike | None = None, resume: bool = False, jobs: int = 1,
              progress: bool | None = None, plot: bool = True, pair: Sequence[str] | None = None,
              truth_halvings: int = 4, backend: str = "loky", scheduler: str | None = None,
              design: str = "mx2", test_share: float | None = None, **options) -> Calibration:
    """Measure the decision rule on this corpus: every system's null pair, and a close pair against its truth.

    Parameters
    ----------
    corpus : path, list of paths, or Corpus
    systems : sequence of str or System
        CRF systems by name, without ``@SEED`` (a deterministic one, lbfgs, trains ``ap`` as a proxy), and systems
        of your own as :class:`~textbcv.tagging.System` values: a ``command`` (each side passes its seed as
        ``{seed}`` and ``TEXTBCV_SEED``) or a ``tagger`` class or function that takes ``seed=``; one whose two
        seeds give the same counts is reported. May be empty with ``pair``.
    reps : int
        Data sets (R).
    size : int, optional
        Sentences per data set; default 1,000 or half the corpus, whichever is smaller.
    m : int, optional
        Splits of every comparison (the fixed design); None (default): the measured design ``compare`` runs without
        ``m``, from m = 3, extended (nested) to m = 7 on a data set where a pair's models' noise is floored at 0 or
        its P(better) lies in ``stats.sequential.MEASURED_BAND``; every unit records the m it reached.
    seeds : pair of int, optional
        The first training seeds of A and B in every null pair; default (1, 2), or (1, 1 + K) with ``train_seeds``
        K.
    seed : int
        Seed of the data sets' draws and splits.
    threshold : float
    out : path, optional
        Output folder; without it nothing is written or resumable.
    resume : bool
    jobs : int
        Data sets run at once; with systems of your own, data sets run one at a time and each comparison's folds
        and seeds run ``jobs`` at once (a command's over its devices).
    progress : bool, optional
    plot : bool
        Draw ``calibration.png`` into ``out``.
    pair : pair of str, optional
        A close pair (A, B), trained as given, with its truth measured beside each data set.
    truth_halvings : int
    backend : {"loky", "dask"}
        Where data sets run: local processes, or the workers of a ``dask.distributed`` cluster (a local one of
        ``jobs`` workers, or ``scheduler``'s); a command system's comparisons run their folds there.
    scheduler : str, optional
        A ``dask.distributed`` scheduler's address (with ``backend="dask"``).
    design : {"mx2", "fixed"}
        ``"mx2"`` (default): m×2 cross-validation, as ``compare`` runs it; ``"fixed"``: each data set cut once into a
        training and a test set, answered as ``compare --train/--test`` answers (needs ``train_seeds`` ≥ 2; no ``m``,
        no ``pair``).
    test_share : float, optional
        With ``design="fixed"``: the test set's share of each data set's sentences, whole documents (default 0.2, as
        CoNLL-2003's eng.testb is of eng.train and it together).
    **options
        Reading options as for ``compare`` and training options (``task``, ``algorithm``, ``max_iterations``, ...);
        ``train_seeds`` K trains each side of a null pair with K seeds (A: seeds[0], ..., B: seeds[1], ...), as
        ``compare`` does with ``train_seeds``.

    Returns
    -------
    Calibration

    Raises
    ------
    InputError
        For an impossible option or a bad corpus, before any training.

    Examples
    --------
    >>> import textbcv
    >>> cal = textbcv.calibrate(textbcv.bundled_corpora()["ner"], ["iob2"], reps=1, size=120,
    ...                         max_iterations=2, progress=False)  # doctest: +SKIP
    """
    note: str | None = None
    reading = {k: options.pop(k) for k in ("format", "columns", "scheme", "encoding", "label_names")
               if k in options}
    if isinstance(corpus, Corpus):
        if any(v is not None for v in reading.values()):
            raise InputError(f"{sorted(reading)[0]} applies when the corpus is read from files")
        name = ", ".join(Path(f).name for f in corpus.files) if corpus.files else "the corpus"
    else:
        files = [os.fspath(corpus)] if isinstance(corpus, (str, os.PathLike)) else [os.fspath(f) for f in corpus]
        name = ", ".join(Path(f).name for f in files)
        corpus, note = read_files(files, reading.get("format"), reading.get("columns"), reading.get("scheme"),
                                  reading.get("encoding") or "utf-8", reading.get("label_names"))
    own = {x.name: x for x in systems if isinstance(x, System)}
    names = list(dict.fromkeys(x.name if isinstance(x, System) else x for x in systems))
    crf = [x for x in names if x not in own]
    for x in own.values():
        check_seedable(x, options.get("train_seeds") or 1)
    if len(names) < len(own) + len(set(crf)):
        raise InputError("two systems share a name: give each a name of its own", param="systems")
    if not names and pair is None:
        raise InputError("give {systems} (at least one system), {pair} or both", param=("systems", "pair"))
    k = 1 if options.get("train_seeds") is None else options["train_seeds"]
    if seeds is None:
        seeds = (1, 1 + k) if isinstance(k, int) and k > 1 else (1, 2)
    if len(seeds) != 2 or seeds[0] == seeds[1] or any(int(s) < 0 for s in seeds):
        raise InputError(f"seeds must be two different non-negative integers, got {list(seeds)}", param="seeds")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InputError(f"train_seeds is a number of seeds (>= 1), got {k!r}", param="train_seeds")
    if k > 1 and abs(int(seeds[0]) - int(seeds[1])) < k:
        raise InputError(f"with {{train_seeds}}={k}, A trains seeds {seeds[0]}..{seeds[0] + k - 1} and B seeds "
                         f"{seeds[1]}..{seeds[1] + k - 1}: they overlap; give {{seeds}} at least {k} apart "
                         f"(e.g. 1,{1 + k})", param=("train_seeds", "seeds"))
    if k > 1 and pair is not None:
        raise InputError("{train_seeds} applies to the null pairs; a close pair's truth trains one model per half: "
                         "calibrate the close pair without it", param=("train_seeds", "pair"))
    if reps < 1:
        raise InputError(f"reps must be at least 1, got {reps}", param="reps")
    if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 1):
        raise InputError(f"m must be at least 1, got {m!r}", param="m")
    if design not in ("mx2", "fixed"):
        raise InputError(f"design must be mx2 or fixed, got {design!r}", param="design")
    if design == "fixed":
        if m is not None:
            raise InputError("{m} belongs to the m×2 design; the fixed split cuts each data set once", param="m")
        if pair is not None:
            raise InputError("{pair} (a close pair's truth) is measured for the m×2 design only", param="pair")
        if k < 2:
            raise InputError("the fixed split measures the training seeds' noise: give {train_seeds} K of at least 2",
                             param="train_seeds")
        if any(x.tagger is not None for x in own.values()):
            raise InputError("the fixed split trains each seed's model through a command or a CRF; a tagger factory "
                             "is refused with {design}=fixed", param="design")
    share = (0.2 if test_share is None else test_share) if design == "fixed" else None
    if test_share is not None and design != "fixed":
        raise InputError("{test_share} applies with {design}=fixed", param="test_share")
    if share is not None and not 0 < share < 1:
        raise InputError(f"test_share must lie between 0 and 1, got {share}", param="test_share")
    # no m: the measured design, as compare runs it without m
    kind, m0, m_max = (("fixed-split", 1, None) if design == "fixed" else
                       ("fixed", m, None) if m is not None else ("measured", MEASURED_M_START, MEASURED_M_MAX))
    if not 0.5 < threshold < 1:
        raise InputError(f"threshold must be above 0.5 and below 1, got {threshold}", param="threshold")
    if jobs < 1:
        raise InputError(f"jobs must be at least 1, got {jobs}", param="jobs")
    if backend not in BACKENDS:
        raise InputError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}", param="backend")
    if scheduler and backend != "dask":
        raise InputError("{scheduler} needs {backend}=dask", param=("scheduler", "backend"))
    n = len(corpus)
    size = min(1000, n // 2) if size is None else size
    top = m_max or m0  # the largest m a unit can reach
    if not 8 * top <= size <= n:
        raise InputError(f"size must be between {8 * top} (8 sentences per split of m = {top}) and the corpus's "
                         f"{n:,} sentences, got {size}", param="size")
    if pair is not None and size >= n:  # the truth is measured on the text outside each data set
        raise InputError(f"size must be below the corpus's {n:,} sentences with {{pair}}: a close pair's truth is "
                         f"measured on the corpus outside each data set; got {size}", param=("size", "pair"))
    given = {k: v for k, v in options.items() if v is not None}  # the close pair trains as the user asked
    opts, proxy = _training_options(options, crf)
    check_systems(crf, seeds, opts, corpus, top, own=bool(own))
    close = check_pair(pair, truth_halvings, given, corpus, top)
    specs = {x.name: _measured_spec(x) for x in own.values()} or None
    settings = CalibrationSettings(corpus_digest(corpus_fingerprints(corpus.sentences)), n, tuple(names),
                                   (int(seeds[0]), int(seeds[1])), reps, size, m0, seed, threshold, opts,
                                   proxy, close[0] if close else None, truth_halvings if close else None,
                                   given if close else None, specs, kind, m_max,
                                   _drawn_on(corpus, opts.get("group_by")),
                                   DRAW_FIXED_SPLIT if kind == "fixed-split" else DRAW, share)
    folder = _Folder(out) if out is not None else None
    written: dict = {}
    # connected before anything is written: the last check that can fail without training (a command's data sets
    # each connect on their own, on a local cluster of their own without a scheduler)
    dask = dask_client(jobs, scheduler) if backend == "dask" and (scheduler or not own) else contextlib.nullcontext()
    with dask as client:
        if folder is not None:
            written, recorded = folder.claim(settings, resume, corpus)
            folder.lock()
            if recorded > reps:  # resumed with fewer: none is run beyond reps, but none finished is dropped
                settings = replace(settings, reps=recorded)
        try:
            result = _run(corpus, settings, names, own, folder, written, name, jobs, progress, plot, reps,
                          {"backend": backend, "scheduler": scheduler}, client)
        finally:
            if folder is not None:
                folder.unlock()
    if note:  # how the corpus was read, said once the calibration has succeeded
        print(note, file=sys.stderr)
    return result


def _run(corpus: Corpus, settings: CalibrationSettings, systems: list[str], own: dict[str, System],
         folder: "_Folder | None", written: dict, name: str, jobs: int, progress: bool | None, plot: bool,
         run_reps: int, runner: dict[str, Any], client: Any = None) -> Calibration:
    """:func:`calibrate` after its checks: run data sets below ``run_reps``, answer those below ``settings.reps``."""
    done: dict[tuple[str, str, int], dict] = {}
    if folder is not None:
        folder.check_owned(written)
        done = folder.done()
        folder.write_settings(settings, written)  # a larger reps is recorded, a smaller one never
    if settings.proxy:
        crf = ", ".join(x for x in systems if x not in own)
        print(f"textbcv: calibrate: {crf} train with lbfgs, which gives the same model whatever the "
              f"seed: the null pairs train {PROXY_ALGORITHM}, its stochastic variant, as a proxy (--algorithm "
              f"chooses another)", file=sys.stderr)
    size, seed, n = settings.size, settings.seed, len(corpus)
    documents = drawn_units(corpus, settings.options.get("group_by"))
    # per data set its null pairs, then its close pair: the order of units.jsonl, whatever jobs is
    kinds = [("null", x) for x in systems] + ([("close", ",".join(settings.pair))] if settings.pair else [])
    todo = [(r, kind, x) for r in range(run_reps) for kind, x in kinds if (kind, x, r) not in done]
    mode = None if progress is False else ("bar" if progress is None and sys.stderr.isatty() else "lines")
    bar = DataSetProgress(run_reps * len(kinds), run_reps * len(kinds) - len(todo), mode)
    drawn: dict[int, np.ndarray] = {}

    def unit(r: int, kind: str, x: str):
        if r not in drawn:
            drawn.clear()
            drawn[r] = draw_data_set(r, size, n, documents, seed)
        if kind == "close":  # the truth's models tag the corpus outside the data set: it needs the whole corpus
            return close_unit, (corpus, drawn[r], r, settings)
        if x in own:  # one data set at a time, its folds and seeds spread over the workers (a command's devices)
            work = None if folder is None else folder.path / WORK_DIR / f"r{r:04d}-{x}"
            return null_unit, (corpus.subset(drawn[r].tolist()), r, own[x], settings, jobs, work, runner)
        return null_unit, (corpus.subset(drawn[r].tolist()), r, x, settings, *((jobs, None, runner) if own else ()))

    seedless: set[str] = set()
    try:
        calls = (unit(*t) for t in todo)
        results: Iterator[Any]
        if own or (jobs == 1 and runner["backend"] != "dask"):
            results = (f(*args) for f, args in calls)
        elif runner["backend"] == "dask":
            results = _on_dask(calls, corpus, client)
        else:
            results = Parallel(n_jobs=jobs, return_as="generator")(delayed(f)(*args) for f, args in calls)
        for u in results:
            done[unit_key(u)] = u
            if folder is not None:
                append_line(folder.units, dumps_json(u, indent=None))
            bar.update(u)
            if u.get("system") in own and u["system"] not in seedless and \
                    u["moments"]["counts_a"] == u["moments"]["counts_b"]:
                seedless.add(u["system"])
                print(f"textbcv: warning: {u['system']} gave the same counts with {_seeds(settings, 0)} and "
                      f"{_seeds(settings, 1)} on every fold of data set {u['r']}: if it ignores its seed (a command's "
                      "{seed}, TEXTBCV_SEED; a tagger's seed=) it is deterministic, and its null pairs measure nothing",
                      file=sys.stderr)
    except KeyboardInterrupt as e:  # Ctrl-C, SIGTERM, SIGHUP: what is finished stays, and --resume runs the rest
        if folder is None:
            raise
        kept = "1 finished unit is" if len(done) == 1 else f"{len(done)} finished units are"
        raise Interrupted(getattr(e, "signum", signal.SIGINT), f"{kept} kept in {folder.path}",
                          resumable=True) from None
    except InputError as e:  # a full disk, a failed command: what is finished stays, and --resume runs the rest
        if folder is None or not done:
            raise
        raise InputError(f"{e.message} ({len(done)} finished units are kept: mend the cause and add --resume to run "
                         "only the rest)", e.file, e.line) from None
    finally:
        bar.close()
    if folder is not None and (folder.path / WORK_DIR).is_dir() and not any((folder.path / WORK_DIR).iterdir()):
        (folder.path / WORK_DIR).rmdir()  # every command comparison answered: nothing of theirs is kept
    result, units = _answer(settings, done, name)
    if folder is not None:
        try:
            _write_outputs(folder, result, units, written, plot)
        except InputError as e:
            raise InputError(f"{e.message} (every unit is kept: free some space and add --resume to write the "
                             "summary)", e.file, e.line) from None
    return result


def _measured_spec(system: System) -> dict:
    """What a resumed calibration must train the same: a command's line and files, not where or how long it runs."""
    spec = replace(system, seed=None, train_seeds=1).to_dict()
    if system.command is not None:
        spec["params"] = {k: spec["params"][k] for k in ("command", "format")}
    return spec


def _on_dask(calls, corpus: Corpus, client: Any) -> Iterator[dict]:
    """The units of ``calls`` computed on the workers of ``client``, yielded in their order (that of units.jsonl)."""
    calls = list(calls)
    # a close pair's truth needs the whole corpus: sent to every worker once, and only then
    ref = client.scatter(corpus, broadcast=True) if any(a is corpus for _, args in calls for a in args) else None
    futures = [client.submit(f, *(ref if a is corpus else a for a in args), pure=False) for f, args in calls]
    for fut in futures:
        yield fut.result()


def _answer(settings: CalibrationSettings, done: dict, name: str) -> tuple[Calibration, list[dict]]:
    """The answer over the finished units below ``settings.reps``, and those units."""
    units = [done[("null", s, r)] for s in settings.systems for r in range(settings.reps) if ("null", s, r) in done]
    m = settings.m if settings.design == "fixed" else None  # a fixed design's units made before they recorded m
    nulls = tuple(summarize_null(s, [u for u in units if u["system"] == s], m) for s in settings.systems)
    close: tuple[CloseSummary, ...] = ()
    if settings.pair is not None:
        key = ",".join(settings.pair)
        pair_units = [done[("close", key, r)] for r in range(settings.reps) if ("close", key, r) in done]
        close = (summarize_close(*settings.pair, pair_units, m),)
        units += pair_units
    return Calibration(settings, nulls, name, close), units


def load_calibration(out: str | os.PathLike, corpus_name: str = "") -> tuple[Calibration, list[dict]]:
    """A calibration folder's answer from its finished units, without the corpus or any training.

    Parameters
    ----------
    out : path
    corpus_name : str
        Default: as the folder's ``calibration.json`` says.

    Returns
    -------
    (Calibration, list of dict)

    Raises
    ------
    InputError
        When ``out`` holds no calibration.
    """
    folder = _Folder(out)
    if not folder.settings.is_file():
        raise InputError("holds no textbcv calibration (no settings.json)", str(folder.path))
    held = load_json(folder.settings)
    if not isinstance(held, dict) or held.get("format") != FORMAT:
        raise InputError("not a textbcv calibration's settings file", str(folder.settings))
    settings = CalibrationSettings.from_dict(held["settings"])
    if not corpus_name and (folder.path / SUMMARY_FILE).is_file():
        corpus_name = str(load_json(folder.path / SUMMARY_FILE).get("corpus_name", ""))
    return _answer(settings, folder.done(torn="ignore"), corpus_name)


def _write_outputs(folder: _Folder, result: Calibration, units: list[dict], written: dict, plot: bool) -> None:
    with atomic_write(folder.path / SUMMARY_FILE) as f:
        f.write(dumps_json(result.to_dict()))
    written = {**written, SUMMARY_FILE: file_sha256(folder.path / SUMMARY_FILE)}
    if plot and result.nulls:  # the picture is of the null pairs: a close pair alone draws none
        draw_calibration(result.nulls, result.settings.threshold, result.settings.seeds[1],
                         [u for u in units if u.get("kind", "null") == "null"], folder.path / PLOT_FILE)
        written[PLOT_FILE] = file_sha256(folder.path / PLOT_FILE)
    folder.write_settings(result.settings, written)
