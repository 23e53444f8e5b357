"""From a Hugging Face ``Trainer.predict`` output to the prediction files ``textbcv evaluate`` reads.

A transformer tags sub-words; textbcv scores words. For each test sentence of a fold, the model's
output (logits of shape (sub-words, labels), or label ids) and the tokenizer's ``word_ids()`` (the
word of each sub-word, None for special tokens) give one tag per word by the **first sub-word rule**
(the label of a word's first sub-word, as the ``transformers`` token-classification examples train
it), or by ``rule="majority"`` (the most frequent label over its sub-words, ties to the first) or
``rule="mean"`` (the argmax of its sub-words' mean logits; logits only). A word no sub-word reaches
(cut off by ``max_length``) gets ``O``; :func:`fold_predictions` counts them and says so.

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
from textbcv.errors import InputError, warn

__all__ = ["fold_predictions", "word_labels", "RULES"]

#: How a word's tag is chosen from its sub-words.
RULES = ("first", "majority", "mean")


def word_labels(predictions: Any, word_ids: Sequence[int | None], n_words: int, rule: str = "first") -> np.ndarray:
    """The label id of each of ``n_words`` words of one sentence (-1 for a word no sub-word reaches).

    ``predictions``: the sentence's logits (sub-words × labels) or label ids (sub-words), padded beyond
    ``word_ids`` as ``Trainer.predict`` pads them.

    Parameters
    ----------
    predictions : array_like
        Logits of shape (sub-words, labels), or label ids of shape (sub-words,), for one sentence.
    word_ids : sequence of int or None
        The word index of every sub-word (``tokenizer(...).word_ids()``); None for special tokens.
    n_words : int
        Number of words of the sentence.
    rule : {"first", "majority", "mean"}
        How a word's label is chosen from its sub-words (see the module docstring); ``"mean"``
        needs logits. Default ``"first"``.

    Returns
    -------
    numpy.ndarray of int64
        Shape (n_words,): the label id of each word, -1 for a word no sub-word reaches.

    Raises
    ------
    ValueError
        For an unknown ``rule``, ``"mean"`` with label ids, more word ids than predicted sub-words, or a
        word id outside ``range(n_words)``.
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
        The words of the fold's test sentences, in the order of its ``test`` file.
    predictions : array or sequence
        ``Trainer.predict(...).predictions``: logits (sentences × sub-words × labels) or label ids
        (sentences × sub-words), one row per sentence in the same order.
    word_ids : sequence of sequences
        Each sentence's ``encoding.word_ids()`` (None for special tokens).
    label_names : sequence of str
        The tag of each label id (``model.config.id2label`` in id order).
    path : path
        The file to write, ``PRED_DIR/fold-{i}-{d}.txt``.
    rule : {"first", "majority", "mean"}
        How a word's tag is chosen from its sub-words (module docstring).

    Returns
    -------
    dict
        ``sentences``, ``words`` and ``cut_off`` (words no sub-word reached, written as ``O``).
    """
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
