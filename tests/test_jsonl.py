"""Hugging Face ``datasets``-style JSON lines as a corpus format: the same answer as the same corpus in CoNLL form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.corpus.sniff import sniff_format

FAST = ["--task", "ner", "--systems", "iob2,iobes", "--m", "1", "--max-iterations", "3", "--quiet", "--no-plots"]


def _forms(d: Path, documents: bool, integer: bool, n: int = 400) -> tuple[Path, Path]:
    """The first ``n`` sentences of the bundled NER corpus as a token/tag CoNLL file (with or without -DOCSTART-)
    and as JSON lines (integer ids with label_names.json beside, or tag strings; document ids or none)."""
    sents = read_corpus(str(bundled_corpora()["ner"]))[:n]
    conll = d / "c.conll"
    write_conll(sents, conll, columns=("token", "ner"), docstart=documents)
    names = ["O"] + sorted({t for s in sents for t in s.tags} - {"O"})
    rows = []
    for i, s in enumerate(sents):
        row = {"id": str(i), "tokens": list(s.tokens),
               "ner_tags": [names.index(t) for t in s.tags] if integer else list(s.tags)}
        if documents:
            row["document_id"] = f"doc-{s.document}"
        rows.append(json.dumps(row, ensure_ascii=False))
    jsonl = d / "c.jsonl"
    jsonl.write_text("\n".join(rows) + "\n", encoding="utf-8")
    if integer:
        (d / "label_names.json").write_text(json.dumps(names), encoding="utf-8")
    return conll, jsonl


@pytest.mark.parametrize("documents,integer", [(True, True), (False, False)])
def test_jsonl_gives_the_report_of_the_same_corpus_in_conll(tmp_path, capsys, documents, integer):
    conll, jsonl = _forms(tmp_path, documents, integer)
    assert sniff_format(jsonl).format == "jsonl"
    runs = {}
    for name, f in (("conll", conll), ("jsonl", jsonl)):
        out = tmp_path / f"run-{name}"
        assert main(["compare", str(f), *FAST, "--out", str(out)]) == 0
        runs[name] = (json.loads((out / "report.json").read_text()), json.loads((out / "splits.json").read_text()))
    err = capsys.readouterr().err
    (rc, sc), (rj, sj) = runs["conll"], runs["jsonl"]
    assert [s["train"] for s in sc["splits"]] == [s["train"] for s in sj["splits"]]
    assert rc["fold_counts"] == rj["fold_counts"] and rc["comparisons"] == rj["comparisons"]
    assert rc["meta"]["corpus"]["documents"] == rj["meta"]["corpus"]["documents"] == (
        len({s.document for s in read_corpus(str(conll))}) if documents else 1)
    assert rj["meta"]["corpus"]["format"] == "jsonl"
    assert ("no document ids" in err) is (not documents)


@pytest.mark.parametrize("row,names,message", [
    ({"tokens": ["a", "b"], "ner_tags": [0, 9]}, ["O", "B-X"], "label id 9 out of range: 2 label names"),
    ({"tokens": ["a", "b"], "ner_tags": [0]}, ["O", "B-X"], '"ner_tags" must be a list as long as "tokens" (2)'),
    ({"tokens": ["a", "b"], "ner_tags": [0, "B-X"]}, ["O", "B-X"], "holds integer ids or tag strings"),
    ({"tokens": ["a", "b"], "ner_tags": [0, 1]}, None, "no label names were given or found beside the file"),
    ({"words": ["a"], "ner_tags": [0]}, ["O"], 'expected a JSON object with "tokens" and "ner_tags"'),
])
def test_malformed_jsonl_is_one_line(tmp_path, capsys, row, names, message):
    f = tmp_path / "bad.jsonl"
    good = {"tokens": ["x"], "ner_tags": [0]}
    f.write_text(json.dumps(good) + "\n" + json.dumps(row) + "\n", encoding="utf-8")
    if names is not None:
        (tmp_path / "label_names.json").write_text(json.dumps(names))
    out = tmp_path / "run"
    assert main(["compare", str(f), *FAST, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    if "holds integer" in message:
        message = '"ner_tags" mixes integer ids and tag strings'
    line = 1 if names is None else 2  # without names, the first line of ids already fails
    assert err.startswith(f"textbcv: error: {f}:{line}: ") and message in err, err
    assert err.count("\n") == 1 and not out.exists()


def test_dataset_info_of_save_to_disk_names_the_labels(tmp_path):
    (tmp_path / "dataset_info.json").write_text(json.dumps(
        {"features": {"ner_tags": {"feature": {"names": ["O", "B-PER", "I-PER"]}}}}))
    f = tmp_path / "train.jsonl"
    f.write_text(json.dumps({"tokens": ["Peter", "Blackburn", "said"], "ner_tags": [1, 2, 0]}) + "\n")
    c = read_corpus(str(f))
    assert c[0].tags == ("B-PER", "I-PER", "O") and c[0].chunks == ((0, 2, "PER"),)


def test_stats_of_a_jsonl_corpus(tmp_path, capsys):
    _, jsonl = _forms(tmp_path, documents=False, integer=False, n=50)
    assert main(["stats", str(jsonl)]) == 0
    out = capsys.readouterr()
    assert "format      jsonl" in out.out and "no document ids (a document_id field)" in out.out
    assert "read as jsonl" in out.err


def test_a_json_document_is_not_read_as_text(tmp_path, capsys):
    """A pretty-printed JSON file (not JSON lines) was read as segmented text; it is refused in one line."""
    f = tmp_path / "data.json"
    f.write_text(json.dumps({"data": [{"tokens": ["a", "b"], "ner_tags": [0, 0]}]}, indent=2))
    assert main(["stats", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"textbcv: error: {f}: cannot tell the format (a JSON document, not a corpus")
    assert err.count("\n") == 1


def test_exported_folds_of_a_jsonl_corpus(tmp_path):
    """--format jsonl is a choice of the command line; exported folds keep the JSON lines, and their README
    asks for NER predictions."""
    _, jsonl = _forms(tmp_path, documents=True, integer=False, n=120)
    assert main(["split", str(jsonl), "--format", "jsonl", "--m", "1", "--out", str(tmp_path / "s.json"),
                 "--export", str(tmp_path / "folds")]) == 0
    test = tmp_path / "folds" / "fold-0-0" / "test.jsonl"
    rows = [json.loads(x) for x in test.read_text(encoding="utf-8").splitlines()]
    assert rows and all(set(r) == {"id", "tokens", "ner_tags", "document_id"} for r in rows)
    assert read_corpus(str(test)).format == "jsonl"
    readme = (tmp_path / "folds" / "README.md").read_text(encoding="utf-8")
    assert "--task ner" in readme and "`token tag`" in readme


def test_export_to_hf_writes_datasets_json_lines(tmp_path, capsys):
    """split --export DIR --to hf: every fold as datasets-style JSON lines with integer IOB2 ids and the label
    names beside them; textbcv reads them back as the same sentences and chunks (and datasets, where installed)."""
    corpus = tmp_path / "c.conll"
    write_conll(read_corpus(str(bundled_corpora()["ner"]))[:200], corpus)
    assert main(["split", str(corpus), "--m", "1", "--out", str(tmp_path / "s.json"), "--export",
                 str(tmp_path / "hf"), "--to", "hf"]) == 0
    src = read_corpus(str(corpus))
    names = json.loads((tmp_path / "hf" / "label_names.json").read_text())
    assert names[0] == "O" and all(n.startswith(("B-", "I-")) for n in names[1:])
    for fold in ("fold-0-0", "fold-0-1"):
        d = tmp_path / "hf" / fold
        assert sorted(p.name for p in d.iterdir()) == ["label_names.json", "test.ids", "test.jsonl", "train.jsonl"]
        rows = [json.loads(x) for x in (d / "test.jsonl").read_text(encoding="utf-8").splitlines()]
        ids = [int(x.split("\t")[0]) for x in (d / "test.ids").read_text().splitlines()]
        assert [r["id"] for r in rows] == ids
        back = read_corpus(str(d / "test.jsonl"))
        assert back.scheme == "iob2"
        assert [s.chunks for s in back] == [src[i].chunks for i in ids]
        assert [s.tokens for s in back] == [src[i].tokens for i in ids]
    readme = (tmp_path / "hf" / "README.md").read_text()
    assert "datasets.load_dataset" in readme and "label_names.json" in readme
    assert main(["split", str(corpus), "--m", "1", "--out", str(tmp_path / "s2.json"), "--to", "hf"]) == 2
    assert "--to applies with --export" in capsys.readouterr().err


def test_export_to_hf_loads_with_datasets(tmp_path):
    datasets = pytest.importorskip("datasets", reason="the datasets extra is not installed")
    corpus = tmp_path / "c.conll"
    write_conll(read_corpus(str(bundled_corpora()["ner"]))[:100], corpus)
    assert main(["split", str(corpus), "--m", "1", "--out", str(tmp_path / "s.json"), "--export",
                 str(tmp_path / "hf"), "--to", "hf"]) == 0
    d = tmp_path / "hf" / "fold-0-0"
    ds = datasets.load_dataset("json", data_files={"train": str(d / "train.jsonl"), "test": str(d / "test.jsonl")})
    first = json.loads((d / "test.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert ds["test"][0]["tokens"] == first["tokens"] and ds["test"][0]["ner_tags"] == first["ner_tags"]


def test_label_names_on_the_command_line(tmp_path, capsys):
    # integer ids without names beside the file: --label-names gives them (a JSON list or one per line)
    conll, jsonl = _forms(tmp_path, documents=True, integer=True, n=200)
    names = json.loads((tmp_path / "label_names.json").read_text(encoding="utf-8"))
    (tmp_path / "label_names.json").unlink()
    assert main(["stats", str(jsonl)]) == 2
    assert "no label names were given or found" in capsys.readouterr().err
    (tmp_path / "names.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
    (tmp_path / "names.json").write_text(json.dumps(names), encoding="utf-8")
    assert main(["compare", str(conll), *FAST, "--out", str(tmp_path / "run-conll")]) == 0
    want = json.loads((tmp_path / "run-conll" / "report.json").read_text())["fold_counts"]
    capsys.readouterr()
    for given in ("names.txt", "names.json"):
        out = tmp_path / f"run-{given}"
        assert main(["compare", str(jsonl), *FAST, "--label-names", str(tmp_path / given), "--out", str(out)]) == 0
        assert json.loads((out / "report.json").read_text())["fold_counts"] == want
    capsys.readouterr()
    (tmp_path / "bad.txt").write_text("O\n\nB-PER\n", encoding="utf-8")
    assert main(["stats", str(jsonl), "--label-names", str(tmp_path / "bad.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.txt:2: --label-names: an empty line" in err
