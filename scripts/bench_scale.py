#!/usr/bin/env python3
"""Scale check: split + score for 10^6 synthetic sentences within 2 GB peak memory; prints JSON.

A synthetic corpus of n sentences (lengths 1–120, log-normal with median 14;
Zipfian lemmas over 50,000 types; 0–4 entities of 9 types per sentence,
1–4 tokens long) is split with balanced m×2 BCV (label, lemma, length), and
each of the 2m folds' validation halves is scored (IOB2 gold against a
prediction with 5% of the tokens' tags replaced, seeded) with
:func:`textbcv.scoring.score_tags`, as a tagger's folds would be. Figures:
seconds of each stage, peak resident memory of the process (Linux
``ru_maxrss``) and the peak after building the input only (the reference: what
holding such a corpus costs before textbcv does anything).

Usage: scripts/bench_scale.py [--n 1000000] [--m 3] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from textbcv.scoring import ChunkCounts, score_tags  # noqa: E402
from textbcv.split import split_units  # noqa: E402
from textbcv.split.profiles import length_bins  # noqa: E402

TYPES = ["T%d" % i for i in range(9)]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def synthetic(n: int, rng: np.random.Generator):
    """Lengths, lemma and label count matrices, and IOB2 gold / predicted tags of n sentences."""
    L = np.clip(np.round(rng.lognormal(np.log(14), 0.6, n)), 1, 120).astype(np.int64)
    V = 50_000
    p = 1.0 / np.arange(1, V + 1) ** 1.1
    lem = rng.choice(V, size=int(L.sum()), p=p / p.sum()).astype(np.int32)
    lemma = sp.csr_matrix((np.ones(len(lem), dtype=np.float32), lem, np.r_[0, np.cumsum(L)]), shape=(n, V))
    del lem
    lemma.sum_duplicates()
    # entities: up to 4 per sentence, each 1-4 tokens, non-overlapping (placed left to right)
    tag_names = ["O"] + [f"{p}-{t}" for t in TYPES for p in ("B", "I")]
    gold_codes = np.zeros(int(L.sum()), dtype=np.int8)
    starts = np.r_[0, np.cumsum(L)[:-1]]
    k = rng.integers(0, 5, n)
    rows, cols = [], []
    pos = starts.copy()
    end = starts + L
    for _ in range(4):
        active = k > 0
        gap = rng.integers(0, 6, n)
        size = rng.integers(1, 5, n)
        typ = rng.integers(0, 9, n)
        s = pos + gap
        ok = active & (s + size <= end)
        idx = np.flatnonzero(ok)
        gold_codes[s[idx]] = 1 + 2 * typ[idx]
        for d in range(1, 4):
            inside = idx[size[idx] > d]
            gold_codes[s[inside] + d] = 2 + 2 * typ[inside]
        rows.append(idx)
        cols.append(typ[idx])
        pos = np.where(ok, s + size, pos)
        k = k - ok
    r, c = np.concatenate(rows), np.concatenate(cols)
    label = sp.csr_matrix((np.ones(len(r), dtype=np.float32), (r, c)), shape=(n, 9))
    label.sum_duplicates()
    pred_codes = gold_codes.copy()
    flip = rng.random(len(pred_codes)) < 0.05
    pred_codes[flip] = rng.integers(0, len(tag_names), int(flip.sum()))
    names = np.array(tag_names, dtype=object)
    return L, starts, {"label": label, "lemma": lemma, "length": length_bins(L)[0]}, names, gold_codes, pred_codes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10**6)
    ap.add_argument("--m", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    L, starts, measures, names, gold, pred = synthetic(args.n, rng)
    t_input = time.perf_counter() - t0
    peak_input = peak_mb()

    t0 = time.perf_counter()
    splits = split_units(args.n, args.m, measures=measures, seed=args.seed, quality=False)
    t_split = time.perf_counter() - t0
    del measures
    peak_split = peak_mb()

    t0 = time.perf_counter()
    total = ChunkCounts()
    tokens = 0
    for _, _, _, test in splits.folds():
        g = [names[gold[starts[i]: starts[i] + L[i]]] for i in test]
        p = [names[pred[starts[i]: starts[i] + L[i]]] for i in test]
        score = score_tags(g, p, "iob2")
        total = total + score.counts
        tokens += int(L[test].sum())
        del g, p
    t_score = time.perf_counter() - t0
    peak = peak_mb()
    print(json.dumps({
        "benchmark": "scale", "sentences": args.n, "tokens": int(L.sum()), "m": args.m,
        "input_seconds": round(t_input, 2), "split_seconds": round(t_split, 2), "score_seconds": round(t_score, 2),
        "scored_tokens": tokens, "score_tokens_per_s": round(tokens / t_score),
        "pooled_f1": round(total.f1, 4),
        "peak_memory_input_mb": round(peak_input, 1), "peak_memory_after_split_mb": round(peak_split, 1),
        "peak_memory_mb": round(peak, 1), "within_2gb": peak < 2048,
    }, indent=2))


if __name__ == "__main__":
    main()
