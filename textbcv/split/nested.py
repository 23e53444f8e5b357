"""Nested m×2 BCV splits as one object: the splits of an m, cut from blocks that give any other m."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from textbcv.errors import InputError
from textbcv.split.bcv import NestedBlocks, halves_from_blocks, n_blocks_for
from textbcv.split.manifest import SplitSet
from textbcv.split.quality import split_quality

__all__ = ["NestedSplits"]


@dataclass
class NestedSplits(SplitSet):
    """The first m splits of nested m×2 BCV over ``blocks``; ``head(k).splits == splits[:k]``, ``extend`` adds more.

    Parameters
    ----------
    splits, n, method, m, seed, options, quality, fingerprints
        As :class:`~textbcv.split.manifest.SplitSet`.
    blocks : NestedBlocks
    item : (n,) int array
        Item of every sentence.
    report : dict of sparse (n, J), or None
        Counts per sentence for the quality block of every set cut from these blocks.

    Examples
    --------
    >>> from textbcv.split import split_units
    >>> s = split_units(40, m=3, seed=0)
    >>> len(s.extend(7)), s.extend(7).head(3).dumps() == s.dumps()
    (7, True)
    """

    blocks: NestedBlocks | None = field(default=None, repr=False, compare=False)
    item: np.ndarray | None = field(default=None, repr=False, compare=False)
    report: dict[str, sp.csr_matrix] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def cut(cls, blocks: NestedBlocks, item: np.ndarray, m: int, *, method: str = "bcv", seed: int = 0,
            options: dict | None = None, report: dict | None = None,
            fingerprints: list[str] | None = None) -> NestedSplits:
        """The first m splits of these blocks, sentences placed by ``item``, with their quality block.

        Parameters
        ----------
        blocks : NestedBlocks
        item : (n,) int array
            The item of every sentence.
        m : int
            At most ``blocks.max_m()``.
        method, seed, fingerprints
            Recorded in the manifest.
        options : dict, optional
            Recorded in the manifest; ``group_by="document"`` counts the overlap in documents.
        report : dict of str to scipy.sparse matrix, optional
            Per-sentence counts for the quality block; None: none.

        Returns
        -------
        NestedSplits

        Raises
        ------
        InputError
            When m exceeds what the blocks allow.
        """
        if m > blocks.max_m():
            raise InputError(f"m = {m} is impossible with {blocks.n_items} units: at most {blocks.max_m()}")
        train = halves_from_blocks(blocks.blocks(n_blocks_for(m)), m)[:, item]  # item masks → sentence masks
        splits = [(np.flatnonzero(t), np.flatnonzero(~t)) for t in train]
        options = dict(options or {})
        quality = None
        if report is not None:
            quality = split_quality(train, report, floor=True, groups=item)
            if options.get("group_by") in ("document", "file"):  # N/4 bounds the overlap in these, not in sentences
                quality["overlap"]["unit"] = options["group_by"]
            else:  # how far the sentence overlap may be from n/4: N/4 for N blocks of the items placed
                N = n_blocks_for(m)
                quality["overlap"].update({"bound": N / 4, "blocks": N, "units_placed": blocks.n_items})
        return cls(splits, len(item), method, m, seed, options, quality, fingerprints, blocks=blocks, item=item,
                   report=report)

    def head(self, m: int) -> NestedSplits:
        """The first m splits (``self`` when m is ``len(self)``), with their own quality block.

        Parameters
        ----------
        m : int
            1 ≤ m ≤ ``len(self)``.

        Returns
        -------
        NestedSplits

        Raises
        ------
        InputError
            For m outside 1..len(self).
        """
        if not 1 <= m <= len(self):
            raise InputError(f"m must lie in 1..{len(self)} for head(m), got {m}", param="m")
        return self if m == len(self) else self._again(m)

    def extend(self, m: int) -> NestedSplits:
        """These splits and more, m in all (``self`` when m is ``len(self)``); the first ``len(self)`` are unchanged.

        Parameters
        ----------
        m : int
            ``len(self)`` ≤ m ≤ what the blocks allow.

        Returns
        -------
        NestedSplits

        Raises
        ------
        InputError
            For m < ``len(self)`` or more splits than the blocks allow.
        """
        if m < len(self):
            raise InputError(f"m must be at least {len(self)} for extend(m) (head(m) gives fewer splits), got {m}",
                             param="m")
        return self if m == len(self) else self._again(m)

    def _again(self, m: int) -> NestedSplits:
        if self.blocks is None or self.item is None:
            raise ValueError("these splits hold no blocks to cut other splits from: make them with "
                             "NestedSplits.cut (or textbcv.split.split_units), not NestedSplits(...)")
        return NestedSplits.cut(self.blocks, self.item, m, method=self.method, seed=self.seed, options=self.options,
                                report=self.report, fingerprints=self.fingerprints)

