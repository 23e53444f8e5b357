#!/usr/bin/env python3
"""Run every benchmark (read, score, split, stats, tag) as a subprocess; one JSON and one RESULTS.md table.

Each benchmark measures textbcv and a reference in the same run; the table
gives both absolute times on this machine and their ratio (textbcv time /
reference time, lower is better; for ``tag`` the reference is the time spent
inside crfsuite divided by the workers, so the ratio is the runner's
overhead), wall time and CPU time (user + system) side by side where the
benchmark measures both: on a loaded machine a short process loses more wall
time to waiting than a long one, and the CPU ratio is what textbcv itself costs.
The machine (date, ``nproc``, load average before and after) is recorded,
because absolute times on a shared machine move with its load.

The real corpora (``--shared``, default ``../shared/corpora``) and conlleval.pl (``--conlleval``) are not part
of a checkout: a case that needs one says it is skipped, and why, in the table and the JSON.

``memory`` runs `textbcv split` at 5k to 80k sentences and `textbcv compare` at 5k and 20k (peak RSS of each
child process, the growth exponent of split's CPU time); ``command`` measures a command system's CPU and
wall time per task and per run beyond the command's own.

Usage: scripts/bench_all.py [--quick] [--only read,score,split,stats,tag,memory,command]
       [--split-n N] [--tag-sentences N] [--tag-max-iterations K] [--repeat R]
       [--shared DIR] [--conlleval PATH]
       [--json docs/benchmarks.json] [--results docs/RESULTS.md]

``--quick`` = --repeat 1 --split-n 200000 --tag-sentences 2000 --tag-max-iterations 20.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import ROOT, fmt_seconds, machine, update_section, write_json  # noqa: E402

BENCHES = ("read", "score", "split", "stats", "tag", "memory", "command")
#: The fold runner's overhead over crfsuite (wall time / crfsuite time per worker) it should stay under.
TAG_TARGET = 1.10


def commands(args) -> dict[str, list[str]]:
    py = sys.executable
    s = ROOT / "scripts"
    shared = Path(args.shared)
    tag = [py, str(s / "bench_tag.py"), "--jobs", str(args.jobs), "--train", str(shared / "conll2003_en" / "eng.train")]
    if args.tag_sentences:
        tag += ["--sentences", str(args.tag_sentences)]
    if args.tag_max_iterations:
        tag += ["--max-iterations", str(args.tag_max_iterations)]
    score = [py, str(s / "bench_score.py"), "--repeat", str(args.repeat), "--corpus-dir", str(shared / "conll2003_en")]
    if args.conlleval:
        score += ["--conlleval", args.conlleval]
    return {
        "read": [py, str(s / "bench_read.py"), "--repeat", str(args.repeat), "--shared", str(shared)],
        "score": score,
        "split": [py, str(s / "bench_split.py"), str(args.split_n)],
        "stats": [py, str(s / "bench_stats.py")],
        "tag": tag,
        "memory": [py, str(s / "bench_memory.py"), "--shared", str(shared)],
        "command": [py, str(s / "bench_command.py")],
    }


def run_one(name: str, cmd: list[str]) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t0 = time.time()
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.time() - t0
    out = {"command": " ".join(Path(c).name if i < 2 else c for i, c in enumerate(cmd)), "exit_code": p.returncode,
           "wall_seconds": round(wall, 2)}
    try:
        out["output"] = json.loads(p.stdout)
    except json.JSONDecodeError:
        out["error"] = (p.stderr or p.stdout)[-2000:]
    return out


def rows(name: str, r: dict) -> list[dict]:
    """Table rows ``{figure, textbcv_s, reference, reference_s, ratio}`` of one benchmark's output."""
    o = r.get("output")
    if o is None:
        return [{"figure": "failed", "textbcv_s": None, "reference": r.get("error", "")[-200:].replace("\n", " "),
                 "reference_s": None, "ratio": None}]
    out = []
    if name == "score" and o.get("startup"):
        st = o["startup"]
        if "skipped" in st:
            out.append(_skipped("score: `textbcv score FILE` on the bundled NER file against `perl conlleval.pl`",
                                st["skipped"]))
        else:
            out.append({"figure": f"score: `textbcv score FILE` on the {st['file']} (31,276 tokens), whole process "
                                  f"(same report: {st['same_report']})",
                        "textbcv_s": st["seconds"], "reference": st["reference"],
                        "reference_s": st["reference_seconds"],
                        "ratio": st["ratio"], **_cpu(st["cpu_seconds"], st["reference_cpu_seconds"]),
                        "target": "< 1 (faster, CPU): " + ("met" if st["met"] else "NOT met")})
    if "skipped" in o:
        return out + [_skipped(name, o["skipped"])]
    if name == "read":
        targets = o.get("targets", {})
        for fmt, x in o["results"].items():
            if "skipped" in x:
                out.append(_skipped(f"read {fmt}", x["skipped"]))
                continue
            t = targets.get(fmt)
            out.append({"figure": f"read {fmt} ({x['file']}, {x['tokens']:,} tokens)", "textbcv_s": x["seconds"],
                        "reference": x["reference"], "reference_s": x["reference_seconds"], "ratio": x["ratio"],
                        **_cpu(x.get("cpu_seconds"), x.get("reference_cpu_seconds")),
                        "target": None if t is None else f"≤ {t['limit']:g}: " + ("met" if t["met"] else "NOT met")})
    elif name == "score":
        c, mem, im = o["cli"], o.get("memory"), o["in_memory"]
        out.append({"figure": f"score: `textbcv score FILE --json` as a whole process, {o['tokens']:,} tokens "
                              f"(counts equal to seqeval: {o['results_equal']})",
                    "textbcv_s": c["seconds"], "reference": "plain loop + seqeval classification_report",
                    "reference_s": c["reference_seconds"], "ratio": c["seconds"] / c["reference_seconds"],
                    **_cpu(c.get("cpu_seconds"), c.get("reference_cpu_seconds")),
                    "target": f"≥ {c['target']:g}× faster: " + ("met" if c["met"] else "NOT met")
                              + f" ({c['ratio']:g}×)"})
        mc = o.get("modes_cli")
        if mc:
            out.append({"figure": f"score: `{mc['command']}` against `score FILE --json`, whole processes, "
                                  f"{o['tokens']:,} tokens",
                        "textbcv_s": mc["seconds"], "reference": "textbcv score FILE --json",
                        "reference_s": mc["score_seconds"], "ratio": mc["ratio_to_score"],
                        **_cpu(mc["cpu_seconds"], mc["score_cpu_seconds"]),
                        "target": f"≤ {mc['target_to_score']:g} (CPU): "
                                  + ("met" if mc["met_to_score"] else "NOT met")})
            out.append({"figure": f"score: `{mc['command']}` as a whole process, {o['tokens']:,} tokens",
                        "textbcv_s": mc["seconds"], "reference": mc["reference"],
                        "reference_s": mc["reference_seconds"], "ratio": mc["seconds"] / mc["reference_seconds"],
                        **_cpu(mc["cpu_seconds"], mc["reference_cpu_seconds"]),
                        "target": f"≥ {mc['target_vs_nervaluate']:g}× as fast (CPU): "
                                  + ("met" if mc["met_vs_nervaluate"] else "NOT met")
                                  + f" ({mc['cpu_speedup_vs_nervaluate']:g}×)"})
        out.append({"figure": f"score: score_tags in memory, {o['tokens']:,} tokens",
                    "textbcv_s": im["textbcv_score_tags_seconds"], "reference": "seqeval classification_report",
                    "reference_s": im["seqeval_classification_report_seconds"],
                    "ratio": im["textbcv_score_tags_seconds"] / im["seqeval_classification_report_seconds"],
                    "target": None})
        for md in o.get("modes") or []:
            out.append({"figure": f"score: a fold's conlleval counts with the matching modes and the anatomy, "
                                  f"{md['sentences']:,} sentences, tag noise {md['noise']:g} (chunk F1 "
                                  f"{md['chunk_f1']:.2f})",
                        "textbcv_s": md["with_modes_seconds"], "reference": "the same without the modes",
                        "reference_s": md["strict_seconds"], "ratio": md["ratio"],
                        "target": f"≤ {md['target']:g}×: " + ("met" if md["met"] else "NOT met")})
        if mem:
            out.append({"figure": f"score: `textbcv score` on {mem['tokens']:,} tokens ({mem['file_mb']:g} MB), "
                                  f"peak RSS {mem['peak_rss_mb']:.0f} MB",
                        "textbcv_s": mem["seconds"], "reference": "–", "reference_s": None, "ratio": None,
                        "target": f"< {mem['target_mb']} MB: " + ("met" if mem["met"] else "NOT met")})
    elif name == "split":
        out.append({"figure": f"split: balanced BCV m = {o['m']}, n = {o['n']:,} (peak {o['peak_memory_mb']:.0f} MB)",
                    "textbcv_s": o["bcv_seconds"], "reference": "sklearn RepeatedKFold(2, 15) indices",
                    "reference_s": o["repeatedkfold_seconds"], "ratio": o["bcv_seconds"] / o["repeatedkfold_seconds"]})
    elif name == "stats":
        for c in o["cases"]:
            out.append({"figure": f"stats: exact P(B better), P/R/F1, {c['counts_per_fold']:,} counts per fold",
                        "textbcv_s": c["exact_ms"] / 1e3, "reference": "Monte Carlo, L = 10^6 (Algorithm 6.1)",
                        "reference_s": c["monte_carlo_ms"] / 1e3, "ratio": c["exact_ms"] / c["monte_carlo_ms"]})
    elif name == "tag":
        ref = o["crfsuite_seconds"] / o["jobs"]
        out.append({"figure": f"tag: {o['folds']} folds, {o['corpus']['sentences']:,} sentences, m = {o['m']}, "
                              f"jobs = {o['jobs']}, {o['crf']['algorithm']} "
                              f"max_iterations = {o['crf'].get('max_iterations')}",
                    "textbcv_s": o["wall_seconds"], "reference": "time inside crfsuite / jobs",
                    "reference_s": round(ref, 3), "ratio": o["overhead_ratio"],
                    "target": f"≤ {TAG_TARGET:g}: " + ("met" if o["overhead_ratio"] <= TAG_TARGET else "NOT met")})
        bare = (o["crfsuite_train_seconds"] + o["crfsuite_tag_seconds"]) / o["jobs"]
        out.append({"figure": "tag: the same, crfsuite taking in the sequences (ItemSequence, Trainer.append) "
                              "counted as overhead",
                    "textbcv_s": o["wall_seconds"], "reference": "time in crfsuite's training and tagging / jobs",
                    "reference_s": round(bare, 3), "ratio": o["overhead_ratio_without_append"]})
    elif name == "memory":
        out += _memory_rows(o)
    elif name == "command":
        out += _command_rows(o)
    return out


def _memory_rows(o: dict) -> list[dict]:
    """Table rows of bench_memory: split's bytes per token and growth, compare's peak and the laptop line."""
    out = []
    sp = o.get("split")
    if sp:
        big = sp["sizes"][-1]
        out.append({"figure": f"memory: `{sp['command']}` on {big['sentences']:,} sentences ({big['tokens']:,} tokens, "
                              f"{o['source']}), peak RSS {big['peak_rss_mb']:.0f} MB = {sp['bytes_per_token']:g} "
                              "bytes a token",
                    "textbcv_s": big["seconds"], "reference": "–", "reference_s": None, "ratio": None,
                    "target": f"< {sp['bytes_target']} bytes a token: " + ("met" if sp["bytes_met"] else "NOT met")})
        sizes = ", ".join(f"{s['sentences'] // 1000}k {s['cpu_seconds']:g} s" for s in sp["sizes"])
        out.append({"figure": f"growth: split's CPU time over sizes ({sizes}), slope of log time on log "
                              f"sentences {sp['growth_exponent_cpu']} (wall {sp['growth_exponent_wall']})",
                    "textbcv_s": None, "reference": "–", "reference_s": None, "ratio": None,
                    "target": f"exponent ≤ {sp['growth_target']:g}: " + ("met" if sp["growth_met"] else "NOT met")})
    c = o.get("compare")
    if c:
        for s in c["sizes"]:
            target = None
            if s["sentences"] == c["target_sentences"]:
                target = f"< {c['target_mb']} MB: " + ("met" if c["met"] else "NOT met")
            out.append({"figure": f"memory: `{c['command']}` on {s['sentences']:,} sentences ({s['tokens']:,} "
                                  f"tokens), peak RSS {s['peak_rss_mb']:.0f} MB",
                        "textbcv_s": s["seconds"], "textbcv_cpu_s": s["cpu_seconds"], "reference": "–",
                        "reference_s": None, "ratio": None, "target": target})
        lap = c.get("laptop")
        if lap and lap["largest_tokens"]:
            out.append({"figure": f"memory: largest corpus a {lap['memory_gb']} GB laptop runs at --jobs "
                                  f"{lap['jobs']}: {lap['largest_tokens']:,} tokens (about "
                                  f"{lap['largest_sentences']:,} sentences), from compare's peak = "
                                  f"{lap['mb_fixed']:g} MB + {lap['bytes_per_token']:g} bytes a token, "
                                  f"{lap['processes']} processes within {lap['usable_gb']} GB",
                        "textbcv_s": None, "reference": "–", "reference_s": None, "ratio": None, "target": None})
    return out


def _command_rows(o: dict) -> list[dict]:
    """Table rows of bench_command: CPU and wall overhead per task and fixed per run, beside the commands alone."""
    big = o["runs"][-1]
    out = [{"figure": f"command: `compare` with two command systems, {big['tasks']} tasks, against the same "
                      "commands run alone",
            "textbcv_s": big["compare_seconds"], "reference": "the commands alone (subprocess.run)",
            "reference_s": big["commands_alone_seconds"],
            "ratio": big["compare_seconds"] / big["commands_alone_seconds"],
            **_cpu(big["compare_cpu_seconds"], big["commands_alone_cpu_seconds"]), "target": None}]
    if "cpu_per_task_seconds" in o:
        out.append({"figure": f"command: overhead per task beyond the command (wall {o['wall_per_task_seconds']:g} s, "
                              f"CPU {o['cpu_per_task_seconds']:g} s)",
                    "textbcv_s": o["wall_per_task_seconds"], "textbcv_cpu_s": o["cpu_per_task_seconds"],
                    "reference": "–", "reference_s": None, "ratio": None,
                    "target": f"≤ {o['per_task_cpu_target']:g} s CPU: " + ("met" if o["per_task_met"] else "NOT met")})
        out.append({"figure": "command: fixed overhead per run beyond the commands "
                              f"(wall {o['wall_fixed_seconds']:g} s, "
                              f"CPU {o['cpu_fixed_seconds']:g} s)",
                    "textbcv_s": o["wall_fixed_seconds"], "textbcv_cpu_s": o["cpu_fixed_seconds"],
                    "reference": "–", "reference_s": None, "ratio": None,
                    "target": f"≤ {o['fixed_cpu_target']:g} s CPU: " + ("met" if o["fixed_met"] else "NOT met")})
    return out


def _skipped(figure: str, why: str) -> dict:
    """A table row for a case that did not run."""
    return {"figure": f"{figure}: skipped", "textbcv_s": None, "reference": why, "reference_s": None, "ratio": None}


def _cpu(textbcv_cpu, reference_cpu) -> dict:
    """The CPU columns of a row (none when the benchmark measured no CPU time)."""
    if textbcv_cpu is None or not reference_cpu:
        return {}
    return {"textbcv_cpu_s": textbcv_cpu, "reference_cpu_s": reference_cpu, "cpu_ratio": textbcv_cpu / reference_cpu}


def _num(x, digits=4) -> str:
    if x is None:
        return "–"
    return f"{x:.{digits}g}" if x < 1000 else f"{x:,.0f}"


def render(result: dict) -> str:
    mb, ma = result["machine_before"], result["machine_after"]
    L = ["## Benchmarks", "",
         f"`{result['command']}` on {mb['date']}: nproc = {mb['nproc']}, load average "
         f"{', '.join(map(str, mb['loadavg']))} before and {', '.join(map(str, ma['loadavg']))} after "
         f"(the machine is shared with other jobs, so absolute times are noisy; the ratios compare textbcv with a "
         f"reference measured in the same run). Ratio = textbcv time / reference time (lower is better; for `tag` "
         f"it is the runner's overhead over pure crfsuite time); wall time and CPU time (user + system) side by side "
         f"where the benchmark measures both.", "",
         "| benchmark | figure | textbcv (s) | reference | reference (s) | ratio | textbcv CPU (s) | reference CPU (s) "
         "| CPU ratio | target |",
         "|---|---|---:|---|---:|---:|---:|---:|---:|---|"]
    for name in result["order"]:
        for r in result["benchmarks"][name]["rows"]:
            L.append(f"| {name} | {r['figure']} | {_num(r['textbcv_s'])} | {r['reference']} | "
                     f"{_num(r['reference_s'])} | {_num(r['ratio'], 3)} | {_num(r.get('textbcv_cpu_s'))} | "
                     f"{_num(r.get('reference_cpu_s'))} | {_num(r.get('cpu_ratio'), 3)} | {r.get('target') or '–'} |")
    L += ["", "Wall time per benchmark script: " + ", ".join(
        f"{n} {fmt_seconds(result['benchmarks'][n]['wall_seconds'])}" for n in result["order"])
        + f"; total {fmt_seconds(result['wall_seconds'])}."]
    return "\n".join(L)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default=",".join(BENCHES))
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--split-n", type=int, default=None)
    ap.add_argument("--tag-sentences", type=int, default=None)
    ap.add_argument("--tag-max-iterations", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "corpora"),
                    help="the real corpora (not part of a checkout; the cases on them are skipped without)")
    ap.add_argument("--conlleval", default=os.environ.get("TEXTBCV_CONLLEVAL_PL"),
                    help="conlleval.pl, for score's start-up case (default: $TEXTBCV_CONLLEVAL_PL; skipped without)")
    ap.add_argument("--json", default=str(ROOT / "docs" / "benchmarks.json"))
    ap.add_argument("--results", default=str(ROOT / "docs" / "RESULTS.md"))
    args = ap.parse_args(argv)
    quick = {"repeat": 1, "split_n": 200_000, "tag_sentences": 2000, "tag_max_iterations": 20}
    full = {"repeat": 3, "split_n": 1_000_000, "tag_sentences": None, "tag_max_iterations": None}
    for k, v in (quick if args.quick else full).items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    order = [b for b in args.only.split(",") if b]
    bad = [b for b in order if b not in BENCHES]
    if bad:
        ap.error(f"unknown benchmark(s) {', '.join(bad)} (known: {', '.join(BENCHES)})")
    cmds = commands(args)
    before = machine()
    t0 = time.time()
    benches = {}
    for name in order:
        print(f"[{name}] {' '.join(cmds[name][1:])}", file=sys.stderr, flush=True)
        r = run_one(name, cmds[name])
        r["rows"] = rows(name, r)
        benches[name] = r
    result = {"command": ("scripts/bench_all.py " + " ".join(argv if argv is not None else sys.argv[1:])).strip(),
              "quick": args.quick, "order": order, "machine_before": before, "machine_after": machine(),
              "wall_seconds": round(time.time() - t0, 2), "benchmarks": benches}
    write_json(args.json, result)
    update_section(args.results, "benchmarks", render(result))
    ratios = {n: [{"figure": r["figure"], "ratio": r["ratio"]} for r in benches[n]["rows"]] for n in order}
    print(json.dumps(ratios, indent=2))
    return 0 if all(b["exit_code"] == 0 for b in benches.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
