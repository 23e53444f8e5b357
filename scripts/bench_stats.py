#!/usr/bin/env python3
"""Benchmark: exact P(B better) for precision, recall and F1 (one call = all three metrics).

Counts of two systems at 10^3 … 10^7 chunks per fold (2m = 6 folds, thesis
c_m). Median of 100 calls; the reference measured in the same run is the
Monte Carlo path of Algorithm 6.1 (L = 10^6, median of 5 calls), so the
figure that travels between machines is the ratio. Prints JSON.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textbcv.stats.bayes import prob_better, prob_better_mc  # noqa: E402
from textbcv.stats.correlation import count_factor  # noqa: E402
from textbcv.stats.posterior import METRICS, posteriors  # noqa: E402


def median_time(fn, calls: int) -> float:
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    c = count_factor(3)
    out = {"what": "exact P(B better) for precision, recall and F1 (one call = 3 metrics)", "cases": [],
           "loadavg": os.getloadavg(), "cpus": os.cpu_count()}
    for n in (10**3, 10**5, 10**7):
        tot = 6 * n
        pa = posteriors(0.90 * tot, 0.08 * tot, 0.11 * tot, c)
        pb = posteriors(0.9001 * tot, 0.0799 * tot, 0.1098 * tot, c)

        def exact():
            return [prob_better(pa[k], pb[k]) for k in METRICS]

        def mc():
            return [prob_better_mc(pa[k], pb[k], draws=10**6, seed=0) for k in METRICS]

        exact()
        t_exact = median_time(exact, 100)
        t_mc = median_time(mc, 5)
        out["cases"].append({"counts_per_fold": n, "exact_ms": round(1e3 * t_exact, 3),
                             "monte_carlo_ms": round(1e3 * t_mc, 1),
                             "speedup_vs_monte_carlo": round(t_mc / t_exact, 1)})
    out["max_exact_ms"] = max(c["exact_ms"] for c in out["cases"])
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
