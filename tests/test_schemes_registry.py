"""A scheme registered here, and no other file edited: listed, read, detected, converted, scored and trained.

BMEWO (typed, with a prefix ``W`` no built-in scheme has) and BB2MES (a 5-tag segmentation scheme) are
registered for this module only and removed afterwards.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import textbcv
from tests.test_schemes_codec import chunk_sets, tilings
from tests.test_tagging import halvings
from textbcv.cli import build_parser, main
from textbcv.corpus import read_conll, read_corpus, read_segmented
from textbcv.corpus.conll import lower_case_tag
from textbcv.corpus.sniff import sniff_format
from textbcv.corpus.transform import prepare_corpus
from textbcv.errors import InputError
from textbcv.schemes import (
    SCHEMES,
    Scheme,
    convert,
    decode,
    detect,
    encode,
    get_scheme,
    is_valid,
    register_scheme,
    scheme_names,
)
from textbcv.tagging import make_payload, parse_system, run_folds

BMEWO = Scheme("bmewo", "W", ("B",), "M", "E", aliases=("bmewo-ner",), description="B-egin, M-iddle, E-nd, W-hole")
BB2MES = Scheme("bb2mes", "S", ("B", "B2"), "M", "E", untyped=True,
                description="word segmentation: 1st, 2nd character B, B2; later inner M; last E; single S")


@pytest.fixture(scope="module", autouse=True)
def registered():
    added = []
    try:
        for s in (BMEWO, BB2MES):
            added.append(register_scheme(s))
        yield
    finally:
        for s in added:
            del SCHEMES[s.name]


def test_listed_in_names_and_help_texts():
    assert scheme_names()[-2:] == ["bmewo", "bb2mes"]
    assert get_scheme("BMEWO-NER") is BMEWO and get_scheme("bb2mes") is BB2MES
    parser = build_parser(["compare", "score"])
    sub = next(a for a in parser._actions if a.dest == "command")
    compare_help = " ".join(sub.choices["compare"].format_help().split())
    assert "bilou, bmes, bb2b3mes, bmewo, bb2mes), optionally +TEMPLATE" in compare_help
    assert "bb2mes, conlleval (default" in " ".join(sub.choices["score"].format_help().split())


def test_detected_by_the_rule_on_its_fields():
    assert detect(["B-PER", "M-PER", "E-PER", "O", "W-LOC"]) == "bmewo"
    assert detect([["W-PER"], ["B-LOC", "E-LOC"]]) == "bmewo"  # W is BMEWO's alone
    assert detect(["B", "B2", "M", "E", "S"]) == "bb2mes"
    # fewer prefixes first: what BMES explains stays BMES, BB2B3MES keeps its B3, IOBES its typed tags
    assert detect(["B", "E", "S"]) == "bmes"
    assert detect(["B", "B2", "B3", "M", "E"]) == "bb2b3mes"
    assert detect(["B-X", "E-X", "S-X"]) == "iobes"
    with pytest.raises(InputError, match="no tagging scheme uses the prefixes"):
        detect(["W-X", "S-X"])


def test_read_from_a_column_file_with_its_orphans_noted(tmp_path, capsys):
    p = tmp_path / "bmewo.txt"
    p.write_text("EU W-ORG\nrejects O\nGerman W-MISC\ncall O\n\nPeter B-PER\nBlackburn E-PER\n\n"
                 "the O\nNew M-LOC\nYork E-LOC\n", encoding="utf-8")
    assert sniff_format(p).reason == "2 columns, tags in the last"  # W- is a tag now
    c = read_corpus([p])
    assert (c.format, c.scheme) == ("conll", "bmewo")
    assert [s.chunks for s in c] == [((0, 1, "ORG"), (2, 3, "MISC")), ((0, 2, "PER"),), ((1, 3, "LOC"),)]
    assert "1 chunk starts with M-, which never starts a chunk in BMEWO" in capsys.readouterr().err
    assert read_conll(p, scheme="BMEWO").scheme == "bmewo"
    assert "lower-case prefix" in lower_case_tag("w-ORG")


@pytest.mark.parametrize("new", ["bmewo", "bb2mes"])
@settings(max_examples=40, deadline=None)
@given(data=chunk_sets())
def test_converted_to_and_from_every_scheme(new, data):
    n, chunks = data
    tags = encode(chunks, n, new)
    assert decode(tags, new, strict=True) == chunks and is_valid(tags, new)
    for other in scheme_names():
        there = convert(tags, new, other)
        assert decode(there, other) == chunks
        assert convert(there, other, new) == tags
    assert detect(tags) in SCHEMES


@settings(max_examples=40, deadline=None)
@given(data=tilings())
def test_segmentation_tilings_round_trip(data):
    n, words = data
    tags = encode(words, n, "bb2mes")
    assert "O" not in tags and decode(tags, "bb2mes", strict=True) == words
    if any(e - s == 3 for s, e, _ in words) and not any(e - s > 3 for s, e, _ in words):
        assert detect(tags) == "bb2mes"  # a 3-character word written B B2 E: BMES would write B M E


def _entities_iobes(seqs):
    """Chunks by seqeval's strict IOBES reading, BMEWO's W- and M- relabelled as S- and I- (an independent decoder)."""
    from seqeval.scheme import IOBES, Entities

    relabel = [[{"W": "S", "M": "I"}.get(t[0], t[0]) + t[1:] for t in s] for s in seqs]
    return {(e.sent_id, e.start, e.end, e.tag) for sent in Entities(relabel, IOBES).entities for e in sent}


@settings(max_examples=25, deadline=None)
@given(gold=st.lists(chunk_sets(), min_size=1, max_size=4), pred=st.lists(chunk_sets(), min_size=1, max_size=4))
def test_scored_as_seqeval_scores_its_iobes_twin(gold, pred):
    pairs = list(zip(gold, pred))
    g = [encode(cg, n, "bmewo") for (n, cg), _ in pairs]
    p = [encode([c for c in cp if c[1] <= n], n, "bmewo") for (n, _), (_, cp) in pairs]
    ref_g, ref_p = _entities_iobes(g), _entities_iobes(p)
    o = textbcv.score(g, p, scheme="bmewo").counts.overall
    assert (o.tp, o.fp, o.fn) == (len(ref_g & ref_p), len(ref_p - ref_g), len(ref_g - ref_p))


def test_scored_by_the_command_line(tmp_path):
    p = tmp_path / "pred.txt"
    p.write_text("Peter B-PER B-PER\nBlackburn E-PER E-PER\nin O O\nParis W-LOC O\n\nEU W-ORG W-MISC\n",
                 encoding="utf-8")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["score", str(p), "--scheme", "bmewo", "--json"]) == 0
    o = json.loads(buf.getvalue())["overall"]
    assert (o["tp"], o["fp"], o["fn"]) == (1, 1, 2)


def test_untyped_scheme_is_segmentation(tmp_path):
    p = tmp_path / "words.conll"
    p.write_text("中 B\n华 B2\n人 M\n民 E\n了 S\n\n我 S\n们 S\n", encoding="utf-8")
    c = read_conll(p)
    assert c.scheme == "bb2mes"
    assert prepare_corpus(c, "cws") is c  # already characters and words: not split into characters again
    assert [s.words for s in c] == [("中华人民", "了"), ("我", "们")]


def test_a_crf_system_of_each(tmp_path):
    p = tmp_path / "s.txt"
    p.write_text("中国  人民  站起来  了\n我们  的  祖国  繁荣昌盛\n" * 20, encoding="utf-8")
    c = read_segmented(p)
    systems = [parse_system(name, task="cws", max_iterations=20) for name in ("bmes", "bb2mes")]
    gold = [s.chunks for s in c]
    assert encode(gold[1], len(c[1]), "bb2mes") == ["B", "E", "S", "B", "E", "B", "B2", "M", "E"]
    st_ = run_folds(make_payload(c.sentences, gold, systems), halvings(len(c), 1), systems, tmp_path / "f.jsonl")
    assert sorted(r["system"] for r in st_.ordered()) == ["bb2mes", "bb2mes", "bmes", "bmes"]
    for r in st_.ordered():
        assert r["counts"]["overall"]["fp"] == r["counts"]["overall"]["fn"] == 0  # repeated sentences: learnt exactly


def test_compared_with_a_builtin_scheme():
    ner = read_corpus([textbcv.bundled_corpora()["ner"]])
    r = textbcv.compare(ner.subset(range(200)), ["iob2", "bmewo"], m=2, max_iterations=3, progress=False)
    assert list(r.report.systems) == ["iob2", "bmewo"]
    assert [f["system"] for f in r.folds].count("bmewo") == 4
    assert "bmewo" in r.markdown()


@pytest.mark.parametrize("scheme,message", [
    (BMEWO, "'bmewo' is taken"),
    (Scheme("iob3", "B", ("B",), "I", "I", aliases=("bio",)), "'bio' is taken"),
    (Scheme("conlleval", "B", ("B",), "I", "I"), "'conlleval' is taken"),
    (Scheme("IOB3", "B", ("B",), "I", "I"), "'IOB3' is empty or not lower-case"),
    (Scheme("iob3", "O", ("B",), "I", "I"), "prefix 'O' is O, empty or holds '-'"),
    (Scheme("iob3", "S", ("B-",), "I", "I"), "prefix 'B-' is O"),
])
def test_refused_when_it_would_clash(scheme, message):
    before = dict(SCHEMES)
    with pytest.raises(InputError, match=message):
        register_scheme(scheme)
    assert SCHEMES == before


def test_removed_is_gone():
    register_scheme(Scheme("iob3", "B", ("B",), "I", "I"))
    assert get_scheme("iob3").name == "iob3"
    del SCHEMES["iob3"]
    with pytest.raises(InputError, match="unknown tagging scheme 'iob3'"):
        get_scheme("iob3")
    assert "iob3" not in scheme_names()
