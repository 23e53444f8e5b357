"""A system = tagging scheme + feature template + CRF hyperparameters (or another tagger)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from textbcv.errors import InputError, did_you_mean
from textbcv.schemes import get_scheme, scheme_names
from textbcv.tagging.command import CommandSpec, command_spec
from textbcv.tagging.features import TEMPLATES, Template, get_template, templates_for

__all__ = ["System", "parse_system", "default_template", "check_columns", "DEFAULT_TEMPLATES", "CRF_DEFAULTS"]

#: Feature template used when a system name gives none, per task (on a corpus that has the columns it reads).
DEFAULT_TEMPLATES = {"ner": "ner-thesis", "cws": "cws-thesis"}
#: The default templates of a task, in order of preference: the first one whose columns the corpus has
#: (docs/RESULTS.md, "Default template for corpora without POS").
DEFAULT_CHOICES = {"ner": ("ner-thesis", "ner-rich-words"), "cws": ("cws-thesis",)}

#: CRF defaults: L-BFGS with elastic-net regularisation; ``max_iterations`` bounds training time.
CRF_DEFAULTS = {"algorithm": "lbfgs", "c1": 0.1, "c2": 0.1, "max_iterations": 100}

_PARAMS = {
    "lbfgs": {"c1", "c2", "max_iterations", "epsilon", "num_memories", "delta", "period"},
    "l2sgd": {"c2", "max_iterations", "epsilon", "delta", "period", "calibration_eta"},
    "ap": {"max_iterations", "epsilon"},
    "pa": {"max_iterations", "epsilon", "c", "type"},
    "arow": {"max_iterations", "epsilon", "variance", "gamma"},
}


@dataclass(frozen=True)
class System:
    """One tagging system of a comparison.

    Parameters
    ----------
    name : str
        Name shown in reports (``"iob2"``, ``"iobes+wordshape"``).
    scheme : str
        Scheme the gold chunks are encoded in for training and the predictions decoded from.
    template : Template or None
        Feature template (CRF systems).
    algorithm : str
        crfsuite algorithm (``lbfgs``, ``l2sgd``, ``ap``, ``pa``, ``arow``).
    params : dict
        crfsuite parameters (``c1``, ``c2``, ``max_iterations``, ...).
    tagger : object, class or callable, optional
        A tagger used instead of a CRF (a copy fitted per fold), or a class or function returning one.
    seed : int, optional
        Training seed of a stochastic CRF algorithm or a command; refused with ``lbfgs``.
    command : str or CommandSpec, optional
        A command system (:mod:`textbcv.tagging.command`): its command line, read as ``--system NAME=COMMAND``
        reads it (:func:`~textbcv.tagging.command.command_spec`), or a CommandSpec with its other settings.
    train_seeds : int
        Models per fold, seeds ``seed``, ``seed + 1``, ...; their counts are summed (``seed_counts`` keeps each).

    Examples
    --------
    >>> s = parse_system("iobes+wordshape", task="ner")
    >>> s.scheme, s.template.name, s.params["max_iterations"]
    ('iobes', 'wordshape', 100)
    """

    name: str
    scheme: str
    template: Template | None = None
    algorithm: str = "lbfgs"
    params: dict = field(default_factory=lambda: {k: v for k, v in CRF_DEFAULTS.items() if k != "algorithm"})
    tagger: Callable | None = None
    seed: int | None = None
    train_seeds: int = 1
    command: CommandSpec | None = None

    @property
    def is_crf(self) -> bool:
        """True for textbcv's own CRF (no tagger object, no command)."""
        return self.tagger is None and self.command is None

    @property
    def seeds(self) -> tuple[int | None, ...]:
        """The training seeds of every fold: ``(seed,)``, or ``train_seeds`` consecutive seeds from ``seed`` (0)."""
        if self.train_seeds == 1:
            return (self.seed,)
        base = self.seed or 0
        return tuple(range(base, base + self.train_seeds))

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise InputError(f"a system needs a name, got {self.name!r}")
        try:
            canonical = get_scheme(str(self.scheme).lower()).name
        except (InputError, KeyError, ValueError):
            raise InputError(f"system {self.name!r}: unknown tagging scheme {self.scheme!r} "
                             f"(schemes: {', '.join(sorted(scheme_names()))})") from None
        object.__setattr__(self, "scheme", canonical)
        if self.command is not None:
            object.__setattr__(self, "command", command_spec(self.command))  # a command line, as --system takes it
            if self.tagger is not None:
                raise InputError(f"system {self.name!r}: give a tagger or a command, not both")
            if isinstance(self.train_seeds, bool) or not isinstance(self.train_seeds, int) or self.train_seeds < 1:
                raise InputError(f"system {self.name!r}: train_seeds is a number of seeds (>= 1), got "
                                 f"{self.train_seeds!r}")
            if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, int)
                                          or self.seed < 0):
                raise InputError(f"system {self.name!r}: a seed is a non-negative integer, got {self.seed!r}")
            return
        if self.tagger is not None:
            t = self.tagger
            if self.seed is not None or self.train_seeds != 1:
                raise InputError(f"system {self.name!r}: a training seed applies to textbcv's CRFs; seed your own "
                                 f"tagger inside it")
            if not (is_tagger_factory(t) or (hasattr(t, "fit") and hasattr(t, "predict"))) or (
                    isinstance(t, type) and not (hasattr(t, "fit") and hasattr(t, "predict"))):
                raise InputError(f"system {self.name!r}: the tagger must have fit(sentences, tags) and "
                                 f"predict(sentences), or be a class or function that returns such an object")
        if self.tagger is None:
            if self.template is None:
                raise InputError(f"system {self.name!r}: a CRF system needs a feature template")
            allowed = _PARAMS.get(self.algorithm)
            if allowed is None:
                raise InputError(f"system {self.name!r}: unknown CRF algorithm {self.algorithm!r} "
                                 f"(known: {', '.join(_PARAMS)})")
            if self.seed is not None:
                if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < 2**32 - 1:
                    raise InputError(f"system {self.name!r}: a training seed is an integer in [0, 2^32 - 2], "
                                     f"got {self.seed!r}")
                if self.algorithm == "lbfgs":
                    raise InputError(f"system {self.name!r}: a training seed needs a stochastic CRF algorithm "
                                     f"(ap, l2sgd, pa, arow); lbfgs draws no random numbers, so every seed would "
                                     f"train the same model")
            if isinstance(self.train_seeds, bool) or not isinstance(self.train_seeds, int) or self.train_seeds < 1:
                raise InputError(f"system {self.name!r}: train_seeds is a number of seeds (>= 1), got "
                                 f"{self.train_seeds!r}")
            if self.train_seeds > 1 and self.algorithm == "lbfgs":
                raise InputError(f"system {self.name!r}: {self.train_seeds} training seeds need a stochastic CRF "
                                 f"algorithm (ap, l2sgd, pa, arow); lbfgs draws no random numbers, so every seed "
                                 f"would train the same model")
            if self.seed is not None and self.seed + self.train_seeds - 1 >= 2**32 - 1:
                raise InputError(f"system {self.name!r}: seeds {self.seed}.. {self.seed + self.train_seeds - 1} "
                                 "pass 2^32 - 2")
            bad = set(self.params) - allowed
            if bad:
                raise InputError(f"system {self.name!r}: parameters {sorted(bad)} do not apply to {self.algorithm} "
                                 f"(allowed: {sorted(allowed)})")

    def new_tagger(self):
        """A fresh, unfitted tagger for one fold.

        Returns
        -------
        object
            A deep copy of ``tagger``, or ``tagger()`` for a class or factory.

        Raises
        ------
        ValueError
            For a CRF or command system.
        """
        t = self.tagger
        if t is None:
            raise ValueError(f"system {self.name!r} is a CRF or command system")
        return t() if is_tagger_factory(t) else copy.deepcopy(t)

    def to_dict(self) -> dict:
        """The spec saved with every result of this system (JSON types only).

        Returns
        -------
        dict
        """
        t = self.tagger
        if self.command is not None:
            tagger, params = "command", self.command.to_dict()
        elif t is None:
            tagger, params = "crf", dict(sorted(self.params.items()))
        elif is_tagger_factory(t):
            tagger, params = f"{getattr(t, '__module__', '?')}.{getattr(t, '__qualname__', type(t).__qualname__)}", None
        else:
            tagger, params = f"{type(t).__module__}.{type(t).__qualname__}", _public_params(t)
        spec: dict[str, object] = {
            "name": self.name,
            "scheme": self.scheme,
            "tagger": tagger,
            "template": self.template.to_dict() if self.template is not None else None,
            "algorithm": self.algorithm if self.is_crf else None,
            "params": params,
        }
        if self.seed is not None:  # absent for the default seed: a spec without one names the default
            spec["seed"] = self.seed
        if self.train_seeds != 1:
            spec["seeds"] = list(self.seeds)
        return json.loads(json.dumps(spec))


def is_tagger_factory(t) -> bool:
    """Whether ``t`` builds taggers: a class, or a callable that is not itself a tagger (a function returning one).

    Parameters
    ----------
    t : object

    Returns
    -------
    bool

    Examples
    --------
    >>> from textbcv.tagging.baseline import LexiconTagger
    >>> is_tagger_factory(LexiconTagger), is_tagger_factory(LexiconTagger())
    (True, False)
    """
    return isinstance(t, type) or (callable(t) and not (hasattr(t, "fit") and hasattr(t, "predict")))


def _public_params(t) -> dict:
    """A tagger object's settings for its spec (non-JSON values named by their type only)."""
    try:
        raw = t.get_params(deep=False) if hasattr(t, "get_params") else vars(t)
    except TypeError:
        raw = {}
    out = {}
    for k, v in sorted(raw.items()):
        if k.startswith("_") or k.endswith("_"):
            continue
        try:
            json.dumps(v, allow_nan=False)
        except (TypeError, ValueError):
            v = f"<{type(v).__module__}.{type(v).__qualname__}>"
        out[k] = v
    return out


def default_template(task: str, columns: Iterable[str] | None = None) -> Template:
    """The template a system without one uses, given the corpus's ``columns`` (None: unknown).

    Parameters
    ----------
    task : {"ner", "cws"}
    columns : iterable of str, optional
        The corpus's columns besides tokens and tags.

    Returns
    -------
    Template

    Examples
    --------
    >>> default_template("ner").name, default_template("ner", set()).name
    ('ner-thesis', 'ner-rich-words')
    """
    if columns is None:
        return get_template(DEFAULT_TEMPLATES[task])
    have = set(columns)
    return next(TEMPLATES[n] for n in DEFAULT_CHOICES[task] if TEMPLATES[n].columns <= have)


def check_columns(system: System, columns: Iterable[str], task: str = "ner") -> None:
    """Raise InputError when ``system``'s template reads a column the corpus lacks.

    Parameters
    ----------
    system : System
    columns : iterable of str
        The corpus's columns besides tokens and tags.
    task : {"ner", "cws"}
        Names the templates that fit.

    Examples
    --------
    >>> check_columns(parse_system("iob2+ner-rich"), {"pos"})
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: system 'iob2+ner-rich': feature template 'ner-rich' reads the chunk column, which the
    corpus does not have (its columns besides tokens and tags: pos); templates that fit: ner-thesis, wordshape,
    ner-words, ner-rich-words, or a .json template
    """
    t = system.template
    if t is None or not system.is_crf:
        return
    have = set(columns)
    missing = sorted(t.columns - have)
    if missing:
        cols = " and ".join(missing)
        raise InputError(f"system {system.name!r}: feature template {t.name!r} reads the {cols} column"
                         f"{'s' if len(missing) > 1 else ''}, which the corpus does not have (its columns besides "
                         f"tokens and tags: {', '.join(sorted(have)) or 'none'}); templates that fit: "
                         f"{', '.join(templates_for(task, have))}, or a .json template")


def parse_system(name: str, task: str = "ner", columns: Iterable[str] | None = None, seed: int | None = None,
                 train_seeds: int = 1, **crf: object) -> System:
    """A system from its name: ``SCHEME[+TEMPLATE][@SEED]``.

    Without a template, the task's default that reads only ``columns``.

    Parameters
    ----------
    name : str
        E.g. ``iob2``, ``iobes+wordshape``, ``iob2@3``.
    task : {"ner", "cws"}
    columns : iterable of str, optional
        The corpus's columns besides tokens and tags; a template reading another is refused.
    seed : int, optional
        Training seed when the name gives none.
    train_seeds : int
    **crf
        ``c1``, ``c2``, ``max_iterations``, ``algorithm``.

    Returns
    -------
    System

    Raises
    ------
    InputError
        For an unknown task, scheme or template, or a template reading a missing column.

    Examples
    --------
    >>> parse_system("iob2", columns=[]).template.name
    'ner-rich-words'
    >>> parse_system("iob2@2", algorithm="ap").seed
    2
    """
    if task not in DEFAULT_TEMPLATES:
        raise InputError(f"unknown task {task!r} (tasks: {', '.join(DEFAULT_TEMPLATES)})")
    spec, at, seed_text = name.strip().rpartition("@")
    if at and seed_text.isdigit():  # NAME@SEED (an '@' followed by anything else belongs to the name)
        seed = int(seed_text)
    else:
        spec = name.strip()
    scheme, _, template = spec.partition("+")
    try:
        scheme = get_scheme(scheme.lower()).name
    except (InputError, KeyError, ValueError):
        raise InputError(
            f"system {name!r}: unknown tagging scheme {scheme!r} (schemes: {', '.join(sorted(scheme_names()))})"
            f"{did_you_mean(scheme, sorted(scheme_names()))}"
        ) from None
    tpl = get_template(template) if template else default_template(task, columns)
    algorithm = str(crf.pop("algorithm", CRF_DEFAULTS["algorithm"]))
    if algorithm == "lbfgs":
        params = {k: v for k, v in CRF_DEFAULTS.items() if k != "algorithm"}
    else:
        params = {"max_iterations": CRF_DEFAULTS["max_iterations"]}
    params.update({k: v for k, v in crf.items() if v is not None})
    system = System(name=name.strip(), scheme=scheme, template=tpl, algorithm=algorithm, params=params, seed=seed,
                    train_seeds=train_seeds)
    if columns is not None:
        check_columns(system, columns, task)
    return system
