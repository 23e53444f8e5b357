#!/usr/bin/env python3
"""Null pairs across corpora: how often the hierarchical answer of ``textbcv test RUN1 RUN2 RUN3`` calls a
difference where there is none, from the pairs study's committed null pairs.

The pairs study (``scripts/real_text_pairs.py``) ran an averaged-perceptron CRF against itself with another
training seed on many data sets of CoNLL-2003 (by document) and SIGHAN 2005 MSR; each data set's paired
posterior of ΔF1 at m = 3 is rebuilt from its committed unit, and groups of three data sets stand for three
corpora: one CoNLL and two MSR data sets while CoNLL's last, then three MSR ones. Per group: the hierarchical
answer (:func:`textbcv.stats.hierarchical.hierarchical`, rope 0.5 points, the CLI's default prior), whether it
called B or A better at P ≥ 0.95, and P(equivalent). This is an interim check, not the study the answer needs:
the groups mix a NER and a word-segmentation pool, and MSR's data sets overlap (1,000 of 3,985 sentences each),
so its groups are not independent corpora. Written to ``docs/corpora_null.json`` and the RESULTS.md section
"Null pairs across corpora"; takes seconds.

Usage: scripts/corpora_null_check.py [--out docs] [--results docs/RESULTS.md]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from scipy import stats as sst

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_text_pairs_summary as summ  # noqa: E402
import real_text_study as rts  # noqa: E402

from textbcv.stats.hierarchical import hierarchical  # noqa: E402

from _results import ROOT, update_section, write_json  # noqa: E402

M = 3
ROPE = 0.005
THRESHOLD = 0.95


def null_posteriors(units_dir: Path, pool: str) -> list:
    """The null pair's paired posterior at m = 3 of every committed data set of ``pool``, in data set order."""
    path = units_dir / f"pairs-{pool}.jsonl"
    if not path.exists():
        return []
    merged = rts.merge_lines(rts.load_lines(path))
    out = []
    for _r, x in sorted(merged.items()):
        pieces = x.get("pieces", {})
        if "null" in pieces.get("folds", {}).get("xprod", {}) and summ.has_present(pieces, "null"):
            out.append(summ.textbcv_posterior(pieces, "base", "seed1", "null", M))
    return out


def groups_of(conll: list, msr: list) -> list[tuple[str, list]]:
    """Groups of three posteriors: one CoNLL and two MSR ones while CoNLL's last, then three MSR ones."""
    out, j = [], 0
    for c in conll:
        if j + 2 > len(msr):
            break
        out.append(("conll+msr+msr", [c, msr[j], msr[j + 1]]))
        j += 2
    while j + 3 <= len(msr):
        out.append(("msr+msr+msr", msr[j:j + 3]))
        j += 3
    return out


def _binom(k: int, n: int) -> dict:
    ci = sst.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson") if n else None
    return {"k": k, "n": n, "rate": k / n if n else None, "lo": None if ci is None else float(ci.low),
            "hi": None if ci is None else float(ci.high)}


def check(units_dir: Path) -> dict:
    """Calls and P(equivalent) of the hierarchical answer over every group (see the module docstring)."""
    groups = groups_of(null_posteriors(units_dir, "conll"), null_posteriors(units_dir, "msr"))
    rows = []
    for kind, ps in groups:
        y = [p.estimate for p in ps]
        s = [p.sd * (sst.t.ppf(0.975, p.df) / sst.norm.ppf(0.975) if np.isfinite(p.df) else 1.0) for p in ps]
        h = hierarchical(y, s, ["1", "2", "3"], rope=ROPE)
        rows.append({"kind": kind, "p_b": h.p_b_better, "p_a": h.p_a_better, "p_eq": h.p_equivalent})
    n = len(rows)
    return {"groups": n, "by_kind": {k: sum(r["kind"] == k for r in rows) for k in ("conll+msr+msr", "msr+msr+msr")},
            "rope_points": 100 * ROPE, "threshold": THRESHOLD,
            "calls_b": _binom(sum(r["p_b"] >= THRESHOLD for r in rows), n),
            "calls_a": _binom(sum(r["p_a"] >= THRESHOLD for r in rows), n),
            "equivalent_at_0.9": _binom(sum(r["p_eq"] >= 0.9 for r in rows), n),
            "p_eq_median": float(np.median([r["p_eq"] for r in rows])) if rows else None}


def render(result: dict) -> str:
    def pct(x: dict) -> str:
        return "–" if x["rate"] is None else f"{100 * x['rate']:.1f}% [{100 * x['lo']:.1f}, {100 * x['hi']:.1f}]"

    return "\n".join([
        "## Null pairs across corpora (interim)", "",
        "Written by `scripts/corpora_null_check.py` from the pairs study's committed null pairs (an averaged-"
        "perceptron CRF against itself with another training seed, m = 3): groups of three data sets stand for "
        "three corpora and get the hierarchical answer of `textbcv test RUN1 RUN2 RUN3` (rope 0.5 points, prior "
        "scale 1 point). Interim: the groups mix CoNLL-2003 and SIGHAN MSR, and MSR's data sets overlap, so they "
        "are not independent corpora; the study the target asks for (three NER corpora, a stochastic tagger) is "
        "still to run.", "",
        "| groups | B called better | A called better | P(equivalent) ≥ 0.9 | median P(equivalent) |",
        "|---|---|---|---|---|",
        f"| {result['groups']} ({result['by_kind']['conll+msr+msr']} CoNLL+MSR+MSR, "
        f"{result['by_kind']['msr+msr+msr']} MSR×3) | {pct(result['calls_b'])} | {pct(result['calls_a'])} | "
        f"{pct(result['equivalent_at_0.9'])} | "
        f"{'–' if result['p_eq_median'] is None else format(result['p_eq_median'], '.3f')} |", ""])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", default=str(ROOT / "docs" / "real_text_study"), help="the pairs study's units")
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder of corpora_null.json")
    ap.add_argument("--results", default=None, help="RESULTS.md to update (default OUT/RESULTS.md)")
    args = ap.parse_args(argv)
    result = check(Path(args.units))
    result["meta"] = {"command": "scripts/corpora_null_check.py", "m": M}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / "corpora_null.json", result)
    update_section(Path(args.results) if args.results else out / "RESULTS.md", "corpora-null", render(result))
    print(json.dumps({k: v for k, v in result.items() if k != "meta"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
