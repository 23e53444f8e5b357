"""One comparison end to end: corpus → balanced m×2 BCV splits → folds → counts → tests → report.

This module and the CLI are the only places that know every stage. A run
directory holds ``splits.json``, ``folds.jsonl`` (the resumable fold store),
``report.json``, ``report.md`` and the PNG plots.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from textbcv import __version__, defaults
from textbcv._io import check_writable, write_json
from textbcv.corpus import Corpus, read_corpus
from textbcv.corpus.fingerprint import corpus_digest, corpus_fingerprints
from textbcv.corpus.transform import filter_chunks, words_to_characters
from textbcv.errors import InputError
from textbcv.heldout import heldout_section, read_heldout
from textbcv.onesplit import one_split_section
from textbcv.scoring import ChunkCounts, Tally
from textbcv.split import SplitSet, load_splits, make_splits
from textbcv.stats.bayes import NO_CLEAR_DIFFERENCE, THRESHOLD
from textbcv.stats.compare import ALL_VARIANTS, compare_counts, counts_scores
from textbcv.stats.sequential import sequential_pair
from textbcv.tagging import FoldStore, System, make_payload, parse_system, run_folds

__all__ = ["CompareOptions", "ComparePlan", "StaleRunError", "RUN_FILES", "compare", "prepare_compare", "run_compare",
           "prepare_corpus", "gold_chunks", "assemble_report", "write_report", "corpus_meta", "options_from_splits",
           "answer_for", "rerender", "REPORT_FORMAT", "VARIANTS", "SPLIT_METHODS"]

REPORT_FORMAT = "textbcv-report/1"
TASKS = ("ner", "cws")
STOP_RULES = ("t-test", "bayes")
#: Count-factor variants of a comparison, as ``textbcv test`` has them (``rho`` needs ρ1 and ρ2).
VARIANTS = ALL_VARIANTS
#: Split designs whose 2m folds a comparison can use (two directions per split).
SPLIT_METHODS = ("bcv", "bcv-select", "random")


@dataclass
class CompareOptions:
    """Everything that decides a comparison's result (saved in ``report.json``).

    Parameters mirror ``textbcv compare``'s options, with rates as fractions:
    ``rope`` = 0.005 is the command line's ``--rope 0.5`` (points).
    ``threshold`` is the decision rule's (:func:`textbcv.stats.bayes.decide`)
    and the stopping level of ``stop="bayes"``.
    """

    task: str = "ner"
    systems: tuple[str, ...] = ("iob2", "iobes")
    m: int = 3
    sequential: bool = False
    m_start: int = 3
    m_max: int = 12
    stop: str = "t-test"
    threshold: float = THRESHOLD
    alpha: float = 0.05
    rope: float | None = None
    variant: str = defaults.VARIANT
    rho1: float | None = None
    rho2: float | None = None
    seed: int = 0
    balance: tuple[str, ...] = defaults.BALANCE
    group_by: str = defaults.GROUP_BY
    chunk_types: tuple[str, ...] | None = None
    untyped: bool = False
    c1: float | None = None
    c2: float | None = None
    max_iterations: int | None = None
    split_method: str = "bcv"
    heldout: tuple[str, ...] = ()

    def validate(self) -> None:
        """Raise :class:`InputError` for an impossible option (before anything is read or trained).

        Examples
        --------
        >>> CompareOptions(variant="thesis ").validate()
        Traceback (most recent call last):
        ...
        textbcv.errors.InputError: --variant: unknown variant 'thesis ' (variants: thesis, independent, averaged-counts, rho, adaptive, clustered)
        """
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
        if self.split_method not in SPLIT_METHODS:
            raise InputError(f"splits made with --method {self.split_method} cannot be compared: each split needs both "
                             f"directions (methods: {', '.join(SPLIT_METHODS)})")
        if self.sequential and self.split_method != "bcv":
            raise InputError("--sequential adds nested BCV splits; it cannot extend given splits")
        if len(set(self.heldout)) != len(self.heldout):
            raise InputError(f"--heldout: a file is named twice in {' '.join(self.heldout)}")
        if self.chunk_types is not None and not self.chunk_types:
            raise InputError("--chunk-types: give at least one chunk type")
        if not 0 < self.alpha < 1:
            raise InputError(f"--alpha must lie strictly between 0 and 1, got {self.alpha}")
        if not 0.5 <= self.threshold < 1:
            raise InputError(f"--threshold must lie in [0.5, 1), got {self.threshold}")
        if self.rope is not None and not 0 <= self.rope < 1:
            raise InputError(f"rope must lie in [0, 1) as a fraction of the metric (--rope takes points), got {self.rope}")
        if self.variant not in ALL_VARIANTS:
            raise InputError(f"--variant: unknown variant {self.variant!r} (variants: {', '.join(ALL_VARIANTS)})")
        if self.variant == "rho":
            if self.rho1 is None or self.rho2 is None:
                raise InputError("--variant rho needs --rho1 and --rho2")
            for k in ("rho1", "rho2"):
                if not 0 <= getattr(self, k) <= 1:
                    raise InputError(f"--{k} must lie in [0, 1], got {getattr(self, k)}")
        for k in ("c1", "c2"):
            v = getattr(self, k)
            if v is not None and v < 0:
                raise InputError(f"--{k} must be non-negative, got {v}")
        if self.max_iterations is not None and self.max_iterations < 1:
            raise InputError(f"--max-iterations must be at least 1, got {self.max_iterations}")

    def make_systems(self, columns=None) -> list[System]:
        """The systems named by :attr:`systems`, with the CRF options.

        ``columns`` (the corpus's columns besides tokens and tags, see
        :func:`textbcv.tagging.features.feature_columns`) chooses the default
        template and refuses a named one that reads another column; None
        (not known yet) only checks the names.
        """
        return [self.make_system(name, columns) for name in self.systems]

    def make_system(self, name: str, columns=None) -> System:
        """One system named ``SCHEME[+TEMPLATE]`` (see :meth:`make_systems`)."""
        crf = {"c1": self.c1, "c2": self.c2, "max_iterations": self.max_iterations}
        return parse_system(name, task=self.task, columns=columns, **crf)


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


#: Files that mark a directory as a textbcv run (``--out`` may be one of these, or new, or empty).
RUN_MARKERS = ("splits.json", "folds.jsonl", "report.json")


def _prepare_out(out: Path, resume: bool) -> None:
    """Refuse an ``--out`` that is a file, or a non-empty directory that is not a textbcv run (nothing is written).

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _prepare_out(d, resume=False)  # empty: fine
    >>> _ = (d / "thesis.tex").write_text("x")
    >>> _prepare_out(d, resume=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: ...: --out: the directory is not empty and holds no textbcv run (thesis.tex); choose a new or empty directory
    """
    if out.exists() and not out.is_dir():
        raise InputError("--out must be a directory", file=str(out))
    check_writable(out, directory=True)
    if out.is_dir():
        try:
            names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
        except OSError as e:
            raise InputError(f"--out: cannot read the directory: {e.strerror or e}", file=str(out)) from None
        if names and not any(n in RUN_MARKERS for n in names):
            shown = ", ".join(names[:3]) + (f", … ({len(names)} entries)" if len(names) > 3 else "")
            raise InputError(f"--out: the directory is not empty and holds no textbcv run ({shown}); choose a new or "
                             "empty directory", file=str(out))
    if (out / "folds.jsonl").exists() and not resume:
        raise InputError("holds a previous run (folds.jsonl); add --resume to continue it, or choose another --out", file=str(out))


class StaleRunError(InputError):
    """A run directory whose saved splits are not the ones the current options (or version) give."""


#: The files a compare run writes into its directory.
RUN_FILES = ("splits.json", "folds.jsonl", "report.json", "report.md", "report.tex", "posteriors.png",
             "f1_difference.png", "pairwise.png", "fold_f1.png")


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


def options_from_splits(options: CompareOptions, splits: SplitSet) -> CompareOptions:
    """``options`` with the design of given splits (their m, seed, method, balance and grouping).

    Raises
    ------
    InputError
        When ``options`` asks for another m or a sequential run.
    """
    if options.sequential:
        raise InputError("--sequential adds nested splits as it goes; it cannot be used with given splits")
    k = len(splits.splits)
    if options.m != k:
        raise InputError(f"the splits hold m = {k} splits, but m = {options.m} was asked for; leave m out to use them")
    o = splits.options
    return replace(options, seed=splits.seed, split_method=splits.method,
                   balance=tuple(o.get("balance", options.balance)), group_by=o.get("group_by_requested", o.get("group_by", options.group_by)))


def _split_manifest(raw: Corpus, corpus: Corpus, options: CompareOptions, out: Path, resume: bool,
                    given: SplitSet | None = None) -> SplitSet:
    if given is not None:
        splits = given
    else:
        m_plan = options.m_max if options.sequential else options.m
        splits = make_splits(corpus, m=m_plan, method="bcv", balance=options.balance or None,
                             group_by=options.group_by, seed=options.seed)
        # fingerprints of the corpus as read (words, not characters, for a CoNLL-U corpus segmented here), so
        # that the manifest is accepted with the same files by `textbcv evaluate` and `compare --splits`
        splits.fingerprints = corpus_fingerprints(raw)
    path = out / "splits.json"
    if resume and path.exists():
        old = load_splits(path)
        k = len(old.splits)
        same = old.n == splits.n and k <= len(splits.splits) and all(
            np.array_equal(a, b) and np.array_equal(c, d) for (a, c), (b, d) in zip(old.splits, splits.splits[:k]))
        if same and old.fingerprints is not None and old.fingerprints != splits.fingerprints:
            raise StaleRunError("the saved splits were made for another corpus (the sentences differ); use another "
                                "--out", file=str(path))
        if not same:
            raise StaleRunError("the saved splits differ from the ones these options give (another corpus, seed, "
                                "option or textbcv version?); use another --out", file=str(path))
    return splits


def split_info(splits, options: CompareOptions, corpus: Corpus) -> dict:
    """What the splits kept whole and balanced, with a line on every choice known to bend the estimate."""
    unit = splits.options.get("group_by", "sentence")
    asked = splits.options.get("group_by_requested", unit)
    balance = list(splits.options.get("balance", options.balance))
    notes = []
    note = defaults.unit_note(asked, unit, corpus.n_documents)
    if note:
        notes.append(note)
    notes += defaults.option_notes(balance, options.variant)
    return {"unit": unit, "group_by": asked, "documents": corpus.n_documents, "balance": balance,
            "duplicates_together": splits.options.get("duplicates_together"), "notes": notes}


def corpus_meta(raw: Corpus, corpus: Corpus, gold: Sequence, format: str, read: dict | None = None) -> dict:
    """The ``meta.corpus`` block of ``report.json``: files (size and SHA-256 when on disk), sizes, gold chunks per
    type (after the ``--chunk-types`` / ``--untyped`` filters), fingerprint, and ``read``: the ``columns``,
    ``scheme`` and ``encoding`` it was read with (None: the default)."""
    files = []
    for p in raw.files:
        entry: dict = {"path": str(p)}
        if os.path.isfile(p):
            entry.update(bytes=os.path.getsize(p), sha256=_sha256(p))
        files.append(entry)
    types: dict[str, int] = {}
    for g in gold:
        for c in g:
            types[c[2]] = types.get(c[2], 0) + 1
    return {"format": format, "files": files, "sentences": len(corpus), "tokens": corpus.n_tokens,
            "documents": corpus.n_documents, "gold_chunks": int(sum(len(g) for g in gold)),
            "chunks_per_type": dict(sorted(types.items())),
            "read": {"columns": None, "scheme": None, "encoding": None, **(read or {})},
            "fingerprint": corpus_digest(corpus_fingerprints(raw))}


def _per_type(store: FoldStore, name: str, m: int) -> dict:
    """Pooled counts and P / R / F1 of every chunk type over the 2m folds of ``name``."""
    total = sum((ChunkCounts.from_dict(store.records[(name, j, k)]["counts"]) for j in range(m) for k in (0, 1)),
                ChunkCounts())
    return {t: counts_scores(c.tp, c.fp, c.fn) for t, c in total.types.items()}


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
            out = {"a": a, "b": b, "metric": "f1",
                   **sequential_pair(d, alpha=options.alpha, m_start=options.m_start,
                                     M=options.m_max if options.sequential else m)}
            res.append(out)
    return res


def _stop_now(answer: dict, seq: list[dict], options: CompareOptions) -> tuple[bool, str]:
    """Whether every pair's F1 comparison is decided under the chosen stopping rule."""
    if options.stop == "t-test":
        undecided = [s for s in seq if s["t_test"] != "rejects equality"]
        if not undecided:
            return True, "the sequential t-test on per-fold F1 differences decided every pair"
        return False, ""
    f1 = [c for c in answer["comparisons"] if c["metric"] == "f1"]
    if all(c["decision"] != NO_CLEAR_DIFFERENCE for c in f1):  # the report's decision rule, at --threshold
        return True, f"the Bayes test's P(better) for F1 reached {options.threshold} for every pair"
    return False, ""


def fold_clusters(splits, corpus: Corpus) -> dict:
    """The cluster of every test sentence of every fold, in test order (the order of ``sentence_counts``).

    Documents where the corpus marks at least two (new text comes as new documents: the design
    effect is measured over them whatever unit the splits kept whole), else sentences. Returns
    ``{"clusters": "documents" | "sentences", "folds": {(split, direction): array or None}}``.
    """
    if corpus.n_documents > 1:
        doc = np.asarray(corpus.document_ids)
        return {"clusters": "documents",
                "folds": {(j, k): doc[np.asarray(test, dtype=np.int64)] for j, k, _tr, test in splits.folds()}}
    return {"clusters": "sentences", "folds": {}}


def design_effects_of(records: Mapping, names: Sequence[str], m: int, clusters: dict | None) -> dict:
    """Each system's design effect (:mod:`textbcv.stats.clustering`) from its folds' per-sentence counts.

    ``records``: fold records by ``(system, split, direction)`` (a FoldStore's ``records``).

    Returns ``{"clusters", "folds": {name: [[deff P, R, F1] per fold]}, "pooled": {name: {metric: deff}}}``;
    an InputError when a fold has no per-sentence counts (runs of textbcv before 0.1 saved none).
    """
    from textbcv.stats.clustering import design_effect, pooled_design_effect

    clusters = clusters or {"clusters": "sentences", "folds": {}}
    out: dict = {"clusters": clusters["clusters"], "folds": {}, "pooled": {}}
    for n in names:
        effects = []
        for j in range(m):
            for k in (0, 1):
                rec = records[(n, j, k)]
                if "sentence_counts" not in rec:
                    raise InputError(f"--variant clustered needs the per-sentence counts of every fold, and fold "
                                     f"{j},{k} of {n!r} has none (a run of an older textbcv): choose another --variant, "
                                     f"e.g. adaptive")
                groups = clusters["folds"].get((j, k))
                effects.append(design_effect(np.asarray(rec["sentence_counts"], dtype=float).reshape(-1, 3), groups))
        out["folds"][n] = [[e.to_dict()["deff"][x] for x in ("precision", "recall", "f1")] for e in effects]
        out["pooled"][n] = pooled_design_effect(effects)
    return out


def answer_for(store: FoldStore, names: Sequence[str], m: int, options: CompareOptions,
               clusters: dict | None = None) -> tuple[dict, dict, list]:
    """Counts, Bayes answer and sequential t-tests of the first ``m`` splits of the folds in ``store``.

    ``clusters`` (:func:`fold_clusters`) groups the test sentences for the ``clustered`` variant
    (default: every sentence its own cluster).
    """
    counts = {n: store.counts(n, m) for n in names}
    have = all("sentence_counts" in store.records[(n, j, k)] for n in names for j in range(m) for k in (0, 1))
    # measured whenever the folds allow (the report shows it, `textbcv test RUN` reuses it); needed by "clustered"
    deff = design_effects_of(store.records, names, m, clusters) if have or options.variant == "clustered" else None
    answer = compare_counts(counts, m, alpha=options.alpha, rope=options.rope, variant=options.variant,
                            rho1=options.rho1, rho2=options.rho2, threshold=options.threshold,
                            design_effects=None if deff is None else deff["pooled"])
    if deff is not None:
        answer["design_effects"] = deff["pooled"]
        answer["design_effect_folds"] = {"clusters": deff["clusters"], "folds": deff["folds"]}
    return counts, answer, _sequential(store, names, m, options)


def assemble_report(store: FoldStore, names: Sequence[str], m: int, options: CompareOptions, split_quality: dict | None,
                    corpus: dict, systems: Sequence[dict], stopping: dict, run: dict, imported: dict | None = None,
                    answer: tuple | None = None, heldout: Sequence | None = None, split: dict | None = None,
                    splits_path: str | None = None, clusters: dict | None = None) -> dict:
    """The ``report.json`` content of a comparison whose 2m folds per system are in ``store``.

    One function for every way folds come about — trained here (``compare``)
    or predicted elsewhere and imported (``evaluate``) — so both give the
    same report from the same counts. ``splits_path``: the manifest given
    with ``--splits`` (recorded so that the report's command reuses it).
    """
    from textbcv.report import conclusion

    counts, ans, seq = answer if answer is not None else answer_for(store, names, m, options, clusters)
    meta = {
        "textbcv": __version__,
        "task": options.task,
        "corpus": corpus,
        "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(options).items()},
        "seed": options.seed,
        "systems": list(systems),
    }
    if splits_path is not None:
        meta["splits"] = splits_path
    if imported is not None:
        meta["imported"] = imported
    report = {
        "format": REPORT_FORMAT,
        **ans,
        "per_type": {n: _per_type(store, n, m) for n in names},
        "fold_f1": {n: _fold_f1(store, n, m) for n in names},
        "fold_counts": counts,
        "sequential": seq,
        "stopping": stopping,
        "split_quality": split_quality,
        "split": split,
        "meta": meta,
        "run": run,
    }
    if heldout:
        sets = {h.name: {**h.info(), "duplicate": np.flatnonzero(h.duplicate).tolist()} for h in heldout}
        report["heldout"] = heldout_section(store.records, names, m, sets, ans, seed=options.seed, alpha=options.alpha)
    report["one_split"] = one_split_section(store.records, names, m, seed=options.seed, alpha=options.alpha)
    report["conclusion"] = conclusion(report)
    return report


def write_report(out: str | os.PathLike, report: dict, plots: bool = True) -> None:
    """Write ``report.json``, ``report.md``, ``report.tex`` and (with ``plots``) the PNG plots of ``report`` into ``out``.

    ``report.md`` embeds the plots written (relative links); a plot of an
    earlier rendering that this one does not draw is removed, so that no
    picture contradicts the report beside it.
    """
    from textbcv._io import atomic_write
    from textbcv.report import plot_names, render_markdown, write_plots
    from textbcv.report_tex import render_tex

    out = Path(out)
    write_json(out / "report.json", report)
    names = plot_names(report) if plots else []
    if plots:
        write_plots(report, out)
    for stale in RUN_FILES:
        if stale.endswith(".png") and stale not in names:
            (out / stale).unlink(missing_ok=True)
    with atomic_write(out / "report.md") as f:
        f.write(render_markdown(report, names))
    with atomic_write(out / "report.tex") as f:
        f.write(render_tex(report))


def rerender(report: dict, threshold: float | None = None, rope: float | None = None) -> dict:
    """``report`` with its Bayes answer recomputed from its saved fold counts under another ``threshold`` and/or
    ``rope`` (a fraction; 0 removes the rope; None keeps the report's own); nothing is retrained.

    The folds, the splits and the sequential t-test are those of the run; with
    ``--sequential --stop bayes``, m stays what the run's own threshold gave.
    """
    from textbcv.report import conclusion

    o = dict(report["meta"]["options"])
    if threshold is not None:
        o["threshold"] = threshold
    if rope is not None:
        o["rope"] = rope or None
    answer = compare_counts(report["fold_counts"], report["m"], alpha=report["alpha"], rope=o.get("rope"),
                            variant=o.get("variant", report.get("variant")), rho1=o.get("rho1"), rho2=o.get("rho2"),
                            threshold=o.get("threshold"), prior=report.get("prior") or 1.0,
                            design_effects=report.get("design_effects"))
    new = {**report, **answer, "meta": {**report["meta"], "options": o}}
    new["conclusion"] = conclusion(new)
    return new


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
    heldout: list = field(default_factory=list)
    #: Lines for stderr: which feature template the systems named without one use, and why.
    notes: list = field(default_factory=list)
    #: How each CRF system's template was chosen ("given", "default", or the default that fits the columns).
    template_choices: dict = field(default_factory=dict)
    read: dict = field(default_factory=dict)
    splits_path: str | None = None


def prepare_compare(
    files: Sequence[str] | None,
    out: str | os.PathLike,
    options: CompareOptions,
    format: str = "conll",
    columns: str | None = None,
    scheme: str | None = None,
    resume: bool = False,
    *,
    corpus: Corpus | None = None,
    systems: Sequence[System] | None = None,
    splits: SplitSet | str | os.PathLike | None = None,
    encoding: str = "utf-8",
) -> ComparePlan:
    """Check the input and do the work before training: read, split, featurize (nothing is written).

    Parameters
    ----------
    files : sequence of str, or None
        Corpus files (read with ``format``, ``columns``, ``scheme``), or None with ``corpus``.
    out : path
        Run directory.
    options : CompareOptions
    corpus : Corpus, optional
        A corpus already read (instead of ``files``).
    systems : sequence of System, optional
        The systems, when not named by ``options.systems`` (e.g. systems with
        the user's own taggers); ``options.systems`` becomes their names.
    splits : SplitSet or path, optional
        Use these splits (a ``textbcv split`` manifest is checked against the
        corpus) instead of making them; their m, seed and design replace the
        options'.

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
    _prepare_out(out, resume)
    store = FoldStore(out / "folds.jsonl")
    check_heldout_records(store, names, options.heldout)
    raw = corpus if corpus is not None else read_corpus(files, format=format, columns=columns, scheme=scheme,
                                                        encoding=encoding)
    given, given_path = None, None
    if splits is not None:
        given, given_path = _given_splits(splits, raw)
        options = options_from_splits(options, given)
        options.validate()
    prepared = prepare_corpus(raw, options.task)
    gold = gold_chunks(prepared, options)
    heldout = read_heldout(options.heldout, raw, options, format=raw.format,
                           columns=columns, scheme=scheme) if options.heldout else []
    systems, notes, choices = _fit_systems(systems, options, prepared, heldout)
    for s in systems:
        store.check_spec(s.name, s.to_dict())
    t_read = time.time()
    split_set = _split_manifest(raw, prepared, options, out, resume, given)
    t_split = time.time()
    scheme_out = prepared.scheme
    payload = make_payload(prepared.sentences, gold, systems,
                           {h.name: (h.corpus.sentences, h.gold, h.stem, scheme_out) for h in heldout})
    t_feat = time.time()
    read = {"columns": columns, "scheme": scheme, "encoding": None if _utf8(encoding) else encoding}
    return ComparePlan(out, options, raw.format, systems, raw, prepared, gold,
                       split_set, payload, store, {"start": t_start, "read": t_read, "split": t_split, "feat": t_feat},
                       heldout, notes, choices, read, given_path)


def _fit_systems(systems: Sequence[System | str], options: CompareOptions, corpus: Corpus,
                 heldout: Sequence) -> tuple[list[System], list[str], dict]:
    """Systems whose feature templates read only columns the corpus (and every held-out file) has.

    A system named without a template gets the task's default, or the first
    default that fits (:func:`textbcv.tagging.system.default_template`); a
    template named, or given in a System, that reads a missing column is an
    InputError naming the templates that fit. Returns the systems, the notes
    saying which template the unnamed ones use (for stderr), and how each
    system's template was chosen (for ``report.json``).
    """
    from textbcv.tagging.features import TEMPLATE_HELP, feature_columns, get_template
    from textbcv.tagging.system import DEFAULT_TEMPLATES, check_columns

    columns = set(feature_columns(corpus.sentences))
    for h in heldout:
        columns &= feature_columns(h.corpus.sentences)
    out, choices, defaulted = [], {}, {}
    for s in systems:
        if isinstance(s, System):
            check_columns(s, columns, options.task)
            out.append(s)
            if s.tagger is None:
                choices[s.name] = "given"
            continue
        system = options.make_system(s, columns)
        out.append(system)
        if "+" in s:
            choices[system.name] = "given"
            continue
        t, default = system.template.name, DEFAULT_TEMPLATES[options.task]
        if t == default:
            choices[system.name] = "default"
        else:
            lacking = " and ".join(sorted(get_template(default).columns - columns))
            choices[system.name] = f"default for a corpus without a {lacking} column ({default} reads it)"
        defaulted.setdefault(t, []).append(system.name)
    notes = []
    default = DEFAULT_TEMPLATES[options.task]
    for t, names in defaulted.items():
        line = f"textbcv: feature template {t} for {', '.join(names)}: {TEMPLATE_HELP.get(t, t)}; "
        if t == default:
            line += "the default; SCHEME+TEMPLATE names another"
        else:
            lacking = " and ".join(sorted(get_template(default).columns - columns))
            where = "the corpus" + (" or a held-out file" if heldout else "")
            line += (f"the default {default} reads a {lacking} column, which {where} does not have; "
                     f"SCHEME+TEMPLATE names another (e.g. {names[0]}+{'ner-rich-words' if t == 'ner-words' else t})")
        notes.append(line)
    return out, notes, choices


def _utf8(encoding: str | None) -> bool:
    return encoding is None or encoding.lower().replace("_", "-") in ("utf-8", "utf8")


def check_heldout_records(store: FoldStore, names: Sequence[str], heldout: Sequence[str]) -> None:
    """Refuse to resume folds that were tagged on other held-out files than ``heldout``."""
    want = set(heldout)
    for (name, j, k), rec in store.records.items():
        if name in names and set(rec.get("heldout", {})) != want:
            have = ", ".join(sorted(rec.get("heldout", {}))) or "none"
            raise InputError(f"the finished folds were made with other held-out files ({have}) than --heldout gives "
                             f"({', '.join(heldout) or 'none'}); use another --out", file=str(store.path))


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
    splits: SplitSet | str | os.PathLike | None = None,
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
                           splits=splits, encoding=encoding)
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
    before = set(store.done)
    all_folds = list(splits.folds())
    m = options.m_start if options.sequential else options.m
    m = min(m, len(splits.splits))
    stopping = {"rule": options.stop if options.sequential else None, "m_max": options.m_max if options.sequential else None}
    clusters = fold_clusters(splits, corpus)
    while True:
        splits_m = splits if m == len(splits) else splits.head(m)  # given splits are used whole
        splits_m.save(out / "splits.json")
        run_folds(payload, [f for f in all_folds if f[0] < m], systems, store, jobs=jobs, backend=backend,
                  scheduler=scheduler, progress=progress,
                  save_models=str(out / "models") if save_models else None,
                  save_predictions=str(out / "predictions") if save_predictions else None)
        counts, answer, seq = answer_for(store, names, m, options, clusters)
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
    run = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(t_start)),
        "seconds": round(t_end - t_start, 3),
        "read_seconds": round(t_read - t_start, 3),
        "split_seconds": round(t_split - t_read, 3),
        "feature_seconds": round(t_feat - t_split, 3),
        # resumed: folds of this report found finished (not folds of other systems or later splits in the store)
        "folds_trained": len(store.done - before),
        "folds_resumed": sum((n, j, k) in before for n in names for j in range(m) for k in (0, 1)),
        "jobs": jobs, "backend": backend,
    }
    specs = [{**s.to_dict(), **({"template_choice": plan.template_choices[s.name]}
                                 if s.name in plan.template_choices else {})} for s in systems]
    report = assemble_report(store, names, m, options, splits_m.quality,
                             corpus_meta(raw, corpus, gold, format, plan.read),
                             specs, stopping, run, answer=(counts, answer, seq),
                             heldout=plan.heldout, split=split_info(splits_m, options, corpus),
                             splits_path=plan.splits_path)
    write_report(out, report, plots)
    return report

