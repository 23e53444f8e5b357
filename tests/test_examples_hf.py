"""scripts/examples/hf_transformers_recipe.py without a GPU: its non-training parts (reading a fold of a
``--to hf`` export, sub-word training labels, the runs still to do, the prediction files) with a stand-in
tokenizer and logits shaped like ``Trainer.predict``'s, end to end through ``textbcv evaluate`` with two
seeds per system."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora

EXAMPLES = Path(__file__).resolve().parents[1] / "scripts" / "examples"
sys.path.insert(0, str(EXAMPLES))

import hf_transformers_recipe as recipe  # noqa: E402


def _word_ids(words: list[str]) -> list[int | None]:
    """A stand-in fast tokenizer: [CLS], each word in pieces of at most 3 characters, [SEP]."""
    out: list[int | None] = [None]
    for i, w in enumerate(words):
        out += [i] * ((len(w) + 2) // 3)
    return [*out, None]


def _logits(test, word_ids, n_labels: int, rng, noise: float, width: int) -> np.ndarray:
    """Logits (sentences × sub-words × labels), padded to ``width`` like Trainer.predict's: every piece of a word
    favours its gold label, except words flipped to a random label with probability ``noise``."""
    out = np.full((len(test), width, n_labels), -5.0)
    for k, ((_words, labels), ids) in enumerate(zip(test, word_ids)):
        for j, w in enumerate(ids):
            if w is not None:
                y = labels[w] if rng.random() >= noise else int(rng.integers(n_labels))
                out[k, j, y] = 5.0
    return out


def test_recipe_parts_end_to_end_with_two_seeds(tmp_path):
    corpus = tmp_path / "ner.conll"
    write_conll(read_corpus(bundled_corpora()["ner"])[:300], corpus)
    assert main(["split", str(corpus), "--m", "2", "--seed", "0", "--out", str(tmp_path / "splits.json"),
                 "--export", str(tmp_path / "folds"), "--to", "hf"]) == 0
    seeds = [1, 2]
    for system, noise in (("good", 0.03), ("worse", 0.08)):
        pred = tmp_path / "preds" / system
        todo = recipe.runs(tmp_path / "folds", pred, seeds)
        assert len(todo) == 4 * len(seeds)
        for folder, seed, out in todo:
            fold = recipe.read_fold(folder)
            ids = [_word_ids(w) for w, _ in fold["test"]]
            rng = np.random.default_rng([seed, len(system)])
            logits = _logits(fold["test"], ids, len(fold["label_names"]), rng, noise, max(map(len, ids)) + 2)
            counts = recipe.write_predictions(fold["test"], logits, ids, fold["label_names"], out)
            assert counts["cut_off"] == 0 and counts["sentences"] == len(fold["test"])
            # the file equals an independent alignment: each word's first piece's argmax
            lines = [x.split(" ") for x in out.read_text(encoding="utf-8").splitlines() if x]
            want = []
            for (words, _), row, wid in zip(fold["test"], logits, ids):
                first = {w: j for j, w in reversed(list(enumerate(wid))) if w is not None}
                want += [[words[i], fold["label_names"][int(np.argmax(row[first[i]]))]] for i in range(len(words))]
            assert lines == want
        assert recipe.runs(tmp_path / "folds", pred, seeds) == []  # finished files are not trained again
    assert main(["evaluate", str(tmp_path / "splits.json"), str(corpus), "--task", "ner", "--quiet", "--no-plots",
                 "--system", f"worse={tmp_path / 'preds' / 'worse'}", "--system", f"good={tmp_path / 'preds' / 'good'}",
                 "--out", str(tmp_path / "run")]) == 0
    report = json.loads((tmp_path / "run" / "report.json").read_text(encoding="utf-8"))
    f1 = next(c for c in report["comparisons"] if c["metric"] == "f1")
    assert f1["difference"]["seeds"] == [2, 2]  # the seeds measured as a part of their own
    assert f1["difference"]["estimate"] > 0  # fewer flipped words: better
    assert "the training seeds" in (tmp_path / "run" / "report.md").read_text(encoding="utf-8")


def test_training_labels_first_sub_word():
    assert recipe.training_labels([None, 0, 0, 1, None], [4, 2]) == [-100, 4, -100, 2, -100]


def test_the_command_system_recipe_reads_two_files_and_writes_one(tmp_path):
    """scripts/examples/hf_command.py as textbcv runs it: the fold's JSON-lines files in, predictions textbcv reads
    out (a stand-in for the fine-tuning tags every word with its most frequent training label)."""
    import hf_command

    from textbcv.corpus.predictions import read_tag_predictions
    from textbcv.schemes import encode
    from textbcv.tagging.command import write_fold_files

    sents = read_corpus(bundled_corpora()["ner"]).sentences[:160]
    train, test = sents[:120], sents[120:]
    write_fold_files(tmp_path, train, [encode(s.chunks, len(s), "iob2") for s in train], test, "jsonl")

    def stand_in(fold, model, seed, epochs):
        seen = {w: y for words, ys in fold["train"] for w, y in zip(words, ys)}
        ids = [_word_ids(w) for w, _ in fold["test"]]
        width = max(map(len, ids)) + 2
        logits = np.full((len(fold["test"]), width, len(fold["label_names"])), -5.0)
        for k, ((words, _), wid) in enumerate(zip(fold["test"], ids)):
            for j, w in enumerate(wid):
                if w is not None:
                    logits[k, j, seen.get(words[w], 0)] = 5.0
        return logits, ids

    out = tmp_path / "pred.conll"
    assert hf_command.main(["--train", str(tmp_path / "train.jsonl"), "--test", str(tmp_path / "test.jsonl"),
                            "--out", str(out), "--seed", "3"], predict=stand_in) == 0
    got = read_tag_predictions(out, test).tags  # textbcv reads it as it reads any command's predictions
    fold = hf_command.fold_of(hf_command.read_rows(tmp_path / "train.jsonl"),
                              hf_command.read_rows(tmp_path / "test.jsonl"))
    seen = {w: y for words, ys in fold["train"] for w, y in zip(words, ys)}
    assert [list(t) for t in got] == [[fold["label_names"][seen.get(w, 0)] for w in s.tokens] for s in test]


def test_recipe_extra_holds_every_library_the_recipe_imports():
    """``pip install -e '.[recipe]'`` gives everything the recipe's scripts import (tokenizers comes with
    transformers, torch is what Trainer runs on), and docs/byo.md says how to keep torch CPU-only."""
    import ast

    import pytest

    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    root = EXAMPLES.parents[1]
    extra = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]["recipe"]
    names = {req.split(">")[0].split("=")[0].split("[")[0].strip() for req in extra}
    imported = set()
    for script in ("hf_transformers_recipe.py", "hf_command.py"):
        for node in ast.walk(ast.parse((EXAMPLES / script).read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                imported.update(a.name.split(".")[0] for a in node.names)
    third_party = imported - set(sys.stdlib_module_names) - {"textbcv", "hf_transformers_recipe", "__future__"}
    assert third_party - {"tokenizers"} <= names, third_party
    assert {"torch", "accelerate"} <= names  # Trainer's own needs, never imported by name
    byo = (root / "docs" / "byo.md").read_text()
    assert "pip install -e '.[recipe]'" in byo and "whl/cpu" in byo
