#!/usr/bin/env python3
"""Benchmark: the one-split tests (paired bootstrap, 1,000 resamples; approximate randomization, 10,000 shuffles).

Per-sentence counts of two systems on n = 1,500 … 30,000 test sentences
(B differs from A on 30% of them). The reference, measured in the same run,
is the straightforward numpy of sacrebleu's ``_paired_bs_test`` and
``_paired_ar_test``: all index / swap draws in one array, one score per
resample in a Python list (on n ≤ 7,500 only: its swap array holds R × n
booleans and its matmul is numpy's integer loop). The figure that travels
between machines is the ratio. Prints JSON.

Usage: scripts/bench_onesplit.py [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textbcv.stats.onesplit import approximate_randomization, chunk_f1, paired_bootstrap  # noqa: E402


def pair(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 4, size=n)
    a = np.stack([np.minimum(gold, rng.integers(0, 4, size=n)), rng.integers(0, 2, size=n), np.zeros(n, int)], 1)
    a[:, 2] = gold - a[:, 0]
    b = a.copy()
    ch = np.flatnonzero(rng.random(n) < 0.3)
    b[ch, 0] = np.minimum(gold[ch], rng.integers(0, 4, size=len(ch)))
    b[ch, 1] = rng.integers(0, 2, size=len(ch))
    b[ch, 2] = gold[ch] - b[ch, 0]
    return a, b


def ref_bootstrap(a, b, resamples=1000, seed=0):
    rng = np.random.default_rng(seed)
    idxs = rng.choice(len(a), size=(resamples, len(a)), replace=True)
    fa = np.array([chunk_f1(s.sum(0)) for s in a[idxs]])
    fb = np.array([chunk_f1(s.sum(0)) for s in b[idxs]])
    d = np.abs(fb - fa)
    obs = abs(chunk_f1(b.sum(0)) - chunk_f1(a.sum(0)))
    return (np.sum(d - d.mean() >= obs) + 1) / (resamples + 1)


def ref_randomization(a, b, shuffles=10000, seed=0):
    rng = np.random.default_rng(seed)
    pos = rng.integers(2, size=(shuffles, len(a)), dtype=bool)
    neg = ~pos
    sa, sb = pos @ a + neg @ b, neg @ a + pos @ b
    d = np.abs(np.array([chunk_f1(x) for x in sa]) - np.array([chunk_f1(x) for x in sb]))
    obs = abs(chunk_f1(b.sum(0)) - chunk_f1(a.sum(0)))
    return (np.sum(d >= obs) + 1) / (shuffles + 1)


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    out = {"what": "one-split tests: paired bootstrap (R = 1,000) and approximate randomization (R = 10,000)",
           "loadavg_before": os.getloadavg(), "cpus": os.cpu_count(), "cases": []}
    for n in (1500, 7500, 30000):
        a, b = pair(n)
        case = {"sentences": n,
                "bootstrap_s": round(median_time(lambda a=a, b=b: paired_bootstrap(a, b), args.repeat), 4),
                "randomization_s": round(median_time(lambda a=a, b=b: approximate_randomization(a, b), args.repeat), 4)}
        if n <= 7500:
            case["reference_bootstrap_s"] = round(median_time(lambda a=a, b=b: ref_bootstrap(a, b), 1), 4)
            case["reference_randomization_s"] = round(median_time(lambda a=a, b=b: ref_randomization(a, b), 1), 4)
            case["ratio_bootstrap"] = round(case["bootstrap_s"] / case["reference_bootstrap_s"], 3)
            case["ratio_randomization"] = round(case["randomization_s"] / case["reference_randomization_s"], 3)
        out["cases"].append(case)
    out["loadavg_after"] = os.getloadavg()
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
