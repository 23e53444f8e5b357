"""The error anatomy of a comparison: how each system is wrong, and which kinds of error B removes or adds.

Each kind's share (per gold chunk; per predicted chunk for spurious ones) is pooled over the 2m folds with a
credible interval; a pair's difference B − A is paired on the same test sentences. See
docs/reading-the-report.md, "Error anatomy".

Examples
--------
>>> import numpy as np
>>> rec = {"sentence_counts": [[1, 0, 0], [0, 1, 1]], "modes": {"sentences": {"1": [0] * 20 + [0, 1, 0, 0, 0, 0]}}}
>>> sentence_anatomy_of(rec).tolist()
[[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from textbcv.report.anatomy import Anatomy, AnatomyPair, AnatomyShare, AnatomySystem
from textbcv.scoring.modes import ANATOMY, KINDS, MODES
from textbcv.stats.paired import paired_differences, ratio_posterior

__all__ = ["anatomy_section", "sentence_anatomy_of", "ERROR_KINDS"]

#: The kinds of a chunk's outcome the section reports, and what each share is of.
ERROR_KINDS = {kind: ("predicted" if kind == "spurious" else "gold") for kind in ANATOMY}


def sentence_anatomy_of(record: Mapping) -> np.ndarray:
    """Per test sentence of a fold record, its six anatomy counts (:data:`textbcv.scoring.modes.ANATOMY`).

    Parameters
    ----------
    record : mapping
        A fold record with ``sentence_counts`` and ``modes``.

    Returns
    -------
    ndarray of shape (n, 6), int64
    """
    sc = np.asarray(record["sentence_counts"], dtype=np.int64).reshape(-1, 3)
    tp, fp, fn = sc[:, 0], sc[:, 1], sc[:, 2]
    zero = np.zeros_like(tp)
    out = np.stack([tp, zero, zero, zero, fn, fp], axis=1)
    width = len(MODES) * len(KINDS)
    for k, values in (record.get("modes") or {}).get("sentences", {}).items():
        out[int(k)] = np.asarray(values[width:], dtype=np.int64)
    return out


def _pseudo(anatomy: np.ndarray, kind: str) -> np.ndarray:
    """[kind, 0, rest] per sentence: the kind's share as a recall."""
    k = anatomy[:, ANATOMY.index(kind)]
    if ERROR_KINDS[kind] == "gold":
        base = anatomy[:, :5].sum(axis=1)  # correct, three wrongs, missed
    else:
        base = anatomy[:, [0, 1, 2, 3, 5]].sum(axis=1)  # correct, three wrongs, spurious
    return np.stack([k, np.zeros_like(k), base - k], axis=1)


def anatomy_section(records: Mapping, names: Sequence[str], m: int, clusters: Mapping | None,
                    alpha: float = 0.05) -> Anatomy | None:
    """The report's ``anatomy`` block: per system every error kind's counts and shares, per pair their differences.

    Parameters
    ----------
    records : mapping
        Fold records by ``(system, split, direction)``, with ``sentence_counts`` and ``modes``.
    names : sequence of str
        The systems, in input order.
    m : int
        Number of splits used.
    clusters : mapping or None
        :func:`textbcv.comparison.design_effects.fold_clusters`' answer.
    alpha : float
        The intervals hold 1 − alpha.

    Returns
    -------
    Anatomy or None
        None when a fold has no modes or its test sentences are unknown.
    """
    folds = [(j, k) for j in range(m) for k in (0, 1)]
    ids = (clusters or {}).get("ids")
    if not ids or any((j, k) not in ids for j, k in folds):
        return None
    if any("modes" not in records[(n, j, k)] or "sentence_counts" not in records[(n, j, k)]
           for n in names for j, k in folds):
        return None
    unit = (clusters or {}).get("clusters", "sentences")
    groups = [np.asarray(ids[f], dtype=np.int64) for f in folds]
    anatomy = {n: [sentence_anatomy_of(records[(n, j, k)]) for j, k in folds] for n in names}
    systems = []
    for n in names:
        total = np.sum([a.sum(axis=0) for a in anatomy[n]], axis=0)
        kinds = []
        for kind, count in zip(ANATOMY, (int(x) for x in total)):
            p = ratio_posterior([_pseudo(a, kind) for a in anatomy[n]], groups, m, "recall", unit)
            lo, hi = p.interval(alpha)
            kinds.append(AnatomyShare(kind, count, p.estimate, (max(0.0, lo), min(1.0, hi))))
        systems.append(AnatomySystem(n, int(total[:5].sum()), int(total[[0, 1, 2, 3, 5]].sum()), tuple(kinds)))
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for kind in ANATOMY:
                p = paired_differences({a: [_pseudo(x, kind) for x in anatomy[a]],
                                        b: [_pseudo(x, kind) for x in anatomy[b]]},
                                       groups, m, metrics=("recall",), cluster_unit=unit,
                                       related=(clusters or {}).get("related"))[(a, b)]["recall"]
                lo, hi = p.interval(alpha)
                pairs.append(AnatomyPair(a, b, kind, p.estimate, (lo, hi), p.prob_better()["p_b_better"]))
    return Anatomy(tuple(systems), tuple(pairs), unit, 1 - alpha)
