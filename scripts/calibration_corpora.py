#!/usr/bin/env python3
"""Null pairs on every corpus through ``textbcv calibrate``: the decision rule's false calls, one row per corpus.

Each corpus of :data:`CORPORA` is one ``textbcv.calibrate`` folder under ``docs/calibrate/NAME/`` (the same
command a user runs on their own corpus; only the choice of corpora and settings lives here): the CRF of the
task's scheme trained with the averaged perceptron (``ap``, the stochastic proxy of lbfgs) for 10 iterations,
seeds 1 and 2, m = 3, data sets of whole documents where the corpus marks them. A run resumes every folder
(only missing data sets are trained), adds ``--chunk`` data sets at a time to each corpus in turn so all grow
together, and stops starting new ones after ``--until`` seconds. ``--summarize-only`` reads the folders (no
corpus, no training) and writes ``docs/calibration_corpora.json`` and the RESULTS.md section "Null pairs on
every corpus"; ``--smoke`` runs two tiny data sets of the bundled corpora into ``--out`` (tested in CI).

A corpus entry may name a close pair (``pair``): with ``--close`` the run does those pairs instead of the null
pairs, each into its own folder ``docs/calibrate/NAME-close/`` (``textbcv calibrate --pair A,B`` without null
pairs: the two systems compared on the same data sets against their truth, trained on ``TRUTH_HALVINGS``
halvings of each data set and tested on the rest of the corpus), trained as the null pairs are (``ap``, 10
iterations, as the real-text study's close pairs). Their rows join the table with the interval's coverage of
the truth and the posterior's SD over the estimates' RMSE net of the truth's noise; they never join the
package's evidence (which quotes the null pairs' false calls).

Usage::

    scripts/calibration_corpora.py --corpora conll2002_es,sighan2005_pku --until 3600
    scripts/calibration_corpora.py --close --until 3600
    scripts/calibration_corpora.py --summarize-only
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import textbcv  # noqa: E402
from textbcv.calibration.study import load_calibration  # noqa: E402

from _results import ROOT, fmt_seconds, update_evidence, update_section, write_json  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpora"
M = 3
MAX_ITERATIONS = 10
#: a close pair trains with the averaged perceptron as the null pairs do (and as the real-text study's close pairs)
CLOSE_ALGORITHM = "ap"
TRUTH_HALVINGS = 4
CLOSE = "-close"  # the folder of a corpus's close pair: NAME-close
MFOLD = "-m"  # the folder of a corpus's null pair at another m: NAME-mM (nested: its first 3 splits are m = 3's)
SEEDS = "-seeds"  # the folder of a corpus's null pair with K training seeds per side: NAME-seedsK
#: name -> files under ../shared/corpora, reading options, task, system, sentences per data set, label, and
#: optionally a close pair (A, B)
CORPORA: dict[str, dict] = {
    "conll2003_en": {"files": ["conll2003_en/eng.train", "conll2003_en/eng.testa", "conll2003_en/eng.testb"],
                     "read": {}, "task": None, "system": "iob2", "size": 1000,
                     "label": "CoNLL-2003 English NER (news; documents)"},
    "sighan2005_msr": {"files": ["sighan2005_cws/msr_test_gold.utf8"], "read": {}, "task": None, "system": "bmes",
                       "size": 1000, "label": "SIGHAN 2005 MSR segmentation (sentences)"},
    "conll2002_es": {"files": ["conll2002_es/esp.train"], "read": {"encoding": "latin-1", "columns": "token,pos,ner"},
                     "task": None, "system": "iob2", "size": 1000, "pair": ("iob2", "iobes"),
                     "label": "CoNLL-2002 Spanish NER (news; no document marks: sentences)"},
    "sighan2005_pku": {"files": ["sighan2005_cws/pku_test_gold.utf8"], "read": {}, "task": None, "system": "bmes",
                       "size": 1000, "pair": ("bmes", "bb2b3mes"), "label": "SIGHAN 2005 PKU segmentation (sentences)"},
    "ud_chinese_gsd": {"files": ["ud_chinese_gsd/zh_gsd-ud-dev.conllu", "ud_chinese_gsd/zh_gsd-ud-test.conllu"],
                       "read": {}, "task": "cws", "system": "bmes", "size": 500,
                       "label": "UD Chinese GSD segmentation (dev + test; sentences)"},
}
SMOKE = {"bundled_ner": {"files": ["ner"], "read": {}, "task": None, "system": "iob2", "size": 120,
                         "pair": ("iob2", "iobes"), "label": "bundled English NER"},
         "bundled_cws": {"files": ["cws"], "read": {}, "task": None, "system": "bmes", "size": 120,
                         "pair": ("bmes", "bb2b3mes"), "label": "bundled Chinese segmentation"}}


def files_of(spec: dict, smoke: bool) -> list[str]:
    """The corpus files of one entry (the bundled corpora with ``--smoke``)."""
    if smoke:
        return [str(textbcv.bundled_corpora()[f]) for f in spec["files"]]
    missing = [f for f in spec["files"] if not (SHARED / f).exists()]
    if missing:
        raise SystemExit(f"calibration_corpora: {SHARED / missing[0]} not found (the study needs ../shared/corpora)")
    return [str(SHARED / f) for f in spec["files"]]


def folder_of(name: str, close: bool = False, train_seeds: int = 1, m: int = M) -> str:
    """The calibrate folder of one corpus's null pair (``NAME``), close pair (``NAME-close``) or null pair with
    ``train_seeds`` > 1 seeds per side (``NAME-seedsK``); at another ``m`` than :data:`M`, ``-mM`` is appended."""
    base = name + CLOSE if close else name + f"{SEEDS}{train_seeds}" if train_seeds > 1 else name
    return base if m == M else f"{base}{MFOLD}{m}"


def run_corpus(name: str, spec: dict, out: Path, reps: int, max_iterations: int, smoke: bool,
               close: bool = False, train_seeds: int = 1, m: int = M) -> None:
    """Resume (or start) one corpus's calibration up to ``reps`` data sets: its null pair, (``close``) its close
    pair alone, in ``NAME-close``, or (``train_seeds`` > 1) its null pair with that many seeds per side."""
    folder = out / folder_of(name, close, train_seeds, m)
    pair = {"pair": spec["pair"], "truth_halvings": 2 if smoke else TRUTH_HALVINGS,
            "algorithm": CLOSE_ALGORITHM} if close else {}
    seeds = {"train_seeds": train_seeds} if train_seeds > 1 else {}
    textbcv.calibrate(files_of(spec, smoke), [] if close else [spec["system"]], reps=reps, size=spec["size"], m=m,
                      max_iterations=max_iterations, task=spec["task"], out=folder, resume=folder.exists(),
                      progress=False, **pair, **seeds, **spec["read"])


def row(name: str, spec: dict, out: Path, close: bool = False, train_seeds: int = 1) -> dict | None:
    """One corpus's summary row from its folder (None when it has no finished data set): its null pair,
    (``close``) its close pair, or (``train_seeds`` > 1) its null pair with several seeds per side."""
    folder = out / folder_of(name, close, train_seeds)
    if not (folder / "settings.json").exists():
        return None
    cal, units = load_calibration(folder, spec["label"])
    if not units:
        return None
    if close:
        c = cal.close[0]
        return {"corpus": name + CLOSE, "kind": "close", "label": spec["label"], "system": f"{c.a} vs {c.b}",
                "settings": cal.settings.to_dict(), "summary": c.to_dict(), "sentence": cal.sentence()}
    s = cal.nulls[0]
    if train_seeds > 1:
        return {"corpus": folder.name, "kind": "seeds", "label": spec["label"], "system": s.system,
                "train_seeds": train_seeds, "settings": cal.settings.to_dict(), "summary": s.to_dict(),
                "sentence": cal.sentence()}
    return {"corpus": name, "kind": "null", "label": spec["label"], "system": s.system,
            "settings": cal.settings.to_dict(), "summary": s.to_dict(), "sentence": cal.sentence()}


EVIDENCE_ABOUT = ("Generated by scripts/calibration_corpora.py with its summary docs/calibration_corpora.json; do not "
                  "edit. Null pairs through textbcv calibrate (m = 3), one row per corpus: the decision rule's calls "
                  "each way with Wilson 95% intervals, and the data sets measured.")


SEEDS_ABOUT = ("Generated by scripts/calibration_corpora.py --train-seeds K with its summary "
               "docs/calibration_corpora.json; do not edit. Null pairs with K training seeds per side through textbcv "
               "calibrate --train-seeds K (m = 3), one row per corpus: the decision rule's calls each way with Wilson "
               "95% intervals, and the data sets measured.")


CLOSE_ABOUT = ("Generated by scripts/calibration_corpora.py --close with its summary docs/calibration_corpora.json; do "
               "not edit. Close pairs with a truth through textbcv calibrate --pair (m = 3), one row per corpus: how "
               "often the 95% interval of the difference, widened by the truth's noise, held the truth (Wilson 95% "
               "interval), and the posterior's median SD over the estimates' RMSE net of the truth's noise.")


def evidence_rows(rows: list[dict], kind: str = "null") -> dict:
    """What ``textbcv/data/evidence.json`` holds under ``calibration_corpora`` (``kind`` "null"),
    ``calibration_corpora_seeds`` ("seeds") or ``calibration_corpora_close`` ("close"): per corpus the calls each
    way, or for a close pair its coverage and SD / RMSE net (the report's decision rule quotes them)."""
    out = {}
    for r in rows:
        if r.get("kind", "null") != kind:
            continue
        s = r["summary"]
        row = {"label": r["label"], "m": r["settings"]["m"], "threshold": r["settings"]["threshold"],
               "R": s["calls"]["n"]}
        if kind == "close":
            row.update(pair=[s["a"], s["b"]], coverage=s["coverage"], sd_over_rmse_net=s["sd_over_rmse_net"])
        else:
            row.update(calls_b=s["calls_b"], calls_a=s["calls_a"],
                       **({"train_seeds": r["train_seeds"]} if kind == "seeds" else {}))
        out[r["corpus"]] = row
    return dict(sorted(out.items()))


def _pct(r: dict) -> str:
    return "—" if r["rate"] is None else f"{100 * r['rate']:.1f}% [{100 * r['lo']:.1f}, {100 * r['hi']:.1f}]"


def render(rows: list[dict], command: str) -> str:
    """The RESULTS.md section."""
    lines = ["## Null pairs on every corpus (`textbcv calibrate`)", "",
             f"Produced by `{command}` (each row one `textbcv calibrate` folder under `docs/calibrate/`). A null "
             "pair is the system against itself trained with seeds 1 and 2 (the averaged perceptron `ap`, the "
             "stochastic proxy of lbfgs, for the iterations shown), compared at m = 3 exactly as `textbcv compare` "
             "does; "
             "every call of the decision rule (P ≥ 0.95) on it is false. Target: at most 5% each way (upper "
             "Wilson bound at most 7.5% at R = 200). SD / RMS is the posterior's median SD over the null "
             "estimates' RMS (about 1 when the posterior is as wide as its error). The model-noise columns test "
             "whether calls gather where the model-noise part was estimated at zero (Fisher's exact test). A close "
             "pair (`A vs B`, `--close`: its own folder `NAME-close`, the pair trained as the null pairs are) is "
             "compared on data sets drawn as the null pairs' against its truth, measured beside each data set "
             f"(both systems trained on {TRUTH_HALVINGS} halvings of it and tested on the rest of the corpus): its "
             "calls are B's and A's, not false calls; coverage is how often the 95% interval, widened by the "
             "truth's noise, held the truth, and SD / RMSE net the posterior's median SD over the estimates' RMSE "
             "net of the truth's noise (about 1 when the posterior is as wide as its error). A row whose system has "
             "several seeds per side (`--train-seeds K`: its own folder `NAME-seedsK`) trains A with seeds 1 … K "
             "and B with K + 1 … 2K on every fold, counted together as `textbcv compare --train-seeds K` counts "
             "them, the seeds a part of the posterior.", "",
             "| corpus | system | sentences per data set | R | seed 2 (B) called better | seed 1 (A) called better | "
             "SD / RMS | model noise at 0 | calls there | calls elsewhere | p | coverage | SD / RMSE net |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        s = r["summary"]
        o = r["settings"]["options"] if r.get("kind", "null") != "close" else r["settings"]["pair_options"]
        system = f"{r['system']} ({o.get('algorithm', 'lbfgs')}, {o.get('max_iterations', 100)} iterations)"
        if r.get("kind") == "seeds":
            system = system[:-1] + f"; {r['train_seeds']} seeds per side)"
        if r.get("kind", "null") == "close":
            net = "—" if s["sd_over_rmse_net"] is None else f"{s['sd_over_rmse_net']:.2f}"
            lines.append(f"| {r['label']} | {system} | {r['settings']['size']:,} | {s['calls']['n']} | "
                         f"{_pct(s['calls_b'])} | {_pct(s['calls_a'])} | — | — | — | — | — | "
                         f"{_pct(s['coverage'])} | {net} |")
            continue
        ratio = "—" if s["sd_over_rms"] is None else f"{s['sd_over_rms']:.2f}"
        p = "—" if s["floor_p"] is None else f"{s['floor_p']:.2f}"
        lines.append(f"| {r['label']} | {system} | {r['settings']['size']:,} | {s['calls']['n']} | "
                     f"{_pct(s['calls_b'])} | {_pct(s['calls_a'])} | {ratio} | {_pct(s['floored'])} | "
                     f"{_pct(s['calls_floored'])} | {_pct(s['calls_other'])} | {p} | — | — |")
    if not rows:
        lines.append("| (no finished data set yet) | | | | | | | | | | | | |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", default=",".join(CORPORA), help="which corpora (default all)")
    ap.add_argument("--reps", type=int, default=200, help="data sets per corpus (default 200)")
    ap.add_argument("--chunk", type=int, default=10, help="data sets added to a corpus before the next (default 10)")
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder of calibrate/ and calibration_corpora.json")
    ap.add_argument("--results", default=None, help="RESULTS.md to update (default OUT/RESULTS.md)")
    ap.add_argument("--until", type=float, default=None, help="stop starting new data sets after this many seconds")
    ap.add_argument("--summarize-only", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="two tiny data sets of the bundled corpora")
    ap.add_argument("--close", action="store_true",
                    help="run the corpora's close pairs (folders NAME-close) instead of their null pairs")
    ap.add_argument("--m", type=int, default=M,
                    help=f"splits per data set (default {M}); another m runs into folders NAME-mM, which the design "
                         "study reads (scripts/design_study.py) and this summary leaves out")
    ap.add_argument("--train-seeds", type=int, default=1, metavar="K",
                    help="run the null pairs with K > 1 training seeds per side (folders NAME-seedsK)")
    args = ap.parse_args(argv)
    table = SMOKE if args.smoke else CORPORA
    chosen = args.corpora != ap.get_default("corpora")
    names = [c.strip() for c in args.corpora.split(",") if c.strip()] if chosen or not args.smoke else list(table)
    if any(n not in table for n in names):
        ap.error(f"--corpora: choose from {', '.join(table)}")
    if args.train_seeds < 1 or (args.train_seeds > 1 and args.close):
        ap.error("--train-seeds: a whole number of at least 1, for the null pairs (not with --close)")
    if args.close:
        if chosen and any("pair" not in table[n] for n in names):
            ap.error(f"--close: choose from the corpora that name a close pair: "
                     f"{', '.join(n for n in table if 'pair' in table[n])}")
        names = [n for n in names if "pair" in table[n]]
    reps, iterations = (2, 2) if args.smoke else (args.reps, MAX_ITERATIONS)
    out = Path(args.out)
    units = out / "calibrate"
    t0 = time.time()
    if not args.summarize_only:
        target = {n: 0 for n in names}
        while any(target[n] < reps for n in names):
            for n in names:
                if target[n] >= reps:
                    continue
                if args.until is not None and time.time() - t0 > args.until:
                    print(f"calibration_corpora: --until reached after {fmt_seconds(time.time() - t0)}",
                          file=sys.stderr)
                    target = {k: reps for k in names}
                    break
                target[n] = min(reps, target[n] + args.chunk)
                t1 = time.time()
                run_corpus(n, table[n], units, target[n], iterations, args.smoke, args.close, args.train_seeds,
                           args.m)
                folder = folder_of(n, args.close, args.train_seeds, args.m)
                print(f"calibration_corpora: {folder} has {target[n]} data sets "
                      f"({fmt_seconds(time.time() - t1)})", file=sys.stderr, flush=True)
    rows = [r for n in table if (r := row(n, table[n], units)) is not None]
    rows += [r for n in table if "pair" in table[n] and (r := row(n, table[n], units, close=True)) is not None]
    seeded = sorted({int(f.name.rsplit(SEEDS, 1)[1]) for f in units.glob(f"*{SEEDS}*")
                     if f.name.rsplit(SEEDS, 1)[1].isdigit()}) if units.exists() else []
    rows += [r for k in seeded for n in table if (r := row(n, table[n], units, train_seeds=k)) is not None]
    command = "scripts/calibration_corpora.py" + (" --smoke" if args.smoke else "")
    write_json(out / "calibration_corpora.json", {"command": command, "rows": rows})
    update_section(Path(args.results) if args.results else out / "RESULTS.md", "calibration-corpora",
                   render(rows, command))
    if not args.smoke and out.resolve() == (ROOT / "docs").resolve():
        update_evidence("calibration_corpora", evidence_rows(rows), EVIDENCE_ABOUT)
        if seeded:
            update_evidence("calibration_corpora_seeds", evidence_rows(rows, "seeds"), SEEDS_ABOUT)
        if any(r["kind"] == "close" for r in rows):
            update_evidence("calibration_corpora_close", evidence_rows(rows, "close"), CLOSE_ABOUT)
    print(f"calibration_corpora: summary of {len(rows)} corpora written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
