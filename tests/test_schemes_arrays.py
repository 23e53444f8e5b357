"""The array forms of the scheme rules equal the sequence forms: detect, strict validity, orphan chunks."""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.errors import InputError
from textbcv.schemes import OUTSIDE, SCHEMES, decode, detect, encode, is_valid, split_tag
from textbcv.schemes.arrays import TagCodes, _valid_pairs, orphan_chunks, tag_pairs, tag_stream

# ------------------------------------------------------ the sequence-by-sequence detect of textbcv 0.1 (reference)

# textbcv 0.1's hand-kept order, frozen: detect's rule on the schemes' fields must give the same answers
_PREFERENCE = ("iob2", "iob1", "ioe2", "ioe1", "iobes", "bilou", "bmes", "bb2b3mes")


def detect_reference(seqs) -> str:
    vocab = {t for s in seqs for t in s} - {OUTSIDE}
    split = [split_tag(t) for t in vocab]
    used = {p for p, _ in split}
    untyped = all(t == "" for _, t in split)
    candidates = [n for n in _PREFERENCE if used <= SCHEMES[n].prefixes]
    if not candidates:
        raise InputError("no scheme")
    if untyped and "bmes" in candidates and "iobes" in candidates:
        candidates.remove("bmes")
        candidates.insert(candidates.index("iobes"), "bmes")
    distinct = Counter(tuple(s) for s in seqs)
    for name in candidates:
        if all(is_valid(s, name) for s in distinct):
            return name
    if used <= {"B", "I"}:
        opens_i = opens_b = 0
        for s, k in distinct.items():
            for start, _, typ in decode(s, "iob1"):
                if split_tag(s[start])[0] == "I":
                    opens_i += k
                elif start == 0 or s[start - 1] == OUTSIDE or split_tag(s[start - 1])[1] != typ:
                    opens_b += k
        return "iob1" if opens_i >= opens_b else "iob2"
    return candidates[0]


@contextlib.contextmanager
def builtin_schemes_only():
    """SCHEMES as textbcv 0.1 had it while the block runs: a scheme added since may rightly change an answer."""
    saved = dict(SCHEMES)
    SCHEMES.clear()
    SCHEMES.update({n: saved[n] for n in saved if n in _PREFERENCE})
    try:
        yield
    finally:
        SCHEMES.clear()
        SCHEMES.update(saved)


PREFIXES = sorted({p for s in SCHEMES.values() for p in s.prefixes})
TAGS = st.one_of(
    st.just("O"),
    st.builds(lambda p, t: f"{p}-{t}" if t else p, st.sampled_from(PREFIXES), st.sampled_from(["", "X", "Y", "X-Z"])),
    st.sampled_from(["B-", "Q-X", "O-X"]),
)
SEQUENCES = st.lists(st.lists(TAGS, max_size=8), min_size=1, max_size=6)


ALPHABET = ["O"] + [f"{p}-{t}" if t else p for p in PREFIXES for t in ("", "X", "Y")]


def test_detect_equals_reference_on_every_short_input():
    """Every sentence of up to two tags, and every two one-tag sentences, over every prefix typed or not."""
    inputs = [[list(s)] for n in range(3) for s in itertools.product(ALPHABET, repeat=n)]
    inputs += [[[a], [b]] for a in ALPHABET for b in ALPHABET]
    answers = Counter()
    with builtin_schemes_only():
        for seqs in inputs:
            try:
                want = detect_reference(seqs)
            except InputError:
                with pytest.raises(InputError):
                    detect(seqs)
                want = None
            else:
                assert detect(seqs) == want, seqs
            answers[want] += 1
    assert set(answers) == set(_PREFERENCE) | {None}  # every scheme is the answer somewhere


def chunks_strategy(n_types=("X", "Y", "")):
    """Random non-overlapping chunks of a sentence of n tokens."""
    @st.composite
    def build(draw):
        n = draw(st.integers(0, 12))
        chunks, i = [], 0
        while i < n:
            if draw(st.booleans()):
                length = draw(st.integers(1, min(6, n - i)))
                chunks.append((i, i + length, draw(st.sampled_from(n_types))))
                i += length
            else:
                i += 1
        return n, chunks
    return build()


@settings(max_examples=400, deadline=None)
@given(seqs=SEQUENCES)
def test_detect_equals_reference(seqs):
    with builtin_schemes_only():
        try:
            want = detect_reference(seqs)
        except InputError:
            with pytest.raises(InputError):
                detect(seqs)
            return
        assert detect(seqs) == want


@settings(max_examples=300, deadline=None)
@given(sents=st.lists(chunks_strategy(), min_size=1, max_size=4), scheme=st.sampled_from(sorted(SCHEMES)),
       noise=st.lists(st.tuples(st.integers(0, 100), TAGS), max_size=3))
def test_valid_pairs_equals_is_valid(sents, scheme, noise):
    """Canonical encodings (valid) and perturbed ones: the array check agrees with is_valid sentence by sentence."""
    seqs = [encode(ch, n, scheme) for n, ch in sents]
    for pos, tag in noise:
        flat = [(i, j) for i, s in enumerate(seqs) for j in range(len(s))]
        if flat:
            i, j = flat[pos % len(flat)]
            seqs[i][j] = tag
    sch = SCHEMES[scheme]
    if any(split_tag(t)[0] not in sch.prefixes for s in seqs for t in s if t != OUTSIDE):
        return  # not tags of this scheme: detect never asks
    codes = TagCodes()
    flat = np.array([codes[t] for s in seqs for t in s], dtype=np.int64)
    stream, _ = tag_stream(flat, [len(s) for s in seqs], 0)
    assert _valid_pairs(tag_pairs(stream, len(codes)), list(codes), sch) == all(is_valid(s, scheme) for s in seqs)


@settings(max_examples=200, deadline=None)
@given(sents=st.lists(chunks_strategy(("X", "Y")), min_size=1, max_size=4),
       scheme=st.sampled_from(["iob2", "iobes", "bilou"]),
       noise=st.lists(st.tuples(st.integers(0, 100), st.sampled_from(["I-X", "I-Y", "E-X", "L-Y", "B-X", "O"])),
                      max_size=3))
def test_orphan_chunks_are_chunks_that_start_badly(sents, scheme, noise):
    """Orphans = lenient chunks whose first tag is not the scheme's start (counted one sentence at a time)."""
    seqs = [encode(ch, n, scheme) for n, ch in sents]
    for pos, tag in noise:
        flat = [(i, j) for i, s in enumerate(seqs) for j in range(len(s))]
        if flat:
            i, j = flat[pos % len(flat)]
            seqs[i][j] = tag
    sch = SCHEMES[scheme]
    if any(split_tag(t)[0] not in sch.prefixes for s in seqs for t in s if t != OUTSIDE):
        return
    starts = {sch.single, sch.heads[0]}
    want = Counter(split_tag(s[a])[0] for s in seqs for a, _, _ in decode(s, scheme)
                   if split_tag(s[a])[0] not in starts)
    codes = TagCodes()
    flat = np.array([codes[t] for s in seqs for t in s], dtype=np.int64)
    stream, _ = tag_stream(flat, [len(s) for s in seqs], 0)
    assert orphan_chunks(stream, list(codes), scheme) == dict(sorted(want.items()))


def test_orphans_none_in_iob1_and_valid_files():
    codes = TagCodes()
    seq = ["I-PER", "I-PER", "O", "I-LOC", "B-LOC"]
    stream, _ = tag_stream(np.array([codes[t] for t in seq]), [5], 0)
    assert orphan_chunks(stream, list(codes), "iob1") == {}
    assert orphan_chunks(stream, list(codes), "iob2") == {"I": 2}
