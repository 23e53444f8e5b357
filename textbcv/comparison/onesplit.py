"""What a single train/test split would have claimed, beside the m×2 answer (``one_split`` in ``report.json``).

A paired bootstrap and approximate randomization over the test sentences, on the first fold and on every other
fold, from the records' ``sentence_counts`` (nothing retrained). See docs/reading-the-report.md, "What one split
would claim".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from textbcv.report.one_split import OneSplit, OneSplitFold, OneSplitPair
from textbcv.stats.onesplit import RESAMPLES, SHUFFLES, one_split_tests

__all__ = ["one_split_section", "fold_label", "RESAMPLES", "SHUFFLES"]

#: Why the block is missing when the folds have no per-sentence counts.
NO_COUNTS = ("the folds of this run were saved without per-sentence counts (by an earlier textbcv version); "
             "run `textbcv compare` again into a new directory to get them")


def fold_label(split: int, direction: int) -> str:
    """A fold as the report names it: ``S0 →`` is split 0, direction 0.

    Parameters
    ----------
    split : int
        The split, from 0.
    direction : {0, 1}
        0 (``→``): trained on the first half, tested on the second; 1 (``←``): the reverse.

    Returns
    -------
    str

    Examples
    --------
    >>> fold_label(0, 0), fold_label(2, 1)
    ('S0 →', 'S2 ←')
    """
    return f"S{split} {'→' if direction == 0 else '←'}"


def one_split_section(records: Mapping, names: Sequence[str], m: int, seed: int = 0, alpha: float = 0.05,
                      resamples: int = RESAMPLES, shuffles: int = SHUFFLES) -> OneSplit:
    """The ``one_split`` block of ``report.json``.

    Parameters
    ----------
    records : mapping (system, split, direction) → fold record
        Records with ``sentence_counts``.
    names : sequence of str
        The systems, in report order; every pair (A before B) is tested.
    m : int
        Splits used by the report.
    seed : int
        Seed of both tests on every fold.
    alpha : float
        Significance level of the per-fold tests; the bootstrap interval of ΔF1 holds 1 − alpha.
    resamples : int
        Paired-bootstrap resamples per fold.
    shuffles : int
        Approximate-randomization shuffles per fold.

    Returns
    -------
    OneSplit
        Its ``to_dict()`` is ``{"available": True, "fold", "sentences", "resamples", "shuffles", "seed", "alpha",
        "pairs"}`` or ``{"available": False, "reason"}``.

    Examples
    --------
    >>> rec = lambda s, j, k, rows: {"system": s, "split": j, "direction": k, "sentence_counts": rows}
    >>> records = {(s, 0, k): rec(s, 0, k, [[1, 0, 0], [0, 1, 1]] * 20 if s == "A" else [[1, 0, 0]] * 40)
    ...            for s in ("A", "B") for k in (0, 1)}
    >>> r = one_split_section(records, ["A", "B"], m=1)
    >>> r.fold, round(r.pairs[0].delta_f1, 4), r.pairs[0].randomization_p < 0.001
    ((0, 0, 'S0 →', 'fold-0-0'), 0.5, True)
    """
    folds = [(j, k) for j in range(m) for k in (0, 1)]
    counts: dict = {}
    for n in names:
        for j, k in folds:
            rec = records.get((n, j, k))
            if rec is None:
                return OneSplit.unavailable(f"fold {fold_label(j, k)} of {n} is not finished")
            if "sentence_counts" not in rec:
                return OneSplit.unavailable(NO_COUNTS)
            counts[(n, j, k)] = np.asarray(rec["sentence_counts"], dtype=np.int64).reshape(-1, 3)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            per_fold = []
            for j, k in folds:
                ca, cb = counts[(a, j, k)], counts[(b, j, k)]
                gold_a, gold_b = ca[:, 0] + ca[:, 2], cb[:, 0] + cb[:, 2]
                if len(ca) != len(cb) or (gold_a != gold_b).any():
                    return OneSplit.unavailable(f"on fold {fold_label(j, k)}, {a} and {b} were not scored on the same "
                                        "sentences and gold chunks")
                per_fold.append(one_split_tests(ca, cb, resamples=resamples, shuffles=shuffles, seed=seed,
                                                 alpha=alpha))
            first = per_fold[0]
            lo, hi = first.bootstrap.ci
            pairs.append(OneSplitPair(
                a, b, first.f1_a, first.f1_b, first.delta, first.bootstrap.p_value, (lo, hi),
                first.randomization.p_value,
                tuple(OneSplitFold(j, k, fold_label(j, k), r.sentences, r.delta, r.bootstrap.p_value,
                                   r.randomization.p_value) for (j, k), r in zip(folds, per_fold))))
    return OneSplit(True, None, (0, 0, fold_label(0, 0), "fold-0-0"), len(counts[(names[0], 0, 0)]),
                    resamples, shuffles, seed, alpha, tuple(pairs))
