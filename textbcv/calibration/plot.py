"""The calibration's picture: per system, the null estimates in units of their posterior SD, and P(B better)."""

from __future__ import annotations

import os
from typing import Sequence

import numpy as np
from scipy import stats as sst

from textbcv._io import atomic_write
from textbcv.calibration.summary import NullSummary

__all__ = ["draw_calibration"]


def draw_calibration(nulls: Sequence[NullSummary], threshold: float, seed_b: int, units: Sequence[dict],
                     path: str | os.PathLike) -> None:
    """Write ``calibration.png``: per system, null estimates / SD against a t density, and P(B better).

    Parameters
    ----------
    nulls : sequence of NullSummary
    threshold : float
        The decision rule's threshold.
    seed_b : int
        The B seed of every null pair.
    units : sequence of dict
    path : path-like
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tau = threshold
    rows = len(nulls)
    fig, axes = plt.subplots(rows, 2, figsize=(10, 3.4 * rows), squeeze=False)
    for (ax_z, ax_p), s in zip(axes, nulls):
        us = [u for u in units if u["system"] == s.system]
        z = np.array([u["estimate"] / u["sd"] for u in us if u["sd"] > 0])
        df = float(np.median([u["df"] for u in us if u.get("df")] or [np.inf]))
        lim = max(4.0, float(np.max(np.abs(z))) if z.size else 0.0)
        ax_z.hist(z, bins=np.linspace(-lim, lim, 25), density=True, color="#9ab", label="null estimate / SD")
        x = np.linspace(-lim, lim, 200)
        ax_z.plot(x, sst.t.pdf(x, df) if np.isfinite(df) else sst.norm.pdf(x), color="k",
                  label=f"t, {df:g} df" if np.isfinite(df) else "normal")
        ax_z.set_title(f"{s.system}: ΔF1 / SD ({len(us)} data sets)", fontsize=10)
        ax_z.legend(fontsize=8)
        p = np.array([u["p_b_better"] for u in us])
        ax_p.hist(p, bins=np.linspace(0, 1, 21), color="#9ab")
        for t in (1 - tau, tau):
            ax_p.axvline(t, color="#c33", linestyle="--", linewidth=1)
        ax_p.set_title(f"P(seed {seed_b} better): false calls {s.calls.words()}", fontsize=10)
        ax_p.set_xlabel("P(B better); dashed: the decision thresholds")
    fig.tight_layout()
    with atomic_write(path, mode="wb", encoding=None) as f:
        fig.savefig(f, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
