#!/usr/bin/env python3
"""Designs side by side: the fixed split against m×2 BCV (m = 3 and the default), every test, every corpus.

Reads committed units only (no training):

- the fixed split: ``docs/fixed_study.json`` (``scripts/fixed_study.py``: null pairs, a CRF against itself with
  seeds of each data set's own, three a side; close pairs with their truth on the rest of the corpus);
- m×2 BCV, textbcv's posterior: ``docs/design_study.json`` (``scripts/design_study.py``), design ``m3`` on the
  ``textbcv calibrate`` folders at m = 3 and the default design (:data:`DEFAULT`: m = 3, extended to 7 where the
  models' noise came out floored or P(better) lies in [0.90, 0.99)) on the folders run at m = 7; its close pairs are
  the real-text pools' scheme pairs and the calibrate close folders;
- m×2 BCV, the field's tests, on the same null units' per-fold counts (``docs/calibrate/*/units.jsonl``) at the m
  where the design decides: almost stochastic order over the 2m per-fold F1 (the report's section: ε_min < 0.5) and
  the paired t-test over them (p < 0.05), the tests the field runs on cross-validation folds. The paired bootstrap and
  approximate randomization test one split's predictions; the m×2 units keep per-fold counts, not predictions, so
  those cells are empty for m×2 (their rows under the fixed split are the same tests on one seed's predictions).

Writes ``docs/design_table.json`` and the RESULTS.md section "Designs side by side".

Usage::

    scripts/design_table.py
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from scipy import stats as sst

sys.path.insert(0, str(Path(__file__).resolve().parent))

from design_study import run_design, unit_record  # noqa: E402

from textbcv.calibration.summary import rate  # noqa: E402
from textbcv.report.sections import SectionInput  # noqa: E402
from textbcv.report.sections.aso import AsoSection  # noqa: E402
from textbcv.stats.sequential import MEASURED_BAND  # noqa: E402

from _results import ROOT, update_section, write_json  # noqa: E402

DEFAULT = f"extend-floored-{MEASURED_BAND[0]:.2f}-{MEASURED_BAND[1]:.2f}"
CORPORA = {"conll2003_en": ("CoNLL-2003 English NER", "conll"), "conll2002_es": ("CoNLL-2002 Spanish NER", None),
           "sighan2005_msr": ("SIGHAN 2005 MSR segmentation", "msr")}
#: test key -> label, in the table's order
TESTS = {"posterior": "textbcv's posterior (P ≥ 0.95)", "bootstrap": "paired bootstrap, one seed (p < 0.05)",
         "randomization": "approximate randomization, one seed (p < 0.05)",
         "aso": "almost stochastic order (ε_min < 0.5)", "t": "t-test on per-run F1 (p < 0.05)"}
FIELDS = ("tp", "fp", "fn")


def _f1(c: np.ndarray) -> np.ndarray:
    d = 2 * c[:, 0] + c[:, 1] + c[:, 2]
    return np.divide(2 * c[:, 0], d, out=np.zeros(len(c)), where=d > 0)


def field_calls(unit: dict, m: int) -> dict:
    """ASO and the paired t-test on the first 2m per-fold F1 of one calibrate unit: ``"A"``, ``"B"`` or None."""
    mo = unit["moments"]
    ca, cb = (np.asarray(mo[k], dtype=float)[: 2 * m] for k in ("counts_a", "counts_b"))
    counts = {side: [dict(zip(FIELDS, map(int, f))) for f in c] for side, c in (("A", ca), ("B", cb))}
    section = AsoSection.from_folds(SectionInput(m, counts, alpha=0.05, seed=int(unit["r"])))
    assert section is not None
    d = _f1(cb) - _f1(ca)
    t_call = None
    if np.std(d) > 0:
        p = float(sst.ttest_1samp(d, 0.0).pvalue)
        t_call = ("B" if d.mean() > 0 else "A") if p < 0.05 else None
    return {"aso": section.pairs[0].ahead, "t": t_call}


def mx2_field(folder: Path, design: str) -> dict | None:
    """The field's tests on one calibrate folder's null units at the m where ``design`` decides each."""
    path = folder / "units.jsonl"
    if not path.exists():
        return None
    settings = json.loads((folder / "settings.json").read_text(encoding="utf-8"))["settings"]
    m_run = int(settings["m"])
    units = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t.strip()]
    calls = [field_calls(u, run_design(design, unit_record(u, m_run))[0]) for u in units]
    n = len(calls)
    return {t: {side: rate(sum(c[t] == side for c in calls), n).to_dict() for side in ("A", "B")}
            for t in ("aso", "t")}


def _row(rows: list[dict], source: str, pair: str, design: str) -> dict | None:
    return next((r for r in rows if r["source"] == source and r["pair"] == pair and r["design"] == design), None)


def build(docs: Path) -> dict:
    """Every (corpus, design) entry: null calls each way per test, and the close pair's coverage and power."""
    fixed = json.loads((docs / "fixed_study.json").read_text(encoding="utf-8"))
    ds = json.loads((docs / "design_study.json").read_text(encoding="utf-8"))["rows"]
    out: dict = {"default": DEFAULT, "corpora": {}}
    for name, (label, pool) in CORPORA.items():
        entry: dict = {"label": label, "designs": {}}
        fn, fc = fixed["null"].get(name), fixed["close"].get(name)
        entry["designs"]["fixed"] = {
            "null": None if fn is None else {"R": fn["R"], "tests": {
                t: fn["tests"].get("welch" if t == "t" else t) for t in TESTS}},
            "close": None if fc is None else {"R": fc["R"], "pair": fc["pair"], "source": "fixed_study --close",
                                              "coverage": fc["coverage"], "tests": {
                t: fc["tests"].get("welch" if t == "t" else t) for t in TESTS}}}
        for design, folder in (("m3", name), (DEFAULT, f"{name}-m7")):
            null = _row(ds, folder, "null", design)
            field = mx2_field(docs / "calibrate" / folder, design) if null else None
            tests: dict = {t: None for t in TESTS}
            if null:
                tests["posterior"] = {"A": null["calls_a"], "B": null["calls_b"]}
                tests.update(field or {})
            close_src = [(pool, "scheme")] if pool else []
            close_src.append((f"{name}-close", next((r["pair"] for r in ds if r["source"] == f"{name}-close"), "")))
            close = next((c for c in (_row(ds, s, p, design) for s, p in close_src) if c and "coverage" in c), None)
            entry["designs"][design] = {
                "null": None if null is None else {"R": null["R"], "source": f"calibrate/{folder}",
                                                   "folds_mean": null["folds_mean"], "tests": tests},
                "close": None if close is None else {
                    "R": close["R"], "source": close["label"], "pair": close["pair"], "coverage": close["coverage"],
                    "tests": {"posterior": {"right": close["power"], "wrong": close["wrong_way"]}}}}
        out["corpora"][name] = entry
    return out


def _cell(x: dict | None) -> str:
    return "—" if x is None else f"{100 * x['rate']:.1f}% [{100 * x['lo']:.1f}, {100 * x['hi']:.1f}]"


DESIGN_LABEL = {"fixed": "fixed split (3 seeds a side)", "m3": "m×2 BCV, m = 3"}


def render(t: dict) -> str:
    """The RESULTS.md section."""
    lines = ["## Designs side by side", "",
             "Written by `scripts/design_table.py` from committed units (no training). Three designs: the fixed "
             "split (`textbcv compare --train/--test`, three training seeds a side; `scripts/fixed_study.py`), m×2 "
             "BCV at m = 3, and m×2 BCV as `textbcv compare` runs it by default (m = 3, extended to 7 where the "
             "models' noise came out floored or P(better) lies in [0.90, 0.99); `scripts/design_study.py`). Null "
             "pairs: a CRF against itself with other seeds, so every call is false (target ≤ 5% each way); the "
             "m×2 null pairs are the `textbcv calibrate` folders (one seed a side, 1,000-sentence data sets), the "
             "fixed split's are 1,250-sentence data sets cut in the official split's proportion. Close pairs: two "
             "tagging schemes with a truth measured on the rest of the corpus (the m×2 ones: the real-text pools' "
             "scheme pairs, or `calibrate --close`); coverage is the 95% interval's, widened by the truth's noise; "
             "power is calls on the truth's side, wrong calls against it. The paired bootstrap and approximate "
             "randomization test one split's predictions, which the m×2 units do not keep: their m×2 rows are "
             "left out. Under m×2 the "
             "t-test and almost stochastic order run on the 2m per-fold F1 (the t-test paired, over folds); under "
             "the fixed split on the seeds' F1 (Welch, the seeds unpaired). Rates with Wilson 95% intervals; R is "
             "the number of data sets.", "",
             "| corpus | design | test | null R | null: A called better | null: B called better | close R | "
             "coverage | power | wrong |", "|---|---|---|---:|---|---|---:|---|---|---|"]
    for entry in t["corpora"].values():
        for design, d in entry["designs"].items():
            label = DESIGN_LABEL.get(design, "m×2 BCV, default (m = 3 → 7)")
            null, close = d["null"], d["close"]
            for key, name in TESTS.items():
                n = None if null is None else null["tests"].get(key)
                c = None if close is None else close["tests"].get(key)
                if n is None and c is None and design != "fixed":
                    continue  # a test the design's units cannot run: said once, above
                lines.append(
                    f"| {entry['label']} | {label} | {name} | {'' if null is None else null['R']} | "
                    f"{_cell(n and n['A'])} | {_cell(n and n['B'])} | {'' if close is None else close['R']} | "
                    f"{_cell(close['coverage']) if close and key == 'posterior' else '—'} | "
                    f"{_cell(c and c['right'])} | {_cell(c and c['wrong'])} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=Path, default=ROOT / "docs", help="the evidence folder (default docs/)")
    ap.add_argument("--print", action="store_true", help="print the section; write nothing")
    args = ap.parse_args(argv)
    table = build(args.docs)
    text = render(table)
    if args.print:
        print(text)
        return 0
    write_json(args.docs / "design_table.json", table)
    update_section(args.docs / "RESULTS.md", "design-table", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
