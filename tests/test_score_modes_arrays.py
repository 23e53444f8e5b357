"""``score --modes`` in array operations equals decoding and matching every sentence one by one.

:func:`textbcv.scoring.tags.chunk_rows` against :func:`textbcv.schemes.decode` per sentence, and
:func:`textbcv.scoring.modes.row_modes` against :func:`~textbcv.scoring.matching.mode_counts` and
:func:`~textbcv.scoring.matching.anatomy_counts` of the decoded chunks, on files read by the command's reader.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.corpus.conlleval import read_tag_stream
from textbcv.schemes import decode
from textbcv.scoring.matching import anatomy_counts, mode_counts
from textbcv.scoring.modes import row_modes
from textbcv.scoring.tags import chunk_rows

#: Tags per scheme; conlleval's include what its rules treat oddly (``.``, ``[``, ``]``, bare and other prefixes).
TAGS = {
    "conlleval": ["O", "B-X", "I-X", "E-X", "S-X", "B-Y", "I-Y", ".", "[", "]", "B", "I", "S", "E-0", "I-Y-Z"],
    "iob2": ["O", "B-X", "I-X", "B-Y", "I-Y"],
    "iobes": ["O", "B-X", "I-X", "E-X", "S-X", "B-Y", "E-Y", "S-Y"],
}


@st.composite
def files(draw):
    scheme = draw(st.sampled_from(sorted(TAGS)))
    tag = st.sampled_from(TAGS[scheme])
    sentences = draw(st.lists(st.lists(st.tuples(tag, tag), min_size=1, max_size=8), min_size=1, max_size=8))
    return scheme, sentences, draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(files())
def test_array_chunks_and_modes_equal_sentence_by_sentence(case):
    scheme, sentences, final_blank = case
    text = "\n\n".join("\n".join(f"w{i} {g} {p}" for i, (g, p) in enumerate(s)) for s in sentences)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pred.txt"
        path.write_text(text + ("\n\n" if final_blank else "\n"), encoding="utf-8")
        stream = read_tag_stream(path)
    G, P, n = chunk_rows(stream.gold, stream.pred, stream.token, stream.vocab, scheme)
    gold = [decode([g for g, _ in s], scheme) for s in sentences]
    pred = [decode([p for _, p in s], scheme) for s in sentences]
    assert n == len(sentences)

    def spans(rows):
        return [[(a, b) for k, a, b, _ in rows.tolist() if k == i] for i in range(n)]

    assert spans(G) == [[(a, b) for a, b, _ in s] for s in gold]
    assert spans(P) == [[(a, b) for a, b, _ in s] for s in pred]
    # the same type on both sides gets the same id
    names = {}
    for rows, chunks in ((G, gold), (P, pred)):
        for (_, _, _, t), (_, _, name) in zip(rows.tolist(), [c for s in chunks for c in s]):
            assert names.setdefault(name, t) == t
    assert len(set(names.values())) == len(names)
    rows, anatomy = row_modes(G, P, n)
    assert rows.tolist() == mode_counts(gold, pred).sum(axis=0).tolist()
    assert anatomy.tolist() == anatomy_counts(gold, pred).sum(axis=0).tolist()


def test_no_chunk_at_all():
    rows, anatomy = row_modes(np.zeros((0, 4), dtype=np.int64), np.zeros((0, 4), dtype=np.int64), 3)
    assert rows.sum() == 0 and anatomy.sum() == 0
