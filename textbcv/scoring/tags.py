"""Scoring tag sequences (:func:`score_tags`) and conlleval.pl's report of the score (:func:`format_conlleval`).

The default ``scheme="conlleval"`` reproduces conlleval.pl exactly (its chunk rules and its counting automaton,
which reads the text as one stream with a boundary ``O`` between sentences); a named scheme (``"iobes"``,
``"bmes"``, ...) decodes each sentence with :func:`textbcv.schemes.decode` instead.

Examples
--------
>>> gold = [["B-PER", "I-PER", "O", "B-LOC"]]
>>> pred = [["B-PER", "I-PER", "O", "B-ORG"]]
>>> s = score_tags(gold, pred)
>>> s.counts.to_dict()["overall"], sorted(s.counts.to_dict()["types"])
({'tp': 1, 'fp': 1, 'fn': 1}, ['LOC', 'ORG', 'PER'])
>>> s.accuracy
0.75
>>> print(format_conlleval(s), end="")
processed 4 tokens with 2 phrases; found: 2 phrases; correct: 1.
accuracy:  75.00%; precision:  50.00%; recall:  50.00%; FB1:  50.00
              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  0
              ORG: precision:   0.00%; recall:   0.00%; FB1:   0.00  1
              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain

import numpy as np

from textbcv.errors import InputError
from textbcv.schemes import (
    CONLLEVAL,
    TagCodes,
    chunk_spans,
    conlleval_end,
    conlleval_split,
    conlleval_start,
    get_scheme,
)
from textbcv.scoring.tally import ChunkCounts, TagScore, Tally

__all__ = ["score_tags", "score_codes", "chunk_rows", "format_conlleval"]


# ----------------------------------------------------------------------------- tag sequences

# conlleval prefix classes: every prefix conlleval.pl names, plus "anything else".
_CONLL_CLASSES = ("O", "B", "I", "E", "[", "]", ".", "S")  # "S" stands for any other prefix
_CONLL_CLASS = {p: i for i, p in enumerate(_CONLL_CLASSES)}


def _conll_table(rule) -> np.ndarray:
    n = len(_CONLL_CLASSES)
    tab = np.zeros((n, n, 2), dtype=bool)
    for i, p in enumerate(_CONLL_CLASSES):
        for j, c in enumerate(_CONLL_CLASSES):
            tab[i, j, 0] = rule(p, c, "X", "X")
            tab[i, j, 1] = rule(p, c, "X", "Y")
    return tab


_CONLL_START = _conll_table(conlleval_start)
_CONLL_END = _conll_table(conlleval_end)
_N_CLASSES = len(_CONLL_CLASSES)
# flags of (previous class, class, type changed), flattened: bit 0 = chunk end, bit 1 = chunk start
_CONLL_FLAGS = (_CONLL_END.astype(np.uint8) | (_CONLL_START.astype(np.uint8) << 1)).ravel()


def _encode_streams(gold_tag_seqs, pred_tag_seqs, final_boundary: bool):
    """Integer-coded streams (gold, pred, token mask, sentence lengths, vocab), a boundary ``O`` around sentences."""
    gold = gold_tag_seqs if isinstance(gold_tag_seqs, list) else list(gold_tag_seqs)
    pred = pred_tag_seqs if isinstance(pred_tag_seqs, list) else list(pred_tag_seqs)
    if len(gold) != len(pred):
        raise InputError(f"gold and predicted tags have different numbers of sentences ({len(gold)} and {len(pred)})")
    lg = np.fromiter(map(len, gold), dtype=np.int64, count=len(gold))
    lp = np.fromiter(map(len, pred), dtype=np.int64, count=len(pred))
    if not np.array_equal(lg, lp):
        k = int(np.flatnonzero(lg != lp)[0])
        raise InputError(f"sentence {k}: {lg[k]} gold tags but {lp[k]} predicted tags")
    codes = TagCodes()
    get = codes.__getitem__
    g = np.fromiter(map(get, chain.from_iterable(gold)), dtype=np.int32, count=int(lg.sum()))
    p = np.fromiter(map(get, chain.from_iterable(pred)), dtype=np.int32, count=int(lg.sum()))
    # boundaries before every sentence and after the last one (if final_boundary)
    offsets = np.concatenate(([0], np.cumsum(lg)))
    if not final_boundary and len(lg):
        offsets = offsets[:-1]
    g = np.insert(g, offsets, 0)
    p = np.insert(p, offsets, 0)
    token = np.ones(len(g), dtype=bool)
    token[offsets + np.arange(len(offsets))] = False
    return g, p, token, lg, list(codes)


def _where(lengths: np.ndarray, flat_index: int) -> tuple[int, int]:
    """(sentence, position) of a flat stream index (the stream starts with a boundary)."""
    ends = np.cumsum(np.asarray(lengths) + 1)
    s = int(np.searchsorted(ends, flat_index, side="right"))
    start = int(ends[s - 1]) if s else 0
    return s, flat_index - start - 1


def score_tags(
    gold_tag_seqs: Iterable[Sequence[str]],
    pred_tag_seqs: Iterable[Sequence[str]],
    scheme: str = CONLLEVAL,
    *,
    final_boundary: bool = True,
) -> TagScore:
    """Score predicted tag sequences against gold ones.

    With conlleval's rules, per-type ``fp``/``fn`` can be negative for a chunk left open by a ``.`` tag (conlleval
    credits the gold type where the chunk ends); the overall counts stay exactly conlleval's.

    Parameters
    ----------
    gold_tag_seqs, pred_tag_seqs : iterables of tag sequences, one per sentence
        Gold and predicted tags; every predicted sentence has its gold sentence's length.
    scheme : str
        ``"conlleval"`` (default): conlleval.pl's chunk rules and counting; or a scheme name: chunks decoded
        leniently with that scheme and compared as sets.
    final_boundary : bool
        Whether conlleval.pl would see a sentence boundary after the last sentence (matters only for
        degenerate tags such as an untyped ``S``).

    Returns
    -------
    TagScore

    Raises
    ------
    InputError
        When the sentence counts or lengths differ, or a tag is not of a named ``scheme``.

    Examples
    --------
    >>> g = [["B-X", "E-X", "S-X", "S-X"]]
    >>> score_tags(g, g).counts.overall.tp, score_tags(g, g, "iobes").counts.overall.tp
    (1, 3)
    """
    g, p, token, lengths, vocab = _encode_streams(gold_tag_seqs, pred_tag_seqs, final_boundary)

    def where(index: int) -> str:
        s, pos = _where(lengths, index)
        return f"sentence {s}, position {pos}"

    return score_codes(g, p, token, vocab, scheme, where)


def score_codes(g: np.ndarray, p: np.ndarray, token: np.ndarray, vocab: Sequence[str], scheme: str = CONLLEVAL,
                where=None) -> TagScore:
    """Score integer-coded tag streams (e.g. a :class:`textbcv.corpus.conlleval.TagStream`).

    Parameters
    ----------
    g, p : numpy.ndarray of int
        Gold and predicted tag codes of one stream, boundaries included (code of ``O``), starting after a boundary.
    token : numpy.ndarray of bool
        False at boundaries.
    vocab : sequence of str
        ``vocab[c]`` is the tag of code ``c``.
    scheme : str
        As for :func:`score_tags`.
    where : callable, optional
        ``where(index)`` names a stream position in the error for a tag not of ``scheme``.

    Returns
    -------
    TagScore
        Types with no gold or predicted chunk are left out.

    Raises
    ------
    InputError
        For a named ``scheme``: an unknown scheme or a tag that is not of it.

    Examples
    --------
    >>> import numpy as np
    >>> vocab = ["O", "B-PER", "I-PER"]
    >>> s = score_codes(np.array([0, 1, 2, 0]), np.array([0, 1, 0, 0]), np.array([False, True, True, False]), vocab)
    >>> s.counts.overall, s.tokens, s.correct_tags
    (Tally(tp=0, fp=1, fn=1), 2, 1)
    """
    tokens = int(np.count_nonzero(token))
    if _is_conlleval(scheme):
        split, cls, typ, types = _conll_arrays(vocab)
        canon_index: dict[tuple[str, str], int] = {}
        canon = np.array([canon_index.setdefault(s, len(canon_index)) for s in split], dtype=np.int32)
        same = canon[g] == canon[p] if len(canon_index) < len(vocab) else g == p
        tp, n_pred, n_gold = _conlleval_counts(g, p, cls, typ, len(types))
    else:
        kind, typ, types = _kind_arrays(g, p, vocab, scheme, where)
        same = g == p
        tp, n_pred, n_gold = _scheme_counts(g, p, kind, typ, len(types))
    correct_tags = int(np.count_nonzero(same & token))
    counts = ChunkCounts(
        {
            t: Tally(int(tp[i]), int(n_pred[i] - tp[i]), int(n_gold[i] - tp[i]))
            for i, t in enumerate(types)
            if tp[i] or n_pred[i] or n_gold[i]
        }
    )
    return TagScore(counts, tokens, correct_tags)


def _is_conlleval(scheme) -> bool:
    """Whether ``scheme`` names conlleval.pl's rules."""
    return isinstance(scheme, str) and scheme.lower() == CONLLEVAL


def _conll_arrays(vocab: Sequence[str]):
    """conlleval's ``(prefix, type)`` of every code, its prefix class and type id, and the sorted types."""
    split = [conlleval_split(t) for t in vocab]
    types = sorted({t for _, t in split})
    tix = {t: i for i, t in enumerate(types)}
    cls = np.array([_CONLL_CLASS.get(pr, 7) for pr, _ in split], dtype=np.int8)
    typ = np.array([tix[t] for _, t in split], dtype=np.int32)
    return split, cls, typ, types


def _kind_arrays(g, p, vocab: Sequence[str], scheme, where=None):
    """Kind flags and type ids of every code under a named scheme, and the sorted types; a code in neither stream
    (e.g. the tag of a boundary line) is outside. InputError for a tag of the streams that is not of the scheme."""
    sch = get_scheme(scheme)
    present = np.zeros(len(vocab), dtype=bool)
    present[g] = True
    present[p] = True
    kinds = []
    for i, t in enumerate(vocab):
        if not present[i]:
            kinds.append((0, ""))
            continue
        try:
            kinds.append(sch.kind(t))
        except InputError as e:
            at = int(np.flatnonzero((g == i) | (p == i))[0])
            raise InputError(f"{where(at)}: {e}" if where else str(e)) from None
    types = sorted({t for _, t in kinds})
    tix = {t: i for i, t in enumerate(types)}
    return (np.array([k for k, _ in kinds], dtype=np.int8), np.array([tix[t] for _, t in kinds], dtype=np.int32),
            types)


def chunk_rows(g: np.ndarray, p: np.ndarray, token: np.ndarray, vocab: Sequence[str],
               scheme: str = CONLLEVAL) -> tuple[np.ndarray, np.ndarray, int]:
    """The gold and predicted chunks of integer-coded tag streams as rows, sentence by sentence.

    A sentence is a run of token entries; its chunks are those :func:`textbcv.schemes.decode` gives its tags
    (conlleval.pl's rules for ``"conlleval"``, a chunk closing at the sentence's end), found with array operations.

    Parameters
    ----------
    g, p, token, vocab, scheme
        As for :func:`score_codes` (tags of the streams already checked against a named ``scheme``).

    Returns
    -------
    gold, pred : numpy.ndarray of int64, shape (n chunks, 4)
        Rows (sentence, start, end, type id), ``end`` exclusive and both within the sentence, in the streams'
        order; the type ids of both sides index the same sorted types.
    n_sentences : int

    Examples
    --------
    >>> import numpy as np
    >>> vocab = ["O", "B-PER", "I-PER", "B-LOC"]
    >>> g, p = np.array([0, 1, 2, 0, 3, 0]), np.array([0, 1, 0, 0, 3, 0])
    >>> G, P, n = chunk_rows(g, p, np.array([False, True, True, False, True, False]), vocab)
    >>> G.tolist(), P.tolist(), n
    ([[0, 0, 2, 2], [1, 0, 1, 1]], [[0, 0, 1, 2], [1, 0, 1, 1]], 2)
    """
    tok = np.asarray(token, dtype=bool)
    n = len(tok)
    first = tok.copy()
    first[1:] &= ~tok[:-1]
    sentence = np.cumsum(first) - 1  # of every token entry
    sentence_start = np.flatnonzero(first)
    if _is_conlleval(scheme):
        _, cls, typ, _ = _conll_arrays(vocab)
        flags = _step_flags(g, p, cls, typ)
        spans = []
        for f in flags:  # flags of step k (entries k - 1, k) at index k - 1
            begin = np.zeros(n, dtype=bool)
            begin[1:] = f >= 2
            begin &= tok
            close = ~tok
            close[1:] |= (f & 1).view(bool) | begin[1:]
            starts = np.flatnonzero(begin)
            stops = np.append(np.flatnonzero(close), n)
            spans.append((starts, stops[np.searchsorted(stops, starts, side="right")], typ))
    else:
        kind, typ, _ = _kind_arrays(g, p, vocab, scheme)
        spans = []
        for x in (g, p):
            starts, ends, _ = chunk_spans(x, kind, typ)
            spans.append((starts, ends, typ))
    out = []
    for (starts, ends, t), x in zip(spans, (g, p)):
        sent = sentence[starts]
        base = sentence_start[sent]
        out.append(np.stack([sent, starts - base, ends - base, t[x[starts]]], axis=1).astype(np.int64))
    return out[0], out[1], len(sentence_start)


def _scheme_counts(g, p, kind, typ, n_types):
    gs, ge, gt = chunk_spans(g, kind, typ)
    ps, pe, pt = chunk_spans(p, kind, typ)
    n = len(g)
    end_at = np.full(n, -1, dtype=np.int64)
    type_at = np.full(n, -1, dtype=np.int32)
    end_at[gs] = ge
    type_at[gs] = gt
    match = (end_at[ps] == pe) & (type_at[ps] == pt)
    return (
        np.bincount(pt[match], minlength=n_types),
        np.bincount(pt, minlength=n_types),
        np.bincount(gt, minlength=n_types),
    )


#: Largest tag vocabulary whose (previous tag, tag) flags are looked up in one table (4 MB); larger ones per class.
_PAIR_TABLE_MAX = 2048


def _step_flags(g, p, cls, typ):
    """Per step k of each stream, conlleval's flags of (tag k - 1, tag k): bit 0 a chunk ends, bit 1 one starts."""
    v = len(cls)
    if v <= _PAIR_TABLE_MAX:  # one lookup per step in a table of every code pair
        pair = _CONLL_FLAGS[((cls.astype(np.intp)[:, None] * _N_CLASSES + cls) * 2 + (typ[:, None] != typ)).ravel()]
        return pair[g[:-1] * v + g[1:]], pair[p[:-1] * v + p[1:]]
    out = []
    for x in (g, p):
        k, t = cls[x].astype(np.intp), typ[x]
        out.append(_CONLL_FLAGS[(k[:-1] * _N_CLASSES + k[1:]) * 2 + (t[1:] != t[:-1])])
    return tuple(out)


def _conlleval_counts(g, p, cls, typ, n_types):
    """conlleval.pl's counting automaton, vectorised.

    Per step, conlleval first settles the chunk it tracks (counted when both chunks end with equal previous types,
    dropped when only one ends or the types differ), then starts tracking when both start with equal types; the
    state after each step is set by the last event, so each possible count looks up the event before it.
    """
    tg, tp_ = typ[g], typ[p]
    same = tg == tp_
    fg, fp = _step_flags(g, p, cls, typ)
    eg, sg = (fg & 1).view(bool), fg >= 2
    ep, sp = (fp & 1).view(bool), fp >= 2
    count_ev = np.append(eg & ep & same[:-1], True)  # final flush counts
    drop_ev = np.append(~count_ev[:-1] & ((eg != ep) | ~same[1:]), False)
    track_ev = np.append(sg & sp & same[1:], False)
    # tracking before step k = the last event before k was a "track" event
    events = np.flatnonzero(track_ev | count_ev | drop_ev)
    candidates = np.flatnonzero(count_ev)
    j = np.searchsorted(events, candidates) - 1
    previous = events[np.maximum(j, 0)]
    counted = candidates[(j >= 0) & track_ev[previous]]
    # the type of the previous gold token at step k is tg[k-1]; the final flush uses tg[-1]
    return (
        np.bincount(tg[counted], minlength=n_types),
        np.bincount(tp_[1:][sp], minlength=n_types),
        np.bincount(tg[1:][sg], minlength=n_types),
    )


# ----------------------------------------------------------------------------- report


def _pad17(s: str) -> str:
    # Perl's %17s pads by bytes (conlleval reads raw bytes).
    return " " * max(0, 17 - len(s.encode("utf-8"))) + s


def format_conlleval(score: TagScore) -> str:
    """conlleval.pl's report of ``score``, byte for byte (its formulas, zero cases and ASCII order of types).

    Parameters
    ----------
    score : TagScore
        The score to report.

    Returns
    -------
    str
        Totals, accuracy and overall scores (when there are tokens), then one line per chunk type; LF endings.

    Examples
    --------
    >>> print(format_conlleval(TagScore(ChunkCounts(), 0, 0)), end="")
    processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.
    """
    c = score.counts
    tp, n_gold, n_pred = c.overall.tp, c.overall.n_gold, c.overall.n_pred
    precision = 100 * tp / n_pred if n_pred > 0 else 0.0
    recall = 100 * tp / n_gold if n_gold > 0 else 0.0
    fb1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    out = [f"processed {score.tokens} tokens with {n_gold} phrases; found: {n_pred} phrases; correct: {tp}.\n"]
    if score.tokens > 0:
        out.append(
            "accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n"
            % (100 * score.correct_tags / score.tokens, precision, recall, fb1)
        )
    keys = sorted([t for t, v in c.types.items() if v.n_gold] + [t for t, v in c.types.items() if v.n_pred])
    sorted_types: list[str] = []
    last = None
    for t in keys:
        if not last or last != t:  # Perl: not($lastType) is true for undef and ""
            sorted_types.append(t)
        last = t
    for t in sorted_types:
        v = c.types[t]
        precision = 100 * v.tp / v.n_pred if v.n_pred else 0.0
        recall = 100 * v.tp / v.n_gold if v.n_gold else 0.0
        fb1 = 0.0 if precision + recall == 0.0 else 2 * precision * recall / (precision + recall)
        out.append(
            "%s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n" % (_pad17(t), precision, recall, fb1, v.n_pred)
        )
    return "".join(out)
