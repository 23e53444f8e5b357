"""Faithful to the bytes: spaces inside tokens, line ends, byte-order marks, encodings, gzip, orphan chunk starts.

Every case reads a small committed file of tests/data/bytes (made by the
snippet in its README.md) through the library and through the command line.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

import pytest

from textbcv.cli import main
from textbcv.corpus import read_conll, read_conllu, read_corpus, read_segmented
from textbcv.corpus._text import OTHER_SPACES, split_fields
from textbcv.corpus.conlleval import read_conlleval, read_tag_stream
from textbcv.errors import InputError

DATA = Path(__file__).parent / "data" / "bytes"


def cli(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def corpus_view(c):
    return [(s.tokens, s.tags, s.pos, dict(s.columns), s.document, s.line) for s in c]


# ---------------------------------------------------------------- spaces other than ASCII space and TAB


def test_other_spaces_are_every_unicode_space():
    assert set(OTHER_SPACES) == {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()} - set(" \t\n\r")


def test_unicode_spaces_stay_inside_conll_tokens(capsys):
    path = DATA / "unicode_spaces.conll"
    lines = path.read_text(encoding="utf-8").split("\n")
    # the case is real: str.split() would cut these lines differently
    assert [line for line in lines if line.split() != split_fields(line)] == [
        "New\u00a0York B-LOC", "\u3000 O", "10\u2009000 O"]
    c = read_conll(path)
    assert [s.tokens for s in c] == [("Peter", "lives", "in", "New\u00a0York", "."), ("中", "国", "\u3000", "人"),
                                     ("10\u2009000", "fans")]
    assert c[0].chunks == ((0, 1, "PER"), (3, 4, "LOC")) and c[1].chunks == ((0, 2, "ORG"),)
    status, out, _ = cli(capsys, "stats", path, "--json")
    assert status == 0 and json.loads(out)["tokens"] == 11


def test_segmented_words_split_at_ascii_and_ideographic_spaces_only():
    c = read_segmented(DATA / "unicode_spaces.txt")
    assert c[0].words == ("迈向", "充满", "希望", "的", "New\u00a0York")
    assert "\u00a0" in c[0].tokens


def test_conlleval_tokens_keep_unicode_spaces(capsys):
    f = read_conlleval(DATA / "pred_unicode_spaces.txt")
    assert f.sentences[0].tokens == ("New\u00a0York", "\u3000", "中", "国") and f.columns == 3
    status, out, _ = cli(capsys, "score", DATA / "pred_unicode_spaces.txt")
    # (conlleval.pl splits at single ASCII spaces: the same 4 tokens)
    assert status == 0 and out.startswith("processed 4 tokens with 2 phrases; found: 2 phrases; correct: 1.\n")


# ---------------------------------------------------------------- line ends and byte-order marks


@pytest.mark.parametrize("name", ["cr_only.conll", "bom_crlf.conll", "no_final_newline.conll"])
def test_line_ends_and_bom_read_as_lf(name):
    plain = read_conll(DATA / "plain.conll")
    other = read_conll(DATA / name)
    assert corpus_view(other) == corpus_view(plain)
    assert [s.line for s in other] == [3, 8]  # CR-only lines are counted as lines


def test_cr_only_error_names_the_right_line(tmp_path):
    p = tmp_path / "x.conll"
    p.write_bytes(b"a O\rb O\rc O O\r")
    with pytest.raises(InputError, match=r"x.conll:3: expected 2 columns"):
        read_conll(p)


@pytest.mark.parametrize("name", ["pred_cr_only.txt", "pred_bom_crlf.txt"])
def test_score_line_ends_and_bom(capsys, name):
    _, want, _ = cli(capsys, "score", DATA / "pred.txt")
    status, out, err = cli(capsys, "score", DATA / name)
    assert status == 0 and out == want and err == ""
    a, b = read_tag_stream(DATA / "pred.txt"), read_tag_stream(DATA / name)
    assert a.gold.tolist() == b.gold.tolist() and a.token.tolist() == b.token.tolist()


def test_segmented_cr_only(tmp_path):
    p = tmp_path / "cws.txt"
    p.write_bytes("中国  人民\r\r迈向  充满\r".encode())
    c = read_segmented(p)
    assert [s.words for s in c] == [("中国", "人民"), ("迈向", "充满")] and [s.line for s in c] == [1, 3]


# ---------------------------------------------------------------- encodings


def test_latin1_needs_its_encoding(capsys):
    path = DATA / "latin1.conll"
    with pytest.raises(InputError) as e:
        read_conll(path)
    assert str(e.value) == (f"{path}:1: invalid UTF-8: byte 0xfc at byte offset 1; "
                            "if the file is not UTF-8, give its encoding (e.g. --encoding latin-1)")
    c = read_conll(path, encoding="latin-1")
    assert corpus_view(c) == corpus_view(read_conll(DATA / "latin1_as_utf8.conll"))
    assert c[0].tokens[0] == "Müller" and c.encoding == "latin-1"
    status, out, _ = cli(capsys, "stats", path, "--encoding", "latin-1", "--json")
    assert status == 0 and json.loads(out)["chunks"] == {"LOC": 1, "PER": 1}
    status, _, err = cli(capsys, "stats", path, "--encoding", "klingon")
    assert status == 2 and "unknown text encoding 'klingon'" in err


def test_score_latin1(capsys):
    path = DATA / "pred_latin1.txt"
    status, out, err = cli(capsys, "score", path)
    offset = path.read_bytes().index("ö".encode("latin-1"))  # Köln, line 8
    assert status == 2 and out == ""
    assert err == (f"textbcv: error: {path}:8: invalid UTF-8: byte 0xf6 at byte offset {offset}; "
                   "if the file is not UTF-8, give its encoding (e.g. --encoding latin-1)\n")
    _, want, _ = cli(capsys, "score", DATA / "pred.txt")
    status, out, _ = cli(capsys, "score", DATA / "pred_latin1.txt", "--encoding", "latin-1")
    assert status == 0 and out == want


def test_utf8_bom_with_another_encoding_is_refused(tmp_path):
    p = tmp_path / "x.conll"
    p.write_bytes(b"\xef\xbb\xbfa O\n")
    with pytest.raises(InputError, match="UTF-8 byte-order mark, so it is UTF-8, not latin-1"):
        read_conll(p, encoding="latin-1")


def test_invalid_byte_offset_counts_in_later_blocks(tmp_path, monkeypatch):
    """Read in blocks, an undecodable byte is still placed by its line and its offset in the whole file."""
    import textbcv.corpus.conlleval as ce

    monkeypatch.setattr(ce, "BLOCK", 16)
    p = tmp_path / "x.txt"
    data = b"".join(b"w%d O O\n" % i for i in range(30)) + b"caf\xe9 O O\n"
    p.write_bytes(data)
    offset = data.index(b"\xe9")
    with pytest.raises(InputError, match=rf"x.txt:31: invalid UTF-8: byte 0xe9 at byte offset {offset};"):
        read_tag_stream(p)


# ---------------------------------------------------------------- gzip


@pytest.mark.parametrize("name", ["plain.conll.gz", "corpus.gz"])
def test_gzip_is_read_transparently(capsys, name):
    assert gzip.decompress((DATA / name).read_bytes()) == (DATA / "plain.conll").read_bytes()
    assert corpus_view(read_corpus(DATA / name)) == corpus_view(read_conll(DATA / "plain.conll"))
    status, out, _ = cli(capsys, "stats", DATA / name, "--json")
    assert status == 0 and json.loads(out)["tokens"] == 6


def test_score_gzip(capsys):
    _, want, _ = cli(capsys, "score", DATA / "pred.txt", "--json")
    status, out, err = cli(capsys, "score", DATA / "pred.txt.gz", "--json")
    assert status == 0 and out == want and err == ""


def test_gzip_conllu_and_segmented(tmp_path):
    conllu = "# text = go\n1\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n\n"
    (tmp_path / "x.conllu.gz").write_bytes(gzip.compress(conllu.encode()))
    assert read_conllu(tmp_path / "x.conllu.gz")[0].tokens == ("go",)
    (tmp_path / "x.txt.gz").write_bytes(gzip.compress("中国  人民\n".encode()))
    assert read_segmented(tmp_path / "x.txt.gz")[0].words == ("中国", "人民")


def test_truncated_gzip_is_an_input_error(tmp_path):
    p = tmp_path / "x.conll.gz"
    p.write_bytes((DATA / "plain.conll.gz").read_bytes()[:40])
    with pytest.raises(InputError, match="x.conll.gz: not a valid gzip file"):
        read_conll(p)


# ---------------------------------------------------------------- orphan chunk starts


ORPHANS = [
    ("orphans_iob2.txt",
     "3 chunks start with I- (0 gold, 3 predicted), which never starts a chunk in IOB2: is the scheme IOB1?",
     {"scheme": "iob2", "gold": 0, "predicted": 3, "prefixes": {"I": 3}}),
    ("orphans_iobes.txt", "2 chunks start with E- or I- (0 gold, 2 predicted), which never starts a chunk in IOBES:",
     {"scheme": "iobes", "gold": 0, "predicted": 2, "prefixes": {"E": 1, "I": 1}}),
    ("orphans_bmes.txt", "1 chunk starts with M (0 gold, 1 predicted), which never starts a chunk in BMES:",
     {"scheme": "bmes", "gold": 0, "predicted": 1, "prefixes": {"M": 1}}),
]


@pytest.mark.parametrize("name, message, counts", ORPHANS)
def test_orphan_chunk_starts_are_reported_once(capsys, name, message, counts):
    path = DATA / name
    status, out, err = cli(capsys, "score", path)
    assert status == 0 and err.count("\n") == 1
    assert err.startswith(f"textbcv: warning: {path}: {message}") and "scored as the start of a chunk" in err
    # scored the conlleval way: the text report is conlleval's (the warning goes to stderr only)
    assert out.startswith("processed ")
    status, out, err = cli(capsys, "score", path, "--json")
    assert status == 0 and json.loads(out)["orphans"] == counts and err.count("\n") == 1


def test_orphans_iob2_scored_as_conlleval(capsys):
    """The three I- starts open chunks (conlleval): New/York is LOC for gold, York alone for the prediction."""
    status, out, _ = cli(capsys, "score", DATA / "orphans_iob2.txt", "--json")
    d = json.loads(out)
    assert d["overall"]["tp"] == 3 and d["overall"]["fp"] == 1 and d["overall"]["fn"] == 1


def test_iob1_files_get_no_orphan_warning(capsys):
    status, out, err = cli(capsys, "score", DATA / "orphans_iob1.txt", "--json")
    assert status == 0 and err == "" and "orphans" not in json.loads(out)
    # with --scheme iob1 given, no warning either; with --scheme iob2 the I- starts are orphans
    assert cli(capsys, "score", DATA / "orphans_iob1.txt", "--scheme", "iob1")[2] == ""
    err = cli(capsys, "score", DATA / "orphans_iob1.txt", "--scheme", "iob2")[2]
    # gold John, New, EU; predicted John, York, EU (UN continues EU's chunk)
    assert re.search(r"warning: .*: 6 chunks start with I- \(3 gold, 3 predicted\)", err)


def test_valid_files_get_no_orphan_warning(capsys):
    for name in ("pred.txt", "pred_cr_only.txt"):
        assert cli(capsys, "score", DATA / name)[2] == ""


# ---------------------------------------------------------------- CoNLL-U: conllu.parse's reading, TAB fields only


@pytest.mark.parametrize("parts", [("ud_english_ewt", "en_ewt-ud-dev.conllu"),
                                   ("ud_chinese_v1.4", "zh-ud-test.conllu")])
def test_conllu_reads_as_conllu_parse(shared, parts):
    """Sentences, FORM, LEMMA, UPOS and XPOS (None for _) as conllu.parse gives them, words only."""
    conllu = pytest.importorskip("conllu")
    path = shared(*parts)
    ours = read_conllu(path)
    theirs = conllu.parse(path.read_text(encoding="utf-8"))
    assert len(ours) == len(theirs)
    for s, t in zip(ours, theirs):
        words = [w for w in t if isinstance(w["id"], int)]
        assert s.tokens == tuple(w["form"] for w in words)
        assert s.lemmas == tuple(w["lemma"] for w in words)
        assert s.pos == tuple(w["upos"] for w in words)
        assert s.columns["xpos"] == tuple(w["xpos"] for w in words)


def test_conllu_spaces_inside_a_form_stay(tmp_path):
    """conllu.parse also cuts fields at two spaces; the format (and textbcv) only at TABs."""
    p = tmp_path / "x.conllu"
    p.write_text("1\tNew  York\tNew  York\tPROPN\t_\t_\t0\troot\t_\t_\n"
                 "2\t10\u00a0000\t_\tNUM\tCD\t_\t1\tnummod\t_\t_\n\n")
    s = read_conllu(p)[0]
    assert s.tokens == ("New  York", "10\u00a0000") and s.lemmas == ("New  York", "_") and s.pos == ("PROPN", "NUM")


def test_writers_round_trip_unicode_spaces(tmp_path):
    from textbcv.corpus import write_conll, write_conllu, write_segmented

    c = read_conll(DATA / "unicode_spaces.conll")
    write_conll(c, tmp_path / "x.conll", columns=("token", "ner"), docstart=False)
    assert corpus_view(read_conll(tmp_path / "x.conll")) == corpus_view(c)
    write_conllu(c, tmp_path / "x.conllu")
    assert [s.tokens for s in read_conllu(tmp_path / "x.conllu")] == [s.tokens for s in c]
    seg = read_segmented(DATA / "unicode_spaces.txt")
    write_segmented(seg, tmp_path / "x.txt")
    assert [s.words for s in read_segmented(tmp_path / "x.txt")] == [s.words for s in seg]
    with pytest.raises(InputError, match="cannot write 'a b' in a column file"):
        write_conll([c[0].__class__(("a b",))], tmp_path / "y.conll", columns=("token",))
