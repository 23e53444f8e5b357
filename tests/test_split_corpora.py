"""Issue 4's "Done when" figures on the shared corpora, m = 15 (balanced BCV vs random m×2 CV).

Each corpus is read and split once per module. Targets: in every half χ²/J ≤ 0.05 (label), ≤ 0.15
(length), ≤ 0.3 (lemma); means ≥ 10× (label, length) and ≥ 3× (lemma) below random m×2;
max |φ − n/4| ≤ 4. The targets not reached are strict xfails (so that reaching them is noticed), each
with its reason; docs/RESULTS.md ("Split quality", scripts/split_quality.py) has the figures and floors.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from tests.conftest import shared_path
from textbcv.corpus import read_corpus
from textbcv.split import make_splits

CORPORA = {
    "conll": (("conll2003_en", "eng.train"), "conll", 14041),
    "ewt": (("ud_english_ewt", "en_ewt-ud-train.conllu"), "conllu", 12544),
    "pku": (("sighan2005_cws", "pku_test_gold.utf8"), "segmented", 1944),
}
LIMIT = {"label": 0.05, "length": 0.15, "lemma": 0.3}
RATIO = {"label": 10.0, "length": 10.0, "lemma": 3.0}


@lru_cache(maxsize=None)
def _figures(name):
    parts, fmt, n = CORPORA[name]
    corpus = read_corpus([shared_path(*parts)], format=fmt)
    assert len(corpus) == n
    bcv = make_splits(corpus, m=15, seed=0)
    rnd = make_splits(corpus, m=15, method="random", seed=0)
    return bcv, rnd


def _get(name):
    return _figures(name)


@pytest.mark.parametrize("name", ["conll", "ewt", "pku"])
def test_overlap_and_partition(name):
    bcv, _ = _get(name)
    assert bcv.quality["overlap_max_deviation"] <= 4
    for t, v in bcv.splits:
        assert len(t) + len(v) == bcv.n and len(np.intersect1d(t, v)) == 0


PASSING = [(c, m, kind) for c in ("conll", "ewt") for m in ("label", "length") for kind in ("max", "ratio")]
PASSING += [(c, "lemma", "ratio") for c in ("conll", "ewt")] + [("pku", "label", "max"), ("pku", "label", "ratio")]
_DUP = "duplicate groups share a block (chi2_floor shows the forced part); met with duplicates apart"
_PKU = "PKU units are paragraphs repeating their words; 11 identical lines in one length bin (chi2_floor)"
FAILING = [pytest.param(c, "lemma", "max", marks=pytest.mark.xfail(strict=True, reason=_DUP)) for c in ("conll", "ewt")]
FAILING += [pytest.param("pku", m, k, marks=pytest.mark.xfail(strict=True, reason=_PKU))
            for m in ("lemma", "length") for k in ("max", "ratio")]


def _check(name, measure, kind):
    bcv, rnd = _get(name)
    b = np.array(bcv.quality["chi2_per_df"][measure])
    r = np.array(rnd.quality["chi2_per_df"][measure])
    if kind == "max":
        assert b.max() <= LIMIT[measure], (b.max(), LIMIT[measure])
    else:
        assert r.mean() >= RATIO[measure] * b.mean(), (b.mean(), r.mean())


@pytest.mark.parametrize("name, measure, kind", PASSING)
def test_done_when_met(name, measure, kind):
    _check(name, measure, kind)


@pytest.mark.parametrize("name, measure, kind", FAILING)
def test_done_when_not_yet_met(name, measure, kind):
    _check(name, measure, kind)


@pytest.mark.parametrize("name", ["conll", "ewt", "pku"])
def test_floor_never_above_what_the_split_reaches(name):
    # chi2_floor is a lower bound for every split with blocks as evenly filled: ours included
    bcv, rnd = _get(name)
    assert set(bcv.quality["chi2_floor"]) == {"label", "lemma", "length"}
    assert "chi2_floor" not in rnd.quality  # random m×2 has no blocks
    for measure, floor in bcv.quality["chi2_floor"].items():
        assert 0 <= floor <= np.mean(bcv.quality["chi2_per_df"][measure]) + 1e-9


def test_pku_length_target_is_out_of_reach_with_duplicates_together():
    # 11 identical lines "图片：" (3 characters) hold 11 of the 17 sentences of their length bin; kept in one
    # block, they force a mean χ²/J ≥ 0.27 on any m = 15 BCV with blocks of 121-122 lines (target: max ≤ 0.15)
    bcv, _ = _get("pku")
    assert bcv.quality["chi2_floor"]["length"] == pytest.approx(0.2746, abs=5e-4)
    assert bcv.quality["chi2_floor"]["lemma"] > LIMIT["lemma"]


@lru_cache(maxsize=None)
def _apart(name):
    parts, fmt, n = CORPORA[name]
    corpus = read_corpus([shared_path(*parts)], format=fmt)
    return make_splits(corpus, m=15, seed=0, duplicates_together=False)


@pytest.mark.parametrize("name", ["conll", "ewt"])
def test_lemma_targets_met_when_duplicates_may_be_apart(name):
    # what keeps the lemma target out of reach with the default is the duplicate groups (their floor):
    # with --keep-duplicates-apart every target holds on CoNLL and EWT
    s = _apart(name)
    _, rnd = _get(name)
    for measure, limit in LIMIT.items():
        b = np.array(s.quality["chi2_per_df"][measure])
        r = np.array(rnd.quality["chi2_per_df"][measure])
        assert b.max() <= limit, (measure, b.max())
        assert r.mean() >= RATIO[measure] * b.mean(), (measure, b.mean(), r.mean())
    assert s.quality["overlap_max_deviation"] <= 4
