#!/usr/bin/env python3
"""Reading and scoring speed of this checkout against an earlier commit, measured in one run; prints JSON.

Checks out ``--before`` into a temporary worktree, then runs ``bench_read.py`` and ``bench_score.py`` of each
side ``--rounds`` times, alternating which side goes first. Each run gives, per reader and for ``textbcv score
FILE --json`` end to end, textbcv's seconds and its ratio to the reference measured in the same run (a bare
line loop, seqeval), which cancels most of a shared machine's load. The JSON gives, per measure, the median
of each side and ``slowdown``: textbcv's time relative to its reference, after over before (1.05 is 5% slower),
and whether every measure is within ``--tolerance``; the raw seconds are shown beside it.

Usage: scripts/bench_versus.py --before REV [--rounds 5] [--tolerance 0.05] [--shared ../shared/corpora]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(root: Path, script: str, extra: list[str]) -> dict:
    cmd = [sys.executable, str(root / "scripts" / script), *extra]
    env = {**os.environ, "PYTHONPATH": str(root)}
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=root, env=env)
    if r.returncode != 0:
        raise SystemExit(f"bench_versus: {' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    return json.loads(r.stdout)


def measures(root: Path, shared: Path) -> dict[str, tuple[float, float]]:
    """``measure -> (textbcv seconds, ratio to the reference of the same run)`` of one side."""
    out = {}
    read = _run(root, "bench_read.py", ["--repeat", "3", "--shared", str(shared)])
    for fmt, r in read["results"].items():
        out[f"read {fmt}"] = (r["seconds"], r["ratio"])
    score = _run(root, "bench_score.py", ["--repeat", "3", "--reference-repeat", "1", "--big-tokens", "0",
                                          "--corpus-dir", str(shared / "conll2003_en")])
    out["score cli"] = (score["cli"]["seconds"], 1 / score["cli"]["ratio"])  # textbcv over seqeval, as read's
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="the earlier commit (any git revision)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "corpora")
    args = ap.parse_args(argv)
    shared = args.shared.resolve()
    with tempfile.TemporaryDirectory(prefix="textbcv-bench-") as tmp:
        before = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(before), args.before],
                       check=True)
        try:
            sides: dict[str, list[dict]] = {"before": [], "after": []}
            for k in range(args.rounds):
                order = [("before", before), ("after", ROOT)]
                for name, root in order if k % 2 == 0 else order[::-1]:
                    sides[name].append(measures(root, shared))
                    print(f"bench_versus: round {k + 1}/{args.rounds}: {name} measured", file=sys.stderr, flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)], check=False)
    result = {}
    for m in sides["after"][0]:
        med = {s: statistics.median(r[m][0] for r in sides[s]) for s in sides}
        ratio = {s: statistics.median(r[m][1] for r in sides[s]) for s in sides}
        result[m] = {"slowdown": round(ratio["after"] / ratio["before"], 3),
                     "time_over_reference_before": round(ratio["before"], 4),
                     "time_over_reference_after": round(ratio["after"], 4),
                     "before_seconds": round(med["before"], 4), "after_seconds": round(med["after"], 4)}
    within = all(r["slowdown"] <= 1 + args.tolerance for r in result.values())
    print(json.dumps({"benchmark": "versus", "before": args.before, "rounds": args.rounds,
                      "tolerance": args.tolerance, "measures": result, "within_tolerance": within,
                      "load_average": [round(x, 2) for x in os.getloadavg()]}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
