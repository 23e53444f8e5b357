"""One comparison end to end: corpus → balanced m×2 BCV splits → folds → counts → tests → report.

This module and the CLI are the only places that know every stage. A run
directory holds ``splits.json``, ``folds.jsonl`` (the resumable fold store),
``report.json``, ``report.md`` and the PNG plots.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from textbcv import __version__
from textbcv._io import check_writable, write_json
from textbcv.corpus import Corpus, read_corpus
from textbcv.corpus.transform import filter_chunks, words_to_characters
from textbcv.errors import InputError
from textbcv.scoring import ChunkCounts, Tally
from textbcv.split import load_splits, make_splits
from textbcv.stats.compare import compare_counts
from textbcv.stats.sequential import SequentialTTest
from textbcv.tagging import FoldStore, System, make_payload, parse_system, run_folds

__all__ = ["CompareOptions", "ComparePlan", "StaleRunError", "RUN_FILES", "compare", "prepare_compare", "run_compare", "prepare_corpus", "gold_chunks",
           "REPORT_FORMAT"]

REPORT_FORMAT = "textbcv-report/1"
TASKS = ("ner", "cws")
STOP_RULES = ("t-test", "bayes")


@dataclass
class CompareOptions:
    """Everything that decides a comparison's result (saved in ``report.json``).

    Parameters mirror ``textbcv compare``'s options.
    """

    task: str = "ner"
    systems: tuple[str, ...] = ("iob2", "iobes")
    m: int = 3
    sequential: bool = False
    m_start: int = 3
    m_max: int = 12
    stop: str = "t-test"
    threshold: float = 0.95
    alpha: float = 0.05
    rope: float | None = None
    variant: str = "thesis"
    seed: int = 0
    balance: tuple[str, ...] = ("label", "lemma", "length")
    group_by: str = "sentence"
    chunk_types: tuple[str, ...] | None = None
    untyped: bool = False
    c1: float | None = None
    c2: float | None = None
    max_iterations: int | None = None

    def validate(self) -> None:
        if self.task not in TASKS:
            raise InputError(f"--task: unknown task {self.task!r} (tasks: {', '.join(TASKS)})")
        if len(self.systems) < 2:
            raise InputError(f"--systems: give at least two systems to compare, got {','.join(self.systems) or 'none'}")
        if len(set(self.systems)) != len(self.systems):
            raise InputError(f"--systems: a system is named twice in {','.join(self.systems)}")
        if self.m < 1:
            raise InputError(f"--m must be at least 1, got {self.m}")
        if self.seed < 0:
            raise InputError(f"--seed must be a non-negative integer, got {self.seed}")
        if self.sequential:
            if self.m_max < self.m_start:
                raise InputError(f"--m-max must be at least {self.m_start} (the sequential test starts at m = {self.m_start}), got {self.m_max}")
            if self.stop not in STOP_RULES:
                raise InputError(f"--stop: unknown rule {self.stop!r} (rules: {', '.join(STOP_RULES)})")
        if not 0 < self.alpha < 1:
            raise InputError(f"--alpha must lie strictly between 0 and 1, got {self.alpha}")
        if not 0.5 <= self.threshold < 1:
            raise InputError(f"--threshold must lie in [0.5, 1), got {self.threshold}")
        if self.rope is not None and not 0 <= self.rope < 1:
            raise InputError(f"--rope must lie in [0, 1), got {self.rope}")
        for k in ("c1", "c2"):
            v = getattr(self, k)
            if v is not None and v < 0:
                raise InputError(f"--{k} must be non-negative, got {v}")
        if self.max_iterations is not None and self.max_iterations < 1:
            raise InputError(f"--max-iterations must be at least 1, got {self.max_iterations}")

    def make_systems(self) -> list[System]:
        crf = {"c1": self.c1, "c2": self.c2, "max_iterations": self.max_iterations}
        return [parse_system(name, task=self.task, **crf) for name in self.systems]


def prepare_corpus(corpus: Corpus, task: str) -> Corpus:
    """The corpus as the task sees it: characters and words for ``cws``; tagged tokens for ``ner``."""
    if task == "cws":
        if corpus.format == "segmented" or corpus.scheme in ("bmes", "bb2b3mes"):
            return corpus
        return words_to_characters(corpus)
    if not any(s.tags for s in corpus):
        first = corpus[0]
        raise InputError("--task ner needs a tag column (e.g. --columns token,pos,chunk,ner); this corpus has none",
                         file=first.source, line=first.line)
    return corpus


def gold_chunks(corpus: Corpus, options: CompareOptions) -> list[tuple]:
    """Gold chunks of every sentence after the ``--chunk-types`` / ``--untyped`` filters."""
    keep = options.chunk_types
    if keep is not None:
        present = set(corpus.chunk_counts())
        missing = [t for t in keep if t not in present]
        if missing:
            raise InputError(f"--chunk-types: no chunks of type {', '.join(missing)} in the corpus (types: {', '.join(sorted(present)) or 'none'})")
    return [filter_chunks(s.chunks, keep, options.untyped) for s in corpus]


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _prepare_out(out: Path, resume: bool) -> None:
    if out.exists() and not out.is_dir():
        raise InputError("--out must be a directory", file=str(out))
    check_writable(out, directory=True)
    if (out / "folds.jsonl").exists() and not resume:
        raise InputError("holds a previous run (folds.jsonl); add --resume to continue it, or choose another --out", file=str(out))


class StaleRunError(InputError):
    """A run directory whose saved splits are not the ones the current options (or version) give."""


#: The files a compare run writes into its directory.
RUN_FILES = ("splits.json", "folds.jsonl", "report.json", "report.md", "posteriors.png", "f1_difference.png",
             "fold_f1.png")


def _split_manifest(corpus: Corpus, options: CompareOptions, out: Path, resume: bool):
    m_plan = options.m_max if options.sequential else options.m
    splits = make_splits(corpus, m=m_plan, method="bcv", balance=options.balance or None,
                         group_by=options.group_by, seed=options.seed)
    path = out / "splits.json"
    if resume and path.exists():
        old = load_splits(path)
        k = len(old.splits)
        same = old.n == splits.n and all(
            np.array_equal(a, b) and np.array_equal(c, d) for (a, c), (b, d) in zip(old.splits, splits.splits[:k]))
        if not same:
            raise StaleRunError("the saved splits differ from the ones these options give (another corpus, seed, "
                                "option or textbcv version?); use another --out", file=str(path))
    return splits


def _per_type(store: FoldStore, name: str, m: int) -> dict:
    """Pooled counts and P / R / F1 of every chunk type over the 2m folds of ``name``."""
    total = sum((ChunkCounts.from_dict(store.records[(name, j, k)]["counts"]) for j in range(m) for k in (0, 1)),
                ChunkCounts())
    return {t: {"tp": c.tp, "fp": c.fp, "fn": c.fn, "precision": c.precision, "recall": c.recall, "f1": c.f1}
            for t, c in total.types.items()}


def _fold_f1(store: FoldStore, name: str, m: int) -> list[float]:
    """F1 of each of the 2m folds of ``name``, in fold order."""
    return [Tally(c["tp"], c["fp"], c["fn"]).f1 for c in store.counts(name, m)]


def _sequential(store: FoldStore, names: Sequence[str], m: int, options: CompareOptions) -> list[dict]:
    """The sequential t-test on per-fold F1 differences, for every pair, both directions."""
    res = []
    f1 = {n: np.array(_fold_f1(store, n, m)).reshape(m, 2) for n in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            d = f1[b] - f1[a]
            out = {"a": a, "b": b, "metric": "f1"}
            for label, sign in (("b_better", 1.0), ("a_better", -1.0)):
                test = SequentialTTest(alpha=options.alpha, m_start=min(options.m_start, m),
                                       M=max(m, options.m_max if options.sequential else m))
                state = None
                for row in sign * d:
                    state = test.update(tuple(row))
                    if state.done:
                        break
                out[label] = state.as_dict()
            if out["b_better"]["decision"] == "reject H0":
                out["decision"] = "B better"
            elif out["a_better"]["decision"] == "reject H0":
                out["decision"] = "A better"
            else:
                out["decision"] = "no decision"
            out["estimate"] = float(d.mean())
            out["ci"] = out["b_better"]["ci"]
            res.append(out)
    return res


def _stop_now(answer: dict, seq: list[dict], options: CompareOptions) -> tuple[bool, str]:
    """Whether every pair's F1 comparison is decided under the chosen stopping rule."""
    if options.stop == "t-test":
        undecided = [s for s in seq if s["decision"] == "no decision"]
        if not undecided:
            return True, "the sequential t-test on per-fold F1 differences decided every pair"
        return False, ""
    f1 = [c for c in answer["comparisons"] if c["metric"] == "f1"]
    if all(max(c["p_b_better"], c["p_a_better"]) >= options.threshold for c in f1):
        return True, f"the Bayes test's P(better) for F1 reached {options.threshold} for every pair"
    return False, ""


@dataclass
class ComparePlan:
    """Everything a comparison needs before its first fold is trained (from :func:`prepare_compare`).

    Every check of the user's input (options, corpus files, ``--out``, a run
    being resumed) is done by the time a plan exists, and nothing has been
    written yet.
    """

    out: Path
    options: CompareOptions
    format: str
    systems: list[System]
    raw: Corpus
    corpus: Corpus
    gold: list[tuple]
    splits: object
    payload: object
    store: FoldStore
    times: dict = field(default_factory=dict)


def prepare_compare(
    files: Sequence[str],
    out: str | os.PathLike,
    options: CompareOptions,
    format: str = "conll",
    columns: str | None = None,
    scheme: str | None = None,
    resume: bool = False,
    encoding: str = "utf-8",
) -> ComparePlan:
    """Check the input and do the work before training: read, split, featurize (nothing is written).

    Raises
    ------
    InputError
        For any bad option, corpus file or run directory.
    """
    t_start = time.time()
    options.validate()
    systems = options.make_systems()
    out = Path(out)
    _prepare_out(out, resume)
    raw = read_corpus(files, format=format, columns=columns, scheme=scheme, encoding=encoding)
    corpus = prepare_corpus(raw, options.task)
    gold = gold_chunks(corpus, options)
    t_read = time.time()
    splits = _split_manifest(corpus, options, out, resume)
    t_split = time.time()
    store = FoldStore(out / "folds.jsonl")
    for s in systems:
        store.check_spec(s.name, s.to_dict())
    payload = make_payload(corpus.sentences, gold, systems)
    t_feat = time.time()
    return ComparePlan(out, options, raw.format, systems, raw, corpus, gold, splits, payload, store,
                       {"start": t_start, "read": t_read, "split": t_split, "feat": t_feat})


def compare(
    files: Sequence[str],
    out: str | os.PathLike,
    options: CompareOptions,
    format: str = "conll",
    columns: str | None = None,
    scheme: str | None = None,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    resume: bool = False,
    progress: bool | None = None,
    save_models: bool = False,
    save_predictions: bool = False,
    plots: bool = True,
    encoding: str = "utf-8",
) -> dict:
    """Run a whole comparison and write the run directory; return ``report.json``'s content.

    The same as :func:`run_compare` on the plan of :func:`prepare_compare`:
    bad input raises :class:`InputError` before anything is written.

    Examples
    --------
    >>> import tempfile
    >>> from textbcv.cli.demo import bundled_corpora
    >>> opts = CompareOptions(task="ner", systems=("iob2", "iobes"), m=1, max_iterations=5)
    >>> r = compare([str(bundled_corpora()["ner"])], tempfile.mkdtemp(), opts, plots=False, progress=False)
    >>> [c["metric"] for c in r["comparisons"]]
    ['precision', 'recall', 'f1']
    """
    plan = prepare_compare(files, out, options, format=format, columns=columns, scheme=scheme, resume=resume,
                           encoding=encoding)
    return run_compare(plan, jobs=jobs, backend=backend, scheduler=scheduler, progress=progress,
                       save_models=save_models, save_predictions=save_predictions, plots=plots)


def run_compare(
    plan: ComparePlan,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool | None = None,
    save_models: bool = False,
    save_predictions: bool = False,
    plots: bool = True,
) -> dict:
    """Train and score every fold of ``plan``, test, and write the run directory; return ``report.json``'s content."""
    out, options, systems, store = plan.out, plan.options, plan.systems, plan.store
    raw, corpus, gold, splits, payload = plan.raw, plan.corpus, plan.gold, plan.splits, plan.payload
    t_start, t_read, t_split, t_feat = (plan.times[k] for k in ("start", "read", "split", "feat"))
    format = plan.format

    out.mkdir(parents=True, exist_ok=True)
    names = [s.name for s in systems]
    folds_before = len(store.done)
    all_folds = list(splits.folds())
    m = options.m_start if options.sequential else options.m
    m = min(m, len(splits.splits))
    stopping = {"rule": options.stop if options.sequential else None, "m_max": options.m_max if options.sequential else None}
    while True:
        splits_m = _truncate(splits, m)
        splits_m.save(out / "splits.json")
        run_folds(payload, [f for f in all_folds if f[0] < m], systems, store, jobs=jobs, backend=backend,
                  scheduler=scheduler, progress=progress,
                  save_models=str(out / "models") if save_models else None,
                  save_predictions=str(out / "predictions") if save_predictions else None)
        counts = {n: store.counts(n, m) for n in names}
        answer = compare_counts(counts, m, alpha=options.alpha, rope=options.rope, variant=options.variant)
        seq = _sequential(store, names, m, options)
        if not options.sequential:
            stopping["reason"] = f"fixed m = {m}"
            break
        done, why = _stop_now(answer, seq, options)
        if done:
            stopping["reason"] = f"stopped at m = {m}: {why}"
            break
        if m >= options.m_max:
            stopping["reason"] = f"reached m = M = {options.m_max} without a decision"
            break
        m += 1
    stopping["m_used"] = m
    stopping["folds_per_system"] = 2 * m
    t_end = time.time()

    report = {
        "format": REPORT_FORMAT,
        **answer,
        "per_type": {n: _per_type(store, n, m) for n in names},
        "fold_f1": {n: _fold_f1(store, n, m) for n in names},
        "fold_counts": counts,
        "sequential": seq,
        "stopping": stopping,
        "split_quality": splits_m.quality,
        "meta": {
            "textbcv": __version__,
            "task": options.task,
            "corpus": {
                "format": format,
                "files": [{"path": str(p), "bytes": os.path.getsize(p), "sha256": _sha256(p)} for p in raw.files],
                "sentences": len(corpus), "tokens": corpus.n_tokens, "documents": corpus.n_documents,
                "gold_chunks": int(sum(len(g) for g in gold)),
            },
            "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(options).items()},
            "seed": options.seed,
            "systems": [s.to_dict() for s in systems],
        },
        "run": {
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(t_start)),
            "seconds": round(t_end - t_start, 3),
            "read_seconds": round(t_read - t_start, 3),
            "split_seconds": round(t_split - t_read, 3),
            "feature_seconds": round(t_feat - t_split, 3),
            "folds_trained": len(store.done) - folds_before,
            "folds_resumed": folds_before,
            "jobs": jobs, "backend": backend,
        },
    }
    from textbcv.report import conclusion, render_markdown, write_plots

    report["conclusion"] = conclusion(report)
    write_json(out / "report.json", report)
    from textbcv._io import atomic_write

    with atomic_write(out / "report.md") as f:
        f.write(render_markdown(report))
    if plots:
        write_plots(report, out)
    return report


def _truncate(splits, m: int):
    """The first ``m`` splits of a nested BCV split set, with their quality block."""
    return splits if m == len(splits.splits) else splits.extend(m)
