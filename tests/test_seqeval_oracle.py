"""An outside oracle: seqeval's strict IOB2 and IOBES modes against textbcv's chunks and counts.

seqeval (``mode="strict"``) keeps an entity only when its tags are exactly
what the scheme writes; conlleval.pl, and textbcv's lenient decoding, read
every tag sequence. The known differences, each checked below:

1. **Orphan starts.** A chunk that does not open with the scheme's start
   prefix -- ``I-X`` after ``O`` or another type in IOB2, an ``I-X`` or
   ``E-X`` start in IOBES -- is a chunk for conlleval and textbcv (and
   ``textbcv score`` warns about it), and no entity for seqeval strict.
2. **IOBES chunks left open.** ``B-X I-X`` followed by ``O``, another type or
   the sentence end (no ``E-X``), and a lone ``B-X`` (no ``S-X``): a chunk for
   textbcv's lenient IOBES decoding, none for seqeval strict.
3. **conlleval's own IOBES rules** (``S-X S-X`` and ``E-X B-X`` are one chunk
   each for conlleval.pl): seqeval strict IOBES is compared with
   ``--scheme iobes``, which decodes the chunks the tags encode.

Apart from these, everything is equal: the entities seqeval strict finds are
exactly textbcv's chunks whose tags are the scheme's own, and on tags valid
in the scheme the TP/FP/FN of ``score_tags`` (and for IOB2 of conlleval's
rules) equal seqeval's, on the shared corpora and on generated sequences.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.schemes import convert, decode, encode, is_valid
from textbcv.scoring import count_chunks, score_tags

seqeval_scheme = pytest.importorskip("seqeval.scheme")
SCHEMES = {"iob2": seqeval_scheme.IOB2, "iobes": seqeval_scheme.IOBES}


def seqeval_entities(seqs, scheme: str) -> list[set]:
    """seqeval strict entities of every sentence, as (start, end, type)."""
    ents = seqeval_scheme.Entities(seqs, SCHEMES[scheme]).entities
    return [{(e.start, e.end, e.tag) for e in sent} for sent in ents]


def own_chunks(tags, scheme: str) -> set:
    """textbcv's (lenient) chunks whose tags are the ones the scheme writes for them."""
    return {(a, b, t) for a, b, t in decode(tags, scheme) if list(tags[a:b]) == encode([(0, b - a, t)], b - a, scheme)}


def strict_counts(gold, pred, scheme: str) -> dict:
    """TP/FP/FN per type from seqeval's strict entities."""
    out: dict[str, list[int]] = {}
    for g, p in zip(seqeval_entities(gold, scheme), seqeval_entities(pred, scheme)):
        for _, _, t in g | p:
            out.setdefault(t, [0, 0, 0])
        for _, _, t in g & p:
            out[t][0] += 1
        for _, _, t in p - g:
            out[t][1] += 1
        for _, _, t in g - p:
            out[t][2] += 1
    return {t: tuple(v) for t, v in sorted(out.items())}


def textbcv_counts(counts) -> dict:
    return {t: (v.tp, v.fp, v.fn) for t, v in counts.types.items() if v.tp or v.fp or v.fn}


TAGS = {"iob2": ["O", "B-X", "I-X", "B-Y", "I-Y"],
        "iobes": ["O", "B-X", "I-X", "E-X", "S-X", "B-Y", "I-Y", "E-Y", "S-Y"]}


@settings(max_examples=400, deadline=None)
@given(scheme=st.sampled_from(["iob2", "iobes"]), data=st.data())
def test_seqeval_strict_entities_are_the_chunks_written_by_the_scheme(scheme, data):
    seqs = data.draw(st.lists(st.lists(st.sampled_from(TAGS[scheme]), max_size=10), min_size=1, max_size=5))
    want = seqeval_entities(seqs, scheme)
    for tags, ents in zip(seqs, want):
        assert own_chunks(tags, scheme) == ents
        # the rest of textbcv's chunks are the documented differences 1 and 2
        for a, b, t in set(decode(tags, scheme)) - ents:
            orphan = tags[a].split("-")[0] not in ("B", "S")
            left_open = scheme == "iobes" and tags[a].startswith("B-") and tags[b - 1].split("-")[0] in ("B", "I")
            assert orphan or left_open, (tags, (a, b, t))


@st.composite
def valid_pairs(draw):
    scheme = draw(st.sampled_from(["iob2", "iobes"]))
    sents = []
    for _ in range(draw(st.integers(1, 6))):
        n = draw(st.integers(0, 12))
        pair = []
        for _ in range(2):
            chunks, i = [], 0
            while i < n:
                if draw(st.booleans()):
                    length = draw(st.integers(1, min(4, n - i)))
                    chunks.append((i, i + length, draw(st.sampled_from(["X", "Y", "LONG-TYPE"]))))
                    i += length
                else:
                    i += 1
            pair.append(encode(chunks, n, scheme))
        sents.append(pair)
    return scheme, [g for g, _ in sents], [p for _, p in sents]


@settings(max_examples=300, deadline=None)
@given(case=valid_pairs())
def test_counts_equal_seqeval_strict_on_valid_tags(case):
    scheme, gold, pred = case
    want = strict_counts(gold, pred, scheme)
    assert textbcv_counts(score_tags(gold, pred, scheme=scheme).counts) == want
    if scheme == "iob2":  # conlleval's rules read valid IOB2 as IOB2
        assert textbcv_counts(score_tags(gold, pred).counts) == want


def test_conlleval_iobes_rules_differ_from_seqeval(capsys):
    """Difference 3, by hand: conlleval.pl reads S-X S-X and E-X B-X as one chunk each."""
    gold = [["S-X", "S-X"], ["B-X", "E-X", "B-X", "E-X"]]
    assert [len(e) for e in seqeval_entities(gold, "iobes")] == [2, 2]
    assert score_tags(gold, gold, scheme="iobes").counts.overall.tp == 4
    assert score_tags(gold, gold).counts.overall.tp == 2  # conlleval's rules


def perturb(seqs, tags, p, seed):
    rng = random.Random(seed)
    return [[rng.choice(tags) if rng.random() < p else t for t in s] for s in seqs]


@pytest.mark.parametrize("scheme", ["iob2", "iobes"])
def test_shared_conll2003_against_seqeval_strict(shared, scheme):
    from textbcv.corpus import read_conll

    corpus = read_conll([shared("conll2003_en", "eng.testa"), shared("conll2003_en", "eng.testb")])
    gold = [convert(s.tags, "iob1", scheme) for s in corpus]
    assert all(is_valid(g, scheme) for g in gold)
    tagset = sorted({t for s in gold for t in s})
    pred = perturb(gold, tagset, 0.1, seed=1)
    gold_ents, pred_ents = seqeval_entities(gold, scheme), seqeval_entities(pred, scheme)
    # the gold tags are valid: every chunk is an entity, and the chunk counts are the published ones
    assert [set(decode(g, scheme)) for g in gold] == gold_ents
    assert sum(map(len, gold_ents)) == 5942 + 5648
    # the predictions are not: seqeval keeps exactly the chunks the scheme writes...
    assert [own_chunks(p, scheme) for p in pred] == pred_ents
    # ... so its counts are textbcv's on those chunks
    want = strict_counts(gold, pred, scheme)
    own = count_chunks([set(decode(g, scheme)) for g in gold], [own_chunks(p, scheme) for p in pred])
    assert textbcv_counts(own) == want
    # and textbcv's own counts differ only by the predicted chunks seqeval drops (differences 1 and 2)
    lenient = score_tags(gold, pred, scheme=scheme).counts
    dropped = sum(len(set(decode(p, scheme))) - len(e) for p, e in zip(pred, pred_ents))
    assert dropped > 0 and lenient.overall.n_pred - sum(v[0] + v[1] for v in want.values()) == dropped
    assert lenient.overall.n_gold == sum(v[0] + v[2] for v in want.values())
