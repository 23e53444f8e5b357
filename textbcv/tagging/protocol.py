"""The tagger protocol: anything with ``fit`` and ``predict`` runs through the fold runner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from textbcv.corpus.model import Sentence

__all__ = ["Tagger"]


@runtime_checkable
class Tagger(Protocol):
    """A sequence tagger the fold runner trains on one half and applies to the other.

    Tags are in the system's scheme both ways; a tagger must be picklable and deterministic.

    Attributes
    ----------
    None required: only ``fit`` and ``predict`` are part of the protocol.

    Examples
    --------
    >>> from textbcv.tagging.baseline import LexiconTagger
    >>> isinstance(LexiconTagger(), Tagger)
    True
    """

    def fit(self, sentences: Sequence[Sentence], tags: Sequence[Sequence[str]]) -> "Tagger":
        """Train on one half.

        Parameters
        ----------
        sentences : sequence of Sentence
        tags : sequence of sequences of str

        Returns
        -------
        Tagger
            The fitted tagger (usually ``self``).
        """
        ...

    def predict(self, sentences: Sequence[Sentence]) -> list[list[str]]:
        """Tag the other half.

        Parameters
        ----------
        sentences : sequence of Sentence

        Returns
        -------
        list of list of str
        """
        ...
