"""The posterior of a paired difference (:class:`PairedDifference`) and its summaries."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy import stats as sst

__all__ = ["PairedDifference"]


@dataclass(frozen=True)
class PairedDifference:
    """The posterior of Δ = metric(B) − metric(A): a Student t at the pooled estimate, scale √``var``, 2m − 1 df.

    All values are fractions (variances fractions squared).

    Attributes
    ----------
    estimate : float
        Δ of the pooled counts (the metric of B's summed counts minus A's).
    var_test : float
        New text: the cluster variance of the pooled Δ, related clusters' covariance included when known.
    var_model : float
        The models' own noise: M/(2m), floored at 0 (:func:`~textbcv.stats.paired.fold_noise`).
    df : float
        2m − 1 (``inf`` for a variance taken as exact).
    m : int
    clusters : int
        Clusters behind ``var_test``.
    correlation : float
        Of the two systems' linearised errors over the clusters (NaN when undefined).
    metric : {"f1", "precision", "recall", "macro-f1"}
    cluster_unit : {"documents", "sentences"}
    test_shared : float
        The share of ``var_test`` that more splits would not remove (:meth:`at_m`).
    var_seed : float or None
        The seeds' whole effect: a part of ``var`` when ``seeds`` is set (the other parts are then net of it),
        otherwise a diagnostic, not added.
    seeds : tuple of int or None
        (S_A, S_B) seeds per fold, when ``var_seed`` is a part of the posterior.
    seed_share_a : float
        The share of ``var_seed`` that A's seeds bring.
    var_related : float or None
        The part of ``var_test`` from related clusters, floored at 0; None when not known.
    design : {"mx2", "fixed"}
        ``"fixed"``: one training set and one test set (:func:`~textbcv.stats.paired.fixed_difference`), whose
        ``var_model`` (the choice of training set) is not measured and is 0, not floored.

    Examples
    --------
    >>> p = PairedDifference(0.004, 0.002 ** 2, 0.001 ** 2, 40.0, 3, 900, 0.8)
    >>> round(p.sd, 5), round(p.prob_better()["p_b_better"], 3), [round(x, 4) for x in p.interval()]
    (0.00224, 0.959, [-0.0005, 0.0085])
    >>> PairedDifference.from_dict(p.to_dict()) == p
    True
    """

    estimate: float
    var_test: float
    var_model: float
    df: float
    m: int
    clusters: int
    correlation: float
    metric: str = "f1"
    cluster_unit: str = "sentences"
    test_shared: float = 1.0
    var_seed: float | None = None
    seeds: tuple[int, int] | None = None
    seed_share_a: float = 0.5
    var_related: float | None = None
    design: str = "mx2"

    @property
    def var_seed_part(self) -> float:
        """``var_seed`` when it is a part of the posterior (``seeds`` set), else 0."""
        return float(self.var_seed) if self.seeds is not None and self.var_seed is not None else 0.0

    @property
    def var(self) -> float:
        """The posterior variance of Δ: ``var_test + var_model + var_seed_part``."""
        return self.var_test + self.var_model + self.var_seed_part

    @property
    def floored(self) -> bool:
        """Whether the models' own noise was estimated at 0 on the folds (their ΔF1 agree more closely than the test
        text alone predicts) while Δ still has a variance: the part the folds could not measure."""
        return self.design != "fixed" and self.var_model <= 0 < self.var

    @property
    def sd(self) -> float:
        """The posterior scale of Δ, √``var``."""
        return float(np.sqrt(self.var))

    def _dist(self) -> Any:
        """The frozen scipy distribution of Δ."""
        if not np.isfinite(self.df):
            return sst.norm(loc=self.estimate, scale=self.sd)
        return sst.t(self.df, loc=self.estimate, scale=self.sd)

    def interval(self, alpha: float = 0.05) -> tuple[float, float]:
        """Equal-tailed 1 − alpha credible interval of Δ (not clipped to [−1, 1]).

        Parameters
        ----------
        alpha : float

        Returns
        -------
        (float, float)
            Both ``estimate`` when sd = 0.
        """
        if self.sd == 0:
            return self.estimate, self.estimate
        d = self._dist()
        return float(d.ppf(alpha / 2)), float(d.isf(alpha / 2))

    def prob_better(self, rope: float = 0.0) -> dict[str, float]:
        """P(Δ > rope), P(Δ < −rope) and, with a rope, P(equivalent), in closed form.

        Parameters
        ----------
        rope : float
            Region of practical equivalence, a fraction (0: none).

        Returns
        -------
        dict of str to float
            ``p_b_better``, ``p_a_better`` (1 − ``p_b_better`` without a rope) and, with a rope, ``p_equivalent``;
            with sd = 0, 0 or 1 (½ each for Δ = 0 without a rope).
        """
        if self.sd == 0:
            p_b, p_a = float(self.estimate > rope), float(self.estimate < -rope)
            if rope == 0 and self.estimate == 0:
                p_b = p_a = 0.5
        else:
            d = self._dist()
            p_b, p_a = float(d.sf(rope)), float(d.cdf(-rope))
        out = {"p_b_better": p_b, "p_a_better": p_a if rope > 0 else 1.0 - p_b}
        if rope > 0:
            out["p_equivalent"] = max(0.0, 1.0 - p_a - p_b)
        return out

    def at_m(self, m: int) -> PairedDifference:
        """The posterior with ``m`` splits on the same sentences and the same estimate.

        The model noise, the seeds' part and the unshared share of the test part scale by m₀/m; ``df`` becomes 2m − 1.

        Parameters
        ----------
        m : int

        Returns
        -------
        PairedDifference
        """
        if self.design == "fixed":
            raise ValueError("a fixed-split posterior has no splits to add: at_seeds changes its seeds")
        r = self.m / m
        keep = self.test_shared + (1 - self.test_shared) * r
        var_model = self.var_model * r
        var_seed = None if self.var_seed is None else self.var_seed * r  # every fold has its own seeds
        var_related = None if self.var_related is None else self.var_related * keep
        df = 2.0 * m - 1.0 if np.isfinite(self.df) else self.df
        return replace(self, var_test=self.var_test * keep, var_model=var_model, var_seed=var_seed, m=m, df=df,
                       var_related=var_related)

    def at_seeds(self, seeds: int) -> PairedDifference:
        """The posterior with ``seeds`` training seeds per fold for both systems: the seeds' part falls as 1/S.

        Parameters
        ----------
        seeds : int

        Returns
        -------
        PairedDifference
            This posterior itself when its seeds were not measured as a part of their own.

        Examples
        --------
        >>> p = PairedDifference(0.01, 1e-5, 1e-5, 5.0, 3, 500, 0.8, var_seed=2e-5, seeds=(2, 2))
        >>> round(1e5 * p.var, 3), round(1e5 * p.at_seeds(8).var, 3)
        (4.0, 2.5)
        """
        if self.seeds is None or self.var_seed is None:
            return self
        sa, sb = self.seeds
        share = self.seed_share_a
        var_seed = self.var_seed * (share * sa / seeds + (1 - share) * sb / seeds)
        new_share = share * sa / (share * sa + (1 - share) * sb) if share * sa + (1 - share) * sb > 0 else 0.5
        return replace(self, var_seed=var_seed, seeds=(seeds, seeds), seed_share_a=new_share)

    def detectable(self, power: float = 0.8, threshold: float = 0.95) -> float:
        """The smallest true Δ > 0 called (P(B better) ≥ ``threshold``) with probability ``power``: (q + z_power)·sd.

        Parameters
        ----------
        power : float
            In (0, 1).
        threshold : float
            The decision rule's threshold on P(B better).

        Returns
        -------
        float
            A fraction.

        Examples
        --------
        >>> p = PairedDifference(0.0, 0.002 ** 2, 0.0, float("inf"), 3, 500, 0.8)
        >>> round(100 * p.detectable(0.5), 3), round(100 * p.detectable(0.8), 3)  # 1.645 sd and 2.486 sd
        (0.329, 0.497)
        """
        q = float(sst.t.ppf(threshold, self.df)) if np.isfinite(self.df) else float(sst.norm.ppf(threshold))
        return (q + float(sst.norm.ppf(power))) * self.sd

    def power(self, delta: float, threshold: float = 0.95) -> float:
        """The probability of calling B better (P ≥ ``threshold``) when the true Δ is ``delta`` (a fraction).

        Parameters
        ----------
        delta : float
        threshold : float

        Returns
        -------
        float
        """
        if self.sd == 0:
            return float(delta > 0)
        q = float(sst.t.ppf(threshold, self.df)) if np.isfinite(self.df) else float(sst.norm.ppf(threshold))
        return float(sst.norm.cdf(delta / self.sd - q))

    def density(self, d: Any) -> np.ndarray:
        """The posterior density of Δ (Student t, Normal for infinite ``df``).

        Parameters
        ----------
        d : float or array_like

        Returns
        -------
        ndarray
        """
        d = np.asarray(d, dtype=float)
        if self.sd == 0:  # a point mass: no density anywhere but at the estimate
            return np.where(d == self.estimate, np.inf, 0.0)
        return self._dist().pdf(d)

    def to_dict(self) -> dict:
        """JSON-ready form with ``sd``; ``df`` and ``correlation`` None when not finite; unset optionals left out.

        Returns
        -------
        dict
        """
        return {"metric": self.metric, "estimate": self.estimate, "sd": self.sd, "var_test": self.var_test,
                "var_model": self.var_model,
                "df": None if not np.isfinite(self.df) else self.df, "m": self.m, "clusters": self.clusters,
                "correlation": None if not np.isfinite(self.correlation) else self.correlation,
                "cluster_unit": self.cluster_unit, "test_shared": self.test_shared,
                **({} if self.var_seed is None else {"var_seed": self.var_seed}),
                **({} if self.var_related is None else {"var_related": self.var_related}),
                **({} if self.seeds is None else {"seeds": list(self.seeds), "seed_share_a": self.seed_share_a}),
                **({} if self.design == "mx2" else {"design": self.design})}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PairedDifference:
        """Read :meth:`to_dict` back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        PairedDifference
        """
        df = d.get("df")
        corr = d.get("correlation")
        return cls(float(d["estimate"]), float(d["var_test"]), float(d["var_model"]),
                   float("inf") if df is None else float(df), int(d["m"]), int(d["clusters"]),
                   float("nan") if corr is None else float(corr), d.get("metric", "f1"),
                   d.get("cluster_unit", "sentences"), float(d.get("test_shared", 1.0)),
                   None if d.get("var_seed") is None else float(d["var_seed"]),
                   None if d.get("seeds") is None else (int(d["seeds"][0]), int(d["seeds"][1])),
                   float(d.get("seed_share_a", 0.5)),
                   None if d.get("var_related") is None else float(d["var_related"]), str(d.get("design", "mx2")))
