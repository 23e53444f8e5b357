#!/usr/bin/env python3
"""Outside check of `textbcv score` against conlleval.pl itself, on perturbed real corpora.

conlleval.pl (Erik Tjong Kim Sang, version 2004-01-26) is not part of this repository. Given its
path, this script builds the check files below from ../shared/corpora (deterministically, numpy seed
per file), runs conlleval.pl and `textbcv score` on each, compares the two text reports byte for
byte, and writes conlleval.pl's output to tests/data/conlleval_golden/NAME.txt. The test
tests/test_conlleval_golden.py rebuilds the same files and checks textbcv against those outputs,
so the check runs wherever the shared corpora are, with or without Perl.

Check files (token, gold tag, predicted tag; one space between columns as conlleval.pl needs):

- ``conll-testa-iob1``, ``conll-testb-iob1``: CoNLL-2003 eng.testa/eng.testb as distributed (IOB1,
  -DOCSTART- lines kept: conlleval counts them as tokens), predictions perturbed;
- ``conll-testb-iob2``, ``conll-testb-iobes``: eng.testb re-encoded (chunks read here, not by textbcv);
- ``gsd-iobes``: UD Chinese-GSD dev, characters tagged B-W/I-W/E-W/S-W by word;
- ``gsd-bmes``: the same words as bare B/M/E/S tags (conlleval's rules know no ``M``: a stress case);
- ``ewt-iob2``: UD English-EWT dev, runs of equal UPOS as IOB2 chunks of that type.

Perturbation (per token, seeded): with probability 0.12 the predicted tag is replaced by a tag drawn
uniformly from the file's tag set (all prefixes × all types, and O), so chunks get wrong types,
wrong boundaries, orphan continuations and spurious chunks.

Usage: scripts/conlleval_check.py --conlleval /path/to/conlleval.pl [--write]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"
GOLDEN = ROOT / "tests" / "data" / "conlleval_golden"
RATE = 0.12


def _conll_sentences(path: Path) -> list[list[tuple[str, str]]]:
    """(token, NER tag) per sentence of a CoNLL-2003 file; a -DOCSTART- line is a one-token sentence."""
    out, cur = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        f = line.split()
        if not f:
            if cur:
                out.append(cur)
            cur = []
            continue
        cur.append((f[0], f[-1]))
    if cur:
        out.append(cur)
    return out


def _iob1_spans(tags: list[str]) -> list[tuple[int, int, str]]:
    """Chunks of an IOB1 sequence (an I- after O or after another type starts a chunk; B- always does)."""
    spans, start, typ = [], None, None
    for i, t in enumerate(tags + ["O"]):
        p, _, ty = t.partition("-")
        if start is not None and (t == "O" or p == "B" or ty != typ):
            spans.append((start, i, typ))
            start = None
        if t != "O" and start is None:
            start, typ = i, ty
    return spans


def _encode(n: int, spans, scheme: str) -> list[str]:
    tags = ["O"] * n
    for s, e, ty in spans:
        suf = f"-{ty}" if ty else ""
        if scheme == "iob2":
            tags[s:e] = [f"B{suf}"] + [f"I{suf}"] * (e - s - 1)
        elif scheme == "iobes":
            tags[s:e] = [f"S{suf}"] if e - s == 1 else [f"B{suf}"] + [f"I{suf}"] * (e - s - 2) + [f"E{suf}"]
        elif scheme == "bmes":
            tags[s:e] = ["S"] if e - s == 1 else ["B"] + ["M"] * (e - s - 2) + ["E"]
        else:
            raise ValueError(scheme)
    return tags


def _conllu_words(path: Path):
    """(forms, upos) per sentence of a CoNLL-U file, read with the `conllu` library."""
    import conllu

    for s in conllu.parse(path.read_text(encoding="utf-8")):
        words = [t for t in s if isinstance(t["id"], int)]
        yield [t["form"].replace(" ", "_") for t in words], [t["upos"] for t in words]


def gold_files(shared: Path = SHARED) -> dict[str, list[list[tuple[str, str]]]]:
    """Every check file's gold: sentences of (token, gold tag)."""
    out: dict[str, list[list[tuple[str, str]]]] = {}
    c = shared / "conll2003_en"
    out["conll-testa-iob1"] = _conll_sentences(c / "eng.testa")
    testb = _conll_sentences(c / "eng.testb")
    out["conll-testb-iob1"] = testb
    for scheme in ("iob2", "iobes"):
        sents = []
        for s in testb:
            toks, tags = [t for t, _ in s], [g for _, g in s]
            sents.append(list(zip(toks, _encode(len(toks), _iob1_spans(tags), scheme))))
        out[f"conll-testb-{scheme}"] = sents
    gsd = list(_conllu_words(shared / "ud_chinese_gsd" / "zh_gsd-ud-dev.conllu"))
    for scheme, name in (("iobes", "gsd-iobes"), ("bmes", "gsd-bmes")):
        sents = []
        for forms, _ in gsd:
            chars, spans, i = [], [], 0
            for w in forms:
                chars.extend(w)
                spans.append((i, i + len(w), "W" if scheme == "iobes" else ""))
                i += len(w)
            sents.append(list(zip(chars, _encode(len(chars), spans, scheme))))
        out[name] = sents
    sents = []
    for forms, upos in _conllu_words(shared / "ud_english_ewt" / "en_ewt-ud-dev.conllu"):
        spans, s = [], 0
        for i in range(1, len(upos) + 1):
            if i == len(upos) or upos[i] != upos[s]:
                spans.append((s, i, upos[s]))
                s = i
        sents.append(list(zip(forms, _encode(len(forms), spans, "iob2"))))
    out["ewt-iob2"] = sents
    return out


def check_text(name: str, sents: list[list[tuple[str, str]]]) -> str:
    """The check file: gold kept, predictions perturbed with a seed fixed by the file's name."""
    tagset = sorted({g for s in sents for _, g in s} | {"O"})
    prefixes = sorted({g.partition("-")[0] for g in tagset if g != "O"})
    types = sorted({g.partition("-")[2] for g in tagset if g != "O"})
    choices = ["O"] + [f"{p}-{t}" if t else p for p in prefixes for t in types]
    rng = np.random.default_rng([2026, 11, 23, sum(map(ord, name))])
    lines = []
    for s in sents:
        flip = rng.random(len(s)) < RATE
        pick = rng.integers(0, len(choices), size=len(s))
        for (tok, g), f, k in zip(s, flip, pick):
            lines.append(f"{tok} {g} {choices[k] if f else g}")
        lines.append("")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--conlleval", required=True, help="path of conlleval.pl (not shipped with textbcv)")
    ap.add_argument("--write", action="store_true", help=f"write conlleval.pl's outputs to {GOLDEN}")
    ap.add_argument("--tmp", default="/tmp/textbcv-conlleval-check")
    args = ap.parse_args(argv)
    tmp = Path(args.tmp)
    tmp.mkdir(parents=True, exist_ok=True)
    bad = 0
    for name, sents in gold_files().items():
        f = tmp / f"{name}.txt"
        f.write_text(check_text(name, sents), encoding="utf-8")
        with open(f, "rb") as fh:
            ref = subprocess.run(["perl", args.conlleval], stdin=fh, capture_output=True, check=True).stdout
        ours = subprocess.run([sys.executable, "-m", "textbcv", "score", str(f)], capture_output=True).stdout
        same = ref == ours
        bad += not same
        print(f"{name}: {sum(map(len, sents)):,} tokens; conlleval.pl: {ref.decode().splitlines()[0]} "
              f"-> {'identical' if same else 'DIFFERENT'}")
        if not same:
            print(ref.decode(), ours.decode(), sep="\n--- textbcv ---\n")
        if args.write:
            GOLDEN.mkdir(parents=True, exist_ok=True)
            (GOLDEN / f"{name}.txt").write_bytes(ref)
    print(f"{bad} of the check files differ")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
