"""Chunk scoring: TP / FP / FN per chunk type, precision, recall, F1, token accuracy.

A predicted chunk is correct when its start, end and type equal a gold
chunk's. Counts add up over folds (:class:`ChunkCounts` supports ``+``), so
pooled or per-fold scores come from the same object.

Two entry points:

* :func:`count_chunks` compares chunk sets (e.g. ``Sentence.chunks``);
* :func:`textbcv.scoring.score_tags` compares tag sequences (conlleval.pl
  exactly, vectorised), returning this module's :class:`TagScore`; it and
  :func:`~textbcv.scoring.format_conlleval` are importable from here too.

Examples
--------
>>> counts = count_chunks([[(0, 2, "PER"), (3, 4, "LOC")]], [[(0, 2, "PER"), (3, 4, "ORG")]])
>>> counts.overall, counts.types["LOC"]
(Tally(tp=1, fp=1, fn=1), Tally(tp=0, fp=0, fn=1))
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from textbcv._io import json_count
from textbcv.errors import InputError
from textbcv.stats.metrics import metric_parts

__all__ = [
    "Tally",
    "ChunkCounts",
    "TagScore",
    "LexiconCounts",
    "count_chunks",
    "type_sentence_counts",
    "sum_type_sentence_counts",
    "sentence_counts",
    "count_lexicon",
    "heldout_record",
    "sum_heldout_records",
]

Chunk = tuple[int, int, str]


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


@dataclass(frozen=True)
class Tally:
    """True positives, false positives and false negatives of one chunk type (or all).

    Parameters
    ----------
    tp : int
        True positives: predicted chunks equal (start, end, type) to a gold chunk. Default 0.
    fp : int
        False positives: predicted chunks that match no gold chunk. Default 0.
    fn : int
        False negatives: gold chunks that no predicted chunk matches. Default 0.

    Examples
    --------
    >>> t = Tally(3, 1, 2)
    >>> t.precision, t.recall, round(t.f1, 4)
    (0.75, 0.6, 0.6667)
    >>> t + Tally(1, 0, 0)
    Tally(tp=4, fp=1, fn=2)
    """

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: "Tally") -> "Tally":
        return Tally(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def n_gold(self) -> int:
        """Gold chunks (tp + fn)."""
        return self.tp + self.fn

    @property
    def n_pred(self) -> int:
        """Predicted chunks (tp + fp)."""
        return self.tp + self.fp

    @property
    def precision(self) -> float:
        """tp / (tp + fp); 0 when nothing was predicted."""
        return _ratio(*metric_parts(self.tp, self.fp, self.fn)["precision"])

    @property
    def recall(self) -> float:
        """tp / (tp + fn); 0 when there is no gold chunk."""
        return _ratio(*metric_parts(self.tp, self.fp, self.fn)["recall"])

    @property
    def f1(self) -> float:
        """2 tp / (2 tp + fp + fn), the harmonic mean of precision and recall; 0 when undefined."""
        return _ratio(*metric_parts(self.tp, self.fp, self.fn)["f1"])

    def to_dict(self) -> dict[str, int]:
        """``{"tp": .., "fp": .., "fn": ..}``.

        Returns
        -------
        dict of str to int
        """
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn}

    def to_score_dict(self) -> dict[str, float]:
        """Counts plus precision, recall and f1.

        Returns
        -------
        dict
            ``tp``, ``fp``, ``fn`` (int) and ``precision``, ``recall``, ``f1`` (float in [0, 1]).
        """
        return {**self.to_dict(), "precision": self.precision, "recall": self.recall, "f1": self.f1}

    @classmethod
    def from_dict(cls, d: Mapping, where: str = "counts") -> "Tally":
        """Read ``{"tp": .., "fp": .., "fn": ..}``: integers in [0, 10^15] (``3.0`` is read as 3).

        InputError naming ``where`` if a count is missing or not such a number.

        Parameters
        ----------
        d : mapping
            An object with the keys ``tp``, ``fp`` and ``fn`` (other keys are ignored).
        where : str
            Where ``d`` sits in its file, for error messages (default ``"counts"``).

        Returns
        -------
        Tally

        Raises
        ------
        InputError
            When ``d`` is not a mapping, a key is missing, or a count is not an integer in [0, 10^15].

        Examples
        --------
        >>> Tally.from_dict({"tp": 3.0, "fp": 1, "fn": 0})
        Tally(tp=3, fp=1, fn=0)
        >>> Tally.from_dict({"tp": 1.5, "fp": 1, "fn": 0}, "counts.overall")
        Traceback (most recent call last):
        ...
        textbcv.errors.InputError: counts.overall.tp must be a non-negative integer, got 1.5
        """
        if not isinstance(d, Mapping):
            raise InputError(f"{where}: expected an object with tp, fp, fn")
        missing = [k for k in ("tp", "fp", "fn") if k not in d]
        if missing:
            raise InputError(f"{where}: missing key(s) {', '.join(missing)}")
        return cls(*(json_count(d[k], f"{where}.{k}") for k in ("tp", "fp", "fn")))


class ChunkCounts:
    """Per-type and overall chunk counts; ``+`` pools them (e.g. over folds).

    Parameters
    ----------
    types : mapping of str to Tally or (tp, fp, fn), optional
        Counts per chunk type (``""`` for untyped chunks); stored in ASCII order of type.
    overall : Tally, optional
        Defaults to the sum over ``types`` (given only when types are unknown).

    Examples
    --------
    >>> a = ChunkCounts({"PER": (2, 1, 0)})
    >>> b = ChunkCounts({"LOC": (1, 0, 1), "PER": (1, 0, 0)})
    >>> (a + b).to_dict()["overall"], (a + b).to_dict()["types"]["LOC"]
    ({'tp': 4, 'fp': 1, 'fn': 1}, {'tp': 1, 'fp': 0, 'fn': 1})
    >>> ChunkCounts.from_dict((a + b).to_dict()) == a + b
    True
    >>> round((a + b).f1, 4), round((a + b).macro_f1, 4)
    (0.8, 0.7619)
    """

    __slots__ = ("types", "overall")

    def __init__(self, types: Mapping[str, Tally | tuple[int, int, int]] | None = None, overall: Tally | None = None):
        t = {k: (v if isinstance(v, Tally) else Tally(*v)) for k, v in sorted((types or {}).items())}
        self.types: dict[str, Tally] = t
        if overall is None:
            overall = sum(t.values(), Tally())
        self.overall: Tally = overall

    def __add__(self, other: "ChunkCounts") -> "ChunkCounts":
        if not isinstance(other, ChunkCounts):
            return NotImplemented
        types = dict(self.types)
        for k, v in other.types.items():
            types[k] = types.get(k, Tally()) + v
        return ChunkCounts(types, self.overall + other.overall)

    def __radd__(self, other):  # sum() starts from 0
        if other == 0:
            return self
        return NotImplemented

    def __eq__(self, other) -> bool:
        return isinstance(other, ChunkCounts) and self.types == other.types and self.overall == other.overall

    def __repr__(self) -> str:
        return f"ChunkCounts({self.to_dict()!r})"

    @property
    def precision(self) -> float:
        """Micro-averaged (overall) precision."""
        return self.overall.precision

    @property
    def recall(self) -> float:
        """Micro-averaged (overall) recall."""
        return self.overall.recall

    @property
    def f1(self) -> float:
        """Micro-averaged (overall) F1."""
        return self.overall.f1

    def _macro(self, attr: str) -> float:
        if not self.types:
            return 0.0
        return float(np.mean([getattr(v, attr) for v in self.types.values()]))

    @property
    def macro_precision(self) -> float:
        """Unweighted mean of the per-type precisions."""
        return self._macro("precision")

    @property
    def macro_recall(self) -> float:
        """Unweighted mean of the per-type recalls."""
        return self._macro("recall")

    @property
    def macro_f1(self) -> float:
        """Unweighted mean of the per-type F1 scores (as seqeval's macro avg)."""
        return self._macro("f1")

    def to_dict(self) -> dict:
        """``{"overall": {"tp", "fp", "fn"}, "types": {TYPE: {...}}}``, types in ASCII order.

        Returns
        -------
        dict
            Plain ints, ready for JSON.
        """
        return {"overall": self.overall.to_dict(), "types": {k: v.to_dict() for k, v in self.types.items()}}

    @classmethod
    def from_dict(cls, d: Mapping) -> "ChunkCounts":
        """Inverse of :meth:`to_dict`; InputError if malformed or overall ≠ sum of types.

        Parameters
        ----------
        d : mapping
            ``{"overall": {"tp", "fp", "fn"}, "types": {TYPE: {...}}}``; ``types`` may be missing or empty.

        Returns
        -------
        ChunkCounts

        Raises
        ------
        InputError
            When ``overall`` is missing, a count is malformed, or non-empty ``types`` do not add up to ``overall``.
        """
        if not isinstance(d, Mapping) or "overall" not in d:
            raise InputError("counts: expected an object with 'overall' (and 'types')")
        overall = Tally.from_dict(d["overall"], "counts.overall")
        raw = d.get("types", {}) or {}
        if not isinstance(raw, Mapping):
            raise InputError("counts.types: expected an object TYPE -> counts")
        types = {str(k): Tally.from_dict(v, f"counts.types.{k}") for k, v in raw.items()}
        if types and sum(types.values(), Tally()) != overall:
            raise InputError("counts: 'overall' is not the sum of 'types'")
        return cls(types, overall)


@dataclass(frozen=True)
class TagScore:
    """Chunk counts plus token accuracy of one comparison of tag sequences.

    Parameters
    ----------
    counts : ChunkCounts
        Chunk counts, per type and overall.
    tokens : int
        Number of tokens scored (boundary lines excluded).
    correct_tags : int
        Number of tokens whose predicted tag equals the gold tag.

    Examples
    --------
    >>> from textbcv.scoring import score_tags
    >>> s = score_tags([["B-X", "O"]], [["B-X", "B-X"]])
    >>> s.tokens, s.correct_tags, s.accuracy, s.counts.overall
    (2, 1, 0.5, Tally(tp=1, fp=1, fn=0))
    """

    counts: ChunkCounts
    tokens: int
    correct_tags: int

    @property
    def accuracy(self) -> float:
        """Fraction of tokens whose predicted tag equals the gold tag."""
        return _ratio(self.correct_tags, self.tokens)

    @property
    def precision(self) -> float:
        """Micro-averaged (overall) chunk precision."""
        return self.counts.precision

    @property
    def recall(self) -> float:
        """Micro-averaged (overall) chunk recall."""
        return self.counts.recall

    @property
    def f1(self) -> float:
        """Micro-averaged (overall) chunk F1."""
        return self.counts.f1

    def __add__(self, other: "TagScore") -> "TagScore":
        return TagScore(self.counts + other.counts, self.tokens + other.tokens, self.correct_tags + other.correct_tags)

    def to_dict(self) -> dict:
        """The ``textbcv score --json`` object (docs/formats.md).

        Returns
        -------
        dict
            ``tokens``, ``accuracy``, ``overall`` and per-type ``types`` (counts, precision, recall, f1) and
            ``macro`` (precision, recall, f1); rates are fractions in [0, 1].
        """
        c = self.counts
        return {
            "tokens": self.tokens,
            "accuracy": self.accuracy,
            "overall": c.overall.to_score_dict(),
            "types": {k: v.to_score_dict() for k, v in c.types.items()},
            "macro": {"precision": c.macro_precision, "recall": c.macro_recall, "f1": c.macro_f1},
        }


# ----------------------------------------------------------------------------- chunk sets


class _End:
    """Type of :data:`_END`, the end marker of :func:`count_chunks`'s two iterators."""


_END = _End()


def count_chunks(gold_chunk_seqs: Iterable[Iterable[Chunk]], pred_chunk_seqs: Iterable[Iterable[Chunk]]) -> ChunkCounts:
    """Compare gold and predicted chunks sentence by sentence.

    Parameters
    ----------
    gold_chunk_seqs, pred_chunk_seqs : iterables (one item per sentence) of chunks
        Gold and predicted ``(start, end, type)`` chunks of every sentence, in the same sentence order.

    Returns
    -------
    ChunkCounts
        Counts per chunk type (types seen in gold or prediction) and overall. A chunk given twice in a sentence
        counts once.

    Raises
    ------
    InputError
        When the two iterables hold different numbers of sentences.

    Examples
    --------
    >>> c = count_chunks([[(0, 2, "PER"), (3, 4, "LOC")]], [[(0, 2, "PER"), (3, 5, "LOC")]]).to_dict()
    >>> c["overall"], c["types"]
    ({'tp': 1, 'fp': 1, 'fn': 1}, {'LOC': {'tp': 0, 'fp': 1, 'fn': 1}, 'PER': {'tp': 1, 'fp': 0, 'fn': 0}})
    """
    gold_n: dict[str, int] = {}
    pred_n: dict[str, int] = {}
    tp_n: dict[str, int] = {}
    n_sent = 0
    gi, pi = iter(gold_chunk_seqs), iter(pred_chunk_seqs)
    while True:
        g = next(gi, _END)
        p = next(pi, _END)
        if isinstance(g, _End) or isinstance(p, _End):
            if g is not p:
                raise InputError("gold and predicted chunks have different numbers of sentences (differ after "
                                 f"{n_sent})")
            break
        n_sent += 1
        gs = set(g)
        for c in gs:
            gold_n[c[2]] = gold_n.get(c[2], 0) + 1
        for c in set(p):
            t = c[2]
            pred_n[t] = pred_n.get(t, 0) + 1
            if c in gs:
                tp_n[t] = tp_n.get(t, 0) + 1
    types = {}
    for t in set(gold_n) | set(pred_n):
        tp = tp_n.get(t, 0)
        types[t] = Tally(tp, pred_n.get(t, 0) - tp, gold_n.get(t, 0) - tp)
    return ChunkCounts(types)


def sentence_counts(gold_chunk_seqs: Iterable[Iterable[Chunk]],
                    pred_chunk_seqs: Iterable[Iterable[Chunk]]) -> np.ndarray:
    """TP, FP and FN of every sentence (all types together): an (n, 3) integer array.

    The rows add up to :func:`count_chunks`'s overall counts; a bootstrap
    over sentences resamples them.

    Parameters
    ----------
    gold_chunk_seqs : iterable of iterables of Chunk
        Gold ``(start, end, type)`` chunks of every sentence.
    pred_chunk_seqs : iterable of iterables of Chunk
        Predicted chunks of every sentence, in the same order.

    Returns
    -------
    numpy.ndarray of int64
        Shape (n sentences, 3): ``[tp, fp, fn]`` per sentence (duplicate chunks count once).

    Raises
    ------
    ValueError
        When the two iterables hold different numbers of sentences.

    Examples
    --------
    >>> sentence_counts([[(0, 2, "PER")], [(1, 2, "LOC")]], [[(0, 2, "PER"), (3, 4, "LOC")], []]).tolist()
    [[1, 1, 0], [0, 0, 1]]
    """
    rows = []
    for g, p in zip(gold_chunk_seqs, pred_chunk_seqs, strict=True):
        gs, ps = set(g), set(p)
        tp = len(gs & ps)
        rows.append((tp, len(ps) - tp, len(gs) - tp))
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def type_sentence_counts(gold_chunk_seqs: Sequence[Sequence[Chunk]],
                         pred_chunk_seqs: Sequence[Sequence[Chunk]]) -> dict[str, list[list[int]]]:
    """Per chunk type, the sentences where it has a chunk (gold or predicted) and their TP, FP, FN: sparse.

    What macro-F1's paired posterior needs (the per-type counts of every sentence) without a row for every
    sentence and type: a type's rows add up to its per-type counts, and the types' rows of a sentence to its
    :func:`sentence_counts` row.

    Parameters
    ----------
    gold_chunk_seqs, pred_chunk_seqs : sequence of sequences of Chunk
        Gold and predicted chunks of the same sentences, in the same order.

    Returns
    -------
    dict
        type → list of ``[sentence index, tp, fp, fn]``, sentences in order; types sorted.

    Examples
    --------
    >>> type_sentence_counts([[(0, 2, "PER")], [(1, 2, "LOC")]], [[(0, 2, "PER"), (3, 4, "LOC")], []])
    {'LOC': [[0, 0, 1, 0], [1, 0, 0, 1]], 'PER': [[0, 1, 0, 0]]}
    """
    out: dict[str, list[list[int]]] = {}
    for k, (g, p) in enumerate(zip(gold_chunk_seqs, pred_chunk_seqs, strict=True)):
        if not g and not p:
            continue
        gs, ps = set(g), set(p)
        for t in sorted({c[2] for c in gs} | {c[2] for c in ps}):
            gt = {c for c in gs if c[2] == t}
            pt = {c for c in ps if c[2] == t}
            tp = len(gt & pt)
            out.setdefault(t, []).append([k, tp, len(pt) - tp, len(gt) - tp])
    return dict(sorted(out.items()))


def sum_type_sentence_counts(parts: Sequence[Mapping[str, list[list[int]]]]) -> dict[str, list[list[int]]]:
    """:func:`type_sentence_counts` of several models on the same sentences, summed sentence by sentence.

    Parameters
    ----------
    parts : sequence of mapping
        Each model's :func:`type_sentence_counts`.

    Returns
    -------
    dict
        The summed counts, in the same form.
    """
    acc: dict[str, dict[int, list[int]]] = {}
    for part in parts:
        for t, rows in part.items():
            into = acc.setdefault(t, {})
            for k, tp, fp, fn in rows:
                r = into.setdefault(k, [0, 0, 0])
                r[0] += tp
                r[1] += fp
                r[2] += fn
    return {t: [[k, *into[k]] for k in sorted(into)] for t, into in sorted(acc.items())}


# ----------------------------------------------------------------------------- segmentation


@dataclass(frozen=True)
class LexiconCounts:
    """Recall of in-vocabulary and out-of-vocabulary gold words (the SIGHAN bakeoff convention).

    A gold word is IV when it is in the training lexicon, OOV otherwise; it
    is recalled when the prediction has a word with the same span.

    Parameters
    ----------
    iv_words : int
        Gold words found in the training lexicon (in-vocabulary). Default 0.
    iv_correct : int
        IV gold words whose span the prediction has. Default 0.
    oov_words : int
        Gold words not in the lexicon (out-of-vocabulary). Default 0.
    oov_correct : int
        OOV gold words whose span the prediction has. Default 0.

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
        """Counts and the three rates.

        Returns
        -------
        dict
            The four counts (int) and ``iv_recall``, ``oov_recall``, ``oov_rate`` (fractions in [0, 1]).
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
    """IV / OOV recall of segmented words against a training ``lexicon``.

    Parameters
    ----------
    gold_chunk_seqs, pred_chunk_seqs : iterables of word chunks per sentence
        Gold and predicted words as ``(start, end, type)`` chunks of character offsets, per sentence.
    token_seqs : iterable of token (character) sequences, one per sentence
        The characters the chunk offsets index; a gold word's text is the join of its characters.
    lexicon : collection of str
        Words of the training data (e.g. ``pku_training_words.utf8``).

    Returns
    -------
    LexiconCounts
        A gold word is recalled when a predicted chunk has the same (start, end); types are ignored.

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


def heldout_record(gold: Sequence, pred: Sequence) -> dict:
    """What a fold's record keeps of one held-out file: its chunk counts and every sentence's TP / FP / FN.

    Parameters
    ----------
    gold : sequence of sequences of Chunk
        Gold chunks of every sentence of the held-out file.
    pred : sequence of sequences of Chunk
        The fold model's predicted chunks of every sentence, in the same order.

    Returns
    -------
    dict
        ``{"counts": ChunkCounts.to_dict(), "sentences": [[tp, fp, fn], ...]}``, one row per sentence.

    Examples
    --------
    >>> heldout_record([[(0, 1, "PER")], []], [[(0, 1, "PER")], [(2, 3, "LOC")]])
    {'counts': {'overall': {'tp': 1, 'fp': 1, 'fn': 0},
                'types': {'LOC': {'tp': 0, 'fp': 1, 'fn': 0}, 'PER': {'tp': 1, 'fp': 0, 'fn': 0}}},
     'sentences': [[1, 0, 0], [0, 1, 0]]}
    """
    return {"counts": count_chunks(gold, pred).to_dict(), "sentences": sentence_counts(gold, pred).tolist()}


def sum_heldout_records(parts: Sequence[dict]) -> dict:
    """Several models' :func:`heldout_record` of one file (e.g. one per training seed) counted together: the chunk
    counts and every sentence's TP / FP / FN summed.

    Parameters
    ----------
    parts : sequence of dict
        At least one :func:`heldout_record` of the same file (same sentences, in the same order).

    Returns
    -------
    dict
        A record of the same form: counts summed per type and overall, sentence rows summed element-wise.

    Examples
    --------
    >>> a = heldout_record([[(0, 1, "PER")]], [[(0, 1, "PER")]])
    >>> b = heldout_record([[(0, 1, "PER")]], [[]])
    >>> r = sum_heldout_records([a, b])
    >>> r["counts"]["overall"], r["sentences"]
    ({'tp': 1, 'fp': 0, 'fn': 1}, [[1, 0, 1]])
    """
    total = sum((ChunkCounts.from_dict(p["counts"]) for p in parts[1:]), ChunkCounts.from_dict(parts[0]["counts"]))
    return {"counts": total.to_dict(), "sentences": np.sum([p["sentences"] for p in parts], axis=0).tolist()}
