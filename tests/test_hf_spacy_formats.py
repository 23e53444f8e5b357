"""Corpora from the optional extras: ``datasets``' ``save_to_disk`` folders (format ``arrow``) and spaCy
``DocBin`` files (format ``docbin``). Each reads the same sentences, chunks and documents as the same corpus
in CoNLL form, and gives the same comparison; malformed input ends in one ``FILE:LINE`` line, exit 2.

CI installs both extras (``scripts/test`` asks for them); elsewhere a missing extra skips with its reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.corpus.sniff import sniff_format

FAST = ["--task", "ner", "--systems", "iob2,iobes", "--m", "1", "--max-iterations", "3", "--quiet", "--no-plots"]


def _sentences(n: int = 300):
    return read_corpus(str(bundled_corpora()["ner"]))[:n]


def _arrow(tmp_path: Path, sents, documents: bool = True) -> Path:
    datasets = pytest.importorskip("datasets", reason="the datasets extra is not installed")
    names = ["O"] + sorted({t for s in sents for t in s.tags} - {"O"})
    cols: dict = {"tokens": [list(s.tokens) for s in sents], "ner_tags": [[names.index(t) for t in s.tags]
                                                                          for s in sents]}
    feats = {"tokens": datasets.Sequence(datasets.Value("string")),
             "ner_tags": datasets.Sequence(datasets.ClassLabel(names=names))}
    if documents:
        cols["document_id"] = [f"doc-{s.document}" for s in sents]
        feats["document_id"] = datasets.Value("string")
    folder = tmp_path / "arrow"
    datasets.Dataset.from_dict(cols, features=datasets.Features(feats)).save_to_disk(str(folder))
    return folder


def _docbin(tmp_path: Path, sents, name: str = "c.spacy") -> Path:
    spacy = pytest.importorskip("spacy", reason="the spacy extra is not installed")
    from spacy.tokens import Doc, DocBin, Span

    vocab = spacy.blank("en").vocab
    db = DocBin()
    by_doc: dict[int, list] = {}
    for s in sents:
        by_doc.setdefault(s.document, []).append(s)
    for group in by_doc.values():
        words = [t for s in group for t in s.tokens]
        starts = [i == 0 for s in group for i in range(len(s))]
        doc = Doc(vocab, words=words, sent_starts=starts)
        ents, off = [], 0
        for s in group:
            ents += [Span(doc, off + a, off + b, label=t) for a, b, t in s.chunks]
            off += len(s)
        doc.ents = ents
        db.add(doc)
    path = tmp_path / name
    db.to_disk(path)
    return path


def test_arrow_folder_reads_the_corpus_and_its_label_names(tmp_path):
    sents = _sentences()
    folder = _arrow(tmp_path, sents)
    guess = sniff_format(folder)
    assert (guess.format, guess.decisive) == ("arrow", True)
    c = read_corpus(str(folder))
    assert c.format == "arrow" and c.scheme == sents[0].scheme  # the tags' own scheme (IOB1 here), detected
    assert [s.tokens for s in c] == [s.tokens for s in sents]
    assert [s.chunks for s in c] == [s.chunks for s in sents]
    assert c.n_documents == len({s.document for s in sents})
    # given label names win over the dataset's own (here: every id renamed)
    own = ["O"] + sorted({t for s in sents for t in s.tags} - {"O"})
    renamed = ["O"] + [t.replace("PER", "PERSON") for t in own[1:]]
    assert any(ch[2] == "PERSON" for s in read_corpus(str(folder), label_names=renamed) for ch in s.chunks)


def test_arrow_gives_the_report_of_the_same_corpus_in_conll(tmp_path):
    sents = _sentences()
    folder = _arrow(tmp_path, sents)
    conll = tmp_path / "c.conll"
    write_conll(sents, conll, columns=("token", "ner"), docstart=True)
    reports = {}
    for name, f in (("conll", conll), ("arrow", folder)):
        out = tmp_path / f"run-{name}"
        assert main(["compare", str(f), *FAST, "--out", str(out)]) == 0
        reports[name] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert reports["conll"]["fold_counts"] == reports["arrow"]["fold_counts"]
    assert reports["conll"]["comparisons"] == reports["arrow"]["comparisons"]
    assert reports["arrow"]["meta"]["corpus"]["format"] == "arrow"


def test_arrow_refuses_a_dataset_dict_and_bad_ids(tmp_path, capsys):
    datasets = pytest.importorskip("datasets", reason="the datasets extra is not installed")
    rows = {"tokens": [["a", "b"], ["c"]], "ner_tags": [[0, 1], [5]]}
    dd = datasets.DatasetDict({"train": datasets.Dataset.from_dict(rows), "test": datasets.Dataset.from_dict(rows)})
    dd.save_to_disk(str(tmp_path / "dd"))
    capsys.readouterr()  # datasets' own progress bars while saving
    assert main(["stats", str(tmp_path / "dd")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a DatasetDict folder (splits test, train): give one split's folder, e.g. " in err
    assert err.rstrip().endswith("train")
    assert main(["stats", str(tmp_path / "dd" / "train"), "--format", "arrow"]) == 2
    err = capsys.readouterr().err  # integer ids without names anywhere: refused, row named
    assert err.count("\n") == 1 and "train:1: " in err and "no label names" in err
    feats = datasets.Features({"tokens": datasets.Sequence(datasets.Value("string")),
                               "ner_tags": datasets.Sequence(datasets.Value("int64"))})
    datasets.Dataset.from_dict(rows, features=feats).save_to_disk(str(tmp_path / "ids"))
    capsys.readouterr()
    (tmp_path / "label_names.json").write_text('["O", "B-X"]', encoding="utf-8")
    assert main(["stats", str(tmp_path / "ids")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ids:2: label id 5 out of range: 2 label names" in err


def test_docbin_reads_documents_sentences_and_entities(tmp_path):
    sents = _sentences()
    path = _docbin(tmp_path, sents)
    assert sniff_format(path).format == "docbin"
    c = read_corpus(str(path))
    assert c.format == "docbin" and c.scheme == "iob2"
    assert [s.tokens for s in c] == [s.tokens for s in sents]
    assert [s.chunks for s in c] == [s.chunks for s in sents]
    assert c.n_documents == len({s.document for s in sents})


def test_docbin_gives_the_report_of_the_same_corpus_in_conll(tmp_path):
    sents = _sentences()
    path = _docbin(tmp_path, sents)
    conll = tmp_path / "c.conll"
    write_conll(sents, conll, columns=("token", "ner"), docstart=True)
    reports = {}
    for name, f in (("conll", conll), ("docbin", path)):
        out = tmp_path / f"run-{name}"
        assert main(["compare", str(f), *FAST, "--out", str(out)]) == 0
        reports[name] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert reports["conll"]["fold_counts"] == reports["docbin"]["fold_counts"]
    assert reports["conll"]["comparisons"] == reports["docbin"]["comparisons"]


def test_docbin_refuses_an_entity_across_sentences_and_a_broken_file(tmp_path, capsys):
    spacy = pytest.importorskip("spacy", reason="the spacy extra is not installed")
    from spacy.tokens import Doc, DocBin, Span

    vocab = spacy.blank("en").vocab
    doc = Doc(vocab, words=["New", "York", "is", "big"], sent_starts=[True, False, True, False])
    doc.ents = [Span(doc, 1, 3, label="LOC")]
    db = DocBin()
    db.add(doc)
    db.to_disk(tmp_path / "x.spacy")
    assert main(["stats", str(tmp_path / "x.spacy")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "x.spacy:1: document 1: the entity 'York is' (LOC) crosses a sentence" in err
    (tmp_path / "bad.spacy").write_bytes(b"not a docbin")
    assert main(["stats", str(tmp_path / "bad.spacy")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.spacy: not a spaCy DocBin file" in err
