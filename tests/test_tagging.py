"""Fold runner: real CRF training on eng.train slices, resume after SIGKILL, identical results across backends."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys

import numpy as np
import pytest

from textbcv.corpus import read_conll, read_segmented
from textbcv.errors import InputError
from textbcv.schemes import encode
from textbcv.tagging import FoldStore, LexiconTagger, System, make_payload, parse_system, run_folds
from textbcv.tagging import features as features_module


def strip_run(records):
    """Fold records without their run-dependent ``run`` key, for comparing stores."""
    return [{k: v for k, v in r.items() if k != "run"} for r in records]


def halvings(n: int, m: int, seed: int = 0):
    """m random halvings as folds in CONTRACT order (the runner takes any folds)."""
    rng = np.random.default_rng(seed)
    out = []
    for j in range(m):
        perm = rng.permutation(n)
        a, b = np.sort(perm[: n // 2]), np.sort(perm[n // 2:])
        out += [(j, 0, a, b), (j, 1, b, a)]
    return out


@pytest.fixture(scope="module")
def slice600(shared):
    return read_conll(shared("conll2003_en", "eng.train"))[:600]


def small_systems(iters=30):
    return [parse_system("iob2", max_iterations=iters), parse_system("iobes", max_iterations=iters)]


def test_runner_scores_on_same_gold_chunks(slice600, tmp_path):
    c = slice600[:200]
    gold = [s.chunks for s in c]
    systems = small_systems(20)
    st = run_folds(make_payload(c.sentences, gold, systems), halvings(len(c), 1), systems, tmp_path / "f.jsonl")
    recs = st.ordered()
    assert [(r["system"], r["split"], r["direction"]) for r in recs] == [
        ("iob2", 0, 0), ("iob2", 0, 1), ("iobes", 0, 0), ("iobes", 0, 1)]
    for r in recs:
        o = r["counts"]["overall"]
        # tp + fn = number of gold chunks in the validation half, identical for both systems
        test = halvings(len(c), 1)[r["direction"]][3]
        assert o["tp"] + o["fn"] == sum(len(gold[i]) for i in test)
        assert sum(t["tp"] for t in r["counts"]["types"].values()) == o["tp"]
        assert r["tokens"] == sum(len(c[i]) for i in test)
        assert 0 < o["tp"] and r["spec"]["template"]["name"] == "ner-thesis"
    # lines on disk are the canonical order
    lines = (tmp_path / "f.jsonl").read_text().splitlines()
    assert [json.loads(x)["system"] for x in lines] == ["iob2", "iob2", "iobes", "iobes"]


def test_features_extracted_once_per_template(slice600, monkeypatch):
    calls = []
    real = features_module.extract
    monkeypatch.setattr("textbcv.tagging.payload.extract", lambda s, t: calls.append(t.name) or real(s, t))
    systems = [parse_system("iob2"), parse_system("iobes"), parse_system("bilou"),
               parse_system("iob2+wordshape", task="ner")]
    p = make_payload(slice600.sentences, [s.chunks for s in slice600], systems)
    assert calls == ["ner-thesis", "wordshape"]
    assert set(p.features) == {"ner-thesis", "wordshape"}


def test_features_too_many_to_keep_are_made_for_each_fold_with_the_same_records(slice600, tmp_path, monkeypatch):
    """Above MAX_KEPT_FEATURES the payload keeps no features (memory follows the corpus) and each fold makes its
    sentences' features as crfsuite takes them in: every fold's counts and predictions are the kept path's."""
    import textbcv.tagging.payload as payload_module

    c, h = slice600[:240], slice600[240:300]
    systems = small_systems(15)
    heldout = {"held": (h.sentences, [s.chunks for s in h], "held", None)}
    kept = make_payload(c.sentences, [s.chunks for s in c], systems, heldout)
    assert all(f is not None for f in kept.features.values())
    monkeypatch.setattr(payload_module, "MAX_KEPT_FEATURES", 0)
    made = make_payload(c.sentences, [s.chunks for s in c], systems, heldout)
    assert set(made.features) == set(kept.features) and all(f is None for f in made.features.values())
    assert all(f is None for f in made.heldout["held"].features.values())
    folds = halvings(len(c), 2)
    one = run_folds(kept, folds, systems, tmp_path / "kept.jsonl", jobs=1)
    two = run_folds(made, folds, systems, tmp_path / "made.jsonl", jobs=1)
    assert len(one.ordered()) == len(systems) * len(folds) and all("heldout" in r for r in one.ordered())
    assert strip_run(one.ordered()) == strip_run(two.ordered())


def test_jobs_and_backends_give_identical_stores(slice600, tmp_path):
    c = slice600[:240]
    systems = small_systems(15)
    payload = make_payload(c.sentences, [s.chunks for s in c], systems)
    folds = halvings(len(c), 2)
    one = run_folds(payload, folds, systems, tmp_path / "one.jsonl", jobs=1)
    two = run_folds(payload, folds, systems, tmp_path / "two.jsonl", jobs=2, backend="loky")
    assert strip_run(one.ordered()) == strip_run(two.ordered())
    # each loky worker loaded the payload at most once
    pids = {}
    for r in two.ordered():
        pids[r["run"]["pid"]] = pids.get(r["run"]["pid"], 0) + int(r["run"]["payload_loaded"])
    assert all(v <= 1 for v in pids.values()) and sum(pids.values()) >= 1


def test_dask_local_cluster_identical(slice600, tmp_path):
    pytest.importorskip("dask.distributed")
    c = slice600[:160]
    systems = small_systems(10)
    payload = make_payload(c.sentences, [s.chunks for s in c], systems)
    folds = halvings(len(c), 1)
    one = run_folds(payload, folds, systems, tmp_path / "one.jsonl", jobs=1)
    dk = run_folds(payload, folds, systems, tmp_path / "dask.jsonl", jobs=2, backend="dask")
    assert strip_run(one.ordered()) == strip_run(dk.ordered())


KILL_SCRIPT = """
import sys, numpy as np
sys.path.insert(0, {root!r})
from textbcv.corpus import read_conll
from textbcv.tagging import make_payload, run_folds, parse_system
from tests.test_tagging import halvings
import os, signal
from textbcv.folds.store import FoldStore
_append, _n = FoldStore.append, [0]
def append(self, record):  # SIGKILL right after the 4th fold is saved: a kill at a fold boundary, no timer
    _append(self, record)
    _n[0] += 1
    if _n[0] == 4:
        os.kill(os.getpid(), signal.SIGKILL)
FoldStore.append = append
def main():
    c = read_conll({train!r})[:600]
    systems = [parse_system("iob2", max_iterations=30), parse_system("iobes", max_iterations=30)]
    run_folds(make_payload(c.sentences, [s.chunks for s in c], systems), halvings(600, 3), systems, {store!r}, jobs=1)
if __name__ == "__main__":
    main()
"""


def test_sigkill_then_resume_equals_uninterrupted(shared, slice600, tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    store = tmp_path / "killed.jsonl"
    script = tmp_path / "run.py"
    script.write_text(KILL_SCRIPT.format(root=root, train=str(shared("conll2003_en", "eng.train")), store=str(store)))
    proc = subprocess.run([sys.executable, str(script)], cwd=root, capture_output=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    n_before = store.read_text().count("\n")
    assert n_before == 4
    # a torn line (as a kill mid-write could leave) is dropped on resume
    with open(store, "a") as f:
        f.write('{"system": "iob2", "spl')
    systems = small_systems(30)
    payload = make_payload(slice600.sentences, [s.chunks for s in slice600], systems)
    st = FoldStore(store)
    assert len(st.done) == n_before
    resumed = run_folds(payload, halvings(600, 3), systems, st)
    trained_now = [r for r in resumed.ordered() if r["run"]["pid"] == os.getpid()]
    assert len(trained_now) == 12 - n_before
    fresh = run_folds(payload, halvings(600, 3), systems, tmp_path / "fresh.jsonl")
    assert strip_run(resumed.ordered()) == strip_run(fresh.ordered())
    assert [strip_run([json.loads(x)]) for x in store.read_text().splitlines()] == [
        strip_run([json.loads(x)]) for x in (tmp_path / "fresh.jsonl").read_text().splitlines()]


def test_resume_refuses_other_settings(slice600, tmp_path):
    c = slice600[:100]
    s1 = [parse_system("iob2", max_iterations=5)]
    p = make_payload(c.sentences, [s.chunks for s in c], s1)
    run_folds(p, halvings(100, 1)[:1], s1, tmp_path / "f.jsonl")
    with pytest.raises(InputError, match="other settings"):
        run_folds(p, halvings(100, 1), [parse_system("iob2", max_iterations=6)], tmp_path / "f.jsonl")


def test_lexicon_baseline_through_runner(slice600, tmp_path):
    c = slice600
    systems = [System("lexicon-iob2", "iob2", tagger=LexiconTagger),
               System("lexicon-iobes", "iobes", tagger=LexiconTagger)]
    gold = [s.chunks for s in c]
    st = run_folds(make_payload(c.sentences, gold, systems), halvings(len(c), 1), systems, tmp_path / "lex.jsonl",
                   save_predictions=tmp_path / "pred")
    for r in st.ordered():
        o = r["counts"]["overall"]
        f1 = 2 * o["tp"] / (2 * o["tp"] + o["fp"] + o["fn"])
        assert 0.2 < f1 < 0.8, f1  # a lexicon lookup finds many entities but far from all
    # saved predictions re-score to the same counts with `textbcv score --scheme iobes`
    import contextlib
    import io

    from textbcv.cli import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        pred = tmp_path / "pred" / "lexicon-iobes-split0-dir1.txt"
        assert main(["score", str(pred), "--scheme", "iobes", "--json"]) == 0
    rec = next(r for r in st.ordered() if r["system"] == "lexicon-iobes" and r["direction"] == 1)
    got = json.loads(buf.getvalue())["overall"]
    assert {k: got[k] for k in ("tp", "fp", "fn")} == rec["counts"]["overall"]


def test_cws_bb2b3mes_round_trip_and_crf(tmp_path):
    p = tmp_path / "s.txt"
    p.write_text("中国  人民  站起来  了\n我们  的  祖国  繁荣昌盛\n" * 20, encoding="utf-8")
    c = read_segmented(p)
    systems = [parse_system("bmes", task="cws", max_iterations=20),
               parse_system("bb2b3mes", task="cws", max_iterations=20)]
    gold = [s.chunks for s in c]
    assert encode(gold[1], len(c[1]), "bb2b3mes") == ["B", "E", "S", "B", "E", "B", "B2", "B3", "E"]
    st = run_folds(make_payload(c.sentences, gold, systems), halvings(len(c), 1), systems, tmp_path / "f.jsonl")
    for r in st.ordered():
        assert r["counts"]["overall"]["fp"] == r["counts"]["overall"]["fn"] == 0  # repeated sentences: learnt exactly
        assert list(r["counts"]["types"]) == [""]


@pytest.mark.parametrize("algorithm", ["ap", "pa", "arow", "l2sgd"])
def test_shuffling_crf_algorithms_train_the_same_model_every_time(algorithm):
    """crfsuite shuffles with the C library's rand(); textbcv seeds it, so a model depends on its data only."""
    from textbcv.corpus import Sentence
    from textbcv.tagging.crf import CRFTagger
    from textbcv.tagging.features import get_template

    rng = random.Random(3)
    words = ["Mr.", "Smith", "said", "Ms.", "Jones", "left", "Paris", "in", "May", "the"]
    sents = [Sentence(tuple(rng.choice(words) for _ in range(rng.randint(2, 8)))) for _ in range(200)]
    tags = [["B-PER" if w in ("Smith", "Jones") else "B-LOC" if w == "Paris" else "O" for w in s.tokens] for s in sents]
    models = []
    for _ in range(3):
        crf = CRFTagger(get_template("ner-thesis"), algorithm, {"max_iterations": 5})
        models.append(crf.fit(sents, tags).model_)
        rng_other = CRFTagger(get_template("ner-thesis"), algorithm, {"max_iterations": 2})  # a training between
        rng_other.fit(sents[:50], tags[:50])
    assert models[0] == models[1] == models[2]
