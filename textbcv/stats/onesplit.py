"""What one train/test split claims: paired bootstrap and approximate randomization over test sentences.

Both tests are on corpus-level chunk F1 recomputed from per-sentence (tp, fp, fn) counts of both systems on the
same sentences, and hold the training set fixed. A seed gives the same result on every machine. See
docs/method.md, "10. Textbook tests".

Examples
--------
>>> a = [[1, 0, 1], [2, 0, 0], [0, 1, 1], [1, 1, 0]] * 50
>>> b = [[2, 0, 0], [2, 0, 0], [1, 0, 0], [1, 0, 0]] * 50
>>> r = one_split_tests(a, b, seed=0)
>>> round(r.delta, 4), r.bootstrap.p_value, r.randomization.p_value
(0.3333, 0.000999000999000999, 9.999000099990002e-05)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .metrics import ratios

__all__ = ["BootstrapResult", "RandomizationResult", "OneSplitResult", "paired_bootstrap",
           "approximate_randomization", "one_split_tests", "chunk_f1", "RESAMPLES", "SHUFFLES"]

#: Bootstrap resamples (sacrebleu's default for ``--paired-bs``).
RESAMPLES = 1000
#: Approximate-randomization shuffles (sacrebleu's default for ``--paired-ar``).
SHUFFLES = 10000

_CELLS = 4_000_000  # sentence × resample cells handled at once (bounds the memory to a few tens of MB)


# ----------------------------------------------------------------------------- input


def _counts(x: Any, name: str) -> np.ndarray:
    """``x`` as an (n, 3) int64 array of non-negative integer counts; ValueError naming ``name`` otherwise."""
    if isinstance(x, (str, bytes)):
        raise ValueError(f"{name} must be per-sentence counts (tp, fp, fn), got a string")
    try:
        a = np.asarray(x)
    except ValueError:
        raise ValueError(f"{name} must be an (n, 3) array of counts; its rows have different lengths") from None
    if a.dtype == bool or a.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold integer counts, got {a.dtype}")
    if a.ndim != 2 or a.shape[1] != 3:
        raise ValueError(f"{name} must have shape (n, 3) — (tp, fp, fn) per sentence — got {a.shape}")
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.round(a))
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise ValueError(f"{name}[{i}, {j}] is {a[i, j].item()!r}; counts are non-negative integers")
    if (a < 0).any():
        i, j = np.argwhere(a < 0)[0]
        raise ValueError(f"{name}[{i}, {j}] is {a[i, j].item()!r}; counts are non-negative integers")
    if a.size and a.max() > 2**40:
        raise ValueError(f"{name} holds a count above 2^40 ({a.max()}); not a chunk count")
    return a.astype(np.int64)


def _pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    a, b = _counts(a, "a"), _counts(b, "b")
    if len(a) != len(b):
        raise ValueError(f"a has {len(a)} sentences and b {len(b)}: a paired test needs the same sentences")
    if len(a) == 0:
        raise ValueError("no sentences: a paired test needs at least one")
    gold_a, gold_b = a[:, 0] + a[:, 2], b[:, 0] + b[:, 2]
    if (gold_a != gold_b).any():
        i = int(np.flatnonzero(gold_a != gold_b)[0])
        raise ValueError(f"sentence {i}: a has {gold_a[i]} gold chunks (tp + fn) and b {gold_b[i]}; "
                         "the two systems must be scored on the same sentences, in the same order")
    return a, b


def _seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def _positive(k: int, name: str) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"{name} must be a positive integer, got {k!r}")
    return int(k)


_POP8 = np.array([v.bit_count() for v in range(256)], dtype=np.int64)


def _popcount_bytes(words: np.ndarray) -> np.ndarray:
    """Set bits of every uint64 of a C-contiguous array, byte by byte."""
    return _POP8[words.view(np.uint8)].reshape(*words.shape, 8).sum(axis=-1)


def _popcount(words: np.ndarray) -> np.ndarray:
    """Set bits of every uint64: numpy's ``bitwise_count`` where there is one (numpy >= 2)."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(words).astype(np.int64)
    return _popcount_bytes(words)


def chunk_f1(counts: Any) -> np.ndarray:
    """Chunk F1 = 2 tp / (2 tp + fp + fn) of summed counts along the last axis (0 where nothing is predicted or gold).

    Parameters
    ----------
    counts : array_like, shape (..., 3)
        (tp, fp, fn), summed over the sentences.

    Returns
    -------
    ndarray of shape ``counts.shape[:-1]``

    Examples
    --------
    >>> chunk_f1([[3, 1, 2], [0, 0, 0]]).tolist()
    [0.6666666666666666, 0.0]
    """
    return ratios(counts)["f1"]


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True)
class BootstrapResult:
    """A paired bootstrap of ΔF1 = F1(B) − F1(A) over test sentences.

    Attributes
    ----------
    delta : float
        The observed ΔF1.
    p_value : float
        Two-sided: (c + 1) / (R + 1), c the resamples whose |ΔF1*| − mean |ΔF1*| is at least |ΔF1|.
    ci : tuple of float
        Equal-tailed percentile interval of ΔF1* at ``level``.
    level : float
    resamples : int
    seed : int
    """

    delta: float
    p_value: float
    ci: tuple[float, float]
    level: float
    resamples: int
    seed: int

    def to_dict(self) -> dict:
        """JSON-ready form, ``ci`` as a list.

        Returns
        -------
        dict
        """
        return {"delta": self.delta, "p_value": self.p_value, "ci": list(self.ci), "level": self.level,
                "resamples": self.resamples, "seed": self.seed}


@dataclass(frozen=True)
class RandomizationResult:
    """An approximate randomization test of ΔF1 = F1(B) − F1(A) over test sentences.

    Attributes
    ----------
    delta : float
        The observed ΔF1.
    p_value : float
        Two-sided: (c + 1) / (R + 1), c the shuffles with |ΔF1| at least the observed one.
    shuffles : int
    seed : int
    """

    delta: float
    p_value: float
    shuffles: int
    seed: int

    def to_dict(self) -> dict:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {"delta": self.delta, "p_value": self.p_value, "shuffles": self.shuffles, "seed": self.seed}


@dataclass(frozen=True)
class OneSplitResult:
    """Both tests on one test set: what a single train/test split would claim about B against A.

    Attributes
    ----------
    sentences : int
    f1_a, f1_b : float
        Corpus-level chunk F1 of each system.
    delta : float
        F1(B) − F1(A).
    bootstrap : BootstrapResult
    randomization : RandomizationResult
    """

    sentences: int
    f1_a: float
    f1_b: float
    delta: float
    bootstrap: BootstrapResult
    randomization: RandomizationResult

    def to_dict(self) -> dict:
        """JSON-ready form; the key of ``delta`` is ``delta_f1``.

        Returns
        -------
        dict

        Examples
        --------
        >>> r = one_split_tests([[1, 0, 0]] * 20, [[1, 0, 0]] * 20, resamples=10, shuffles=10)
        >>> r.to_dict()["delta_f1"], r.randomization.p_value, r.bootstrap.p_value
        (0.0, 1.0, 1.0)
        """
        return {"sentences": self.sentences, "f1_a": self.f1_a, "f1_b": self.f1_b, "delta_f1": self.delta,
                "bootstrap": self.bootstrap.to_dict(), "randomization": self.randomization.to_dict()}


# ----------------------------------------------------------------------------- tests


def paired_bootstrap(a: Any, b: Any, resamples: int = RESAMPLES, seed: int = 0, alpha: float = 0.05) -> BootstrapResult:
    """Paired bootstrap over test sentences of ΔF1 = F1(B) − F1(A), as sacrebleu's ``--paired-bs``.

    The p-value is sacrebleu's (Koehn 2004), except that ties count, so identical systems get p = 1.

    Parameters
    ----------
    a, b : array-like, shape (n, 3)
        Per-sentence (tp, fp, fn) of A and B on the same sentences, in the same order.
    resamples : int
    seed : int
        Seed of ``numpy.random.default_rng``: the same draws as sacrebleu's for that seed.
    alpha : float
        The interval is the equal-tailed 1 − alpha percentile interval of ΔF1*.

    Returns
    -------
    BootstrapResult

    Examples
    --------
    >>> a = [[1, 0, 1], [1, 1, 0], [0, 0, 1], [2, 0, 0]] * 25
    >>> b = [[2, 0, 0], [1, 0, 0], [0, 1, 1], [2, 0, 0]] * 25
    >>> r = paired_bootstrap(a, b, resamples=1000, seed=0)
    >>> round(r.delta, 4), r.p_value, [round(x, 2) for x in r.ci]
    (0.1061, 0.000999000999000999, [0.06, 0.15])
    """
    a, b = _pair(a, b)
    R, seed = _positive(resamples, "resamples"), _seed(seed)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    n = len(a)
    # A resample's totals are the counts of each kind of sentence (a distinct (a, b) count row) times how
    # often the resample drew a sentence of that kind.
    kinds, kind_of = np.unique(np.concatenate([a, b], axis=1), axis=0, return_inverse=True)
    kind_of, v = kind_of.ravel(), len(kinds)
    observed = float(chunk_f1(b.sum(axis=0)) - chunk_f1(a.sum(axis=0)))
    rng = np.random.default_rng(seed)
    deltas = np.empty(R)
    step = max(1, _CELLS // n)
    for start in range(0, R, step):
        k = min(step, R - start)
        idx = rng.integers(0, n, size=(k, n))  # the draws are the same whatever the chunk size
        drawn = kind_of[idx]
        drawn += (v * np.arange(k))[:, None]
        sums = np.bincount(drawn.ravel(), minlength=k * v).reshape(k, v) @ kinds  # (k, 6) integer totals
        deltas[start:start + k] = chunk_f1(sums[:, 3:]) - chunk_f1(sums[:, :3])
    d = np.abs(deltas)
    c = int(np.count_nonzero(d - d.mean() >= abs(observed)))
    lo, hi = np.quantile(deltas, [alpha / 2, 1 - alpha / 2])
    return BootstrapResult(observed, (c + 1) / (R + 1), (float(lo), float(hi)), 1 - alpha, R, seed)


def approximate_randomization(a: Any, b: Any, shuffles: int = SHUFFLES, seed: int = 0) -> RandomizationResult:
    """Paired approximate randomization test of ΔF1 = F1(B) − F1(A) over test sentences.

    As sacrebleu's ``--paired-ar`` (Riezler & Maxwell 2005): each shuffle swaps the systems' output of every
    sentence with probability ½. Ties count, so identical systems get p = 1; exchanging A and B gives the same
    p-value exactly.

    Parameters
    ----------
    a, b : array-like, shape (n, 3)
        Per-sentence (tp, fp, fn) of A and B on the same sentences, in the same order.
    shuffles : int
    seed : int
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    RandomizationResult

    Examples
    --------
    >>> a = [[1, 0, 1], [1, 1, 0], [0, 0, 1], [2, 0, 0]] * 25
    >>> b = [[2, 0, 0], [1, 0, 0], [0, 1, 1], [2, 0, 0]] * 25
    >>> approximate_randomization(a, b, shuffles=10000, seed=0).p_value
    0.00019998000199980003
    """
    a, b = _pair(a, b)
    R, seed = _positive(shuffles, "shuffles"), _seed(seed)
    total_a, total_b = a.sum(axis=0), b.sum(axis=0)
    observed = float(chunk_f1(total_b) - chunk_f1(total_a))
    diff = b - a
    moved = np.flatnonzero(diff.any(axis=1))
    d = diff[moved]
    flip = d[np.arange(len(d)), np.argmax(d != 0, axis=1)] < 0  # first non-zero entry < 0: v = −u, u = max(v, −v)
    canon = np.where(flip[:, None], -d, d)
    groups, group_of = np.unique(canon, axis=0, return_inverse=True)  # (G, 3) lexicographic
    group_of = group_of.ravel()
    order = np.lexsort((moved, group_of))  # by group, then by position
    sizes = np.bincount(group_of, minlength=len(groups))
    words = -(-sizes // 64)
    first_word = (np.cumsum(words) - words).astype(np.int64)
    n_words = int(words.sum())
    rank = np.empty(len(moved), dtype=np.int64)  # rank of each moved sentence within its group
    rank[order] = np.arange(len(moved)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    bit = first_word[group_of] * 64 + rank
    plus = np.zeros(n_words * 64, dtype=np.uint8)
    minus = np.zeros(n_words * 64, dtype=np.uint8)
    plus[bit[~flip]] = 1
    minus[bit[flip]] = 1
    plus_w = np.packbits(plus, bitorder="little").view("<u8")  # (n_words,) masks of the +u and −u sentences
    minus_w = np.packbits(minus, bitorder="little").view("<u8")
    fa, fb = total_a.astype(np.float64), total_b.astype(np.float64)
    raw = np.random.default_rng(seed).bit_generator
    step = max(1, _CELLS // max(1, 64 * n_words))
    c = 0
    for start in range(0, R, step):
        k = min(step, R - start)
        s = np.zeros((k, 3), dtype=np.float64)  # per shuffle: the summed B − A counts of the swapped sentences
        if n_words:
            block = raw.random_raw(k * n_words).astype("<u8").reshape(k, n_words)
            net = _popcount(block & plus_w) - _popcount(block & minus_w)  # (k, words): swapped +u minus swapped −u
            s = (np.add.reduceat(net, first_word, axis=1) @ groups).astype(np.float64)  # exact integers
        dd = np.abs(chunk_f1(fb - s) - chunk_f1(fa + s))
        c += int(np.count_nonzero(dd >= abs(observed)))
    return RandomizationResult(observed, (c + 1) / (R + 1), R, seed)


def one_split_tests(a: Any, b: Any, resamples: int = RESAMPLES, shuffles: int = SHUFFLES, seed: int = 0,
                    alpha: float = 0.05) -> OneSplitResult:
    """Paired bootstrap and approximate randomization of B against A on one test set.

    Parameters
    ----------
    a, b : array-like, shape (n, 3)
        Per-sentence (tp, fp, fn) of A and B on the same sentences, in the same order.
    resamples, shuffles : int
        R of :func:`paired_bootstrap` and of :func:`approximate_randomization`.
    seed : int
        Seed of both.
    alpha : float
        Level of the bootstrap interval (1 − alpha).

    Returns
    -------
    OneSplitResult

    Examples
    --------
    >>> r = one_split_tests([[1, 0, 0], [0, 1, 1]] * 10, [[1, 0, 0], [1, 0, 0]] * 10, seed=3)
    >>> r.sentences, round(r.delta, 4), r.randomization.p_value < 0.01
    (20, 0.5, True)
    """
    a, b = _pair(a, b)
    boot = paired_bootstrap(a, b, resamples=resamples, seed=seed, alpha=alpha)
    ar = approximate_randomization(a, b, shuffles=shuffles, seed=seed)
    f1_a, f1_b = float(chunk_f1(a.sum(axis=0))), float(chunk_f1(b.sum(axis=0)))
    return OneSplitResult(len(a), f1_a, f1_b, f1_b - f1_a, boot, ar)
