#!/usr/bin/env python3
"""How much calls of an exactly calibrated test gather where the model noise is estimated at 0: the reference
for the model-noise study's "calls there / calls elsewhere".

The null pairs' calls gather in the runs whose model-noise part was floored at 0 (``scripts/model_noise_study.py``).
Part of that is no defect of textbcv's posterior: the floor happens when the folds' differences agree more closely
than their test text alone predicts, that is when the folds' spread came out low, and every test whose interval is
set by the observed spread calls more often when that spread is low. This script measures how much, in the
idealised model of docs/method.md ("Calls where the model noise is floored"): the folds' mean difference normal with
variance T + M, the test part T known, the spread S² ~ (T + M) χ²_ν / ν independent of it (ν = 2m − 1), the model
noise M = S² − T floored at 0, and a call when the mean lies beyond the Student t_ν point of P ≥ threshold times
√max(T, S²). Per corpus and m it takes M / T from the share of runs floored there, so the reference has the same
share, and gives

* the reference's call rates among floored runs and among the others (closed form, one integral);
* the share of the observed calls that the reference puts in floored runs, and the binomial p of seeing as many
  there or more (one-sided): small p, more gathering than an exactly calibrated test shows;
* how often an exactly calibrated test would itself fail "calls there no more than elsewhere" (Fisher's exact test,
  one-sided, p < 0.05) with the corpus's R: the issue's criterion as written, applied to a test that has no defect.

No training: it reads ``docs/model_noise.json`` (the candidate ``present``, null pairs). Writes
``docs/floor_reference.json`` and the RESULTS.md section ``floor-reference``. ``--smoke`` uses fewer simulated
studies and writes into ``--out``.

Usage::

    scripts/floor_reference.py
    scripts/floor_reference.py --smoke --out /tmp/fr
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from scipy import integrate, stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _results import ROOT, update_section, write_json  # noqa: E402


def ratio_for_share(share: float, nu: int) -> float:
    """M / T at which S² ≤ T (the floor) has probability ``share``: P(χ²_ν / ν ≤ T / (T + M)) = share."""
    q = stats.chi2.ppf(share, nu) / nu
    return float(max(1.0 / q - 1.0, 0.0))


def reference_rates(ratio: float, nu: int, threshold: float = 0.95, floored: bool = True) -> dict:
    """The idealised test's call rates (both sides together) among floored runs, among the others and in all, at
    model noise ``ratio`` = M / T; ``floored`` False gives the textbook t-test (width √S², no floor) on the same
    runs."""
    c = stats.t.ppf(threshold, nu)
    a = 1.0 / (1.0 + ratio)  # T / (T + M): the floor is X = S² / (T + M) ≤ a
    law = stats.chi2(nu, scale=1.0 / nu)

    def call(x: float) -> float:  # P(call | X = x): |Z| beyond c · √(width² / (T + M))
        return float(2 * stats.norm.sf(c * np.sqrt(max(a, x) if floored else x)))

    fa = float(law.cdf(a))
    below = (call(a) * fa if floored else
             integrate.quad(lambda x: call(x) * law.pdf(x), 0, a, limit=200)[0])
    above = integrate.quad(lambda x: call(x) * law.pdf(x), a, np.inf, limit=200)[0]
    return {"floored_share": fa, "calls_floored": below / fa if fa > 0 else None,
            "calls_other": above / (1 - fa) if fa < 1 else None, "calls": below + above}


def fisher_fails(share: float, p_floored: float, p_other: float, reps: int, studies: int, seed: int = 0) -> float:
    """Share of simulated studies of ``reps`` runs of the reference in which Fisher's exact test finds more calls
    among floored runs than among the others (one-sided p < 0.05)."""
    rng = np.random.default_rng(seed)
    n_f = rng.binomial(reps, share, studies)
    k_f = rng.binomial(n_f, p_floored)
    k_o = rng.binomial(reps - n_f, p_other)
    fails = 0
    for nf, kf, ko in zip(n_f, k_f, k_o):
        if kf + ko and 0 < nf < reps:
            table = [[int(kf), int(nf - kf)], [int(ko), int(reps - nf - ko)]]
            fails += stats.fisher_exact(table, alternative="greater")[1] < 0.05
    return fails / studies


def row(r: dict, threshold: float, studies: int) -> dict:
    """One corpus and m: the observed gathering beside the reference's."""
    nu = 2 * r["m"] - 1
    f = r["floored"]["k"] / r["floored"]["n"]
    ratio = ratio_for_share(f, nu)
    ref = reference_rates(ratio, nu, threshold)
    t = reference_rates(ratio, nu, threshold, floored=False)
    k_f, k_o = r["calls_floored"]["k"], r["calls_other"]["k"]
    pf, po = ref["calls_floored"], ref["calls_other"]
    share_ref = f * pf / (f * pf + (1 - f) * po) if pf is not None and po is not None else None
    p_more = (float(stats.binom.sf(k_f - 1, k_f + k_o, share_ref))
              if share_ref is not None and k_f + k_o else None)
    return {"corpus": r["label"], "m": r["m"], "R": r["R"], "floored": r["floored"],
            "calls_floored": r["calls_floored"], "calls_other": r["calls_other"], "fisher_p": r["floor_p"],
            "model_over_test": ratio,
            "reference": {"calls_floored": pf, "calls_other": po, "share_of_calls_floored": share_ref,
                          "fisher_fails": fisher_fails(f, pf, po, r["R"], studies) if pf is not None else None},
            "textbook_t": {"calls_floored": t["calls_floored"], "calls_other": t["calls_other"]},
            "observed_share_of_calls_floored": k_f / (k_f + k_o) if k_f + k_o else None,
            "p_more_than_reference": p_more}


def render(rows: list[dict], command: str, threshold: float) -> str:
    """The RESULTS.md section."""
    def pct(x: float | None) -> str:
        return "—" if x is None else f"{100 * x:.1f}%"

    def kn(x: dict) -> str:
        return f"{x['k']} / {x['n']}"

    lines = ["## Calls where the model noise is floored: the reference of an exactly calibrated test", "",
             f"Produced by `{command}` from `docs/model_noise.json` (the posterior as it is, null pairs; no "
             "training). An exactly calibrated test whose interval is set by the folds' observed spread calls more "
             "often in the runs where that spread came out low, which are the runs whose model noise is floored at "
             "0. `reference` is the idealised test of docs/method.md (\"Calls where the model noise is floored\") "
             "with the corpus's share of floored runs: its call rates there and elsewhere, the share of calls it "
             "puts in floored runs, and how often it fails, at the corpus's R, the criterion \"calls there no more "
             "than elsewhere\" (Fisher's exact test, one-sided, p < 0.05). `textbook t` is the plain t-test (no "
             "floor) on the same runs. `p` is the binomial chance that the reference puts at least the observed "
             f"number of calls in floored runs: small p, more gathering than an exact test shows. Calls at P ≥ "
             f"{threshold:g}, both sides together.", "",
             "| corpus | m | R | floored | calls there | calls elsewhere | Fisher p | reference there / elsewhere | "
             "textbook t there / elsewhere | calls in floored runs: observed / reference | p | reference fails "
             "the criterion |",
             "|---|---:|---:|---|---|---|---:|---|---|---|---:|---|"]
    for r in rows:
        ref, t = r["reference"], r["textbook_t"]
        p = "—" if r["p_more_than_reference"] is None else f"{r['p_more_than_reference']:.2f}"
        fisher = "—" if r["fisher_p"] is None else f"{r['fisher_p']:.2f}"
        lines.append(f"| {r['corpus']} | {r['m']} | {r['R']} | {pct(r['floored']['rate'])} | "
                     f"{kn(r['calls_floored'])} | {kn(r['calls_other'])} | {fisher} | "
                     f"{pct(ref['calls_floored'])} / {pct(ref['calls_other'])} | "
                     f"{pct(t['calls_floored'])} / {pct(t['calls_other'])} | "
                     f"{pct(r['observed_share_of_calls_floored'])} / {pct(ref['share_of_calls_floored'])} | {p} | "
                     f"{pct(ref['fisher_fails'])} |")
    over = [f"{r['corpus']} at m = {r['m']} (p = {r['p_more_than_reference']:.2f})" for r in rows
            if r["p_more_than_reference"] is not None and r["p_more_than_reference"] < 0.05]
    lines += ["", "More of the calls in floored runs than the reference puts there (p < 0.05, each row on its own, "
              f"{len(rows)} rows): " + ("; ".join(over) if over else "none") + "."]
    return "\n".join(lines) + "\n"


def _units(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "units.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


def standardised(calibrate: Path) -> list[dict]:
    """Every one-seed `textbcv calibrate` folder's units, read once, as what the degrees-of-freedom tables need: per
    close folder the errors over √(SD² + the truth's noise) and the degrees of freedom; per null folder the estimates
    over the SD, the degrees of freedom, the model-noise part's share of the variance and whether it was floored."""
    out = []
    for folder in sorted(p for p in calibrate.iterdir() if (p / "units.jsonl").is_file() and "-seeds" not in p.name):
        units = _units(folder)
        close = [u for u in units if u.get("kind") == "close"]
        null = [u for u in units if u.get("kind", "null") == "null" and u["sd"] > 0]
        if close:
            out.append({"folder": folder.name, "kind": "close",
                        "z": np.array([(u["estimate"] - u["truth"]) / np.sqrt(u["sd"] ** 2 + u["truth_noise"])
                                       for u in close]),
                        "df": np.array([u["df"] for u in close], dtype=float)})
        elif null:
            out.append({"folder": folder.name, "kind": "null",
                        "z": np.array([u["estimate"] / u["sd"] for u in null]),
                        "df": np.array([u["df"] for u in null], dtype=float),
                        "share": np.array([min(max(u["var_model"], 0.0) / u["sd"] ** 2, 1.0) for u in null]),
                        "floored": np.array([u["var_model"] <= 0 for u in null])})
    return out


def df_rows(folders: list[dict], threshold: float) -> list[dict]:
    """The posterior's Student t on 2m − 1 degrees of freedom against Satterthwaite's (the model-noise part's
    2m − 1 degrees of freedom scaled by its share of the variance squared, the test part's counted as exact), over
    :func:`standardised` folders: per null folder the calls in all, in floored runs and in the others; per close
    folder the coverage of the 95% interval widened by the truth's noise, with the t's and the normal's quantile,
    and the SD of the standardised errors (1 when the posterior's SD matches the errors' spread)."""
    out = []
    for f in folders:
        z, df = f["z"], f["df"]
        if f["kind"] == "close":
            out.append({"folder": f["folder"], "kind": "close", "R": len(z),
                        "coverage_t": float(np.mean(np.abs(z) <= stats.t.ppf(0.975, df))),
                        "coverage_normal": float(np.mean(np.abs(z) <= stats.norm.ppf(0.975))),
                        "z_sd": float(np.std(z, ddof=1))})
            continue
        share, floored = f["share"], f["floored"]
        satt = np.full(len(z), np.inf)
        np.divide(df, share ** 2, out=satt, where=share > 0)
        row = {"folder": f["folder"], "kind": "null", "R": len(z), "floored": float(floored.mean()),
               "z_sd": float(np.std(z, ddof=1))}
        for name, d in (("t", df), ("satterthwaite", satt)):
            p_b = np.where(np.isinf(d), stats.norm.cdf(z), stats.t.cdf(z, np.minimum(d, 1e12)))
            calls = (p_b >= threshold) | (p_b <= 1 - threshold)
            # a class with no run has no rate (None, printed "—"), not a NaN
            row[name] = {"calls": float(calls.mean()),
                         "calls_floored": float(calls[floored].mean()) if floored.any() else None,
                         "calls_other": float(calls[~floored].mean()) if (~floored).any() else None}
        out.append(row)
    return out


SCALES = (1.0, 1.5, 2.0, 3.0)


def df_scale_rows(folders: list[dict], threshold: float) -> list[dict]:
    """The t's degrees of freedom scaled by each of :data:`SCALES`, over :func:`standardised` folders: per scale the
    largest share of null calls one way over the null folders, and the lowest and highest close-pair coverage (both
    targets at once)."""
    out = []
    for k in SCALES:
        p_b = [stats.t.cdf(f["z"], k * f["df"]) for f in folders if f["kind"] == "null"]
        one_way = [float(max(np.mean(p >= threshold), np.mean(p <= 1 - threshold))) for p in p_b]
        cover = [float(np.mean(np.abs(f["z"]) <= stats.t.ppf(0.975, k * f["df"]))) for f in folders
                 if f["kind"] == "close"]
        out.append({"scale": k, "null_calls_one_way_max": max(one_way, default=None),
                    "close_coverage_min": min(cover, default=None), "close_coverage_max": max(cover, default=None)})
    return out


def render_df(rows: list[dict], threshold: float) -> str:
    """The second table of the section: the t's degrees of freedom."""
    def pct(x: float | None) -> str:
        return "—" if x is None else f"{100 * x:.1f}%"

    lines = ["", "### The Student t's degrees of freedom", "",
             "From the committed `textbcv calibrate` units (`docs/calibrate/`). The posterior is a Student t on "
             "2m − 1 degrees of freedom, those of the model-noise part, whatever that part's share. Satterthwaite's "
             "would count the test part (from hundreds of clusters) as exact and give 2m − 1 over the model-noise "
             "part's share of the variance, squared. Close pairs: coverage of the 95% interval widened by the "
             "truth's noise with the t's quantile and with the normal's. The SD of the standardised errors (the "
             "error over the posterior's SD; null pairs: the estimate, whose truth is 0) is 1 when that SD matches "
             "the errors' spread. "
             f"Null pairs: calls at P ≥ {threshold:g}, both sides together, in all and in the runs with the "
             "model noise floored / the others.", "",
             "| folder | R | coverage, t on 2m − 1 | coverage, normal | SD of standardised errors | calls, t on 2m − 1 "
             "(floored / others) | calls, Satterthwaite (floored / others) |",
             "|---|---:|---|---|---:|---|---|"]
    for r in rows:
        if r["kind"] == "close":
            lines.append(f"| {r['folder']} | {r['R']} | {pct(r['coverage_t'])} | {pct(r['coverage_normal'])} | "
                         f"{r['z_sd']:.2f} | — | — |")
        else:
            t, s = r["t"], r["satterthwaite"]
            lines.append(f"| {r['folder']} | {r['R']} | — | — | {r['z_sd']:.2f} | {pct(t['calls'])} "
                         f"({pct(t['calls_floored'])} / "
                         f"{pct(t['calls_other'])}) | {pct(s['calls'])} ({pct(s['calls_floored'])} / "
                         f"{pct(s['calls_other'])}) |")
    return "\n".join(lines) + "\n"


def render_scale(rows: list[dict]) -> str:
    """The third table: both targets as the t's degrees of freedom are scaled."""
    def pct(x: float | None) -> str:
        return "—" if x is None else f"{100 * x:.1f}%"

    lines = ["", "The same units with the t's degrees of freedom scaled (1 is textbcv's 2m − 1): the largest share of "
             "null calls one way over the corpora (target at most 5%) and the close pairs' coverage (target 95%).",
             "", "| degrees of freedom × | null calls, largest one way | close-pair coverage |", "|---:|---|---|"]
    for r in rows:
        lines.append(f"| {r['scale']:g} | {pct(r['null_calls_one_way_max'])} | "
                     f"{pct(r['close_coverage_min'])} – {pct(r['close_coverage_max'])} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default=str(ROOT / "docs" / "model_noise.json"))
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder of floor_reference.json and RESULTS.md")
    ap.add_argument("--studies", type=int, default=4000, help="simulated studies per corpus (default 4000)")
    ap.add_argument("--calibrate", default=str(ROOT / "docs" / "calibrate"),
                    help="the committed textbcv calibrate folders (the degrees-of-freedom table)")
    ap.add_argument("--smoke", action="store_true", help="200 simulated studies, into --out")
    args = ap.parse_args(argv)
    source = json.loads(Path(args.source).read_text(encoding="utf-8"))
    threshold = source["threshold"]
    studies = 200 if args.smoke else args.studies
    # a source with no floored run (or only floored runs) has no two classes to compare: no reference
    rows = [row(r, threshold, studies) for r in source["rows"]
            if r["candidate"] == "present" and r["pair"] == "null" and 0 < r["floored"]["k"] < r["floored"]["n"]]
    command = "scripts/floor_reference.py" + (" --smoke" if args.smoke else "")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    folders = standardised(Path(args.calibrate))
    dfs, scaled = df_rows(folders, threshold), df_scale_rows(folders, threshold)
    write_json(out / "floor_reference.json", {"command": command, "threshold": threshold, "studies": studies,
                                              "rows": rows, "degrees_of_freedom": dfs, "scaled": scaled})
    update_section(out / "RESULTS.md", "floor-reference",
                   render(rows, command, threshold) + render_df(dfs, threshold) + render_scale(scaled))
    print(f"floor_reference: {len(rows)} rows written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
