#!/usr/bin/env python3
"""Fine-tune a transformer on every fold and seed, and let textbcv answer "is it better?" over both.

Run on a machine with a GPU, ``transformers`` and ``torch`` installed (textbcv does not need them)::

    textbcv split CORPUS --m 3 --out splits.json --export folds --to hf          # 1. the folds as datasets rows
    python scripts/examples/hf_transformers_recipe.py folds preds/bert \\
        --model bert-base-cased --seeds 1,2,3                                       # 2. this script
    textbcv evaluate splits.json CORPUS --task ner --system bert=preds/bert \\
        --system crf=preds/crf --out run                                           # 3. the report

For every exported fold ``folds/fold-{i}-{d}/`` (``train.jsonl``, ``test.jsonl``, ``label_names.json``) and
every seed S it fine-tunes ``--model`` on the train half with ``transformers.Trainer`` (seed S: weights of
the new head and the data order), predicts the test half in one ``Trainer.predict`` call, and writes the
fold's word-level tags with :func:`textbcv.corpus.hf.fold_predictions` (first sub-word rule) to
``PRED/seed-S/fold-{i}-{d}.txt``, the layout ``textbcv evaluate`` reads for several seeds. A finished
file is never trained again, so an interrupted run resumes. With two seeds or more for each system,
the report's ΔF1 posterior has the seeds as a part of their own beside new text and training sets.

The parts that need no model — reading a fold, labelling sub-words for training, the runs to do, the
prediction files — are plain functions, tested in CI (tests/test_examples_hf.py) with a stand-in
tokenizer and logits shaped like ``Trainer.predict``'s; only :func:`fine_tune_and_predict` needs a GPU.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textbcv.corpus.hf import fold_predictions


def read_fold(folder: Path) -> dict[str, Any]:
    """One exported fold: its train and test sentences (words, label ids) and the label names.

    Parameters
    ----------
    folder : Path
        ``folds/fold-{i}-{d}`` as ``textbcv split --export DIR --to hf`` wrote it.

    Returns
    -------
    dict
        ``train`` and ``test`` (lists of (words, label ids)), ``label_names`` (the tag of each id).
    """
    names = json.loads((folder / "label_names.json").read_text(encoding="utf-8"))
    out: dict[str, Any] = {"label_names": names}
    for part in ("train", "test"):
        rows = [json.loads(x) for x in (folder / f"{part}.jsonl").read_text(encoding="utf-8").splitlines() if x]
        out[part] = [(r["tokens"], [t if isinstance(t, int) else names.index(t) for t in r["ner_tags"]])
                     for r in rows]
    return out


def training_labels(word_ids: Sequence[int | None], labels: Sequence[int]) -> list[int]:
    """Sub-word training labels by the first sub-word rule: a word's label on its first piece, -100 (ignored by the
    loss) on its other pieces and on special tokens.

    Parameters
    ----------
    word_ids : sequence of int or None
        The tokenizer's ``word_ids()`` of one sentence.
    labels : sequence of int
        The sentence's word-level label ids.

    Returns
    -------
    list of int
        One label per sub-word.

    Examples
    --------
    >>> training_labels([None, 0, 1, 1, 2, None], [3, 0, 5])
    [-100, 3, 0, -100, 5, -100]
    """
    out, previous = [], None
    for w in word_ids:
        out.append(-100 if w is None or w == previous else int(labels[w]))
        previous = w
    return out


def runs(folds: Path, pred: Path, seeds: Sequence[int]) -> list[tuple[Path, int, Path]]:
    """The (fold folder, seed, prediction file) still to do: every fold × seed whose file is not written yet.

    Parameters
    ----------
    folds : Path
        The export folder (``fold-*`` sub-folders).
    pred : Path
        The system's prediction folder (``seed-S/fold-{i}-{d}.txt`` inside).
    seeds : sequence of int
        The training seeds.

    Returns
    -------
    list of (Path, int, Path)
    """
    todo = []
    for fold in sorted(p for p in folds.iterdir() if p.is_dir() and p.name.startswith("fold-")):
        for s in seeds:
            out = pred / f"seed-{s}" / f"{fold.name}.txt"
            if not out.exists():
                todo.append((fold, s, out))
    return todo


def write_predictions(test: Sequence[tuple[Sequence[str], Sequence[int]]], predictions: Any,
                      word_ids: Sequence[Sequence[int | None]], label_names: Sequence[str], out: Path) -> dict:
    """Write one fold's prediction file from ``Trainer.predict`` output (first sub-word rule).

    Parameters
    ----------
    test : sequence of (words, label ids)
        The fold's test sentences, in the file's order.
    predictions : array
        ``Trainer.predict(...).predictions`` (logits or label ids, padded).
    word_ids : sequence of sequences
        Each test sentence's ``word_ids()``.
    label_names : sequence of str
        The tag of each label id.
    out : Path
        ``PRED/seed-S/fold-{i}-{d}.txt``.

    Returns
    -------
    dict
        :func:`textbcv.corpus.hf.fold_predictions`' counts (sentences, words, cut_off).
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    return fold_predictions([w for w, _ in test], predictions, word_ids, label_names, out)


#: ``--model`` value that builds a tiny randomly initialised BERT from a config, with a word-level tokenizer made
#: from the fold's own training words: no download, seconds on a CPU (for tests and dry runs, not for results)
TINY = "tiny"


def tiny_model(fold: dict) -> tuple[Any, Any]:
    """A fast word-level tokenizer of the fold's training words and a tiny randomly initialised
    ``BertForTokenClassification`` (one layer of width 32) with the fold's labels; nothing is downloaded.

    Parameters
    ----------
    fold : dict
        :func:`read_fold`'s answer (``label_names``, ``train``).

    Returns
    -------
    (PreTrainedTokenizerFast, BertForTokenClassification)
    """
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import BertConfig, BertForTokenClassification, PreTrainedTokenizerFast

    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
    words = sorted({w for ws, _ in fold["train"] for w in ws})
    vocab = {t: i for i, t in enumerate(special + words)}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    core.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[
        ("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, unk_token="[UNK]", pad_token="[PAD]",
                                        cls_token="[CLS]", sep_token="[SEP]")
    names = fold["label_names"]
    config = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=512, num_labels=len(names),
                        id2label=dict(enumerate(names)), label2id={n: i for i, n in enumerate(names)})
    return tokenizer, BertForTokenClassification(config)


def fine_tune_and_predict(fold: dict, model_name: str, seed: int, epochs: float = 3.0) -> tuple[Any, list]:
    """Fine-tune ``model_name`` on the fold's train half with ``seed`` and predict its test half (needs a GPU,
    ``transformers`` and ``torch``; not run in CI).

    Parameters
    ----------
    fold : dict
        :func:`read_fold`'s answer.
    model_name : str
        A Hugging Face model with a fast tokenizer, e.g. ``bert-base-cased``; :data:`TINY` builds a tiny one from
        a config (:func:`tiny_model`).
    seed : int
        The training seed (``TrainingArguments.seed``: the new head's weights and the data order).
    epochs : float
        Training epochs.

    Returns
    -------
    (array, list)
        ``Trainer.predict``'s predictions for the test sentences, and their ``word_ids()``.
    """
    from datasets import Dataset
    from transformers import (
        AutoModelForTokenClassification,
        AutoTokenizer,
        DataCollatorForTokenClassification,
        Trainer,
        TrainingArguments,
        set_seed,
    )

    set_seed(seed)
    names = fold["label_names"]
    if model_name == TINY:
        tokenizer, model = tiny_model(fold)
    else:
        tokenizer = AutoTokenizer.from_pretrained(model_name)
        model = AutoModelForTokenClassification.from_pretrained(
            model_name, num_labels=len(names), id2label=dict(enumerate(names)),
            label2id={n: i for i, n in enumerate(names)})

    def encode(rows, with_labels):
        enc = [tokenizer(w, is_split_into_words=True, truncation=True) for w, _ in rows]
        cols: dict[str, list] = {"input_ids": [e["input_ids"] for e in enc],
                                 "attention_mask": [e["attention_mask"] for e in enc]}
        if with_labels:
            cols["labels"] = [training_labels(e.word_ids(), y) for e, (_, y) in zip(enc, rows)]
        return Dataset.from_dict(cols), [e.word_ids() for e in enc]

    train, _ = encode(fold["train"], True)
    test, word_ids = encode(fold["test"], False)
    # the Trainer wants a folder of its own even when it saves nothing: a temporary one, removed after
    with tempfile.TemporaryDirectory(prefix="textbcv-hf-") as scratch:
        args = TrainingArguments(output_dir=scratch, seed=seed, num_train_epochs=epochs,
                                 per_device_train_batch_size=16, save_strategy="no", report_to=[],
                                 learning_rate=1e-3 if model_name == TINY else 5e-5)
        trainer = Trainer(model=model, args=args, train_dataset=train,
                          data_collator=DataCollatorForTokenClassification(tokenizer))
        trainer.train()
        return trainer.predict(test).predictions, word_ids


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folds", type=Path, help="the folder `textbcv split --export DIR --to hf` wrote")
    ap.add_argument("pred", type=Path, help="the system's prediction folder (seed-S/fold-i-d.txt inside)")
    ap.add_argument("--model", default="bert-base-cased")
    ap.add_argument("--seeds", default="1,2,3", help="training seeds, comma-separated (default 1,2,3)")
    ap.add_argument("--epochs", type=float, default=3.0)
    args = ap.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",") if s]
    todo = runs(args.folds, args.pred, seeds)
    for k, (folder, seed, out) in enumerate(todo, 1):
        fold = read_fold(folder)
        predictions, word_ids = fine_tune_and_predict(fold, args.model, seed, args.epochs)
        counts = write_predictions(fold["test"], predictions, word_ids, fold["label_names"], out)
        print(f"{out}: {counts['words']} words ({k}/{len(todo)})", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
