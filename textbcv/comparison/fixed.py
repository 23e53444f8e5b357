"""The fixed-split design: every system trained on one training set once per seed and tested on one test set.

:func:`prepare_fixed` checks and reads everything (nothing is written), :func:`run_fixed` trains the missing
(system, seed) models through the fold runner into the run directory's ``folds.jsonl`` (an interrupted run
resumes) and writes the report; :func:`fixed_report` is the one place the answer is built, from every seed's
per-sentence counts, whether they came from this run or from prediction files (:mod:`.fixed_import`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from textbcv._io import atomic_write_all, dumps_json, load_json
from textbcv.comparison.corpus_files import read_files
from textbcv.comparison.options import CompareOptions
from textbcv.comparison.pipeline import gold_chunks
from textbcv.comparison.systems import fit_systems
from textbcv.corpus.fingerprint import corpus_digest, corpus_fingerprints
from textbcv.corpus.model import Corpus
from textbcv.corpus.transform import prediction_types, prepare_corpus
from textbcv.defaults import MIN_CLUSTERS, fixed_training_part
from textbcv.errors import InputError
from textbcv.folds.run_dir import RunDir
from textbcv.folds.store import FoldStore
from textbcv.report.fixed import FieldTests, FixedDesign, FixedReport, FixedScore, TrainingPart
from textbcv.stats.aso import aso_call
from textbcv.stats.classic import welch_t_test
from textbcv.stats.compare import paired_comparison
from textbcv.stats.onesplit import approximate_randomization, chunk_f1, paired_bootstrap
from textbcv.stats.paired import fixed_difference, fixed_score
from textbcv.tagging import System
from textbcv.tagging.payload import Payload, make_payload
from textbcv.tagging.runner import run_folds

__all__ = ["FixedPlan", "prepare_fixed", "run_fixed", "fixed_report", "write_fixed", "cluster_ids", "check_gold",
           "fixed_meta", "FIXED_FILE"]

#: The run directory's record of its fixed split (the files' fingerprints), checked when a run is resumed.
FIXED_FILE = "fixed.json"


def _deterministic(system: System) -> bool:
    """Whether ``system`` trains the same model whatever its seed: a CRF trained with lbfgs."""
    return system.tagger is None and system.command is None and system.algorithm == "lbfgs"


def _check_seeds(systems: Sequence[System]) -> bool:
    """InputError unless every system's seeds are measured (two or more) or need none; True when none need them."""
    fixed = [_deterministic(s) for s in systems]
    if all(fixed):
        return True
    for s, det in zip(systems, fixed):
        if s.tagger is not None:
            raise InputError(f"systems: {s.name} is a Python tagger, trained once: the fixed design measures the "
                             "training seeds' noise, so give command systems or CRFs", param="systems")
        if not det and s.train_seeds < 2:
            raise InputError(f"train_seeds: {s.name} draws random numbers, and the fixed design measures their noise "
                             "from the seeds: give {train_seeds} K of at least 2 (5 is common)", param="train_seeds")
    if any(fixed):
        raise InputError("systems: mix of deterministic (lbfgs) and seeded systems; give every CRF the same "
                         "{algorithm}", param="algorithm")
    return False


def check_gold(gold: Sequence, test: str | os.PathLike) -> None:
    """InputError when the test sentences hold no gold chunk: F1 does not exist on them.

    Parameters
    ----------
    gold : sequence of sequences of Chunk
        The test sentences' gold chunks after the task's filters.
    test : path
        The test file, named in the error.
    """
    if not any(len(g) for g in gold):
        raise InputError("the test set holds no gold chunks (after --chunk-types / --untyped): F1 does not exist on "
                         "it", file=str(test), param="test")


def cluster_ids(test: Corpus) -> tuple[np.ndarray, str, str | None]:
    """The cluster of every test sentence: its document where the test set marks at least :data:`MIN_CLUSTERS`,
    else the sentence (with the note saying so).

    Parameters
    ----------
    test : Corpus
        The test set as read.

    Returns
    -------
    clusters : ndarray of int
        One cluster id per sentence, numbered from 0.
    unit : {"documents", "sentences"}
    note : str or None
        Why the clusters are sentences, where the test set marks 2 to :data:`MIN_CLUSTERS` − 1 documents.

    Raises
    ------
    InputError
        Below :data:`MIN_CLUSTERS` sentences.
    """
    if len(test) < MIN_CLUSTERS:
        raise InputError(f"test: {len(test)} sentences, fewer than the {MIN_CLUSTERS} clusters a variance is measured "
                         "over", param="test")
    docs = np.unique(np.asarray(test.document_ids, dtype=np.int64), return_inverse=True)[1].ravel()
    k = int(docs.max()) + 1
    if k >= MIN_CLUSTERS:
        return docs, "documents", None
    note = (f"The test set marks {k} document{'s' if k != 1 else ''}, fewer than the {MIN_CLUSTERS} clusters a "
            "variance is measured over: its sentences are the clusters, which leaves out errors shared within a "
            "document (the interval may be too narrow).") if k > 1 else None
    return np.arange(len(test)), "sentences", note


@dataclass(frozen=True)
class FixedPlan:
    """Everything a fixed-split run needs before its first model is trained (from :func:`prepare_fixed`).

    Attributes
    ----------
    out : Path
    options : CompareOptions
    systems : list of System
    corpus : Corpus
        The training sentences, then the test sentences, prepared for the task.
    gold : list
    train, test : ndarray of int
        The two parts' sentence indices in ``corpus``.
    payload : Payload
    store : FoldStore
    design : FixedDesign
    clusters : ndarray of int
        The cluster of every test sentence.
    fingerprints : dict
        ``train`` and ``test`` digests (:data:`FIXED_FILE`).
    notes : list of str
    meta : dict
    """

    out: Path
    options: CompareOptions
    systems: list
    corpus: Corpus
    gold: list
    train: np.ndarray
    test: np.ndarray
    payload: Payload
    store: FoldStore
    design: FixedDesign
    clusters: np.ndarray
    fingerprints: dict
    notes: list
    meta: dict


_ROLE = {"train": "training", "test": "test", "dev": "development"}


def _base_name(path: str | os.PathLike) -> str:
    return os.path.basename(os.fspath(path))


def check_files(named: Mapping[str, str | os.PathLike | None]) -> None:
    """Refuse two roles (``train``, ``test``, ``dev``) given one file: each must be a file of its own.

    Parameters
    ----------
    named : mapping role → path or None
    """
    seen: dict[str, str] = {}
    for role, path in named.items():
        if path is None:
            continue
        real = os.path.realpath(path)
        if real in seen:
            raise InputError(f"{role}: the {_ROLE[seen[real]]} and {_ROLE[role]} files are one file", file=str(path),
                             param=role)
        seen[real] = role


def _read(files: Mapping[str, str], format: str | None, columns: str | None, scheme: str | None,
          encoding: str) -> tuple[Corpus, dict[str, np.ndarray], str | None]:
    """The files (role → path: train, test, and dev where given) read as one corpus (one format and scheme), and
    each role's sentences."""
    check_files(files)
    raw, note = read_files([str(p) for p in files.values()], format, columns, scheme, encoding)
    source = np.array([s.source for s in raw.sentences])
    parts = {role: np.flatnonzero(source == str(path)) for role, path in files.items()}
    for role, part in parts.items():
        if not len(part):
            raise InputError("holds no sentences", file=str(files[role]), param=role)
    return raw, parts, note


def prepare_fixed(train: str | os.PathLike, test: str | os.PathLike, out: str | os.PathLike, options: CompareOptions,
                  systems: Sequence[System | str] | None = None, format: str | None = None,
                  columns: str | None = None, scheme: str | None = None, encoding: str = "utf-8",
                  resume: bool = False, corpus: Corpus | None = None,
                  parts: tuple[np.ndarray, np.ndarray] | None = None,
                  dev: str | os.PathLike | None = None) -> FixedPlan:
    """Check the options and files and featurize (nothing is written).

    Parameters
    ----------
    train, test : path
        The training and test files (one format and scheme); with ``corpus``, the two parts' names.
    out : path
        Run directory: new, empty, or (with ``resume``) a fixed-split run of the same files to continue.
    options : CompareOptions
        The comparison's options (``m``, ``splits`` and the split design are not used).
    systems : sequence of System or str, optional
        Default ``options.systems``.
    format, columns, scheme, encoding
        As for :func:`textbcv.comparison.pipeline.prepare_compare`.
    resume : bool
    corpus : Corpus, optional
        A corpus already read, instead of the files (with ``parts``).
    parts : (ndarray, ndarray), optional
        With ``corpus``: the training and the test sentences' indices.
    dev : path, optional
        A development file (the same format), given to command systems as ``{dev}``; never trained on or scored.

    Returns
    -------
    FixedPlan

    Raises
    ------
    InputError
        For any bad option, file or run directory.
    """
    systems = list(options.systems if systems is None else systems)
    options = replace(options, systems=tuple(s.name if isinstance(s, System) else s.strip() for s in systems))
    options.validate()
    if options.mode != "strict":
        raise InputError("mode: the fixed design scores strict matches (conlleval's) only", param="mode")
    if options.heldout:
        raise InputError("heldout: with --train/--test the test file is the held-out text", param="heldout")
    made = [s if isinstance(s, System) else options.make_system(s) for s in systems]
    det = _check_seeds(made)  # before anything is read
    run = RunDir(out)
    run.check_out(resume)
    dv = np.zeros(0, dtype=np.int64)
    if corpus is None:
        files = {"train": str(train), "test": str(test), **({} if dev is None else {"dev": str(dev)})}
        raw, found, note = _read(files, format, columns, scheme, encoding)
        tr, te, dv = found["train"], found["test"], found.get("dev", dv)
    else:
        if parts is None:
            raise InputError("parts: a corpus given needs its training and test sentences", param="parts")
        if dev is not None:
            raise InputError("dev: a corpus given has no development file; give the files instead", param="dev")
        raw, note = corpus, None
        tr, te = (np.asarray(x, dtype=np.int64) for x in parts)
    corpus = prepare_corpus(raw, options.task)
    gold = gold_chunks(corpus, options)
    check_gold([gold[i] for i in te], test)
    fitted, notes, _ = fit_systems(systems, options, corpus, [], dev=dev is not None)
    if dev is not None:
        unused = [s.name for s in fitted if s.command is None or "dev" not in s.command.placeholders]
        if unused:
            notes.append(f"textbcv: {', '.join(unused)} do not use the development file {_base_name(dev)} (only a "
                         "command naming {dev} is given it)")
    store = FoldStore(run.folds)
    for s in fitted:
        store.check_spec(s.name, s.to_dict())
    fps = corpus_fingerprints(corpus.sentences)
    prints = {"train": corpus_digest(fps[i] for i in tr), "test": corpus_digest(fps[i] for i in te),
              **({"dev": corpus_digest(fps[i] for i in dv)} if dev is not None else {})}
    kept = run.path / FIXED_FILE
    if resume and kept.exists() and load_json(kept).get("fingerprints") != prints:
        raise InputError("out: this run was made for other training, test or development text; choose another {out}",
                         file=str(out), param="out")
    if store.done and not kept.exists():
        raise InputError("out: holds folds of an m×2 run, not of a fixed split; choose another {out}",
                         file=str(out), param="out")
    test_corpus = Corpus([raw.sentences[i] for i in te], [str(test)], raw.format, raw.scheme, raw.encoding)
    clusters, unit, cluster_note = cluster_ids(test_corpus)
    train_tokens = {tuple(corpus.sentences[i].tokens) for i in tr}
    duplicates = sum(tuple(corpus.sentences[i].tokens) in train_tokens for i in te)
    design = FixedDesign(str(train), str(test), len(tr), len(te), sum(len(corpus.sentences[i]) for i in te), unit,
                         int(clusters.max()) + 1, duplicates,
                         {s.name: [0 if x is None else int(x) for x in s.seeds] for s in fitted}, det, cluster_note,
                         None if dev is None else str(dev), len(dv))
    payload = make_payload(corpus.sentences, gold, fitted, None, prediction_types(corpus, options.task,
                                                                                   options.untyped))
    if len(dv):
        payload = replace(payload, dev=tuple(int(i) for i in dv))
    meta = fixed_meta(options, raw.format, raw.scheme)
    return FixedPlan(Path(out), options, fitted, corpus, gold, tr, te, payload, store, design, clusters, prints,
                     ([note] if note else []) + notes, meta)


def run_fixed(plan: FixedPlan, jobs: int = 1, progress: bool | None = None,
              save_predictions: bool = False) -> FixedReport:
    """Train every system's missing seeds on the training set, test them, and write the run; return the report.

    Parameters
    ----------
    plan : FixedPlan
    jobs : int
        Worker processes (systems run side by side; a system's seeds in turn).
    progress : bool or None
        As for :func:`textbcv.tagging.run_folds`.
    save_predictions : bool
        Keep every seed's predictions of the test set in ``predictions/`` (conlleval format, the system's scheme).

    Returns
    -------
    FixedReport
    """
    run = RunDir(plan.out)
    commands = any(s.command is not None for s in plan.systems)
    existed = run.path.exists()
    run.claim(*(["commands"] if commands else []), *(["predictions"] if save_predictions else []))
    payload = plan.payload
    if commands:  # a command runs where the run was started: its relative paths mean what they mean in the shell
        payload = replace(payload, command_root=str(run.path / "commands"), slots=jobs, command_cwd=os.getcwd())
    try:
        run.check_writable_file(FIXED_FILE)
        atomic_write_all({run.path / FIXED_FILE: dumps_json({"design": "fixed", "fingerprints": plan.fingerprints,
                                                             "systems": [s.to_dict() for s in plan.systems]},
                                                            indent=2).encode("utf-8")})
        run.record(FIXED_FILE)
        run_folds(payload, [(0, 0, plan.train, plan.test)], plan.systems, plan.store, jobs=jobs, progress=progress,
                  save_predictions=str(run.predictions) if save_predictions else None)
        counts = {s.name: _seed_counts(plan.store.records[(s.name, 0, 0)]) for s in plan.systems}
        report = fixed_report(counts, plan.clusters, plan.design, plan.options, plan.meta)
        write_fixed(plan.out, report)
        return report
    except BaseException as e:
        raise run.ended(existed, e, len(plan.systems)) from None
    finally:
        run.unlock()


def _seed_counts(record: Mapping) -> np.ndarray:
    """Every seed's per-sentence counts of a fold record, shape (S, n, 3), in seed order."""
    per = record.get("seed_sentence_counts")
    if per:
        return np.array([per[k] for k in sorted(per, key=int)], dtype=np.int64)
    return np.array([record["sentence_counts"]], dtype=np.int64)


def _calls(tests: Sequence, alpha: float) -> dict:
    """``{"B", "A", "none"}`` counts of tests at p < alpha (each with ``delta`` and ``p_value``)."""
    out = {"B": 0, "A": 0, "none": 0}
    for t in tests:
        out["none" if not t.p_value < alpha else ("B" if t.delta > 0 else "A")] += 1
    return out


def _field(a: str, b: str, xa: np.ndarray, xb: np.ndarray, alpha: float) -> FieldTests:
    """The field's tests of one pair on the same predictions."""
    pairs = range(min(len(xa), len(xb)))
    boot = _calls([paired_bootstrap(xa[i], xb[i], seed=i) for i in pairs], alpha)
    ar = _calls([approximate_randomization(xa[i], xb[i], seed=i) for i in pairs], alpha)
    fa, fb = chunk_f1(xa.sum(axis=1)), chunk_f1(xb.sum(axis=1))
    if len(fa) > 1 and len(fb) > 1:
        b_over_a, a_over_b, ahead = aso_call(fa, fb)
        aso = {"eps_b_over_a": b_over_a.eps_min, "eps_a_over_b": a_over_b.eps_min, "call": ahead}
        w = welch_t_test(fa.tolist(), fb.tolist())
        welch = {"t": w.statistic, "df": w.df, "p_value": w.p_value, "undefined": w.undefined,
                 "call": None if w.p_value is None or not w.p_value < alpha
                 else ("B" if fb.mean() > fa.mean() else "A")}
    else:
        aso = {"eps_b_over_a": 1.0, "eps_a_over_b": 1.0, "call": None}
        welch = {"t": None, "df": None, "p_value": None, "undefined": "one seed", "call": None}
    return FieldTests(a, b, boot, ar, {k: (float(v) if isinstance(v, float) else v) for k, v in aso.items()}, welch,
                      alpha)


def fixed_report(counts: Mapping[str, np.ndarray], clusters: np.ndarray, design: FixedDesign,
                 options: CompareOptions, meta: Mapping | None = None) -> FixedReport:
    """The fixed-split answer from every seed's per-sentence counts on the test set.

    Parameters
    ----------
    counts : mapping name → array (S, n, 3)
        Every system's seeds' TP, FP, FN on each test sentence, in input order, the same sentences for all.
    clusters : int array of length n
    design : FixedDesign
    options : CompareOptions
        ``threshold``, ``alpha`` and ``rope`` are used.
    meta : mapping, optional

    Returns
    -------
    FixedReport
    """
    names = list(counts)
    xs = {n: np.asarray(counts[n], dtype=np.int64) for n in names}
    scores = []
    for n in names:
        s = fixed_score(xs[n], clusters)
        scores.append(FixedScore(n, s.estimate, s.interval(options.alpha), s.sd, s.var_test, s.var_seed,
                                 None if not np.isfinite(s.df) else s.df,
                                 tuple(float(x) for x in chunk_f1(xs[n].sum(axis=1)))))
    comparisons, field_tests = [], []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = fixed_difference(xs[a], xs[b], clusters, cluster_unit=design.cluster_unit,
                                 deterministic=design.deterministic)
            comparisons.append(paired_comparison(a, b, p, options.threshold, options.alpha, options.rope or 0.0))
            field_tests.append(_field(a, b, xs[a], xs[b], options.alpha))
    part = fixed_training_part(options.task) if len(names) > 1 else None
    return FixedReport(design, options.threshold, options.alpha, options.rope, tuple(scores), tuple(comparisons),
                       tuple(field_tests), dict(meta or {}),
                       training_part=None if part is None else TrainingPart.from_dict(part))


def fixed_meta(options: CompareOptions, format: str, scheme: str | None) -> dict:
    """The ``meta`` of a fixed-split report: what the answer depends on, the same for a run and an import.

    Parameters
    ----------
    options : CompareOptions
    format : str
        The format the files were read in.
    scheme : str or None
        The scheme of their gold tags.

    Returns
    -------
    dict
    """
    return {"options": {"task": options.task, "threshold": options.threshold, "alpha": options.alpha,
                        "rope": options.rope, "chunk_types": list(options.chunk_types or ()) or None,
                        "untyped": options.untyped},
            "format": format, "scheme": scheme}


def write_fixed(out: str | os.PathLike, report: FixedReport) -> None:
    """Write ``report.json`` and ``report.md`` into the run directory (only files textbcv wrote are replaced).

    Parameters
    ----------
    out : path
    report : FixedReport
    """
    run = RunDir(out)
    for name in ("report.json", "report.md"):
        run.check_writable_file(name)
    atomic_write_all({run.report_json: dumps_json(report.to_dict(), indent=2).encode("utf-8"),
                      run.report_md: report.markdown().encode("utf-8")})
    run.record("report.json", "report.md")
