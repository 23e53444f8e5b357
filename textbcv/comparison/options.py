"""The options of an answer and their one validation: :class:`AnswerOptions` (what decides the Bayes answer of
given folds), :class:`CompareOptions` (a comparison, saved in ``report.json``'s ``meta.options``) and
:class:`TestOptions` (``textbcv test`` of given fold counts).

Every ``validate`` refuses an impossible option before anything is read or trained; the checks of the answer are
written once, in :meth:`AnswerOptions.validate`, which the other two call.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from textbcv import defaults
from textbcv.defaults import CRF_ALGORITHMS
from textbcv.errors import InputError
from textbcv.scoring.modes import MODES
from textbcv.split.profiles import MEASURES
from textbcv.stats.bayes import THRESHOLD
from textbcv.stats.compare import ALL_VARIANTS, METHODS
from textbcv.stats.sequential import STOP_RULES
from textbcv.tagging import System, parse_system

__all__ = ["AnswerOptions", "CompareOptions", "TestOptions", "TASKS", "STOP_RULES", "VARIANTS", "SPLIT_METHODS",
           "METHODS", "METRICS", "DECISION_UNITS", "MEASURED_DESIGN", "default_design"]

TASKS = ("ner", "cws")
#: Count-factor variants of a comparison, as ``textbcv test`` has them (``rho`` needs ρ1 and ρ2).
VARIANTS = ALL_VARIANTS
#: How the posterior of a difference is built (:mod:`textbcv.stats.paired`, or two independent posteriors).
DIFFERENCES = ("paired", "independent")

#: Split designs whose 2m folds a comparison can use (two directions per split).
SPLIT_METHODS = ("bcv", "bcv-select", "random")
#: The per-fold scores the sequential t-test and the textbook tests can take.
METRICS = ("precision", "recall", "f1")
#: The units McNemar's test judges.
DECISION_UNITS = ("chunk", "token")


#: The design of a comparison whose splits the user did not choose (no m, no given splits, no sequential run):
#: m = 3, extended (nested, the first folds kept) to m = 7 where a pair's models' noise came out floored at 0 or
#: its P(better) lies near the threshold (:data:`textbcv.stats.sequential.MEASURED_BAND`). Chosen by
#: scripts/design_study.py: the cheapest design whose null calls stay within the rule's rate in every run class the
#: report names (docs/RESULTS.md, "Designs that decide only on measured model noise").
MEASURED_DESIGN: dict[str, Any] = {"sequential": True, "stop": "measured", "m_start": 3, "m_max": 7}


def default_design(m: int | None, given_splits: bool, options: dict) -> dict:
    """The design options of a comparison: ``options`` as given, with :data:`MEASURED_DESIGN` filled in where the
    user chose no design.

    Parameters
    ----------
    m : int or None
        The m asked for; an m (or given splits) is a fixed design.
    given_splits : bool
        Whether the comparison uses given splits (which cannot be extended).
    options : dict
        The comparison's other options by their :class:`CompareOptions` names; ``sequential`` given (True or
        False) is the user's choice, kept as it is. ``stop`` alone asks for a sequential run by that rule.

    Returns
    -------
    dict
        A copy of ``options``; where no design was chosen, ``sequential`` and ``stop`` of :data:`MEASURED_DESIGN`;
        for a run by the measured rule, its ``m_start`` and ``m_max``; each one the user gave kept.

    Examples
    --------
    >>> default_design(None, False, {})["stop"], default_design(None, False, {})["m_max"]
    ('measured', 7)
    >>> default_design(3, False, {}), default_design(None, False, {"sequential": False})
    ({}, {'sequential': False})
    >>> default_design(None, False, {"stop": "bayes"})
    {'stop': 'bayes', 'sequential': True}
    """
    out = dict(options)
    if m is None and not given_splits and "sequential" not in out:
        out["sequential"] = True
        out.setdefault("stop", MEASURED_DESIGN["stop"])
    if out.get("sequential") and out.get("stop") == MEASURED_DESIGN["stop"]:
        out.setdefault("m_start", MEASURED_DESIGN["m_start"])
        out.setdefault("m_max", MEASURED_DESIGN["m_max"])
    return out


def _fail(message: str, *params: str) -> None:
    raise InputError(message, param=params)


@dataclass(frozen=True)
class AnswerOptions:
    """What decides the Bayes answer and the sequential t-test of given folds (:mod:`textbcv.comparison.from_folds`).

    Parameters
    ----------
    alpha : float
        In (0, 1): credible intervals are 1 − alpha; level of the t-test; default 0.05.
    rope : float or None
        In [0, 1): region of practical equivalence as a fraction of the metric; None (default) for none.
    threshold : float
        In [0.5, 1): a system is called better when P(better) is at least this; default 0.95.
    variant : str
        Count-factor variant, one of :data:`VARIANTS`; default :data:`textbcv.defaults.VARIANT`.
    difference : {"paired", "independent"}
        How the posterior of a difference is built; default ``"paired"``.
    rho1, rho2 : float or None
        In [0, 1]: the fold correlations of ``variant="rho"`` (needed with it); default None.
    mode : {"strict", "exact", "partial", "type"}
        The matching mode of the counts; default ``"strict"``.
    method : {"exact", "monte-carlo", "both"}
        How P(better) of two independent posteriors is computed; default ``"exact"``.
    draws : int
        Monte Carlo draws (``monte-carlo`` and ``both``), at least 1; default 10⁶.
    seed : int
        Seed of the Monte Carlo draws; default 0.
    prior : float
        λ of the Beta(λ, λ) priors; default 1.
    metric : {"precision", "recall", "f1"}
        The per-fold score of the sequential t-test; default ``"f1"``.
    m_start : int
        The first m of the sequential t-test; default 3.
    m_max : int or None
        The largest m the sequential t-test plans for (a sequential run's M); None (default): the m of the folds.

    Examples
    --------
    >>> AnswerOptions(alpha=0).validate()
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: alpha must lie strictly between 0 and 1, got 0
    """

    alpha: float = 0.05
    rope: float | None = None
    threshold: float = THRESHOLD
    variant: str = defaults.VARIANT
    difference: str = "paired"
    rho1: float | None = None
    rho2: float | None = None
    mode: str = "strict"
    method: str = "exact"
    draws: int = 10**6
    seed: int = 0
    prior: float = 1.0
    metric: str = "f1"
    m_start: int = 3
    m_max: int | None = None

    def validate(self) -> None:
        """Raise :class:`InputError` for an impossible option, naming it as a Python parameter.

        Raises
        ------
        InputError
            For a value out of range, an unknown name, or ``variant="rho"`` without ``rho1`` and ``rho2``.
        """
        if not 0 < self.alpha < 1:
            _fail(f"alpha must lie strictly between 0 and 1, got {self.alpha}", "alpha")
        if not 0.5 <= self.threshold < 1:
            _fail(f"threshold must lie in [0.5, 1), got {self.threshold}", "threshold")
        if self.rope is not None and not 0 <= self.rope < 1:
            # the command line checks its --rope (points) before: this is the Python fraction
            _fail(f"rope must lie in [0, 1) as a fraction of the metric (0.005 is half a point), got {self.rope}")
        if self.variant not in ALL_VARIANTS:
            _fail(f"variant: unknown variant {self.variant!r} (variants: {', '.join(ALL_VARIANTS)})", "variant")
        if self.mode not in MODES:
            _fail(f"mode: unknown matching mode {self.mode!r} (modes: {', '.join(MODES)})", "mode")
        if self.mode == "partial" and self.variant != "clustered":
            _fail(f'{{mode}}="partial" counts half credits as doubled counts, which only the clustered count factor '
                  f'measures for what they are: use {{variant}}="clustered", not {self.variant!r}', "mode", "variant")
        if self.difference not in DIFFERENCES:
            _fail(f"difference: unknown basis {self.difference!r} (choose {' or '.join(DIFFERENCES)})", "difference")
        if self.variant == "rho":
            if self.rho1 is None or self.rho2 is None:
                _fail('{variant}="rho" needs {rho1} and {rho2}', "variant", "rho1", "rho2")
            for k in ("rho1", "rho2"):
                if not 0 <= getattr(self, k) <= 1:
                    _fail(f"{k} must lie in [0, 1], got {getattr(self, k)}", k)
        if self.method not in METHODS:
            _fail(f"method: unknown method {self.method!r} (methods: {', '.join(METHODS)})", "method")
        if self.draws < 1:
            _fail(f"draws must be at least 1, got {self.draws}", "draws")
        if self.metric not in METRICS:
            _fail(f"metric: unknown metric {self.metric!r} (metrics: {', '.join(METRICS)})", "metric")


@dataclass
class CompareOptions:
    """Everything that decides a comparison's result (saved in ``report.json``).

    Parameters mirror ``textbcv compare``'s options, with rates as fractions:
    ``rope`` = 0.005 is the command line's ``--rope 0.5`` (points).
    ``threshold`` is the decision rule's (:func:`textbcv.stats.bayes.decide`)
    and the stopping level of ``stop="bayes"``.

    Parameters
    ----------
    task : {"ner", "cws"}
        Named-entity chunks from the tag column, or word segmentation (words as chunks); default ``"ner"``.
    systems : tuple of str
        At least two distinct system names ``SCHEME[+TEMPLATE][@SEED]``; default ``("iob2", "iobes")``.
    m : int
        Number of 2-fold splits (2m folds per system), at least 1; default 3.
    sequential : bool
        Add nested splits from ``m_start`` until the ``stop`` rule decides or ``m_max``; default False.
    m_start : int
        The first m of a sequential run and of the sequential t-test; default 3.
    m_max : int
        The largest m of a sequential run (at least ``m_start``); default 12.
    stop : {"t-test", "bayes", "measured"}
        Stopping rule of a sequential run: the sequential t-test on per-fold F1 differences, the Bayes test's
        P(better) ≥ ``threshold``, or ``"measured"`` (stop at ``m_start`` only where every pair's models' noise was
        measured and P(better) lies outside [0.90, 0.99), else go straight to ``m_max``); default ``"t-test"``.
    threshold : float
        In [0.5, 1): a system is called better when P(better) is at least this; default 0.95.
    alpha : float
        In (0, 1): credible intervals are 1 − alpha; level of the t-test; default 0.05.
    rope : float or None
        In [0, 1): region of practical equivalence as a fraction of the metric (0.005 is half a point); None
        (default) for none.
    variant : str
        Count-factor variant, one of :data:`VARIANTS`; default :data:`textbcv.defaults.VARIANT` (``clustered``).
    difference : {"paired", "independent"}
        How the posterior of a difference is built (:data:`DIFFERENCES`); default ``"paired"``.
    rho1, rho2 : float or None
        In [0, 1]: the fold correlations of ``variant="rho"`` (needed with it); default None.
    seed : int
        Non-negative seed of the splits (also of the one-split and held-out resampling); default 0.
    balance : tuple of str
        Properties balanced between the halves (``label``, ``lemma``, ``length``); default none
        (:data:`textbcv.defaults.BALANCE`).
    group_by : {"auto", "sentence", "document", "file"}
        Units the splits keep whole, and the clusters of the posterior's variance; default ``"auto"`` (documents when
        the corpus marks at least :data:`textbcv.defaults.MIN_CLUSTERS`, else sentences). Files are units only
        here (``"file"``): a corpus read from several files without document marks has no documents.
    chunk_types : tuple of str or None
        Score only chunks of these types (at least one); None (default) scores every type.
    untyped : bool
        Score chunk boundaries only, types dropped; default False.
    c1, c2 : float or None
        Non-negative L1 and L2 regularisation of the CRF; None (default) for the tagger's default.
    max_iterations : int or None
        CRF training iterations, at least 1; None (default) for the tagger's default.
    algorithm : str or None
        crfsuite training algorithm, one of :data:`textbcv.defaults.CRF_ALGORITHMS`; None (default) is lbfgs.
    train_seed : int or None
        Training seed, in [0, 2^32 − 2], of every CRF system whose name has no ``@SEED``; stochastic algorithms
        only; default None.
    train_seeds : int
        Train every CRF system this many times per fold (seeds N, N+1, ...) and count the models together;
        stochastic algorithms only above 1; default 1.
    split_method : {"bcv", "bcv-select", "random"}
        Design of the splits (:data:`SPLIT_METHODS`; given splits set it); default ``"bcv"``. A sequential run
        needs ``"bcv"``.
    heldout : tuple of str
        Independent test files every fold model also tags (no file twice); default none.
    mode : {"strict", "exact", "partial", "type"}
        The matching mode the report is in (:mod:`textbcv.scoring.modes`); default ``"strict"`` (conlleval's).
        Every run records all four, so ``textbcv report RUN --mode`` redraws another without training.
        ``partial`` counts a half credit as one unit of doubled counts, which leaves every ratio, the paired
        differences and the clustered count factor unchanged (only the prior's single pseudo-count weighs half as
        much); it needs ``variant="clustered"``.
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
    difference: str = "paired"
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
    algorithm: str | None = None
    train_seed: int | None = None
    train_seeds: int = 1
    split_method: str = "bcv"
    heldout: tuple[str, ...] = ()
    mode: str = "strict"

    def validate(self) -> None:
        """Raise :class:`InputError` for an impossible option (before anything is read or trained).

        The message names the field, as a Python parameter (``m``, ``max_iterations``); the command line
        calls it by its option (``--m``, ``--max-iterations``: :meth:`textbcv.errors.InputError.renamed`).

        Examples
        --------
        >>> CompareOptions(variant="thesis ").validate()  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        textbcv.errors.InputError: variant: unknown variant 'thesis '
        (variants: thesis, independent, averaged-counts, rho, adaptive, clustered)
        >>> CompareOptions(m=0).validate()
        Traceback (most recent call last):
        ...
        textbcv.errors.InputError: m must be at least 1, got 0
        """
        def fail(message: str, *params: str) -> None:
            raise InputError(message, param=params)

        if self.task not in TASKS:
            fail(f"task: unknown task {self.task!r} (tasks: {', '.join(TASKS)})", "task")
        if len(self.systems) < 2:
            fail(f"systems: give at least two systems to compare, got {','.join(self.systems) or 'none'}", "systems")
        if len(set(self.systems)) != len(self.systems):
            fail(f"systems: a system is named twice in {','.join(self.systems)}", "systems")
        if self.m < 1:
            fail(f"m must be at least 1, got {self.m}", "m")
        if self.seed < 0:
            fail(f"seed must be a non-negative integer, got {self.seed}", "seed")
        if self.sequential:
            if self.m_max < self.m_start:
                fail(f"m_max must be at least {self.m_start} (the sequential test starts at m = {self.m_start}), "
                     f"got {self.m_max}", "m_max")
            if self.stop not in STOP_RULES:
                fail(f"stop: unknown rule {self.stop!r} (rules: {', '.join(STOP_RULES)})", "stop")
        if self.split_method not in SPLIT_METHODS:
            fail(f"splits made with method {self.split_method} cannot be compared: each split needs both directions "
                 f"(methods: {', '.join(SPLIT_METHODS)})")
        if self.sequential and self.split_method != "bcv":
            fail("{sequential}=True adds nested BCV splits; it cannot extend given splits", "sequential")
        if self.group_by not in defaults.GROUP_BY_CHOICES:
            fail(f"group_by: unknown unit {self.group_by!r} (units: {', '.join(defaults.GROUP_BY_CHOICES)})",
                 "group_by")
        for b in self.balance:
            if b not in MEASURES:
                fail(f"balance: unknown property {b!r} (properties: {', '.join(MEASURES)}, or none)", "balance")
        if len(set(self.heldout)) != len(self.heldout):
            fail(f"heldout: a file is named twice in {' '.join(self.heldout)}", "heldout")
        if self.chunk_types is not None and not self.chunk_types:
            fail("chunk_types: give at least one chunk type", "chunk_types")
        self.answer().validate()
        for k in ("c1", "c2"):
            v = getattr(self, k)
            if v is not None and not (math.isfinite(v) and v >= 0):
                fail(f"{k} must be a finite non-negative number, got {v}", k)
        if self.max_iterations is not None and self.max_iterations < 1:
            fail(f"max_iterations must be at least 1, got {self.max_iterations}", "max_iterations")
        if self.algorithm is not None and self.algorithm not in CRF_ALGORITHMS:
            fail(f"algorithm: unknown CRF algorithm {self.algorithm!r} (algorithms: {', '.join(CRF_ALGORITHMS)})",
                 "algorithm")
        if isinstance(self.train_seeds, bool) or not isinstance(self.train_seeds, int) or self.train_seeds < 1:
            fail(f"train_seeds is a number of seeds (>= 1), got {self.train_seeds!r}", "train_seeds")
        if self.train_seeds > 1 and (self.algorithm or "lbfgs") == "lbfgs":
            fail("train_seeds needs a stochastic CRF {algorithm} (ap, l2sgd, pa, arow); lbfgs draws no random "
                 "numbers, so every seed would train the same model", "train_seeds", "algorithm")
        if self.train_seed is not None:
            if not 0 <= self.train_seed < 2**32 - 1:
                fail(f"train_seed must be an integer in [0, 2^32 - 2], got {self.train_seed}", "train_seed")
            if (self.algorithm or "lbfgs") == "lbfgs":
                fail("train_seed needs a stochastic CRF {algorithm} (ap, l2sgd, pa, arow); lbfgs draws no random "
                     "numbers, so every seed would train the same model", "train_seed", "algorithm")

    def answer(self) -> AnswerOptions:
        """The options that decide this comparison's answer (the sequential t-test planned for ``m_max`` in a
        sequential run).

        Returns
        -------
        AnswerOptions
        """
        return AnswerOptions(alpha=self.alpha, rope=self.rope, threshold=self.threshold, variant=self.variant,
                             difference=self.difference, rho1=self.rho1, rho2=self.rho2, mode=self.mode,
                             m_start=self.m_start, m_max=self.m_max if self.sequential else None)

    def make_system(self, name: str, columns=None) -> System:
        """One system named ``SCHEME[+TEMPLATE]``, with the CRF options.

        Parameters
        ----------
        name : str
            ``SCHEME[+TEMPLATE][@SEED]``, e.g. ``iobes+wordshape``.
        columns : iterable of str or None
            The corpus's columns besides tokens and tags (chooses the default template); None: not known yet.

        Returns
        -------
        System
            With this comparison's task, CRF options, ``train_seed`` and ``train_seeds``.
        """
        crf: dict = {"c1": self.c1, "c2": self.c2, "max_iterations": self.max_iterations}
        if self.algorithm is not None:
            crf["algorithm"] = self.algorithm
        return parse_system(name, task=self.task, columns=columns, seed=self.train_seed, train_seeds=self.train_seeds,
                            **crf)


@dataclass(frozen=True)
class TestOptions:
    """The options of ``textbcv test`` (:func:`textbcv.test`): the answer's, and what else to compute from the counts.

    Parameters
    ----------
    alpha, rope, threshold, variant, difference, rho1, rho2, mode, method, draws, seed, metric
        As :class:`AnswerOptions` (``seed``: of the Monte Carlo draws; ``metric``: the per-fold score of the
        sequential t-test and the textbook tests).
    chunk_type : str or None
        Test the counts of this chunk type (a run's fold file only); None (default): the overall counts.
    per_type : bool
        Also P / R / F1 and P(B better) on F1 of every chunk type (a run's fold file only); default False.
    allow_different_gold : bool
        Test systems whose gold totals differ in a fold (with a note); default False refuses them.
    classic : bool
        Also the textbook tests (and McNemar's on one fold when the run saved its predictions); default False.
    fold : str or None
        With ``classic``: the fold McNemar's test judges, ``SPLIT-DIRECTION`` (default ``"0-0"``).
    decisions : {"chunk", "token"} or None
        With ``classic``: McNemar's units (default chunks).
    tau_scale : float
        With several runs: the scale of the half-Cauchy prior on the corpora's spread, a fraction; default 0.01.

    Examples
    --------
    >>> TestOptions(fold="0-0").validate()
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: fold chooses what McNemar's test judges: it needs classic=True
    """

    __test__ = False  # not a pytest class

    alpha: float = 0.05
    rope: float | None = None
    threshold: float = THRESHOLD
    variant: str = defaults.VARIANT
    difference: str = "paired"
    rho1: float | None = None
    rho2: float | None = None
    mode: str = "strict"
    method: str = "exact"
    draws: int = 10**6
    seed: int = 0
    metric: str = "f1"
    chunk_type: str | None = None
    per_type: bool = False
    allow_different_gold: bool = False
    classic: bool = False
    fold: str | None = None
    decisions: str | None = None
    tau_scale: float = 0.01

    def answer(self) -> AnswerOptions:
        """The options of the answer (the sequential t-test at the folds' m).

        Returns
        -------
        AnswerOptions
        """
        return AnswerOptions(alpha=self.alpha, rope=self.rope, threshold=self.threshold, variant=self.variant,
                             difference=self.difference, rho1=self.rho1, rho2=self.rho2, mode=self.mode,
                             method=self.method, draws=self.draws, seed=self.seed, metric=self.metric)

    def validate(self, runs: int = 1) -> None:
        """Raise :class:`InputError` for an impossible option, before any file is read.

        Parameters
        ----------
        runs : int
            The number of inputs: several runs are answered across corpora, where the one-run options do not apply.

        Raises
        ------
        InputError
            Naming the option as a Python parameter.
        """
        self.answer().validate()
        if self.mode != "strict":
            for name, given in (("chunk_type", self.chunk_type), ("per_type", self.per_type),
                                ("classic", self.classic)):
                if given:
                    _fail(f"{{{name}}}={given!r} reads per-type or token counts, which are strict only: it cannot "
                          f"go with {{mode}}={self.mode!r}", name, "mode")
        if not self.classic:
            for name in ("fold", "decisions"):
                if getattr(self, name) is not None:
                    _fail(f"{name} chooses what McNemar's test judges: it needs {{classic}}=True", name, "classic")
        if self.fold is not None and not re.fullmatch(r"\d+-[01]", self.fold):
            _fail(f"fold must be SPLIT-DIRECTION, e.g. 0-1 (direction 0 or 1), got {self.fold!r}", "fold")
        if self.decisions is not None and self.decisions not in DECISION_UNITS:
            _fail(f"decisions: unknown unit {self.decisions!r} (units: {', '.join(DECISION_UNITS)})", "decisions")
        if runs > 1:
            used = [(n, v) for n, v in (("chunk_type", self.chunk_type), ("per_type", self.per_type),
                                         ("classic", self.classic), ("mode", self.mode != "strict" and self.mode),
                                         ("difference", self.difference != "paired" and self.difference),
                                         ("metric", self.metric != "f1" and self.metric)) if v]
            if used:
                name, value = used[0]
                _fail(f"{{{name}}}={value!r} applies to one run; several runs are answered on their paired ΔF1 "
                      "posteriors", name)
            if not 0 < self.tau_scale < 1:
                _fail(f"tau_scale must lie in (0, 1) as a fraction of F1, got {self.tau_scale:g}", "tau_scale")
