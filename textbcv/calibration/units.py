"""One line of a calibration's ``units.jsonl``: a data set's null pair of one system, or its close pair.

Each is answered as :func:`textbcv.compare` answers a pair and keeps the ``moments`` of its posterior.
"""

from __future__ import annotations

import inspect
import shutil
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from textbcv.api import CompareResult, compare
from textbcv.api_fixed import compare_fixed
from textbcv.calibration._design import _design_options, data_set_seeds
from textbcv.calibration.draw import fixed_parts, split_seed
from textbcv.calibration.moments import pair_moments
from textbcv.calibration.settings import CalibrationSettings
from textbcv.calibration.truth import pair_options, pair_systems, pair_truth
from textbcv.corpus import Corpus
from textbcv.corpus.transform import prepare_corpus
from textbcv.errors import InputError
from textbcv.tagging import System
from textbcv.tagging.system import is_tagger_factory

__all__ = ["null_unit", "close_unit", "check_unseeded_name", "check_seedable", "seeded", "own_how"]


def check_unseeded_name(name: str) -> None:
    """Refuse a system named with ``@SEED``: calibrate trains every system with both seeds of its null pair.

    Parameters
    ----------
    name : str

    Raises
    ------
    InputError

    Examples
    --------
    >>> check_unseeded_name("iob2")
    >>> check_unseeded_name("iob2@1")
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: system 'iob2@1': give it without @SEED; calibrate trains every system with both seeds
    """
    if "@" in name and name.rpartition("@")[2].isdigit():
        raise InputError(f"system {name!r}: give it without @SEED; calibrate trains every system with both seeds",
                         param="systems")


def check_seedable(system: System, train_seeds: int = 1) -> None:
    """Refuse a system of the user's own that calibrate cannot train with another seed.

    Parameters
    ----------
    system : System
        A command system, or a tagger class or function that takes ``seed=``.
    train_seeds : int
        Seeds per side (K > 1 needs a command: a tagger is fitted once per fold).

    Raises
    ------
    InputError
        For a tagger instance, a factory without ``seed``, K > 1 with a tagger, or a name with ``@SEED``.

    Examples
    --------
    >>> from textbcv.tagging import LexiconTagger
    >>> check_seedable(System("lex", "iob2", tagger=LexiconTagger()))
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: system 'lex': calibrate trains it with two seeds: give a command system, or a tagger \
class or function that takes seed= (not a tagger object)
    """
    check_unseeded_name(system.name)
    if system.command is not None:
        return
    t = system.tagger
    if t is None or not is_tagger_factory(t):
        raise InputError(f"system {system.name!r}: calibrate trains it with two seeds: give a command system, or a "
                         "tagger class or function that takes seed= (not a tagger object)", param="systems")
    try:
        params = list(inspect.signature(t).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature: nothing says it takes a seed
        params = []
    if not any(p.name == "seed" or p.kind is p.VAR_KEYWORD for p in params):
        raise InputError(f"system {system.name!r}: its tagger takes no seed= argument, so calibrate cannot train it "
                         "with another seed", param="systems")
    if train_seeds > 1:
        raise InputError(f"system {system.name!r}: {{train_seeds}} applies to CRF and command systems; a tagger is "
                         "fitted once per fold", param=("systems", "train_seeds"))


def seeded(system: System, seed: int, train_seeds: int = 1) -> System:
    """``system`` trained with ``seed`` (and the K − 1 after it): a command's ``{seed}``, a tagger's ``seed=``.

    Parameters
    ----------
    system : System
        Checked by :func:`check_seedable`.
    seed, train_seeds : int

    Returns
    -------
    System
        Named ``NAME@SEED``.

    Examples
    --------
    >>> from textbcv.tagging.command import CommandSpec
    >>> s = seeded(System("bert", "iob2", command=CommandSpec("train {train} {test} {pred}")), 2)
    >>> s.name, s.seed
    ('bert@2', 2)
    """
    if system.command is not None:
        return replace(system, name=f"{system.name}@{seed}", seed=seed, train_seeds=train_seeds)
    assert system.tagger is not None  # check_seedable refused a system without a command or a tagger
    return replace(system, name=f"{system.name}@{seed}", tagger=partial(system.tagger, seed=seed))


def own_how(spec: dict) -> str:
    """How a system of the user's own is trained, as the sentence to quote says it.

    Parameters
    ----------
    spec : dict
        The system's spec, as the settings record it.

    Returns
    -------
    str

    Examples
    --------
    >>> own_how({"tagger": "command"}), own_how({"tagger": "mymodule.MLPTagger"})
    ('trained by its own command', 'trained by mymodule.MLPTagger')
    """
    return "trained by its own command" if spec.get("tagger") == "command" else f"trained by {spec.get('tagger')}"


def _answer(data: Corpus, r: int, a: str | System, b: str | System, settings: CalibrationSettings, options: dict,
            jobs: int = 1, out: Path | None = None,
            runner: dict[str, Any] | None = None) -> tuple[dict[str, Any], CompareResult, Corpus, str]:
    """The f1 comparison of ``a`` and ``b`` on ``data`` in the settings' design: unit fields (``m``: the m it
    reached), result, prepared data set and task.

    ``out``: the comparison's run folder (a command system's work, resumed when it is there), removed once
    answered; None: a temporary one. ``runner``: where its folds run (``backend``, ``scheduler``)."""
    na, nb = (x.name if isinstance(x, System) else x for x in (a, b))
    run: dict[str, Any] = {**(runner or {}), **({} if out is None else {"resume": out.exists(), "plots": False})}
    res = compare(data, [a, b], seed=split_seed(settings.seed, r), progress=False, jobs=jobs,
                  threshold=settings.threshold, out=out, **_design_options(settings), **run, **options)
    if out is not None:
        shutil.rmtree(out)
    report = res.to_dict()
    c = next(x for x in report["comparisons"] if x["metric"] == "f1" and x["a"] == na and x["b"] == nb)
    d = c["difference"]
    prepared = prepare_corpus(data, report["meta"]["task"])
    m = int(report["stopping"]["m_used"])  # the measured design's 3 or 7; the fixed design's m
    moments = pair_moments(res.folds, res.splits, prepared, na, nb, m)
    return ({"r": r, "sentences": len(data), "m": m, "folds_per_system": 2 * m, "estimate": d["estimate"],
             "sd": d["sd"], "df": d.get("df"),
             "var_test": d.get("var_test"), "var_model": d.get("var_model"), "var_related": d.get("var_related"),
             "p_b_better": c["p_b_better"], "decision": c["decision"], "moments": moments}, res, prepared,
            report["meta"]["task"])


def _fixed_split_answer(data: Corpus, r: int, a: str | System, b: str | System, settings: CalibrationSettings,
                        options: dict, jobs: int = 1) -> dict[str, Any]:
    """The f1 comparison of ``a`` and ``b`` on data set ``r`` cut once into training and test (the fixed split), as
    ``compare --train/--test`` answers it: the unit's fields."""
    assert settings.test_share is not None  # calibrate sets it with the fixed-split design
    train, test = fixed_parts(data, r, settings.test_share, settings.seed)
    rep = compare_fixed(train, test, [a, b], corpus=data, jobs=jobs, progress=False, threshold=settings.threshold,
                        **options)
    c = rep.comparisons[0]
    assert c.difference is not None and c.difference.paired is not None  # the fixed split's posterior is paired
    p = c.difference.paired
    return {"r": r, "sentences": len(data), "m": 1, "folds_per_system": 1, "train_sentences": len(train),
            "test_sentences": len(test), "estimate": p.estimate, "sd": p.sd,
            "df": None if not np.isfinite(p.df) else p.df, "var_test": p.var_test, "var_model": 0.0,
            "var_seed": p.var_seed, "p_b_better": c.p_b_better, "decision": c.decision,
            "moments": {"counts_a": [rep.systems[0].seed_f1], "counts_b": [rep.systems[1].seed_f1]}}


def null_unit(corpus: Corpus, r: int, system: str | System, settings: CalibrationSettings, jobs: int = 1,
              out: Path | None = None, runner: dict[str, Any] | None = None) -> dict:
    """One data set's null pair of ``system`` (seed A against seed B), as ``compare`` answers it.

    Parameters
    ----------
    corpus : Corpus
        The drawn data set.
    r : int
    system : str or System
        A CRF system's name, or a system of the user's own (trained with each seed in turn, :func:`seeded`).
    settings : CalibrationSettings
    jobs : int
        Worker processes of the comparison (a command system's folds and seeds, spread over its devices).
    out : path, optional
        The comparison's run folder (resumed when it is there, removed once answered); default a temporary one.
    runner : dict, optional
        Where the comparison's folds run: ``backend`` and ``scheduler`` as for ``compare``.

    Returns
    -------
    dict
        ``kind``, ``system``, ``r``, ``sentences``, ``m`` (the m the comparison reached) and
        ``folds_per_system`` (2m), the ΔF1 (B − A) posterior's fields (fractions), ``p_b_better``,
        ``decision`` and ``moments``.
    """
    split = settings.design == "fixed-split"
    own = {"seeds": list(data_set_seeds(settings, r))} if split else {}  # each data set's own (A's first, B's first)
    if isinstance(system, System):
        k = settings.options.get("train_seeds") or 1
        sa, sb = (seeded(system, s, k) for s in data_set_seeds(settings, r))
        options = {key: v for key, v in settings.options.items() if key == "task"}  # the CRF options are not its
        fields = (_fixed_split_answer(corpus, r, sa, sb, settings, options, jobs) if split else
                  _answer(corpus, r, sa, sb, settings, options, jobs, out, runner)[0])
        return {"kind": "null", "system": system.name, **fields, **own}
    a, b = (f"{system}@{s}" for s in data_set_seeds(settings, r))
    fields = (_fixed_split_answer(corpus, r, a, b, settings, settings.options, jobs) if split else
              _answer(corpus, r, a, b, settings, settings.options, jobs, out, runner)[0])
    return {"kind": "null", "system": system, **fields, **own}


def close_unit(corpus: Corpus, D: np.ndarray, r: int, settings: CalibrationSettings) -> dict:
    """One data set's close pair (A against B, as ``compare`` answers it) and the pair's truth beside it.

    Parameters
    ----------
    corpus : Corpus
        The whole corpus (the truth's models tag the sentences outside the data set).
    D : ndarray of int
        The data set's sorted sentence indices.
    r : int
    settings : CalibrationSettings
        With ``pair``, ``truth_halvings`` and ``pair_options``.

    Returns
    -------
    dict
        A null unit's fields plus ``kind``, ``pair`` and :func:`textbcv.calibration.truth.pair_truth`'s.
    """
    assert settings.pair is not None and settings.truth_halvings is not None  # calibrate runs no close unit without
    a, b = settings.pair
    options = dict(settings.pair_options or {})
    fields, res, prepared, task = _answer(corpus.subset(D.tolist()), r, a, b, settings, options)
    opts = pair_options(options, (a, b), fields["m"], split_seed(settings.seed, r), task)
    systems = pair_systems(opts, prepared, res.folds)
    truth = pair_truth(corpus, D, systems, opts, settings.truth_halvings, settings.seed, r)
    return {"kind": "close", "pair": [a, b], **fields, **truth}

