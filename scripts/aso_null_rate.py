#!/usr/bin/env python3
"""Almost stochastic order on null pairs: how often the report's ASO section calls a side ahead where none is.

Reads the committed null units of ``textbcv calibrate`` (``docs/calibrate/*/units.jsonl``, the folders without
``-close``: one system against itself trained with other seeds, m = 3, every call false) and runs on each data
set's 2m per-fold counts exactly what the report runs: :class:`textbcv.report.sections.aso.AsoSection` (deep-
significance's ε_min in both directions on the per-fold F1, 1,000 bootstrap draws seeded by the data set's
index, α = 0.05, a side called ahead below 0.5). Beside it, the Bayes test's calls recorded in the same units.
No training; takes a minute or two. Writes the RESULTS.md section "Almost stochastic order on null pairs".

Usage: scripts/aso_null_rate.py [--results docs/RESULTS.md]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from textbcv.calibration.summary import rate  # noqa: E402
from textbcv.report.sections import SectionInput  # noqa: E402
from textbcv.report.sections.aso import AsoSection  # noqa: E402

from _results import ROOT, update_section  # noqa: E402

FIELDS = ("tp", "fp", "fn")


def calls(units_file: Path) -> dict:
    """The ASO and Bayes calls on every null unit of one calibration folder."""
    aso = {"A": 0, "B": 0}
    bayes = {"A": 0, "B": 0}
    n = 0
    for line in units_file.read_text(encoding="utf-8").splitlines():
        u = json.loads(line)
        counts = {side: [dict(zip(FIELDS, f)) for f in u["moments"][key]]
                  for side, key in (("A", "counts_a"), ("B", "counts_b"))}
        section = AsoSection.from_folds(SectionInput(len(counts["A"]) // 2, counts, alpha=0.05, seed=u["r"]))
        assert section is not None
        ahead = section.pairs[0].ahead
        if ahead is not None:
            aso[ahead] += 1
        if u["decision"] in ("B better", "A better"):
            bayes[u["decision"][0]] += 1
        n += 1
    return {"n": n, "aso": aso, "bayes": bayes}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--results", default=str(ROOT / "docs" / "RESULTS.md"))
    args = p.parse_args(argv)
    rows = []
    for folder in sorted((ROOT / "docs" / "calibrate").iterdir()):
        if folder.name.endswith("-close") or not (folder / "units.jsonl").exists():
            continue
        c = calls(folder / "units.jsonl")
        n = c["n"]
        rows.append(f"| {folder.name} | {n} | {rate(c['aso']['B'], n).words()} | {rate(c['aso']['A'], n).words()} "
                    f"| {rate(c['bayes']['B'], n).words()} | {rate(c['bayes']['A'], n).words()} |")
        print(rows[-1], flush=True)
    text = "\n".join([
        "## Almost stochastic order on null pairs",
        "",
        "Written by `scripts/aso_null_rate.py` from the committed null units of `textbcv calibrate` "
        "(`docs/calibrate/*/units.jsonl`; one system against itself with training seeds 1 and 2, m = 3, so every "
        "call is false; no training). On each data set's 6 per-fold counts it runs the report's almost-stochastic-"
        "order section (deep-significance's ε_min on the per-fold F1, both directions, 1,000 bootstrap draws "
        "seeded by the data set's index, α = 0.05; a side is called ahead when its ε_min is below 0.5); beside it "
        "the Bayes test's calls (P ≥ 0.95) recorded in the same units. Rates with Wilson 95% intervals.",
        "",
        "| calibration | R | ASO: seed 2 (B) ahead | ASO: seed 1 (A) ahead | Bayes: B better | Bayes: A better |",
        "|---|---|---|---|---|---|",
        *rows,
    ])
    update_section(args.results, "aso-null", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
