#!/usr/bin/env python3
"""Benchmark the corpus readers; prints JSON.

For each format it times textbcv's reader (best of ``--repeat`` runs) and a
reference measured in the same run on the same file: for CoNLL columns and
segmented text a bare loop that splits every line (the floor any reader
pays), for CoNLL-U ``conllu.parse`` of the whole file with default settings.
Figures: sentences/s, tokens/s, seconds, and ``ratio`` = textbcv seconds /
reference seconds. Targets (issue 20): eng.train within 4× of the bare loop
(``ratio`` <= 4); CoNLL-U at least 2× faster than ``conllu.parse``
(``ratio`` <= 0.5). ``targets`` says whether each is met in this run.

Usage: scripts/bench_read.py [--shared ../shared/corpora] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import conllu  # noqa: E402

import textbcv  # noqa: E402
from textbcv.corpus import read_conll, read_conllu, read_segmented  # noqa: E402


def best_of(fn, repeat: int) -> tuple[float, float, object]:
    """Best wall and best CPU seconds of ``repeat`` calls of ``fn``, and its result."""
    best, best_cpu, out = float("inf"), float("inf"), None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        best, best_cpu = min(best, time.perf_counter() - t0), min(best_cpu, time.process_time() - c0)
    return best, best_cpu, out


def split_lines(path: Path) -> int:
    n = 0
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            n += len(line.split())
    return n


def conllu_reference(path: Path) -> int:
    return len(conllu.parse(path.read_text(encoding="utf-8")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "corpora"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    shared = Path(args.shared)
    bundled = textbcv.bundled_corpora()
    cases = [
        ("conll", shared / "conll2003_en" / "eng.train", read_conll, split_lines, "line.split() loop"),
        ("conllu", shared / "ud_english_ewt" / "en_ewt-ud-train.conllu", read_conllu, conllu_reference, "conllu.parse"),
        ("segmented", shared / "sighan2005_cws" / "pku_test_gold.utf8", read_segmented, split_lines,
         "line.split() loop"),
        ("conll-bundled", Path(bundled["ner"]), read_conll, split_lines, "line.split() loop"),
        ("segmented-bundled", Path(bundled["cws"]), read_segmented, split_lines, "line.split() loop"),
    ]
    results = {}
    for name, path, reader, reference, ref_name in cases:
        if not path.exists():
            results[name] = {"file": str(path), "skipped": f"needs {path} (not found: the shared corpora are not "
                                                           "part of a checkout; give --shared)"}
            continue
        secs, cpu, corpus = best_of(lambda: reader(path), args.repeat)
        ref_secs, ref_cpu, _ = best_of(lambda: reference(path), args.repeat)
        results[name] = {
            "file": str(path.relative_to(path.parents[1])),
            "sentences": len(corpus),
            "tokens": corpus.n_tokens,
            "seconds": round(secs, 4),
            "sentences_per_s": round(len(corpus) / secs),
            "tokens_per_s": round(corpus.n_tokens / secs),
            "reference": ref_name,
            "reference_seconds": round(ref_secs, 4),
            "ratio": round(secs / ref_secs, 3),
            "cpu_seconds": round(cpu, 4),
            "reference_cpu_seconds": round(ref_cpu, 4),
            "cpu_ratio": round(cpu / ref_cpu, 3),
        }
    targets = {}
    for name, limit, what in (("conll", 4.0, "eng.train read within 4x of a bare line.split() loop"),
                              ("conllu", 0.5, "CoNLL-U read at least 2x faster than conllu.parse")):
        r = results.get(name, {})
        if "ratio" in r:
            targets[name] = {"target": what, "ratio": r["ratio"], "limit": limit, "met": r["ratio"] <= limit}
    print(json.dumps({"benchmark": "read", "repeat": args.repeat, "results": results, "targets": targets}, indent=2))


if __name__ == "__main__":
    main()
