"""What each pair's paired ΔF1 posterior says beyond the decision: where its error comes from, what it can detect."""

from __future__ import annotations

from textbcv.report.model import CompareReport

__all__ = ["sources_line", "power_line"]


def sources_line(report: CompareReport) -> str:
    """Where the error of each pair's ΔF1 comes from, as SDs in points, and what would shrink it.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    str
        "" when no F1 pair has a paired posterior.
    """
    parts = []
    for c in report.comparisons_of("f1"):
        p = c.difference.paired if c.difference is not None else None
        if p is None or p.var == 0:
            continue
        who = f"{c.a} vs {c.b}: " if len(report.names) > 2 else ""
        if p.seeds is not None:
            src = {"new text": p.var_test, "the training halves": p.var_model, "the training seeds": p.var_seed_part}
            largest = max(src, key=lambda k: src[k])
            sd = ", ".join(f"{k} {_sd(v)}" for k, v in src.items())
            sa, sb = p.seeds
            seeds_now = f"{sa} seeds" if sa == sb else f"{sa} and {sb} seeds"
            more_seeds = p.at_seeds(2 * max(sa, sb))
            buys = (f"with {2 * max(sa, sb)} seeds per fold the ΔF1 SD would be about {100 * more_seeds.sd:.2f} "
                    f"(now {100 * p.sd:.2f} with {seeds_now})")
            if p.m < 7:
                buys += f", with m = 7 splits about {100 * p.at_m(7).sd:.2f}"
            parts.append(f"{who}{sd}; the largest: {largest}; {buys}")
            continue
        src = {"new text": p.var_test, "the models' own noise": p.var_model}
        largest = max(src, key=lambda k: src[k])
        sd_ = {k: _sd(v) for k, v in src.items()}
        if p.var_related:
            sd_["new text"] += f" (its part from {_related_words(p.cluster_unit)}: {_sd(p.var_related)})"
        seeds = ("" if p.var_seed is None
                 else f" (the seeds' whole effect, measured from each fold's seeds: {_sd(p.var_seed)}, "
                      "held within new text and the models' own noise)")
        parts.append(f"{who}" + ", ".join(f"{k} {v}" for k, v in sd_.items()) + f"{seeds}; the largest: {largest}")
    if not parts:
        return ""
    floored = any(w in x for x in parts for w in ("too small to measure",))
    seeded = any(c.difference is not None and c.difference.paired is not None and c.difference.paired.seeds
                 for c in report.comparisons_of("f1"))
    noise = "training halves' and the seeds' parts (every fold has its own)" if seeded else "models' own noise"
    return ("Where the ΔF1 error comes from (SD in points): " + "; ".join(parts) + f". More splits shrink the {noise} "
            "and the part of the new-text error that differs from model to model; more seeds shrink the seeds' part; "
            "only more text shrinks the part of the new-text error that is the sentences' own difficulty."
            + (" A part \"too small to measure\" was estimated at or below 0 and is counted as 0: its true size is "
               "not known to be 0." if floored else ""))


def _sd(var: float) -> str:
    """A variance part as an SD in points, or said as a floor when estimated at 0.

    >>> _sd(0.0001), _sd(0.0)
    ('1.00', 'too small to measure')
    """
    return "too small to measure" if var <= 0 else f"{100 * var ** 0.5:.2f}"


def _related_words(unit: str) -> str:
    """What the related part of the new-text error is, for the clusters' unit."""
    return f"{'documents' if unit == 'documents' else 'sentences'} that share a rare name"


def power_line(report: CompareReport, power: float = 0.8) -> str:
    """The F1 gain (in points) each pair would call better with ``power`` and with 50%, at m and at m = 7.

    Parameters
    ----------
    report : CompareReport
    power : float
        A probability (0.8 is 80%).

    Returns
    -------
    str
        "" when no F1 pair has a paired posterior with a non-zero SD.
    """
    tau = report.threshold
    parts = []
    for c in report.comparisons_of("f1"):
        p = c.difference.paired if c.difference is not None else None
        if p is None or p.sd == 0:
            continue
        more = f"; with m = 7 about {100 * p.at_m(7).detectable(power, tau):.2f}" if p.m < 7 else ""
        who = f" ({c.a} vs {c.b})" if len(report.names) > 2 else ""
        parts.append(f"about {100 * p.detectable(power, tau):.2f} F1 points with {100 * power:g}% power "
                     f"({100 * p.detectable(0.5, tau):.2f} with 50%){more}{who}")
    if not parts:
        return ""
    return (f"Power: at P ≥ {tau:g} this comparison detects true gains of " + "; ".join(parts)
            + " (`textbcv plan RUN --target-delta D` for a gain of your own).")
