"""The split manifest: a set of splits as a value, its folds, and its JSON file (docs/formats.md)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from textbcv._io import dumps_json, load_json, write_json
from textbcv.corpus.fingerprint import FINGERPRINT_METHOD, fingerprint
from textbcv.errors import InputError

__all__ = ["SplitSet", "load_splits", "FORMAT", "ONE_WAY"]

FORMAT = "textbcv-splits/1"
ONE_WAY = ("brhs",)  # folds that are not 2-fold pairs
_HEX16 = re.compile(r"[0-9a-f]{16}")


@dataclass
class SplitSet:
    """m splits of n sentences, each a (train, valid) pair of sorted index arrays partitioning ``range(n)``.

    Parameters
    ----------
    splits : list of tuple of numpy.ndarray
    n : int
    method : str
        The design (:data:`textbcv.split.designs.METHODS`; default ``"bcv"``).
    m, seed : int
        The m (BRHS: 2m one-way splits) and seed the set was made with (default 0).
    options : dict
        The options recorded in the manifest.
    quality : dict or None
        The quality block (:func:`textbcv.split.quality.split_quality`).
    fingerprints : list of str or None
        The fingerprint of every sentence.

    Examples
    --------
    >>> from textbcv.split import split_units
    >>> s = split_units(8, m=3, seed=0)
    >>> len(s), s.n_folds, [len(t) for t, v in s.splits]
    (3, 6, [4, 4, 4])
    """

    splits: list[tuple[np.ndarray, np.ndarray]]
    n: int
    method: str = "bcv"
    m: int = 0
    seed: int = 0
    options: dict = field(default_factory=dict)
    quality: dict | None = None
    fingerprints: list[str] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.splits)

    @property
    def n_folds(self) -> int:
        """Number of folds: 2 per split, 1 for one-way designs (:data:`ONE_WAY`: ``brhs``)."""
        return len(self.splits) if self.method in ONE_WAY else 2 * len(self.splits)

    def folds(self) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
        """Yield ``(split, direction, train_idx, test_idx)`` in fold order; direction 1 swaps the halves (not for BRHS).

        Yields
        ------
        split, direction : int
        train_idx, test_idx : numpy.ndarray of int64
        """
        for i, (t, v) in enumerate(self.splits):
            yield i, 0, t, v
            if self.method not in ONE_WAY:
                yield i, 1, v, t

    def train_masks(self) -> np.ndarray:
        """The training halves as a boolean (m, n) matrix.

        Returns
        -------
        numpy.ndarray of bool
        """
        out = np.zeros((len(self.splits), self.n), dtype=bool)
        for i, (t, _) in enumerate(self.splits):
            out[i, t] = True
        return out

    def to_json(self) -> dict:
        """The ``textbcv-splits/1`` JSON object of the manifest.

        Returns
        -------
        dict
        """
        d = {"format": FORMAT, "method": self.method, "m": self.m, "seed": self.seed, "n_sentences": self.n,
             "options": self.options,
             "splits": [{"train": t.tolist(), "valid": v.tolist()} for t, v in self.splits]}
        if self.quality is not None:
            d["quality"] = self.quality
        if self.fingerprints is not None:
            d["fingerprint_method"] = FINGERPRINT_METHOD
            d["fingerprints"] = list(self.fingerprints)
        return d

    def check_corpus(self, corpus, file: str = "SPLITS.json") -> None:
        """Refuse a corpus that is not the one these splits were made for (size and sentence fingerprints).

        Parameters
        ----------
        corpus : Corpus
        file : str
            How the manifest is named in messages (default ``"SPLITS.json"``).

        Raises
        ------
        InputError
            Naming the first sentence that differs, or ``file`` when the sizes differ or it has no fingerprints.

        Examples
        --------
        >>> from textbcv.corpus.model import Corpus, Sentence
        >>> from textbcv.split import make_splits
        >>> c = Corpus([Sentence((w,), source="x.txt", line=i + 1) for i, w in enumerate("abcdefgh")], ["x.txt"],
        ...            "segmented")
        >>> make_splits(c, m=1, balance="none").check_corpus(c[::-1])
        Traceback (most recent call last):
        ...
        textbcv.errors.InputError: x.txt:8: sentence 0 is not the sentence 0 that SPLITS.json was made with (another
        corpus, order or tokenization?)
        """
        n = len(corpus)
        if n != self.n:
            raise InputError(f"made for {self.n} sentences, but the corpus has {n}: another corpus?", file=file)
        if self.fingerprints is None:
            raise InputError("holds no sentence fingerprints (made without a corpus), so the corpus cannot be "
                             "checked against it; make it again with `textbcv split`", file=file)
        for i, (s, f) in enumerate(zip(corpus, self.fingerprints)):
            if fingerprint(s.tokens) != f:
                raise InputError(f"sentence {i} is not the sentence {i} that {os.path.basename(file)} was made with "
                                 "(another corpus, order or tokenization?)", file=s.source or None, line=s.line or None)

    def save(self, path: str | os.PathLike) -> None:
        """Write the manifest atomically, as compact JSON.

        Parameters
        ----------
        path : str or path-like
        """
        write_json(path, self.to_json(), indent=None)

    def dumps(self) -> str:
        """The manifest as compact JSON text (what :meth:`save` writes).

        Returns
        -------
        str
        """
        return dumps_json(self.to_json(), indent=None)


def load_splits(path: str | os.PathLike) -> SplitSet:
    """Read a ``textbcv-splits/1`` manifest, checking that every split is a partition of the sentences.

    Parameters
    ----------
    path : path

    Returns
    -------
    SplitSet

    Raises
    ------
    InputError
        Naming the file for anything that is not such a manifest.
    """
    name = str(path)
    d = load_json(path)
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise InputError(f"not a {FORMAT} manifest (no \"format\": \"{FORMAT}\")", file=name)

    def integer(value, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{what} must be an integer, got {json.dumps(value)[:40]}", file=name)
        return value

    n = integer(d.get("n_sentences"), '"n_sentences"')
    raw = d.get("splits")
    if not isinstance(raw, list) or not raw:
        raise InputError('"splits" must be a non-empty list of {"train": [...], "valid": [...]}', file=name)
    splits = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict) or not isinstance(s.get("train"), list) or not isinstance(s.get("valid"), list):
            raise InputError(f'split {i}: expected {{"train": [...], "valid": [...]}}', file=name)
        halves = []
        for key in ("train", "valid"):
            for x in s[key]:
                integer(x, f"split {i}: {key} index")
            halves.append(np.asarray(s[key], dtype=np.int64))
        t, v = halves
        both = np.concatenate([t, v])
        if len(both) != n or not np.array_equal(np.sort(both), np.arange(n)):
            raise InputError(f"split {i}: train and valid are not a partition of 0..{n - 1}", file=name)
        splits.append((t, v))
    method = d.get("method", "bcv")
    if not isinstance(method, str):
        raise InputError('"method" must be a string', file=name)
    m = integer(d.get("m", len(splits)), '"m"')
    seed = integer(d.get("seed", 0), '"seed"')
    options = d.get("options", {})
    if not isinstance(options, dict):
        raise InputError('"options" must be an object', file=name)
    fps = d.get("fingerprints")
    if fps is not None:
        if d.get("fingerprint_method") != FINGERPRINT_METHOD:
            raise InputError(f'"fingerprint_method" must be {json.dumps(FINGERPRINT_METHOD)} '
                             "(made by another textbcv version?)", file=name)
        well_formed = isinstance(fps, list) and all(isinstance(f, str) and _HEX16.fullmatch(f) for f in fps)
        if not well_formed or len(fps) != n:
            raise InputError(f'"fingerprints" must be a list of {n} fingerprints (16 hexadecimal digits each)',
                             file=name)
    return SplitSet(splits, n, method, m, seed, options, d.get("quality"), fingerprints=fps)
