#!/usr/bin/env python3
"""Which feature template should a corpus without POS (tokens and NER tags only) get by default?

Every NER corpus of ``../shared/corpora`` is reduced to its tokens and NER tags (the POS and chunk
columns removed), as a user's words-only corpus would come: CoNLL-2003 English (eng.train, whole
documents until ``--sentences``), CoNLL-2002 Spanish (esp.train, Latin-1, no document marks: the
halves are by sentence), and the bundled ``corpora/ner_en.conll``. On each, ``textbcv.compare``
itself compares the words-only templates (IOB2, the CRF defaults, m = 3): ``ner-words`` (word
n-grams, the thesis's template without POS) against ``ner-rich-words`` (lowercased-word and
short-shape n-grams, the word's shape, prefixes, suffixes and case flags), with every report's
most-frequent-tag memoriser beside them. The default is the template best on every corpus that also
beats the memoriser there; what this evidence cannot cover (social-media text, other languages)
is said in the summary.

One finished corpus is one line of ``docs/words_template/units.jsonl`` (committed); a corpus in
progress resumes from its run directory under ``--work`` (every finished fold is saved). The summary
goes to ``docs/words_template.json`` and the "words-template" section of ``docs/RESULTS.md``.

Usage: scripts/words_template.py [--sentences 4000] [--m 3]        smoke: --smoke (under a minute)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import textbcv  # noqa: E402
from textbcv.corpus import read_corpus, write_conll  # noqa: E402

from _results import ROOT, fmt_seconds, machine, update_section  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpora"
#: name → (label, path, encoding, its columns)
CORPORA = {
    "conll2003": ("CoNLL-2003 English eng.train, POS and chunk removed", SHARED / "conll2003_en" / "eng.train",
                  "utf-8", "token,pos,chunk,ner"),
    "conll2002": ("CoNLL-2002 Spanish esp.train (Latin-1), POS removed", SHARED / "conll2002_es" / "esp.train",
                  "latin-1", "token,pos,ner"),
    "bundled": ("bundled corpora/ner_en.conll, POS and chunk removed", ROOT / "corpora" / "ner_en.conll", "utf-8",
                "token,pos,chunk,ner"),
}
TEMPLATES = ("ner-words", "ner-rich-words")


def words_only(name: str, limit: int, work: Path) -> Path:
    """The corpus ``name`` as a two-column file (token, NER tag) of at most ``limit`` sentences, whole documents
    where it marks them, written under ``work`` (never into the repository)."""
    label, path, enc, columns = CORPORA[name]
    c = read_corpus(str(path), format="conll", encoding=enc, columns=columns)
    sents = list(c)
    if len(sents) > limit:
        if c.n_documents > 1:  # whole documents, in file order
            last = sents[limit - 1].document
            sents = [s for s in sents if s.document <= last]
        else:
            sents = sents[:limit]
    out = work / f"{name}.conll"
    write_conll(sents, out, columns=("token", "ner"), docstart=c.n_documents > 1)
    return out


def run_corpus(name: str, args, work: Path, log) -> dict:
    """Compare the templates on one corpus (resuming its run directory); the unit line."""
    t0 = time.time()
    corpus = words_only(name, args.sentences, work)
    run = work / f"run-{name}"
    systems = [f"iob2+{t}" for t in TEMPLATES]
    opts = {"max_iterations": args.max_iterations} if args.max_iterations else {}
    r = textbcv.compare(str(corpus), systems, m=args.m, out=run, resume=run.exists(), progress=False, plots=False,
                        task="ner", **opts)
    rep = r.to_dict()
    f1 = {s: rep["systems"][s]["f1"] for s in systems}
    c = next(x for x in rep["comparisons"] if x["metric"] == "f1")
    unit = {
        "corpus": name, "label": CORPORA[name][0], "sentences": rep["meta"]["corpus"]["sentences"],
        "documents": rep["meta"]["corpus"].get("documents"), "m": rep["m"],
        "units": rep["meta"]["options"].get("group_by"),
        "f1": {s.split("+", 1)[1]: {"estimate": f1[s]["estimate"], "ci": f1[s]["ci"]} for s in systems},
        "baseline_f1": (rep.get("baseline") or {}).get("f1"),
        "difference": {"a": c["a"].split("+", 1)[1], "b": c["b"].split("+", 1)[1], **c["difference"],
                       "p_b_better": c["p_b_better"], "decision": c["decision"]},
        "seconds": round(time.time() - t0, 1),
    }
    log(f"words_template {name}: {unit['sentences']:,} sentences, "
        + ", ".join(f"{t} F1 {100 * v['estimate']:.2f}" for t, v in unit["f1"].items())
        + f", memoriser {100 * (unit['baseline_f1'] or 0):.2f} ({fmt_seconds(unit['seconds'])})")
    return unit


def summarize(units: list[dict]) -> dict:
    """The choice: the template ahead on every corpus, where it also beats the memoriser."""
    best = {}
    for u in units:
        est = {t: v["estimate"] for t, v in u["f1"].items()}
        best[u["corpus"]] = max(est, key=lambda t: est[t])
    winners = set(best.values())
    choice = winners.pop() if len(winners) == 1 else None
    beats = {u["corpus"]: (u["baseline_f1"] is not None and choice is not None
                           and u["f1"][choice]["estimate"] > u["baseline_f1"]) for u in units}
    return {"units": units, "best": best, "choice": choice, "beats_memoriser": beats,
            "covers": [u["label"] for u in units],
            "not_covered": "social-media or other informal text, languages other than English and Spanish, and "
                           "tag sets other than CoNLL's four types: no such NER corpus was at hand"}


def render(s: dict) -> str:
    L = ["## Default template for corpora without POS (words only)", "",
         "Written by `scripts/words_template.py`. Each NER corpus reduced to tokens and NER tags, compared by "
         f"`textbcv.compare` (IOB2, CRF defaults, {s['units'][0]['m'] if s['units'] else 3}×2 BCV; documents kept "
         "whole where marked) on two words-only "
         "templates, with the report's most-frequent-tag memoriser. F1 in percent with 95% credible intervals; "
         "ΔF1 = ner-rich-words − ner-words with its paired 95% interval.", "",
         "| corpus | sentences | halves by | ner-words | ner-rich-words | memoriser | ΔF1 [95%] | P(rich better) |",
         "|---|---:|---|---|---|---:|---|---:|"]
    for u in s["units"]:
        def cell(t: str) -> str:
            v = u["f1"][t]
            return f"{100 * v['estimate']:.2f} [{100 * v['ci'][0]:.2f}, {100 * v['ci'][1]:.2f}]"
        d = u["difference"]
        sign = 1 if d["b"] == "ner-rich-words" else -1
        lo, hi = sorted((sign * d["ci"][0], sign * d["ci"][1]))
        p = d["p_b_better"] if sign > 0 else 1 - d["p_b_better"]
        base = "–" if u["baseline_f1"] is None else f"{100 * u['baseline_f1']:.2f}"
        unit = "document" if (u.get("documents") or 0) > 1 else "sentence (no document marks)"
        L.append(f"| {u['label']} | {u['sentences']:,} | {unit} | {cell('ner-words')} | {cell('ner-rich-words')} | "
                 f"{base} | "
                 f"{100 * sign * d['estimate']:+.2f} [{100 * lo:+.2f}, {100 * hi:+.2f}] | {p:.4f} |")
    choice = s["choice"]
    L += ["", "textbcv's default for a NER corpus without a pos column follows this choice (`DEFAULT_CHOICES` in "
          "`textbcv/tagging/system.py`).", "", (f"Choice: **{choice}**, ahead on every corpus"
               + ("" if not choice else "; above the memoriser on " + ", ".join(
                   k for k, v in s["beats_memoriser"].items() if v) + ".")
               if choice else "No template is ahead on every corpus: the default is not changed by this evidence."),
          "", f"Not covered: {s['not_covered']}."]
    return "\n".join(L)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sentences", type=int, default=4000, help="sentences per corpus (whole documents; default 4000)")
    ap.add_argument("--m", type=int, default=3)
    ap.add_argument("--max-iterations", type=int, default=None, help="CRF iterations (default: textbcv's)")
    ap.add_argument("--corpora", default=",".join(CORPORA))
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder of words_template.json and its units")
    ap.add_argument("--results", default=None, help="RESULTS.md to update (default OUT/RESULTS.md)")
    ap.add_argument("--work", default=str(ROOT / ".work" / "words_template"))
    ap.add_argument("--smoke", action="store_true", help="the bundled corpus, 300 sentences, m = 1, 5 iterations")
    args = ap.parse_args(argv)
    if args.smoke:
        args.sentences, args.m, args.max_iterations, args.corpora = 300, 1, 5, "bundled"
    names = [c for c in args.corpora.split(",") if c]
    for c in names:
        if c not in CORPORA:
            ap.error(f"--corpora: choose from {', '.join(CORPORA)}")
        if not CORPORA[c][1].is_file():
            ap.error(f"{CORPORA[c][1]} is missing (../shared/corpora beside the checkout)")
    out, work = Path(args.out), Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    units_path = out / "words_template" / "units.jsonl"
    units_path.parent.mkdir(parents=True, exist_ok=True)
    settings = {"sentences": args.sentences, "m": args.m, "max_iterations": args.max_iterations,
                "templates": list(TEMPLATES)}
    done = {}
    if units_path.exists():
        for line in units_path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                u = json.loads(line)
                if u.get("settings") == settings:
                    done[u["corpus"]] = u

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    for name in names:
        if name in done:
            log(f"words_template {name}: done (committed)")
            continue
        unit = {**run_corpus(name, args, work, log), "settings": settings}
        with open(units_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(unit, sort_keys=True) + "\n")
        done[name] = unit
    s = summarize([done[n] for n in CORPORA if n in done])
    s["machine"] = machine()
    (out / "words_template.json").write_text(json.dumps(s, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    update_section(Path(args.results) if args.results else out / "RESULTS.md", "words-template", render(s))
    log(f"summary written: {out / 'words_template.json'} (choice: {s['choice']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
