#!/usr/bin/env python3
"""The "train" step of the command-line path: your taggers on the exported folds, predictions written back.

    textbcv split CORPUS --m 3 --out splits.json --export folds     # 1. the folds as files
    python scripts/examples/train_on_folds.py folds predictions      # 2. this script
    textbcv evaluate splits.json CORPUS --task ner \\
        --system crf=predictions/crf --system logreg=predictions/logreg --out run   # 3. the report

For every ``folds/fold-{i}-{d}/`` it reads ``train.conll`` and ``test.conll``,
trains each tagger of ``taggers.make_taggers`` on the train half (gold
chunks re-encoded in IOB2, the scheme the taggers are trained in) and writes
its predictions for the test half to ``predictions/{name}/fold-{i}-{d}.txt``:
one ``token tag`` line per token, a blank line after each sentence. Any
tagger trained by any script on any machine would do the same.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from taggers import make_taggers  # noqa: E402

import textbcv  # noqa: E402
from textbcv.schemes import encode  # noqa: E402


def train_on_folds(folds: str | Path, out: str | Path, quick: bool = False, scheme: str = "iob2",
                   verbose: bool = True) -> list[Path]:
    """Train every tagger on every exported fold and write its predictions; return the prediction directories."""
    folds, out = Path(folds), Path(out)
    fold_dirs = sorted(p for p in folds.iterdir() if p.is_dir() and p.name.startswith("fold-"))
    if not fold_dirs:
        raise SystemExit(f"{folds}: no fold-*/ directories (made by `textbcv split --export`?)")
    names = list(make_taggers(quick))
    for name in names:
        (out / name).mkdir(parents=True, exist_ok=True)
    for d in fold_dirs:
        train = textbcv.read_corpus(d / "train.conll")
        test = textbcv.read_corpus(d / "test.conll")
        tags = [encode(s.chunks, len(s), scheme) for s in train]
        for name, tagger in make_taggers(quick).items():
            t0 = time.perf_counter()
            pred = tagger.fit(train.sentences, tags).predict(test.sentences)
            with open(out / name / f"{d.name}.txt", "w", encoding="utf-8") as f:
                for s, ts in zip(test, pred, strict=True):
                    f.writelines(f"{tok} {tag}\n" for tok, tag in zip(s.tokens, ts, strict=True))
                    f.write("\n")
            if verbose:
                print(f"{d.name} {name}: {len(train)} training sentences, {len(test)} predicted "
                      f"({time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)
    return [out / n for n in names]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folds", help="directory written by textbcv split --export")
    p.add_argument("out", help="directory for the predictions (one subdirectory per tagger)")
    p.add_argument("--quick", action="store_true", help="few training iterations (for tests)")
    a = p.parse_args()
    train_on_folds(a.folds, a.out, quick=a.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
