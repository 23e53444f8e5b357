"""A system = tagging scheme + feature template + CRF hyperparameters (or another tagger)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from textbcv.errors import InputError
from textbcv.schemes import get_scheme
from textbcv.tagging.features import Template, get_template

__all__ = ["System", "parse_system", "DEFAULT_TEMPLATES", "CRF_DEFAULTS"]

#: Feature template used when a system name gives none, per task.
DEFAULT_TEMPLATES = {"ner": "ner-thesis", "cws": "cws-thesis"}

#: Documented CRF defaults: L-BFGS with elastic-net regularisation, as is
#: usual for sklearn-crfsuite taggers; ``max_iterations`` bounds training time.
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
        Tagging scheme the gold chunks are encoded in for training and the
        predictions decoded from.
    template : Template or None
        Feature template (CRF systems).
    algorithm : str
        crfsuite training algorithm (``lbfgs``, ``l2sgd``, ``ap``, ``pa``, ``arow``).
    params : dict
        crfsuite parameters (``c1``, ``c2``, ``max_iterations``, ...).
    tagger : callable or None
        Factory of a :class:`~textbcv.tagging.Tagger` used instead of a CRF.

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

    def __post_init__(self):
        if self.tagger is None:
            if self.template is None:
                raise InputError(f"system {self.name!r}: a CRF system needs a feature template")
            allowed = _PARAMS.get(self.algorithm)
            if allowed is None:
                raise InputError(f"system {self.name!r}: unknown CRF algorithm {self.algorithm!r} (known: {', '.join(_PARAMS)})")
            bad = set(self.params) - allowed
            if bad:
                raise InputError(f"system {self.name!r}: parameters {sorted(bad)} do not apply to {self.algorithm} (allowed: {sorted(allowed)})")

    def to_dict(self) -> dict:
        """The spec saved with every result of this system (JSON types only)."""
        return json.loads(json.dumps({
            "name": self.name,
            "scheme": self.scheme,
            "tagger": "crf" if self.tagger is None else f"{getattr(self.tagger, '__module__', '?')}.{getattr(self.tagger, '__qualname__', repr(self.tagger))}",
            "template": self.template.to_dict() if self.template is not None else None,
            "algorithm": self.algorithm if self.tagger is None else None,
            "params": dict(sorted(self.params.items())) if self.tagger is None else None,
        }))


def parse_system(name: str, task: str = "ner", **crf: object) -> System:
    """A system from its name: ``SCHEME[+TEMPLATE]``.

    The scheme is any of :func:`textbcv.schemes.scheme_names`; the template
    a built-in name or a ``.json`` file; without one the task's default
    (:data:`DEFAULT_TEMPLATES`). Keyword arguments override the CRF
    defaults (``c1``, ``c2``, ``max_iterations``, ``algorithm``).

    Examples
    --------
    >>> parse_system("bb2b3mes", task="cws").template.name
    'cws-thesis'
    >>> parse_system("iob9")
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: system 'iob9': unknown tagging scheme 'iob9' (schemes: bb2b3mes, bilou, bmes, iob1, iob2, iobes, ioe1, ioe2)
    """
    from textbcv.schemes import scheme_names

    if task not in DEFAULT_TEMPLATES:
        raise InputError(f"unknown task {task!r} (tasks: {', '.join(DEFAULT_TEMPLATES)})")
    scheme, _, template = name.strip().partition("+")
    try:
        scheme = get_scheme(scheme.lower()).name
    except (InputError, KeyError, ValueError):
        raise InputError(
            f"system {name!r}: unknown tagging scheme {scheme!r} (schemes: {', '.join(sorted(scheme_names()))})"
        ) from None
    tpl = get_template(template or DEFAULT_TEMPLATES[task])
    algorithm = str(crf.pop("algorithm", CRF_DEFAULTS["algorithm"]))
    params = {k: v for k, v in CRF_DEFAULTS.items() if k != "algorithm"} if algorithm == "lbfgs" else {"max_iterations": CRF_DEFAULTS["max_iterations"]}
    params.update({k: v for k, v in crf.items() if v is not None})
    return System(name=name.strip(), scheme=scheme, template=tpl, algorithm=algorithm, params=params)
