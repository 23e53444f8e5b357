"""The default split's test halves are as hard as random halvings of the same unit (issue 14).

On CoNLL-2003 eng.train, ``textbcv split`` with its default options (m = 3 and 7, seeds 0–2) is
compared with random halvings of the same unit (whole documents) by two checks written here,
outside textbcv: the share of test tokens unseen in the training half (OOV), and the token-level
F1 of a memorising tagger (each word's most frequent training tag, "O" for unseen words) scored
on entity tokens. Random halvings give the reference distribution; the default's mean over its
folds must lie within 2.5 standard errors of it. The lemma-balanced split of earlier versions
fails the same check (that is what the check is for).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from functools import lru_cache

import numpy as np
import pytest

from tests.conftest import shared_path
from textbcv.cli import main


@lru_cache(maxsize=None)
def _corpus():
    sents, docs, doc = [], [], -1
    with open(shared_path("conll2003_en", "eng.train"), encoding="utf-8") as f:
        cur: list = []
        for line in f:
            parts = line.split()
            if not parts:
                if cur:
                    sents.append(cur)
                    docs.append(doc)
                    cur = []
                continue
            if parts[0] == "-DOCSTART-":
                doc += 1
                continue
            cur.append((parts[0], parts[-1][2:] if parts[-1] != "O" else "O"))
        if cur:
            sents.append(cur)
            docs.append(doc)
    return sents, np.array(docs)


def _checks(train_idx, test_idx) -> tuple[float, float]:
    sents, _ = _corpus()
    vocab: set = set()
    tags: dict = defaultdict(Counter)
    for i in train_idx:
        for w, t in sents[i]:
            vocab.add(w)
            tags[w][t] += 1
    best = {w: c.most_common(1)[0][0] for w, c in tags.items()}
    n = unseen = tp = fp = fn = 0
    for i in test_idx:
        for w, t in sents[i]:
            n += 1
            unseen += w not in vocab
            p = best.get(w, "O")
            tp += p == t != "O"
            fp += p != "O" and p != t
            fn += t != "O" and p != t
    return unseen / n, 2 * tp / (2 * tp + fp + fn)


@lru_cache(maxsize=None)
def _random_reference(k: int = 60):
    sents, docs = _corpus()
    rng = np.random.default_rng(7)
    ud = np.unique(docs)
    vals = []
    for _ in range(k):
        pick = np.isin(docs, rng.permutation(ud)[: len(ud) // 2])
        tr, te = np.flatnonzero(pick), np.flatnonzero(~pick)
        vals.append(_checks(tr, te))
        vals.append(_checks(te, tr))
    return np.array(vals)


def _split_folds(tmp_path, m, seed, *extra):
    p = tmp_path / f"s{m}-{seed}-{len(extra)}.json"
    assert main(["split", str(shared_path("conll2003_en", "eng.train")), "--m", str(m), "--seed", str(seed),
                 "--out", str(p), *extra]) == 0
    d = json.loads(p.read_text())
    return d, [(s["train"], s["valid"]) for s in d["splits"]]


def _shift_in_se(tmp_path, *extra, ms=(3, 7), seeds=(0, 1, 2)) -> tuple[np.ndarray, dict]:
    ref = _random_reference()
    mu, sd = ref.mean(axis=0), ref.std(axis=0, ddof=1)
    out = {}
    for m in ms:
        vals = []
        for seed in seeds:
            d, folds = _split_folds(tmp_path, m, seed, *extra)
            for tr, va in folds:
                vals.append(_checks(tr, va))
                vals.append(_checks(va, tr))
        vals = np.array(vals)
        # SE of a mean of len(vals) random-halving folds, the yardstick of random m×2 CV with as many folds
        out[m] = (vals.mean(axis=0) - mu) / (sd / np.sqrt(len(vals)))
    return out, d["options"]


@pytest.mark.slow
def test_default_split_is_as_hard_as_random_halvings_of_documents(tmp_path):
    shifts, options = _shift_in_se(tmp_path)
    assert options["group_by"] == "document" and options["balance"] == []
    for m, z in shifts.items():
        assert np.all(np.abs(z) <= 2.5), (m, z)  # (OOV, memorising F1) shifts in standard errors


@pytest.mark.slow
def test_the_check_sees_the_bias_of_sentence_level_lemma_balanced_splits(tmp_path):
    shifts, _ = _shift_in_se(tmp_path, "--group-by", "sentence", "--balance", "label,lemma,length", ms=(3,), seeds=(0,))
    z = np.vstack(list(shifts.values()))
    assert (z[:, 0] < -2.5).all() and (z[:, 1] > 2.5).all(), z  # fewer unseen words, easier for memorising
