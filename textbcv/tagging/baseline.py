"""A simple non-CRF baseline: the most frequent tag of each token."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from textbcv.corpus.model import Sentence

__all__ = ["LexiconTagger"]


class LexiconTagger:
    """Tag every token with the tag it had most often in training.

    Unknown tokens get the most frequent tag overall (``O`` in NER corpora).
    Ties are broken by the tag's first appearance, so results are
    deterministic. It implements :class:`textbcv.tagging.Tagger` and shows
    how a user's own tagger runs through the fold runner.

    Parameters
    ----------
    lowercase : bool
        Look tokens up in lower case.

    Examples
    --------
    >>> from textbcv.corpus import Sentence
    >>> t = LexiconTagger().fit([Sentence(("Paris", "is", "big"))], [["S-LOC", "O", "O"]])
    >>> t.predict([Sentence(("Paris", "was", "big"))])
    [['S-LOC', 'O', 'O']]
    """

    def __init__(self, lowercase: bool = False):
        self.lowercase = lowercase

    def _key(self, token: str) -> str:
        return token.lower() if self.lowercase else token

    def fit(self, sentences: Sequence[Sentence], tags: Sequence[Sequence[str]]) -> "LexiconTagger":
        """Learn every token's most frequent tag, and the most frequent tag overall.

        Parameters
        ----------
        sentences : sequence of Sentence
            Training sentences (their ``tokens`` are read).
        tags : sequence of sequences of str
            The gold tag of every token of every sentence, in the system's scheme.

        Returns
        -------
        LexiconTagger
            ``self``, with ``lexicon_`` (token → tag) and ``default_`` (``O`` when there are no tags) set.

        Raises
        ------
        ValueError
            When ``tags`` and ``sentences``, or a sentence's tokens and tags, differ in length.
        """
        counts: dict[str, Counter] = defaultdict(Counter)
        overall: Counter = Counter()
        for s, ts in zip(sentences, tags, strict=True):
            for tok, tag in zip(s.tokens, ts, strict=True):
                counts[self._key(tok)][tag] += 1
                overall[tag] += 1
        self.lexicon_ = {tok: c.most_common(1)[0][0] for tok, c in counts.items()}
        self.default_ = overall.most_common(1)[0][0] if overall else "O"
        return self

    def predict(self, sentences: Sequence[Sentence]) -> list[list[str]]:
        """Tag every token with its training tag, unknown tokens with the most frequent tag overall.

        Parameters
        ----------
        sentences : sequence of Sentence
            The sentences to tag.

        Returns
        -------
        list of list of str
            One tag per token of every sentence.
        """
        lex, default = self.lexicon_, self.default_
        return [[lex.get(self._key(t), default) for t in s.tokens] for s in sentences]
