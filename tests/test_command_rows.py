"""A command system's CoNLL fold files: every token written as it is, or refused when a CoNLL file cannot hold it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.corpus import Sentence
from textbcv.errors import InputError
from textbcv.tagging.command import write_fold_files

#: Characters a token may be drawn from: letters, and white space of several kinds (Unicode's too).
CHARS = st.sampled_from(list("ab中") + [" ", "\t", "\u00a0", "\u3000", "\u2028", "\x1c", "\x85"])
TOKEN = st.text(CHARS, min_size=0, max_size=4)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(TOKEN, min_size=1, max_size=5), min_size=1, max_size=4))
def test_fold_files_hold_the_tokens_or_refuse_one_that_holds_white_space(sentences):
    sents = [Sentence(tuple(toks), ("O",) * len(toks), source="c.conll", line=1 + 10 * i)
             for i, toks in enumerate(sentences)]
    tags = [("O",) * len(toks) for toks in sentences]
    # the reference: a token is refused when it is empty or one of its characters is white space
    bad = [(i, t) for i, toks in enumerate(sentences) for t in toks if not t or any(c.isspace() for c in t)]
    with tempfile.TemporaryDirectory() as tmp:
        if bad:
            with pytest.raises(InputError) as e:
                write_fold_files(tmp, sents, tags, sents)
            assert e.value.line == 1 + 10 * bad[0][0]
            assert repr(bad[0][1]) in e.value.message
            return
        train, _ = write_fold_files(tmp, sents, tags, sents)
        text = Path(train).read_text(encoding="utf-8")
    want = "".join("".join(f"{t} O\n" for t in toks) + "\n" for toks in sentences)
    assert text == want
