"""ρ1 and ρ2 of your own tagger, from runs on independently drawn data sets (``textbcv components``).

Runs that split the same corpus are refused (they measure split noise only); runs whose corpora share
sentences are accepted and their mean share reported, as sharing makes σ², ω and γ too small. See
docs/variance.md, "Where the ρ values for `--variant rho` may come from".
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np

from textbcv.errors import InputError
from textbcv.folds.counts import read_folds_jsonl
from textbcv.split import load_splits
from textbcv.stats.compare import fold_counts, fold_metrics
from textbcv.stats.components import VarianceComponents, variance_components

__all__ = ["RunComponents", "run_components", "METRICS"]

METRICS = ("f1", "precision", "recall")


@dataclass(frozen=True)
class RunComponents:
    """The variance components of one score over R runs, and where they came from.

    Attributes
    ----------
    runs : tuple of str
        The folds.jsonl files, in the order given.
    score : str
        What was measured, e.g. ``"f1(crf) − f1(hmm)"``.
    components : VarianceComponents
        σ², ω, γ, ρ1, ρ2 and the variance of the m×2 estimate, with bootstrap intervals over the runs.
    shared_share : float or None
        Mean share of sentences two runs' corpora have in common; None where a run has no fingerprints.
    """

    runs: tuple[str, ...]
    score: str
    components: VarianceComponents
    shared_share: float | None

    def rho_options(self) -> tuple[float, float]:
        """ρ1 and ρ2 as ``--rho1`` / ``--rho2`` take them: the estimates, clipped to [0, 1].

        Returns
        -------
        tuple of float
        """
        return (min(1.0, max(0.0, self.components.rho1.value)), min(1.0, max(0.0, self.components.rho2.value)))

    def to_dict(self) -> dict:
        """JSON-ready form, with ``rho_options`` and the keys of :meth:`VarianceComponents.to_dict`.

        Returns
        -------
        dict
        """
        r1, r2 = self.rho_options()
        return {"runs": list(self.runs), "score": self.score, "shared_share": self.shared_share,
                "rho_options": {"rho1": r1, "rho2": r2}, **self.components.to_dict()}


def _folds_file(run: str | os.PathLike) -> Path:
    p = Path(run)
    if p.is_dir():
        p = p / "folds.jsonl"
    if not p.is_file():
        raise InputError("no folds.jsonl here (give a run directory of textbcv compare or evaluate, or its "
                         "folds.jsonl)", file=str(run))
    return p


def _fingerprints(folds: Path) -> set[str] | None:
    """The sentence fingerprints of the run's splits.json (beside its folds.jsonl), or None."""
    path = folds.parent / "splits.json"
    if not path.is_file():
        return None

    fp = load_splits(path).fingerprints
    return set(fp) if fp else None


def run_components(runs, system: str, minus: str | None = None, metric: str = "f1", m: int | None = None,
                   confidence: float = 0.95, n_resamples: int = 2000, seed: int = 0) -> RunComponents:
    """Variance components of ``metric`` of ``system`` (or of its difference to ``minus``) over R runs.

    Parameters
    ----------
    runs : sequence of path
        R ≥ 3 run directories (or their folds.jsonl), one per independently drawn data set.
    system, minus : str
        The system scored; with ``minus``, the fold differences score(system) − score(minus).
    metric : {"f1", "precision", "recall"}
        The per-fold score.
    m : int, optional
        Use the first m splits of every run (default: the smallest m among them).
    confidence, n_resamples, seed
        As :func:`textbcv.stats.variance_components`.

    Returns
    -------
    RunComponents

    Raises
    ------
    InputError
        Fewer than 3 runs, a run without folds.jsonl, a missing system, two runs on the same corpus, or an ``m``
        larger than a run has.
    """
    if metric not in METRICS:
        raise InputError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
    paths = [_folds_file(r) for r in runs]
    if len(paths) < 3:
        raise InputError(f"need at least 3 runs (independently drawn data sets), got {len(paths)}")
    if len({p.resolve() for p in paths}) < len(paths):
        raise InputError("the same run is given twice")
    if m is not None and m < 2:
        raise InputError(f"m must be at least 2, got {m}")
    per_run, ms = [], []
    for p in paths:
        m_run, counts = read_folds_jsonl(str(p))
        for name in (system, minus):
            if name is not None and name not in counts:
                raise InputError(f"no system {name!r} in this run (systems: {', '.join(sorted(counts))})", file=str(p))
        values = fold_metrics(fold_counts(counts[system]))[metric]
        if minus is not None:
            values = values - fold_metrics(fold_counts(counts[minus]))[metric]
        per_run.append(values.reshape(m_run, 2))
        ms.append(m_run)
    use = min(ms) if m is None else m
    if use > min(ms):
        short = paths[int(np.argmin(ms))]
        raise InputError(f"m = {use} but this run has {min(ms)} splits", file=str(short))
    fps = [_fingerprints(p) for p in paths]
    shares = []
    for (i, a), (j, b) in combinations(enumerate(fps), 2):
        if a is None or b is None:
            continue
        if a == b:
            raise InputError(f"{paths[i]} and {paths[j]} split the same corpus: variance components need runs on "
                             "independently drawn data sets (other seeds on one data set measure split noise only)",
                             file=str(paths[j]))
        shares.append(len(a & b) / min(len(a), len(b)))
    shared = float(np.mean(shares)) if shares and len(shares) == len(fps) * (len(fps) - 1) // 2 else None
    scores = np.stack([x[:use] for x in per_run])
    vc = variance_components(scores, confidence=confidence, n_resamples=n_resamples, seed=seed)
    label = f"{metric}({system})" + (f" − {metric}({minus})" if minus else "")
    return RunComponents(tuple(str(p) for p in paths), label, vc, shared)
