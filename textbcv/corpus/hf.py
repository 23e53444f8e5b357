"""From a Hugging Face ``Trainer.predict`` output to the prediction files ``textbcv evaluate`` reads.

Sub-word labels become one tag per word by ``rule``: ``"first"`` (the word's first sub-word), ``"majority"``
(most frequent label, ties to the first) or ``"mean"`` (argmax of the mean logits; logits only). A word no
sub-word reaches (cut off by ``max_length``) gets ``O``.

Examples
--------
>>> import numpy as np, tempfile, os
>>> tokens = [["EU", "rejects", "Germany"]]
>>> word_ids = [[None, 0, 1, 1, 2, None]]                # [CLS] EU re ##jects Germany [SEP]
>>> label_ids = np.array([[-100, 1, 0, 3, 5, -100]])     # padded like Trainer.predict's output
>>> names = ["O", "B-ORG", "I-ORG", "B-MISC", "I-MISC", "B-LOC", "I-LOC"]
>>> p = os.path.join(tempfile.mkdtemp(), "fold-0-0.txt")
>>> fold_predictions(tokens, label_ids, word_ids, names, p)
{'sentences': 1, 'words': 3, 'cut_off': 0}
>>> print(open(p).read())
EU B-ORG
rejects O
Germany B-LOC
<BLANKLINE>
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from textbcv._io import atomic_write
from textbcv.corpus.jsonl import check_label_names
from textbcv.errors import InputError, warn

__all__ = ["fold_predictions", "word_labels", "RULES"]

#: How a word's tag is chosen from its sub-words.
RULES = ("first", "majority", "mean")


def word_labels(predictions: Any, word_ids: Sequence[int | None], n_words: int, rule: str = "first") -> np.ndarray:
    """The label id of each word of one sentence (-1 for a word no sub-word reaches).

    Parameters
    ----------
    predictions : array_like
        Logits (sub-words × labels) or label ids (sub-words), padded as ``Trainer.predict`` pads them.
    word_ids : sequence of int or None
        The word of every sub-word; None for special tokens.
    n_words : int
    rule : {"first", "majority", "mean"}
        See the module docstring; ``"mean"`` needs logits.

    Returns
    -------
    numpy.ndarray of int64
        Shape (n_words,).

    Raises
    ------
    ValueError
        For an unknown ``rule``, ``"mean"`` with label ids, more word ids than sub-words, or a word id out of range.
    """
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(RULES)}, got {rule!r}")
    p = np.asarray(predictions)
    logits = p.ndim == 2
    if rule == "mean" and not logits:
        raise ValueError('rule "mean" needs logits, not label ids')
    ids = p.argmax(axis=-1) if logits else p
    if len(word_ids) > len(ids):
        raise ValueError(f"{len(word_ids)} word ids for {len(ids)} predicted sub-words")
    out = np.full(n_words, -1, dtype=np.int64)
    groups: dict[int, list[int]] = {}
    for k, w in enumerate(word_ids):
        if w is None:
            continue
        if not 0 <= w < n_words:
            raise ValueError(f"word id {w} outside the sentence's {n_words} words")
        groups.setdefault(int(w), []).append(k)
    for w, ks in groups.items():
        if rule == "first":
            out[w] = int(ids[ks[0]])
        elif rule == "majority":
            values = [int(ids[k]) for k in ks]
            out[w] = max(values, key=lambda v: (values.count(v), -values.index(v)))
        else:
            out[w] = int(p[ks].mean(axis=0).argmax())
    return out


def fold_predictions(tokens: Sequence[Sequence[str]], predictions: Any, word_ids: Sequence[Sequence[int | None]],
                     label_names: Sequence[str], path: str | os.PathLike, rule: str = "first") -> dict[str, int]:
    """Write one fold's prediction file (``token tag`` lines, a blank line after each sentence).

    Parameters
    ----------
    tokens : sequence of sequences of str
        The fold's test sentences, in the order of its ``test`` file.
    predictions : array or sequence
        ``Trainer.predict(...).predictions``, one row per sentence.
    word_ids : sequence of sequences
        Each sentence's ``encoding.word_ids()``.
    label_names : sequence of str
        The tag of each label id.
    path : path
    rule : {"first", "majority", "mean"}

    Returns
    -------
    dict
        ``sentences``, ``words`` and ``cut_off`` (words no sub-word reached, written as ``O``).
    """
    check_label_names(label_names, param="label_names")
    if len(tokens) != len(word_ids) or len(tokens) != len(predictions):
        raise InputError(f"{len(tokens)} sentences, {len(word_ids)} word_ids rows and {len(predictions)} prediction "
                         "rows: give one of each per test sentence, in the test file's order", file=str(path))
    lines: list[str] = []
    cut = words = 0
    for i, (sent, wids, pred) in enumerate(zip(tokens, word_ids, predictions)):
        try:
            labels = word_labels(pred, wids, len(sent), rule)
        except ValueError as e:
            raise InputError(f"sentence {i + 1}: {e}", file=str(path)) from None
        bad = labels[(labels >= len(label_names))]
        if len(bad):
            raise InputError(f"sentence {i + 1}: label id {int(bad[0])} has no name ({len(label_names)} label names)",
                             file=str(path))
        cut += int(np.sum(labels < 0))
        words += len(sent)
        lines += [f"{w} {label_names[k] if k >= 0 else 'O'}" for w, k in zip(sent, labels)]
        lines.append("")
    with atomic_write(path) as f:
        f.write("\n".join(lines) + ("\n" if lines else ""))
    if cut:
        warn(f"{cut} of {words} words were cut off (no sub-word; max_length?) and written as O", file=str(path))
    return {"sentences": len(tokens), "words": words, "cut_off": cut}
