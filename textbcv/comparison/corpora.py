"""Is B better than A across several corpora? The runs' paired posteriors of ΔF1 pooled by a hierarchical model.

Runs that do not belong together are refused: other systems, another task or matching mode, the same corpus
twice, or a run without paired posteriors. See docs/method.md, "Across several corpora".
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from scipy import stats as sst

from textbcv.comparison.from_folds import stored_paired
from textbcv.errors import InputError
from textbcv.folds.run_dir import RunDir
from textbcv.report.model import load_report
from textbcv.stats.hierarchical import TAU_SCALE, hierarchical

__all__ = ["across_corpora", "corpus_label"]


def corpus_label(report: dict, run: str | os.PathLike) -> str:
    """A run's corpus as a short name: its first file's name (the run directory's when it has none).

    Parameters
    ----------
    report : dict
        The run's ``report.json``.
    run : str or path-like
        Its directory.

    Returns
    -------
    str
    """
    files = ((report.get("meta") or {}).get("corpus") or {}).get("files") or []
    return Path(files[0]["path"]).name if files else Path(run).name


def equivalence_reach(interval: Sequence[float], alpha: float, rope: float, threshold: float) -> dict:
    """What showing practical equivalence would take: the posterior SD needed, the SD now, and the factor of more text.

    The SD needed makes P(|μ| ≤ rope) reach ``threshold`` at an estimate of exactly 0; the corpora's spread
    does not shrink with more text.

    Parameters
    ----------
    interval : sequence of float
        The overall difference's 1 − alpha credible interval (fractions).
    alpha : float
        Its level.
    rope : float
        The region of practical equivalence (a fraction), > 0.
    threshold : float
        The decision threshold on P(equivalent).

    Returns
    -------
    dict
        ``sd_needed``, ``sd_now`` (fractions) and ``data_factor`` (at least 1).

    Examples
    --------
    >>> r = equivalence_reach((-0.0098, 0.0098), 0.05, 0.005, 0.95)
    >>> round(100 * r["sd_needed"], 3), round(100 * r["sd_now"], 3), round(r["data_factor"], 1)
    (0.255, 0.5, 3.8)
    """
    z = float(sst.norm.ppf(1 - alpha / 2))
    needed = rope / float(sst.norm.ppf((1 + threshold) / 2))
    now = (interval[1] - interval[0]) / (2 * z)
    return {"sd_needed": needed, "sd_now": now, "data_factor": max(1.0, (now / needed) ** 2)}


def across_corpora(runs: Sequence[str | os.PathLike], rope: float = 0.0, alpha: float = 0.05,
                   threshold: float = 0.95, tau_scale: float = TAU_SCALE) -> dict:
    """The answer across corpora of every pair of systems the runs compare.

    Parameters
    ----------
    runs : sequence of path
        Two or more run directories, one per corpus, comparing the same systems.
    rope : float
        Region of practical equivalence, a fraction (0.005 is half a point); 0 for none.
    alpha : float
        Credible intervals hold 1 − alpha.
    threshold : float
        The threshold on P(better) (and on P(equivalent) with a rope).
    tau_scale : float
        Scale of the half-Cauchy prior on the corpora's spread (a fraction).

    Returns
    -------
    dict
        ``corpora``, ``runs``, ``pairs`` (``a``, ``b``, the hierarchical answer, ``decision`` and, where
        equivalence is near, ``equivalence_reach``), ``threshold``, ``assumptions``.

    Raises
    ------
    InputError
        For fewer than two runs, a run without a report or paired posteriors, or runs that do not belong together.
    """
    if len(runs) < 2:
        raise InputError("give two runs or more (one per corpus) to answer across corpora")
    reports, names = [], []
    for r in runs:
        rep = load_report(RunDir(r))
        reports.append(rep)
        label = corpus_label(rep, r)  # the run's own name first: files are often all called train...
        names.append(label if label == Path(r).name else f"{Path(r).name} ({label})")
    first = reports[0]
    systems = list((first.get("meta") or {}).get("options", {}).get("systems") or first["systems"])
    fingerprints: dict[str, str] = {}
    for r, rep, name in zip(runs, reports, names):
        meta = rep.get("meta") or {}
        o = meta.get("options") or {}
        if set(o.get("systems") or rep["systems"]) != set(systems):
            raise InputError(f"compares {', '.join(o.get('systems') or rep['systems'])}, not {', '.join(systems)}: "
                             "runs across corpora must compare the same systems", file=str(r))
        for key, what in (("task", "task"),):
            if meta.get(key) != (first.get("meta") or {}).get(key):
                raise InputError(f"is a {meta.get(key)} run, the first a {(first.get('meta') or {}).get(key)} run: "
                                 f"runs across corpora must share their {what}", file=str(r))
        if o.get("mode", "strict") != (first.get("meta") or {}).get("options", {}).get("mode", "strict"):
            raise InputError(f"scores in matching mode {o.get('mode', 'strict')}, the first run in another: runs "
                             "across corpora must share their mode", file=str(r))
        fp = (meta.get("corpus") or {}).get("fingerprint")
        if fp is not None and fp in fingerprints:
            raise InputError(f"splits the same corpus as {fingerprints[fp]} (fingerprint {fp}): one corpus twice is "
                             "not two pieces of evidence", file=str(r))
        if fp is not None:
            fingerprints[fp] = str(r)
    if len(set(names)) < len(names):
        names = [str(r) for r in runs]
    pairs = []
    for i, a in enumerate(systems):
        for b in systems[i + 1:]:
            y, s = [], []
            for r, rep in zip(runs, reports):
                stored = stored_paired(rep)
                p, sign = (stored.get((a, b), {}).get("f1"), 1.0)
                if p is None:
                    p, sign = stored.get((b, a), {}).get("f1"), -1.0
                if p is None:
                    raise InputError(f"has no paired posterior of {a} vs {b} (a run of an earlier textbcv version, or "
                                     "--difference independent): run it again", file=str(r))
                # a Student t posterior enters as the normal with its 95% interval
                inflate = float(sst.t.ppf(0.975, p.df) / sst.norm.ppf(0.975)) if np.isfinite(p.df) else 1.0
                y.append(sign * p.estimate)
                s.append(max(p.sd * inflate, 1e-9))
            h = hierarchical(y, s, names, rope=rope, alpha=alpha, tau_scale=tau_scale)
            if h.p_b_better >= threshold:
                decision = f"{b} better"
            elif h.p_a_better >= threshold:
                decision = f"{a} better"
            elif rope > 0 and h.p_equivalent is not None and h.p_equivalent >= threshold:
                decision = "practically equivalent"
            else:
                decision = "no clear difference"
            row = {"a": a, "b": b, **h.to_dict(), "decision": decision}
            if rope > 0 and decision == "no clear difference" and abs(h.mu) <= rope:  # equivalence within reach
                row["equivalence_reach"] = equivalence_reach(h.mu_interval, alpha, rope, threshold)
            pairs.append(row)
    return {"corpora": names, "runs": [str(r) for r in runs], "pairs": pairs, "threshold": threshold,
            "assumptions": ("each run's paired posterior of ΔF1 is the likelihood of its corpus's difference (a "
                            "Student t as the normal with its 95% interval); the corpora's differences are "
                            "exchangeable and normal around the overall one, with a half-Cauchy prior of scale "
                            f"{100 * tau_scale:g} F1 points on their spread and a flat prior on the overall "
                            "difference; integrated by quadrature, no sampling")}
