"""Segmentation scores beside chunk counts: recall of in-vocabulary and out-of-vocabulary words (SIGHAN).

Examples
--------
>>> count_lexicon([[(0, 2, "")]], [[(0, 2, "")]], [["a", "b"]], {"ab"}).iv_recall
1.0
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from textbcv.scoring.tally import _ratio

__all__ = ["LexiconCounts", "count_lexicon"]

Chunk = tuple[int, int, str]


@dataclass(frozen=True)
class LexiconCounts:
    """Recall of in-vocabulary (IV) and out-of-vocabulary (OOV) gold words, the SIGHAN bakeoff convention.

    A gold word is IV when it is in the training lexicon; it is recalled when a predicted word has its span.

    Parameters
    ----------
    iv_words, iv_correct : int
        IV gold words, and those recalled (default 0).
    oov_words, oov_correct : int
        OOV gold words, and those recalled (default 0).

    Examples
    --------
    >>> lc = LexiconCounts(iv_words=8, iv_correct=6, oov_words=2, oov_correct=1)
    >>> lc.iv_recall, lc.oov_recall, lc.oov_rate
    (0.75, 0.5, 0.2)
    """

    iv_words: int = 0
    iv_correct: int = 0
    oov_words: int = 0
    oov_correct: int = 0

    def __add__(self, other: "LexiconCounts") -> "LexiconCounts":
        return LexiconCounts(
            self.iv_words + other.iv_words,
            self.iv_correct + other.iv_correct,
            self.oov_words + other.oov_words,
            self.oov_correct + other.oov_correct,
        )

    @property
    def iv_recall(self) -> float:
        """Correct IV words / gold IV words."""
        return _ratio(self.iv_correct, self.iv_words)

    @property
    def oov_recall(self) -> float:
        """Correct OOV words / gold OOV words."""
        return _ratio(self.oov_correct, self.oov_words)

    @property
    def oov_rate(self) -> float:
        """Share of gold words that are OOV."""
        return _ratio(self.oov_words, self.iv_words + self.oov_words)

    def to_dict(self) -> dict:
        """The four counts and ``iv_recall``, ``oov_recall``, ``oov_rate`` (fractions in [0, 1]).

        Returns
        -------
        dict
        """
        return {
            "iv_words": self.iv_words,
            "iv_correct": self.iv_correct,
            "oov_words": self.oov_words,
            "oov_correct": self.oov_correct,
            "iv_recall": self.iv_recall,
            "oov_recall": self.oov_recall,
            "oov_rate": self.oov_rate,
        }


def count_lexicon(
    gold_chunk_seqs: Iterable[Iterable[Chunk]],
    pred_chunk_seqs: Iterable[Iterable[Chunk]],
    token_seqs: Iterable[Sequence[str]],
    lexicon: Collection[str],
) -> LexiconCounts:
    """IV / OOV recall of segmented words against a training ``lexicon``; chunk types are ignored.

    Parameters
    ----------
    gold_chunk_seqs, pred_chunk_seqs : iterables of word chunks per sentence
        Gold and predicted words as ``(start, end, type)`` chunks of character offsets.
    token_seqs : iterable of character sequences, one per sentence
        The characters the offsets index; a word's text is the join of its characters.
    lexicon : collection of str
        Words of the training data.

    Returns
    -------
    LexiconCounts

    Raises
    ------
    ValueError
        When the three iterables hold different numbers of sentences.

    Examples
    --------
    >>> chars = [list("我爱北京")]
    >>> gold = [[(0, 1, ""), (1, 2, ""), (2, 4, "")]]
    >>> pred = [[(0, 1, ""), (1, 2, ""), (2, 3, ""), (3, 4, "")]]
    >>> count_lexicon(gold, pred, chars, {"我", "爱"})
    LexiconCounts(iv_words=2, iv_correct=2, oov_words=1, oov_correct=0)
    """
    lex = lexicon if isinstance(lexicon, (set, frozenset, dict)) else set(lexicon)
    iv = ivc = oov = oovc = 0
    for g, p, toks in zip(gold_chunk_seqs, pred_chunk_seqs, token_seqs, strict=True):
        ps = {(s, e) for s, e, _ in p}
        for s, e, _ in g:
            hit = (s, e) in ps
            if "".join(toks[s:e]) in lex:
                iv += 1
                ivc += hit
            else:
                oov += 1
                oovc += hit
    return LexiconCounts(iv, ivc, oov, oovc)
