#!/usr/bin/env python3
"""How much easier are sentence-level halves than document-level halves? (no CRF: unseen words and a memorising tagger)

For every corpus that marks documents, ``--halvings`` random halvings by sentence and as many by
document (both directions of each) are scored by two checks that need no training:

- OOV: the share of test tokens whose word never occurs in the training half;
- a memorising tagger: each word gets its most frequent tag in the training half ("O" for unseen
  words), scored as token-level F1 over the non-"O" tags of the corpus's own tag column.

A sentence-level halving lets a document sit on both sides, so its names and topic words are seen
in training: fewer unseen words, and a memorising tagger scores higher than on new documents.
Results go to ``docs/unit_leakage.json`` and the "Unit leakage" section of ``docs/RESULTS.md``.

Usage: scripts/unit_leakage.py [--halvings 200]      smoke: --halvings 3 --corpora conll
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from textbcv.corpus import read_corpus  # noqa: E402

from _results import ROOT, fmt_seconds, machine, update_section, write_json  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpora"
CORPORA = {
    "conll": ("CoNLL-2003 eng.train", ["conll2003_en/eng.train"], "conll"),
    "ewt": ("UD English-EWT train (UPOS as tags)", ["ud_english_ewt/en_ewt-ud-train.conllu"], "conllu"),
}


def load(name: str):
    label, files, fmt = CORPORA[name]
    c = read_corpus([str(SHARED / f) for f in files], format=fmt)
    vocab: dict[str, int] = {}
    tagv: dict[str, int] = {"O": 0}
    words, tags = [], []
    for s in c:
        words.append(np.array([vocab.setdefault(t, len(vocab)) for t in s.tokens], dtype=np.int64))
        col = s.tags if s.tags else (s.pos or ("O",) * len(s))
        tags.append(np.array([tagv.setdefault(t.split("-", 1)[-1] if t != "O" else "O", len(tagv)) for t in col],
                             dtype=np.int64))
    return c, words, tags, len(vocab), len(tagv)


def checks(words, tags, nv: int, nt: int, train: np.ndarray, test: np.ndarray) -> tuple[float, float]:
    tw = np.concatenate([words[i] for i in train])
    tt = np.concatenate([tags[i] for i in train])
    counts = np.zeros((nv, nt), dtype=np.int64)
    np.add.at(counts, (tw, tt), 1)
    seen = counts.sum(axis=1) > 0
    best = np.where(seen, counts.argmax(axis=1), 0)
    xw = np.concatenate([words[i] for i in test])
    xt = np.concatenate([tags[i] for i in test])
    pred = best[xw]
    tp = int(((pred == xt) & (xt != 0)).sum())
    fp = int(((pred != 0) & (pred != xt)).sum())
    fn = int(((xt != 0) & (pred != xt)).sum())
    return float(1.0 - seen[xw].mean()), 2 * tp / (2 * tp + fp + fn)


def study(name: str, halvings: int) -> dict:
    c, words, tags, nv, nt = load(name)
    docs = np.array(c.document_ids)
    ud = np.unique(docs)
    rng = np.random.default_rng(20261123)
    res: dict[str, list] = {"sentence": [], "document": []}
    for _ in range(halvings):
        for unit in ("sentence", "document"):
            if unit == "sentence":
                pick = np.zeros(len(c), dtype=bool)
                pick[rng.permutation(len(c))[: len(c) // 2]] = True
            else:
                pick = np.isin(docs, rng.permutation(ud)[: len(ud) // 2])
            tr, te = np.flatnonzero(pick), np.flatnonzero(~pick)
            res[unit].append(checks(words, tags, nv, nt, tr, te))
            res[unit].append(checks(words, tags, nv, nt, te, tr))
    out = {"corpus": CORPORA[name][0], "sentences": len(c), "documents": int(len(ud)), "halvings": halvings}
    for unit, vals in res.items():
        v = 100 * np.array(vals)
        out[unit] = {"oov_mean": float(v[:, 0].mean()), "oov_sd": float(v[:, 0].std(ddof=1)),
                     "memorising_f1_mean": float(v[:, 1].mean()), "memorising_f1_sd": float(v[:, 1].std(ddof=1))}
    return out


def render(result: dict) -> str:
    L = ["## Unit leakage: sentence-level against document-level halves", "",
         f"`scripts/unit_leakage.py`: {result['meta']['halvings']} random halvings per unit (both directions of each), "
         "no training. OOV = share of test tokens unseen in the training half; memorising tagger = each word's most "
         "frequent training tag (\"O\" for unseen words), token-level F1 over the non-O tags. "
         "Mean (SD) over halves.", "",
         "| corpus | documents | unit | OOV % | memorising F1 |", "|---|---:|---|---:|---:|"]
    for r in result["corpora"]:
        for unit in ("sentence", "document"):
            u = r[unit]
            L.append(f"| {r['corpus']} | {r['documents']} | {unit} | {u['oov_mean']:.2f} ({u['oov_sd']:.2f}) | "
                     f"{u['memorising_f1_mean']:.2f} ({u['memorising_f1_sd']:.2f}) |")
    L += ["", f"Measured {result['meta']['machine']['date']} in {fmt_seconds(result['meta']['seconds'])}. "
          f"Regenerate: `{result['meta']['command']}`."]
    return "\n".join(L)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--halvings", type=int, default=200)
    ap.add_argument("--corpora", default=",".join(CORPORA))
    ap.add_argument("--json", default=str(ROOT / "docs" / "unit_leakage.json"))
    ap.add_argument("--results", default=str(ROOT / "docs" / "RESULTS.md"))
    args = ap.parse_args(argv)
    names = [x for x in args.corpora.split(",") if x]
    if not names or any(x not in CORPORA for x in names):
        ap.error(f"--corpora: choose from {', '.join(CORPORA)}")
    t0 = time.time()
    rows = []
    for name in names:
        rows.append(study(name, args.halvings))
        print(f"{name}: done ({fmt_seconds(time.time() - t0)})", file=sys.stderr, flush=True)
    result = {"meta": {"halvings": args.halvings, "seconds": round(time.time() - t0, 1), "machine": machine(),
                       "command": "scripts/unit_leakage.py " + " ".join(argv if argv is not None else sys.argv[1:])},
              "corpora": rows}
    write_json(args.json, result)
    update_section(args.results, "unit-leakage", render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
