#!/usr/bin/env python3
"""Benchmark memory and growth: `textbcv split` and `textbcv compare` peak RSS and time over corpus sizes; prints JSON.

Corpora of 5k to 80k sentences are made from CoNLL-2003 (eng.train + eng.testa + eng.testb, under
``--shared``) or, where the shared corpora are absent, from the bundled NER file: the source's
sentences in order, again and again, the first token of each repeated sentence marked with its copy
(``EU`` -> ``EU~1``) so that no two sentences are exact duplicates (a duplicate would share a block
and change what the split does). Each measure runs in a child process of its own; its peak resident
memory is the child's ``ru_maxrss`` (``os.wait4``) and its CPU time the child's user + system time.

* ``split``: ``textbcv split FILE --out SPLITS.json`` at each size (the child first splits a
  200-sentence corpus, so the imports and first-use costs are not counted in the timed call, which
  is timed inside the child). Figures: seconds and CPU seconds, peak RSS, bytes of peak RSS per
  token; the growth exponent is the least-squares slope of log CPU time on log sentences (target
  <= 1.03) and the bytes per token at the largest size the memory figure (target < 200).
* ``compare``: ``textbcv compare FILE --task ner --systems iob1,iobes --m 1 --max-iterations 1 --jobs 1``
  at 5k and 20k sentences (the CRF's memory is set by its features and model, not by its iterations;
  ``--jobs 1`` runs every fold in the one process measured). Target: peak under 400 MB at 20k
  sentences. From the two sizes, a line (MB = a + b · tokens) gives the largest corpus whose
  ``--jobs 2`` run fits in a 16 GB laptop: three processes (the run and two workers), each at most
  that line, within 12 GB (4 GB left to the system).

Usage: scripts/bench_memory.py [--shared ../shared/corpora] [--sizes 5000,10000,20000,40000,80000]
       [--compare-sizes 5000,20000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SPLIT_BYTES_TARGET = 200
GROWTH_TARGET = 1.03
COMPARE_MB_TARGET = 400
COMPARE_TARGET_SENTENCES = 20_000
LAPTOP_GB, LAPTOP_FREE_GB, LAPTOP_PROCESSES = 16, 12, 3

#: The child for ``split``: a warm-up split, then the timed one; prints its own seconds and CPU seconds.
_SPLIT_CHILD = """
import json, sys, time
from textbcv.cli import main
warm, path, out = sys.argv[1:4]
assert main(["split", warm, "--out", out, "--force"]) == 0
t, c = time.perf_counter(), time.process_time()
assert main(["split", path, "--out", out, "--force"]) == 0
print(json.dumps({"seconds": time.perf_counter() - t, "cpu_seconds": time.process_time() - c}))
"""


def _sentences(path: Path) -> list[list[str]]:
    """The sentences of a CoNLL file as lists of lines (a -DOCSTART- line and its blank line kept as one)."""
    out, cur = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def source_corpus(shared: Path) -> tuple[str, list[list[str]]]:
    """The name and sentences of the source corpus: CoNLL-2003 where present, else the bundled NER file."""
    files = [shared / "conll2003_en" / n for n in ("eng.train", "eng.testa", "eng.testb")]
    if all(f.is_file() for f in files):
        return "CoNLL-2003 eng.train + testa + testb", [s for f in files for s in _sentences(f)]
    import textbcv

    return "the bundled corpora/ner_en.conll", _sentences(Path(textbcv.bundled_corpora()["ner"]))


def write_corpus(path: Path, source: list[list[str]], n: int) -> int:
    """Write ``n`` sentences (-DOCSTART- lines not counted) cycled from ``source``; returns their tokens."""
    tokens = made = 0
    with open(path, "w", encoding="utf-8") as f:
        copy = 0
        while made < n:
            for s in source:
                if made >= n:
                    break
                if s[0].startswith("-DOCSTART-"):
                    f.write(s[0] + "\n\n")
                    continue
                if copy:
                    head, rest = s[0].split(" ", 1)
                    s = [f"{head}~{copy} {rest}", *s[1:]]
                f.write("\n".join(s) + "\n\n")
                made += 1
                tokens += len(s)
            copy += 1
    return tokens


def _run(cmd: list[str]) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak RSS MB, stdout) of one child, its usage read by ``os.wait4``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=ROOT)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
        p.returncode = status
        out.seek(0)
        err.seek(0)
        if status != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {err.read().decode()[-2000:]}")
        return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.read().decode()


def slope(x, y) -> float:
    """Least-squares slope of log y on log x."""
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "corpora"))
    ap.add_argument("--sizes", default="5000,10000,20000,40000,80000")
    ap.add_argument("--compare-sizes", default=f"5000,{COMPARE_TARGET_SENTENCES}")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",") if x]
    compare_sizes = [int(x) for x in args.compare_sizes.split(",") if x]
    name, source = source_corpus(Path(args.shared))
    py = sys.executable
    out: dict = {"benchmark": "memory", "source": name}
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        warm = d / "warm.conll"
        write_corpus(warm, source, 200)
        split = []
        for n in sizes:
            path = d / f"c{n}.conll"
            tokens = write_corpus(path, source, n)
            wall, _, rss, o = _run([py, "-c", _SPLIT_CHILD, str(warm), str(path), str(d / "splits.json")])
            inner = json.loads(o.strip().splitlines()[-1])
            split.append({"sentences": n, "tokens": tokens, "seconds": round(inner["seconds"], 3),
                          "cpu_seconds": round(inner["cpu_seconds"], 3), "process_seconds": round(wall, 3),
                          "peak_rss_mb": round(rss, 1), "bytes_per_token": round(rss * 2**20 / tokens, 1)})
            path.unlink()
        if split:
            last = split[-1]
            out["split"] = {
                "command": "textbcv split FILE --out SPLITS.json", "sizes": split,
                "growth_exponent_cpu": round(slope([s["sentences"] for s in split],
                                                   [s["cpu_seconds"] for s in split]), 3) if len(split) > 1 else None,
                "growth_exponent_wall": round(slope([s["sentences"] for s in split],
                                                    [s["seconds"] for s in split]), 3) if len(split) > 1 else None,
                "growth_target": GROWTH_TARGET, "bytes_per_token": last["bytes_per_token"],
                "bytes_target": SPLIT_BYTES_TARGET, "bytes_met": last["bytes_per_token"] < SPLIT_BYTES_TARGET}
            g = out["split"]["growth_exponent_cpu"]
            out["split"]["growth_met"] = g is not None and g <= GROWTH_TARGET
        compare = []
        for n in compare_sizes:
            path = d / f"c{n}.conll"
            tokens = write_corpus(path, source, n)
            wall, cpu, rss, _ = _run([py, "-m", "textbcv", "compare", str(path), "--task", "ner", "--systems",
                                      "iob1,iobes", "--m", "1", "--max-iterations", "1", "--jobs", "1", "--quiet",
                                      "--no-plots", "--out", str(d / f"run{n}")])
            compare.append({"sentences": n, "tokens": tokens, "seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
                            "peak_rss_mb": round(rss, 1), "bytes_per_token": round(rss * 2**20 / tokens, 1)})
            path.unlink()
        if compare:
            at = [c for c in compare if c["sentences"] == COMPARE_TARGET_SENTENCES]
            out["compare"] = {
                "command": "textbcv compare FILE --task ner --systems iob1,iobes --m 1 --max-iterations 1 --jobs 1",
                "sizes": compare, "target_mb": COMPARE_MB_TARGET, "target_sentences": COMPARE_TARGET_SENTENCES,
                "peak_rss_mb": at[0]["peak_rss_mb"] if at else None,
                "met": bool(at) and at[0]["peak_rss_mb"] < COMPARE_MB_TARGET}
            if len(compare) > 1:
                t = [c["tokens"] for c in compare]
                m = [c["peak_rss_mb"] for c in compare]
                b, a = np.polyfit(t, m, 1)
                per_process = LAPTOP_FREE_GB * 1024 / LAPTOP_PROCESSES
                largest = int((per_process - a) / b) if b > 0 else None
                sent_per_token = compare[-1]["sentences"] / compare[-1]["tokens"]
                out["compare"]["laptop"] = {
                    "memory_gb": LAPTOP_GB, "usable_gb": LAPTOP_FREE_GB, "processes": LAPTOP_PROCESSES, "jobs": 2,
                    "mb_fixed": round(float(a), 1), "bytes_per_token": round(float(b) * 2**20, 1),
                    "largest_tokens": largest,
                    "largest_sentences": None if largest is None else int(largest * sent_per_token)}
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
