#!/usr/bin/env python3
"""Benchmark: `textbcv score` against seqeval on 1.2 million CoNLL-2003 tokens; prints JSON.

The input is a conlleval file (``token gold predicted``, a blank line between
sentences) of 1,205,672 tokens: the NER column of eng.train + eng.testa +
eng.testb (IOB1, without the -DOCSTART- lines) four times, the predictions
perturbed with a fixed seed (each tag replaced, with probability ``--noise``,
by a random tag of the tag set, which also makes invalid sequences).

Measured in this run, on the same file:

* ``cli``: ``textbcv score FILE --json`` as a whole process (interpreter
  start-up, imports, reading, scoring, printing), best of ``--repeat`` runs
  after one warm-up run (which writes the bytecode caches, as an installed
  package has them), against the reference: the file read by a plain
  Python loop into lists of tags and seqeval's ``classification_report``
  on them (in-process, best of ``--reference-repeat``; its start-up is not
  counted). Target: ratio >= 30 (wall time). The CPU times (user + system)
  are given too: on a loaded machine a short process loses more wall time
  to waiting than a long one.
* ``in_memory``: :func:`textbcv.scoring.score_tags` on the same lists against
  ``classification_report`` and ``f1_score`` (the scoring cores alone).
* ``modes``: a fold's scoring as a run does it — conlleval's counts per type and per sentence
  (``count_chunks``, ``sentence_counts``) — with and without the matching modes and the error anatomy
  (``mode_record``), on the chunks of the same gold and predicted tags (once, not four copies), at the
  file's noise and at 0.03 (a chunk F1 near a trained tagger's: random tag noise fragments chunks, and
  fragments are what the modes match one by one). Target: with the modes at most 1.5 times without.
* ``memory``: peak resident memory of ``textbcv score FILE --json`` on a
  10-million-token file (the same lines repeated; ``--big-tokens``). Target:
  under 1 GB (the reader streams the file in blocks).
* ``modes_cli``: ``textbcv score FILE --json --modes`` as a whole process against ``score FILE --json``
  (target: at most 1.5 times) and against the plain loop and nervaluate's ``Evaluator`` on the same tags
  (converted to IOB2, as its ``list`` loader reads them, before the clock starts; in-process; target: at
  least as fast).
* ``startup``: ``textbcv score FILE`` (the text report) on the bundled 31,276-token NER file against
  ``perl conlleval.pl < FILE``, both whole processes, best of ``--repeat`` runs taken in turn (target:
  faster, in CPU time: the wall time of a tenth-of-a-second process on a loaded machine is mostly
  waiting). conlleval.pl is not part of textbcv: give its path with ``--conlleval`` (else this case is
  skipped); the two reports are compared byte for byte.

The counts of the process equal those of seqeval (default mode, conlleval's
rules) and of ``score_tags``; ``results_equal`` says so. Without the corpus directory (the shared corpora are
not part of a checkout) the cases on it are skipped, with the reason in the JSON.

Usage: .venv/bin/python scripts/bench_score.py [--corpus-dir ../shared/corpora/conll2003_en] [--repeat 5]
       [--conlleval PATH/conlleval.pl]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CLI_TARGET = 30.0
MODES_TARGET = 1.5
#: ``score --modes`` at most this many times ``score`` (whole processes), and at least as fast as nervaluate
MODES_CLI_TARGET = 1.5
NERVALUATE_TARGET = 1.0
#: tag noise levels of the modes benchmark besides ``--noise``: 0.03 gives a chunk F1 near a trained tagger's
MODES_NOISE = (0.03,)
MEMORY_TARGET_MB = 1024


def perturb(gold: list[list[str]], noise: float, seed: int) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    tagset = sorted({t for s in gold for t in s} | {f"B-{t[2:]}" for s in gold for t in s if t != "O"})
    flat = [t for s in gold for t in s]
    hit = rng.random(len(flat)) < noise
    repl = rng.integers(0, len(tagset), len(flat))
    flat = [tagset[r] if h else t for t, h, r in zip(flat, hit.tolist(), repl.tolist())]
    out, i = [], 0
    for s in gold:
        out.append(flat[i: i + len(s)])
        i += len(s)
    return out


def write_file(path: Path, tokens, gold, pred, copies: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(copies):
            for t, g, p in zip(tokens, gold, pred):
                f.write("".join(f"{a} {b} {c}\n" for a, b, c in zip(t, g, p)) + "\n")


def best_time(fn, repeat: int):
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def read_plain(path: Path) -> tuple[list[list[str]], list[list[str]]]:
    """The reference reader: a plain Python loop over the lines."""
    gold, pred, g, p = [], [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if not fields:
                if g:
                    gold.append(g)
                    pred.append(p)
                    g, p = [], []
                continue
            g.append(fields[-2])
            p.append(fields[-1])
    if g:
        gold.append(g)
        pred.append(p)
    return gold, pred


def textbcv_command() -> list[str]:
    exe = Path(sys.executable).with_name("textbcv")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "textbcv"]


def run_process(cmd: list[str], env: dict, stdin: Path | None = None) -> tuple[float, float, str]:
    """Wall time, CPU time (user + system) and stdout of one process."""
    t = time.perf_counter()
    with open(stdin or os.devnull, "rb") as fin:
        proc = subprocess.Popen(cmd, stdin=fin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        out = proc.stdout.read()
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = status
    if status != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {err.decode()}")
    return wall, usage.ru_utime + usage.ru_stime, out.decode()


def peak_rss_mb(cmd: list[str], env: dict) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one run of ``cmd``."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    if status != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.read().decode()}")
    return wall, usage.ru_maxrss / 1024


def best_processes(cmds: dict[str, tuple[list[str], Path | None]], env: dict, repeat: int) -> dict[str, dict]:
    """Per name, the best wall and CPU seconds of ``repeat`` runs of its command (the commands taken in turn, after
    one warm-up run each), and its output."""
    best = {k: {"seconds": float("inf"), "cpu_seconds": float("inf"), "out": ""} for k in cmds}
    for k, (cmd, stdin) in cmds.items():
        best[k]["out"] = run_process(cmd, env, stdin)[2]
    for _ in range(repeat):
        for k, (cmd, stdin) in cmds.items():
            wall, cpu, _ = run_process(cmd, env, stdin)
            best[k]["seconds"] = min(best[k]["seconds"], wall)
            best[k]["cpu_seconds"] = min(best[k]["cpu_seconds"], cpu)
    return best


def startup(cmd: list[str], env: dict, conlleval: Path | None, repeat: int) -> dict:
    """``textbcv score`` against ``perl conlleval.pl`` on the bundled NER file (both whole processes)."""
    import textbcv

    ner = Path(textbcv.bundled_corpora()["ner"])
    if conlleval is None or not conlleval.is_file():
        return {"skipped": "conlleval.pl is not part of textbcv: give its path with --conlleval"
                + (f" ({conlleval} not found)" if conlleval else "")}
    b = best_processes({"textbcv": (cmd + ["score", str(ner)], None), "perl": (["perl", str(conlleval)], ner)},
                       env, repeat)
    t, p = b["textbcv"], b["perl"]
    return {"file": f"bundled {ner.name}", "command": "textbcv score FILE", "reference": "perl conlleval.pl < FILE",
            "seconds": round(t["seconds"], 4), "cpu_seconds": round(t["cpu_seconds"], 4),
            "reference_seconds": round(p["seconds"], 4), "reference_cpu_seconds": round(p["cpu_seconds"], 4),
            "ratio": round(t["seconds"] / p["seconds"], 3), "cpu_ratio": round(t["cpu_seconds"] / p["cpu_seconds"], 3),
            "same_report": t["out"] == p["out"], "target": "< 1 (faster than conlleval.pl, CPU time)",
            "met": t["cpu_seconds"] < p["cpu_seconds"]}


def modes_cli(cmd: list[str], env: dict, path: Path, tags: tuple[list[list[str]], list[list[str]]],
              repeat: int) -> dict:
    """``score --modes`` against ``score`` (whole processes) and against a plain loop + nervaluate (in-process)."""
    from nervaluate import Evaluator

    from textbcv.schemes import convert

    b = best_processes({"score": (cmd + ["score", str(path), "--json"], None),
                        "modes": (cmd + ["score", str(path), "--json", "--modes"], None)}, env, repeat)
    gold, pred = tags
    g2, p2 = [convert(t, "iob1", "iob2") for t in gold], [convert(t, "iob1", "iob2") for t in pred]
    types = sorted({t[2:] for s in g2 for t in s if t != "O"})
    t0, c0 = time.perf_counter(), time.process_time()
    read_plain(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Evaluator(g2, p2, tags=types, loader="list").evaluate()
    t_ner, c_ner = time.perf_counter() - t0, time.process_time() - c0
    m, s = b["modes"], b["score"]
    return {"command": "textbcv score FILE --json --modes", "seconds": round(m["seconds"], 4),
            "cpu_seconds": round(m["cpu_seconds"], 4), "score_seconds": round(s["seconds"], 4),
            "score_cpu_seconds": round(s["cpu_seconds"], 4), "ratio_to_score": round(m["seconds"] / s["seconds"], 3),
            "cpu_ratio_to_score": round(m["cpu_seconds"] / s["cpu_seconds"], 3), "target_to_score": MODES_CLI_TARGET,
            "met_to_score": m["cpu_seconds"] / s["cpu_seconds"] <= MODES_CLI_TARGET,
            "reference": "plain Python loop + nervaluate Evaluator (in-process)",
            "reference_seconds": round(t_ner, 3), "reference_cpu_seconds": round(c_ner, 3),
            "speedup_vs_nervaluate": round(t_ner / m["seconds"], 2),
            "cpu_speedup_vs_nervaluate": round(c_ner / m["cpu_seconds"], 2), "target_vs_nervaluate": NERVALUATE_TARGET,
            "met_vs_nervaluate": c_ner / m["cpu_seconds"] >= NERVALUATE_TARGET}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus-dir", type=Path, default=ROOT.parent / "shared" / "corpora" / "conll2003_en")
    ap.add_argument("--conlleval", type=Path, default=None, help="conlleval.pl, for the start-up case")
    ap.add_argument("--noise", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--copies", type=int, default=4, help="copies of the three files (default 4: 1.2M tokens)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of the textbcv process (best kept)")
    ap.add_argument("--reference-repeat", type=int, default=2, help="runs of the seqeval reference (best kept)")
    ap.add_argument("--big-tokens", type=float, default=1e7, help="tokens of the memory test file (0: skip it)")
    ap.add_argument("--no-modes-cli", action="store_true", help="skip the modes_cli case (nervaluate: slow)")
    args = ap.parse_args(argv)

    from seqeval.metrics import classification_report, f1_score

    from textbcv.corpus import read_conll
    from textbcv.scoring import score_tags

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cmd = textbcv_command()
    start = startup(cmd, env, args.conlleval, args.repeat)
    files = [args.corpus_dir / n for n in ("eng.train", "eng.testa", "eng.testb")]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        why = f"needs CoNLL-2003 ({', '.join(missing)} not found; the shared corpora are not part of a checkout)"
        print(json.dumps({"benchmark": "score", "startup": start, "skipped": why}, indent=2))
        return 0
    corpus = read_conll(files)
    tokens = [list(s.tokens) for s in corpus]
    gold = [list(s.tags) for s in corpus]
    pred = perturb(gold, args.noise, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "predictions.txt"
        write_file(path, tokens, gold, pred, args.copies)
        n_tokens = sum(map(len, gold)) * args.copies

        # the whole command, as a user runs it
        run_process(cmd + ["score", str(path), "--json"], env)  # warm-up: bytecode caches
        t_cli, cpu_cli, out = float("inf"), float("inf"), None
        for _ in range(args.repeat):
            t, cpu, out = run_process(cmd + ["score", str(path), "--json"], env)
            t_cli, cpu_cli = min(t_cli, t), min(cpu_cli, cpu)
        cli = json.loads(out)

        # the reference: a plain loop and seqeval
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")

            def reference():
                g, p = read_plain(path)
                return g, p, classification_report(g, p, digits=4, output_dict=True)

            t_ref = cpu_ref = float("inf")
            for _ in range(args.reference_repeat):
                c0 = time.process_time()
                t_once, (g_all, p_all, report) = best_time(reference, 1)
                t_ref, cpu_ref = min(t_ref, t_once), min(cpu_ref, time.process_time() - c0)
            t_report, _ = best_time(lambda: classification_report(g_all, p_all, digits=4, output_dict=True), 1)
            t_f1, f1 = best_time(lambda: f1_score(g_all, p_all), 1)
        t_tags, s_tags = best_time(lambda: score_tags(g_all, p_all), 3)

        # a fold's scoring, as a run does it, with and without the modes
        from textbcv.schemes import decode
        from textbcv.scoring import count_chunks, sentence_counts
        from textbcv.scoring.modes import mode_record

        g_chunks = [decode(t, "iob1") for t in gold]
        modes = []
        for noise in sorted({args.noise, *MODES_NOISE}, reverse=True):
            p_chunks = [decode(t, "iob1") for t in (pred if noise == args.noise else perturb(gold, noise, args.seed))]
            t_strict, counts = best_time(lambda: (count_chunks(g_chunks, p_chunks),
                                                  sentence_counts(g_chunks, p_chunks)), 5)
            t_modes, rec = best_time(lambda: (count_chunks(g_chunks, p_chunks),
                                              mode_record(g_chunks, p_chunks, sentence_counts(g_chunks, p_chunks))), 5)
            o = counts[0].overall
            modes.append({"noise": noise, "chunk_f1": round(2 * o.tp / (2 * o.tp + o.fp + o.fn), 4),
                          "sentences": len(g_chunks), "strict_seconds": round(t_strict, 4),
                          "with_modes_seconds": round(t_modes, 4), "ratio": round(t_modes / t_strict, 2),
                          "target": MODES_TARGET, "met": t_modes / t_strict <= MODES_TARGET,
                          "sentences_matched_one_by_one": len(rec[1]["sentences"])})

        modes_process = None
        if not args.no_modes_cli:
            modes_process = modes_cli(cmd, env, path, (g_all, p_all), args.repeat)

        memory = None
        if args.big_tokens > 0:
            big = Path(tmp) / "big.txt"
            copies = int(np.ceil(args.big_tokens / n_tokens))
            with open(big, "wb") as f:
                data = path.read_bytes()
                for _ in range(copies):
                    f.write(data)
            path.unlink()
            t_big, rss = peak_rss_mb(cmd + ["score", str(big), "--json"], env)
            memory = {"tokens": n_tokens * copies, "file_mb": round(big.stat().st_size / 2**20, 1),
                      "seconds": round(t_big, 2), "peak_rss_mb": round(rss, 1), "target_mb": MEMORY_TARGET_MB,
                      "met": rss < MEMORY_TARGET_MB}

    same = (
        cli["overall"]["tp"] == s_tags.counts.overall.tp
        and cli["overall"]["fp"] == s_tags.counts.overall.fp
        and cli["overall"]["fn"] == s_tags.counts.overall.fn
        and abs(cli["overall"]["f1"] - f1) < 1e-12
        and all(abs(v["f1"] - report[t]["f1-score"]) < 1e-12 and v["tp"] + v["fn"] == report[t]["support"]
                for t, v in cli["types"].items())
    )
    out = {
        "benchmark": "score",
        "tokens": n_tokens,
        "noise": args.noise,
        "seed": args.seed,
        "results_equal": bool(same),
        "cli": {
            "command": " ".join(Path(c).name for c in cmd) + " score FILE --json",
            "seconds": round(t_cli, 4),
            "reference": "plain Python loop + seqeval classification_report (in-process)",
            "reference_seconds": round(t_ref, 3),
            "ratio": round(t_ref / t_cli, 2),
            "target": CLI_TARGET,
            "met": t_ref / t_cli >= CLI_TARGET,
            "cpu_seconds": round(cpu_cli, 4),
            "reference_cpu_seconds": round(cpu_ref, 3),
            "cpu_ratio": round(cpu_ref / cpu_cli, 2),
            "load_average": [round(x, 2) for x in os.getloadavg()],
        },
        "in_memory": {
            "textbcv_score_tags_seconds": round(t_tags, 4),
            "seqeval_classification_report_seconds": round(t_report, 3),
            "seqeval_f1_score_seconds": round(t_f1, 3),
            "tokens_per_s": round(n_tokens / t_tags),
            "ratio_vs_classification_report": round(t_report / t_tags, 1),
            "ratio_vs_f1_score": round(t_f1 / t_tags, 1),
        },
        "modes": modes,
        "modes_cli": modes_process,
        "startup": start,
        "memory": memory,
    }
    print(json.dumps(out, indent=2))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
