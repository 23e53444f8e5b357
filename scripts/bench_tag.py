#!/usr/bin/env python3
"""Benchmark the fold runner on CoNLL-2003 eng.train; prints JSON.

m = 3 balanced BCV, two systems (IOB2 and IOBES, ``ner-thesis`` features,
default CRF settings), ``--jobs 2``. Figures: wall time of the tagging stage
(feature extraction + all folds), the summed time spent inside crfsuite
(training and tagging, measured in the workers), the feature-extraction time
and how many times features were extracted, payload loads per worker, and
the overhead ratio ``wall / (crfsuite seconds / jobs)``, where crfsuite
seconds = crfsuite taking in the sequences (its ``ItemSequence`` built once per
worker and template, then ``Trainer.append`` per fold) + ``Trainer.train`` +
tagging — 1.0 would mean the
workers did nothing but crfsuite work — with its parts: each worker's busy
time (the gap to the wall time is idle tail) and the time spent in folds
outside crfsuite (loading the payload, feeding crfsuite, decoding, scoring).
Also the per-fold F1 of every system. The ratio is only meaningful on an
otherwise idle machine: other load stretches some folds and leaves a worker
idle at the end. ``overhead_ratio_without_append`` counts crfsuite's taking in
of the sequences (``ItemSequence`` and ``Trainer.append``) as overhead instead.

Usage: scripts/bench_tag.py [--train PATH] [--m 3] [--jobs 2] [--max-iterations 100] [--sentences N]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from textbcv.corpus import read_conll  # noqa: E402
from textbcv.split import make_splits  # noqa: E402
from textbcv.tagging import features as features_module  # noqa: E402
from textbcv.tagging import make_payload, parse_system, run_folds  # noqa: E402
from textbcv.tagging import runner as runner_module  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", default=str(ROOT.parent / "shared" / "corpora" / "conll2003_en" / "eng.train"))
    ap.add_argument("--m", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--max-iterations", type=int, default=None)
    ap.add_argument("--sentences", type=int, default=None, help="use only the first N sentences")
    ap.add_argument("--systems", default="iob2,iobes")
    args = ap.parse_args()
    if not Path(args.train).is_file():
        print(json.dumps({"benchmark": "tag", "skipped": f"needs {args.train} (not found: the shared corpora are not "
                                                         "part of a checkout; give --train)"}, indent=2))
        return

    t0 = time.perf_counter()
    corpus = read_conll(args.train)
    if args.sentences:
        corpus = corpus[: args.sentences]
    t_read = time.perf_counter()
    splits = make_splits(corpus, m=args.m, seed=0)
    t_split = time.perf_counter()

    calls = Counter()
    real_extract = features_module.extract

    def counted(sentences, template):
        calls[template.name] += 1
        return real_extract(sentences, template)

    runner_module.extract = counted
    systems = [parse_system(s, task="ner", max_iterations=args.max_iterations) for s in args.systems.split(",")]
    t_feat0 = time.perf_counter()
    payload = make_payload(corpus.sentences, [s.chunks for s in corpus], systems)
    t_feat = time.perf_counter() - t_feat0
    with tempfile.TemporaryDirectory() as d:
        t_run0 = time.perf_counter()
        store = run_folds(payload, splits.folds(), systems, Path(d) / "folds.jsonl", jobs=args.jobs, progress=False)
        t_run = time.perf_counter() - t_run0
        records = store.ordered([s.name for s in systems])
    append = sum(r["run"]["append_seconds"] for r in records)
    train = sum(r["run"]["train_seconds"] for r in records)
    tag = sum(r["run"]["tag_seconds"] for r in records)
    sequences = sum(r["run"].get("sequence_seconds", 0.0) for r in records)
    crf = sequences + append + train + tag
    loads, busy = Counter(), Counter()
    for r in records:
        loads[r["run"]["pid"]] += int(r["run"]["payload_loaded"])
        busy[r["run"]["pid"]] += r["run"]["seconds"]
    in_fold_other = sum(r["run"]["seconds"] for r in records) - crf
    wall = t_feat + t_run
    f1 = {}
    for r in records:
        o = r["counts"]["overall"]
        f1.setdefault(r["system"], []).append(round(2 * o["tp"] / (2 * o["tp"] + o["fp"] + o["fn"]), 4))
    print(json.dumps({
        "benchmark": "tag",
        "corpus": {"file": Path(args.train).name, "sentences": len(corpus), "tokens": corpus.n_tokens},
        "m": args.m, "jobs": args.jobs, "systems": [s.to_dict()["name"] for s in systems],
        "crf": {"algorithm": systems[0].algorithm, **systems[0].params},
        "folds": len(records),
        "read_seconds": round(t_read - t0, 3),
        "split_seconds": round(t_split - t_read, 3),
        "feature_seconds": round(t_feat, 3),
        "feature_extractions": dict(calls),
        "payload_loads_per_worker": sorted(loads.values()),
        "folds_wall_seconds": round(t_run, 3),
        "wall_seconds": round(wall, 3),
        "crfsuite_seconds": round(crf, 3),
        "crfsuite_sequence_seconds": round(sequences, 3),
        "crfsuite_append_seconds": round(append, 3),
        "crfsuite_train_seconds": round(train, 3),
        "crfsuite_tag_seconds": round(tag, 3),
        "overhead_ratio": round(wall / (crf / args.jobs), 4),
        "overhead_ratio_folds_only": round(t_run / (crf / args.jobs), 4),
        "overhead_ratio_without_append": round(wall / ((train + tag) / args.jobs), 4),
        "worker_busy_seconds": sorted(round(v, 1) for v in busy.values()),
        "in_fold_non_crfsuite_seconds": round(in_fold_other, 3),
        "load_average_1min_after": round(os.getloadavg()[0], 2),
        "fold_f1": f1,
    }, indent=2))


if __name__ == "__main__":
    main()
