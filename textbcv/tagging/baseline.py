"""A simple non-CRF baseline: the most frequent tag of each token."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from textbcv.corpus.model import Sentence

__all__ = ["LexiconTagger"]


class LexiconTagger:
    """Tag every token with the tag it had most often in training.

    Unknown tokens get the most frequent tag overall; ties go to the tag seen first.

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
        """Learn every token's most frequent tag (``lexicon_``) and the overall one (``default_``).

        Parameters
        ----------
        sentences : sequence of Sentence
        tags : sequence of sequences of str

        Returns
        -------
        LexiconTagger
            ``self``.

        Raises
        ------
        ValueError
            When sentences and tags differ in length.
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
        """Tag every token with its training tag.

        Parameters
        ----------
        sentences : sequence of Sentence

        Returns
        -------
        list of list of str
        """
        lex, default = self.lexicon_, self.default_
        return [[lex.get(self._key(t), default) for t in s.tokens] for s in sentences]
