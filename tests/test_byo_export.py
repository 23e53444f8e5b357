"""textbcv split --export: fold files written as in the source, test.ids, README, fingerprints in SPLITS.json."""

from __future__ import annotations

import json
import os

import pytest

from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.corpus.fingerprint import fingerprint
from textbcv.errors import InputError
from textbcv.split import load_splits

CONLLU = """# newdoc id = d1
# sent_id = 1
# text = I don't go.
1\tI\tI\tPRON\tPRP\t_\t3\tnsubj\t_\t_
2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\t_
2\tdo\tdo\tAUX\tVBP\t_\t4\taux\t_\t_
3\tn't\tnot\tPART\tRB\t_\t4\tadvmod\t_\t_
4\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\tSpaceAfter=No
4.1\tgone\t_\t_\t_\t_\t_\t_\t_\t_
5\t.\t.\tPUNCT\t.\t_\t4\tpunct\t_\t_

"""


def _conllu(n: int) -> str:
    out = []
    for k in range(n):
        block = CONLLU.replace("sent_id = 1", f"sent_id = {k}").replace("\tgo\tgo\t", f"\tgo{k}\tgo\t")
        if k % 3:
            block = block.replace("# newdoc id = d1\n", "")
        out.append(block)
    return "".join(out)


@pytest.fixture(scope="module")
def ner(tmp_path_factory):
    d = tmp_path_factory.mktemp("exp")
    corpus = d / "ner.conll"
    write_conll(read_corpus(bundled_corpora()["ner"])[:300], corpus)
    assert main(["split", str(corpus), "--m", "3", "--out", str(d / "splits.json"), "--export", str(d / "folds")]) == 0
    return d, corpus


def _sentences(text: str, blank: bool = True) -> list[str]:
    """Sentence blocks of an exported file (mark lines apart)."""
    if not blank:
        return [line + "\n" for line in text.splitlines()]
    return [b + "\n" for b in text.strip("\n").split("\n\n") if not b.startswith("-DOCSTART-")]


def test_export_layout_and_halves(ner):
    d, corpus = ner
    folds = d / "folds"
    assert sorted(os.listdir(folds)) == ["README.md"] + [f"fold-{i}-{k}" for i in range(3) for k in (0, 1)]
    splits = load_splits(d / "splits.json")
    src = corpus.read_text()
    blocks = [b + "\n" for b in src.strip("\n").split("\n\n") if not b.startswith("-DOCSTART-")]
    assert len(blocks) == splits.n == 300
    for i, (train, valid) in enumerate(splits.splits):
        for k, (tr, te) in enumerate(((train, valid), (valid, train))):
            f = folds / f"fold-{i}-{k}"
            assert sorted(os.listdir(f)) == ["test.conll", "test.ids", "train.conll"]
            # every sentence verbatim, in corpus order, each half exactly its indices
            assert _sentences((f / "train.conll").read_text()) == [blocks[j] for j in tr]
            assert _sentences((f / "test.conll").read_text()) == [blocks[j] for j in te]
            ids = [line.split("\t") for line in (f / "test.ids").read_text().splitlines()]
            assert [int(a) for a, _ in ids] == list(te)
            toks = [tuple(line.split()[0] for line in blocks[j].splitlines()) for j in te]
            assert [b for _, b in ids] == [fingerprint(t) for t in toks]
        assert (folds / f"fold-{i}-0" / "test.conll").read_text() == (folds / f"fold-{i}-1" / "train.conll").read_text()


def test_export_keeps_document_marks(ner):
    d, corpus = ner
    src = read_corpus(corpus)
    text = (d / "folds" / "fold-0-0" / "train.conll").read_text()
    assert text.startswith("-DOCSTART- -X- -X- O\n\n")
    exported = read_corpus(d / "folds" / "fold-0-0" / "train.conll")
    train = load_splits(d / "splits.json").splits[0][0]
    # the documents of the training half are those of its sentences in the corpus (one mark per document met)
    assert exported.n_documents == len({src[j].document for j in train})
    assert [s.tokens for s in exported] == [src[j].tokens for j in train]
    assert [s.tags for s in exported] == [src[j].tags for j in train]


def test_readme_says_what_to_do(ner):
    d, corpus = ner
    text = (d / "folds" / "README.md").read_text()
    assert "fold-{i}-{d}.txt" in text and "--pred-scheme" in text
    assert f"textbcv evaluate {d / 'splits.json'} {corpus} --task ner --system A=" in text
    # the held-out layout is the one evaluate reads (comparison.heldout: PRED_DIR/heldout/{file_stem}/fold-i-d.txt)
    from textbcv.corpus.sniff import CORPUS_EXTENSIONS, file_stem

    assert "`PRED_DIR/heldout/STEM/fold-{i}-{d}.txt`" in text and "--heldout FILE" in text
    assert all(f"`{e}`" in text for e in CORPUS_EXTENSIONS)
    assert "`dev.annotated` → `dev.annotated`" in text and file_stem("dev.annotated") == "dev.annotated"
    assert "`test.conll` → `test`" in text and file_stem("test.conll") == "test"


def test_splits_json_has_fingerprints(ner):
    d, corpus = ner
    raw = json.loads((d / "splits.json").read_text())
    src = read_corpus(corpus)
    assert raw["fingerprints"] == [fingerprint(s.tokens) for s in src]
    assert raw["fingerprint_method"].startswith("blake2b-64")
    # a manifest written before fingerprints existed still loads (no fingerprints to check)
    del raw["fingerprints"], raw["fingerprint_method"]
    (d / "old.json").write_text(json.dumps(raw))
    old = load_splits(d / "old.json")
    assert old.fingerprints is None and old.n == 300
    with pytest.raises(InputError, match="no sentence fingerprints"):
        old.check_corpus(src, file=str(d / "old.json"))


def test_bad_fingerprints_refused(ner, tmp_path):
    d, _ = ner
    raw = json.loads((d / "splits.json").read_text())
    raw["fingerprints"] = raw["fingerprints"][:-1]
    (tmp_path / "s.json").write_text(json.dumps(raw))
    with pytest.raises(InputError, match='"fingerprints" must be a list of 300'):
        load_splits(tmp_path / "s.json")


def test_export_conllu_keeps_comments(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_text(_conllu(12))
    assert main(["split", str(p), "--format", "conllu", "--m", "1", "--out", str(tmp_path / "s.json"),
                 "--export", str(tmp_path / "f")]) == 0
    blocks = [b + "\n" for b in p.read_text().strip("\n").split("\n\n")]
    s = load_splits(tmp_path / "s.json")
    test = (tmp_path / "f" / "fold-0-0" / "test.conllu").read_text()
    assert [b + "\n" for b in test.strip("\n").split("\n\n")] == [blocks[j] for j in s.splits[0][1]]
    assert "\n4.1\tgone\t" in test and "\n2-3\tdon't\t" in test and "# sent_id" in test
    again = read_corpus(tmp_path / "f" / "fold-0-0" / "test.conllu", format="conllu")
    assert [x.tokens for x in again] == [read_corpus(p, format="conllu")[j].tokens for j in s.splits[0][1]]


def test_export_segmented(tmp_path):
    p = tmp_path / "x.txt"
    lines = ["中国  人民", "迈向　充满 希望", "的 新 世纪", "我 爱 北京", "天安门"]
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["split", str(p), "--format", "segmented", "--m", "1", "--out", str(tmp_path / "s.json"),
                 "--export", str(tmp_path / "f")]) == 0
    s = load_splits(tmp_path / "s.json")
    for k, half in ((0, s.splits[0][1]), (1, s.splits[0][0])):
        got = (tmp_path / "f" / f"fold-0-{k}" / "test.txt").read_text(encoding="utf-8").splitlines()
        assert got == [lines[j] for j in half]  # the ideographic space kept as written
    assert "--format segmented --task cws" in (tmp_path / "f" / "README.md").read_text()


def test_export_refusals(ner, tmp_path, capsys):
    d, corpus = ner
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    capsys.readouterr()
    assert main(["split", str(corpus), "--out", str(tmp_path / "s.json"), "--export", str(tmp_path / "full")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the directory is not empty" in err
    assert not (tmp_path / "s.json").exists()
    assert main(["split", str(corpus), "--method", "brhs", "--out", str(tmp_path / "s.json"),
                 "--export", str(tmp_path / "new")]) == 2
    assert "--export needs 2-fold splits" in capsys.readouterr().err
    assert not (tmp_path / "new").exists() and not (tmp_path / "s.json").exists()


def test_export_refuses_a_changed_source(tmp_path):
    from textbcv.split import make_splits
    from textbcv.split.export import export_folds

    p = tmp_path / "c.txt"
    p.write_text("ab c\nd e\nf g\nh i\n", encoding="utf-8")
    c = read_corpus(p, format="segmented")
    s = make_splits(c, m=1)
    p.write_text("ab c\nd e\nf X\nh i\n", encoding="utf-8")
    with pytest.raises(InputError, match="c.txt:3: the file no longer holds the sentence"):
        export_folds(c, s, tmp_path / "f")
    assert sorted(os.listdir(tmp_path)) == ["c.txt"]  # no directory, no temporary left
