"""Correlation factors of the m×2 BCV estimate (thesis chapters 3, 5 and 6).

The 2m fold estimates correlate: ρ1 within a split, ρ2 across splits. See docs/method.md, "4. Why the folds
are correlated".
"""

from __future__ import annotations

import math

from scipy import integrate, special, stats

__all__ = [
    "VARIANTS",
    "count_factor",
    "thesis_count_factor",
    "variance_factor",
    "arrv",
    "C_m",
    "f_m",
    "v_m",
    "C_hat",
    "f_hat",
    "arrci",
    "choose_max_m",
]

#: Names accepted by :func:`count_factor` (``"rho"`` needs ``rho1`` and ``rho2``).
VARIANTS = ("thesis", "independent", "averaged-counts", "rho")


def _check_m(m: int) -> int:
    if isinstance(m, bool) or int(m) != m or m < 1:
        raise ValueError(f"m must be an integer >= 1, got {m!r}")
    return int(m)


def variance_factor(m: int, rho1: float, rho2: float) -> float:
    """``1 + ρ1 + (2m − 2) ρ2``: Var of the pooled m×2 estimate in units of σ²/(2m) (eq. 6.17).

    Parameters
    ----------
    m : int
        Number of splits, ≥ 1.
    rho1, rho2 : float
        Correlation of the two folds of one split, and of folds of different splits.

    Returns
    -------
    float

    Examples
    --------
    >>> variance_factor(3, 0.0, 0.0), variance_factor(3, 1.0, 1.0)
    (1.0, 6.0)
    """
    m = _check_m(m)
    return 1.0 + rho1 + (2 * m - 2) * rho2


def thesis_count_factor(m: int) -> float:
    """c_m: the average of 1/(1+ρ1+(2m−2)ρ2) over ρ1 ∈ [0, ½], ρ2 ∈ [¼, ½] (eq. 6.25), in closed form.

    For m = 1 the average is over ρ1 alone: c_1 = 2 ln(3/2).

    Parameters
    ----------
    m : int
        Number of splits, ≥ 1.

    Returns
    -------
    float
        In (0, 1].

    Examples
    --------
    >>> round(thesis_count_factor(3), 4)
    0.3688
    """
    m = _check_m(m)
    if m == 1:
        return 2.0 * math.log(1.5)

    def xlogx(x: float) -> float:
        return x * math.log(x)

    log_ratio = xlogx(m + 0.5) + xlogx(0.5 * m + 0.5) - xlogx(m) - xlogx(1 + 0.5 * m)
    return 4.0 / (m - 1) * log_ratio


def count_factor(m: int, variant: str = "thesis", rho1: float | None = None, rho2: float | None = None) -> float:
    """The factor c that turns pooled fold counts into effective counts (TP_e = c ΣTP), in (0, 1].

    Parameters
    ----------
    m : int
        Number of splits; the counts are pooled over 2m folds.
    variant : {"thesis", "independent", "averaged-counts", "rho"}
        c_m (:func:`thesis_count_factor`); 1; 1/(2m); or 1/(1+ρ1+(2m−2)ρ2) with ``rho1``, ``rho2``.
    rho1, rho2 : float, optional
        In [0, 1]; required by ``rho``, ignored otherwise.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For an unknown variant, or ``rho`` without ρ1, ρ2 in [0, 1].

    Examples
    --------
    >>> count_factor(3), count_factor(3, "independent"), count_factor(3, "averaged-counts")
    (0.3688..., 1.0, 0.1666...)
    >>> round(count_factor(3, "rho", rho1=0.2, rho2=0.3), 6)
    0.416667
    """
    m = _check_m(m)
    if variant == "thesis":
        return thesis_count_factor(m)
    if variant == "independent":
        return 1.0
    if variant == "averaged-counts":
        return 1.0 / (2 * m)
    if variant == "rho":
        if rho1 is None or rho2 is None:
            raise ValueError("variant 'rho' needs rho1 and rho2")
        if not (0.0 <= rho1 <= 1.0 and 0.0 <= rho2 <= 1.0):
            raise ValueError(f"rho1 and rho2 must lie in [0, 1], got {rho1}, {rho2}")
        return 1.0 / variance_factor(m, rho1, rho2)
    raise ValueError(f"unknown variant {variant!r}; choose from {', '.join(VARIANTS)}")


def arrv(m: int) -> float:
    """ARRV(m): average relative reduction of Var(μ̂_m×2) from m to m+1 splits over ρ1, ρ2 ∈ (0, ½) (eq. 3.31–3.32).

    Parameters
    ----------
    m : int
        Number of splits before the extra one.

    Returns
    -------
    float

    Examples
    --------
    >>> round(arrv(3), 4)
    0.0984
    """
    m = _check_m(m)

    def rate(r2: float, r1: float) -> float:
        return (1 + r1 - 2 * r2) / ((m + 1) * (1 + r1) + 2 * (m * m - 1) * r2)

    val, _ = integrate.dblquad(rate, 0.0, 0.5, 0.0, 0.5, epsabs=1e-12, epsrel=1e-10)
    return 4.0 * val


def C_m(m: int, rho1: float, rho2: float) -> float:
    """C_m = √(g / (2m − g)), g = :func:`variance_factor` (eq. 5.24): Var(μ̂_m×2) = C_m² E[Var2].

    Parameters
    ----------
    m : int
    rho1, rho2 : float
        The fold estimates' correlations within and across splits.

    Returns
    -------
    float

    Examples
    --------
    >>> round(C_m(3, 0.2, 0.3), 4)
    0.8165
    """
    g = variance_factor(m, rho1, rho2)
    return math.sqrt(g / (2 * m - g))


def f_m(m: int, rho1: float, rho2: float) -> float:
    """Degrees of freedom f_m of the scaled Var2 (eq. 5.20/5.25); 2m − 1 for independent folds.

    Parameters
    ----------
    m : int
    rho1, rho2 : float
        The fold estimates' correlations within and across splits.

    Returns
    -------
    float

    Examples
    --------
    >>> round(f_m(3, 0.2, 0.3), 4)
    4.9091
    """
    m = _check_m(m)
    num = (2 * m * (1 - rho2) - (1 + rho1 - 2 * rho2)) ** 2
    den = m * (1 - rho1) ** 2 + (m - 1) * (1 + rho1 - 2 * rho2) ** 2
    return num / den


def v_m(m: int, rho1: float, rho2: float) -> float:
    """Scale v_m of Lemma 5.2: 2m Var2 / (v_m σ²) ~ χ²(f_m) (eq. 5.19).

    Parameters
    ----------
    m : int
    rho1, rho2 : float
        The fold estimates' correlations within and across splits.

    Returns
    -------
    float

    Examples
    --------
    >>> round(v_m(3, 0.0, 0.0) * f_m(3, 0.0, 0.0), 6)  # 2m − 1 for independent folds
    5.0
    """
    m = _check_m(m)
    g = variance_factor(m, rho1, rho2)
    return (m * (1 - rho1) ** 2 + (m - 1) * (1 + rho1 - 2 * rho2) ** 2) / (2 * m - g)


def C_hat(m: int) -> float:
    """Ĉ_m = √((2m+1)/(2m−1)) (eq. 5.32: C_m at ρ1 = ρ2 = ½).

    Parameters
    ----------
    m : int

    Returns
    -------
    float

    Examples
    --------
    >>> round(C_hat(3), 4)
    1.1832
    """
    m = _check_m(m)
    return math.sqrt((2 * m + 1) / (2 * m - 1))


def f_hat(m: int) -> int:
    """f̂_m = 2m − 1 (eq. 5.33).

    Parameters
    ----------
    m : int

    Returns
    -------
    int

    Examples
    --------
    >>> f_hat(3)
    5
    """
    return 2 * _check_m(m) - 1


def _expected_halfwidth(m: int, rho1: float, rho2: float, alpha: float, corrected: bool) -> float:
    # E[Ĉ_m σ̂_m t_{α/2}(f̂_m)] / σ, with E[σ̂_m] = √(v_m/m) Γ((f_m+1)/2)/Γ(f_m/2) σ
    # (corrected) or the thesis's printed √(C_m/m) (eq. 5.23, a typo).
    f = f_m(m, rho1, rho2)
    scale = v_m(m, rho1, rho2) if corrected else C_m(m, rho1, rho2)
    e_sigma = math.sqrt(scale / m) * math.exp(special.gammaln((f + 1) / 2) - special.gammaln(f / 2))
    return C_hat(m) * e_sigma * stats.t.isf(alpha / 2, f_hat(m))


def arrci(m: int, alpha: float = 0.05, corrected: bool = True) -> float:
    """ARRCI_α(m): average relative shortening of the sequential CI from m to m+1 over ρ1, ρ2 ∈ (0, ½) (eq. 5.44).

    Parameters
    ----------
    m : int
        Number of splits before the extra one.
    alpha : float
        Level of the sequential test's interval.
    corrected : bool
        Use v_m in E[σ̂_m]; False uses the thesis's printed C_m and reproduces its table 5.4.

    Returns
    -------
    float

    Examples
    --------
    >>> round(arrci(4, 0.05, corrected=False), 4)  # table 5.4
    0.0701
    """
    m = _check_m(m)

    def rate(r2: float, r1: float) -> float:
        return 1.0 - (_expected_halfwidth(m + 1, r1, r2, alpha, corrected)
                      / _expected_halfwidth(m, r1, r2, alpha, corrected))

    val, _ = integrate.dblquad(rate, 0.0, 0.5, 0.0, 0.5, epsabs=1e-10, epsrel=1e-8)
    return 4.0 * val


def choose_max_m(alpha: float = 0.05, gamma: float = 0.05, corrected: bool = True, m_start: int = 3,
                 limit: int = 100) -> int:
    """M: the smallest m ≥ m_start whose ARRCI_α(m) ≤ γ (one more split shortens the CI by less than γ).

    Parameters
    ----------
    alpha : float
        Level of the sequential test's interval.
    gamma : float
        γ, as a fraction.
    corrected : bool
        Passed to :func:`arrci`.
    m_start : int
    limit : int
        Largest m tried; ValueError if none up to it qualifies.

    Returns
    -------
    int

    Examples
    --------
    >>> choose_max_m(0.05, 0.05)
    4
    """
    for m in range(m_start, limit + 1):
        if arrci(m, alpha, corrected) <= gamma:
            return m
    raise ValueError(f"ARRCI stays above {gamma} up to m = {limit}")
