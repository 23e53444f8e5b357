#!/usr/bin/env python
"""Time m = 15 balanced BCV on n synthetic sentences against sklearn RepeatedKFold(2, 15) index generation.

Synthetic corpus: Zipfian lemmas (vocabulary 50,000, exponent 1.1), 9 label types,
lengths 1–120 (log-normal, median 18); length balanced as ``make_splits`` does (exact lengths,
quantile bins, tail thresholds: ``textbcv.split.profiles.length_measures``). Prints JSON: seconds, peak
memory (whole process, and after building the input only), ratio.
"""
import json
import resource
import sys
import time

import numpy as np
import scipy.sparse as sp
from sklearn.model_selection import RepeatedKFold

from textbcv.split import split_units
from textbcv.split.profiles import length_measures

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10**6
rng = np.random.default_rng(0)
L = np.clip(np.round(rng.lognormal(np.log(18), 0.6, n)), 1, 120).astype(np.int64)
rows = np.repeat(np.arange(n), L)
V = 50_000
p = 1.0 / np.arange(1, V + 1) ** 1.1
lem = rng.choice(V, size=len(rows), p=p / p.sum()).astype(np.int32)
del rows  # rows are sorted: build the CSR directly (no COO copy)
lemma = sp.csr_matrix((np.ones(len(lem)), lem, np.r_[0, np.cumsum(L)]), shape=(n, V))
del lem
lemma.sum_duplicates()
nlab = rng.poisson(1.2, n)
lr = np.repeat(np.arange(n), nlab)
label = sp.csr_matrix((np.ones(len(lr)), (lr, rng.integers(0, 9, len(lr)))), shape=(n, 9))
label.sum_duplicates()
measures = {"label": label, "lemma": lemma, **length_measures(L)}  # length as make_splits balances it

peak_input = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
t = time.perf_counter()
for _ in RepeatedKFold(n_splits=2, n_repeats=15, random_state=0).split(np.zeros((n, 1))):
    pass
t_ref = time.perf_counter() - t
t = time.perf_counter()
s = split_units(n, 15, measures=measures, seed=0, quality=False)
t_bcv = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"n": n, "m": 15, "bcv_seconds": round(t_bcv, 3), "repeatedkfold_seconds": round(t_ref, 3),
                  "ratio": round(t_bcv / t_ref, 2), "peak_memory_mb": round(peak, 1),
                  "peak_memory_before_split_mb": round(peak_input, 1), "nnz_lemma": int(lemma.nnz)}))
