"""Gold against predicted chunks: TP, FP and FN per type, per sentence, and a held-out file's record.

A predicted chunk is correct when its start, end and type equal a gold chunk's; a chunk given twice in a
sentence counts once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from textbcv.errors import InputError
from textbcv.scoring.tally import ChunkCounts, Tally

__all__ = ["count_chunks", "sentence_counts", "type_sentence_counts", "sum_type_sentence_counts", "heldout_record",
           "sum_heldout_records"]

Chunk = tuple[int, int, str]


class _End:
    """Type of the end marker :data:`_END`."""


_END = _End()


def count_chunks(gold_chunk_seqs: Iterable[Iterable[Chunk]], pred_chunk_seqs: Iterable[Iterable[Chunk]]) -> ChunkCounts:
    """Compare gold and predicted chunks sentence by sentence.

    Parameters
    ----------
    gold_chunk_seqs, pred_chunk_seqs : iterable of iterables of Chunk
        ``(start, end, type)`` chunks of every sentence, both in the same sentence order.

    Returns
    -------
    ChunkCounts
        Counts per chunk type (seen in gold or prediction) and overall.

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
    """TP, FP and FN of every sentence, all types together; the rows add up to :func:`count_chunks`'s overall.

    Parameters
    ----------
    gold_chunk_seqs, pred_chunk_seqs : iterable of iterables of Chunk
        Gold and predicted chunks of every sentence, in the same order.

    Returns
    -------
    numpy.ndarray of int64
        Shape (n sentences, 3): ``[tp, fp, fn]`` per sentence.

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
    """Per chunk type, TP, FP and FN of each sentence where it has a gold or predicted chunk (sparse).

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
    """Several models' :func:`type_sentence_counts` of the same sentences, summed sentence by sentence.

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


def heldout_record(gold: Sequence, pred: Sequence) -> dict:
    """A fold's record of one held-out file: its chunk counts and every sentence's TP, FP, FN.

    Parameters
    ----------
    gold, pred : sequence of sequences of Chunk
        Gold and predicted chunks of every sentence of the file, in the same order.

    Returns
    -------
    dict
        ``{"counts": ChunkCounts.to_dict(), "sentences": [[tp, fp, fn], ...]}``.

    Examples
    --------
    >>> heldout_record([[(0, 1, "PER")], []], [[(0, 1, "PER")], [(2, 3, "LOC")]])["sentences"]
    [[1, 0, 0], [0, 1, 0]]
    """
    return {"counts": count_chunks(gold, pred).to_dict(), "sentences": sentence_counts(gold, pred).tolist()}


def sum_heldout_records(parts: Sequence[dict]) -> dict:
    """Several models' :func:`heldout_record` of one file (e.g. one per seed), summed.

    Parameters
    ----------
    parts : sequence of dict
        At least one record of the same file.

    Returns
    -------
    dict
        A record of the same form: counts and sentence rows summed.

    Examples
    --------
    >>> a = heldout_record([[(0, 1, "PER")]], [[(0, 1, "PER")]])
    >>> r = sum_heldout_records([a, heldout_record([[(0, 1, "PER")]], [[]])])
    >>> r["counts"]["overall"], r["sentences"]
    ({'tp': 1, 'fp': 0, 'fn': 1}, [[1, 0, 1]])
    """
    total = sum((ChunkCounts.from_dict(p["counts"]) for p in parts[1:]), ChunkCounts.from_dict(parts[0]["counts"]))
    return {"counts": total.to_dict(), "sentences": np.sum([p["sentences"] for p in parts], axis=0).tolist()}
