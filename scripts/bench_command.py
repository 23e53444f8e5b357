#!/usr/bin/env python3
"""Benchmark a command system's overhead per task and per run, wall and CPU time; prints JSON.

A command system runs the user's command once per fold and seed. This measures what textbcv adds around
each run: writing the fold's files, holding a device slot, starting the command through the shell,
reading and checking its predictions, scoring the fold and storing its record, and once per run its
start-up, split and report. The command is the tests' memoriser (``tests/data/memoriser.py``), run on
the bundled NER corpus by ``textbcv compare`` as a whole process (two command systems, m = 3,
``--jobs 1``, ``--no-plots``) with one and with ``--seeds`` training seeds (12 and 24 tasks); the
reference for each is the same commands run one after another by plain ``subprocess.run`` on the same
fold files, measured in the same run. The overhead of a run is its time minus its reference's; the
line through the two runs' overheads gives the overhead per task (its slope) and the fixed overhead
per run (its value at 0 tasks), in wall time and in CPU time (user + system of the process and
everything it started, ``os.wait4``; of the reference's commands, ``RUSAGE_CHILDREN``). Targets: at
most 0.05 s CPU per task and at most 1.5 s CPU fixed per run.

Usage: scripts/bench_command.py [--m 3] [--seeds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import textbcv  # noqa: E402

MEMORISER = ROOT / "tests" / "data" / "memoriser.py"
PER_TASK_CPU_TARGET = 0.05
FIXED_CPU_TARGET = 1.5


def _children_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def one_run(tmp: Path, m: int, seeds: int) -> dict:
    """``textbcv compare`` with two command systems as a child process, then its commands alone."""
    corpus = str(textbcv.bundled_corpora()["ner"])
    command = f"{sys.executable} {MEMORISER} --train {{train}} --test {{test}} --out {{pred}} --seed {{seed}}"
    run = tmp / f"run-{seeds}"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "textbcv", "compare", corpus, "--task", "ner", "--m", str(m), "--quiet",
           "--no-plots", "--jobs", "1", "--train-seeds", str(seeds), "--system", f"a={command}", "--system",
           f"b={command}", "--out", str(run)]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"compare failed: {p.stderr.read().decode()[-2000:] if p.stderr else ''}")
    tasks = sorted((run / "commands").glob("*/fold-*/seed-*"))
    t0, c0 = time.perf_counter(), _children_cpu()
    for task in tasks:  # the same commands on the same files, nothing around them
        fold = task.parent
        subprocess.run([sys.executable, str(MEMORISER), "--train", str(fold / "train.conll"), "--test",
                        str(fold / "test.conll"), "--out", str(tmp / "pred.conll"), "--seed",
                        task.name.split("-", 1)[1]], check=True)
    return {"tasks": len(tasks), "compare_seconds": round(wall, 3),
            "compare_cpu_seconds": round(usage.ru_utime + usage.ru_stime, 3),
            "commands_alone_seconds": round(time.perf_counter() - t0, 3),
            "commands_alone_cpu_seconds": round(_children_cpu() - c0, 3)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--m", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=2)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        runs = [one_run(Path(tmp), args.m, s) for s in sorted({1, args.seeds})]
    out: dict = {"benchmark": "command", "command": "textbcv compare CORPUS --task ner --m M --jobs 1 --no-plots "
                 "--system a=MEMORISER --system b=MEMORISER --train-seeds K", "runs": runs}
    for kind, c, r in (("wall", "compare_seconds", "commands_alone_seconds"),
                       ("cpu", "compare_cpu_seconds", "commands_alone_cpu_seconds")):
        over = [(x["tasks"], x[c] - x[r]) for x in runs]
        if len(over) > 1:
            (t1, o1), (t2, o2) = over[0], over[-1]
            per_task = (o2 - o1) / (t2 - t1)
            out[f"{kind}_per_task_seconds"] = round(per_task, 4)
            out[f"{kind}_fixed_seconds"] = round(o1 - per_task * t1, 3)
        out[f"{kind}_overhead_per_task_seconds"] = round(over[-1][1] / over[-1][0], 4)
    out["per_task_cpu_target"] = PER_TASK_CPU_TARGET
    out["fixed_cpu_target"] = FIXED_CPU_TARGET
    if "cpu_per_task_seconds" in out:
        out["per_task_met"] = out["cpu_per_task_seconds"] <= PER_TASK_CPU_TARGET
        out["fixed_met"] = out["cpu_fixed_seconds"] <= FIXED_CPU_TARGET
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
