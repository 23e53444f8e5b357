"""Split sets: build them (:func:`split_units`, :func:`make_splits`), iterate folds, save/load JSON.

The JSON format is ``textbcv-splits/1`` (docs/formats.md): ``splits[i]`` holds the
sorted sentence indices of the training and validation halves of split i; the
folds are train→valid then valid→train for i = 0..m-1.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from textbcv import defaults
from textbcv._io import dumps_json, write_json
from textbcv.corpus.fingerprint import FINGERPRINT_METHOD, corpus_fingerprints
from textbcv.errors import InputError
from textbcv.split import designs
from textbcv.split.balance import objective
from textbcv.split.labels import affordable_starts, best_labels
from textbcv.split.bcv import NestedBlocks, halves_from_blocks, max_m, n_blocks_for
from textbcv.split.profiles import MEASURES, corpus_profiles, group_rows, length_measures
from textbcv.split.quality import split_quality

__all__ = ["SplitSet", "split_units", "make_splits", "load_splits", "METHODS", "FORMAT"]

FORMAT = "textbcv-splits/1"
METHODS = ("bcv", "bcv-select", "random", "brhs", "oa", "kfold")
ONE_WAY = ("brhs", "kfold")  # folds that are not 2-fold pairs
_HEX16 = re.compile(r"[0-9a-f]{16}")


@dataclass
class SplitSet:
    """m splits of n sentences, each a (train, valid) pair of sorted index arrays.

    Examples
    --------
    >>> s = split_units(8, m=3, seed=0)
    >>> len(s), s.n_folds, [len(t) for t, v in s.splits]
    (3, 6, [4, 4, 4])
    >>> next(s.folds())[:2]
    (0, 0)
    """

    splits: list[tuple[np.ndarray, np.ndarray]]
    n: int
    method: str = "bcv"
    m: int = 0
    seed: int = 0
    options: dict = field(default_factory=dict)
    quality: dict | None = None
    _extend: object = field(default=None, repr=False)
    fingerprints: list[str] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.splits)

    @property
    def n_folds(self) -> int:
        return len(self.splits) if self.method in ONE_WAY else 2 * len(self.splits)

    def folds(self) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
        """Yield ``(split, direction, train_idx, test_idx)`` in fold order (BRHS: direction 0 only)."""
        for i, (t, v) in enumerate(self.splits):
            yield i, 0, t, v
            if self.method not in ONE_WAY:
                yield i, 1, v, t

    def train_masks(self) -> np.ndarray:
        out = np.zeros((len(self.splits), self.n), dtype=bool)
        for i, (t, _) in enumerate(self.splits):
            out[i, t] = True
        return out

    def extend(self, m: int) -> "SplitSet":
        """The nested split set with m splits (BCV only): the first splits are unchanged."""
        if self._extend is None:
            raise InputError(f"only --method bcv split sets can be extended, not {self.method}")
        return self._extend(m)

    def to_json(self) -> dict:
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
        """Refuse a corpus that is not the one these splits were made for.

        The corpus must have as many sentences as the manifest and, when the
        manifest holds fingerprints, the same sentences in the same order
        (compared by :func:`textbcv.corpus.fingerprint.fingerprint`).

        Raises
        ------
        InputError
            Naming the first sentence that differs (its file and line), or
            ``file`` when the sizes differ or the manifest has no fingerprints.

        Examples
        --------
        >>> from textbcv.corpus.model import Corpus, Sentence
        >>> c = Corpus([Sentence((w,), source="x.txt", line=i + 1) for i, w in enumerate("abcdefgh")], ["x.txt"], "segmented")
        >>> s = make_splits(c, m=1, balance="none")
        >>> s.check_corpus(c)
        >>> s.check_corpus(c[::-1])
        Traceback (most recent call last):
        ...
        textbcv.errors.InputError: x.txt:8: sentence 0 is not the sentence 0 that SPLITS.json was made with (another corpus, order or tokenization?)
        """
        from textbcv.corpus.fingerprint import fingerprint

        n = len(corpus)
        if n != self.n:
            raise InputError(f"made for {self.n} sentences, but the corpus has {n}: another corpus?", file=file)
        if self.fingerprints is None:
            raise InputError("holds no sentence fingerprints (written by an older textbcv), so the corpus cannot be "
                             "checked against it; make it again with `textbcv split`", file=file)
        for i, (s, f) in enumerate(zip(corpus, self.fingerprints)):
            if fingerprint(s.tokens) != f:
                raise InputError(f"sentence {i} is not the sentence {i} that {os.path.basename(file)} was made with "
                                 "(another corpus, order or tokenization?)", file=s.source or None, line=s.line or None)

    def save(self, path: str | os.PathLike) -> None:
        """Write the manifest atomically."""
        write_json(path, self.to_json(), indent=None)

    def dumps(self) -> str:
        return dumps_json(self.to_json(), indent=None)


def load_splits(path: str | os.PathLike) -> SplitSet:
    """Read a ``textbcv-splits/1`` manifest, checking that every split is a partition of the sentences.

    Raises
    ------
    InputError
        Naming the file for anything that is not such a manifest: invalid
        UTF-8 or JSON, missing or mistyped keys, indices that are not
        integers, splits that are not partitions of ``0..n_sentences - 1``.
    """
    from textbcv._io import load_json

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
            raise InputError(f'"fingerprint_method" must be {json.dumps(FINGERPRINT_METHOD)} (made by another textbcv version?)',
                             file=name)
        if not isinstance(fps, list) or len(fps) != n or not all(isinstance(f, str) and _HEX16.fullmatch(f) for f in fps):
            raise InputError(f'"fingerprints" must be a list of {n} fingerprints (16 hexadecimal digits each)', file=name)
    return SplitSet(splits, n, method, m, seed, options, d.get("quality"), fingerprints=fps)


def _items(n: int, groups) -> tuple[np.ndarray, np.ndarray]:
    """Item id of every unit (groups in order of first appearance) and sentences per item."""
    if groups is None:
        return np.arange(n), np.ones(n, dtype=np.int64)
    g = np.asarray(groups)
    if len(g) != n:
        raise InputError(f"groups has {len(g)} entries for {n} units")
    _, first, inv = np.unique(g, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    item = rank[inv.ravel()]
    return item, np.bincount(item).astype(np.int64)


def split_units(n: int, m: int = 3, *, method: str = "bcv", measures: dict[str, sp.csr_matrix] | None = None,
                groups=None, seed: int = 0, weights: dict[str, float] | None = None, effort: float = 1.0,
                select: int = 100, quality: bool = True, options: dict | None = None) -> SplitSet:
    """Split n units into m splits (the array core: no corpus needed).

    Parameters
    ----------
    n : int
        Number of units (sentences).
    m : int
        Number of splits (2m folds).
    method : {"bcv", "bcv-select", "random", "brhs", "oa", "kfold"}
        ``bcv-select`` is the thesis's selection (§4.2): ``select`` random
        (unbalanced) nested BCV block sets, keeping the one with the smallest
        largest χ²/J over halves and measures.
        ``brhs`` gives J = 2m half-samples (2m folds, one direction each);
        ``kfold`` gives K = m folds (one direction each); ``oa`` is the
        non-nested m×2 BCV on OA(4k).
    measures : dict of sparse (n, J), optional
        Category counts per unit to balance (empty or None: no balancing).
    groups : array, optional
        Units with equal group ids always share a block (documents, duplicates).
    seed : int
    quality : bool
        Compute the ``quality`` block.

    Examples
    --------
    >>> s = split_units(1003, m=7, seed=1)
    >>> s.quality["overlap_max_deviation"] <= 8 / 4
    True
    """
    if method not in METHODS:
        raise InputError(f"unknown split method {method!r} (methods: {', '.join(METHODS)})")
    if m < 1:
        raise InputError(f"--m must be at least 1, got {m}")
    if not (isinstance(effort, (int, float)) and np.isfinite(effort) and effort >= 0):
        raise InputError(f"--effort must be a non-negative number, got {effort!r}")
    measures = {k: v for k, v in (measures or {}).items()}
    item, weight = _items(n, groups)
    n_items = len(weight)
    if n_items < 4:
        raise InputError(f"BCV needs at least 4 units (or groups) to form 4 blocks, got {n_items}")
    item_measures = {}
    if measures:
        if groups is None:
            item_measures = {k: sp.csr_matrix(v) for k, v in measures.items()}
        else:
            item_measures = {k: group_rows(v, item, n_items) for k, v in measures.items()}
        X, W = objective(item_measures, weights)
    else:
        X, W = sp.csr_matrix((n_items, 0)), np.zeros(0)
    rng = np.random.default_rng(seed)
    kw = {"X": X, "W": W, "effort": effort} if X.shape[1] else {}
    opts = dict(options or {})
    extend = None
    if method == "bcv":
        if m > max_m(n_items):
            raise InputError(f"m = {m} is impossible with {n_items} units: at most {max_m(n_items)} "
                             f"(m ≤ N − 1 for N = {2 ** int(np.floor(np.log2(n_items)))} blocks of ≥ 1 unit)")
        nb = NestedBlocks(weight, X, W, seed=seed, effort=effort, balance=bool(X.shape[1]))
        if X.shape[1] and effort > 0 and affordable_starts(nb.leaves, X.shape[1]):  # leaf labels evening out the halves
            leaves = nb.blocks(nb.leaves)
            onehot = sp.csr_matrix((np.ones(n_items), (leaves, np.arange(n_items))), shape=(nb.leaves, n_items))
            counts = {k: np.asarray((onehot @ M).todense()) for k, M in item_measures.items()}
            nb.relabel(best_labels(counts, np.random.default_rng([seed, 1])))
        del item_measures

        def build(mm: int) -> SplitSet:
            if mm > max_m(n_items):
                raise InputError(f"m = {mm} is impossible with {n_items} units: at most {max_m(n_items)}")
            blocks = nb.blocks(n_blocks_for(mm))
            masks = halves_from_blocks(blocks, mm)
            return _finish(masks, item, n, "bcv", mm, seed, opts, measures, quality, build)

        return build(m)
    if method == "bcv-select":
        if m > max_m(n_items):
            raise InputError(f"m = {m} is impossible with {n_items} units: at most {max_m(n_items)}")
        if select < 1:
            raise InputError(f"--select must be at least 1, got {select}")
        nb, r, score = select_blocks(weight, item, n, m, measures, select, seed)
        opts.update({"select": int(select), "selected_draw": int(r), "select_score": round(float(score), 6)})

        def build_sel(mm: int) -> SplitSet:
            if mm > max_m(n_items):
                raise InputError(f"m = {mm} is impossible with {n_items} units: at most {max_m(n_items)}")
            masks = halves_from_blocks(nb.blocks(n_blocks_for(mm)), mm)
            return _finish(masks, item, n, "bcv-select", mm, seed, opts, measures, quality, build_sel)

        return build_sel(m)
    if method == "random":
        masks = np.array(designs.random_mx2(weight, m, rng))
    elif method == "oa":
        masks = np.array(designs.oa_mx2(weight, m, rng, **kw))
    elif method == "brhs":
        masks = np.array(designs.brhs(weight, 2 * m, rng, **kw))
    else:  # kfold: m folds
        masks = np.array(designs.kfold(weight, max(2, m), rng, **kw))
    return _finish(masks, item, n, method, m, seed, opts, measures, quality, extend)


def select_blocks(weight: np.ndarray, item: np.ndarray, n: int, m: int, measures: dict, R: int,
                  seed: int) -> tuple[NestedBlocks, int, float]:
    """The thesis's selection: R random nested block sets, the best by its largest χ²/J (over halves, measures).

    Returns the chosen blocks, the index of the chosen draw and its score.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> lab = sp.csr_matrix((np.ones(64), (np.arange(64), rng.integers(0, 3, 64))))
    >>> nb, r, score = select_blocks(np.ones(64, int), np.arange(64), 64, 3, {"label": lab}, 20, 0)
    >>> 0 <= r < 20, score < 1
    (True, True)
    """
    from textbcv.split.quality import max_chi2_per_df

    n_items = len(weight)
    item_measures = {k: group_rows(v, item, n_items) for k, v in measures.items()}
    best = None
    for r in range(R):
        s = int(np.random.default_rng([seed, r]).integers(2**31))
        nb = NestedBlocks(weight, sp.csr_matrix((n_items, 0)), np.zeros(0), seed=s, balance=False)
        masks = halves_from_blocks(nb.blocks(n_blocks_for(m)), m)
        score = max_chi2_per_df(masks, item_measures) if item_measures else 0.0
        if best is None or score < best[2]:
            best = (nb, r, score)
    return best


def _finish(masks, item, n, method, m, seed, opts, measures, quality, extend) -> SplitSet:
    train = np.asarray(masks)[:, item]  # item masks → sentence masks
    splits = [(np.flatnonzero(t), np.flatnonzero(~t)) for t in train]
    s = SplitSet(splits, n, method, m, seed, opts, None, extend)
    s._n_units = int(len(masks[0])) if len(masks) else n
    s._item = item
    if quality:
        s.quality = split_quality(train, measures, floor=method in ("bcv", "bcv-select"), groups=item)
        _overlap_info(s)
    return s


def _overlap_info(s: SplitSet) -> None:
    """How far the sentence overlap may be from n/4: N/4 for BCV on N blocks, with the units actually placed."""
    if s.method in ("bcv", "bcv-select") and s.quality is not None:
        if s.options.get("group_by") == "document":  # N/4 bounds the overlap in documents, not in sentences
            s.quality["overlap"]["unit"] = "document"
            return
        N = n_blocks_for(s.m)
        s.quality["overlap"]["bound"] = N / 4
        s.quality["overlap"]["blocks"] = N
        s.quality["overlap"]["units_placed"] = getattr(s, "_n_units", s.n)


def _duplicate_groups(corpus) -> np.ndarray:
    ids: dict = {}
    return np.array([ids.setdefault(s.key(), len(ids)) for s in corpus.sentences], dtype=np.int64)


def make_splits(corpus, m: int = 3, method: str = "bcv", balance: Sequence[str] | str | None = defaults.BALANCE,
                group_by: str = defaults.GROUP_BY, seed: int = 0, duplicates_together: bool = True, **kw) -> SplitSet:
    """Split a :class:`textbcv.corpus.model.Corpus` (the adapter over :func:`split_units`).

    Parameters
    ----------
    balance : sequence of {"label", "lemma", "length"}, or None / "none"
        Default :data:`textbcv.defaults.BALANCE` (none; see there why).
    group_by : {"auto", "sentence", "document"}
        ``document`` keeps documents whole; ``auto`` (the default) does so when
        the corpus marks enough documents (:func:`textbcv.defaults.resolve_unit`).
        The manifest's options record the unit used (``group_by``) and what
        was asked (``group_by_requested``).
    duplicates_together : bool
        With sentences as units, exact duplicate sentences (``Sentence.key()``)
        share a block, so that no sentence is both trained on and tested on in
        one fold. With documents as units only documents are kept whole, and
        the manifest records ``duplicates_together: false``.
    **kw
        Passed to :func:`split_units` (``select``, ``effort``, ``weights``);
        an ``effort`` other than 1 is recorded in the manifest's options.

    Examples
    --------
    >>> from textbcv.corpus.model import Corpus, Sentence
    >>> c = Corpus([Sentence((w,), ("O",), "iob2") for w in "abcdefgh"], ["x"], "conll", "iob2")
    >>> s = make_splits(c, m=3, seed=0)
    >>> s.n, len(s.splits), s.quality["overlap_max_deviation"]
    (8, 3, 0.0)
    """
    if isinstance(balance, str):
        balance = () if balance == "none" else tuple(x for x in balance.split(",") if x)
    balance = tuple(balance or ())
    bad = [b for b in balance if b not in MEASURES]
    if bad:
        raise InputError(f"unknown balance measure {bad[0]!r} (measures: {', '.join(MEASURES)}, or none)")
    if method == "bcv-select" and not balance:
        raise InputError("--method bcv-select keeps the split set whose halves are closest on the --balance measures: "
                         "give at least one (e.g. --balance label)")
    requested = group_by
    group_by = defaults.resolve_unit(group_by, corpus, m)
    n = len(corpus)
    # quality is always reported for the three measures
    all_measures = corpus_profiles(corpus)
    measures = {k: v for k, v in all_measures.items() if k in balance}
    if "length" in balance:  # the length distribution itself: exact lengths plus quantile bins (profiles.length_measures)
        measures.update(length_measures([len(x) for x in corpus.sentences]))
    if group_by == "document":
        groups = np.asarray(corpus.document_ids)
    elif duplicates_together:
        groups = _duplicate_groups(corpus)
    else:
        groups = None
    opts = {"balance": list(balance), "group_by": group_by,
            "duplicates_together": bool(duplicates_together) and group_by == "sentence"}
    if requested != group_by:
        opts["group_by_requested"] = requested
    if kw.get("effort", 1.0) != 1.0:
        opts["effort"] = kw["effort"]
    s = split_units(n, m, method=method, measures=measures, groups=groups, seed=seed, quality=False, options=opts, **kw)
    return _with_quality(s, all_measures, corpus_fingerprints(corpus))


def _with_quality(s: SplitSet, all_measures, fingerprints: list[str]) -> SplitSet:
    s.quality = split_quality(s.train_masks(), all_measures, floor=s.method in ("bcv", "bcv-select"),
                              groups=getattr(s, "_item", None))
    s.fingerprints = fingerprints
    _overlap_info(s)
    if s._extend is not None:
        inner = s._extend

        def ext(mm):
            return _with_quality(inner(mm), all_measures, fingerprints)

        s._extend = ext
    return s
