"""Chunk scoring: cross-checks against seqeval and a per-token conlleval automaton, counts objects."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.errors import InputError
from textbcv.schemes import conlleval_end, conlleval_split, conlleval_start, decode, encode, is_valid, scheme_names
from textbcv.scoring import (
    ChunkCounts,
    LexiconCounts,
    TagScore,
    Tally,
    count_chunks,
    count_lexicon,
    format_conlleval,
    score_tags,
)

TYPES = ["PER", "LOC", "ORG", "MISC"]


def seqeval_counts(gold, pred):
    """Per-type (tp, fp, fn) from seqeval's default-mode entity extraction."""
    from seqeval.metrics.sequence_labeling import get_entities

    def ents(seqs):
        return {(k, t, s, e) for k, seq in enumerate(seqs) for t, s, e in get_entities(list(seq))}

    g, p = ents(gold), ents(pred)
    types = {x[1] for x in g | p}
    out = {}
    for t in sorted(types):
        gt = {x for x in g if x[1] == t}
        pt = {x for x in p if x[1] == t}
        out[t] = {"tp": len(gt & pt), "fp": len(pt - gt), "fn": len(gt - pt)}
    return out


def random_file(rng: random.Random, scheme: str):
    """Gold tags of a few random sentences in ``scheme`` and a perturbed prediction (often invalid)."""
    tagset = ["O"] + [f"{p}-{t}" for p in "BI" for t in TYPES]
    gold, pred = [], []
    for _ in range(rng.randint(1, 6)):
        n = rng.randint(1, 25)
        chunks, i = [], 0
        while i < n:
            i += rng.choice([0, 0, 1, 2, 3])
            if i >= n:
                break
            k = rng.randint(1, min(4, n - i))
            chunks.append((i, i + k, rng.choice(TYPES)))
            i += k
        g = encode(chunks, n, scheme)
        rate = rng.choice([0.0, 0.05, 0.2, 0.5])
        p = [rng.choice(tagset) if rng.random() < rate else t for t in g]
        gold.append(g)
        pred.append(p)
    return gold, pred


@pytest.mark.filterwarnings("ignore:F-score is ill-defined")
@pytest.mark.parametrize("scheme", ["iob1", "iob2"])
def test_counts_equal_seqeval_on_perturbed_files(scheme):
    from seqeval.metrics import f1_score

    rng = random.Random(20240607 + len(scheme) + scheme.count("1"))
    pooled = ChunkCounts()
    invalid_files = 0
    for _ in range(600):  # 1,200 files over both schemes
        gold, pred = random_file(rng, scheme)
        ref = seqeval_counts(gold, pred)
        for sch in ("conlleval", scheme):
            got = score_tags(gold, pred, scheme=sch).counts
            assert got.to_dict()["types"] == ref
        chunks = count_chunks([decode(s, scheme) for s in gold], [decode(s, scheme) for s in pred])
        assert chunks.to_dict()["types"] == ref
        assert got.f1 == pytest.approx(f1_score(gold, pred), abs=1e-12)
        pooled = pooled + got
        invalid_files += not all(is_valid(s, scheme) for s in pred)
    assert invalid_files > 300  # many predictions are not valid sequences of the scheme
    assert pooled.overall.tp > 1000


def conlleval_reference(gold, pred, final_boundary=True):
    """conlleval.pl's main loop, token by token (found/correct per type, tokens, correct tags)."""
    found_g, found_p, correct = {}, {}, {}
    tokens = correct_tags = 0
    in_correct = False
    lg, lgt, lp, lpt = "O", "", "O", ""
    stream = []
    for k, (gs, ps) in enumerate(zip(gold, pred)):
        stream += [(g, p, False) for g, p in zip(gs, ps)]
        if k < len(gold) - 1 or final_boundary:
            stream.append(("O", "O", True))
    for g_tag, p_tag, boundary in stream:
        g, gt = conlleval_split(g_tag)
        p, pt = conlleval_split(p_tag)
        eg, ep = conlleval_end(lg, g, lgt, gt), conlleval_end(lp, p, lpt, pt)
        if in_correct:
            if eg and ep and lpt == lgt:
                in_correct = False
                correct[lgt] = correct.get(lgt, 0) + 1
            elif eg != ep or pt != gt:
                in_correct = False
        sg, sp = conlleval_start(lg, g, lgt, gt), conlleval_start(lp, p, lpt, pt)
        if sg and sp and pt == gt:
            in_correct = True
        if sg:
            found_g[gt] = found_g.get(gt, 0) + 1
        if sp:
            found_p[pt] = found_p.get(pt, 0) + 1
        if not boundary:
            tokens += 1
            correct_tags += g == p and gt == pt
        lg, lgt, lp, lpt = g, gt, p, pt
    if in_correct:
        correct[lgt] = correct.get(lgt, 0) + 1
    types = {
        t: (correct.get(t, 0), found_p.get(t, 0) - correct.get(t, 0), found_g.get(t, 0) - correct.get(t, 0))
        for t in set(found_g) | set(found_p) | set(correct)
    }
    return TagScore(ChunkCounts({t: v for t, v in types.items() if any(v)}), tokens, correct_tags)


JUNK = st.builds(
    lambda p, t: p if t is None else f"{p}-{t}",
    st.sampled_from(["O", "O", "B", "I", "E", "S", "[", "]", ".", "B2", "L"]),
    st.sampled_from([None, "A", "B", "0", "A-B"]),
)


@settings(max_examples=400, deadline=None)
@given(
    sents=st.lists(st.lists(st.tuples(JUNK, JUNK), min_size=1, max_size=10), max_size=5),
    final=st.booleans(),
)
def test_vectorised_conlleval_equals_token_by_token_automaton(sents, final):
    gold = [[g for g, _ in s] for s in sents]
    pred = [[p for _, p in s] for s in sents]
    got = score_tags(gold, pred, final_boundary=final)
    ref = conlleval_reference(gold, pred, final)
    assert got == ref
    assert format_conlleval(got) == format_conlleval(ref)


TYPED_TAGS = st.sampled_from(["O", "B-X", "I-X", "E-X", "S-X", "B-Y", "I-Y", "E-Y", "S-Y"])


@settings(max_examples=300, deadline=None)
@given(pairs=st.lists(st.lists(st.tuples(TYPED_TAGS, TYPED_TAGS), min_size=1, max_size=12), max_size=4))
def test_conlleval_counts_equal_chunk_sets_of_conlleval_decoding(pairs):
    # For typed B/I/E/S/O tags conlleval's start and end points agree, so its automaton counts
    # exactly the chunk-set matches of decode(..., "conlleval").
    gold = [[g for g, _ in s] for s in pairs]
    pred = [[p for _, p in s] for s in pairs]
    via_sets = count_chunks([decode(s, "conlleval") for s in gold], [decode(s, "conlleval") for s in pred])
    assert score_tags(gold, pred).counts == via_sets


@pytest.mark.parametrize("scheme", scheme_names())
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_vectorised_scheme_scoring_equals_decode(scheme, data):
    from textbcv.schemes import SCHEMES

    tags = st.sampled_from(["O"] + sorted(f"{p}-{t}" for p in SCHEMES[scheme].prefixes for t in "XY"))
    sents = data.draw(st.lists(st.lists(st.tuples(tags, tags), min_size=1, max_size=12), max_size=4))
    gold = [[g for g, _ in s] for s in sents]
    pred = [[p for _, p in s] for s in sents]
    got = score_tags(gold, pred, scheme=scheme)
    assert got.counts == count_chunks([decode(s, scheme) for s in gold], [decode(s, scheme) for s in pred])
    assert got.tokens == sum(map(len, gold))
    assert got.correct_tags == sum(g == p for s in sents for g, p in s)


# Edge cases where conlleval.pl and correct IOBES decoding disagree, hand-checked:
# (gold, pred, conlleval (tp, n_pred, n_gold), iobes (tp, n_pred, n_gold))
EDGE_CASES = [
    # S-X S-X is one conlleval chunk on both sides: 1 of 1 correct; really 2 of 2.
    (["S-X", "S-X"], ["S-X", "S-X"], (1, 1, 1), (2, 2, 2)),
    # conlleval credits two singletons as the gold two-token chunk (both read as (0, 2)).
    (["B-X", "E-X"], ["S-X", "S-X"], (1, 1, 1), (0, 2, 1)),
    # E-X B-X merges two chunks into one for conlleval: 1 of 1 instead of 2 of 2.
    (["B-X", "E-X", "B-X", "E-X"], ["B-X", "E-X", "B-X", "E-X"], (1, 1, 1), (2, 2, 2)),
    # Different segmentations read as the same (0, 3) chunk by conlleval, so it counts a hit.
    (["E-X", "B-X", "E-X"], ["S-X", "B-X", "E-X"], (1, 1, 1), (2, 2, 2)),
    (["S-X", "S-X", "E-X"], ["S-X", "B-X", "E-X"], (1, 1, 1), (1, 2, 3)),
    # Types still split chunks for conlleval.
    (["S-X", "S-Y"], ["S-X", "S-Y"], (2, 2, 2), (2, 2, 2)),
]


@pytest.mark.parametrize("gold,pred,conll,iobes", EDGE_CASES)
def test_conlleval_vs_iobes_edge_cases(gold, pred, conll, iobes):
    for scheme, (tp, n_pred, n_gold) in (("conlleval", conll), ("iobes", iobes)):
        o = score_tags([gold], [pred], scheme=scheme).counts.overall
        assert (o.tp, o.n_pred, o.n_gold) == (tp, n_pred, n_gold), scheme


def test_counts_arithmetic_and_dicts():
    a = ChunkCounts({"PER": Tally(3, 1, 2), "LOC": (1, 0, 0)})
    b = ChunkCounts({"ORG": (0, 2, 1)})
    s = sum([a, b])
    assert s.to_dict() == {
        "overall": {"tp": 4, "fp": 3, "fn": 3},
        "types": {"LOC": {"tp": 1, "fp": 0, "fn": 0}, "ORG": {"tp": 0, "fp": 2, "fn": 1},
                  "PER": {"tp": 3, "fp": 1, "fn": 2}},
    }
    assert list(s.to_dict()["types"]) == ["LOC", "ORG", "PER"]
    assert ChunkCounts.from_dict(s.to_dict()) == s
    assert s.precision == 4 / 7 and s.recall == 4 / 7 and s.f1 == 8 / 14
    assert s.macro_precision == pytest.approx((1 + 0 + 0.75) / 3)
    assert s.macro_recall == pytest.approx((1 + 0 + 0.6) / 3)
    assert ChunkCounts().f1 == 0.0 and Tally().precision == 0.0
    with pytest.raises(InputError, match="not the sum"):
        ChunkCounts.from_dict({"overall": {"tp": 1, "fp": 0, "fn": 0}, "types": {"X": {"tp": 2, "fp": 0, "fn": 0}}})
    with pytest.raises(InputError, match="counts.overall.fp must be a non-negative integer, got 0.5"):
        ChunkCounts.from_dict({"overall": {"tp": 1, "fp": 0.5, "fn": 0}})
    # whole floats are counts, as in `textbcv test`
    assert ChunkCounts.from_dict({"overall": {"tp": 1, "fp": 2.0, "fn": 3}}).overall == Tally(1, 2, 3)
    only_overall = ChunkCounts.from_dict({"overall": {"tp": 1, "fp": 2, "fn": 3}})
    assert (only_overall + only_overall).overall == Tally(2, 4, 6)


def test_macro_average_equals_seqeval():
    from seqeval.metrics import classification_report

    rng = random.Random(7)
    gold, pred = [], []
    for _ in range(30):
        g, p = random_file(rng, "iob2")
        gold += g
        pred += p
    rep = classification_report(gold, pred, output_dict=True)
    c = score_tags(gold, pred).counts
    assert c.macro_precision == pytest.approx(rep["macro avg"]["precision"])
    assert c.macro_recall == pytest.approx(rep["macro avg"]["recall"])
    assert c.macro_f1 == pytest.approx(rep["macro avg"]["f1-score"])
    assert c.f1 == pytest.approx(rep["micro avg"]["f1-score"])


def test_mismatched_lengths_are_input_errors():
    with pytest.raises(InputError, match="sentence 1: 2 gold tags but 1 predicted"):
        score_tags([["O"], ["O", "O"]], [["O"], ["O"]])
    with pytest.raises(InputError, match="different numbers of sentences"):
        score_tags([["O"]], [])
    with pytest.raises(InputError, match="sentence 1, position 0: tag 'Q-X'"):
        score_tags([["O"], ["Q-X"]], [["O"], ["O"]], scheme="iob2")


def test_lexicon_recall_hand_example():
    toks = [list("我们爱北京天安门"), list("他说")]
    gold = [[(0, 2, ""), (2, 3, ""), (3, 5, ""), (5, 8, "")], [(0, 1, ""), (1, 2, "")]]
    pred = [[(0, 2, ""), (2, 3, ""), (3, 4, ""), (4, 5, ""), (5, 8, "")], [(0, 2, "")]]
    lex = {"我们", "爱", "北京", "他"}
    lc = count_lexicon(gold, pred, toks, lex)
    # IV gold words: 我们 (hit), 爱 (hit), 北京 (missed), 他 (missed); OOV: 天安门 (hit), 说 (missed)
    assert lc == LexiconCounts(iv_words=4, iv_correct=2, oov_words=2, oov_correct=1)
    assert (lc + lc).iv_recall == 0.5 and lc.oov_recall == 0.5 and lc.oov_rate == pytest.approx(1 / 3)


@pytest.mark.shared
def test_pku_oov_rate_is_the_published_one(shared):
    gold = shared("sighan2005_cws", "pku_test_gold.utf8").read_text(encoding="utf-8").split("\n")
    lex = set(shared("sighan2005_cws", "pku_training_words.utf8").read_text(encoding="utf-8").split())
    toks, chunks = [], []
    for line in gold:
        words = line.split()
        if not words:
            continue
        toks.append(list("".join(words)))
        cs, i = [], 0
        for w in words:
            cs.append((i, i + len(w), ""))
            i += len(w)
        chunks.append(cs)
    lc = count_lexicon(chunks, chunks, toks, lex)
    assert lc.iv_words + lc.oov_words == 104372
    assert round(lc.oov_rate, 3) == 0.058  # SIGHAN 2005 PKU test OOV rate (Emerson 2005, table 1)
    assert lc.iv_recall == lc.oov_recall == 1.0
