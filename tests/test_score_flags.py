"""conlleval's counting gives the same counts whether the (previous tag, tag) flags come from one table of every
code pair (small tag sets) or class by class (tag sets too large for that table)."""

from __future__ import annotations

import numpy as np
import pytest

from textbcv.scoring import score_tags
from textbcv.scoring import tags as tags_module


@pytest.mark.parametrize("seed", range(5))
def test_pair_table_and_class_lookup_count_alike(monkeypatch, seed):
    rng = np.random.default_rng(seed)
    tagset = ["O", ".", "[", "]"] + [f"{p}-{t}" for p in "BIESX" for t in ("PER", "LOC", "ORG", "")]
    gold = [list(rng.choice(tagset, size=rng.integers(0, 12))) for _ in range(200)]
    pred = [[t if rng.random() < 0.6 else str(rng.choice(tagset)) for t in s] for s in gold]
    table = score_tags(gold, pred)
    monkeypatch.setattr(tags_module, "_PAIR_TABLE_MAX", 0)
    assert score_tags(gold, pred) == table
