"""The report never names a winner the decision rule did not name; its pictures are exact; it stands on its own.

Runs here train nothing: the systems are "taggers" written outside textbcv
(gold tags of the exported test halves, with whole sentences blanked at a
seeded rate, or nothing predicted at all), brought in with ``textbcv
evaluate``; ``textbcv report DIR --threshold/--rope`` redraws a run from its
saved counts. Checked:

* one rule everywhere: below the threshold no winner in report.md,
  report.json's decisions, report.tex, the conclusion, the terminal output
  or any plot title (the titles are read from the figures as they are
  saved); ``--threshold 0.5`` (the thesis's rule) names the same side
  everywhere; with ``--rope`` P(equivalent) is in the table, the conclusion,
  the plot and report.tex, and the rope's unit (points) is stated;
* the F1-difference picture is the exact density of ν_B − ν_A: it integrates
  to 1 and its mass above 0 (above the rope) is P(B better) of the stats
  module, and it equals the convolution integral computed by scipy;
* five systems: a ranking, the pairwise matrix, one sentence per clear
  difference, identical systems said to be tied, no "x against x";
* undefined metrics (no predicted chunks, no gold chunks, neither) are shown
  as undefined and stored as null with a reason; no estimate is ever outside
  its own interval;
* report.md embeds every PNG it ships, states corpus, split, systems,
  settings, threshold and version, ends with the methods paragraph, and its
  command remakes report.json; report.tex holds the values of report.json
  and compiles with pdflatex where it is installed.
"""

from __future__ import annotations

import json
import random
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.stats import t as student_t
from test_byo_evaluate import read_blocks

from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.report.numbers import fmt_p
from textbcv.stats.bayes import THRESHOLD, difference_density, prob_greater
from textbcv.stats.compare import bayes_answer
from textbcv.stats.posterior import BetaPosterior, F1Posterior, posteriors

M = 3
WINNER = re.compile(r"\bsys\w+ (?:is )?better than\b|\bsys\w+ better\b(?!\))")


# ---------------------------------------------------------------- a tagger written outside textbcv


def write_system(folds: Path, out: Path, blank: float, seed: int, nothing: bool = False) -> Path:
    """Predictions = the gold tags, each sentence blanked (all O) with probability ``blank``; or no chunk at all."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(M):
        for d in (0, 1):
            lines = []
            for s in read_blocks(folds / f"fold-{i}-{d}" / "test.conll"):
                drop = nothing or rng.random() < blank
                lines += [f"{r[0]} {'O' if drop else r[-1]}" for r in s] + [""]
            (out / f"fold-{i}-{d}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    d = tmp_path_factory.mktemp("decisions")
    corpus = d / "ner.conll"
    write_conll(read_corpus(bundled_corpora()["ner"])[:400], corpus)
    assert main(["split", str(corpus), "--m", str(M), "--out", str(d / "splits.json"),
                 "--export", str(d / "folds")]) == 0
    preds = d / "preds"
    systems = {
        "sysA": write_system(d / "folds", preds / "A", 0.20, 1),
        "sysB": write_system(d / "folds", preds / "B", 0.20, 2),   # as good as A: no clear difference
        "sysStrong": write_system(d / "folds", preds / "S", 0.02, 3),
        "sysNone": write_system(d / "folds", preds / "N", 0.0, 4, nothing=True),
        "sysWeak": write_system(d / "folds", preds / "W", 0.60, 5),
    }
    shutil.copytree(preds / "A", preds / "A2")  # the same predictions as sysA
    systems["sysA2"] = preds / "A2"
    return d, corpus, systems


def evaluate(exported, out: Path, names, *extra) -> dict:
    d, corpus, systems = exported
    args = ["evaluate", str(d / "splits.json"), str(corpus), "--task", "ner", "--pred-scheme", "iob1", "--quiet",
            "--out", str(out), *extra]
    for n in names:
        args += ["--system", f"{n}={systems[n]}"]
    assert main(args) == 0
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


@pytest.fixture
def titles(monkeypatch):
    """Every title, suptitle and legend text of the figures saved while the fixture is active."""
    from matplotlib.figure import Figure

    seen: list[str] = []
    save = Figure.savefig

    def spy(self, *args, **kwargs):
        texts = [t.get_text() for t in self.texts] + ([self._suptitle.get_text()] if self._suptitle else [])
        for ax in self.axes:
            texts += [ax.get_title(), ax.get_title("left"), ax.get_title("right")]
            if ax.get_legend():
                texts += [t.get_text() for t in ax.get_legend().get_texts()]
        for legend in self.legends:
            texts += [t.get_text() for t in legend.get_texts()]
        seen.extend(t for t in texts if t)
        return save(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", spy)
    return seen


def f1_row(report, a, b):
    return next(c for c in report["comparisons"] if c["metric"] == "f1" and (c["a"], c["b"]) == (a, b))


# ---------------------------------------------------------------- one rule, stated once, used everywhere


def test_thresholds_agree():
    from textbcv.cli.common import THRESHOLD_HELP
    from textbcv.comparison.pipeline import CompareOptions

    assert f"default {THRESHOLD:g}" in THRESHOLD_HELP and CompareOptions().threshold == THRESHOLD == 0.95


def test_below_the_threshold_no_winner_anywhere(exported, tmp_path, titles, capsys):
    out = tmp_path / "run"
    r = evaluate(exported, out, ["sysA", "sysB"])
    c = f1_row(r, "sysA", "sysB")
    assert 0.5 < max(c["p_b_better"], c["p_a_better"]) < THRESHOLD  # the premise: a real, undecided difference
    assert r["threshold"] == 0.95 and r["meta"]["options"]["threshold"] == 0.95
    assert {x["decision"] for x in r["comparisons"]} == {"no clear difference"}
    md = (out / "report.md").read_text(encoding="utf-8")
    tex = (out / "report.tex").read_text(encoding="utf-8")
    for text in (md, tex, r["conclusion"], *titles):
        assert not WINNER.search(text), WINNER.search(text).group(0) + " in: " + text[:200]
    assert "No clear difference on F1" in r["conclusion"]
    side = "sysB" if c["p_b_better"] > c["p_a_better"] else "sysA"
    p = max(c["p_b_better"], c["p_a_better"])
    assert f"P({side} better) = {p:.3f}, below 0.95" in r["conclusion"]
    assert any(f"no clear difference: P({side} better) = {p:.3f} < 0.95" in t for t in titles)
    assert md.count("Decision rule:") == 1 and "at least 0.95 (--threshold)" in md
    capsys.readouterr()
    assert main(["report", str(out)]) == 0  # the short answer
    shown = capsys.readouterr().out
    assert "No clear difference on F1" in shown and not WINNER.search(shown)
    assert main(["report", str(out), "--full"]) == 0
    shown = capsys.readouterr().out
    assert "no clear difference" in shown and not WINNER.search(shown)
    assert main(["test", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "no clear difference" in shown and not WINNER.search(shown)


def test_threshold_half_is_the_thesis_rule_everywhere(exported, tmp_path, titles, capsys):
    out = tmp_path / "run"
    evaluate(exported, out, ["sysA", "sysB"], "--no-plots")
    assert not (out / "f1_difference.png").exists()
    titles.clear()
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file() and p.name != "textbcv-run.json"}
    assert main(["report", str(out), "--threshold", "0.5"]) == 0
    # a "what if" never replaces what the run said: the redrawn report has a folder of its own
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file() and p.name != "textbcv-run.json"} == before
    out = out / "what-if-threshold-0.5"
    r = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert r["threshold"] == 0.5 and r["meta"]["options"]["threshold"] == 0.5
    for c in r["comparisons"]:  # the larger probability wins; a tie (the same counts on every sentence) does not
        want = ("B better" if c["p_b_better"] > c["p_a_better"] else
                "A better" if c["p_a_better"] > c["p_b_better"] else "no clear difference")
        assert c["decision"] == want
    c = f1_row(r, "sysA", "sysB")
    win, lose = ("sysB", "sysA") if c["decision"] == "B better" else ("sysA", "sysB")
    md = (out / "report.md").read_text(encoding="utf-8")
    assert f"{win} is better than {lose} on F1" in r["conclusion"] and r["conclusion"] in md
    d = c["difference"]
    delta = f"{100 * d['estimate']:+.2f} [{100 * d['ci'][0]:+.2f}, {100 * d['ci'][1]:+.2f}]"
    marks = [x["mark"] for x in c.get("cautions", [])]  # the call's cautions stand in its cell
    cell = f"{win} better" + (f" ({'; '.join(marks)})" if marks else "")
    assert f"| sysA | sysB | F1 | {delta} | {c['p_b_better']:.4f} | {c['p_a_better']:.4f} | {cell} |" in md
    assert any(f"\n{win} better: P({win} better) = " in t and "≥ 0.5" in t for t in titles)
    assert f"{win} better" in (out / "report.tex").read_text(encoding="utf-8")
    # a caution stands at the call in the plot's title and report.tex's decision cell too: the thesis's rule calls
    # this pair while the models' own noise measured 0 on the folds
    assert marks == ["model noise not measured"]
    title = next(t for t in titles if t.startswith("F1: sysA vs sysB\n"))
    assert f"≥ 0.5 ({marks[0]})" in " ".join(title.split())
    assert f"& {cell} \\\\" in (out / "report.tex").read_text(encoding="utf-8")
    assert "--threshold 0.5" in md
    # the plots were drawn again and are linked
    for png in ("posteriors.png", "f1_difference.png", "fold_f1.png"):
        assert (out / png).is_file() and f"]({png})" in md


def test_rope_shows_p_equivalent_everywhere(exported, tmp_path, titles):
    out = tmp_path / "run"
    r = evaluate(exported, out, ["sysA", "sysB"], "--rope", "0.5")
    assert r["rope"] == 0.005 and r["meta"]["options"]["rope"] == 0.005  # JSON keeps fractions
    c = f1_row(r, "sysA", "sysB")
    assert c["p_b_better"] + c["p_a_better"] + c["p_equivalent"] == pytest.approx(1)
    # the paired posterior of ΔF1 (a Student t): P(|Δ| ≤ rope) in closed form
    d = c["difference"]
    assert d["basis"] == "paired"
    t = student_t(d["df"], loc=d["estimate"], scale=d["sd"])
    assert c["p_equivalent"] == pytest.approx(t.cdf(0.005) - t.cdf(-0.005), abs=1e-12)
    assert c["p_b_better"] == pytest.approx(t.sf(0.005), abs=1e-12)
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| P(equivalent) |" in md and f"| {c['p_equivalent']:.4f} |" in md
    assert f"P(equivalent: within ±0.5 points) = {c['p_equivalent']:.3f}" in r["conclusion"]
    assert "--rope 0.5: percentage points of the metric, F1 points for F1" in md
    assert any(t.startswith("P(equivalent, ±0.5) = ") for t in titles)
    assert any(f"P(equivalent) = {c['p_equivalent']:.3f}" in t for t in titles)
    tex = (out / "report.tex").read_text(encoding="utf-8")
    assert "Equiv." in tex and f"{c['p_equivalent']:.3f}" in tex
    help_text = subprocess.run([sys.executable, "-m", "textbcv", "compare", "--help"], capture_output=True,
                               text=True).stdout
    assert "in points of the metric (F1 points for F1)" in " ".join(help_text.split())


def test_rope_typed_as_a_fraction_is_warned_about(exported, tmp_path, capsys):
    capsys.readouterr()
    evaluate(exported, tmp_path / "run", ["sysA", "sysB"], "--rope", "0.005", "--no-plots")
    assert "--rope 0.005 is in points" in capsys.readouterr().err


# ---------------------------------------------------------------- the exact difference density


PAIRS = [
    (BetaPosterior(1.0, 1.0), BetaPosterior(1.0, 1.0)),
    (BetaPosterior(81.0, 21.0), BetaPosterior(90.0, 15.0)),
    (posteriors(900, 100, 120, c=0.3688)["f1"], posteriors(930, 100, 110, c=0.3688)["f1"]),
    (posteriors(40, 30, 50, c=0.25)["f1"], posteriors(6000, 900, 1100, c=0.25)["f1"]),  # one far narrower
    (posteriors(0, 12, 30, c=0.5)["f1"], posteriors(3, 10, 27, c=0.5)["f1"]),  # at the edge of [0, 1]
]


@pytest.mark.parametrize("a, b", PAIRS)
def test_difference_density_is_exact(a, b):
    lo = float(b.ppf(1e-12) - a.ppf(1 - 1e-12))
    hi = float(b.ppf(1 - 1e-12) - a.ppf(1e-12))

    def mass(x0, x1):
        return integrate.quad(lambda d: float(difference_density(a, b, d)), x0, x1, limit=400, epsabs=1e-11,
                              points=[x for x in (0.0, float(b.mean() - a.mean())) if x0 < x < x1] or None)[0]

    assert mass(lo, 0) + mass(0, hi) == pytest.approx(1, abs=1e-6)
    assert mass(0, hi) == pytest.approx(prob_greater(b, a), abs=1e-6)
    assert mass(0.005, max(hi, 0.01)) == pytest.approx(prob_greater(b, a, 0.005), abs=1e-6)
    # against the convolution ∫ f_A(t) f_B(t + d) dt, integrated by scipy
    for d in np.linspace(lo, hi, 7)[1:-1]:
        conv = integrate.quad(lambda t: float(a.pdf(t)) * float(b.pdf(t + d)), max(0, -d), min(1, 1 - d),
                              limit=400, points=[float(a.mean())])[0]
        assert float(difference_density(a, b, d)) == pytest.approx(conv, rel=1e-5, abs=1e-9)


def test_difference_density_of_two_uniforms_is_the_triangle():
    u = BetaPosterior(1.0, 1.0)
    d = np.array([-1.0, -0.5, 0.0, 0.25, 0.9])
    assert difference_density(u, u, d) == pytest.approx(1 - np.abs(d), abs=1e-12)
    assert isinstance(F1Posterior(2.0, 3.0).pdf(0.5), np.ndarray)


# ---------------------------------------------------------------- five systems


def test_five_systems(exported, tmp_path, titles):
    out = tmp_path / "run"
    names = ["sysA", "sysB", "sysStrong", "sysA2", "sysWeak"]
    r = evaluate(exported, out, names)
    md = (out / "report.md").read_text(encoding="utf-8")
    f1 = [c for c in r["comparisons"] if c["metric"] == "f1"]
    clear = [c for c in f1 if c["decision"] != "no clear difference"]
    assert len(f1) == 10 and clear  # the premise: some pairs differ clearly, some do not
    assert len(clear) < len(f1) - 1
    # one sentence per clear difference, naming the side the rule names
    assert r["conclusion"].count(" is better than ") == len(clear)
    for c in clear:
        win, lose = (c["b"], c["a"]) if c["decision"] == "B better" else (c["a"], c["b"])
        assert f"{win} is better than {lose} on F1" in r["conclusion"]
    # identical systems are tied, and said to be
    same = f1_row(r, "sysA", "sysA2")
    assert same["p_b_better"] == same["p_a_better"] == 0.5 and same["decision"] == "no clear difference"
    assert "sysA and sysA2 are tied: the same chunk counts in every fold" in r["conclusion"]
    assert not re.search(r"(\d+\.\d+)%? against \1", md)
    # the ranking and the matrix
    assert "## Ranking on F1" in md and "## Pairwise P(row better than column) on F1" in md
    rank = md.split("## Ranking on F1")[1].split("##")[0]
    assert rank.index("| sysStrong |") < rank.index("| sysWeak |")
    rank_of = {m.group(2): m.group(1) for m in re.finditer(r"^\| (\d) \| (\w+) \|", rank, re.MULTILINE)}
    assert len(rank_of) == 5 and rank_of["sysA"] == rank_of["sysA2"]
    matrix = md.split("## Pairwise")[1].split("##")[0]
    rows = [line for line in matrix.splitlines() if line.startswith("| sys")]
    assert len(rows) == 5 and all(line.count("|") == 7 for line in rows)
    p = f1_row(r, "sysA", "sysStrong")
    assert p["decision"] == "B better"
    assert f"**{fmt_p(p['p_b_better'])}**" in next(line for line in rows if line.startswith("| sysStrong |"))
    assert (out / "pairwise.png").is_file() and "](pairwise.png)" in md
    assert any("row better than column" in t for t in titles)
    assert sum(1 for t in titles if t.startswith("F1: ")) == 10  # one panel per pair
    assert any(t.startswith("F1: sysA vs sysStrong\n") for t in titles)  # the systems in the order typed
    assert not any(t.startswith("F1: sysStrong vs sysA\n") for t in titles)


# ---------------------------------------------------------------- undefined metrics


def test_no_predicted_chunks_is_undefined_precision(exported, tmp_path):
    out = tmp_path / "run"
    r = evaluate(exported, out, ["sysA", "sysNone"])
    p = r["systems"]["sysNone"]["precision"]
    assert p["estimate"] is None and p["ci"] is None and p["undefined"] == "no predicted chunks"
    assert r["systems"]["sysNone"]["recall"]["estimate"] == 0.0
    f1 = r["systems"]["sysNone"]["f1"]
    assert f1["estimate"] == 0.0 and f1["ci"][0] == 0.0 and f1["interval"] == "one-sided"
    c = next(c for c in r["comparisons"] if c["metric"] == "precision")
    assert c["p_b_better"] is None and c["decision"] == "no clear difference"
    assert c["undefined"] == "precision undefined (sysNone: no predicted chunks)"
    md = (out / "report.md").read_text(encoding="utf-8")
    scores = md.split("## Pooled scores")[1].split("##")[0]
    row = next(line for line in scores.splitlines() if line.startswith("| sysNone |"))
    assert row.startswith("| sysNone | —, no predicted chunks | 0.00 [") and "† |" in row
    assert ("| sysA | sysNone | precision | — | — | — | undefined: precision undefined (sysNone: no predicted chunks) |"
            in md)
    tex = (out / "report.tex").read_text(encoding="utf-8")
    assert "--- (no predicted chunks)" in tex
    for per in r["per_type"]["sysNone"].values():
        assert per["precision"] is None and per["undefined"]["precision"] == "no predicted chunks"


def test_no_gold_chunks_and_neither():
    folds = {"A": [{"tp": 0, "fp": 3, "fn": 0}, {"tp": 0, "fp": 2, "fn": 0}],
             "B": [{"tp": 0, "fp": 0, "fn": 0}, {"tp": 0, "fp": 0, "fn": 0}]}
    r = bayes_answer(folds, m=1).to_dict()
    a, b = r["systems"]["A"], r["systems"]["B"]
    assert a["recall"]["estimate"] is None and a["recall"]["undefined"] == "no gold chunks"
    assert a["precision"]["estimate"] == 0.0 and a["precision"]["ci"][0] == 0.0
    assert b["f1"]["estimate"] is None and b["f1"]["undefined"] == "no gold and no predicted chunks"
    assert b["precision"]["undefined"] == "no predicted chunks" and b["recall"]["undefined"] == "no gold chunks"
    assert all(c["p_b_better"] is None and c["decision"] == "no clear difference" for c in r["comparisons"])
    from textbcv.report.markdown import render_markdown
    from textbcv.report.model import CompareReport

    md = render_markdown(CompareReport.from_dict({**r, "fold_f1": {"A": [0.0, 0.0], "B": [0.0, 0.0]},
                                                  "fold_counts": folds}))
    assert "| B | —, no predicted chunks | —, no gold chunks | —, no gold and no predicted chunks |" in md
    assert "| S0 → | 0.00 | — |" in md  # a fold with neither gold nor predicted chunks has no F1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40)), min_size=2, max_size=2),
       st.sampled_from(["thesis", "averaged-counts", "independent"]))
def test_an_estimate_is_never_outside_its_interval(folds, variant):
    r = bayes_answer({"A": folds, "B": [(5, 1, 2), (4, 2, 1)]}, m=1, variant=variant).to_dict()
    for s in r["systems"].values():
        for v in s.values():
            if v["estimate"] is None:
                assert v["ci"] is None and v["undefined"]
            else:
                assert v["ci"][0] <= v["estimate"] <= v["ci"][1]


# ---------------------------------------------------------------- a report that stands on its own


def test_report_is_self_contained_and_remade_by_its_command(exported, tmp_path, monkeypatch):
    d, corpus, systems = exported
    out = tmp_path / "run"
    r = evaluate(exported, out, ["sysA", "sysStrong", "sysB"])
    md = (out / "report.md").read_text(encoding="utf-8")
    for png in sorted(p.name for p in out.glob("*.png")):
        assert f"]({png})" in md
    for link in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
        assert (out / link).is_file() and "/" not in link
    types = r["meta"]["corpus"]["chunks_per_type"]
    assert sum(types.values()) == r["meta"]["corpus"]["gold_chunks"]
    for name, n in types.items():
        assert f"{name} {n:,}" in md
    assert f"{r['meta']['corpus']['sentences']:,} sentences" in md and "seed 0" in md
    assert "Split quality: training halves overlap n/4 within" in md and "--threshold 0.95" in md
    assert f"textbcv {r['meta']['textbcv']}" in md and f"--variant {r['variant']}" in md
    methods = md.split("## Methods (to paste)")[1]
    assert md.rstrip().endswith(methods.strip())  # the last section
    for fact in ("3×2 block-regularized cross-validation", "seed 0", "at least 0.95", "95% credible",
                 "Research on Block-regularized Cross-Validation Methods for Comparing Supervised Algorithms",
                 f"textbcv {r['meta']['textbcv']}", r["variant"]):
        assert fact in methods, fact
    # the command remakes the same report.json
    command = md.split("```\n")[1].split("\n```")[0]
    words = shlex.split(command)
    assert words[:2] == ["textbcv", "evaluate"] and words[-2:] == ["--out", "rerun"]
    monkeypatch.chdir(tmp_path)
    assert main(words[1:] + ["--quiet"]) == 0
    again = json.loads((tmp_path / "rerun" / "report.json").read_text(encoding="utf-8"))
    for x in (r, again):
        x.pop("run")
        x["meta"].pop("imported")  # the sha256 of the same splits and prediction paths: compared below
    assert again == r


def test_report_tex_holds_the_json_values_and_compiles(exported, tmp_path):
    out = tmp_path / "run"
    d, corpus, systems = exported
    args = ["evaluate", str(d / "splits.json"), str(corpus), "--task", "ner", "--pred-scheme", "iob1", "--quiet",
            "--no-plots", "--rope", "0.5", "--out", str(out), "--system", f"a_b&c%={systems['sysA']}",
            "--system", f"sysStrong={systems['sysStrong']}", "--system", f"sysNone={systems['sysNone']}"]
    assert main(args) == 0
    r = json.loads((out / "report.json").read_text(encoding="utf-8"))
    tex = (out / "report.tex").read_text(encoding="utf-8")
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex and r"a\_b\&c\%" in tex
    s = r["systems"]["sysStrong"]
    assert f"{100 * s['f1']['estimate']:.2f} [{100 * s['f1']['ci'][0]:.2f}, {100 * s['f1']['ci'][1]:.2f}]" in tex
    c = f1_row(r, "a_b&c%", "sysStrong")
    assert f"{c['p_b_better']:.3f}" in tex or "textgreater{} 0.999" in tex
    pdflatex = shutil.which("pdflatex")
    if pdflatex is None:
        pytest.skip("pdflatex is not installed: report.tex was checked as text only")
    run = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error", "report.tex"], cwd=out,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:]
    assert (out / "report.pdf").stat().st_size > 1000


def test_t_test_and_bayes_disagreement_is_explained_with_numbers():
    """When the sequential t-test and the Bayes test disagree, the conclusion says why, with the numbers behind each:
    the Bayes test's clusters and SD against the folds' half-width one way; the posterior's degrees of freedom and the
    share of its variance the folds' spread brings the other way. When they agree it says so in a clause."""
    import copy

    from textbcv.report.conclusion import conclusion
    from textbcv.report.model import CompareReport

    gold = json.loads((Path(__file__).parent / "data" / "golden" / "ner" / "report.json.golden").read_text("utf-8"))
    f1 = next(c for c in gold["comparisons"] if c["metric"] == "f1")
    p = f1["difference"]
    assert f1["decision"] == "A better" and gold["sequential"][0]["ahead"] is None
    text = conclusion(CompareReport.from_dict(gold))
    assert (f"the Bayes test calls iob2 better because it measures the difference's error on the per-sentence counts "
            f"of {p['clusters']:,} documents (SD {100 * p['sd']:.2f} points)") in text
    # the t-test rejects equality (iob2 ahead) and the Bayes test does not decide
    d = copy.deepcopy(gold)
    seq = d["sequential"][0]
    seq.update(ahead="A", t_test="rejects equality")
    seq["a_better"]["decision"] = "reject H0"
    c = next(c for c in d["comparisons"] if c["metric"] == "f1")
    c.update(p_b_better=0.1, p_a_better=0.9, decision="no clear difference")
    text = conclusion(CompareReport.from_dict(d))
    share = 100 * p["var_model"] / (p["var_test"] + p["var_model"])
    want = (f"the Bayes test does not call a winner at this threshold (its ΔF1 posterior has {p['df']:.0f} degrees of "
            f"freedom, and the models' own noise, measured from the folds' spread, makes {share:.0f}% of its variance")
    assert want in text
    # both decide for iob2: one clause
    c.update(p_b_better=f1["p_b_better"], p_a_better=f1["p_a_better"], decision="A better")
    assert "iob2 ahead, as the Bayes test finds." in conclusion(CompareReport.from_dict(d))
