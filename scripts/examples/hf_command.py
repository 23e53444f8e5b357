#!/usr/bin/env python3
"""Fine-tune a transformer on one fold: the Hugging Face Trainer as a textbcv command system.

textbcv runs it once per fold and training seed, in parallel over GPUs, resumably; from the root of the
textbcv source tree, as pasted (a command runs in the folder textbcv was started from, so its relative
script path is that folder's)::

    textbcv compare corpus.conll --task ner --m 3 --train-seeds 3 --command-format jsonl --jobs 4 \\
        --system bert='python scripts/examples/hf_command.py --train {train} --test {test} --out {pred} \\
                       --seed {seed} --model bert-base-cased' \\
        --systems iob2 --algorithm ap --out run

It reads the fold's two files (JSON lines ``{"tokens": [...], "tags": [...]}``, the test half tagged
``O``), fine-tunes ``--model`` on the training half with ``transformers.Trainer`` (seed: the new head's
weights and the data order), predicts the test half and writes one ``token tag`` line per word (first
sub-word rule, :func:`textbcv.corpus.hf.fold_predictions`) to ``--out``. textbcv gives each concurrent
task its own GPU through ``CUDA_VISIBLE_DEVICES``. Nothing here is textbcv-specific beyond reading
two files and writing one; the parts that need no model are tested in CI
(``tests/test_examples_hf.py``) with a stand-in for the fine-tuning.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hf_transformers_recipe import fine_tune_and_predict, write_predictions  # noqa: E402


def read_rows(path: Path) -> list[tuple[list[str], list[str]]]:
    """The sentences of a command system's JSON-lines file: (words, tags)."""
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [(r["tokens"], r["tags"]) for r in rows]


def fold_of(train: Sequence[tuple[list[str], list[str]]], test: Sequence[tuple[list[str], list[str]]]) -> dict:
    """The fold as the fine-tuning reads it: label names (``O`` first, then the training tags in order) and
    every sentence's words with label ids (the test half's all ``O``)."""
    names = ["O", *sorted({t for _, tags in train for t in tags} - {"O"})]
    index = {n: i for i, n in enumerate(names)}
    return {"label_names": names, "train": [(w, [index[t] for t in tags]) for w, tags in train],
            "test": [(w, [0] * len(w)) for w, _ in test]}


def main(argv: Sequence[str] | None = None,
         predict: Callable[[dict, str, int, float], tuple[Any, list]] = fine_tune_and_predict) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", type=Path, required=True)
    ap.add_argument("--test", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--model", default="bert-base-cased")
    ap.add_argument("--epochs", type=float, default=3.0)
    args = ap.parse_args(argv)
    fold = fold_of(read_rows(args.train), read_rows(args.test))
    predictions, word_ids = predict(fold, args.model, args.seed, args.epochs)
    counts = write_predictions(fold["test"], predictions, word_ids, fold["label_names"], args.out)
    print(json.dumps(counts), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
