#!/usr/bin/env python3
"""A tagger as a command-line program, for the command-system tests: the most frequent tag of every training token.

Usage: memoriser.py --train FILE --test FILE --out FILE [--seed S] [--format conll|jsonl] [--dev FILE]

An unknown token gets ``O``; with a seed other than 0, every unknown token whose hash with the seed is odd gets
the training data's most frequent non-``O`` tag instead, so two seeds tag differently where the memory is silent.
TAGGER_FAIL (a substring of the test file's path) makes it fail there with exit status 3; TAGGER_SLEEP sleeps
that many seconds first; TAGGER_GARBAGE writes a malformed prediction file. ``--dev`` reads a development file
and says on stderr how many sentences and tagged tokens it held (it tags as without one).
"""

import argparse
import json
import os
import sys
import time
import zlib
from collections import Counter, defaultdict


def read(path, fmt):
    sents = []
    with open(path, encoding="utf-8") as f:
        if fmt == "jsonl":
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    sents.append(list(zip(row["tokens"], row["tags"])))
            return sents
        cur = []
        for line in f:
            parts = line.split()
            if not parts:
                if cur:
                    sents.append(cur)
                cur = []
                continue
            cur.append((parts[0], parts[-1]))
        if cur:
            sents.append(cur)
    return sents


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--format", default="conll")
    ap.add_argument("--dev", default=None)
    args = ap.parse_args()
    if args.dev is not None:
        dev = read(args.dev, args.format)
        print(f"dev: {len(dev)} sentences, {sum(t != 'O' for s in dev for _, t in s)} tagged tokens", file=sys.stderr)
    if os.environ.get("TAGGER_SLEEP"):
        time.sleep(float(os.environ["TAGGER_SLEEP"]))
    fail = os.environ.get("TAGGER_FAIL")
    if fail and fail in args.test:
        print("loading the training file", file=sys.stderr)
        print(f"RuntimeError: cannot tag {args.test}", file=sys.stderr)
        sys.exit(3)
    counts = defaultdict(Counter)
    for sent in read(args.train, args.format):
        for tok, tag in sent:
            counts[tok][tag] += 1
    tags = Counter(t for c in counts.values() for t, n in c.items() for _ in range(n) if t != "O")
    fallback = tags.most_common(1)[0][0] if tags else "O"
    with open(args.out, "w", encoding="utf-8") as out:
        if os.environ.get("TAGGER_GARBAGE"):
            out.write("this is not a prediction file\n")
            return
        for sent in read(args.test, args.format):
            for tok, _ in sent:
                if tok in counts:
                    tag = counts[tok].most_common(1)[0][0]
                elif args.seed and zlib.crc32(f"{args.seed}:{tok}".encode()) % 2:
                    tag = fallback
                else:
                    tag = "O"
                out.write(f"{tok} {tag}\n")
            out.write("\n")


if __name__ == "__main__":
    main()
