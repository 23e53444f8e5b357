"""The Python front door: :func:`compare`, :func:`evaluate`, :func:`test`, :func:`score`, :func:`plan` and
:class:`CompareResult`.

These are what ``import textbcv`` offers (``textbcv.compare`` and so on);
they run the same code as the ``textbcv`` command, with the same checks: an
impossible option or a system with an unknown scheme fails before anything
is read, split or trained.

Examples
--------
>>> import textbcv
>>> s = textbcv.score([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "B-ORG"]])
>>> s.counts.overall, s.precision, s.recall, s.f1
(Tally(tp=1, fp=1, fn=1), 0.5, 0.5, 0.5)
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path

from textbcv._io import dumps_json, load_json
from textbcv.comparison.imported import evaluate as evaluate_run
from textbcv.comparison.options import CompareOptions, default_design
from textbcv.comparison.pipeline import corpus_or_files, prepare_compare, run_compare
from textbcv.comparison.plan import Plan, plan_report
from textbcv.corpus.model import Corpus
from textbcv.errors import InputError
from textbcv.folds.run_dir import RunDir, owned_outputs
from textbcv.report.files import write_report_files
from textbcv.report.model import CompareReport, CountsReport
from textbcv.scoring import TagScore
from textbcv.split.manifest import SplitSet, load_splits
from textbcv.tagging.system import System

__all__ = ["compare", "evaluate", "test", "score", "plan", "CompareResult", "RUN_KEYS_THAT_DIFFER"]

#: Keys of ``report.json`` that say how and when the folds were made, not what they scored: they
#: differ between a run of :func:`compare` and the same systems' predictions brought to :func:`evaluate`
#: (``meta.imported`` exists in the second only). Everything else is equal for equal predictions.
RUN_KEYS_THAT_DIFFER = ("run", "meta.systems", "meta.imported")

_READ_OPTIONS = ("format", "columns", "scheme", "encoding", "label_names")
_RUN_OPTIONS = ("resume", "progress", "plots", "backend", "scheduler", "save_models", "save_predictions")


@dataclass(frozen=True)
class CompareResult:
    """The result of a comparison: the typed report, the fold records and the splits.

    Attributes
    ----------
    report : CompareReport
        The report (``report.systems["iob2"]["f1"].ci``, ``report.comparison("iob2", "iobes")``);
        :meth:`to_dict` is what ``report.json`` holds.
    folds : tuple of dict
        The ``folds.jsonl`` records (one per system and fold, in canonical order).
    splits : SplitSet
        The splits the folds were made on (``splits.json``).
    """

    report: CompareReport
    folds: tuple
    splits: SplitSet

    def to_dict(self) -> dict:
        """The ``report.json`` content.

        Returns
        -------
        dict
            A new dict of JSON types only, as ``report.json`` holds it (changing it leaves the result as it is).
        """
        return json.loads(dumps_json(self.report.to_dict()))

    def markdown(self) -> str:
        """The ``report.md`` text (without the plots, which :meth:`write` draws and ``report.md`` then embeds).

        Returns
        -------
        str
            The Markdown text, ending in a newline.
        """
        from textbcv.report.markdown import render_markdown

        return render_markdown(self.report)

    @property
    def conclusion(self) -> str | None:
        """The plain-language conclusion (which system is better on F1, how sure, by how much)."""
        return self.report.conclusion

    def p_better(self, a: str, b: str, metric: str = "f1") -> float | None:
        """P(``b`` better than ``a``) on ``metric`` (``precision``, ``recall`` or ``f1``; None where undefined).

        Parameters
        ----------
        a, b : str
            Two system names of the comparison, in either order; the probability is that of ``b``.
        metric : {"f1", "precision", "recall"}
            The metric; default ``"f1"``.

        Returns
        -------
        float or None
            P(``b`` better than ``a``), by more than the rope when the comparison has one.
        """
        return self.report.answer.p_better(a, b, metric)

    def plan(self, target_delta: float | None = None, power: float = 0.8, threshold: float | None = None) -> Plan:
        """What this comparison detects, and what more splits or text would (:func:`plan`).

        Parameters
        ----------
        target_delta : float or None
            A gain in F1 points to plan for (0.5 is half a point); None (default) for none.
        power : float
            The probability of calling the gain, in (0, 1); default 0.8.
        threshold : float or None
            The decision threshold, in [0.5, 1); None (default) takes the report's own.

        Returns
        -------
        Plan
            One :class:`~textbcv.comparison.plan.PairPlan` per pair with a paired posterior (gains as fractions).
        """
        return plan(self.report, target_delta=target_delta, power=power, threshold=threshold)

    def write(self, out: str | os.PathLike, plots: bool = True) -> Path:
        """Write the run directory (``splits.json``, ``folds.jsonl``, ``report.json``, ``report.md``, plots).

        A directory that holds another run's ``folds.jsonl`` is refused.

        Parameters
        ----------
        out : str or path-like
            The run directory: new, empty, or a textbcv run (with finished folds only when its ``folds.jsonl`` is
            this result's).
        plots : bool
            Draw the report's PNG plots; default True.

        Returns
        -------
        Path
            The run directory written.

        Raises
        ------
        InputError
            When ``out`` holds another run's ``folds.jsonl``, or is not empty and holds no textbcv run.
        """
        from textbcv._io import atomic_write, check_writable, dumps_json

        run = RunDir(out)
        check_writable(run.path, directory=True)
        folds = "".join(dumps_json(r, indent=None) + "\n" for r in self.folds)
        same = run.folds.exists() and run.folds.read_text(encoding="utf-8") == folds
        if run.folds.exists() and not same:
            raise InputError("holds another run (folds.jsonl); choose another directory", file=str(run.path))
        run.check_out(resume=same)
        run.claim()
        try:
            run.save_splits(self.splits)
            with atomic_write(run.folds) as f:
                f.write(folds)
            write_report_files(run, self.report, plots)
        finally:
            run.unlock()
        return run.path

    def __repr__(self) -> str:
        names = ", ".join(self.report.names)
        return f"<CompareResult of {names} on {2 * self.report.m} folds: {(self.conclusion or '')[:80]}...>"


def _corpus_arg(corpus) -> tuple[list[str] | None, Corpus | None]:
    if isinstance(corpus, Corpus):
        return None, corpus
    if isinstance(corpus, (str, os.PathLike)):
        return [os.fspath(corpus)], None
    if isinstance(corpus, Iterable):
        files = list(corpus)
        if files and all(isinstance(f, (str, os.PathLike)) for f in files):
            return [os.fspath(f) for f in files], None
    raise InputError(f"corpus: expected a path, a list of paths or a Corpus, got {type(corpus).__name__}")


def _early_read(files: list[str] | None, corpus: Corpus | None, ours: dict,
                rest: dict) -> tuple[list[str] | None, Corpus | None, str | None]:
    """Files, corpus and format note once the task is known: without ``task`` the corpus is read here, since
    its format chooses the task (``cws`` for segmented text); with it, the pipeline reads the files itself,
    after every option and the run directory are checked."""
    if "task" in ours:
        return files, corpus, None
    corpus, note = corpus_or_files(corpus, files, rest.get("format"), rest.get("columns"), rest.get("scheme"),
                                   rest.get("encoding", "utf-8"), rest.get("label_names"))
    ours["task"] = "cws" if corpus.format == "segmented" else "ner"
    return None, corpus, note


def _split_options(options: dict, allowed_extra: Sequence[str]) -> tuple[dict, dict]:
    """Options of CompareOptions, and the others (reading and running); unknown names are refused."""
    known = {f.name for f in fields(CompareOptions)} - {"systems", "m", "seed"}
    ours, rest = {}, {}
    for k, v in options.items():
        if k == "heldout":
            paths = [v] if isinstance(v, (str, os.PathLike)) else list(v or ())
            ours[k] = tuple(os.fspath(p) for p in paths)
        elif k in known:
            ours[k] = tuple(v) if isinstance(v, list) else v
        elif k in allowed_extra:
            rest[k] = v
        else:
            allowed = sorted(known | set(allowed_extra))
            raise InputError(f"unknown option {k!r} (options: {', '.join(allowed)})")
    return ours, rest


def _design(m: int | None, seed: int | None, splits) -> tuple[int, int]:
    """m and seed of a comparison: those of given splits unless asked for (a seed other than theirs is refused)."""
    if splits is None:
        return 3 if m is None else m, 0 if seed is None else seed
    given = splits if isinstance(splits, SplitSet) else load_splits(splits)
    if seed is not None and seed != given.seed:
        raise InputError(f"{{seed}}={seed}: the splits of {{splits}} were made with seed {given.seed}",
                         param=("seed", "splits"))
    return len(given.splits) if m is None else m, given.seed


def _check_run_options(jobs: int, rest: dict, out) -> None:
    if jobs < 1:
        raise InputError(f"jobs must be at least 1, got {jobs}", param="jobs")
    if rest.get("scheduler") and rest.get("backend", "loky") != "dask":
        raise InputError("{scheduler} needs {backend}=dask", param=("scheduler", "backend"))
    if out is None and (rest.get("save_models") or rest.get("save_predictions") or rest.get("resume")):
        raise InputError("save_models, save_predictions and resume need a run directory: give out=")


def compare(corpus, systems: Sequence[System | str], *, m: int | None = None, seed: int | None = None,
            splits: SplitSet | str | os.PathLike | None = None, jobs: int = 1, out: str | os.PathLike | None = None,
            on_note: Callable[[str], None] | None = None, **options) -> CompareResult:
    """Compare tagging systems on a corpus with balanced m×2 block-regularized cross-validation.

    Every system is trained on every half and predicts the other, and the fold counts give the report:
    posteriors, credible intervals, P(B better) and the sequential t-test. ``textbcv compare`` calls this.

    Parameters
    ----------
    corpus : path, list of paths, or Corpus
        The corpus (read with the ``format``, ``columns`` and ``scheme`` options).
    systems : sequence of System or str
        At least two. A string names a CRF system (``"iob2"``, ``"iobes+wordshape"``); a
        :class:`~textbcv.tagging.System` may hold any tagger with ``fit`` and ``predict``, or a command.
    m : int, optional
        A fixed number of splits (2m folds). Default: all the splits of ``splits``; without them, the measured
        design (:data:`~textbcv.comparison.options.MEASURED_DESIGN`): m = 3, extended to 7 where a pair's models'
        noise came out floored at 0 or its P(better) lies in [0.90, 0.99), unless ``sequential`` or ``stop`` is
        given.
    seed : int, optional
        Seed of the splits; default 0, or the seed of ``splits`` (another one is refused).
    splits : SplitSet or path, optional
        Use these splits, e.g. the ``SPLITS.json`` of ``textbcv split`` (refused if made from another corpus).
    jobs : int
        Worker processes, at least 1 (taggers must then be picklable).
    out : path, optional
        Run directory to write (and to resume with ``resume=True``); default none.
    on_note : callable, optional
        Called with each note for the user (the format detected, the template chosen) before training.
    **options
        The options of ``textbcv compare`` by their Python names: ``task`` (default ``"cws"`` for segmented
        text, else ``"ner"``), ``format``, ``columns``, ``scheme``, ``encoding``, ``label_names``, ``alpha``,
        ``rope`` (a fraction: 0.005 is half a point), ``variant``, ``difference``, ``chunk_types``, ``untyped``,
        ``mode``, ``balance``, ``group_by``, ``sequential``, ``m_max``, ``stop``, ``threshold``, ``c1``, ``c2``,
        ``max_iterations``, ``algorithm``, ``train_seed``, ``train_seeds``, ``heldout``, ``resume``,
        ``progress``, ``plots``, ``backend``, ``scheduler``, ``save_models``, ``save_predictions``.

    Returns
    -------
    CompareResult
        ``to_dict()`` is the content of ``report.json``.

    Raises
    ------
    InputError
        For an impossible option, an unknown scheme, a bad corpus file or split manifest, before any training.

    Examples
    --------
    >>> import textbcv
    >>> from textbcv.tagging import LexiconTagger
    >>> path = textbcv.bundled_corpora()["ner"]
    >>> systems = [textbcv.System("lexicon", "iob2", tagger=LexiconTagger()),
    ...            textbcv.System("lexicon-lower", "iob2", tagger=LexiconTagger(lowercase=True))]
    >>> r = textbcv.compare(path, systems, m=1, progress=False)
    >>> r.report.m, len(r.folds), r.report.names
    (1, 4, ['lexicon', 'lexicon-lower'])
    >>> textbcv.compare(path, systems, m=0)
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: m must be at least 1, got 0
    """
    files, corpus_obj = _corpus_arg(corpus)
    ours, rest = _split_options(options, _READ_OPTIONS + _RUN_OPTIONS)
    if isinstance(systems, (str, System)):
        raise InputError("systems: give a list of at least two systems")
    systems = list(systems)
    names = [s.name if isinstance(s, System) else str(s) for s in systems]
    ours = default_design(m, splits is not None, ours)
    m, seed = _design(m, seed, splits)
    opts = CompareOptions(systems=tuple(names), m=m, seed=seed, **{"task": "ner", **ours})
    opts.validate()
    _check_run_options(jobs, rest, out)
    files, corpus_obj, note = _early_read(files, corpus_obj, ours, rest)
    opts = replace(opts, task=ours["task"])
    run_out = out if out is not None else tempfile.mkdtemp(prefix="textbcv-run-")
    try:
        plan = prepare_compare(files, run_out, opts, format=rest.get("format"), columns=rest.get("columns"),
                               scheme=rest.get("scheme"), resume=rest.get("resume", False), corpus=corpus_obj,
                               encoding=rest.get("encoding", "utf-8"), systems=systems, splits=splits,
                               label_names=rest.get("label_names") if corpus_obj is None else None)
        if on_note is not None:
            for line in ([note] if note else []) + plan.notes:
                on_note(line)
        report = run_compare(plan, jobs=jobs, backend=rest.get("backend", "loky"), scheduler=rest.get("scheduler"),
                             progress=rest.get("progress"), save_models=rest.get("save_models", False),
                             save_predictions=rest.get("save_predictions", False),
                             plots=rest.get("plots", True) and out is not None)
        folds = tuple(plan.store.ordered(list(plan.options.systems)))
        split_set = load_splits(RunDir(run_out).splits)
    finally:
        if out is None:
            shutil.rmtree(run_out, ignore_errors=True)
    return CompareResult(report, folds, split_set)


def evaluate(splits: str | os.PathLike, corpus, systems: Mapping[str, str | os.PathLike] | Sequence, *,
             out: str | os.PathLike | None = None, pred_scheme: str | None = None,
             on_note: Callable[[str], None] | None = None, **options) -> CompareResult:
    """Score predictions made outside textbcv for the folds of ``splits`` (``textbcv evaluate`` from Python).

    Parameters
    ----------
    splits : path
        The ``SPLITS.json`` of ``textbcv split --export``.
    corpus : path, list of paths, or Corpus
        The corpus the splits were made from (checked).
    systems : mapping name → PRED_DIR, or sequence of ``"NAME=PRED_DIR"`` or ImportedSystem
        Each PRED_DIR holds ``fold-{i}-{d}.txt`` for every fold.
    out : path, optional
        Run directory to write.
    pred_scheme : str, optional
        Scheme of the predicted tags (default: detected per system).
    on_note : callable, optional
        Called with the line saying which format the corpus was read in (when detected), once the run succeeded.
    **options
        ``task``, ``format`` (default: detected), ``columns``, ``scheme``, ``encoding``, ``label_names``,
        ``alpha``, ``threshold``,
        ``rope`` (a fraction), ``variant``, ``chunk_types``, ``untyped``, ``plots``, ``heldout`` (with
        ``PRED_DIR/heldout/{stem}/fold-{i}-{d}.txt`` for each held-out file).

    Returns
    -------
    CompareResult

    Examples
    --------
    Export the folds of a small segmented corpus, "predict" them with two
    segmenters written here (one copies the gold words, one cuts every
    character), and score them (12 sentences of 30 words, 60 characters, 6 one-character words):

    >>> import os, tempfile, textbcv
    >>> d = tempfile.mkdtemp()
    >>> path = os.path.join(d, "c.txt")
    >>> _ = open(path, "w", encoding="utf-8").write("".join(f"ab c{k} de\\nf g{k}h\\n" for k in range(6)))
    >>> corpus = textbcv.read_corpus(path, format="segmented")
    >>> splits = textbcv.make_splits(corpus, m=1, seed=0)
    >>> splits.save(os.path.join(d, "splits.json"))
    >>> folds = textbcv.export_folds(corpus, splits, os.path.join(d, "folds"))
    >>> for name in ("copy", "chars"):
    ...     os.mkdir(os.path.join(d, name))
    ...     for fold in ("fold-0-0", "fold-0-1"):
    ...         lines = open(os.path.join(folds, fold, "test.txt"), encoding="utf-8").read().splitlines()
    ...         if name == "chars":
    ...             lines = [" ".join("".join(line.split())) for line in lines]
    ...         _ = open(os.path.join(d, name, fold + ".txt"), "w", encoding="utf-8").write("\\n".join(lines) + "\\n")
    >>> preds = {"copy": os.path.join(d, "copy"), "chars": os.path.join(d, "chars")}
    >>> r = evaluate(os.path.join(d, "splits.json"), corpus, preds)
    >>> r.report.counts["copy"], r.report.counts["chars"]
    ({'tp': 30, 'fp': 0, 'fn': 0}, {'tp': 6, 'fp': 54, 'fn': 24})
    """
    files, corpus_obj = _corpus_arg(corpus)
    ours, rest = _split_options(options, _READ_OPTIONS + ("plots",))
    files, corpus_obj, note = _early_read(files, corpus_obj, ours, rest)
    run_out = out if out is not None else tempfile.mkdtemp(prefix="textbcv-run-")
    notes: list[str] = [note] if note else []
    try:
        report = evaluate_run(splits, files, systems, run_out, CompareOptions(**ours), format=rest.get("format"),
                              columns=rest.get("columns"), scheme=rest.get("scheme"), pred_scheme=pred_scheme,
                              plots=rest.get("plots", True) and out is not None, corpus=corpus_obj,
                              encoding=rest.get("encoding", "utf-8"),
                              label_names=rest.get("label_names") if corpus_obj is None else None,
                              on_note=notes.append)
        run = RunDir(run_out)
        folds = tuple(json.loads(line) for line in run.folds.read_text(encoding="utf-8").splitlines())
        split_set = load_splits(run.splits)
    finally:
        if out is None:
            shutil.rmtree(run_out, ignore_errors=True)
    if on_note is not None:
        for line in notes:
            on_note(line)
    return CompareResult(report, folds, split_set)


def test(counts: str | os.PathLike | Sequence[str | os.PathLike], *, plots: str | os.PathLike | None = None,
         **options) -> CountsReport | dict:
    """The Bayes test of precision, recall and F1 from per-fold counts (``textbcv test`` from Python).

    Parameters
    ----------
    counts : path, or sequence of paths
        A COUNTS.json (docs/formats.md), a run's ``folds.jsonl``, or a run directory; several run directories (one
        per corpus, the same systems) are answered across the corpora with a hierarchical model.
    plots : path, optional
        A folder to draw the report's plots into (with several runs: the plot across the corpora).
    **options
        The fields of :class:`~textbcv.comparison.options.TestOptions`: ``alpha``, ``rope`` (a fraction),
        ``threshold``, ``variant``, ``difference``, ``rho1``, ``rho2``, ``mode``, ``method``, ``draws``, ``seed``,
        ``metric``, ``chunk_type``, ``per_type``, ``allow_different_gold``, ``classic``, ``fold``, ``decisions``,
        ``tau_scale`` (a fraction).

    Returns
    -------
    CountsReport or dict
        The answer (``to_dict()`` is ``textbcv test --json``'s); with several runs the answer across the corpora
        (:func:`textbcv.comparison.corpora.across_corpora`).

    Raises
    ------
    InputError
        For an impossible option (before anything is read) or a bad input file.

    Examples
    --------
    >>> import json, os, tempfile, textbcv
    >>> path = os.path.join(tempfile.mkdtemp(), "counts.json")
    >>> A, B = [{"tp": 90, "fp": 10, "fn": 12}] * 6, [{"tp": 93, "fp": 9, "fn": 9}] * 6
    >>> _ = open(path, "w").write(json.dumps({"m": 3, "systems": {"A": A, "B": B}}))
    >>> r = textbcv.test(path, variant="thesis")
    >>> c = r.report.comparison("A", "B")
    >>> round(c.p_b_better, 3), c.decision
    (0.836, 'no clear difference')
    >>> textbcv.test(path, alpha=2)
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: alpha must lie strictly between 0 and 1, got 2
    """
    from textbcv._io import check_writable
    from textbcv.comparison.from_counts import answer_counts
    from textbcv.comparison.options import TestOptions

    paths = [os.fspath(counts)] if isinstance(counts, (str, os.PathLike)) else [os.fspath(c) for c in counts]
    known = {f.name for f in fields(TestOptions)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise InputError(f"unknown option {unknown[0]!r} (options: {', '.join(sorted(known))})")
    opts = TestOptions(**options)
    opts.validate(runs=len(paths))
    if plots is not None:
        check_writable(os.fspath(plots), directory=True)
    if len(paths) > 1:
        from textbcv.comparison.corpora import across_corpora

        across = across_corpora(paths, rope=opts.rope or 0.0, alpha=opts.alpha, threshold=opts.threshold,
                                tau_scale=opts.tau_scale)
        if plots is not None:
            from textbcv.report.plots import write_corpora_plot

            with owned_outputs(Path(plots), ["across_corpora.png"]):
                write_corpora_plot(across, Path(plots) / "across_corpora.png")
        return across
    result = answer_counts(paths[0], opts)
    if plots is not None:
        _test_plots(result, Path(plots), opts)
    return result


test.__test__ = False  # type: ignore[attr-defined]  # a front door, not a pytest test


def _test_plots(result: CountsReport, folder: Path, opts) -> None:
    """The report's plots of a ``test`` answer (and the critical-difference diagram) in ``folder``."""
    from dataclasses import replace

    from textbcv.report.plots import plot_names, write_cd_diagram, write_plots

    r = result.report
    options = {"variant": r.variant, "rho1": opts.rho1, "rho2": opts.rho2}
    fr = (result.classic or {}).get("friedman")
    cd = bool(fr and fr["chi2"]["undefined"] is None)
    with owned_outputs(folder, plot_names(r) + (["cd_diagram.png"] if cd else [])):
        write_plots(replace(r, meta={"options": options, "seed": opts.seed}), folder)
        if fr and cd:
            write_cd_diagram(r.names, fr["average_ranks"], fr["nemenyi_cd"], folder / "cd_diagram.png",
                             title=f"Nemenyi critical difference over {fr['n']} folds (α = {fr['alpha']:g})")


def score(gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]], scheme: str = "conlleval") -> TagScore:
    """Chunk counts and P / R / F1 of predicted tags against gold tags (seqeval-style lists of lists).

    Parameters
    ----------
    gold, pred : list of list of str
        One list of tags per sentence, e.g. ``[["B-PER", "I-PER", "O"]]``.
    scheme : str
        ``"conlleval"`` (default): conlleval.pl's chunk rules, as seqeval's
        default mode; or a scheme name (``"iobes"``, ``"bilou"``, ...) to
        decode both sides with that scheme.

    Returns
    -------
    TagScore
        ``.counts`` (overall and per-type TP / FP / FN), ``.precision``,
        ``.recall``, ``.f1``, ``.accuracy``; ``.to_dict()`` for JSON.

    Examples
    --------
    >>> s = score([["B-X", "E-X", "S-X", "S-X"]], [["B-X", "E-X", "S-X", "O"]], scheme="iobes")
    >>> s.counts.overall, round(s.f1, 4)
    (Tally(tp=2, fp=0, fn=1), 0.8)
    >>> score(["B-X", "O"], ["B-X", "O"])
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: gold: expected one list of tags per sentence (a list of lists), got a list of str
    """
    from textbcv.scoring import score_tags

    for what, seqs in (("gold", gold), ("pred", pred)):
        if isinstance(seqs, str) or any(isinstance(s, str) for s in seqs):
            raise InputError(f"{what}: expected one list of tags per sentence (a list of lists), got a list of str")
    return score_tags(list(gold), list(pred), scheme=scheme)


def plan(run: str | os.PathLike | CompareReport | Mapping, *, target_delta: float | None = None, power: float = 0.8,
         threshold: float | None = None) -> Plan:
    """What a finished comparison detects, and what more splits or more text would (``textbcv plan``).

    Parameters
    ----------
    run : path, CompareReport or mapping
        A run directory (its ``report.json``), a report (e.g. ``CompareResult.report``) or a ``report.json``
        content.
    target_delta : float, optional
        A gain in F1 points to plan for (0.5 is half a point).
    power : float
        The probability of calling the gain (default 0.8).
    threshold : float, optional
        The decision threshold (default: the run's own).

    Returns
    -------
    Plan
        Per pair: the gain detected with ``power`` and with 50%, the same at larger m, and for
        ``target_delta`` the power now, the m that reaches it and the factor of more text.

    Examples
    --------
    >>> import textbcv
    >>> ner = textbcv.bundled_corpora()["ner"]
    >>> r = textbcv.compare(ner, ["iob2", "iobes"], m=2, max_iterations=5, progress=False)
    >>> p = textbcv.plan(r.report, target_delta=2.0)
    >>> [(x.a, x.b, x.m) for x in p.pairs], p.pairs[0].detectable > p.pairs[0].detectable_50 > 0
    ([('iob2', 'iobes', 2)], True)
    """
    if isinstance(run, CompareReport):
        report: Mapping = run.to_dict()
    elif isinstance(run, Mapping):
        report = run
    else:
        d = RunDir(run)
        d.require("report.json", what="a finished `textbcv compare` or `evaluate` run directory")
        report = load_json(d.report_json)
    return plan_report(report, power=power, threshold=threshold,
                       target=None if target_delta is None else target_delta / 100)
