"""The report's analyses as typed sections, and :data:`SECTIONS`, the one list of them in report order.

A section is one file: a :class:`Section` subclass that computes itself from the folds
(:class:`SectionInput`), writes and reads its ``report.json`` block, and renders its lines in
``report.md``, ``report.tex`` and the terminal. Adding an analysis is that file and its line below.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textbcv.report.sections.aso import AsoSection
from textbcv.report.sections.base import Section, SectionInput
from textbcv.report.sections.sequential import SequentialSection
from textbcv.report.sections.textbook import TextbookSection

__all__ = ["SECTIONS", "Section", "SectionInput", "SequentialSection", "sections_from_folds", "sections_from_dict"]

#: The report's sections, in the order of their blocks and lines in every output.
SECTIONS: list[type[Section]] = [
    SequentialSection,
    AsoSection,
    TextbookSection,
]


def sections_from_folds(folds: SectionInput) -> tuple[Section, ...]:
    """Every section of :data:`SECTIONS` computed from ``folds`` (those with something to say), in order.

    Parameters
    ----------
    folds : SectionInput

    Returns
    -------
    tuple of Section

    Examples
    --------
    >>> c = {"A": [{"tp": 8, "fp": 2, "fn": 1}] * 6, "B": [{"tp": 9, "fp": 1, "fn": 1}] * 6}
    >>> [s.key for s in sections_from_folds(SectionInput(3, c))][:1]
    ['sequential']
    """
    return tuple(s for kind in SECTIONS if (s := kind.from_folds(folds)) is not None)


def sections_from_dict(report: Mapping[str, Any]) -> tuple[Section, ...]:
    """The sections read back from ``report.json``'s content, in the order of :data:`SECTIONS`.

    Parameters
    ----------
    report : mapping
        ``report.json``'s content; a section whose block is absent reads ``None``.

    Returns
    -------
    tuple of Section

    Examples
    --------
    >>> [s.to_dict() for s in sections_from_dict({})][:1]
    [[]]
    """
    return tuple(s for kind in SECTIONS if (s := kind.from_dict(report.get(kind.key))) is not None)
