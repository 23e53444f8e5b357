"""Nested splits as one object (:class:`textbcv.split.NestedSplits`), the manifest round trip, and the sklearn boundary.

* ``head`` and ``extend`` keep the nesting: the first splits never change, a
  set cut again for the same m is the same manifest (quality block included),
  and for ``bcv`` every m is the first m splits of any larger m (hypothesis);
* a manifest saved and loaded is the same manifest, byte for byte;
* :class:`textbcv.split.Mx2BCV` with ``random_state=None`` works in
  ``cross_validate``, draws new splits at every call, and imports no private
  scikit-learn helper;
* errors raised from Python name the Python parameter; the CLI its option.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_fuzz_invariants import check_partition, units  # n units, maybe grouped, maybe with measures

import textbcv
from textbcv.corpus.model import Corpus, Sentence
from textbcv.errors import InputError
from textbcv.split import NestedSplits, SplitSet, load_splits, make_splits, max_m, split_units

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def halves(s: SplitSet) -> list[tuple[list[int], list[int]]]:
    return [(t.tolist(), v.tolist()) for t, v in s.splits]


@settings(max_examples=25, **SETTINGS)
@given(data=units(), seed=st.integers(0, 2**32 - 1), method=st.sampled_from(["bcv", "bcv-select"]),
       sizes=st.lists(st.integers(1, 15), min_size=2, max_size=3), effort=st.sampled_from([0.0, 0.05]))
def test_head_and_extend_keep_the_nesting(data, seed, method, sizes, effort):
    n, groups, measures = data
    n_items = n if groups is None else len(np.unique(groups))
    top = max_m(n_items)
    sizes = [k for k in sizes if k <= top]
    assume(n_items >= 4 and len(sizes) >= 2)
    kw = dict(method=method, measures=measures, groups=groups, seed=seed, effort=effort, select=3)
    a, b = min(sizes), max(sizes)
    small = split_units(n, a, **kw)
    assert isinstance(small, NestedSplits)
    big = small.extend(b)
    check_partition(big, n, groups)
    assert len(big) == b and halves(big)[:a] == halves(small)  # the first splits never change
    assert big.head(a).dumps() == small.dumps()  # nor their manifest (quality block included)
    assert big.extend(b) is big and small.head(a) is small
    for k in range(1, b + 1):  # every m between: a prefix, and cut the same way from either end
        assert halves(big.head(k)) == halves(big)[:k]
        assert big.head(k).dumps() == small.extend(b).head(k).dumps()
    if method == "bcv":  # (bcv-select picks its draw for the m asked: only its own head/extend nest)
        assert big.dumps() == split_units(n, b, **kw).dumps()
    with pytest.raises(InputError, match=rf"^m must be at least {b} for extend"):
        big.extend(b - 1)
    with pytest.raises(InputError, match=r"^m must lie in 1\.\."):
        small.head(a + 1)
    if b < top:
        unequal = groups is not None and len(set(np.bincount(groups).tolist()) - {0}) > 1
        # size-blind: nothing to balance (no measure, or measures that do not vary over the items)
        blind = method == "bcv-select" or big.blocks.X.shape[1] == 0
        if unequal and top >= 16 and blind:
            # size-blind blocks guarantee full levels up to 16 blocks; beyond, a unit larger than a block may
            # leave one empty, which is refused (never an empty block)
            try:
                big.extend(top)
            except InputError as e:
                assert "impossible with these units" in str(e)
        else:
            big.extend(top)  # the largest m the items allow
    with pytest.raises(InputError, match="impossible"):
        big.extend(top + 1)


def _corpus(n: int = 40) -> Corpus:
    rng = np.random.default_rng(0)
    words = ["EU", "rejects", "German", "call", "to", "boycott", "lamb", "."]
    sents = []
    for i in range(n):
        toks = tuple(rng.choice(words, size=int(rng.integers(1, 6))))
        tags = tuple(rng.choice(["O", "B-ORG", "B-MISC"]) for _ in toks)
        sents.append(Sentence(toks, tags, "iob2", document=i // 5, source="x.conll", line=3 * i + 1))
    return Corpus(sents, ["x.conll"], "conll", "iob2")


@pytest.mark.parametrize("kw", [
    dict(m=3), dict(m=7, balance="label,length", group_by="sentence"), dict(m=3, method="random"),
    dict(m=2, method="brhs", group_by="sentence"), dict(m=3, method="bcv-select", balance="label", select=5)])
def test_manifest_round_trip(tmp_path, kw):
    s = make_splits(_corpus(), seed=1, **kw)
    sets = [s] + ([s.head(1), s.head(2)] if isinstance(s, NestedSplits) else [])
    for i, x in enumerate(sets):
        p = tmp_path / f"s{i}.json"
        x.save(p)
        y = load_splits(p)
        assert type(y) is SplitSet  # what is saved is the manifest; the blocks stay in memory
        assert (y.n, y.method, y.m, y.seed, y.options, y.quality, y.fingerprints) == (
            x.n, x.method, x.m, x.seed, x.options, x.quality, x.fingerprints)
        assert halves(y) == halves(x) and y.n_folds == x.n_folds
        assert y.dumps() == x.dumps() and p.read_text() == x.dumps()
        y.check_corpus(_corpus())


def test_nested_splits_made_without_blocks_say_so():
    """A NestedSplits built directly (no blocks) cannot give another m: a worded ValueError, not a None inside."""
    halves_ = [(np.array([0, 1]), np.array([2, 3])), (np.array([0, 2]), np.array([1, 3]))]
    s = NestedSplits(halves_, 4, "bcv", 2, 0, {}, None, None)
    with pytest.raises(ValueError, match="^these splits hold no blocks"):
        s.head(1)
    with pytest.raises(ValueError, match="^these splits hold no blocks"):
        s.extend(3)
    assert s.head(2) is s and s.extend(2) is s


def test_near_equal_blocks_needs_the_weights_of_x():
    """near_equal_blocks balances on X only with its column weights W: without them a worded ValueError."""
    import scipy.sparse as sp

    from textbcv.split.designs import near_equal_blocks

    X = sp.csr_matrix(np.random.default_rng(0).integers(0, 3, (20, 4)).astype(float))
    with pytest.raises(ValueError, match="^X needs its column weights W"):
        near_equal_blocks(np.ones(20, int), 4, np.random.default_rng(0), X=X)
    blocks = near_equal_blocks(np.ones(20, int), 4, np.random.default_rng(0), X=X, W=np.ones(4))
    assert np.bincount(blocks).tolist() == [5, 5, 5, 5]


def test_sequential_heads_are_the_smaller_runs():
    """The sequential mode's splits for m are what a run with that m writes."""
    c = _corpus()
    top = make_splits(c, m=6, seed=2, group_by="sentence")
    for m in range(1, 7):
        assert top.head(m).dumps() == make_splits(c, m=m, seed=2, group_by="sentence").dumps()


def test_mx2bcv_random_state_none_in_cross_validate():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_validate

    from textbcv.split import Mx2BCV

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(64, 3)), rng.integers(0, 2, 64)
    r = cross_validate(LogisticRegression(), X, y, cv=Mx2BCV(m=2, random_state=None))
    assert len(r["test_score"]) == 4 and np.isfinite(r["test_score"]).all()
    cv = Mx2BCV(m=3, random_state=None)
    draws = {tuple(tr.tolist()) for tr, _ in (next(iter(cv.split(X, y))) for _ in range(5))}
    assert len(draws) > 1  # a fresh seed at every call
    for tr, te in cv.split(X, y):
        assert sorted(tr.tolist() + te.tolist()) == list(range(64))
    same = [[a.tolist() for a in f] for f in Mx2BCV(m=3, random_state=7).split(X, y)]
    assert same == [[a.tolist() for a in f] for f in Mx2BCV(m=3, random_state=7).split(X, y)]
    seeded = [[a.tolist() for a in f] for f in Mx2BCV(m=3, random_state=np.random.RandomState(1)).split(X, y)]
    assert seeded == [[a.tolist() for a in f] for f in Mx2BCV(m=3, random_state=np.random.RandomState(1)).split(X, y)]


@pytest.mark.parametrize("cv, message", [
    (dict(m=0), "m must be at least 1, got 0"),
    (dict(m=3, random_state=-1), "random_state must be a non-negative integer"),
])
def test_mx2bcv_errors_are_worded_for_python(cv, message):
    from textbcv.split import Mx2BCV

    with pytest.raises(ValueError, match=f"^{message}"):
        list(Mx2BCV(**cv).split(np.zeros((20, 1))))


def test_no_private_sklearn_import():
    root = Path(textbcv.__file__).parent
    private = re.compile(r"^\s*(from\s+sklearn[\w.]*\s+import\s+.*\b_\w+"  # a private name
                         r"|from\s+sklearn[\w.]*\._\w*|import\s+sklearn[\w.]*\._)", re.M)  # a private module
    hits = [f"{p.relative_to(root)}: {m.group(0).strip()}" for p in root.rglob("*.py")
            for m in private.finditer(p.read_text(encoding="utf-8"))]
    assert hits == []


@pytest.mark.parametrize("kw, message", [
    (dict(m=0), "m must be at least 1, got 0"),
    (dict(m=3, seed=-1), "seed must be a non-negative integer, got -1"),
    (dict(m=3, effort=-1.0), "effort must be a non-negative number, got -1.0"),
    (dict(m=3, method="bcv-select", select=0), "select must be at least 1, got 0"),
    (dict(m=3, method="magic"), "unknown split method 'magic'"),
])
def test_python_errors_name_the_parameter(kw, message):
    with pytest.raises(InputError, match=f"^{re.escape(message)}") as e:
        split_units(40, **kw)
    assert "--" not in str(e.value)


def test_make_splits_errors_name_the_parameter():
    with pytest.raises(InputError, match="^balance: give at least one measure") as e:
        make_splits(_corpus(), method="bcv-select")
    assert "--" not in str(e.value)
    with pytest.raises(InputError, match="^group_by must be one of auto, sentence, document"):
        make_splits(_corpus(), group_by="paragraph")


@pytest.mark.parametrize("argv, message", [
    (["--seed", "-1"], "--seed must be a non-negative integer, got -1"),
    (["--method", "bcv-select"], "--balance: give at least one measure"),
    (["--effort", "-2"], "--effort must be a non-negative number"),
])
def test_cli_names_its_options(tmp_path, capsys, argv, message):
    from textbcv.cli import main

    f = tmp_path / "x.conll"
    f.write_text("a O\n\nb O\n\nc O\n\nd O\n\ne O\n", encoding="utf-8")
    assert main(["split", str(f), *argv, "--out", str(tmp_path / "s.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("textbcv: error: ") and message in err and not (tmp_path / "s.json").exists()
