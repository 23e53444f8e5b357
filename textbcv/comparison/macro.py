"""Macro-F1 beside micro-F1: the mean of the chunk types' F1, with its interval and the paired Bayes test.

A type with fewer than :data:`MIN_GOLD` gold chunks in some fold is named and left out of the average.

Examples
--------
>>> dense({"PER": [[1, 2, 0, 1]]}, ["LOC", "PER"], 3).tolist()
[[0, 0, 0, 0, 0, 0], [0, 0, 0, 2, 0, 1], [0, 0, 0, 0, 0, 0]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from textbcv.report.blocks import Macro, MacroPair, MacroScore
from textbcv.stats.paired import macro_difference

__all__ = ["macro_section", "dense", "MIN_GOLD"]

#: Gold chunks a type needs in every fold to enter the macro average.
MIN_GOLD = 10


def dense(rows: Mapping[str, list[list[int]]], types: Sequence[str], n: int) -> np.ndarray:
    """A fold's sparse per-type sentence counts as an (n, 3T) array, the types' TP, FP, FN in turn.

    Parameters
    ----------
    rows : mapping
        type → ``[sentence index, tp, fp, fn]`` rows.
    types : sequence of str
        The types, in column order (others are left out).
    n : int
        Test sentences of the fold.

    Returns
    -------
    ndarray of shape (n, 3T), int64
    """
    out = np.zeros((n, 3 * len(types)), dtype=np.int64)
    for j, t in enumerate(types):
        r = np.asarray(rows.get(t) or np.zeros((0, 4)), dtype=np.int64).reshape(-1, 4)
        if len(r):
            out[r[:, 0], 3 * j: 3 * j + 3] = r[:, 1:]
    return out


def macro_section(records: Mapping, names: Sequence[str], m: int, clusters: Mapping | None, alpha: float = 0.05,
                  threshold: float = 0.95) -> Macro | None:
    """The report's ``macro`` block: each system's macro-F1 with its interval, each pair's paired difference.

    Parameters
    ----------
    records : mapping
        Fold records by ``(system, split, direction)``, with ``type_sentence_counts``.
    names : sequence of str
        The systems, in input order.
    m : int
        Number of splits.
    clusters : mapping or None
        :func:`textbcv.comparison.design_effects.fold_clusters`' answer.
    alpha : float
        The intervals hold 1 − alpha.
    threshold : float
        The decision rule's threshold on P(better).

    Returns
    -------
    Macro or None
        None without per-type sentence counts or known test sentences, or with fewer than two estimable types.
    """
    folds = [(j, k) for j in range(m) for k in (0, 1)]
    ids = (clusters or {}).get("ids")
    if not ids or any(f not in ids for f in folds):
        return None
    recs = {(n, j, k): records[(n, j, k)] for n in names for j, k in folds}
    if any("type_sentence_counts" not in r for r in recs.values()):
        return None
    all_types = sorted({t for r in recs.values() for t in r["type_sentence_counts"]})
    first = names[0]
    gold_min = {t: min(sum(row[1] + row[3] for row in recs[(first, j, k)]["type_sentence_counts"].get(t, ()))
                       for j, k in folds) for t in all_types}
    types = [t for t in all_types if gold_min[t] >= MIN_GOLD]
    rare = tuple((t, int(v)) for t, v in gold_min.items() if v < MIN_GOLD)
    if len(types) < 2:
        return None
    groups = [np.asarray(ids[f], dtype=np.int64) for f in folds]
    unit = (clusters or {}).get("clusters", "sentences")
    arrays = {n: [dense(recs[(n, j, k)]["type_sentence_counts"], types, len(g)) for (j, k), g in zip(folds, groups)]
              for n in names}
    zero = [np.zeros_like(x) for x in arrays[first]]
    systems = []
    for n in names:
        p = macro_difference(zero, arrays[n], groups, m, unit)
        lo, hi = p.interval(alpha)
        systems.append(MacroScore(n, p.estimate, (max(0.0, lo), min(1.0, hi))))
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = macro_difference(arrays[a], arrays[b], groups, m, unit)
            lo, hi = p.interval(alpha)
            pb = p.prob_better()["p_b_better"]
            decision = (f"{b} better" if pb >= threshold else f"{a} better" if 1 - pb >= threshold
                        else "no clear difference")
            decisive = None
            if threshold > 0.5:  # the interval the decision is made by comes first; ``ci`` is secondary
                dlo, dhi = p.interval(2 - 2 * threshold)
                decisive = (2 * threshold - 1, (dlo, dhi))
            pairs.append(MacroPair(a, b, p.estimate, (lo, hi), pb, decision, decisive))
    return Macro(tuple(types), rare, tuple(systems), tuple(pairs), unit, MIN_GOLD, 1 - alpha)
