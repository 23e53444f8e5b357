#!/usr/bin/env python3
"""Benchmark a command system's overhead per task; prints JSON.

A command system runs the user's command once per fold and seed. This measures what textbcv adds around
each run: writing the fold's files, holding a device slot, starting the command through the shell,
reading and checking its predictions, scoring the fold and storing its record. The command is the
tests' memoriser (``tests/data/memoriser.py``), run on the bundled NER corpus by ``textbcv compare``
(two command systems, m = 3, two seeds: 24 tasks, ``--jobs 1``); the reference is the same 24
commands run one after another by plain ``subprocess.run`` on the same fold files, measured in the
same run. ``overhead_per_task_seconds`` = (compare's wall time − the reference's) / tasks; the
target is below 0.5 s.

Usage: scripts/bench_command.py [--m 3] [--seeds 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import textbcv  # noqa: E402
from textbcv.cli import main as cli  # noqa: E402

MEMORISER = ROOT / "tests" / "data" / "memoriser.py"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--m", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=2)
    args = ap.parse_args(argv)
    corpus = str(textbcv.bundled_corpora()["ner"])
    command = f"{sys.executable} {MEMORISER} --train {{train}} --test {{test}} --out {{pred}} --seed {{seed}}"
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        t0 = time.perf_counter()
        status = cli(["compare", corpus, "--task", "ner", "--m", str(args.m), "--quiet", "--no-plots",
                      "--train-seeds", str(args.seeds), "--system", f"a={command}", "--system", f"b={command}",
                      "--out", str(run)])
        wall = time.perf_counter() - t0
        if status != 0:
            return status
        tasks = sorted((run / "commands").glob("*/fold-*/seed-*"))
        t0 = time.perf_counter()
        for task in tasks:  # the same commands on the same files, nothing around them
            fold = task.parent
            subprocess.run([sys.executable, str(MEMORISER), "--train", str(fold / "train.conll"), "--test",
                            str(fold / "test.conll"), "--out", str(Path(tmp) / "pred.conll"), "--seed",
                            task.name.split("-", 1)[1]], check=True)
        reference = time.perf_counter() - t0
    out = {"tasks": len(tasks), "compare_seconds": round(wall, 3), "commands_alone_seconds": round(reference, 3),
           "overhead_per_task_seconds": round((wall - reference) / len(tasks), 4), "target_seconds": 0.5}
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
