"""Formats found, not guessed: detection from content and extension, the note on stderr, a wrong --format refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from textbcv.cli import main
from textbcv.corpus import read_corpus
from textbcv.corpus.sniff import check_format, sniff_format
from textbcv.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
NER = ROOT / "corpora" / "ner_en.conll"
CWS = ROOT / "corpora" / "cws_zh.txt"
CONLLU = ("# newdoc id = d1\n# text = don't go\n1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
          "1\tdo\tdo\tAUX\tVBP\t_\t3\taux\t_\t_\n"
          "2\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t_\t_\n3\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n\n")


def cli(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def files(tmp_path):
    (tmp_path / "ud.conllu").write_text(CONLLU)
    (tmp_path / "ud.txt").write_text(CONLLU)  # CoNLL-U under another name
    (tmp_path / "ner.txt").write_bytes(NER.read_bytes())
    (tmp_path / "cws.conll").write_bytes(CWS.read_bytes())  # segmented text under a CoNLL name
    return tmp_path


@pytest.mark.parametrize("name, fmt, reason", [
    ("ud.conllu", "conllu", "10 TAB-separated fields with word IDs"),
    ("ud.txt", "conllu", "10 TAB-separated fields with word IDs"),
    ("ner.txt", "conll", "4 columns, tags in the last"),
    ("cws.conll", "segmented", "3 to 27 words per line"),
])
def test_detected_from_content(files, name, fmt, reason):
    g = sniff_format(files / name)
    assert (g.format, g.reason, g.decisive) == (fmt, reason, True)
    assert read_corpus(files / name).format == fmt


def test_conllu_read_without_format_and_said_on_stderr(files, capsys):
    status, out, err = cli(capsys, "stats", files / "ud.conllu", "--json")
    assert status == 0 and json.loads(out)["tokens"] == 3
    assert err == (f"textbcv: {files / 'ud.conllu'}: read as conllu (10 TAB-separated fields with word IDs); "
                   "--format sets it\n")
    status, out, err = cli(capsys, "stats", files / "ud.conllu", "--format", "conllu", "--json")
    assert status == 0 and err == ""  # a given format is not announced


@pytest.mark.parametrize("name, given, likely", [
    ("ner.txt", "segmented", "conll"),   # `stats --format segmented` on a CoNLL file must not "succeed"
    ("ner.txt", "conllu", "conll"),
    ("ud.conllu", "conll", "conllu"),
    ("ud.conllu", "segmented", "conllu"),
    ("cws.conll", "conll", "segmented"),
    ("cws.conll", "conllu", "segmented"),
])
def test_wrong_format_fails_with_a_hint(files, capsys, name, given, likely):
    status, out, err = cli(capsys, "stats", files / name, "--format", given)
    assert status == 2 and out == ""
    assert err.startswith(f"textbcv: error: {files / name}: --format {given} does not fit this file: "
                          f"it looks like {likely} (")
    assert err.rstrip().endswith(f"use --format {likely} (or leave --format out)") and err.count("\n") == 1
    with pytest.raises(InputError, match=f"it looks like {likely}"):
        read_corpus(files / name, format=given)


def test_split_and_compare_refuse_a_wrong_format_before_any_work(files, capsys):
    status, _, err = cli(capsys, "split", files / "ner.txt", "--format", "segmented", "--out", files / "s.json")
    assert status == 2 and "it looks like conll" in err and not (files / "s.json").exists()
    status, _, err = cli(capsys, "compare", files / "ud.conllu", "--format", "conll", "--task", "cws",
                         "--systems", "bmes,bb2b3mes", "--out", files / "run")
    assert status == 2 and "it looks like conllu" in err and not (files / "run").exists()


def test_files_in_different_formats_are_refused(files):
    with pytest.raises(InputError,
                       match="the files are in different formats: .*ner.txt looks like conll .*ud.conllu like conllu"):
        check_format([files / "ner.txt", files / "ud.conllu"])


def test_undecidable_content_needs_format(tmp_path, capsys):
    p = tmp_path / "words.utf8"
    p.write_text("中国\n人民\n世纪\n")  # a word list? unsegmented text? a one-column corpus?
    status, _, err = cli(capsys, "stats", p)
    assert status == 2 and f"{p}: cannot tell the format (one field per line and no blank lines" in err
    assert "give --format" in err
    status, out, err = cli(capsys, "stats", p, "--format", "segmented", "--json")
    assert status == 0 and json.loads(out)["sentences"] == 3 and err == ""


def test_extension_decides_when_content_cannot(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_text("1 go go VERB VB _ 0 root _ _\n")  # spaces, not TABs: the content says "10 columns"
    g = sniff_format(p)
    assert g.format == "conllu" and not g.decisive and "extension .conllu" in g.reason
    with pytest.raises(InputError, match="x.conllu:1: expected 10 TAB-separated fields, found 1"):
        read_corpus(p)


def test_columns_imply_conll_when_content_is_unsure(tmp_path, capsys):
    p = tmp_path / "x.txt"
    p.write_text("a B-X\nb\n")
    status, _, err = cli(capsys, "stats", p, "--columns", "token,ner")
    assert status == 2 and f"{p}:2: expected 2 columns (token,ner), found 1" in err


def test_malformed_column_file_is_still_read_as_conll(tmp_path, capsys):
    """A CoNLL file with a short line is not mistaken for segmented text: the column error is reported."""
    p = tmp_path / "x.txt"
    p.write_text("EU NNP I-NP I-ORG\nrejects VBZ O\n\n")
    status, _, err = cli(capsys, "stats", p)
    assert status == 2 and f"{p}:2: expected 4 columns (token,pos,chunk,ner), found 3" in err


def test_no_detection_note_when_reading_fails(tmp_path, capsys):
    p = tmp_path / "x.conll"
    p.write_text("a O\nb O X\n")
    status, _, err = cli(capsys, "stats", p)
    assert status == 2 and err.count("\n") == 1 and err.startswith("textbcv: error: ")
