#!/usr/bin/env python3
"""Benchmark: textbcv's chunk scoring against seqeval on ≥ 300,000 CoNLL-2003 tokens.

Gold tags are the NER column of eng.train + eng.testa + eng.testb (IOB1,
301,418 tokens without the -DOCSTART- lines); predictions perturb them with
a fixed seed (each token's tag replaced, with probability ``--noise``, by a
random tag of the tag set, which also makes invalid sequences). Every
scorer is timed ``--repeat`` times in this run and the best time is kept.
Prints JSON: tokens, seconds and tokens/s of each scorer, and the speed
ratios of textbcv over seqeval.

Usage: .venv/bin/python scripts/bench_score.py [--corpus-dir ../shared/corpora/conll2003_en]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def perturb(gold: list[list[str]], noise: float, seed: int) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    tagset = sorted({t for s in gold for t in s} | {f"B-{t[2:]}" for s in gold for t in s if t != "O"})
    flat = [t for s in gold for t in s]
    hit = rng.random(len(flat)) < noise
    repl = rng.integers(0, len(tagset), len(flat))
    flat = [tagset[r] if h else t for t, h, r in zip(flat, hit.tolist(), repl.tolist())]
    out, i = [], 0
    for s in gold:
        out.append(flat[i : i + len(s)])
        i += len(s)
    return out


def best_time(fn, repeat: int):
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus-dir", type=Path, default=ROOT.parent / "shared" / "corpora" / "conll2003_en")
    ap.add_argument("--noise", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)

    from seqeval.metrics import classification_report, f1_score

    from textbcv.scoring import score_tags

    from textbcv.corpus import read_conll

    corpus = read_conll([args.corpus_dir / n for n in ("eng.train", "eng.testa", "eng.testb")])
    gold = [list(s.tags) for s in corpus]
    pred = perturb(gold, args.noise, args.seed)
    tokens = sum(map(len, gold))

    t_conll, s_conll = best_time(lambda: score_tags(gold, pred), args.repeat)
    t_iob1, s_iob1 = best_time(lambda: score_tags(gold, pred, scheme="iob1"), args.repeat)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_report, report = best_time(lambda: classification_report(gold, pred, digits=4, output_dict=True), args.repeat)
        t_f1, f1 = best_time(lambda: f1_score(gold, pred), args.repeat)

    same = (
        abs(s_conll.counts.f1 - f1) < 1e-12
        and s_conll.counts == s_iob1.counts
        and all(
            abs(s_conll.counts.types[t].f1 - report[t]["f1-score"]) < 1e-12 and s_conll.counts.types[t].n_gold == report[t]["support"]
            for t in s_conll.counts.types
        )
    )
    out = {
        "tokens": tokens,
        "sentences": len(gold),
        "noise": args.noise,
        "seed": args.seed,
        "repeat": args.repeat,
        "f1": s_conll.counts.f1,
        "results_equal_seqeval": bool(same),
        "seconds": {
            "textbcv_score_tags_conlleval": t_conll,
            "textbcv_score_tags_iob1": t_iob1,
            "seqeval_classification_report": t_report,
            "seqeval_f1_score": t_f1,
        },
        "tokens_per_s": {
            "textbcv_score_tags_conlleval": tokens / t_conll,
            "textbcv_score_tags_iob1": tokens / t_iob1,
            "seqeval_classification_report": tokens / t_report,
            "seqeval_f1_score": tokens / t_f1,
        },
        "speedup": {
            "conlleval_vs_classification_report": t_report / t_conll,
            "conlleval_vs_f1_score": t_f1 / t_conll,
            "iob1_vs_classification_report": t_report / t_iob1,
            "iob1_vs_f1_score": t_f1 / t_iob1,
        },
    }
    print(json.dumps(out, indent=2))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
