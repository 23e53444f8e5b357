"""Tagging schemes: encode/decode round trips, strict and lenient decoding, conlleval rules, detect."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.corpus.model import Sentence
from textbcv.errors import InputError
from textbcv.schemes import (
    SCHEMES,
    convert,
    decode,
    detect,
    encode,
    get_scheme,
    is_valid,
    scheme_names,
)

TYPED = scheme_names()  # every scheme also writes typed chunks (BMES as B-X, M-X, E-X, S-X)


@st.composite
def chunk_sets(draw, types=("PER", "LOC", "ORG", "MISC-X")):
    """A sentence length and non-overlapping typed chunks (adjacent same-type chunks included)."""
    n = draw(st.integers(0, 30))
    chunks = []
    i = 0
    while i < n:
        gap = draw(st.integers(0, 3))
        i += gap
        if i >= n:
            break
        length = draw(st.integers(1, min(7, n - i)))
        chunks.append((i, i + length, draw(st.sampled_from(types))))
        i += length
    return n, chunks


@st.composite
def tilings(draw):
    """Words tiling a sentence of characters (segmentation)."""
    lengths = draw(st.lists(st.integers(1, 9), max_size=20))
    chunks, i = [], 0
    for k in lengths:
        chunks.append((i, i + k, ""))
        i += k
    return i, chunks


@pytest.mark.parametrize("scheme", TYPED)
@settings(max_examples=80, deadline=None)
@given(data=chunk_sets())
def test_decode_encode_round_trip_typed(scheme, data):
    n, chunks = data
    tags = encode(chunks, n, scheme)
    assert len(tags) == n
    assert decode(tags, scheme) == chunks
    assert decode(tags, scheme, strict=True) == chunks
    assert detect(tags) in SCHEMES  # some scheme always fits its own output


@pytest.mark.parametrize("scheme", scheme_names())
@settings(max_examples=80, deadline=None)
@given(data=tilings())
def test_decode_encode_round_trip_untyped_tilings(scheme, data):
    n, chunks = data
    tags = encode(chunks, n, scheme)
    assert "O" not in tags
    assert decode(tags, scheme, strict=True) == chunks


@pytest.mark.parametrize("src", TYPED)
@pytest.mark.parametrize("dst", TYPED)
@settings(max_examples=12, deadline=None)
@given(data=chunk_sets())
def test_convert_keeps_chunks(src, dst, data):
    n, chunks = data
    assert decode(convert(encode(chunks, n, src), src, dst), dst) == chunks


ANY_TAG = st.sampled_from(["O", "B-X", "I-X", "E-X", "S-X", "B-Y", "I-Y", "E-Y", "S-Y", "L-X", "U-X", "M-X"])


@settings(max_examples=300, deadline=None)
@given(tags=st.lists(ANY_TAG, max_size=25))
def test_lenient_decoding_is_a_partition_and_strict_accepts_only_canonical(tags):
    for name, sch in SCHEMES.items():
        if not all(t == "O" or t.split("-")[0] in sch.prefixes for t in tags):
            with pytest.raises(InputError, match=r"position \d+: tag"):
                decode(tags, name)
            continue
        chunks = decode(tags, name)
        covered = [i for s, e, _ in chunks for i in range(s, e)]
        assert covered == [i for i, t in enumerate(tags) if t != "O"]  # every non-O token, once, in order
        canonical = encode(chunks, len(tags), name)
        assert decode(canonical, name) == chunks
        assert is_valid(tags, name) == (canonical == tags)


@settings(max_examples=300, deadline=None)
@given(tags=st.lists(st.sampled_from(["O", "B-X", "I-X", "B-Y", "I-Y", "I-Z-W", "B-Z-W"]), max_size=25))
def test_iob_decoding_equals_seqeval_and_conlleval(tags):
    from seqeval.metrics.sequence_labeling import get_entities

    ref = sorted((s, e + 1, t) for t, s, e in get_entities(list(tags)))
    assert decode(tags, "iob1") == ref
    assert decode(tags, "iob2") == ref
    assert decode(tags, "conlleval") == ref


# (tags, scheme for the correct reading, chunks for that scheme, chunks for conlleval.pl)
CONLLEVAL_DIFFERS = [
    (["S-X", "S-X"], "iobes", [(0, 1, "X"), (1, 2, "X")], [(0, 2, "X")]),
    (["E-X", "B-X"], "iobes", [(0, 1, "X"), (1, 2, "X")], [(0, 2, "X")]),
    (["B-X", "E-X", "S-X"], "iobes", [(0, 2, "X"), (2, 3, "X")], [(0, 3, "X")]),
    (["S-X", "B-X", "I-X", "E-X"], "iobes", [(0, 1, "X"), (1, 4, "X")], [(0, 4, "X")]),
    (["S-X", "E-X"], "iobes", [(0, 1, "X"), (1, 2, "X")], [(0, 2, "X")]),
    (["U-X", "U-X", "B-X", "L-X"], "bilou", [(0, 1, "X"), (1, 2, "X"), (2, 4, "X")], [(0, 4, "X")]),
    (["B", "E", "S"], "bmes", [(0, 2, ""), (2, 3, "")], [(0, 3, "")]),
    (["S", "S"], "bmes", [(0, 1, ""), (1, 2, "")], []),  # an untyped S never starts a conlleval chunk
    (["B", "B2", "E", "S"], "bb2b3mes", [(0, 3, ""), (3, 4, "")], [(0, 4, "")]),
]
# ... and sequences both read the same way (conlleval's lenient repairs).
CONLLEVAL_AGREES = [
    (["O", "I-X", "I-X"], "iob2", [(1, 3, "X")]),
    (["B-X", "I-Y"], "iob2", [(0, 1, "X"), (1, 2, "Y")]),
    (["I-X", "B-X", "I-X"], "iob1", [(0, 1, "X"), (1, 3, "X")]),
    (["E-X", "I-X"], "iobes", [(0, 1, "X"), (1, 2, "X")]),
    (["I-X", "E-X", "E-X"], "ioe2", [(0, 2, "X"), (2, 3, "X")]),
    (["B-X", "I-X", "E-X", "O", "S-Y"], "iobes", [(0, 3, "X"), (4, 5, "Y")]),
]


@pytest.mark.parametrize("tags,scheme,ours,conll", CONLLEVAL_DIFFERS)
def test_conlleval_differs_table(tags, scheme, ours, conll):
    assert decode(tags, scheme) == ours
    assert decode(tags, "conlleval") == conll


@pytest.mark.parametrize("tags,scheme,chunks", CONLLEVAL_AGREES)
def test_conlleval_agrees_table(tags, scheme, chunks):
    assert decode(tags, scheme) == chunks
    assert decode(tags, "conlleval") == chunks


@pytest.mark.parametrize(
    "tags,scheme,message",
    [
        (["B-X", "O", "I-X"], "iob2", r"^position 2: tag 'I-X' is not valid IOB2 here \(expected 'B-X'\)$"),
        (["O", "B-X"], "iob1", r"^position 1: tag 'B-X' .*expected 'I-X'"),
        (["B-X", "O"], "iobes", r"^position 0: tag 'B-X' .*expected 'S-X'"),
        (["B", "M", "E"], "bb2b3mes", r"^position 1: tag 'M' .*expected 'B2'"),
        (["I-X", "I-X"], "ioe2", r"^position 1: tag 'I-X' .*expected 'E-X'"),
        (["E-X", "O"], "ioe1", r"^position 0: tag 'E-X' .*expected 'I-X'"),
    ],
)
def test_strict_decoding_names_position_and_tag(tags, scheme, message):
    with pytest.raises(InputError, match=message):
        decode(tags, scheme, strict=True)
    decode(tags, scheme)  # lenient decoding repairs it


def test_unknown_prefix_and_scheme():
    with pytest.raises(InputError, match=r"position 1: tag 'S-X' is not a tag of IOB2"):
        decode(["O", "S-X"], "iob2")
    with pytest.raises(InputError, match="unknown tagging scheme 'iob3'"):
        decode(["O"], "iob3")
    with pytest.raises(InputError, match="overlaps"):
        encode([(0, 2, "X"), (1, 3, "X")], 3, "iob2")


def test_names_and_aliases():
    assert get_scheme("BIOES") is get_scheme("iobes") is SCHEMES["iobes"]
    assert decode(["S-X"], "bioes") == [(0, 1, "X")]
    assert encode([(0, 1, "ORG"), (1, 3, "ORG")], 3, "bmes") == ["S-ORG", "B-ORG", "E-ORG"]
    assert encode([(0, 7, "")], 7, "bb2b3mes") == ["B", "B2", "B3", "M", "M", "M", "E"]


@pytest.mark.parametrize(
    "tags,expected",
    [
        (["I-PER", "O", "I-LOC", "B-LOC"], "iob1"),
        ([["B-PER", "I-PER"], ["O", "B-LOC"]], "iob2"),
        (["I-X", "E-X", "O", "E-Y"], "ioe2"),
        (["I-X", "E-X", "I-X"], "ioe1"),
        (["B-PER", "I-PER", "E-PER", "S-LOC"], "iobes"),
        (["B-PER", "L-PER", "U-LOC"], "bilou"),
        (["B", "M", "E", "S"], "bmes"),
        (["B-ORG", "M-ORG", "E-ORG", "O"], "bmes"),
        (["B", "E", "S"], "bmes"),
        (["B", "B2", "B3", "M", "E", "S"], "bb2b3mes"),
        ([["O"], ["O", "O"]], "iob2"),
        (["O", "I-X", "O", "B-X"], "iob1"),  # mixed IOB1/IOB2 use, tie: iob1
        (["I-X", "O", "B-Y", "O", "I-Y", "O", "I-X", "B-X"], "iob1"),  # mostly IOB1 with a slip
        (["B-X", "O", "B-Y", "I-Y", "O", "I-X"], "iob2"),  # mostly IOB2 with a slip
    ],
)
def test_detect(tags, expected):
    assert detect(tags) == expected


def test_detect_raises_when_no_scheme_fits():
    with pytest.raises(InputError, match="no tagging scheme"):
        detect(["B-X", "Q-X"])
    with pytest.raises(InputError, match="no tagging scheme"):
        detect(["B", "B2", "I"])


def read_ner_column(path):
    sents, cur = [], []
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if not f:
            if cur:
                sents.append(cur)
                cur = []
        elif f[0] != "-DOCSTART-":
            cur.append(f[-1])
    if cur:
        sents.append(cur)
    return sents


@pytest.mark.shared
@pytest.mark.parametrize("name,chunks,not_iob1",
                         [("eng.train", 23499, 2), ("eng.testa", 5942, 0), ("eng.testb", 5648, 0)])
def test_conll2003_is_iob1_and_converts_losslessly(shared, name, chunks, not_iob1):
    sents = read_ner_column(shared("conll2003_en", name))
    assert detect(sents) == "iob1"
    # eng.train has two B-MISC right after O (annotation slips), so it is not strictly IOB1
    assert sum(not is_valid(s, "iob1") for s in sents) == not_iob1
    decoded = [decode(s, "iob1") for s in sents]
    assert sum(map(len, decoded)) == chunks
    for scheme in ("iob2", "iobes", "bilou", "ioe1"):
        enc = [encode(c, len(s), scheme) for c, s in zip(decoded, sents)]
        assert detect(enc) == scheme
        assert [decode(e, scheme, strict=True) for e in enc] == decoded


def test_sentence_chunks_use_the_schemes():
    s = Sentence(("EU", "rejects", "German", "call"), ("I-ORG", "O", "I-MISC", "O"), scheme="iob1")
    assert s.chunks == ((0, 1, "ORG"), (2, 3, "MISC"))
    w = Sentence(tuple("我爱北京"), ("S", "S", "B", "E"), scheme="bmes")
    assert w.words == ("我", "爱", "北京")
