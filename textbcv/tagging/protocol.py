"""The tagger protocol: anything with ``fit`` and ``predict`` runs through the fold runner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from textbcv.corpus.model import Sentence

__all__ = ["Tagger"]


@runtime_checkable
class Tagger(Protocol):
    """A sequence tagger the fold runner can train on one half and apply to the other.

    ``fit`` receives the training sentences and their gold tags *already
    encoded in the system's scheme*; ``predict`` returns one tag sequence per
    sentence, in the same scheme. The runner decodes the predicted tags into
    chunks and scores them against the gold chunks, so taggers with different
    schemes are scored on identical gold chunks. A tagger must be picklable
    (folds run in other processes) and deterministic for a given input.

    Attributes
    ----------
    None required: only the methods ``fit`` and ``predict`` are part of the protocol.

    Examples
    --------
    >>> from textbcv.tagging.baseline import LexiconTagger
    >>> isinstance(LexiconTagger(), Tagger)
    True
    """

    def fit(self, sentences: Sequence[Sentence], tags: Sequence[Sequence[str]]) -> "Tagger":
        """Train the tagger on one half.

        Parameters
        ----------
        sentences : sequence of Sentence
            Training sentences (each also a sequence of its token strings).
        tags : sequence of sequences of str
            The gold tag of every token of every sentence, in the system's scheme.

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
            The sentences to tag.

        Returns
        -------
        list of list of str
            One tag per token of every sentence, in the system's scheme.
        """
        ...
