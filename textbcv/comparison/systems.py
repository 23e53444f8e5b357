"""The systems of a comparison made ready for its corpus: templates that read only the columns it has."""

from __future__ import annotations

from collections.abc import Sequence

from textbcv.comparison.options import CompareOptions
from textbcv.corpus import Corpus
from textbcv.errors import InputError
from textbcv.tagging import System
from textbcv.tagging.features import TEMPLATE_HELP, feature_columns, get_template
from textbcv.tagging.system import DEFAULT_TEMPLATES, check_columns

__all__ = ["fit_systems"]


def fit_systems(systems: Sequence[System | str], options: CompareOptions, corpus: Corpus,
                 heldout: Sequence, dev: bool = False) -> tuple[list[System], list[str], dict]:
    """Systems whose feature templates read only columns the corpus (and every held-out file) has.

    A system named without a template gets the task's default, or the first default that fits
    (:func:`textbcv.tagging.system.default_template`); a template named, or given in a System, that reads a missing
    column is an InputError naming the templates that fit.

    Parameters
    ----------
    systems : sequence of System or str
    options : CompareOptions
    corpus : Corpus
        The corpus prepared for the task.
    heldout : sequence of HeldoutSet
        Files the systems also tag (their columns count too).
    dev : bool
        A development file is given (a fixed split's ``--dev``): only then may a command name ``{dev}``.

    Returns
    -------
    systems : list of System
    notes : list of str
        Which template the systems named without one use (for stderr).
    choices : dict
        How each system's template was chosen (for ``report.json``).
    """
    columns = set(feature_columns(corpus.sentences))
    for h in heldout:
        columns &= feature_columns(h.corpus.sentences)
    out: list[System] = []
    choices: dict[str, str] = {}
    defaulted: dict[str, list[str]] = {}  # default template → the systems named without a template that use it
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
        assert system.template is not None  # a system named SCHEME[+TEMPLATE] is a CRF system: it has one
        t, default = system.template.name, DEFAULT_TEMPLATES[options.task]
        if t == default:
            choices[system.name] = "default"
        else:
            lacking = " and ".join(sorted(get_template(default).columns - columns))
            choices[system.name] = f"default for a corpus without a {lacking} column ({default} reads it)"
        defaulted.setdefault(t, []).append(system.name)
    for system in out:
        if not dev and system.command is not None and "dev" in system.command.placeholders:
            raise InputError(f"systems: system {system.name!r} names {{dev}}, a development file, which only a fixed "
                             "split given one has (compare --train TRAIN --test TEST --dev DEV)", param="systems")
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
                     f"SCHEME+TEMPLATE names another (e.g. {names[0]}+{'ner-words' if t == 'ner-rich-words' else t})")
        notes.append(line)
    return out, notes, choices
