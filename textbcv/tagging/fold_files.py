"""A command system's fold files: the training half with its gold tags and the test half, in CoNLL or JSON lines."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterator, Sequence

from textbcv._io import atomic_write
from textbcv.corpus.model import Sentence
from textbcv.errors import InputError

__all__ = ["write_fold_files"]


def write_fold_files(folder: str | os.PathLike, train: Sequence[Sentence], train_tags: Sequence[Sequence[str]],
                     test: Sequence[Sentence], format: str = "conll",
                     dev: tuple[Sequence[Sentence], Sequence[Sequence[str]]] | None = None) -> tuple[Path, Path]:
    """Write a fold's training and test files into ``folder`` atomically (kept when unchanged).

    Parameters
    ----------
    folder : path
    train : sequence of Sentence
    train_tags : sequence of sequences of str
        Gold tags of ``train`` in the system's scheme.
    test : sequence of Sentence
        Written with the tag ``O`` on every token.
    format : {"conll", "jsonl"}
    dev : (sequence of Sentence, sequence of sequences of str), optional
        A development set with its gold tags in the system's scheme, written as ``dev.EXT`` beside them.

    Returns
    -------
    (Path, Path)
        The training file and the test file.

    Raises
    ------
    InputError
        For a token a CoNLL file cannot hold (empty, or holding a space).
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ext = "conll" if format == "conll" else "jsonl"
    paths = folder / f"train.{ext}", folder / f"test.{ext}"
    halves = [(train, train_tags), (test, [("O",) * len(s) for s in test])]
    files = list(paths)
    if dev is not None:
        halves.append(dev)
        files.append(folder / f"dev.{ext}")
    for path, (sents, tags) in zip(files, halves):
        text = "".join(_rows(sents, tags, format))
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        with atomic_write(path, durable=False) as f:  # remade from the corpus on every run: no resume reads it
            f.write(text)
    return paths


def _rows(sents: Sequence[Sentence], tags: Sequence[Sequence[str]], format: str) -> Iterator[str]:
    for s, t in zip(sents, tags):
        if format == "jsonl":
            yield json.dumps({"tokens": list(s.tokens), "tags": list(t)}, ensure_ascii=False) + "\n"
            continue
        toks = s.tokens
        # one C-level test per sentence: the tokens come back from joining and splitting on white space
        # (str.split's, that of str.isspace) exactly when none is empty or holds white space
        if " ".join(toks).split() != list(toks):
            tok = next(x for x in toks if not x or any(c.isspace() for c in x))
            raise InputError(f"cannot write the token {tok!r} in a CoNLL file for a command system (empty or "
                             f"holds a space); use the jsonl command format", file=s.source, line=s.line)
        yield "\n".join(map(" ".join, zip(toks, t))) + "\n\n" if toks else "\n"
