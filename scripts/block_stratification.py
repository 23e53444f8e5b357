#!/usr/bin/env python3
"""Do BCV's blocks make test halves easier than random m×2 CV? (no CRF: unseen words and a memorising tagger)

Draws R data sets of whole documents from the CoNLL-2003 pool of the real-text study (eng.train +
testa + testb, about 2,500 sentences each, the study's own draws) and splits each, by document,
with three designs on the same seed:

- ``random``: textbcv's random m×2 CV (m independent random halvings);
- ``bcv``: textbcv's unbalanced m×2 BCV (the default split): size-blind blocks, runs of one
  random order cut near equal sentence targets;
- ``bcv-sorted``: unbalanced m×2 BCV as it was before 2026-11-25, documents dealt into 16 leaf
  blocks largest first, every size class spread evenly (reproduced here from
  ``textbcv.split.balance.deal``).

Every fold (both directions of each split, m = 3 and 7) is scored by two checks that need no
training: OOV, the share of test tokens unseen in the training half, and a memorising tagger
(each word's most frequent training tag, "O" for unseen words; token-level F1 over the entity
tags). A design whose halves are easier than random halvings of the same documents shows a
positive F1 shift and a negative OOV shift against ``random`` on the same data sets (paired).
Half sizes: the spread of the m training halves' sentence counts, and the largest deviation of
two training halves' overlap from n/4.

Results go to ``docs/block_stratification.json`` and the "Block stratification" section of
``docs/RESULTS.md``.

Usage: scripts/block_stratification.py [--reps 1000]      smoke: --reps 3
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_text_study import draw_data_set  # noqa: E402
from unit_leakage import checks  # noqa: E402

from textbcv.corpus import read_corpus  # noqa: E402
from textbcv.split import make_splits  # noqa: E402
from textbcv.split.balance import deal  # noqa: E402
from textbcv.split.bcv import block_targets, halves_from_blocks  # noqa: E402

from _results import ROOT, fmt_seconds, machine, update_section, write_json  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpora"
FILES = ["conll2003_en/eng.train", "conll2003_en/eng.testa", "conll2003_en/eng.testb"]
N = 2500  # sentences per data set, as in the real-text study
MS = (3, 7)
DESIGNS = ("random", "bcv", "bcv-sorted")
LABELS = {"random": "random m×2 CV", "bcv": "BCV, not balanced (size-blind blocks, the default)",
          "bcv-sorted": "BCV, not balanced, documents dealt by size (before 2026-11-25)"}


class Pool:
    def __init__(self):
        missing = [f for f in FILES if not (SHARED / f).exists()]
        if missing:
            raise SystemExit(f"block_stratification: {SHARED / missing[0]} not found (needs ../shared/corpora)")
        self.corpus = read_corpus([str(SHARED / f) for f in FILES], format="conll")
        self.docs = self.corpus.documents
        vocab: dict[str, int] = {}
        tagv: dict[str, int] = {"O": 0}
        self.words, self.tags = [], []
        for s in self.corpus:
            self.words.append(np.array([vocab.setdefault(w, len(vocab)) for w in s.tokens], dtype=np.int64))
            t = np.zeros(len(s.tokens), dtype=np.int64)
            for a, b, ty in s.chunks:
                t[a:b] = tagv.setdefault(ty, len(tagv))
            self.tags.append(t)
        self.nv, self.nt = len(vocab), len(tagv)

    def draw(self, r: int) -> np.ndarray:
        """Data set r of the real-text study (its own draw)."""
        return draw_data_set(r, N, self.docs, len(self.corpus))

    def checks(self, train: np.ndarray, test: np.ndarray) -> tuple[float, float]:
        """(OOV, memorising tagger's token F1) of a test half given its training half (unit_leakage's checks)."""
        return checks(self.words, self.tags, self.nv, self.nt, train, test)


def sorted_blocks(weight: np.ndarray, seed: int) -> np.ndarray:
    """Leaf blocks of unbalanced BCV before 2026-11-25: largest units first, each size class dealt evenly.

    The splitter's code then (``NestedBlocks`` without measures, 16 leaves): blocks of level N ≤ 16 are
    these leaves mod N.
    """
    n = len(weight)
    rng = np.random.default_rng([seed, 0])
    order = np.lexsort((rng.permutation(n), -weight))
    leaves = min(16, 2 ** int(np.floor(np.log2(n))))
    return deal(sp.csr_matrix((n, 0)), np.zeros(0), weight, np.zeros(n, dtype=np.int64), np.arange(leaves)[None, :],
                block_targets(int(weight.sum()), leaves), np.random.default_rng([seed, leaves]), effort=1.0,
                order=order)


def masks_of(pool: Pool, D: np.ndarray, design: str, seed: int) -> np.ndarray:
    """(7, len(D)) training-half masks of a design's m = 7 splits (m = 3: the first 3, nested)."""
    if design == "bcv-sorted":
        docs = np.array([pool.corpus[int(i)].document for i in D])
        ud, inv, size = np.unique(docs, return_inverse=True, return_counts=True)
        return halves_from_blocks(sorted_blocks(size.astype(np.int64), seed)[inv], 7)
    s = make_splits(pool.corpus.subset(D.tolist()), m=7, method=design, balance=(), group_by="document", seed=seed)
    out = np.zeros((7, len(D)), dtype=bool)
    for i, (t, _) in enumerate(s.splits):
        out[i, t] = True
    return out


def one_data_set(pool: Pool, r: int) -> dict:
    D = pool.draw(r)
    n = len(D)
    rec: dict = {"r": r}
    for design in DESIGNS:
        masks = masks_of(pool, D, design, r)
        for m in MS:
            vals = [pool.checks(D[t], D[~t]) for t in masks[:m]] + [pool.checks(D[~t], D[t]) for t in masks[:m]]
            sizes = masks[:m].sum(axis=1)
            phi = (masks[:m, None, :] & masks[None, :m, :]).sum(axis=2)[np.triu_indices(m, 1)]
            oov, f1 = np.mean(vals, axis=0)
            rec[f"{design}/{m}"] = {"oov": 100 * float(oov), "f1": 100 * float(f1),
                                    "half_spread": int(sizes.max() - sizes.min()),
                                    "overlap_dev": float(np.abs(phi - n / 4).max())}
    return rec


def summarize(recs: list[dict]) -> list[dict]:
    rows = []
    for m in MS:
        for design in DESIGNS:
            row: dict = {"design": design, "m": m, "R": len(recs)}
            for k in ("oov", "f1"):
                x = np.array([r[f"{design}/{m}"][k] for r in recs])
                row[k] = float(x.mean())
                if design != "random":
                    d = x - np.array([r[f"random/{m}"][k] for r in recs])
                    row[f"{k}_shift"] = float(d.mean())
                    row[f"{k}_shift_se"] = float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else None
            for k in ("half_spread", "overlap_dev"):
                row[k] = float(np.mean([r[f"{design}/{m}"][k] for r in recs]))
            rows.append(row)
    return rows


def render(result: dict) -> str:
    meta = result["meta"]
    L = ["## Block stratification: do BCV's blocks make test halves easier?", "",
         f"`scripts/block_stratification.py`: {meta['reps']} data sets of whole documents (about {N:,} sentences, "
         "the real-text study's draws from CoNLL-2003 eng.train + testa + testb), each split by document with "
         "three designs on the same seed. No training: OOV = share of test tokens unseen in the training half; "
         "memorising tagger = each word's most frequent training tag (\"O\" for unseen words), token-level F1 "
         "over the entity tags; mean over the 2m folds. Shift = design − random m×2 CV on the same data sets "
         "(paired), ± its SE. Half spread = largest − smallest training half (sentences); overlap = largest "
         "|shared sentences − n/4| over pairs of training halves; both averaged over data sets.", "",
         "| m | design | memorising F1 | F1 shift | OOV % | OOV shift | half spread | overlap − n/4 |",
         "|---:|---|---:|---:|---:|---:|---:|---:|"]

    def sh(row, k):
        if f"{k}_shift" not in row:
            return "—"
        se = row[f"{k}_shift_se"]
        return f"{row[f'{k}_shift']:+.3f}" + (f" ± {se:.3f}" if se is not None else "")

    for row in result["rows"]:
        L.append(f"| {row['m']} | {LABELS[row['design']]} | {row['f1']:.2f} | {sh(row, 'f1')} | {row['oov']:.2f} | "
                 f"{sh(row, 'oov')} | {row['half_spread']:.1f} | {row['overlap_dev']:.1f} |")
    L += ["", "Dealing documents by size spread every size class evenly over the blocks, and so whatever goes with "
          "size (long CoNLL-2003 documents are sports results and tables): every test half then resembled its "
          "training half more than a random half does, and more than new text does. The size-blind blocks "
          "place a document independently of its size, as random m×2 CV does; their training halves overlap "
          "far more evenly than random halvings' (the last column), while their sizes are less even than "
          "dealing by size made them, since a document on a block boundary cannot be cut.", "",
          f"Measured {meta['machine']['date']} in {fmt_seconds(meta['seconds'])}. Regenerate: `{meta['command']}`."]
    return "\n".join(L)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000, help="data sets (default 1000)")
    ap.add_argument("--json", default=str(ROOT / "docs" / "block_stratification.json"))
    ap.add_argument("--results", default=str(ROOT / "docs" / "RESULTS.md"))
    args = ap.parse_args(argv)
    if args.reps < 1:
        ap.error("--reps must be at least 1")
    t0 = time.time()
    pool = Pool()
    recs = []
    for r in range(args.reps):
        recs.append(one_data_set(pool, r))
        if (r + 1) % 100 == 0 or r + 1 == args.reps:
            print(f"block_stratification: {r + 1}/{args.reps} data sets ({fmt_seconds(time.time() - t0)})",
                  file=sys.stderr, flush=True)
    result = {"meta": {"reps": args.reps, "n": N, "seconds": round(time.time() - t0, 1), "machine": machine(),
                       "command": "scripts/block_stratification.py " + " ".join(
                           argv if argv is not None else sys.argv[1:])},
              "rows": summarize(recs)}
    write_json(args.json, result)
    update_section(args.results, "block-stratification", render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
