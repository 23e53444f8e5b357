"""Hypothesis invariants beyond the fixed-alphabet tests of test_schemes_codec.py and test_split_bcv.py.

Schemes, on *arbitrary* tag strings (any type text, unicode, ``-`` inside
types, foreign prefixes): conlleval decoding never raises; lenient decoding
with a scheme raises only InputError, and only for a prefix the scheme does
not have; chunks lie within bounds, in order, without overlap, with the
types of their tags; :func:`convert` repairs any sequence into a valid one
with the same chunks and round-trips valid sequences.

Splitter, on random small inputs with groups, category measures and every
method (:func:`textbcv.split.split_units`) and on random small corpora with
documents and duplicate sentences (:func:`textbcv.split.make_splits`): every
split is a partition into sorted halves, groups (documents, duplicates) never
straddle two halves, BCV split sets are nested prefixes of larger ones, and a
manifest survives save/load.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from textbcv.corpus.model import Corpus, Sentence
from textbcv.errors import InputError
from textbcv.schemes import SCHEMES, conlleval_split, convert, decode, is_valid, split_tag
from textbcv.scoring import score_tags
from textbcv.split import load_splits, make_splits, max_m, split_units

#: TEXTBCV_SLOW=1 (as for the slow tests: ``TEXTBCV_SLOW=1 scripts/test``) fuzzes with 20 times more examples.
DEEP = 20 if os.environ.get("TEXTBCV_SLOW") == "1" else 1
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

TYPES = st.one_of(st.sampled_from(["", "PER", "LOC", "A-B", "-", "0", "地名", "x y"]), st.text(max_size=4))
ANY_PREFIX = st.sampled_from(["B", "I", "E", "S", "L", "U", "M", "B2", "B3", "O", "[", "]", ".", "", "X", "b"])


@st.composite
def tag(draw, prefixes=ANY_PREFIX):
    p = draw(prefixes)
    t = draw(TYPES)
    return p if draw(st.booleans()) and not t else f"{p}-{t}"


ARBITRARY_TAGS = st.lists(st.one_of(tag(), st.text(max_size=5)), max_size=30)


def check_chunks(chunks, tags, type_of) -> None:
    """Within bounds, sorted, non-overlapping, and each chunk's type is the type of its first tag."""
    n = len(tags)
    for a, b, t in chunks:
        assert 0 <= a < b <= n
        assert t == type_of(tags[a])
    assert all(c1[1] <= c2[0] for c1, c2 in zip(chunks, chunks[1:]))


# ----------------------------------------------------------------------------- schemes

@settings(max_examples=300 * DEEP, **SETTINGS)
@given(tags=ARBITRARY_TAGS)
def test_conlleval_decoding_never_raises(tags):
    chunks = decode(tags, "conlleval")
    check_chunks(chunks, tags, lambda t: conlleval_split(t)[1])
    counts = score_tags([tags], [tags]).counts.overall
    assert counts.tp + counts.fn == counts.tp + counts.fp == len(chunks)
    if all(t == "O" or conlleval_split(t)[0] in ("B", "I", "E") for t in tags):
        # identical gold and prediction in conlleval's own prefixes: every chunk correct. (Not with other
        # prefixes: after ['B-', 'B-', '[-'] or ['B-', 'B-', 'S-', 'O-', 'B-'] conlleval.pl 2004-01-26 itself
        # counts 2 of 3 chunks correct, and so does score_tags.)
        assert counts.fp == counts.fn == 0


@pytest.mark.parametrize("scheme", list(SCHEMES))
@settings(max_examples=120 * DEEP, **SETTINGS)
@given(tags=ARBITRARY_TAGS)
def test_lenient_decoding_raises_only_for_foreign_prefixes(scheme, tags):
    sch = SCHEMES[scheme]
    foreign = [i for i, t in enumerate(tags) if t != "O" and split_tag(t)[0] not in sch.prefixes]
    if foreign:
        with pytest.raises(InputError, match=rf"^position {foreign[0]}: tag "):
            decode(tags, scheme)
        return
    chunks = decode(tags, scheme)
    check_chunks(chunks, tags, lambda t: split_tag(t)[1])
    covered = [i for a, b, _ in chunks for i in range(a, b)]
    assert covered == [i for i, t in enumerate(tags) if t != "O"]
    for a, b, t in chunks:  # a chunk never mixes types
        assert all(split_tag(x)[1] == t for x in tags[a:b])


@st.composite
def scheme_tags(draw):
    """A scheme and a (usually invalid) sequence of its own prefixes with arbitrary types."""
    src = draw(st.sampled_from(list(SCHEMES)))
    prefixes = st.sampled_from(sorted(SCHEMES[src].prefixes) + ["O"])
    types = st.sampled_from(draw(st.lists(TYPES, min_size=1, max_size=3)))
    seq = []
    for _ in range(draw(st.integers(0, 25))):
        p = draw(prefixes)
        t = draw(types)
        seq.append("O" if p == "O" else (f"{p}-{t}" if t else p))
    return src, seq


@settings(max_examples=300 * DEEP, **SETTINGS)
@given(data=scheme_tags(), dst=st.sampled_from(list(SCHEMES)))
def test_convert_repairs_and_round_trips(data, dst):
    src, tags = data
    chunks = decode(tags, src)
    out = convert(tags, src, dst)
    assert len(out) == len(tags)
    assert is_valid(out, dst)  # lenient input, canonical output
    assert decode(out, dst, strict=True) == chunks
    back = convert(out, dst, src)
    assert is_valid(back, src) and decode(back, src) == chunks
    if is_valid(tags, src):
        assert back == tags  # valid sequences round-trip exactly


# ----------------------------------------------------------------------------- splitter

def check_partition(s, n: int, groups=None) -> None:
    assert s.n == n
    for t, v in s.splits:
        assert np.all(np.diff(t) > 0) and np.all(np.diff(v) > 0)  # sorted, no repeats
        assert len(np.intersect1d(t, v)) == 0
        assert np.array_equal(np.union1d(t, v), np.arange(n))
        if groups is not None:
            assert len(np.intersect1d(groups[t], groups[v])) == 0


@st.composite
def units(draw):
    n = draw(st.integers(4, 120))
    groups = None
    if draw(st.booleans()):
        groups = np.array(draw(st.lists(st.integers(0, max(4, n // 2)), min_size=n, max_size=n)))
    measures = {}
    for name in draw(st.sets(st.sampled_from(["label", "length"]), max_size=2)):
        J = draw(st.integers(1, 6))
        cats = draw(st.lists(st.integers(0, J - 1), min_size=n, max_size=n))
        counts = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
        measures[name] = sp.csr_matrix((counts, (np.arange(n), cats)), shape=(n, J))
    return n, groups, measures


@settings(max_examples=60 * DEEP, **SETTINGS)
@given(data=units(), m=st.sampled_from([1, 2, 3, 5, 7]),
       method=st.sampled_from(["bcv", "bcv-select", "random", "brhs"]), seed=st.integers(0, 2**32))
def test_split_units_partitions_and_groups(data, m, method, seed):
    n, groups, measures = data
    kw = dict(method=method, measures=measures, groups=groups, seed=seed, select=4)
    try:
        s = split_units(n, m, **kw)
    except InputError as e:  # too few units or groups for this m and method: said, never a crash
        assert str(e)
        return
    check_partition(s, n, groups)
    assert len(s.splits) == (2 * m if method == "brhs" else m)
    again = split_units(n, m, **kw)
    assert again.dumps() == s.dumps()  # same inputs and seed: the same manifest


def test_odd_number_of_balanced_blocks():
    """Regression: balance.polish left the unpaired block of an odd number of blocks without a partner."""
    from textbcv.split.balance import DEFAULT_WEIGHTS, objective
    from textbcv.split.designs import near_equal_blocks

    n = 30
    label = sp.csr_matrix((np.ones(n), (np.arange(n), np.arange(n) % 2)), shape=(n, 2))
    X, W = objective({"label": label}, DEFAULT_WEIGHTS)
    blocks = near_equal_blocks(np.ones(n, dtype=np.int64), 3, np.random.default_rng(0), X=X, W=W)
    assert sorted(np.bincount(blocks).tolist()) == [10, 10, 10]


@settings(max_examples=25 * DEEP, **SETTINGS)
@given(data=units(), seed=st.integers(0, 2**32), method=st.sampled_from(["bcv", "bcv-select"]))
def test_bcv_split_sets_are_nested_with_groups_and_measures(data, seed, method):
    n, groups, measures = data
    n_items = n if groups is None else len(np.unique(groups))
    assume(n_items >= 4 and max_m(n_items) >= 3)
    kw = dict(method=method, measures=measures, groups=groups, seed=seed, select=3)
    big = split_units(n, 3, **kw)
    as_lists = lambda s: [(a.tolist(), b.tolist()) for a, b in s.splits]  # noqa: E731
    small = split_units(n, 1, **kw)
    assert as_lists(small.extend(3)) == as_lists(small.extend(3))
    assert as_lists(small.extend(3))[:1] == as_lists(small)
    if method == "bcv":  # (bcv-select picks its draw for the m asked, so only its extend() is nested)
        assert as_lists(small) == as_lists(big)[:1]
        assert as_lists(small.extend(3)) == as_lists(big)


@st.composite
def corpora(draw):
    """Small corpora with several documents and exact duplicate sentences."""
    vocab = ["a", "b", "c"]
    n = draw(st.integers(4, 60))
    sentences, doc = [], 0
    for i in range(n):
        if i and draw(st.integers(0, 4)) == 0:
            doc += 1
        toks = tuple(draw(st.lists(st.sampled_from(vocab), min_size=1, max_size=3)))
        tags = tuple(draw(st.sampled_from(["O", "B-PER", "B-LOC"])) for _ in toks)
        sentences.append(Sentence(toks, tags, "iob2", lemmas=toks, document=doc, source="x", line=i + 1))
    return Corpus(sentences, ["x"], "conll", "iob2")


@settings(max_examples=20 * DEEP, **SETTINGS)
@given(corpus=corpora(), group_by=st.sampled_from(["sentence", "document"]), together=st.booleans(),
       balance=st.sampled_from(["label,lemma,length", "none", "length"]), seed=st.integers(0, 1000))
def test_make_splits_keeps_documents_and_duplicates_together(tmp_path_factory, corpus, group_by, together, balance,
                                                             seed):
    kw = dict(balance=balance, group_by=group_by, seed=seed, duplicates_together=together)
    try:
        s = make_splits(corpus, m=3, **kw)
    except InputError as e:
        assert "at least 4" in str(e) or "impossible" in str(e), str(e)
        return
    n = len(corpus)
    if group_by == "document":
        check_partition(s, n, np.array(corpus.document_ids))
    elif together:
        keys = {}
        check_partition(s, n, np.array([keys.setdefault(x.key(), len(keys)) for x in corpus]))
    else:
        check_partition(s, n)
    # nested: the 1-split set is the first split of the 3-split set
    one = make_splits(corpus, m=1, **kw)
    assert [x.tolist() for x in one.splits[0]] == [x.tolist() for x in s.splits[0]]
    path = tmp_path_factory.mktemp("splits") / "splits.json"
    s.save(path)
    loaded = load_splits(path)
    assert loaded.n == n and all(np.array_equal(a, c) and np.array_equal(b, d)
                                 for (a, b), (c, d) in zip(loaded.splits, s.splits))
