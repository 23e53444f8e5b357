#!/usr/bin/env python3
"""Candidate designs that decide only on measured model noise, evaluated offline on the committed units.

At m = 3 the model-noise part of textbcv's paired posterior rests on 5 degrees of freedom and is floored at 0 in a
share of runs; calls made there are false more often than P says (issue 57). This study asks, from the units the
other studies committed (no training), which design keeps every call on a variance the run measured, at the least
compute. The designs, each decided by textbcv's rule (:func:`textbcv.stats.bayes.decide` at P ≥
:data:`textbcv.stats.bayes.THRESHOLD`, either way) on textbcv's own posterior at the m where the design stops:

``m3``                     m = 3, as today;
``m7``                     m = 7 always;
``extend-floored``         m = 3, extended to m = 7 (nested: the first 3 splits of the 7 are the m = 3 run, so its
                           6 folds are kept) when the model-noise part is floored at m = 3;
``extend-floored-LO-HI``   the same, and also when the larger of P(B better), P(A better) lies in [LO, HI) at m = 3
                           (a band near the threshold and its mirror);
``sequential-bayes``       ``compare --sequential --m-max 7 --stop bayes``: a look at every m from 3 to 7, stopping
                           when P(better) reaches :func:`textbcv.stats.sequential.look_threshold` (the threshold
                           corrected for the 5 looks), the call at P ≥ the threshold where it stopped;
``sequential-bayes-strict`` the same with every look's call, m = 7's included, at the corrected threshold;
``sequential-t-test``      ``compare --sequential --m-max 7`` (stop rule ``t-test``): stop when the sequential t-test
                           decides, the call by the Bayes rule where it stopped;
``abstain-floored``        m = 3, "not decided: the folds could not measure the models' noise" when it is floored.

Sources: the real-text study's pools (``docs/real_text_study/pairs-POOL.jsonl``: nested m = 7 folds of every data
set, null pairs and close pairs with a truth; textbcv's posterior recomputed from the fold moments by
``real_text_pairs_summary.textbcv_posterior``, the path ``real_text_pairs.py --check-compare`` checked against
``textbcv.compare``), and every ``textbcv calibrate`` folder under ``docs/calibrate/`` with one seed per side (its
units' moments, :func:`textbcv.calibration.moments.posterior_from_moments`); those hold m = 3 units, so only the
designs that never go past m = 3 are evaluated there (a folder run with ``--m 7`` gives every design). Per design,
source and pair: calls each way (Wilson 95% intervals, :func:`textbcv.calibration.summary.rate`), over all data sets
and over those floored at m = 3, abstentions, and on pairs with a truth the power (calls in the direction of the
pool's true difference), the coverage of the deciding posterior's 95% interval widened by the truth's noise
(:func:`textbcv.calibration.summary.covers`; 90% beside it: the interval the one-sided rule decides by) and the mean
folds trained per system. Then the issue's targets per design, and the design that meets them with the least folds.

Each data set's posteriors are kept under ``--work`` (one line per source, pair and data set, keyed by the unit's
text and the posterior model), so an interrupted run resumes and a grown source adds only its new units.

    scripts/design_study.py                       # every committed unit: docs/design_study.json, RESULTS.md
    scripts/design_study.py --smoke --out DIR     # the first 12 data sets of each source
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_text_pairs_summary as summ  # noqa: E402
import real_text_study as rts  # noqa: E402
from calibration_corpora import CORPORA  # noqa: E402
from real_text_pairs import PAIRS  # noqa: E402

from textbcv.calibration.moments import posterior_from_moments  # noqa: E402
from textbcv.calibration.summary import Rate, covers, rate  # noqa: E402
from textbcv.defaults import PAIRED_POSTERIOR  # noqa: E402
from textbcv.stats.bayes import THRESHOLD, decide  # noqa: E402
from textbcv.stats.sequential import SequentialPair, look_threshold  # noqa: E402

from _results import ROOT, append_line, atomic_write, update_section, write_json  # noqa: E402

POOL_LABEL = {"conll": "CoNLL-2003 (real-text pool, documents)", "msr": "SIGHAN 2005 MSR (real-text pool, sentences)"}
#: pairs with a truth that are not close (the real-text study's default pair, several points apart): shown, not targeted
NOT_CLOSE = ("default",)
M0, M_MAX = 3, 7
BANDS = ((0.80, 0.95), (0.70, 0.95), (0.90, 0.99), (0.80, 0.99))
LOOKS = M_MAX - M0 + 1
SMOKE_LIMIT = 12
#: the issue's targets: null calls each way, its Wilson upper bound at R ≥ 200, the close pairs' coverage band
NULL_MAX, NULL_HI_MAX, NULL_HI_R = 0.05, 0.075, 200
COVERAGE_BAND = (0.93, 0.975)
ABSTAIN = "not decided"
#: bumped when a record's content changes, so that older cached records are made again
RECORD_VERSION = 2


def _design_names() -> list[str]:
    bands = [f"extend-floored-{lo:.2f}-{hi:.2f}" for lo, hi in BANDS]
    return ["m3", "m7", "extend-floored", *bands, "sequential-bayes", "sequential-bayes-strict", "sequential-t-test",
            "abstain-floored"]


DESIGNS = _design_names()
#: the designs that never look past m = 3 (all a source of m = 3 units gives)
M3_ONLY = ("m3", "abstain-floored")


def _posterior_entry(p) -> dict:
    """What a design needs of one posterior: its estimate, scale, df, model-noise part and P(B better)."""
    return {"estimate": p.estimate, "sd": p.sd, "df": None if not np.isfinite(p.df) else p.df,
            "var_model": p.var_model, "p_b": p.prob_better()["p_b_better"]}


def _t_test(counts_a, counts_b, m_run: int) -> dict:
    """Where the sequential t-test on the per-fold ΔF1 stands at every m from 3 to 7 (``ahead``: "B", "A" or None);
    empty when the folds do not reach m = 7."""
    if m_run < M_MAX:
        return {}
    ca, cb = np.asarray(counts_a, dtype=float), np.asarray(counts_b, dtype=float)
    return {str(m): SequentialPair.of("A", "B", (rts.f1_of(cb[: 2 * m]) - rts.f1_of(ca[: 2 * m])).reshape(m, 2),
                                      m_start=M0, M=M_MAX).ahead for m in range(M0, M_MAX + 1)}


def pool_record(pieces: dict, a: str, b: str, pair: str, truth: tuple[float, float] | None) -> dict:
    """One pool data set's pair: textbcv's posterior at every m from 3 to 7 (the first 2m of the nested folds) and
    where the sequential t-test decided."""
    fo = pieces["folds"]
    return {"truth": truth, "m": {str(m): _posterior_entry(summ.textbcv_posterior(pieces, a, b, pair, m))
                                  for m in range(M0, M_MAX + 1)},
            "t_test": _t_test(fo["counts"][a], fo["counts"][b], M_MAX)}


def unit_record(unit: dict, m_run: int) -> dict:
    """One ``textbcv calibrate`` unit: its posterior at every m its folds give (3 … the run's m, nested), and the
    sequential t-test where they reach m = 7."""
    truth = (unit["truth"], unit["truth_noise"]) if unit.get("kind") == "close" else (0.0, 0.0)
    mo = unit["moments"]
    return {"truth": truth, "m": {str(m): _posterior_entry(posterior_from_moments(mo, m))
                                  for m in range(M0, m_run + 1)},
            "t_test": _t_test(mo["counts_a"], mo["counts_b"], m_run)}


def _key(*texts: str) -> str:
    h = hashlib.sha256(f"{RECORD_VERSION} {PAIRED_POSTERIOR}".encode())
    for t in texts:
        h.update(b"\0" + t.encode("utf-8"))
    return h.hexdigest()[:20]


class Cache:
    """The records of one source kept under the work folder: (pair, r) → (key, record), the last line winning."""

    def __init__(self, path: Path):
        self.path = path
        self.have: dict[tuple[str, int], tuple[str, dict]] = {}
        self.made = 0
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if text and not text.endswith("\n"):  # a torn last line of a killed run: dropped, its record made again
            text = text[: text.rfind("\n") + 1]
            with atomic_write(path) as f:
                f.write(text)
        for line in text.splitlines():
            x = json.loads(line)
            self.have[(x["pair"], x["r"])] = (x["key"], x["record"])

    def get(self, pair: str, r: int, key: str, make) -> dict:
        held = self.have.get((pair, r))
        if held is not None and held[0] == key:
            return held[1]
        rec = make()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        append_line(self.path, json.dumps({"pair": pair, "r": r, "key": key, "record": rec}, sort_keys=True,
                                          separators=(",", ":"), allow_nan=False))
        self.have[(pair, r)] = (key, rec)
        self.made += 1
        return rec


def pool_sources(units: Path, work: Path, limit: int | None) -> list[dict]:
    """Every real-text pool's pairs: the records of the data sets that give textbcv's present posterior."""
    out = []
    for pool, spec in rts.POOLS.items():
        path = units / "real_text_study" / f"pairs-{pool}.jsonl"
        if not path.exists():
            continue
        raw: dict[int, list[str]] = defaultdict(list)
        lines = []
        for text in path.read_text(encoding="utf-8").splitlines():
            if text.strip():
                x = json.loads(text)
                raw[x["r"]].append(text)
                lines.append(x)
        merged = sorted(rts.merge_lines(lines).items())[:limit]
        cache = Cache(work / f"pool-{pool}.jsonl")
        for pair, (a, b) in PAIRS[spec["task"]].items():
            recs = []
            for r, x in merged:
                pieces = x["pieces"]
                if "folds" not in pieces or pair not in pieces["folds"]["xprod"] or not summ.has_present(pieces, pair):
                    continue
                truth = (0.0, 0.0) if pair == "null" else (
                    summ._truth(pieces["truth"], a, b, pair)
                    if "truth" in pieces and pair in pieces["truth"]["test_var"] else None)
                recs.append(cache.get(pair, r, _key(pair, *raw[r]),
                                      lambda p=pieces, a=a, b=b, q=pair, t=truth: pool_record(p, a, b, q, t)))
            if recs:
                out.append({"source": pool, "label": POOL_LABEL[pool], "kind": "pool", "pair": pair,
                            "systems": [a, b], "m_run": M_MAX, "records": recs})
        print(f"design_study: pool {pool}: {cache.made} data set pairs evaluated, "
              f"{sum(len(s['records']) for s in out if s['source'] == pool) - cache.made} from {cache.path}",
              file=sys.stderr)
    return out


def calibrate_sources(units: Path, work: Path, limit: int | None) -> list[dict]:
    """Every ``textbcv calibrate`` folder with one seed per side (several seeds make a part of their own there)."""
    out = []
    for path in sorted((units / "calibrate").glob("*/units.jsonl")):
        name = path.parent.name
        settings = json.loads((path.parent / "settings.json").read_text(encoding="utf-8"))["settings"]
        if "-seeds" in name or int(settings.get("train_seeds", 1)) > 1:
            continue
        texts = [t for t in path.read_text(encoding="utf-8").splitlines() if t.strip()][:limit]
        if not texts:
            continue
        m_run = int(settings["m"])
        cache = Cache(work / f"calibrate-{name}.jsonl")
        recs, first = [], json.loads(texts[0])
        for t in texts:
            u = json.loads(t)
            recs.append(cache.get("unit", int(u["r"]), _key(str(m_run), t), lambda u=u: unit_record(u, m_run)))
        close = first.get("kind") == "close"
        base = name.split("-")[0]
        pair = " vs ".join(first["pair"]) if close else "null"
        label = CORPORA.get(base, {}).get("label", base) + ("" if m_run == M0 else f", calibrate --m {m_run}")
        out.append({"source": name, "label": label, "kind": "calibrate",
                    "pair": pair, "systems": list(first["pair"]) if close else [first["system"]] * 2,
                    "m_run": m_run, "records": recs})
    return out


def _decision(e: dict, threshold: float = THRESHOLD) -> str:
    return decide(e["p_b"], 1.0 - e["p_b"], threshold)


def _floored(rec: dict) -> bool:
    return rec["m"][str(M0)]["var_model"] <= 0


def evaluable(design: str, m_run: int, has_t_test: bool) -> bool:
    """Whether a source whose units reach ``m_run`` splits gives ``design``."""
    if design in M3_ONLY:
        return True
    return m_run >= M_MAX and (design != "sequential-t-test" or has_t_test)


def run_design(design: str, rec: dict) -> tuple[int, str]:
    """The m at which ``design`` decides data set ``rec`` and its decision (:data:`ABSTAIN` when it abstains)."""
    at = rec["m"]
    if design == "m3":
        return M0, _decision(at[str(M0)])
    if design == "m7":
        return M_MAX, _decision(at[str(M_MAX)])
    if design == "abstain-floored":
        return M0, ABSTAIN if _floored(rec) else _decision(at[str(M0)])
    if design.startswith("extend-floored"):
        extend = _floored(rec)
        if design != "extend-floored":
            lo, hi = (float(x) for x in design.rsplit("-", 2)[1:])
            p = max(at[str(M0)]["p_b"], 1.0 - at[str(M0)]["p_b"])
            extend = extend or lo <= p < hi
        m = M_MAX if extend else M0
        return m, _decision(at[str(m)])
    level = look_threshold(THRESHOLD, LOOKS)
    for m in range(M0, M_MAX + 1):
        e = at[str(m)]
        if design == "sequential-t-test":
            stop = rec["t_test"][str(m)] is not None
        else:
            stop = max(e["p_b"], 1.0 - e["p_b"]) >= level
        if stop or m == M_MAX:
            return m, _decision(e, level if design == "sequential-bayes-strict" else THRESHOLD)
    raise AssertionError("unreachable")


def _r(k: int, n: int) -> dict:
    return rate(k, n).to_dict()


def evaluate(src: dict, design: str) -> dict:
    """One row: ``design`` on every data set of source ``src``'s pair."""
    recs = src["records"]
    runs = [run_design(design, x) for x in recs]
    dec = [d for _, d in runs]
    floor = [_floored(x) for x in recs]
    n, nf = len(recs), sum(floor)
    row: dict = {"source": src["source"], "label": src["label"], "kind": src["kind"], "pair": src["pair"],
                 "design": design, "R": n, "folds_mean": float(np.mean([2 * m for m, _ in runs])),
                 "abstained": _r(sum(d == ABSTAIN for d in dec), n), "floored": _r(nf, n),
                 "calls_b": _r(sum(d == "B better" for d in dec), n),
                 "calls_a": _r(sum(d == "A better" for d in dec), n)}
    if src["pair"] == "null":
        for side, word in (("b", "B better"), ("a", "A better")):
            row[f"floored_calls_{side}"] = _r(sum(d == word for d, f in zip(dec, floor) if f), nf)
        row["other_calls"] = _r(sum(d in ("A better", "B better") for d, f in zip(dec, floor) if not f), n - nf)
        return row
    truths = [x["truth"] for x in recs if x["truth"] is not None]
    if not truths:
        return row
    true_delta = float(np.mean([t[0] for t in truths]))
    right, wrong = ("B better", "A better") if true_delta >= 0 else ("A better", "B better")
    row.update({"true_delta": true_delta, "power": _r(sum(d == right for d in dec), n),
                "wrong_way": _r(sum(d == wrong for d in dec), n)})
    decided = [(x, m) for x, (m, d) in zip(recs, runs) if d != ABSTAIN and x["truth"] is not None]
    units = [{**x["m"][str(m)], "truth": x["truth"][0], "truth_noise": x["truth"][1]} for x, m in decided]
    row["coverage"] = _r(sum(covers(u) for u in units), len(units))
    row["coverage_90"] = _r(sum(covers(u, 0.90) for u in units), len(units))
    return row


def targets(rows: list[dict]) -> list[dict]:
    """The issue's targets checked on every row of every design: null calls each way (≤ 5%, the Wilson upper bound
    ≤ 7.5% at R ≥ 200), each way in the runs floored at m = 3 (≤ 5%), the close pairs' coverage (93–97.5%) and power
    (no lower than m = 3's on the same data sets). ``near``: it holds, or the row's Wilson interval reaches the target
    (a miss within the noise of that row's data sets)."""
    out = []
    m3 = {(r["source"], r["pair"]): r for r in rows if r["design"] == "m3"}

    def add(r: dict, target: str, value: str, holds: bool, near: bool) -> None:
        out.append({"design": r["design"], "source": r["source"], "pair": r["pair"], "target": target,
                    "value": value, "holds": bool(holds), "near": bool(holds or near)})

    for r in rows:
        if r["pair"] == "null":
            for side, who in (("b", "B"), ("a", "A")):
                x = r[f"calls_{side}"]
                ok = x["rate"] <= NULL_MAX and (r["R"] < NULL_HI_R or x["hi"] <= NULL_HI_MAX)
                add(r, f"null calls {who} better ≤ {100 * NULL_MAX:g}% (Wilson upper ≤ {100 * NULL_HI_MAX:g}% at "
                       f"R ≥ {NULL_HI_R})", Rate(**x).words(), ok, x["lo"] <= NULL_MAX)
                f = r[f"floored_calls_{side}"]
                add(r, f"null calls {who} better in the runs floored at m = 3 ≤ {100 * NULL_MAX:g}%", Rate(**f).words(),
                    f["rate"] is None or f["rate"] <= NULL_MAX, f["lo"] is not None and f["lo"] <= NULL_MAX)
        elif "coverage" in r and r["pair"] not in NOT_CLOSE:
            c = r["coverage"]
            add(r, f"coverage of the 95% interval in {100 * COVERAGE_BAND[0]:g}–{100 * COVERAGE_BAND[1]:g}%",
                Rate(**c).words(), c["rate"] is not None and COVERAGE_BAND[0] <= c["rate"] <= COVERAGE_BAND[1],
                c["rate"] is not None and c["lo"] <= COVERAGE_BAND[1] and c["hi"] >= COVERAGE_BAND[0])
            base = m3[(r["source"], r["pair"])]["power"]
            add(r, "power no lower than m = 3's", f"{Rate(**r['power']).words()} against {Rate(**base).words()}",
                r["power"]["rate"] >= base["rate"], r["power"]["hi"] >= base["rate"])
    return out


def choose(rows: list[dict], checks: list[dict]) -> dict:
    """Per design: the mean folds per system over the pools' pairs, the sources it was evaluated on, the targets it
    misses; the design that misses none with the least mean folds (None when every design misses one) and, when
    none, the cheapest whose every miss lies within its row's noise (``closest``; None when there is none)."""
    per: dict = {}
    for d in DESIGNS:
        mine = [r for r in rows if r["design"] == d]
        if not mine:
            continue
        pools = [r["folds_mean"] for r in mine if r["kind"] == "pool"]
        miss = [c for c in checks if c["design"] == d and not c["holds"]]
        per[d] = {"folds_mean": float(np.mean(pools)) if pools else None,
                  "sources": sorted({r["source"] for r in mine}), "checked": sum(c["design"] == d for c in checks),
                  "misses": [f"{c['source']} {c['pair']}: {c['target']} ({c['value']}"
                             + ("; within that row's noise)" if c["near"] else ")") for c in miss],
                  "clear_misses": sum(not c["near"] for c in miss)}

    def cheapest(names: list[str]) -> list[str]:
        return sorted((d for d in names if per[d]["folds_mean"] is not None),
                      key=lambda d: (per[d]["folds_mean"], DESIGNS.index(d)))

    ok = cheapest([d for d, x in per.items() if not x["misses"]])
    near = cheapest([d for d, x in per.items() if not x["clear_misses"]])
    return {"designs": per, "chosen": ok[0] if ok else None, "meeting_all": ok,
            "within_noise": near, "closest": None if ok or not near else near[0]}


def summarize(sources: list[dict]) -> dict:
    rows = [evaluate(s, d) for s in sources for d in DESIGNS
            if evaluable(d, s["m_run"], any(x["t_test"] for x in s["records"]))]
    checks = targets(rows)
    needs = sorted({s["source"] for s in sources if s["m_run"] < M_MAX})
    return {"threshold": THRESHOLD, "look_threshold": look_threshold(THRESHOLD, LOOKS), "posterior": PAIRED_POSTERIOR,
            "designs": DESIGNS, "sources": {s["source"]: {"label": s["label"], "m": s["m_run"]} for s in sources},
            "m7_needed": needs, "rows": rows, "targets": checks, "choice": choose(rows, checks),
            "floored_at_m7": floored_at_last_m(sources)}


def floored_at_last_m(sources: list[dict]) -> list[dict]:
    """Null pairs whose model-noise part is floored at m = 7 too (13 degrees of freedom): how often, and the calls
    each way among those runs at m = 7 (a call there stands on a model noise the run measured as small)."""
    out = []
    for s in sources:
        if s["pair"] != "null" or s["m_run"] < M_MAX:
            continue
        recs = s["records"]
        floored = [x for x in recs if x["m"][str(M_MAX)]["var_model"] <= 0]
        dec = [_decision(x["m"][str(M_MAX)]) for x in floored]
        out.append({"source": s["source"], "label": s["label"], "R": len(recs), "floored": _r(len(floored), len(recs)),
                    "calls_b": _r(sum(d == "B better" for d in dec), len(floored)),
                    "calls_a": _r(sum(d == "A better" for d in dec), len(floored))})
    return out


def _w(x: dict | None) -> str:
    return "–" if x is None else Rate(**x).words()


def _pct(x: dict) -> str:
    return "–" if x["rate"] is None else f"{100 * x['rate']:.1f}%"


def _choice_text(result: dict) -> str:
    ch = result["choice"]
    per = ch["designs"]
    deep = sorted({n for n, x in result["sources"].items() if x["m"] >= M_MAX})
    if ch["chosen"]:
        d = ch["chosen"]
        text = (f"**Chosen: `{d}`**, the design that meets every target on every row it was evaluated on "
                f"({', '.join(per[d]['sources'])}; {per[d]['checked']} checks) with the least compute: "
                f"{per[d]['folds_mean']:.2f} folds per system on average over the pools' pairs, against "
                f"{per['m3']['folds_mean']:.2f} at m = 3")
        if per.get("m7"):
            text += f" and {per['m7']['folds_mean']:.2f} at m = 7"
        text += "."
        others = [x for x in ch["meeting_all"] if x != d]
        if others:
            text += " Also meeting every target, at more folds: " + ", ".join(
                f"`{x}` ({per[x]['folds_mean']:.2f})" for x in others) + "."
    else:
        text = "**No design meets every target** on every row it was evaluated on; the misses of each are below."
        c = ch["closest"]
        if c:
            x = per[c]
            text += (f" The cheapest design whose every miss lies within the noise of its row (the Wilson interval "
                     f"reaches the target) is `{c}`, at {x['folds_mean']:.2f} folds per system on average over the "
                     f"pools' pairs (m = 3: {per['m3']['folds_mean']:.2f}"
                     + (f"; m = 7: {per['m7']['folds_mean']:.2f}" if per.get("m7") else "")
                     + f"), with {len(x['misses'])} such misses of {x['checked']} checks; more data sets would say "
                     "whether it meets them.")
            more = [d for d in ch["within_noise"] if d != c]
            if more:
                text += " Also within the noise, at more folds: " + ", ".join(
                    f"`{d}` ({per[d]['folds_mean']:.2f})" for d in more) + "."
        else:
            text += " Every design misses at least one target beyond its row's noise."
    if result["m7_needed"]:
        text += (f" Designs that look past m = 3 are checked only where the units reach m = 7 ({', '.join(deep)}): the "
                 f"`textbcv calibrate` folders {', '.join(result['m7_needed'])} hold m = 3 units, and the other "
                 "designs need m = 7 units there (`textbcv calibrate --m 7`, nested).")
    return text


def _not_close_text(rows: list[dict]) -> str:
    far = sorted({abs(100 * r["true_delta"]) for r in rows if r["pair"] in NOT_CLOSE and "true_delta" in r})
    if not far:
        return ""
    return (f"The real-text study's default pair ({far[0]:.1f}–{far[-1]:.1f} points apart, not a close pair) is shown, "
            "not targeted.")


def render(result: dict, command: str) -> str:
    """The RESULTS.md section."""
    rows = result["rows"]
    L = ["## Designs that decide only on measured model noise (offline)", "",
         f"Written by `{command}` from the committed units (no training): the real-text pools' nested m = 7 folds "
         "(null pairs and close pairs with a truth) and the `textbcv calibrate` folders with one seed per side "
         f"(m = {', '.join(sorted({str(x['m']) for n, x in result['sources'].items() if n not in POOL_LABEL}))})."
         " Every decision is textbcv's "
         f"rule (P ≥ {result['threshold']:g} either way) on textbcv's own posterior (model `{result['posterior']}`, "
         "from the fold moments as `real_text_pairs.py --check-compare` checked against `textbcv.compare`) at the m "
         "where the design stops. Designs (module docstring of `scripts/design_study.py`): `m3`; `m7`; "
         f"`extend-floored` (m = {M0}, extended to {M_MAX} reusing its {2 * M0} folds when the model-noise part is "
         f"floored at m = {M0}); "
         "`extend-floored-LO-HI` (also when the larger P(better) at m = 3 lies in [LO, HI)); `sequential-bayes` "
         f"(`compare --sequential --m-max 7 --stop bayes`: looks at m = 3 … 7, stop at P ≥ "
         f"{result['look_threshold']:.4g}, the threshold corrected for {LOOKS} looks, call at "
         f"{result['threshold']:g}); `sequential-bayes-strict` (every look's call at {result['look_threshold']:.4g}); "
         "`sequential-t-test` (`compare --sequential --m-max 7`, stop when the sequential t-test decides); "
         "`abstain-floored` (m = 3, \"not decided: the folds could not measure the models' noise\" when floored). "
         "Rates with Wilson 95% intervals; \"floored\" means floored at m = 3; folds are per system.", "",
         _choice_text(result), "",
         f"Targets (issue 57): null calls ≤ {100 * NULL_MAX:g}% each way (Wilson upper bound ≤ {100 * NULL_HI_MAX:g}% "
         f"at R ≥ {NULL_HI_R}) overall and ≤ {100 * NULL_MAX:g}% each way in the runs floored at m = {M0}; close "
         "pairs' coverage of the 95% interval (widened by the truth's noise) in "
         f"{100 * COVERAGE_BAND[0]:g}–{100 * COVERAGE_BAND[1]:g}%; power no lower than m = {M0}'s. "
         "A miss \"within that row's noise\" has a Wilson interval that reaches the target. " + _not_close_text(rows),
         "",
         "| design | mean folds (pools) | evaluated on | targets missed |", "|---|---:|---|---|"]
    for d, x in result["choice"]["designs"].items():
        f = "–" if x["folds_mean"] is None else f"{x['folds_mean']:.2f}"
        miss = "none" if not x["misses"] else f"{len(x['misses'])} of {x['checked']}: " + "; ".join(x["misses"])
        L.append(f"| `{d}` | {f} | {', '.join(x['sources'])} | {miss} |")
    L += ["", "Null pairs (a CRF against itself with another training seed): calls each way, the runs floored at "
          "m = 3 and the calls each way among them, abstentions.", "",
          "| corpus | design | R | calls B | calls A | floored | floored: calls B | floored: calls A | abstained | "
          "folds |", "|---|---|---:|---|---|---|---|---|---|---:|"]
    for r in rows:
        if r["pair"] == "null":
            L.append(f"| {r['label']} | `{r['design']}` | {r['R']} | {_w(r['calls_b'])} | {_w(r['calls_a'])} | "
                     f"{_pct(r['floored'])} | {_w(r['floored_calls_b'])} | {_w(r['floored_calls_a'])} | "
                     f"{_pct(r['abstained'])} | {r['folds_mean']:.2f} |")
    L += ["", f"Null pairs whose model-noise part is floored at m = {M_MAX} as well ({2 * M_MAX - 1} degrees of "
          "freedom): "
          f"the calls each way at m = {M_MAX} among those runs. Floored there, the estimate says the models' noise is "
          "small beside the test text's; these calls are the ones `scripts/demo` and the `measured` rule make on such "
          "runs.", "", "| corpus | R | floored at m = 7 | calls B | calls A |", "|---|---:|---|---|---|"]
    for x in result.get("floored_at_m7", []):
        L.append(f"| {x['label']} | {x['R']} | {_w(x['floored'])} | {_w(x['calls_b'])} | {_w(x['calls_a'])} |")
    L += ["", "Pairs with a truth: power (calls in the direction of the pool's true difference, over every data set), "
          "calls the other way, coverage of the deciding posterior's 95% interval and of its 90% interval (the one the "
          "one-sided rule decides by), both widened by the truth's noise, over the decided data sets with a truth.",
          "", "| corpus | pair | true ΔF1 | design | R | power | wrong way | coverage 95% | coverage 90% | abstained | "
          "folds |", "|---|---|---:|---|---:|---|---|---|---|---|---:|"]
    for r in rows:
        if r["pair"] != "null" and "power" in r:
            L.append(f"| {r['label']} | {r['pair']} | {100 * r['true_delta']:+.2f} | `{r['design']}` | {r['R']} | "
                     f"{_w(r['power'])} | {_w(r['wrong_way'])} | {_w(r['coverage'])} | {_w(r['coverage_90'])} | "
                     f"{_pct(r['abstained'])} | {r['folds_mean']:.2f} |")
    return "\n".join(L) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", default=str(ROOT / "docs"), help="folder holding calibrate/ and real_text_study/")
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder of design_study.json and RESULTS.md")
    ap.add_argument("--results", default=None, help="RESULTS.md to update (default OUT/RESULTS.md)")
    ap.add_argument("--work", default=None, help="the evaluated data sets kept for a resumed run "
                                                  "(default .work/design_study, with --smoke OUT/work)")
    ap.add_argument("--smoke", action="store_true", help=f"the first {SMOKE_LIMIT} data sets of each source")
    args = ap.parse_args(argv)
    units, out = Path(args.units), Path(args.out)
    if args.smoke and out.resolve() == (ROOT / "docs").resolve():
        ap.error("--smoke: give --out (a smoke run never replaces the committed summary)")
    if not units.is_dir():
        ap.error(f"--units: {units}: no such folder")
    work = Path(args.work) if args.work else (out / "work" if args.smoke else ROOT / ".work" / "design_study")
    limit = SMOKE_LIMIT if args.smoke else None
    sources = pool_sources(units, work, limit) + calibrate_sources(units, work, limit)
    if not sources:
        ap.error(f"--units: no units under {units}")
    result = summarize(sources)
    command = "scripts/design_study.py" + (" --smoke" if args.smoke else "")
    write_json(out / "design_study.json", {"command": command, **result})
    update_section(Path(args.results) if args.results else out / "RESULTS.md", "design-study", render(result, command))
    print(f"design_study: {len(result['rows'])} rows from {len(sources)} sources; chosen: "
          f"{result['choice']['chosen'] or 'none meets every target'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
