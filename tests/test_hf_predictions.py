"""Trainer-shaped outputs → fold prediction files that `textbcv evaluate` accepts (no model, no network)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.corpus.hf import fold_predictions, word_labels
from textbcv.schemes import convert


def _subwords(words, rng):
    """A fake tokenizer: each word in 1–3 pieces, [CLS] and [SEP] around; the word id of every piece."""
    ids = [None]
    for w, word in enumerate(words):
        ids += [w] * int(rng.integers(1, 4))
    return ids + [None]


def test_trainer_outputs_become_files_evaluate_reads(tmp_path, capsys):
    corpus = tmp_path / "c.conll"
    write_conll(read_corpus(str(bundled_corpora()["ner"]))[:300], corpus)
    assert main(["split", str(corpus), "--m", "1", "--out", str(tmp_path / "splits.json"),
                 "--export", str(tmp_path / "folds")]) == 0
    names = ["O", "B-LOC", "I-LOC", "B-MISC", "I-MISC", "B-ORG", "I-ORG", "B-PER", "I-PER"]
    rng = np.random.default_rng(0)
    for fold in ("fold-0-0", "fold-0-1"):
        test = read_corpus(str(tmp_path / "folds" / fold / "test.conll"), scheme="iob1")
        gold = [convert(list(s.tags), "iob1", "iob2") for s in test]
        tokens = [list(s.tokens) for s in test]
        wids = [_subwords(t, rng) for t in tokens]
        width = max(map(len, wids)) + 3
        label_ids = np.full((len(test), width), -100)
        logits = np.zeros((len(test), width, len(names)))
        for i, (w, g) in enumerate(zip(wids, gold)):
            seen = set()
            for k, wid in enumerate(w):
                if wid is None:
                    continue
                # the first piece of a word carries its gold label; later pieces a random one (the rule ignores them)
                lab = names.index(g[wid]) if wid not in seen else int(rng.integers(len(names)))
                seen.add(wid)
                label_ids[i, k] = lab
                logits[i, k, lab] = 5.0
        for kind, pred in (("ids", label_ids), ("logits", logits)):
            out = tmp_path / f"pred-{kind}" / f"{fold}.txt"
            out.parent.mkdir(exist_ok=True)
            assert fold_predictions(tokens, pred, wids, names, out) == {
                "sentences": len(test), "words": sum(map(len, tokens)), "cut_off": 0}
            # an independent alignment: every word with its gold tag
            want = "".join("".join(f"{w} {t}\n" for w, t in zip(s, g)) + "\n" for s, g in zip(tokens, gold))
            assert out.read_text(encoding="utf-8") == want
    for kind in ("ids", "logits"):
        assert main(["evaluate", str(tmp_path / "splits.json"), str(corpus), "--task", "ner", "--quiet",
                     "--no-plots", "--system", f"A={tmp_path / 'pred-ids'}", "--system",
                     f"B={tmp_path / f'pred-{kind}'}", "--out", str(tmp_path / f"run-{kind}")]) == 0
        r = json.loads((tmp_path / f"run-{kind}" / "report.json").read_text())
        assert r["systems"]["B"]["f1"]["estimate"] == 1.0  # the gold tags, by the first-sub-word rule


def test_word_labels_rules_and_cut_off_words(tmp_path, capsys):
    logits = np.array([[0, 0, 0], [3, 0, 0], [0, 2, 0], [0, 2, 0], [0, 0, 9], [0, 0, 0]], dtype=float)
    wids = [None, 0, 1, 1, 1, None]
    logits[4] = [0, 0, 9]  # the third piece of word 1 votes label 2 strongly
    assert word_labels(logits, wids, 3, "first").tolist() == [0, 1, -1]
    assert word_labels(logits, wids, 3, "majority").tolist() == [0, 1, -1]
    assert word_labels(logits, wids, 3, "mean").tolist() == [0, 2, -1]
    with pytest.raises(ValueError, match="needs logits"):
        word_labels(np.array([0, 1]), [0, 0], 1, "mean")
    p = tmp_path / "f.txt"
    info = fold_predictions([["a", "b", "c"]], [logits], [wids], ["O", "B-X", "I-X"], p)
    assert info == {"sentences": 1, "words": 3, "cut_off": 1}
    assert p.read_text() == "a O\nb B-X\nc O\n\n"
    assert "1 of 3 words were cut off" in capsys.readouterr().err
    from textbcv.errors import InputError

    with pytest.raises(InputError, match="label id 2 has no name"):
        fold_predictions([["a"]], [[2]], [[0]], ["O", "B-X"], tmp_path / "g.txt")
    assert not (tmp_path / "g.txt").exists()
    with pytest.raises(InputError, match="1 sentences, 2 word_ids rows"):
        fold_predictions([["a"]], [[0], [0]], [[0], [0]], ["O"], tmp_path / "h.txt")
