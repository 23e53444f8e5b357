#!/usr/bin/env python3
"""Split quality on the shared corpora: balanced BCV vs random m×2 CV, with the floor any BCV split has.

For CoNLL-2003 eng.train, UD English-EWT train and SIGHAN 2005 PKU test gold,
m = 15, seed 0, it builds

- ``bcv``           textbcv's default (balance label, lemma, length; duplicates share a block),
- ``bcv-apart``     the same with ``duplicates_together=False`` (``--keep-duplicates-apart``),
- ``random``        Dietterich's random m×2 CV,
- ``bcv-effort3``   the default with ``effort=3`` (``--effort 3``: three times the noising search),

and reports per measure the mean and max over the 15 halves of χ²/J, the
``chi2_floor`` of the BCV splits (no m = 15 BCV split keeping the same units
whole, with blocks as evenly filled, has a lower mean) and the issue-4 targets
(max ≤ 0.05 / 0.3 / 0.15 for label / lemma / length; mean ≥ 10× / 3× / 10×
below random's). Writes docs/split_quality.json and the ``split`` section of
docs/RESULTS.md.

Usage: scripts/split_quality.py [--m 15] [--seed 0] [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from textbcv.corpus import read_corpus
from textbcv.split import make_splits

from _results import ROOT, machine, update_section

CORPORA = {
    "CoNLL-2003 eng.train": (("conll2003_en", "eng.train"), "conll"),
    "UD English-EWT train": (("ud_english_ewt", "en_ewt-ud-train.conllu"), "conllu"),
    "SIGHAN 2005 PKU test gold": (("sighan2005_cws", "pku_test_gold.utf8"), "segmented"),
}
LIMIT = {"label": 0.05, "lemma": 0.3, "length": 0.15}
RATIO = {"label": 10.0, "lemma": 3.0, "length": 10.0}


def measure(shared: Path, m: int, seed: int) -> dict:
    out = {}
    for name, (parts, fmt) in CORPORA.items():
        corpus = read_corpus([shared.joinpath("corpora", *parts)], format=fmt)
        row = {"sentences": len(corpus)}
        for design, kw in (("bcv", {}), ("bcv-apart", {"duplicates_together": False}), ("random", {"method": "random"}),
                           ("bcv-effort3", {"effort": 3.0})):
            t = time.perf_counter()
            s = make_splits(corpus, m=m, seed=seed,
                            **{"balance": ("label", "lemma", "length"), "group_by": "sentence", **kw})
            q = s.quality
            row[design] = {
                "seconds": round(time.perf_counter() - t, 2),
                "overlap_max_deviation": q["overlap_max_deviation"],
                "chi2_per_df": {k: {"mean": round(float(np.mean(v)), 4), "max": round(float(np.max(v)), 4)}
                                for k, v in q["chi2_per_df"].items()},
                "chi2_floor": {k: round(v, 4) for k, v in q.get("chi2_floor", {}).items()},
            }
            if design == "bcv":
                row["units"] = int(q["overlap"].get("units_placed", len(corpus)))
        out[name] = row
    return out


def markdown(res: dict, m: int, seed: int, info: dict) -> str:
    lines = [
        "## Split quality (issue 4 targets)",
        "",
        f"`scripts/split_quality.py` — m = {m}, seed {seed}; measured {info['date']} on {info['nproc']} CPUs "
        f"(load average {', '.join(map(str, info['loadavg']))}). χ²/J per half (docs/method.md §3, categories with "
        "an expected count below 5 pooled), mean / max over the halves; **floor** = `chi2_floor`: no m×2 BCV "
        "split keeping the same units whole, with blocks as evenly filled, has a lower *mean* (so neither a "
        "lower max). Targets: max ≤ 0.05 (label), 0.3 (lemma), 0.15 (length); mean ≥ 10× (label, length) and "
        "3× (lemma) below random's. ✓ / ✗ = target met or not.",
        "",
        "| corpus | measure | bcv mean / max | floor | bcv, duplicates apart: mean / max | floor | random mean / max |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, row in res.items():
        for k in ("label", "lemma", "length"):
            cells = []
            for design in ("bcv", "bcv-apart"):
                c = row[design]["chi2_per_df"][k]
                r = row["random"]["chi2_per_df"][k]
                ok = c["max"] <= LIMIT[k] and r["mean"] >= RATIO[k] * c["mean"]
                cells.append(f"{c['mean']:.3f} / {c['max']:.3f} {'✓' if ok else '✗'}")
                cells.append(f"{row[design]['chi2_floor'].get(k, float('nan')):.3f}")
            r = row["random"]["chi2_per_df"][k]
            lines.append(f"| {name} | {k} | " + " | ".join(cells) + f" | {r['mean']:.3f} / {r['max']:.3f} |")
    lines += ["", "| corpus | sentences | units (duplicates grouped) | max \\|φ − n/4\\| bcv / apart / random | "
              "seconds bcv / apart |", "|---|---|---|---|---|"]
    for name, row in res.items():
        lines.append(f"| {name} | {row['sentences']:,} | {row['units']:,} | "
                     f"{row['bcv']['overlap_max_deviation']:g} / {row['bcv-apart']['overlap_max_deviation']:g} / "
                     f"{row['random']['overlap_max_deviation']:g} | {row['bcv']['seconds']} / "
                     f"{row['bcv-apart']['seconds']} |")
    lines += ["", "More search (`--effort 3`, duplicates together): χ²/J mean / max per measure, and seconds.", "",
              "| corpus | label | lemma | length | seconds |", "|---|---|---|---|---|"]
    for name, row in res.items():
        c = row["bcv-effort3"]["chi2_per_df"]
        cells = []
        for k in ("label", "lemma", "length"):
            r = row["random"]["chi2_per_df"][k]
            ok = c[k]["max"] <= LIMIT[k] and r["mean"] >= RATIO[k] * c[k]["mean"]
            cells.append(f"{c[k]['mean']:.3f} / {c[k]['max']:.3f} {'✓' if ok else '✗'}")
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {row['bcv-effort3']['seconds']} |")
    lines += [
        "",
        "Reading: with duplicates allowed apart, every target holds on CoNLL and EWT. With the default "
        "(exact duplicate sentences share a block, so none is trained on and tested at once) the lemma "
        "maximum is at or above 0.3 — CoNLL reaches it only with three times the search (`--effort 3`), EWT "
        "not: a duplicate group puts all its lemmas into one block, and the floor shows how much of the χ² "
        "that forces whatever the balancing. On PKU the units are whole paragraphs "
        "(≈ 54 words) that repeat their topic words, so a paragraph alone often holds more than 1/16 of a "
        "word's occurrences; and 11 identical lines “图片：” hold 11 of the 17 three-character lines, "
        "so the length floor (0.27) is above the 0.15 target for any split that keeps them together.",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--m", type=int, default=15)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    a = ap.parse_args(argv)
    res = measure(a.shared, a.m, a.seed)
    info = machine()
    (ROOT / "docs" / "split_quality.json").write_text(
        json.dumps({"m": a.m, "seed": a.seed, "machine": info, "corpora": res}, indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8")
    text = markdown(res, a.m, a.seed, info)
    update_section(ROOT / "docs" / "RESULTS.md", "split", text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
