"""How the report shows numbers: rates in percent, differences in points, probabilities, table cells.

The report keeps fractions; text shows scores in percent with two decimals and differences in points.
"""

from __future__ import annotations

from textbcv.stats.answer import Posterior
from textbcv.stats.compare import pooled_scores

__all__ = ["METRICS", "LABELS", "pct", "points", "fmt_p", "p_is", "interval_cell", "score_cell", "counts_cell"]

#: The metrics of every table, in their order.
METRICS = ("precision", "recall", "f1")
#: A metric's name in text.
LABELS = {"precision": "precision", "recall": "recall", "f1": "F1"}


def pct(x: float | None, undefined: str = "—") -> str:
    """A rate in percent with two decimals, without the ``%`` sign.

    Parameters
    ----------
    x : float or None
        A rate as a fraction (0.6842 for 68.42%).
    undefined : str
        What to show for None.

    Returns
    -------
    str

    Examples
    --------
    >>> pct(0.68421), pct(None)
    ('68.42', '—')
    """
    return undefined if x is None else f"{100 * x:.2f}"


def points(x: float) -> str:
    """A number of percentage points in words.

    Parameters
    ----------
    x : float

    Returns
    -------
    str

    Examples
    --------
    >>> points(1), points(0.5)
    ('1 point', '0.5 points')
    """
    return f"{x:g} point" + ("" if x == 1 else "s")


def fmt_p(p: float | None, digits: int = 3) -> str:
    """A probability for a table, never rounded to 0 or 1 (``> 0.999`` / ``< 0.001`` instead).

    Parameters
    ----------
    p : float or None
        None shows as ``—``.
    digits : int

    Returns
    -------
    str

    Examples
    --------
    >>> fmt_p(0.69), fmt_p(0.99996), fmt_p(1.0), fmt_p(2e-5), fmt_p(None)
    ('0.690', '> 0.999', '> 0.999', '< 0.001', '—')
    """
    if p is None:
        return "—"
    s = f"{p:.{digits}f}"
    if float(s) >= 1:
        return f"> {1 - 10 ** -digits:.{digits}f}"
    if float(s) <= 0:
        return f"< {10 ** -digits:.{digits}f}"
    return s


def p_is(p: float | None, digits: int = 3) -> str:
    """A probability after its label in a sentence: ``= 0.690``, ``> 0.999`` or ``< 0.001``.

    Parameters
    ----------
    p : float or None
    digits : int

    Returns
    -------
    str

    Examples
    --------
    >>> p_is(0.69), p_is(1.0)
    ('= 0.690', '> 0.999')
    """
    s = fmt_p(p, digits)
    return s if s[0] in "<>—" else f"= {s}"


def interval_cell(ci: tuple[float, float]) -> str:
    """An interval of rates (fractions) in percent: ``[63.25, 72.91]``.

    Parameters
    ----------
    ci : pair of float

    Returns
    -------
    str

    Examples
    --------
    >>> interval_cell((0.6325, 0.7291))
    '[63.25, 72.91]'
    """
    return f"[{pct(ci[0])}, {pct(ci[1])}]"


def score_cell(entry: Posterior) -> str:
    """One metric of one system in percent: estimate and interval, ``—, reason`` if undefined, ``†`` if one-sided.

    Parameters
    ----------
    entry : Posterior

    Returns
    -------
    str

    Examples
    --------
    >>> score_cell(Posterior(0.6842, (0.6325, 0.7291), None, None, "equal-tailed"))
    '68.42 [63.25, 72.91]'
    >>> score_cell(Posterior(0.0, (0.0, 0.0312), None, None, "one-sided"))
    '0.00 [0.00, 3.12]†'
    """
    if entry.estimate is None or entry.ci is None:
        return f"—, {entry.undefined or 'undefined'}"
    mark = "†" if entry.interval == "one-sided" else ""
    return f"{pct(entry.estimate)} {interval_cell(entry.ci)}{mark}"


def counts_cell(c: dict) -> str:
    """``P / R / F1`` of pooled counts in percent, ``—`` for each undefined one.

    Parameters
    ----------
    c : dict
        ``{"tp", "fp", "fn"}``.

    Returns
    -------
    str

    Examples
    --------
    >>> counts_cell({"tp": 3, "fp": 1, "fn": 0}), counts_cell({"tp": 0, "fp": 0, "fn": 2})
    ('75.00 / 100.00 / 85.71', '— / 0.00 / 0.00')
    """
    s = pooled_scores(c["tp"], c["fp"], c["fn"])
    return " / ".join(pct(s[k]) for k in METRICS)
