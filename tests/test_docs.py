"""The project's own documentation: self-contained, every link resolves, every computed number is what textbcv computes.

* README.md, docs/*.md, every ``textbcv [COMMAND] --help`` and the messages of ``textbcv/cli`` name no
  file outside the project (``../shared``, METHOD.md, CONTRACT.md, DESIGN.md);
* every relative Markdown link in README.md and docs/*.md points to an existing file, and every
  ``#anchor`` to a heading of its target;
* the numbers docs/method.md quotes (c_m, the worked example of docs/example-counts.json, the
  orthogonal array, the choice of M) are recomputed here by calling textbcv (and, where there is
  one, an independent reference: scipy's integration, scipy's Hadamard matrix, the hypergeometric
  law), and the measured figures it quotes are checked against the files that hold them;
* docs/reading-the-report.md's split figures are recomputed with ``textbcv split --report``; its
  compare-run figures by rerunning the documented command (slow).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import integrate, stats
from scipy.linalg import hadamard

from textbcv.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
FORBIDDEN = ("../shared", "METHOD.md", "CONTRACT.md", "DESIGN.md")
EXAMPLE = DOCS / "example-counts.json"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _method() -> str:
    return _text(DOCS / "method.md")


def _minus(s: str) -> str:
    """Numbers as the docs print them: a real minus sign."""
    return s.replace("-", "−")


# ----------------------------------------------------------------------------- nothing outside the project


def test_the_docs_exist():
    for name in ("README.md", "method.md", "reading-the-report.md", "formats.md"):
        assert (DOCS / name).is_file(), name


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_name_nothing_outside_the_project(path):
    text = _text(path)
    for bad in FORBIDDEN:
        assert bad not in text, f"{path.relative_to(ROOT)} mentions {bad}"


def _commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sorted(sub.choices)


@pytest.mark.parametrize("command", ["", *_commands()])
def test_help_names_nothing_outside_the_project(command, capsys):
    argv = [command, "--help"] if command else ["--help"]
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: textbcv")
    for bad in FORBIDDEN:
        assert bad not in out, f"textbcv {command} --help mentions {bad}"
    assert "%%" not in out, f"textbcv {command} --help prints an escaped %% (a description is not %-formatted)"


def test_top_level_help_points_to_the_docs(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    for page in ("docs/method.md", "docs/reading-the-report.md", "docs/formats.md"):
        assert page in out
        assert (ROOT / page).is_file()


@pytest.mark.parametrize("path", sorted((ROOT / "textbcv" / "cli").glob("*.py")), ids=lambda p: p.name)
def test_cli_messages_name_nothing_outside_the_project(path):
    text = _text(path)
    for bad in FORBIDDEN:
        assert bad not in text, f"{path.name} mentions {bad}"


# ----------------------------------------------------------------------------- links

_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", _text(path))
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*)$", text, re.MULTILINE)}


def _links(path: Path) -> list[str]:
    return [m.group(1) for m in _LINK.finditer(_FENCE.sub("", _text(path)))]


def test_slug_is_githubs():
    assert _slug("8. A worked example") == "8-a-worked-example"
    assert _slug("2. m×2 cross-validation") == "2-m2-cross-validation"
    assert _slug("7. The Bayes test: P(B better)") == "7-the-bayes-test-pb-better"
    assert _slug("splits.json") == "splitsjson"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(path):
    links = _links(path)
    if path.name in ("README.md", "method.md", "reading-the-report.md", "formats.md"):
        assert links, f"{path.name} has no links at all"  # the link check must see something to check
    for link in links:
        if re.match(r"[a-z][a-z0-9+.-]*:", link):  # http:, https:, mailto:
            continue
        target, _, anchor = link.partition("#")
        dest = (path.parent / target).resolve() if target else path
        assert dest.exists(), f"{path.relative_to(ROOT)}: link to a missing file: {link}"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{path.relative_to(ROOT)}: no heading #{anchor} in {target or path.name}"


def test_docs_index_lists_every_page():
    index = _text(DOCS / "README.md")
    for page in DOCS.glob("*.md"):
        if page.name != "README.md":
            assert f"]({page.name})" in index, f"docs/README.md does not link {page.name}"


# ----------------------------------------------------------------------------- method.md: the numbers


def test_count_factor_table():
    from textbcv.stats.correlation import count_factor

    text = _method()
    row = re.search(r"^\| c_m \|(.*)\|$", text, re.MULTILINE)
    assert row, "the c_m table row"
    quoted = [float(x) for x in row.group(1).split("|")]
    assert len(quoted) == 10
    for m, q in enumerate(quoted, start=1):
        assert f"{count_factor(m, 'thesis'):.4f}" == f"{q:.4f}", m
        # independent reference: the average of 1/(1 + ρ1 + (2m−2)ρ2) over the thesis's rectangle
        if m == 1:
            ref = integrate.quad(lambda r1: 1 / (1 + r1), 0, 0.5)[0] / 0.5
        else:
            ref = integrate.dblquad(lambda r2, r1, m=m: 1 / (1 + r1 + (2 * m - 2) * r2), 0, 0.5, 0.25, 0.5)[0] / 0.125
        assert abs(ref - q) < 5e-5, m
    assert "c_3 = 0.3688" in text
    assert "0.3688 × 6 =\n2.2 folds' worth, or about 1.1 times the corpus" in text
    assert round(count_factor(3) * 6, 1) == 2.2 and round(count_factor(3) * 6 / 2, 1) == 1.1


def test_orthogonal_array_table():
    from textbcv.split import halves_from_blocks

    text = _method()
    rows = re.findall(r"^\| B(\d) \| ([+−]) \| ([+−]) \| ([+−]) \|$", text, re.MULTILINE)
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4]
    quoted = np.array([[1 if s == "+" else -1 for s in r[1:]] for r in rows])
    assert (quoted == hadamard(4)[:, 1:]).all()
    train = halves_from_blocks(np.arange(4), 3)  # what textbcv builds: blocks × splits
    assert (train.T == (quoted == 1)).all()
    # any two training halves share exactly one block of four (n/4)
    for i in range(3):
        for j in range(i + 1, 3):
            assert int((train[i] & train[j]).sum()) == 1


def test_nested_and_overlap_claims():
    from textbcv.split import halves_from_blocks
    from textbcv.split.bcv import max_m, n_blocks_for

    # the 3 splits on 8 blocks are the 3 splits on 4 blocks, block j and j + 4 together
    assert (halves_from_blocks(np.arange(8), 3) == np.tile(halves_from_blocks(np.arange(4), 3), 2)).all()
    assert n_blocks_for(5) == 8 and "m = 5 uses 5 of the 7 columns of H_8" in _method()
    assert max_m(1000) == 2 ** 9 - 1
    # random halvings of n = 400: E|φ − n/4| about 4 (hypergeometric overlap of two training halves)
    phi = stats.hypergeom(400, 200, 200)
    k = np.arange(0, 201)
    mad = float((np.abs(k - 100) * phi.pmf(k)).sum())
    assert round(mad) == 4, mad
    assert "at n = 400 the mean absolute deviation |φ − n/4| is about 4 units" in " ".join(_method().split())


def test_variance_factor_example():
    from textbcv.stats.correlation import count_factor, variance_factor

    g = variance_factor(3, 0.2, 0.3)
    assert g == pytest.approx(2.4)
    assert 6 / g == pytest.approx(2.5)
    assert count_factor(3, "rho", rho1=0.2, rho2=0.3) == pytest.approx(1 / 2.4)
    assert "1 + 0.2 + 4 × 0.3 = 2.4: the six folds carry the information of 6/2.4 = 2.5 independent ones" in \
        " ".join(_method().split())


def _test_json(*args: str, run: Path | None = None) -> dict:
    """``textbcv test RUN --json ARGS`` (RUN the worked example unless given), parsed."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["test", str(run or EXAMPLE), "--json", *args]) == 0
    return json.loads(buf.getvalue())


def _f1_row(r: dict, metric: str = "f1") -> dict:
    return next(c for c in r["comparisons"] if c["metric"] == metric)


def test_worked_example_counts_and_folds():
    from textbcv.stats.compare import fold_counts, fold_metrics

    text = _method()
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    f1 = {}
    for name, folds in data["systems"].items():
        c = fold_counts(folds, data["m"])
        f1[name] = fold_metrics(c)["f1"]
        tp, fp, fn = (int(x) for x in c.sum(axis=0))
        assert f"ΣTP = {tp}, ΣFP = {fp}, ΣFN = {fn}" in " ".join(text.split())
    labels = ["S0 →", "S0 ←", "S1 →", "S1 ←", "S2 →", "S2 ←"]
    A, B = data["systems"]["A"], data["systems"]["B"]
    for i, lab in enumerate(labels):
        row = (f"| {lab} | {A[i]['tp']} / {A[i]['fp']} / {A[i]['fn']} | {B[i]['tp']} / {B[i]['fp']} / {B[i]['fn']} | "
               f"{100 * f1['A'][i]:.2f} | {100 * f1['B'][i]:.2f} | {100 * (f1['B'][i] - f1['A'][i]):+.2f} |")
        assert row in text, row
    r = _test_json("--variant", "thesis")
    for name in ("A", "B"):
        s = r["systems"][name]
        prf = " / ".join(f"{100 * s[k]['estimate']:.2f}" for k in ("precision", "recall", "f1"))
        assert prf in text, prf
    gap = 100 * (r["systems"]["B"]["f1"]["estimate"] - r["systems"]["A"]["f1"]["estimate"])
    assert f"B is ahead by {gap:.2f} F1 points" in " ".join(text.split())


def test_worked_example_effective_counts_and_posteriors():
    from textbcv.stats.compare import fold_counts
    from textbcv.stats.correlation import count_factor
    from textbcv.stats.posterior import posteriors

    text = " ".join(_method().split())
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    tot = fold_counts(data["systems"]["A"], 3).sum(axis=0)
    c = count_factor(3)
    tpe, fpe, fne = c * tot
    assert f"TP_e = {tpe:.2f}, FP_e = {fpe:.2f}, FN_e = {fne:.2f}" in text
    post = posteriors(*tot, c=c)
    p, f = post["precision"], post["f1"]
    assert f"precision posterior is Beta({p.alpha:.2f}, {p.beta:.2f})" in text
    assert f"~ Beta({f.alpha:.2f}, {f.beta:.2f})" in text


@pytest.mark.parametrize("variant", ["independent", "thesis", "averaged-counts", "adaptive"])
def test_worked_example_variant_rows(variant):
    r = _test_json("--variant", variant)

    def c(x):
        x = x["f1"] if isinstance(x, dict) else x
        return "1" if x == 1 else f"{x:.4f}"

    def ci(name):
        lo, hi = r["systems"][name]["f1"]["ci"]
        return f"[{100 * lo:.2f}, {100 * hi:.2f}]"

    row = (f"| `{variant}` | {c(r['count_factor']['A'])} / {c(r['count_factor']['B'])} | {ci('A')} | {ci('B')} | "
           f"{_f1_row(r)['p_b_better']:.4f} |")
    assert row in _method(), row


def test_worked_example_prose_matches_the_table():
    text = " ".join(_method().split())
    p = {v: _f1_row(_test_json("--variant", v))["p_b_better"]
         for v in ("independent", "thesis", "averaged-counts", "adaptive")}
    assert f"call B better with P = {p['independent']:.2f}" in text
    assert (f"the thesis's factor gives {p['thesis']:.3f}, the default averaged-counts factor "
            f"{p['averaged-counts']:.3f} and the adaptive factor {p['adaptive']:.3f}") in text
    assert f"(P(B better) = {p['adaptive']:.2f} while Wilcoxon gives p = 0.03)" in text


def test_worked_example_rope():
    row = _f1_row(_test_json("--rope", "0.5", "--variant", "adaptive"))
    assert row["decision"] == "no clear difference"
    expected = (f"P(B better) = {row['p_b_better']:.4f}, P(equivalent) = {row['p_equivalent']:.4f}, "
                f"P(A better) = {row['p_a_better']:.4f}")
    assert expected in " ".join(_method().split()), expected


def test_worked_example_sequential_and_textbook_tests():
    text = " ".join(_method().split())
    r = _test_json("--classic")
    seq = r["sequential"][0]
    lo, hi = seq["ci"]
    expected = (f"a mean difference of {100 * seq['estimate']:+.2f} points with 95% interval "
                f"[{_minus(f'{100 * lo:+.2f}')}, {_minus(f'{100 * hi:+.2f}')}] (no decision)")
    assert seq["t_test"] == "does not reject equality" and seq["ahead"] is None
    assert expected in text, expected
    tests = {t["test"]: t for t in r["classic"]["pairs"][0]["tests"]}
    b, nb, w = tests["blocked_t_3x2"], tests["corrected_resampled_t"], tests["wilcoxon"]
    expected = (f"blocked 3×2 t(5) = {b['statistic']:.3f} (p = {b['p_value']:.4f}), Nadeau–Bengio "
                f"t(5) = {nb['statistic']:.3f} (p = {nb['p_value']:.4f}) and Wilcoxon W = {w['statistic']:.0f} "
                f"(p = {w['p_value']:.4f}, the smallest p-value six differences can give)")
    assert expected in text, expected
    assert w["p_value"] == pytest.approx(2 / 2**6)  # all six differences of one sign


def test_f1_is_not_the_harmonic_mean_of_independent_posteriors():
    from textbcv.stats.compare import fold_counts
    from textbcv.stats.correlation import count_factor
    from textbcv.stats.posterior import posteriors

    tot = fold_counts(json.loads(EXAMPLE.read_text(encoding="utf-8"))["systems"]["A"], 3).sum(axis=0)
    post = posteriors(*tot, c=count_factor(3))
    lo, hi = post["f1"].interval()
    rng = np.random.default_rng(0)
    p, r = post["precision"].sample(rng, 10**6), post["recall"].sample(rng, 10**6)
    q = np.quantile(2 * p * r / (p + r), [0.025, 0.975])
    shorter = 1 - (q[1] - q[0]) / (hi - lo)
    assert 0.05 < shorter < 0.075, shorter
    assert "its 95% interval is about 6% shorter than the right one" in " ".join(_method().split())


def test_choice_of_M():
    from textbcv.stats.correlation import choose_max_m

    assert f"M = {choose_max_m(0.05, 0.05)} at α = 0.05" in " ".join(_method().split())


def test_measured_figures_match_their_sources():
    """The calibration and variance-study figures method.md quotes are the ones recorded in docs/."""
    text = " ".join(_method().split())
    cal = json.loads((DOCS / "calibration.json").read_text(encoding="utf-8"))["coverage"]
    iid = cal["iid"]
    assert f"held the true F1 in {100 * iid['thesis']['f1']['coverage']:.1f}% of 95% intervals (recall " \
           f"{100 * iid['thesis']['recall']['coverage']:.1f}%)" in text
    adaptive = [cal[d]["adaptive"][k]["coverage"] for d in ("iid", "balanced") for k in ("precision", "recall", "f1")]
    assert f"covered {100 * min(adaptive):.1f}–{100 * max(adaptive):.0f}%" in text
    avg = [cal[d]["averaged-counts"]["f1"]["coverage"] for d in ("iid", "balanced")]
    quoted = re.search(r"covered F1 (\d+\.\d)% and (\d+\.\d)% in the two designs", text)
    assert quoted, "averaged-counts coverage"
    for q, v in zip(quoted.groups(), avg):  # calibration.md rounds 0.9555 up, as the page does
        assert abs(float(q) - 100 * v) <= 0.05 + 1e-9, (q, v)
    assert f"independent folds covered {100 * iid['independent']['f1']['coverage']:.1f}% for F1" in text
    ratios = [cal[d]["adaptive"]["f1"]["mean_length"] / cal[d]["thesis"]["f1"]["mean_length"]
              for d in ("iid", "balanced")]
    assert all(round(x, 1) == 1.7 for x in ratios) and "about 1.7 times as long" in text
    results = " ".join((DOCS / "RESULTS.md").read_text(encoding="utf-8").split())
    assert "m = 3, m×2 BCV, balanced, F1: +0.442 points (+13.4 standard errors)" in results
    assert "+0.44 points (13 standard errors)" in text
    conll = next(c for c in json.loads((DOCS / "unit_leakage.json").read_text(encoding="utf-8"))["corpora"]
                 if c["corpus"].startswith("CoNLL-2003"))
    sent, doc = ({"oov": conll[u]["oov_mean"], "f1": conll[u]["memorising_f1_mean"]} for u in ("sentence", "document"))
    figures = (f"{sent['oov']:.1f}% of test tokens unseen in training against {doc['oov']:.1f}% by document, and a "
               f"tagger that only memorises each word's most frequent tag scores {sent['f1']:.1f} token F1 on "
               f"sentence-level halves against {doc['f1']:.1f} on document-level ones")
    assert figures in text, figures


def test_default_figures_match_the_real_text_study():
    """The guide's "Defaults, and why" and method.md §12 quote docs/real_text_study.json."""
    readme = " ".join(_text(DOCS / "guide.md").split())
    method = " ".join(_method().split())
    d = json.loads((DOCS / "real_text_study.json").read_text(encoding="utf-8"))
    ev, done = d["defaults_evidence"], d["meta"]["done"]
    assert f"{done['conll']} data sets of CoNLL-2003, {done['msr']} of SIGHAN MSR" in readme
    assert f"{done['conll']} CoNLL-2003 and {done['msr']} SIGHAN MSR data sets" in method
    label = next(x for x in ev["ranked"] if x["design"] == "label")
    assert not label["ok"], "the README says label balancing is rejected"
    shift = re.search(r"shift ([+−-]\d+\.\d+ ± \d+\.\d+)", label["why_not"][0]).group(1)
    assert f"by {shift} points" in readme and f"by {shift} points" in method
    worst = ev["unit_evidence"]["conll"]["worst_sentence_row"]
    assert f"by about {worst['bias']:.0f} points" in readme
    assert f"by {worst['bias']:.1f} ± {worst['bias_se']:.1f} points" in method
    cov = {(c["pool"], c["variant"]): c for c in d["summary"]["coverage"]
           if c["design"] == "bcv" and c["m"] == 3 and c["unit"] == ("document" if c["pool"] == "conll" else "sentence")
           and c.get("truth", c["unit"]) == c["unit"]}
    cl, ac = (cov["conll", "clustered"], cov["msr", "clustered"]), (cov["conll", "averaged-counts"],
                                                                     cov["msr", "averaged-counts"])
    assert (f"held F1 on new text in {100 * cl[0]['coverage_f1']:.1f}% (CoNLL-2003, by document) and "
            f"{100 * cl[1]['coverage_f1']:.1f}% (MSR) of cases, where the chunk counts alone held it in "
            f"{100 * ac[0]['coverage_f1']:.0f}% and {100 * ac[1]['coverage_f1']:.0f}%") in readme
    assert (f"held F1 on new text in {100 * ac[1]['coverage_f1']:.0f}% of the MSR cases ({done['msr']} data sets) "
            f"and {100 * ac[0]['coverage_f1']:.0f}% of the CoNLL ones ({done['conll']} data sets, documents kept "
            f"whole), the clustered interval in {100 * cl[1]['coverage_f1']:.1f}% and "
            f"{100 * cl[0]['coverage_f1']:.1f}%") in method
    deff = {p: [x for x in d["summary"]["deff"] if x["pool"] == p and x["unit"] == x["clusters"]] for p in done}
    lo = {p: min(x["min"] for x in v) for p, v in deff.items()}
    hi = {p: max(x["max"] for x in v) for p, v in deff.items()}
    assert f"({lo['msr']:.0f}–{hi['msr']:.0f} on MSR, {lo['conll']:.0f}–{hi['conll']:.0f} by document" in readme
    assert f"is {lo['msr']:.1f}–{hi['msr']:.1f} on SIGHAN MSR" in method
    assert f"and {lo['conll']:.0f}–{hi['conll']:.0f} (median" in method
    res = ev["resolution"]["conll"]
    assert (f"down to about {res['two_se_shift']:.1f} points and bias against new text down to about "
            f"{res['two_se_bias']:.1f} points") in readme


def test_block_stratification_figures_match_their_source():
    """method.md §3 quotes docs/block_stratification.json (scripts/block_stratification.py)."""
    text = " ".join(_method().split())
    res = json.loads((DOCS / "block_stratification.json").read_text(encoding="utf-8"))
    row = {(r["design"], r["m"]): r for r in res["rows"]}
    old, new = row[("bcv-sorted", 3)], row[("bcv", 3)]
    assert f"Over {res['meta']['reps']:,} data sets of about {res['meta']['n']:,} sentences" in text
    new_shift = _minus(f"{new['f1_shift']:+.2f}")
    assert (f"scored +{old['f1_shift']:.2f} ± {old['f1_shift_se']:.2f} token-F1 points higher on those test halves "
            "than on random m×2 halves of the same documents (m = 3), and "
            f"{new_shift} ± {new['f1_shift_se']:.2f} with size-blind blocks") in text
    assert abs(old["f1_shift"]) > 3 * old["f1_shift_se"] and abs(new["f1_shift"]) < 2 * new["f1_shift_se"]
    sp = {(d, m): round(row[(d, m)]["half_spread"]) for d in ("bcv", "random") for m in (3, 7)}
    ov = {(d, m): round(row[(d, m)]["overlap_dev"]) for d in ("bcv", "random") for m in (3, 7)}
    assert (f"training halves then differ by about {sp['bcv', 3]} sentences at m = 3 and {sp['bcv', 7]} at m = 7 "
            f"(random halvings: {sp['random', 3]} and {sp['random', 7]}), while overlaps stay within about "
            f"{ov['bcv', 3]} and {ov['bcv', 7]} sentences of n/4 (random halvings: {ov['random', 3]} and "
            f"{ov['random', 7]})") in text



# ----------------------------------------------------------------------------- reading-the-report.md


def _report_page() -> str:
    """The page as one line of words (block-quote marks dropped)."""
    text = re.sub(r"^> ?", "", _text(DOCS / "reading-the-report.md"), flags=re.MULTILINE)
    return " ".join(text.split())


def test_split_figures_of_the_report_page(tmp_path, capsys):
    out = tmp_path / "splits.json"
    assert main(["split", str(ROOT / "corpora" / "ner_en.conll"), "--m", "3", "--report", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    q = json.loads(out.read_text(encoding="utf-8"))["quality"]
    page = _report_page()
    assert f"n/4 = {q['overlap']['n_over_4']:g} here); they share {q['overlap']['min']}" in page
    assert q["overlap"]["min"] == q["overlap"]["max"]
    assert f"Largest deviation of a training-set overlap from n/4: {q['overlap_max_deviation']} sentences." in page
    for name in ("label", "lemma", "length"):
        v = q["chi2_per_df"][name]
        assert f"| {name} | {np.mean(v):.4f} | {np.max(v):.4f} |" in page
    floor = q["chi2_floor"]
    assert f"(here label {floor['label']:g}, lemma {floor['lemma']:.4f}, length {floor['length']:g})" in page
    random_line = next(line for line in printed.splitlines() if line.startswith("max |φ − n/4| random"))
    lo, hi = re.search(r"φ in \[(\d+), (\d+)\]", random_line).groups()
    assert f"shared between {lo} and {hi} sentences" in page
    rand = [float(line.split()[-1]) for line in printed.splitlines() if re.match(r"\s+\d\s+label\s", line)]
    assert f"label χ²/J from {min(rand):.2f} to {max(rand):.2f}" in page


@pytest.mark.slow
def test_compare_figures_of_the_report_page(tmp_path, capsys, monkeypatch):
    """Rerun the documented command (about 25 s) and find its numbers on the page."""

    page = _report_page()
    assert ("textbcv compare corpora/ner_en.conll --task ner --systems iob2,iobes --m 3 --max-iterations 10 "
            "--variant adaptive --out /tmp/docs-run") in page.replace("\\ ", "")
    monkeypatch.chdir(ROOT)
    run = tmp_path / "run"
    args = ["compare", "corpora/ner_en.conll", "--task", "ner", "--systems", "iob2,iobes", "--m", "3",
            "--max-iterations", "10", "--variant", "adaptive", "--quiet", "--out", str(run)]
    assert main(args) == 0
    err = capsys.readouterr().err.strip()
    # the notes quote the real-text study's current figures (textbcv/data/evidence.json), which grow with the
    # study: the page shows them as of its writing, so only there are the numbers free
    masked = re.compile(r"(in the real-text study[^.]*?)(?=\(docs/RESULTS\.md\))")

    def numbers_free(text: str) -> str:
        return masked.sub(lambda mt: re.sub(r"\d+(\.\d+)?", "#", mt.group(1)), text)

    assert numbers_free(err) in numbers_free(page), err
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    md = (run / "report.md").read_text(encoding="utf-8")
    for line in md.splitlines():  # every table row of these sections is quoted verbatim
        if line.startswith(("| iob2 |", "| S")) or re.match(r"\| (LOC|MISC|ORG|PER) \|", line):
            assert line in page, line
    assert " ".join(report["conclusion"].split()) in page
    assert f"from c_3 = 0.3688 to {report['count_factor']['iob2']['f1']:.4f}" in page
    f1 = np.array(report["fold_f1"]["iob2"])
    assert f"run from {100 * f1.min():.2f} to {100 * f1.max():.2f}" in page
    assert f"(here {100 * (f1.max() - f1.min()):.1f} points for iob2)" in page
    d = 100 * (np.array(report["fold_f1"]["iobes"]) - f1)
    assert "Here the differences are " + ", ".join(_minus(f"{x:+.2f}") for x in d[:-1]) + \
        f" and {_minus(f'{d[-1]:+.2f}')} points" in page
    thesis = _test_json("--variant", "thesis", run=run)
    lo, hi = thesis["systems"]["iob2"]["f1"]["ci"]
    est = 100 * thesis["systems"]["iob2"]["f1"]["estimate"]
    assert f"iob2 F1 {est:.2f} [{100 * lo:.2f}, {100 * hi:.2f}], and" in page
    default = _test_json(run=run)
    assert default["variant"] == "clustered"
    lo, hi = default["systems"]["iob2"]["f1"]["ci"]
    assert f"default `--variant clustered` prints [{100 * lo:.2f}, {100 * hi:.2f}]:" in page
    assert f"F1 design effect of {default['design_effects']['iob2']['f1']:.2f} (iob2)" in page
    ac = _test_json("--variant", "averaged-counts", run=run)
    lo, hi = ac["systems"]["iob2"]["f1"]["ci"]
    assert f"`--variant averaged-counts` prints [{100 * lo:.2f}, {100 * hi:.2f}]" in page
    # the pair's P comes from the paired posterior of the difference, whatever the systems' own variant
    p = _f1_row(default)["p_a_better"]
    assert _f1_row(thesis)["p_a_better"] == _f1_row(ac)["p_a_better"] == p
    assert f"P(iob2 better) is {p:.4f} under all of them" in page
    note = next(n for n in report["split"]["notes"] if n.startswith("--variant adaptive"))
    assert numbers_free(f"Note: {note}.") in numbers_free(page)
    # the one-split section's prose (its table rows are checked with the others above)
    from textbcv.report.textbook import format_p

    o = report["one_split"]
    pair = o["pairs"][0]
    assert f"draw the {o['sentences']:,} test sentences with replacement" in page
    assert f"IOB2's {-100 * pair['delta_f1']:.2f}-point lead on S0 → significant (p = {format_p(pair['bootstrap'])} " \
        f"and {format_p(pair['randomization'])})" in page
    f1_row = _f1_row(report)
    assert f"P(iobes better) = {f1_row['p_b_better']:.4f}, that is P(iob2 better) = {f1_row['p_a_better']:.2f}" in page
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    for key in ("bootstrap_p", "randomization_p"):
        hits = [f for f in pair["folds"] if f[key] < o["alpha"]]
        for_b = [f["label"] for f in hits if f["delta_f1"] > 0]
        assert (f"{words[len(hits)]} of the six folds give p < 0.05, {words[len(hits) - len(for_b)]} for IOB2 and "
                f"{words[len(for_b)]}, {', '.join(for_b)}, for IOBES") in page


@pytest.mark.slow
def test_mcnemar_example_of_the_report_page(tmp_path):

    run = tmp_path / "run3"
    assert main(["compare", str(ROOT / "corpora" / "ner_en.conll"), "--task", "ner", "--systems", "iob2,iobes,bilou",
                 "--m", "3", "--max-iterations", "10", "--save-predictions", "--quiet", "--out", str(run)]) == 0
    r = _test_json("--classic", "--fold", "0-1", run=run)
    pair = next(p for p in r["classic"]["mcnemar"]["pairs"] if (p["a"], p["b"]) == ("iob2", "iobes"))
    chi2 = next(t for t in pair["tests"] if t["test"] == "mcnemar_chi2")
    page = _report_page()
    assert (f"b = {chi2['b']} chunks where IOB2 is right and IOBES wrong against c = {chi2['c']} the other way: "
            f"χ²(1) = {chi2['statistic']:.2f}, p = {chi2['p_value']:.1e}") in page
    same = [c for c in r["comparisons"] if (c["a"], c["b"]) == ("iobes", "bilou")]
    assert all(c["p_b_better"] == 0.5 for c in same)


# ----------------------------------------------------------------------------- formats.md: the examples work


def _fences(path: Path) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^```\w*\n(.*?)^```", _text(path), re.DOTALL | re.MULTILINE)]


def test_format_examples_are_read_as_documented(tmp_path, capsys):
    from textbcv.corpus import read_corpus
    from textbcv.tagging import parse_system

    blocks = _fences(DOCS / "formats.md")
    conll = next(b for b in blocks if b.startswith("-DOCSTART-"))
    (tmp_path / "x.conll").write_text(conll, encoding="utf-8")
    c = read_corpus([tmp_path / "x.conll"])
    assert (len(c), c.n_tokens, c.n_documents) == (2, 7, 1)
    assert c[0].chunks == ((0, 1, "ORG"), (2, 3, "MISC")) and c[1].chunks == ((0, 2, "PER"),)

    seg = next(b for b in blocks if b.startswith("迈向"))
    (tmp_path / "x.txt").write_text(seg, encoding="utf-8")
    s = read_corpus([tmp_path / "x.txt"], format="segmented")
    assert len(s) == 2 and s[0].words == ("迈向", "充满", "希望", "的", "新", "世纪")

    evalfile = next(b for b in blocks if b.startswith("EU B-ORG B-ORG"))
    (tmp_path / "pred.txt").write_text(evalfile, encoding="utf-8")
    assert main(["score", str(tmp_path / "pred.txt"), "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    shown = next(b for b in blocks if b.startswith('{"tokens"'))
    assert f'"tokens": {scored["tokens"]}, "accuracy": {scored["accuracy"]}' in shown
    overall = ", ".join(f'"{k}": {v}' for k, v in scored["overall"].items())
    assert "{" + overall + "}" in shown
    assert list(scored["types"]) == ["MISC", "ORG", "PER"]

    template = next(b for b in blocks if b.startswith('{"name": "my_features"'))
    (tmp_path / "my_features.json").write_text(template, encoding="utf-8")
    system = parse_system(f"iob2+{tmp_path / 'my_features.json'}", task="ner")
    assert json.loads(json.dumps(system.template.to_dict())) == json.loads(template)

    counts = next(b for b in blocks if b.startswith('{"m": 3'))
    assert json.loads(counts) == json.loads(EXAMPLE.read_text(encoding="utf-8"))
