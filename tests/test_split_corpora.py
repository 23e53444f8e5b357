"""Split quality on the shared corpora, m = 15, by sentence (balanced BCV vs random m×2 CV).

Each corpus is read and split once per module, with every measure balanced (label, lemma, length;
no longer the default, which balances nothing — see textbcv.defaults). Targets: in every half χ²/J ≤
0.05 (label) and ≤ 0.15 (length, over issue 4's 16 fixed bins, which the splitter no longer uses itself);
means ≥ 10× (label, length) and ≥ 3× (lemma) below random m×2; max |φ − n/4| ≤ 4. Lemma is judged against its floor
(chi2_floor), not a fixed 0.3. Length must stay balanced under binnings the splitter does not use
(χ²/J ≤ 0.3 in every half). Targets not reached are strict xfails with their reason;
docs/RESULTS.md ("Split quality", scripts/split_quality.py) has the figures and floors.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from tests.conftest import shared_path
from textbcv.corpus import read_corpus
from textbcv.split import make_splits

pytestmark = pytest.mark.slow  # minutes of balancing on three full corpora: run by .ci/run and TEXTBCV_SLOW=1

CORPORA = {
    "conll": (("conll2003_en", "eng.train"), "conll", 14041),
    "ewt": (("ud_english_ewt", "en_ewt-ud-train.conllu"), "conllu", 12544),
    "pku": (("sighan2005_cws", "pku_test_gold.utf8"), "segmented", 1944),
}
LIMIT = {"label": 0.05, "length": 0.3, "lemma": 0.3}
ALL = ("label", "lemma", "length")
RATIO = {"label": 10.0, "length": 10.0, "lemma": 3.0}


@lru_cache(maxsize=None)
def _figures(name):
    parts, fmt, n = CORPORA[name]
    corpus = read_corpus([shared_path(*parts)], format=fmt)
    assert len(corpus) == n
    bcv = make_splits(corpus, m=15, seed=0, balance=ALL, group_by="sentence")
    rnd = make_splits(corpus, m=15, method="random", seed=0, balance=ALL, group_by="sentence")
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
_PKU = "PKU units are paragraphs repeating their words; 11 identical 3-character lines (chi2_floor)"
FAILING = [pytest.param("pku", m, k, marks=pytest.mark.xfail(strict=True, reason=_PKU))
           for m in ("lemma", "length") for k in ("max", "ratio")]


@lru_cache(maxsize=None)
def _lengths(name) -> np.ndarray:
    parts, fmt, _ = CORPORA[name]
    return np.array([len(s) for s in read_corpus([shared_path(*parts)], format=fmt)])


def _length16(s, name) -> np.ndarray:
    """χ²/J of every half over the 16 fixed length bins of issue 4 (LENGTH_EDGES), which the splitter no longer uses."""
    from textbcv.split.profiles import LENGTH_EDGES
    from textbcv.split.quality import chi2_per_df

    codes = np.searchsorted(LENGTH_EDGES, _lengths(name), side="right") - 1
    J = len(LENGTH_EDGES)
    return np.array([chi2_per_df(np.bincount(codes[t], minlength=J), np.bincount(codes[v], minlength=J))[0]
                     for t, v in s.splits])


def _values(s, name, measure) -> np.ndarray:
    return _length16(s, name) if measure == "length" else np.array(s.quality["chi2_per_df"][measure])


def _check(name, measure, kind):
    bcv, rnd = _get(name)
    b = _values(bcv, name, measure)
    r = _values(rnd, name, measure)
    if measure == "length" and kind == "max":  # issue 4's target on its 16 bins; any binning: test below
        assert b.max() <= 0.15, b.max()
        return
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
    # block, they force a mean χ²/J ≥ 0.27 over issue 4's 16 length bins on any m = 15 BCV with equally
    # filled blocks (target: max ≤ 0.15)
    from textbcv.split.profiles import group_rows, length_bins
    from textbcv.split.quality import chi2_floor

    parts, fmt, _ = CORPORA["pku"]
    corpus = read_corpus([shared_path(*parts)], format=fmt)
    ids: dict = {}
    dup = np.array([ids.setdefault(s.key(), len(ids)) for s in corpus])
    assert chi2_floor(group_rows(length_bins(_lengths("pku"))[0], dup), 16) > 0.15
    bcv, _ = _get("pku")
    assert bcv.quality["chi2_floor"]["lemma"] > LIMIT["lemma"]


@lru_cache(maxsize=None)
def _apart(name):
    parts, fmt, n = CORPORA[name]
    corpus = read_corpus([shared_path(*parts)], format=fmt)
    return make_splits(corpus, m=15, seed=0, duplicates_together=False, balance=ALL, group_by="sentence")


@pytest.mark.parametrize("name", ["conll", "ewt"])
def test_lemma_targets_met_when_duplicates_may_be_apart(name):
    # what keeps the lemma target out of reach with the default is the duplicate groups (their floor):
    # with --keep-duplicates-apart every target holds on CoNLL and EWT
    s = _apart(name)
    _, rnd = _get(name)
    for measure, limit in LIMIT.items():
        b = _values(s, name, measure)
        r = _values(rnd, name, measure)
        assert b.max() <= (0.15 if measure == "length" else limit), (measure, b.max())
        assert r.mean() >= RATIO[measure] * b.mean(), (measure, b.mean(), r.mean())
    assert s.quality["overlap_max_deviation"] <= 4


def _binnings(L: np.ndarray) -> dict[str, np.ndarray]:
    """Length binnings the splitter does not use (its own: exact lengths, quantile bins, tail thresholds)."""
    rng = np.random.default_rng(2024)
    out = {
        "fixed 5/10/15/20/30/40/60": np.searchsorted([5, 10, 15, 20, 30, 40, 60], L, side="left"),
        "deciles": np.searchsorted(np.unique(np.quantile(L, np.arange(1, 10) / 10)), L, side="left"),
        "exact, tail pooled at 50": np.minimum(L, 50),
        "width 3": L // 3,
        "width 7, offset 2": (L + 2) // 7,
        "log2": np.floor(np.log2(np.maximum(L, 1))).astype(int),
        "20-quantiles, right-closed": np.searchsorted(np.unique(np.quantile(L, np.arange(1, 20) / 20)), L,
                                                      side="right"),
    }
    for k in range(6):
        edges = np.sort(rng.choice(np.arange(2, 80), size=int(rng.integers(4, 12)), replace=False))
        out[f"random edges {edges.tolist()}"] = np.searchsorted(edges, L)
    return out


def test_length_balanced_under_binnings_the_splitter_does_not_use():
    from textbcv.split.quality import chi2_per_df

    bcv, rnd = _get("conll")
    parts, fmt, _ = CORPORA["conll"]
    L = np.array([len(s) for s in read_corpus([shared_path(*parts)], format=fmt)])
    worst_random = 0.0
    for name, codes in _binnings(L).items():
        J = int(codes.max()) + 1
        for i, (t, v) in enumerate(bcv.splits):
            x = chi2_per_df(np.bincount(codes[t], minlength=J), np.bincount(codes[v], minlength=J))[0]
            assert x <= 0.3, (name, i, x)
        for t, v in rnd.splits:
            x = chi2_per_df(np.bincount(codes[t], minlength=J), np.bincount(codes[v], minlength=J))[0]
            worst_random = max(worst_random, x)
    assert worst_random > 0.3  # the binnings can see imbalance: a random halving fails them
    assert max(bcv.quality["chi2_per_df"]["label"]) <= LIMIT["label"]
