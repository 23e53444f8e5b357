"""chi2_floor is a true lower bound: no split can beat it (exhaustive check on small problems)."""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.split.bcv import halves_from_blocks
from textbcv.split.quality import chi2_floor, split_quality


@lru_cache(maxsize=None)
def _block_assignments(n: int, N: int) -> tuple:
    """Every assignment of n units to N blocks of near-equal size (sizes ⌊n/N⌋ or ⌈n/N⌉)."""
    lo, hi = n // N, -(-n // N)
    out = []
    for a in itertools.product(range(N), repeat=n):
        c = np.bincount(a, minlength=N)
        if c.min() >= lo and c.max() <= hi:
            out.append(np.array(a))
    return tuple(out)


def _all_block_assignments(n: int, N: int):
    return iter(_block_assignments(n, N))


@pytest.mark.slow  # seconds of balancing: CI runs it (.ci/run); the fast suite keeps this file's quicker tests
@settings(max_examples=25, deadline=None)
@given(st.data())
def test_no_split_beats_the_floor(data):
    n = data.draw(st.integers(8, 9))
    step = 7 if n == 8 else 61
    J = data.draw(st.integers(2, 3))
    X = np.array(data.draw(st.lists(st.lists(st.integers(0, 9), min_size=J, max_size=J), min_size=n, max_size=n)))
    X[0, 0] += data.draw(st.integers(0, 30))  # one unit holding most of a category
    if X.sum() == 0:
        X[1, 1] = 1
    M = sp.csr_matrix(X.astype(float))
    checked = 0
    for blocks in itertools.islice(_all_block_assignments(n, 4), 0, None, step):
        train = halves_from_blocks(blocks, 3)
        mean = float(np.mean(split_quality(train, {"x": M})["chi2_per_df"]["x"]))
        share = np.bincount(blocks, weights=X.sum(axis=1), minlength=4).max() / X.sum()
        floor = chi2_floor(M, 4, max_share=share)
        assert mean >= floor - 1e-6 * (1 + mean), (mean, floor, blocks.tolist())
        checked += 1
    assert checked > 40


def test_floor_is_reached_when_a_unit_forces_it():
    # 4 blocks of 2 units of equal size; category 0 only in unit 0 (count 12): its block always has all 12
    X = np.array([[12, 30]] + [[0, 42]] * 7, dtype=float)
    M = sp.csr_matrix(X)
    floors, means = [], []
    for blocks in _all_block_assignments(8, 4):
        train = halves_from_blocks(blocks, 3)
        means.append(float(np.mean(split_quality(train, {"x": M})["chi2_per_df"]["x"])))
        share = np.bincount(blocks, weights=X.sum(axis=1), minlength=4).max() / X.sum()
        floors.append(chi2_floor(M, 4, max_share=share))
    # floor = 4/3 · ((12 − 3)² + 9²/3) / 12 / 2 = 6, for every split (all blocks hold 1/4 of the total)
    assert set(np.round(floors, 9)) == {6.0}
    assert min(means) >= 6.0


def test_equal_shares_default_and_no_forced_units():
    # every unit holds one occurrence: nothing is forced, the floor is 0
    M = sp.csr_matrix(np.eye(4).repeat(8, axis=0))
    assert chi2_floor(M, 4) == 0.0
    # a larger allowed share only lowers the floor
    X = sp.csr_matrix(np.array([[20, 1]] + [[1, 5]] * 40, dtype=float))
    assert chi2_floor(X, 16) >= chi2_floor(X, 16, max_share=0.07) >= chi2_floor(X, 16, max_share=0.2)


@pytest.mark.parametrize("N", [4, 8, 16])
def test_floor_needs_categories_kept_in_every_half(N):
    X = sp.csr_matrix(np.array([[3, 1]] + [[0, 1]] * 30, dtype=float))  # category 0: C = 3, always pooled
    assert chi2_floor(X, N) == 0.0
